"""The wire rules every platform endpoint shares: request ids, response bodies (OTA, B.XML and the
JSON envelope), the header checks of the spec's common rules (Host, Basic auth, Content-Type,
Content-Encoding) and reading the body (XML or JSON)."""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import os
import secrets
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import brotli
from lxml import etree

from workbench.ota import OTA_NS, UnsafeXMLError, XMLSyntaxError, parse_xml
from workbench.sandbox import lzw
from workbench.sandbox.platform.endpoints import BXML, JSON, Endpoint
from workbench.sandbox.platform.issues import Issue, Misuse

#: Content codings the spec allows (common rules).
ALLOWED_ENCODINGS = ("gzip", "compress", "deflate", "br", "identity", "*")
XML_DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'
XML_MEDIA = "application/xml"
JSON_MEDIA = "application/json"


def new_ruid() -> str:
    """A request id like the platform's: base64 of random bytes, ending in ``==``."""
    return base64.b64encode(os.urandom(34)).decode("ascii")


def ruid_comment(ruid: str) -> bytes:
    return f"<!-- RUID: [{ruid}] -->".encode("ascii")


def timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _with_ruid(root: etree._Element, ruid: str) -> bytes:
    return XML_DECLARATION + etree.tostring(root, encoding="utf-8") + b"\n" + ruid_comment(ruid) + b"\n"


def ota_body(rs_name: str, ruid: str, *, errors: Iterable[Issue] = (), warnings: Iterable[Issue] = (),
             version: str = "3.000", error_type: str = "3", extra: Iterable[etree._Element] = ()) -> bytes:
    """An OTA response: ``Success`` (+ ``Warnings``, then the ``extra`` elements) when there are no
    errors, else ``Errors`` only."""
    root = etree.Element(f"{{{OTA_NS}}}{rs_name}", nsmap={None: OTA_NS})
    root.set("TimeStamp", timestamp())
    root.set("Version", version)
    errors = list(errors)
    if errors:
        holder = etree.SubElement(root, f"{{{OTA_NS}}}Errors")
        for e in errors:
            el = etree.SubElement(holder, f"{{{OTA_NS}}}Error", Type=error_type, Code=e.code, ShortText=e.short_text)
            if e.details:
                el.set("Details", e.details)
            if e.record_id is not None:
                el.set("RecordID", str(e.record_id))
            el.set("Status", "NotProcessed")
    else:
        etree.SubElement(root, f"{{{OTA_NS}}}Success")
        warnings = list(warnings)
        if warnings:
            holder = etree.SubElement(root, f"{{{OTA_NS}}}Warnings")
            for w in warnings:
                el = etree.SubElement(holder, f"{{{OTA_NS}}}Warning", Type="10", Code=w.code, ShortText=w.short_text)
                if w.details:
                    el.set("Details", w.details)
                if w.record_id is not None:
                    el.set("RecordID", str(w.record_id))
        root.extend(extra)
    return _with_ruid(root, ruid)


def bxml_fault(code: str, text: str, ruid: str, root: str | None = None) -> bytes:
    """A B.XML fault: ``<fault code string/>``, or inside the operation's own answer element when
    ``root`` is given, as the platform sends it (``<reservations><fault code="401" string="Authorization
    Required"/></reservations>``)."""
    fault = etree.Element("fault", code=code, string=text)
    if root is None:
        return _with_ruid(fault, ruid)
    holder = etree.Element(root)
    holder.append(fault)
    return _with_ruid(holder, ruid)


def bxml_error(text: str, ruid: str) -> bytes:
    """A B.XML error as the platform answers a request it will not serve, in an HTTP 200:
    ``<error>updating availability hasn't been enabled for hotel …</error><!-- RUID: […] -->``."""
    root = etree.Element("error")
    root.text = text
    return _with_ruid(root, ruid)


def bxml_body(root: etree._Element, ruid: str) -> bytes:
    return _with_ruid(root, ruid)


def _json_issue(issue: Issue) -> dict[str, Any]:
    item: dict[str, Any] = {"code": issue.code, "message": issue.short_text}
    if issue.details:
        item["description"] = issue.details
    if issue.record_id is not None:
        item["details"] = {"fields": [str(issue.record_id)]}
    return item


def json_body(ruid: str, data: Any = None, *, errors: Iterable[Issue] = (), warnings: Iterable[Issue] = ()) -> bytes:
    """The modular APIs' envelope: ``{data, warnings[], errors[], meta: {ruid}}``; each issue is
    ``{code, message, description?, details: {fields: [record_id]}?}``."""
    return json.dumps({"data": data, "warnings": [_json_issue(w) for w in warnings],
                       "errors": [_json_issue(e) for e in errors], "meta": {"ruid": ruid}},
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def error_body(endpoint: Endpoint, ruid: str, code: str, text: str) -> bytes:
    """A refusal in the endpoint's own format: OTA ``Errors``, a B.XML fault in its answer element,
    or the JSON envelope with one error."""
    if endpoint.fmt == BXML:
        return bxml_fault(code, text, ruid, root=endpoint.answer_root)
    if endpoint.fmt == JSON:
        return json_body(ruid, errors=[Issue(code, text)])
    return ota_body(endpoint.name + "RS", ruid, errors=[Issue(code, text)])


def media_type(endpoint: Endpoint) -> str:
    """The Content-Type of the endpoint's answers."""
    return JSON_MEDIA if endpoint.fmt == JSON else XML_MEDIA


# --- header checks ------------------------------------------------------------------------------

def normalize_host(value: str, default_port: int = 443) -> str:
    """``Example.org`` -> ``example.org:443``; ``[::1]:8443`` kept as is."""
    value = value.strip().lower().rstrip(".")
    if value.startswith("["):
        return value if "]:" in value else f"{value}:{default_port}"
    host, sep, port = value.rpartition(":")
    if sep and port.isdigit():
        return f"{host.rstrip('.')}:{port}"
    return f"{value}:{default_port}"


@dataclass(frozen=True)
class Account:
    username: str
    password: str


def check_basic_auth(header: str | None, accounts: Mapping[str, str]) -> str:
    """The account name, or :class:`Misuse` 401 when the Basic credentials are missing or wrong."""
    challenge = {"WWW-Authenticate": 'Basic realm="platform sandbox", charset="UTF-8"'}
    if not header or not header.lower().startswith("basic "):
        raise Misuse(401, "401", "Authorization required: send machine account credentials (Basic)", challenge)
    try:
        user, _, password = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        raise Misuse(401, "401", "Authorization header is not valid Basic credentials", challenge) from None
    expected = accounts.get(user)
    if expected is None or not secrets.compare_digest(expected.encode(), password.encode()):
        raise Misuse(401, "401", "Invalid username or password", challenge)
    return user


def decode_body(body: bytes, content_encoding: str | None) -> bytes:
    """Undo the ``Content-Encoding`` (applied left to right, so undone right to left)."""
    codings = [c.strip().lower() for c in (content_encoding or "").split(",") if c.strip()]
    for c in codings:
        if c not in ALLOWED_ENCODINGS:
            raise Misuse(415, "MISUSE_CONTENT_ENCODING", f"Content-Encoding `{c}` is not allowed; use one of "
                         f"{', '.join(ALLOWED_ENCODINGS)}")
    try:
        for c in reversed(codings):
            if c == "gzip":
                body = gzip.decompress(body)
            elif c == "deflate":
                try:
                    body = zlib.decompress(body)
                except zlib.error:
                    body = zlib.decompress(body, -zlib.MAX_WBITS)  # raw deflate, as some clients send
            elif c == "br":
                body = brotli.decompress(body)
            elif c == "compress":
                body = lzw.decompress(body)
    except (OSError, EOFError, zlib.error, brotli.error, lzw.LZWError) as exc:
        raise Misuse(400, "INVALID_BODY_ENCODING", f"the body is not valid {c} data: {exc}") from None
    return body


def sniff(body: bytes) -> str:
    """The body's format by its first characters: ``xml``, ``json``, ``empty`` or ``other``."""
    head = body.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    return {b"<": "xml", b"{": "json", b"[": "json", b"": "empty"}.get(head, "other")


def check_content_type(header: str | None, allowed: tuple[str, ...], body: bytes, name: str,
                       expect: str = "xml") -> None:
    """The media type must be one the endpoint takes, its charset UTF-8, and the body must match it
    (``expect``: ``xml`` or ``json``)."""
    media, _, params = (header or "").partition(";")
    media = media.strip().lower()
    if media not in allowed:
        raise Misuse(415, "MISUSE_CONTENT_TYPE", f"Content-Type `{header or '(none)'}` is not accepted by {name}; "
                     f"send {' or '.join(allowed)}")
    for p in params.split(";"):
        key, _, value = p.partition("=")
        if key.strip().lower() == "charset" and value.strip().strip('"').lower().replace("_", "-") not in ("utf-8", "utf8"):
            raise Misuse(415, "MISUSE_CONTENT_TYPE", f"charset `{value.strip()}` is not accepted: request bodies "
                         "are UTF-8")
    kind = sniff(body)
    if kind not in (expect, "empty"):
        raise Misuse(415, "MISUSE_CONTENT_TYPE", f"Content-Type `{media}` says {expect.upper()} but the body is "
                     f"{kind} (the Content-Type must match the body's format)")


def parse_xml_body(body: bytes) -> etree._Element | None:
    """The body's root element (None when empty), or :class:`Misuse` 400 ``INVALID_XML``."""
    if not body.strip():
        return None
    try:
        return parse_xml(body)
    except UnsafeXMLError as exc:
        raise Misuse(400, "INVALID_XML", str(exc)) from None
    except XMLSyntaxError as exc:
        where = f" (line {exc.line})" if exc.line else ""
        raise Misuse(400, "INVALID_XML", f"the body is {exc}{where}") from None
    except UnicodeDecodeError:
        raise Misuse(400, "INVALID_XML", "the body is not UTF-8") from None


def parse_json_body(body: bytes) -> Any:
    """The body as JSON (None when empty), or :class:`Misuse` 400 ``INVALID_JSON``."""
    if not body.strip():
        return None
    try:
        return json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise Misuse(400, "INVALID_JSON", "the body is not UTF-8") from None
    except ValueError as exc:
        raise Misuse(400, "INVALID_JSON", f"the body is not valid JSON: {exc}") from None
