"""Code checks for search parameters: ISO 3166-1 alpha-2 countries, ISO 4217 currencies, IETF tags.

Country and currency lists come from CLDR through ``babel`` (shipped in its wheel, no download).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from functools import cache

# CLDR territories that are not ISO 3166-1 alpha-2 country codes (exceptionally reserved
# or private-use). XK (Kosovo, user-assigned) is kept: travellers book from there.
_NOT_ISO_3166 = frozenset({"AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "TA", "UN", "QO", "XA", "XB", "ZZ"})
_COMMON_MISTAKES = {"UK": "gb (the United Kingdom is `gb` in ISO 3166-1)", "EL": "gr (Greece is `gr` in ISO 3166-1)"}

# BCP 47 in the shape travel APIs use: language, optional script, optional region / variants.
_IETF_TAG = re.compile(r"^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|[0-9]{3}))?(-([a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*$")


@cache
def countries() -> frozenset[str]:
    """Upper-case ISO 3166-1 alpha-2 codes."""
    from babel import Locale

    # babel types the keys as ``str | int | None``; CLDR territory keys are always strings
    return frozenset(k for k in Locale("en").territories
                     if isinstance(k, str) and len(k) == 2 and k.isalpha()) - _NOT_ISO_3166


@cache
def currencies() -> frozenset[str]:
    """Upper-case ISO 4217 codes known to CLDR."""
    from babel.numbers import list_currencies

    return frozenset(list_currencies())


def country_problem(value: str) -> str | None:
    """Why ``value`` is not a country code, or ``None`` when it is one."""
    code = value.strip().upper()
    if code in _COMMON_MISTAKES:
        return f"`{value}` is not an ISO 3166-1 alpha-2 code; use {_COMMON_MISTAKES[code]}"
    if len(code) != 2 or not code.isalpha():
        return f"`{value}` is not a two-letter ISO 3166-1 alpha-2 country code (e.g. `nl`, `gb`, `us`)"
    if code not in countries():
        return f"`{value}` is not an assigned ISO 3166-1 alpha-2 country code"
    return None


def currency_problem(value: str) -> str | None:
    """Why ``value`` is not an ISO 4217 currency code, or ``None``."""
    code = value.strip().upper()
    if len(code) != 3 or not code.isalpha():
        return f"`{value}` is not a three-letter ISO 4217 currency code (e.g. `EUR`, `GBP`, `USD`)"
    if code not in currencies():
        return f"`{value}` is not an ISO 4217 currency code"
    return None


def language_tag_problem(value: str) -> str | None:
    """Why ``value`` is not an IETF (BCP 47) language tag, or ``None``."""
    tag = value.strip().lower().replace("_", "-")
    if not _IETF_TAG.match(tag):
        return f"`{value}` is not an IETF language tag (e.g. `en-gb`, `nl`, `pt-br`)"
    return None


def normalise_language(value: str) -> str:
    """Lower-case with hyphens: ``en_GB`` and ``EN-gb`` both become ``en-gb``."""
    return value.strip().lower().replace("_", "-")


def suggest(value: str, choices: Collection[str], n: int = 3) -> str:
    """`` (did you mean `a`, `b`?)`` or an empty string."""
    close = difflib.get_close_matches(value, sorted(choices), n=n, cutoff=0.5)
    return f" (did you mean {', '.join(f'`{c}`' for c in close)}?)" if close else ""
