"""B.XML lookup answers (spec E5: ``/xml/currencies``, ``/xml/countries``, ``/xml/citytaxcategory``) -> rows.

A pure parser; sending the requests and caching the lists is :mod:`workbench.platform.lookups`.
``/xml/currencies`` was sunset on 2025-09-22: the workbench no longer calls it (its currencies are
ISO 4217's), but its answer is still read here for a platform or stand-in that serves it.

The spec names these operations but shows no body. The shape read here is an **assumption**,
shared with the sandbox (docs/content.md, fixtures under ``tests/fixtures/lookups/``)::

    <currencies><currency code="EUR" name="Euro"/>…</currencies>
    <countries><country code="PT" name="Portugal"/>…</countries>
    <citytaxcategories><citytaxcategory id="3" name="Hotel" country="BR" city="São Paulo"/>…</citytaxcategories>

It is read tolerantly: with or without a namespace, values as attributes or child elements,
``id`` or ``code`` for a key, the list element anywhere under the root, extra attributes and
elements ignored. An element without its key is skipped (and counted).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from lxml import etree

from workbench.ota.ns import int_or_none, localname, parse_xml

#: lookup kind -> (the element of one record, the key field, the other fields)
KINDS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "currencies": ("currency", "code", ("name",)),
    "countries": ("country", "code", ("name",)),
    "citytaxcategory": ("citytaxcategory", "id", ("name", "country", "city")),
}
#: the lists the workbench reads from the platform (``currencies`` is sunset: see the module doc)
PLATFORM_LISTS = ("countries", "citytaxcategory")
_ALIASES = {"code": ("code", "id", "iso", "iso_code"), "id": ("id", "category_id", "code"),
            "name": ("name", "description"), "country": ("country", "country_code", "countrycode"),
            "city": ("city", "city_name", "cityname")}


def request_body(kind: str, *, country: str | None = None, city: str | None = None) -> bytes:
    """The request of a lookup (``<request/>``; citytaxcategory may be filtered by country and city)."""
    if kind not in KINDS:
        raise ValueError(f"unknown lookup `{kind}`; one of {', '.join(KINDS)}")
    parts = []
    if kind == "citytaxcategory":
        if country:
            parts.append(f"<country>{escape(country)}</country>")
        if city:
            parts.append(f"<city>{escape(city)}</city>")
    return f"<request>{''.join(parts)}</request>".encode()


@dataclass
class LookupRows:
    """The records of one lookup answer, and how many elements had no key (skipped)."""

    kind: str
    records: list[dict[str, object]] = field(default_factory=list)
    skipped: int = 0


def _value(el: etree._Element, name: str) -> str | None:
    for alias in _ALIASES.get(name, (name,)):
        for key, value in el.attrib.items():
            if key.rsplit("}", 1)[-1].casefold() == alias:
                return value.strip()
        for c in el:
            if isinstance(c.tag, str) and localname(c).casefold() == alias and len(c) == 0:
                return (c.text or "").strip()
    return None


def parse_lookup(kind: str, body: bytes) -> LookupRows:
    """The records of a ``kind`` answer; raises ``ValueError`` when it holds no list of that kind."""
    element, key, others = KINDS[kind]
    root = parse_xml(body)
    items = [el for el in root.iter() if isinstance(el.tag, str) and localname(el).casefold() == element
             and el is not root]
    if not items and localname(root).casefold() not in (element + "s", element + "ies", "citytaxcategories",
                                                          kind, "response", "result"):
        raise ValueError(f"expected a <{kind}> answer, got <{localname(root) or '?'}>")
    out = LookupRows(kind)
    for el in items:
        k = _value(el, key)
        if not k:
            out.skipped += 1
            continue
        rec: dict[str, object] = {key: int_or_none(k) if key == "id" else k.upper()}
        if key == "id" and rec[key] is None:
            out.skipped += 1
            continue
        for name in others:
            v = _value(el, name)
            rec[name] = (v.upper() if name == "country" and v else v) or None
        out.records.append(rec)
    return out
