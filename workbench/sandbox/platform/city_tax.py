"""City tax categories (spec E5 ``/xml/citytaxcategory``; used by E4 ``PropertyTaxInfo@PropertyTaxCategory``).

The spec names the lookup and shows no body or data. The table below is **sandbox data, invented**
for tests and demos (a few Brazilian cities and a few elsewhere); the answer's shape is the one the
client and the sandbox agreed on (docs/sandbox.md):
``<citytaxcategories><citytaxcategory id="3" name="…" country="BR" city="São Paulo"/>…</citytaxcategories>``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from lxml import etree

from workbench.ota import localname


@dataclass(frozen=True)
class CityTaxCategory:
    """One city tax category the platform lists."""

    id: int
    name: str
    country: str
    city: str


#: Invented sandbox data (not the platform's): id, name, country, city.
CITY_TAX_CATEGORIES: tuple[CityTaxCategory, ...] = (
    CityTaxCategory(1, "Hotel or pousada (ISS 5%)", "BR", "São Paulo"),
    CityTaxCategory(2, "Apartment or flat (ISS 2%)", "BR", "São Paulo"),
    CityTaxCategory(3, "Hostel (ISS 2%)", "BR", "São Paulo"),
    CityTaxCategory(4, "Hotel (ISS 5%)", "BR", "Rio de Janeiro"),
    CityTaxCategory(5, "Short-term rental (ISS 2%)", "BR", "Rio de Janeiro"),
    CityTaxCategory(6, "Pousada (ISS 3%)", "BR", "Florianópolis"),
    CityTaxCategory(7, "Tourist tax, hotel", "PT", "Lisboa"),
    CityTaxCategory(8, "Tourist tax, local lodging", "PT", "Lisboa"),
    CityTaxCategory(9, "Tourist tax", "PT", "Porto"),
    CityTaxCategory(10, "Toeristenbelasting, hotel", "NL", "Amsterdam"),
    CityTaxCategory(11, "Toeristenbelasting, holiday rental", "NL", "Amsterdam"),
    CityTaxCategory(12, "Imposta di soggiorno, 4-5 stars", "IT", "Roma"),
)


class CityTaxRequestError(ValueError):
    """A request the platform answers with a B.XML ``<error>text</error>`` (HTTP 200)."""


def same_city(a: str, b: str) -> bool:
    """City names compared without case and accents (``Sao Paulo`` is ``São Paulo``)."""
    def fold(s: str) -> str:
        return "".join(ch for ch in unicodedata.normalize("NFKD", s.strip().casefold())
                       if not unicodedata.combining(ch))
    return fold(a) == fold(b)


def categories_for(country: str | None, city: str | None,
                   table: tuple[CityTaxCategory, ...] = CITY_TAX_CATEGORIES) -> list[CityTaxCategory]:
    """The categories of a country (and city, when given); both None: all."""
    return [t for t in table if (not country or t.country == country.upper())
            and (not city or same_city(t.city, city))]


def filters(root: etree._Element | None) -> tuple[str | None, str | None]:
    """``<request><country>BR</country><city>São Paulo</city></request>`` (attributes also taken;
    an empty body is all categories)."""
    if root is None:
        return None, None
    if localname(root) != "request":
        raise CityTaxRequestError(f"the request must be <request> with optional <country> and <city>, "
                                  f"not <{localname(root)}>")
    found = {k: (v or "").strip() or None for k, v in root.attrib.items() if k in ("country", "city")}
    for child in root:
        if isinstance(child.tag, str) and localname(child) in ("country", "city"):
            found[localname(child)] = (child.text or "").strip() or None
    country = found.get("country")
    if country is not None and not (len(country) == 2 and country.isalpha()):
        raise CityTaxRequestError(f"country `{country}` is not a two-letter country code (e.g. BR)")
    return country, found.get("city")


def citytaxcategories(country: str | None, city: str | None) -> etree._Element:
    root = etree.Element("citytaxcategories")
    for t in categories_for(country, city):
        etree.SubElement(root, "citytaxcategory", id=str(t.id), name=t.name, country=t.country, city=t.city)
    return root
