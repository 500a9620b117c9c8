"""Parse any response of the platform (OTA ``...RS``, B.XML ``<ok/>``/``<fault/>``, lookups) into
one typed :class:`OTAResponse`: success, warnings, errors and the request id (``ruid``).

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


@dataclass(frozen=True)
class OTAResponse:
    """What a response says. ``success`` is True only for an OTA ``Success`` (or B.XML ``ok``,
    or a data answer such as ``<rooms>``) with no errors."""

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
    if name == "fault":  # B.XML failure: <fault code="401" string="..."/>
        err = Notice(kind="error", code=attrs.get("code"), short_text=attrs.get("string"),
                     text=(root.text or "").strip() or None)
        return OTAResponse(root=name, success=False, errors=(err,), ruid=ruid, attributes=attrs)
    warnings: list[Notice] = []
    errors: list[Notice] = []
    has_success = False
    for el in root.iter(etree.Element):
        local = localname(el)
        if local == "Success" and el.getparent() is root:
            has_success = True
        elif local == "Warning" and el.getparent() is not None and localname(el.getparent()) == "Warnings":
            warnings.append(_notice("warning", el))
        elif local == "Error" and el.getparent() is not None and localname(el.getparent()) == "Errors":
            errors.append(_notice("error", el))
    if name == "ok":
        has_success = True
    elif not name.endswith("RS") and not errors:
        has_success = True  # a data answer (e.g. <rooms>, <currencies>) without errors
    return OTAResponse(root=name, success=has_success and not errors, warnings=tuple(warnings),
                       errors=tuple(errors), ruid=ruid, version=attrs.get("Version") or attrs.get("version"),
                       timestamp=_timestamp(attrs.get("TimeStamp")), timestamp_text=attrs.get("TimeStamp"),
                       namespace=ns, attributes=attrs)
