"""Rules new with the modular APIs (issue 24), on the analyst's cells of the content workbook.

Each rule names its source (docs/modular.md, "Rules new with the APIs"): the Property API description
([O] property-details-api-specification) for the name, the check-in/out times, the target, the stars, the
partner's id, the floors and the age buckets; the Contacts API pages for the phones and the General contact.
They apply when the workbook goes through the modular APIs (``validate_content_modular``); the HDCN rules of
``validate_content`` stay as they are. Each distinct value is judged once.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from functools import lru_cache

import pandas as pd

from expectations.content_frames import Checker, ContentLookups, each
from expectations.reference import cet_today
from loaders.issues import combine, empty_issues
from loaders.wording import count

__all__ = ["MAX_AGE_BUCKETS", "PHONE_LIMITS", "RULES", "check", "modular_name_problems", "time_problem",
           "validate_content_modular"]

NAME_MIN, NAME_MAX, NAME_DIGITS, NAME_LETTERS = 3, 255, 5, 3
TIME = re.compile(r"(?:[01]\d|2[0-3]):[03]0")
STARS = re.compile(r"0(?:\.0)?|[1-4](?:\.[05])?|5(?:\.0)?")
TARGETS = ("test", "production")
PROVIDER_ID_MAX = 16
FLOORS = (0, 200)
AGE = (0, 17)
MAX_AGE_BUCKETS = 3
#: how many phones of each PhoneTechType one contact may carry (1 voice, 3 fax, 5 mobile)
PHONE_LIMITS = {1: 3, 3: 1, 5: 1}
RULES = ("modular_name_length", "modular_name_letters", "modular_name_cjk", "modular_name_digits",
         "modular_name_symbols", "modular_time_format", "modular_target_value", "modular_target_required",
         "modular_stars_value", "modular_provider_id_length", "modular_floors_range", "modular_phone_count",
         "modular_one_general", "modular_general_required", "modular_age_bucket_range", "modular_age_buckets_count")


def _cjk(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith(("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH"))


@lru_cache(maxsize=65536)
def modular_name_problems(name: str) -> tuple[tuple[str, str], ...]:
    """``(rule, message)`` for each part of the Property API's name rule that ``name`` breaks."""
    letters = [ch for ch in name if ch.isalpha() and not _cjk(ch)]
    cjk = "".join(sorted({ch for ch in name if _cjk(ch)}))
    digits = sum(ch.isdigit() for ch in name)
    symbols = " ".join(f"`{ch}`" for ch in sorted({ch for ch in name if unicodedata.category(ch)[0] in "PS"}))
    checks = (
        ("modular_name_length", not NAME_MIN <= len(name) <= NAME_MAX,
         f"the name has {count(len(name), 'character')}; the Property API takes {NAME_MIN} to {NAME_MAX}: "
         + ("write the full name" if len(name) < NAME_MIN else "shorten it")),
        ("modular_name_letters", len(letters) < NAME_LETTERS or not any(ch.islower() for ch in letters),
         f"the name needs at least {NAME_LETTERS} letters, one of them lower case (not all capitals): write it in "
         "normal case"),
        ("modular_name_cjk", bool(cjk), f"the Property API takes no CJK ideographs in a name ({cjk}): write the name "
                                        "in another script (a translation keeps the local one)"),
        ("modular_name_digits", digits > NAME_DIGITS, f"the name has {digits} digits; the Property API takes at most "
                                                      f"{NAME_DIGITS}: remove the numbers"),
        ("modular_name_symbols", bool(symbols), "the Property API takes no punctuation, asterisks or symbols in a "
                                                f"name: {symbols}: remove them"),
    )
    return tuple((rule, message) for rule, failed, message in checks if failed)


def time_problem(value: str) -> str | None:
    """Why ``HH:MM`` or ``HH:MM-HH:MM`` is not a time the Property API takes (``None``: it is)."""
    parts = [p.strip() for p in value.split("-")]
    if len(parts) > 2 or not all(TIME.fullmatch(p) for p in parts):
        return ("the Property API takes check-in/out times as `HH:MM` on the hour or the half hour (00:00 to 23:30), "
                "or a range `HH:MM-HH:MM`: e.g. `14:00` or `14:30-22:00`")
    return None


def _names(c: Checker) -> None:
    prop = c.parts["Property"]
    problems = each(prop["hotel_name"], modular_name_problems)
    found: dict[str, list[str | None]] = {}
    for i, rules in enumerate(problems.tolist()):
        for rule, message in rules or ():
            found.setdefault(rule, [None] * len(problems))[i] = message
    for rule, messages in found.items():
        hit = pd.Series(messages, index=prop.index, dtype=object)
        c.flag("Property", hit.notna(), "hotel_name", rule, hit)


def _property(c: Checker) -> None:
    prop = c.parts["Property"]
    for column in ("check_in_time", "check_out_time"):
        bad = each(prop[column], time_problem)
        c.flag("Property", bad.notna(), column, "modular_time_format", bad)
    target = prop["target"].str.strip().str.casefold()
    c.flag("Property", target.notna() & ~target.isin(TARGETS).fillna(False), "target", "modular_target_value",
           "the Property API's target is `test` or `production` (sent in lower case): correct it")
    new = c.of_property("Property", "is_new").astype(bool)
    c.flag("Property", new & target.isna(), "target", "modular_target_required",
           "a property created through the Property API needs its target: `test` or `production`")
    stars = prop["star_rating"].astype("string")
    c.flag("Property", stars.notna() & ~stars.str.fullmatch(STARS.pattern).fillna(False), "star_rating",
           "modular_stars_value", "the Property API takes stars 0 to 5 (halves from 1, e.g. 4.5): correct the rating")
    c.flag("Property", prop["custom_id"].str.len().gt(PROVIDER_ID_MAX).fillna(False), "custom_id",
           "modular_provider_id_length", f"the Property API keeps your ID (provider_property_id) in at most "
                                         f"{PROVIDER_ID_MAX} characters: shorten it")
    floors = prop["total_floors"]
    c.flag("Property", floors.notna() & ~floors.between(*FLOORS).fillna(False), "total_floors",
           "modular_floors_range", f"the Property API's floor_count is {FLOORS[0]} to {FLOORS[1]} (underground "
                                   "floors excluded): correct it")


def _contacts(c: Checker) -> None:
    contacts = c.parts["Contacts"]
    kind = contacts["profile_type"].str.strip().str.casefold()
    people = contacts.assign(kind=kind)
    phoned = people[people["phone"].notna() & people["phone_tech_type"].notna() & kind.ne("physicallocation")]
    seen = phoned.groupby(["property", "kind", "phone_tech_type"], sort=False).cumcount() + 1
    limit = phoned["phone_tech_type"].map(PHONE_LIMITS)
    over = pd.Series(False, index=contacts.index)
    over[phoned.index[(seen > limit).fillna(False).to_numpy()]] = True
    c.flag("Contacts", over, "phone", "modular_phone_count",
           lambda sub: [f"this contact has more phones of PhoneTechType {int(t)} than the Contacts API takes "
                        f"({PHONE_LIMITS[int(t)]}; voice 3, fax and mobile one each): remove this one"
                        for t in sub["phone_tech_type"]])
    person = (contacts["given_name"].fillna("") + " " + contacts["surname"].fillna("")).str.strip().str.casefold()
    general = people.assign(person=person)[kind.eq("general").fillna(False) & person.ne("").fillna(False)]
    first = general.groupby("property", sort=False)["person"].transform("first")
    other = pd.Series(False, index=contacts.index)
    other[general.index[(general["person"] != first).to_numpy()]] = True
    c.flag("Contacts", other, "given_name", "modular_one_general",
           "the Contacts API takes one General contact per property; this `general` row names another person: keep "
           "one General contact (another person goes under another profile type)")
    prop = c.parts["Property"]
    has_general = prop["property"].isin(set(contacts["property"][kind.eq("general").fillna(False)]))
    new = c.of_property("Property", "is_new").astype(bool)
    c.flag("Property", new & ~has_general, "property", "modular_general_required",
           "a General contact is mandatory to set a property up through the Contacts API: add a `general` row on "
           "the Contacts sheet")


def _age_buckets(c: Checker) -> None:
    fees = c.parts["Fees"]
    for column in ("min_age", "max_age"):
        ages = fees[column]
        c.flag("Fees", ages.notna() & ~ages.between(*AGE).fillna(False), column, "modular_age_bucket_range",
               f"an age range of the settings' age_buckets is {AGE[0]} to {AGE[1]} (both ends inclusive): correct it")
    ranged = fees[fees["min_age"].notna() | fees["max_age"].notna()]
    first = ranged.drop_duplicates(["property", "min_age", "max_age"])
    rank = first.groupby("property", sort=False).cumcount() + 1
    over = pd.Series(False, index=fees.index)
    over[first.index[(rank > MAX_AGE_BUCKETS).to_numpy()]] = True
    c.flag("Fees", over, "min_age", "modular_age_buckets_count",
           f"a property has one to {MAX_AGE_BUCKETS} age buckets (children's price ranges); this is a further range: "
           "merge it with another")


def check(c: Checker) -> None:
    """Every modular rule on ``c``'s parts."""
    _names(c)
    _property(c)
    _contacts(c)
    _age_buckets(c)


def validate_content_modular(parts: dict[str, pd.DataFrame], *, load_issues: pd.DataFrame | None = None,
                             today: dt.date | None = None) -> pd.DataFrame:
    """The rules new with the modular APIs on ``loaders.read_content``'s parts (one issues frame)."""
    checker = Checker.of(parts, ContentLookups(), False, pd.Timestamp(today or cet_today()))
    check(checker)
    return combine([load_issues if load_issues is not None else empty_issues(), *checker.issues()])

