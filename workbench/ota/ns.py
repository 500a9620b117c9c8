"""XML namespaces of the platform's messages, and the one safe way to parse XML.

Every XML body that comes from outside (a response, or a request the sandbox receives) is
parsed by :func:`parse_xml`: no entity expansion, no network access, no DTDs at all.
"""

from __future__ import annotations

from lxml import etree

#: OpenTravel 2003B (and later releases) message namespace.
OTA_NS = "http://www.opentravel.org/OTA/2003/05"
NSMAP: dict[str | None, str] = {None: OTA_NS}

__all__ = ["OTA_NS", "NSMAP", "UnsafeXMLError", "XMLSyntaxError", "localname", "ota", "parse_xml"]


class UnsafeXMLError(ValueError):
    """The document declares a DTD (or entities); such documents are refused, never parsed."""


class XMLSyntaxError(ValueError):
    """The body is not well-formed XML; ``line`` is 1-based when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def ota(tag: str) -> str:
    """The Clark name of an OTA element, e.g. ``ota("Success")`` -> ``{http://...}Success``."""
    return f"{{{OTA_NS}}}{tag}"


def localname(element: etree._Element) -> str:
    """Tag without namespace (``""`` for comments and processing instructions)."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False, remove_blank_text=False, remove_comments=False)


def parse_xml(data: bytes | str) -> etree._Element:
    """Parse ``data`` into its root element, refusing DTDs, entity declarations and network access."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if b"<!DOCTYPE" in raw or b"<!ENTITY" in raw:
        raise UnsafeXMLError("XML with a DTD or entity declarations is not accepted (remove the `<!DOCTYPE ...>`)")
    if isinstance(data, str):
        # lxml refuses str input with an encoding declaration; bytes carry their own
        data = raw
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise XMLSyntaxError(f"not well-formed XML: {exc.msg}", line) from None
    if root.getroottree().docinfo.doctype:
        raise UnsafeXMLError("XML with a DTD is not accepted")
    return root


def children(el: etree._Element, name: str) -> list[etree._Element]:
    """The child elements of ``el`` called ``name``, in any namespace or none."""
    return [c for c in el if isinstance(c.tag, str) and localname(c) == name]


def child(el: etree._Element, name: str) -> etree._Element | None:
    """The first child element of ``el`` called ``name`` (any namespace), or None."""
    found = children(el, name)
    return found[0] if found else None


def int_or_none(text: str | None) -> int | None:
    """A whole number written in an attribute or text (``"-3"``, ``" 12 "``); None otherwise."""
    return int(text) if text is not None and text.strip().lstrip("-").isdigit() else None
