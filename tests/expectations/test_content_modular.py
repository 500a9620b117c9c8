"""The rules new with the modular APIs (issue 24), each on the analyst's cell: a table of bad inputs per rule,
and properties for the rules that must hold for every input."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from expectations.content_modular import (
    RULES,
    modular_name_problems,
    time_problem,
    validate_content_modular,
)
from tests.expectations.conftest import N1, TODAY

Change = Callable[[dict[str, list[dict]]], object]


def prop(**cells: object) -> Change:
    return lambda s: s["Property"][0].update(cells)


def contact(i: int, **cells: object) -> Change:
    return lambda s: s["Contacts"][i].update(cells)


def rename(custom_id: str) -> Change:
    """The property's ID on every row."""
    return lambda s: [row.update(custom_id=custom_id) for part in s.values() for row in part]


def add(part: str, *rows: dict) -> Change:
    return lambda s: s.setdefault(part, []).extend({**N1, **r} for r in rows)


BAD = [  # (change, sheet, row, column, rule)
    (prop(hotel_name="x" * 256), "Property", 2, "HotelName", "modular_name_length"),
    (prop(hotel_name="SEA VIEW INN"), "Property", 2, "HotelName", "modular_name_letters"),
    (prop(hotel_name="Ab 12"), "Property", 2, "HotelName", "modular_name_letters"),
    (prop(hotel_name="Sea View 東京"), "Property", 2, "HotelName", "modular_name_cjk"),
    (prop(hotel_name="Inn 123456"), "Property", 2, "HotelName", "modular_name_digits"),
    (prop(hotel_name="Inn 12 Rooms 3456"), "Property", 2, "HotelName", "modular_name_digits"),
    (prop(hotel_name="Sea View Inn!"), "Property", 2, "HotelName", "modular_name_symbols"),
    (prop(hotel_name="Sea-View Inn"), "Property", 2, "HotelName", "modular_name_symbols"),
    (prop(hotel_name="Sea View Inn *****"), "Property", 2, "HotelName", "modular_name_symbols"),
    (prop(hotel_name="Sea View Inn €"), "Property", 2, "HotelName", "modular_name_symbols"),
    (prop(check_in_time="14:15"), "Property", 2, "CheckInTime", "modular_time_format"),
    (prop(check_in_time="24:00"), "Property", 2, "CheckInTime", "modular_time_format"),
    (prop(check_in_time="9:00"), "Property", 2, "CheckInTime", "modular_time_format"),
    (prop(check_in_time="14:00-22:45"), "Property", 2, "CheckInTime", "modular_time_format"),
    (prop(check_out_time="11:00-12:00-13:00"), "Property", 2, "CheckOutTime", "modular_time_format"),
    (prop(check_out_time="noon"), "Property", 2, "CheckOutTime", "modular_time_format"),
    (prop(target="Staging"), "Property", 2, "Target", "modular_target_value"),
    (prop(target=None), "Property", 2, "Target", "modular_target_required"),
    (prop(star_rating=6), "Property", 2, "StarRating", "modular_stars_value"),
    (prop(star_rating=-1), "Property", 2, "StarRating", "modular_stars_value"),
    (rename("N1-LISBON-RIVERSIDE"), "Property", 2, "ID", "modular_provider_id_length"),
    (prop(total_floors=201), "Property", 2, "TotalNumberOfFloors", "modular_floors_range"),
    (prop(total_floors=-1), "Property", 2, "TotalNumberOfFloors", "modular_floors_range"),
    (add("Contacts", *({"profile_type": "general", "phone": f"+35121342000{i}", "phone_tech_type": 1}
                       for i in range(1, 4))), "Contacts", 7, "PhoneNumber", "modular_phone_count"),
    (add("Contacts", {"profile_type": "invoices", "phone": "+351912345679", "phone_tech_type": 5}),
     "Contacts", 5, "PhoneNumber", "modular_phone_count"),
    (add("Contacts", {"profile_type": "GENERAL", "phone": "+351213420009", "phone_tech_type": 3},
         {"profile_type": "general", "phone": "+351213420008", "phone_tech_type": 3}),
     "Contacts", 6, "PhoneNumber", "modular_phone_count"),
    (add("Contacts", {"profile_type": "general", "given_name": "Rita", "surname": "Gomes"}),
     "Contacts", 5, "GivenName", "modular_one_general"),
    (lambda s: s["Contacts"].pop(1), "Property", 2, "ID", "modular_general_required"),
    (add("Fees", {"code": 44, "amount": 5.0, "min_age": 0, "max_age": 18}), "Fees", 2, "MaxAge",
     "modular_age_bucket_range"),
    (add("Fees", {"code": 44, "amount": 5.0, "min_age": -1, "max_age": 2}), "Fees", 2, "MinAge",
     "modular_age_bucket_range"),
    (add("Fees", *({"code": 44, "amount": 5.0, "min_age": a, "max_age": a + 2} for a in (0, 3, 6, 9))), "Fees", 5,
     "MinAge", "modular_age_buckets_count"),
]


@pytest.mark.parametrize(("change", "sheet", "row", "column", "rule"), BAD, ids=[f"{b[-1]}-{i}" for i, b in
                                                                                enumerate(BAD)])
def test_each_rule_on_its_cell(content: Callable[..., dict[str, pd.DataFrame]], change: Change, sheet: str, row: int,
                               column: str, rule: str) -> None:
    issues = validate_content_modular(content(change), today=TODAY)
    assert [(i.sheet, i.row, i.column, i.rule, i.severity) for i in issues.itertuples()] == \
        [(sheet, row, column, rule, "error")]
    assert issues["message"].str.len().gt(30).all()


@pytest.mark.parametrize("change", [
    prop(hotel_name="Quinta do Vale Verde"), prop(hotel_name="Hôtel des Écoles"), prop(hotel_name="Гостиница Море"),
    prop(hotel_name="Inn 12345"), prop(target="PRODUCTION"), prop(star_rating=5), prop(star_rating=0),
    prop(check_in_time="00:00-00:00"), prop(check_out_time="23:30"), prop(total_floors=200),
    rename("N1-LISBON-RIVER1"),
    add("Contacts", *({"profile_type": "general", "phone": f"+35121342000{i}", "phone_tech_type": 1}
                      for i in range(1, 3))),
    add("Contacts", {"profile_type": "general", "given_name": "ana", "surname": "SOUSA"}),
    add("Fees", *({"code": 44, "amount": 5.0, "min_age": a, "max_age": a + 2} for a in (0, 3, 6)),
        {"code": 38, "amount": 9.0, "min_age": 0, "max_age": 2}),
], ids=lambda _: "ok")
def test_what_the_apis_take_is_not_flagged(content: Callable[..., dict[str, pd.DataFrame]], change: Change) -> None:
    assert validate_content_modular(content(change), today=TODAY).empty


def test_an_existing_property_needs_no_target_nor_general_contact(content: Callable[..., dict[str, pd.DataFrame]]
                                                                  ) -> None:
    def existing(s: dict[str, list[dict]]) -> None:
        for part in s.values():
            for row in part:
                row.pop("custom_id", None)
                row["hotel_code"] = 1000004
        s["Property"][0]["target"] = None
        s["Contacts"].pop(1)
    assert validate_content_modular(content(existing), today=TODAY).empty


def test_every_rule_is_named_once() -> None:
    assert len(set(RULES)) == len(RULES) and all(r.startswith("modular_") for r in RULES)


LETTERS = st.sampled_from("abcdefghijklmnopqrstuvwxyzäéñøß")


@given(st.lists(st.one_of(LETTERS, st.just(" "), st.sampled_from("0123456789")), min_size=3, max_size=80)
       .filter(lambda cs: sum(c.isdigit() for c in cs) <= 5 and sum(c.isalpha() for c in cs) >= 3))
def test_a_name_of_letters_spaces_and_five_digits_at_most_always_passes(chars: list[str]) -> None:
    assert modular_name_problems("".join(chars)) == ()


@given(st.text(min_size=0, max_size=60), st.sampled_from("!?.,;:*#&'\"/\\()[]{}@€$+=<>|~^%"))
def test_a_punctuation_mark_or_a_symbol_is_always_refused(text: str, mark: str) -> None:
    rules = {r for r, _ in modular_name_problems(text + mark)}
    assert "modular_name_symbols" in rules


@given(st.integers(0, 23), st.integers(0, 59))
def test_times_on_the_hour_or_half_hour_only(hours: int, minutes: int) -> None:
    value = f"{hours:02d}:{minutes:02d}"
    assert (time_problem(value) is None) == (minutes in (0, 30))
    assert (time_problem(f"{value}-{value}") is None) == (minutes in (0, 30))
