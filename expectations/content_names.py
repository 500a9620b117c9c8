"""Property names (spec E4 name rules, Limits) and Latin-only text for creation.

A name: 3 to 255 characters; no phone number (at most five consecutive digits); only letters of
any language, digits, spaces and ``! # & ` ' " - ,``; not all upper case. To create a property
the name and the physical address line are in Latin characters only. Each distinct value is
judged once.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import numpy as np
import pandas as pd

from expectations.content_frames import Checker, blank, each
from loaders.wording import count

NAME_SYMBOLS = "!#&`'\"-,"
MIN_NAME, MAX_NAME = 3, 255
_DIGITS = re.compile(r"\d{6,}")
_ASCII_REFUSED = re.compile("[^A-Za-z0-9 " + re.escape(NAME_SYMBOLS) + "]")


def _allowed(ch: str) -> bool:
    """A letter of any language (with its marks), a decimal digit, a space or one of the symbols."""
    category = unicodedata.category(ch)
    return ch == " " or ch in NAME_SYMBOLS or category[0] in "LM" or category == "Nd"


@lru_cache(maxsize=65536)
def name_problems(name: str) -> tuple[tuple[str, str], ...]:
    """``(rule, message)`` for each name rule ``name`` breaks (empty when it is a valid name)."""
    out = []
    n = len(name)
    if not MIN_NAME <= n <= MAX_NAME:
        out.append(("name_length", f"the name has {n} characters; it needs {MIN_NAME} to {MAX_NAME}: "
                                   + ("write the full name" if n < MIN_NAME else "shorten it")))
    run = _DIGITS.search(name)
    if run:
        out.append(("name_digits", f"the name holds {count(len(run[0]), 'digit')} in a row (`{run[0]}`); at most five are "
                                   "allowed (no phone numbers in names): remove them"))
    bad = sorted(set(_ASCII_REFUSED.findall(name)) if name.isascii() else {ch for ch in name if not _allowed(ch)})
    if bad:
        shown = " ".join(f"`{c}`" if c.strip() else repr(c) for c in bad)
        out.append(("name_characters", f"the name has characters the platform refuses: {shown}; only letters, "
                                       "digits, spaces and ! # & ` ' \" - , are allowed: remove or replace them"))
    if any(ch.isupper() for ch in name) and not any(ch.islower() for ch in name):
        out.append(("name_all_caps", "the name is all upper case: write it in normal case (e.g. "
                                     f"`{name.title()}`)"))
    return tuple(out)


@lru_cache(maxsize=65536)
def non_latin(text: str) -> str:
    """The words of ``text`` with letters that are not Latin script (empty when there are none)."""
    if text.isascii():
        return ""
    return " ".join(w for w in text.split()
                    if any(ch.isalpha() and not unicodedata.name(ch, "").startswith("LATIN") for ch in w))


def check(c: Checker) -> None:
    prop = c.parts["Property"]
    new = c.of_property("Property", "is_new").astype(bool)
    name = prop["hotel_name"]
    c.flag("Property", new & blank(name), "hotel_name", "name_required",
           "a new property needs its name (HotelName): fill it in")
    problems = each(name, name_problems)
    rules = ("name_length", "name_digits", "name_characters", "name_all_caps")
    hits = {rule: np.full(len(problems), None, dtype=object) for rule in rules}
    for i, found in enumerate(problems.tolist()):  # one pass, visiting only the names with a problem
        for rule, message in found or ():
            if hits[rule][i] is None:
                hits[rule][i] = message
    for rule in rules:
        hit = pd.Series(hits[rule], index=problems.index, dtype=object)
        c.flag("Property", hit.notna(), "hotel_name", rule, hit)
    letters = each(name, non_latin)
    c.flag("Property", new & _truthy(letters), "hotel_name", "name_not_latin",
           lambda sub: [f"a new property's name must be in Latin characters only; it has `{letters[i]}`: write "
                        "it in Latin letters (the name in another script goes in the address's HotelName)"
                        for i in sub.index])
    contacts = c.parts["Contacts"]
    physical = contacts["profile_type"].eq("PhysicalLocation").fillna(False)
    line = contacts["address_line"]
    letters = each(line, non_latin)
    new_c = c.of_property("Contacts", "is_new").astype(bool)
    c.flag("Contacts", physical & new_c & _truthy(letters), "address_line", "address_not_latin",
           lambda sub: [f"a new property's address line must be in Latin characters only; it has "
                        f"`{letters[i]}`: write it in Latin letters" for i in sub.index])


def _truthy(s: pd.Series) -> pd.Series:
    """``bool`` of each value (``s.map(bool)`` without pandas' per-row dtype inference)."""
    return pd.Series(np.fromiter((bool(v) for v in s.tolist()), dtype=bool, count=len(s)), index=s.index)


def hit_series(values: pd.Series) -> pd.Series:
    """Every rule each name breaks, as text (for the benchmark and notebooks)."""
    return each(values, lambda v: ", ".join(r for r, _ in name_problems(v)))
