"""Parse any response of the platform (OTA ``...RS``, B.XML ``<ok/>``/``<fault/>``/``<error>``, lookups)
into one typed :class:`OTAResponse`: success, content, warnings, errors and the request id (``ruid``).

Classification (the caller, :mod:`workbench.transport.client`, decides per kind of operation):

- a **write** succeeds only on an explicit OTA ``Success`` (a child of the root) or B.XML ``<ok/>``;
- a **read** succeeds when its content is there (``has_content``) and no error is: the published
  ``OTA_HotelDescriptiveInfoRS`` carries no ``Success``, only content;
- an OTA ``Errors/Error``, a B.XML ``<error>`` or a ``<fault>`` anywhere in the answer is an error,
  with every code and text kept (``<reservations><fault code="401" .../></reservations>`` too);
- anything else is *unrecognised*: never read as success.

Tolerates what the real platform sends: the OTA namespace or none, ``TimeStamp`` with or
without an offset, ``Error``/``Warning`` with ``Type``, ``Code``, ``Status``, ``RecordID``,
``ShortText``, ``Details`` and/or text content, and the ``<!-- RUID: [...] -->`` comment after
the root element on the same line or its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from lxml import etree

from workbench.ota.ns import UnsafeXMLError, XMLSyntaxError, localname, parse_xml

__all__ = ["Notice", "OTAResponse", "ResponseParseError", "extract_ruid", "parse_response"]

_RUID_RE = re.compile(r"RUID:\s*\[\s*([^\]\s]*)\s*\]", re.IGNORECASE)
_RUID_BYTES_RE = re.compile(rb"<!--\s*RUID:\s*\[\s*([^\]\s]*)\s*\]\s*-->", re.IGNORECASE)


class ResponseParseError(ValueError):
    """The body is not a readable XML response (truncated, HTML error page, DTD, ...)."""


@dataclass(frozen=True)
class Notice:
    """One ``Warning`` or ``Error`` (or a B.XML ``fault``) as the platform sent it."""

    kind: str  # "error" or "warning"
    code: str | None = None
    short_text: str | None = None
    details: str | None = None
    type: str | None = None
    status: str | None = None
    record_id: str | None = None
    text: str | None = None

    @property
    def message(self) -> str:
        """The most informative text available, for people."""
        parts = [p for p in (self.short_text, self.details, self.text) if p]
        return " - ".join(dict.fromkeys(parts)) or (self.code or "")


#: Elements of an OTA ``...RS`` that are envelope, not content.
_ENVELOPE = frozenset({"Success", "Warnings", "Errors"})


@dataclass(frozen=True)
class OTAResponse:
    """What a response says. ``success`` is True only for an explicit OTA ``Success`` (or B.XML
    ``<ok/>``) with no errors; ``has_content`` says whether anything besides the envelope came."""

    root: str
    success: bool
    warnings: tuple[Notice, ...] = ()
    errors: tuple[Notice, ...] = ()
    ruid: str | None = None
    version: str | None = None
    timestamp: datetime | None = None
    timestamp_text: str | None = None
    namespace: str | None = None
    attributes: dict[str, str] = field(default_factory=dict)
    has_content: bool = False

    def read_ok(self) -> bool:
        """A read's verdict: its content is there and no error is (``Success`` is not required; an OTA
        ``...RS`` holding only ``Success`` is an answer too, a bare B.XML ``<ok/>`` is not)."""
        return not self.errors and (self.has_content or (self.success and self.root != "ok"))

    @property
    def error_codes(self) -> tuple[str, ...]:
        return tuple(n.code or "" for n in self.errors)

    @property
    def warning_codes(self) -> tuple[str, ...]:
        return tuple(n.code or "" for n in self.warnings)


def extract_ruid(body: bytes | str) -> str | None:
    """The request id of a body, read from its ``<!-- RUID: [...] -->`` comment (or JSON field)."""
    raw = body.encode("utf-8", "replace") if isinstance(body, str) else body
    matches = _RUID_BYTES_RE.findall(raw)
    if matches:
        return matches[-1].decode("ascii", "replace")
    json_match = re.search(rb'"ruid"\s*:\s*"([^"]*)"', raw)
    return json_match.group(1).decode("utf-8", "replace") if json_match else None


def _timestamp(text: str | None) -> datetime | None:
    if not text:
        return None
    value = text.strip().replace("Z", "+00:00")
    if value.endswith("-00:00"):
        value = value[:-6] + "+00:00"
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def _notice(kind: str, el: etree._Element) -> Notice:
    attrs = {k.rsplit("}", 1)[-1]: v for k, v in el.attrib.items()}
    text = (el.text or "").strip() or None
    return Notice(kind=kind, code=attrs.get("Code"), short_text=attrs.get("ShortText"),
                  details=attrs.get("Details"), type=attrs.get("Type"), status=attrs.get("Status"),
                  record_id=attrs.get("RecordID"), text=text)


def _ruid_from_tree(root: etree._Element) -> str | None:
    for node in (*root.itersiblings(), *root.itersiblings(preceding=True), *root.iter(etree.Comment)):
        if isinstance(node, etree._Comment):
            m = _RUID_RE.search(node.text or "")
            if m:
                return m.group(1)
    return None


def _fault(el: etree._Element) -> Notice:
    attrs = {k.rsplit("}", 1)[-1]: v for k, v in el.attrib.items()}
    return Notice(kind="error", code=attrs.get("code") or attrs.get("Code"),
                  short_text=attrs.get("string") or attrs.get("ShortText"), text=(el.text or "").strip() or None)


def _bxml_error(el: etree._Element) -> Notice:
    """B.XML ``<error>text</error>`` (or with ``code``/``Code`` attributes)."""
    attrs = {k.rsplit("}", 1)[-1]: v for k, v in el.attrib.items()}
    text = " ".join("".join(el.itertext()).split()) or None
    return Notice(kind="error", code=attrs.get("code") or attrs.get("Code"), short_text=attrs.get("ShortText"),
                  text=text)


def parse_response(body: bytes | str) -> OTAResponse:
    """Read ``body`` into an :class:`OTAResponse`; raise :class:`ResponseParseError` when it is
    not an XML response at all."""
    if not body or not (body.strip() if isinstance(body, bytes) else body.strip()):
        raise ResponseParseError("empty response body")
    try:
        root = parse_xml(body)
    except (XMLSyntaxError, UnsafeXMLError) as exc:
        raise ResponseParseError(f"unreadable response: {exc}") from None
    name = localname(root)
    tag = root.tag if isinstance(root.tag, str) else ""
    ns = tag[1:].split("}", 1)[0] if tag.startswith("{") else None
    attrs = {k.rsplit("}", 1)[-1]: v for k, v in root.attrib.items()}
    ruid = _ruid_from_tree(root)
    warnings: list[Notice] = []
    errors: list[Notice] = []
    has_success = name == "ok"
    for el in root.iter(etree.Element):
        local = localname(el)
        parent = el.getparent()
        parent_name = localname(parent) if parent is not None else None
        if local == "Success" and parent is root:
            has_success = True
        elif local == "ok" and parent is root:
            has_success = True
        elif local == "Warning" and parent_name == "Warnings":
            warnings.append(_notice("warning", el))
        elif local == "Error" and parent_name == "Errors":
            errors.append(_notice("error", el))
        elif local == "fault":
            errors.append(_fault(el))
        elif local == "error" and parent_name != "error":
            errors.append(_bxml_error(el))
    if name.endswith("RS"):
        content = any(localname(c) not in _ENVELOPE for c in root.iterchildren(etree.Element))
    else:  # a B.XML data answer (<rooms>, <reservations>, ...) is content, even an empty list
        content = name not in ("ok", "fault", "error")
    return OTAResponse(root=name, success=has_success and not errors, warnings=tuple(warnings),
                       errors=tuple(errors), ruid=ruid, version=attrs.get("Version") or attrs.get("version"),
                       timestamp=_timestamp(attrs.get("TimeStamp")), timestamp_text=attrs.get("TimeStamp"),
                       namespace=ns, attributes=attrs, has_content=content)
