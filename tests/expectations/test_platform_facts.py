"""Rules against what the platform actually sends (issue 10, findings 6 and 7).

The platform's ``roomrates`` flags child rates (``is_child_rate``) and read-only ones, and says
nothing about FollowsPrice, currency or pricing model: a child rate is taken to inherit its
price unless the registry says ``FollowsPrice`` = 0, and rules that cannot run say so. A repeated
cell is a warning on the later rows: the first in file order is sent.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from expectations import validate_rates
from expectations.rates import repeats
from loaders import Registry, read_rates
from loaders.schemas import RATES_COLUMNS

AS_OF = dt.date(2026, 12, 1)
HEADER = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]


def platform_registry(**rate_overrides) -> Registry:
    """What ``fetch_registry`` builds from a real ``roomrates`` answer: rooms and active rates, a child
    rate flagged without its parent or FollowsPrice, a read-only rate; no currency, no pricing model."""
    rates = {"hotel_code": [1, 1, 1], "inv_type_code": ["A", "A", "A"], "rate_plan_code": ["R", "C", "Q"],
             "active": [True, True, True], "is_child_rate": [True if x == "C" else False for x in "RCQ"],
             "parent_rate_plan_code": [None, None, None], "follows_price": [None, None, None],
             "read_only": [False, False, True]}
    rates.update(rate_overrides)
    return Registry.from_frames(properties=pd.DataFrame({"hotel_code": [1], "hotel_name": ["H"]}),
                                rooms=pd.DataFrame({"hotel_code": [1], "inv_type_code": ["A"]}),
                                room_rates=pd.DataFrame(rates))


def sheet_registry(follows: object, parent: object = "R") -> Registry:
    """A registry workbook's RoomRates row for the child rate C, plus the property's facts."""
    return Registry.from_frames(
        properties=pd.DataFrame({"hotel_code": [1], "currency_code": ["EUR"], "pricing_model": ["Standard"]}),
        rooms=pd.DataFrame({"hotel_code": [1], "inv_type_code": ["A"], "max_adult_occupancy": [2]}),
        room_rates=pd.DataFrame({"hotel_code": [1], "inv_type_code": ["A"], "rate_plan_code": ["C"],
                                 "parent_rate_plan_code": [parent], "follows_price": [follows]}))


def check(write_csv, rows, registry):
    frame, load = read_rates(write_csv([HEADER, *rows]))
    issues = validate_rates(frame, registry=registry, as_of=AS_OF, load_issues=load)
    return issues[issues["rule"] != "coverage"]


def test_a_price_on_a_flagged_child_rate_is_an_error_when_follows_price_is_not_known(write_csv) -> None:
    """Finding 6: the platform never says FollowsPrice; a missing one used to read as 'does not follow'."""
    issues = check(write_csv, [[1, "A", "C", "2027-01-01", "100", "EUR"]], platform_registry())
    child = issues[issues["rule"] == "child_rate_follows_price"]
    assert child[["row", "column", "value", "severity"]].values.tolist() == [[2, "RatePlanCode", "C", "error"]]
    message = child["message"].item()
    assert "takes its price from its parent unless the registry says `FollowsPrice` = 0" in message
    assert "price its parent rate instead" in message and "`--registry FILE`" in message


@pytest.mark.parametrize(("follows", "parent", "error", "names"), [
    (True, "R", True, "price rate plan R instead"),
    (None, "R", True, "price rate plan R instead"),
    (False, "R", False, None),
    (False, None, False, None),
])
def test_the_registry_says_whether_a_child_rate_has_its_own_price(write_csv, follows, parent, error, names) -> None:
    registry = platform_registry().merge(sheet_registry(follows, parent))
    issues = check(write_csv, [[1, "A", "C", "2027-01-01", "100", "EUR"]], registry)
    child = issues[issues["rule"] == "child_rate_follows_price"]
    assert len(child) == int(error), issues.to_string()
    if names:
        assert names in child["message"].item()


def test_a_price_on_a_read_only_rate_is_an_error_on_its_rate_plan_cell(write_csv) -> None:
    issues = check(write_csv, [[1, "A", "Q", "2027-01-01", "100", "EUR"]], platform_registry())
    ro = issues[issues["rule"] == "read_only_rate"]
    assert ro[["row", "column", "value", "severity"]].values.tolist() == [[2, "RatePlanCode", "Q", "error"]]


# --- rules that cannot run say so ------------------------------------------------------------------------

ROW = [1, "A", "R", "2027-01-01", "100", "EUR"]
FULL = Registry.from_frames(
    properties=pd.DataFrame({"hotel_code": [1], "currency_code": ["EUR"], "pricing_model": ["Standard"]}),
    rooms=pd.DataFrame({"hotel_code": [1], "inv_type_code": ["A"], "max_adult_occupancy": [2]}),
    room_rates=pd.DataFrame({"hotel_code": [1], "inv_type_code": ["A"], "rate_plan_code": ["R"]}))


@pytest.mark.parametrize(("registry", "rules"), [
    (None, ["property_currency", "guests_pricing_model", "guests_for_occupancy_pricing", "unknown_room",
            "rate_not_active_for_room", "child_rate_follows_price", "read_only_rate"]),
    (platform_registry(), ["property_currency", "guests_pricing_model", "guests_for_occupancy_pricing"]),
    (platform_registry().merge(FULL), []),
    (FULL, []),
], ids=["no registry", "platform only", "platform and registry", "registry"])
def test_rules_that_cannot_run_are_named_with_where_their_facts_come_from(write_csv, registry, rules) -> None:
    frame, _ = read_rates(write_csv([HEADER, ROW]))
    issues = validate_rates(frame, registry=registry, as_of=AS_OF)
    note = issues[issues["rule"] == "not_checked"]
    from expectations.groups import missing_facts

    facts = missing_facts(frame, registry or Registry())
    if not rules:
        assert note.empty and facts.empty
        return
    assert note[["row", "column", "value", "severity"]].values.tolist() == [[2, "HotelCode", "1", "warning"]]
    assert facts["rules"].item() == rules
    for rule in rules:
        assert f"`{rule}`" in note["message"].item()
    assert "`--registry FILE`" in note["message"].item() and "`CurrencyCode`" in note["message"].item()


def test_guests_max_and_child_rates_without_follows_price_are_named(write_csv) -> None:
    registry = platform_registry().merge(Registry.from_frames(properties=pd.DataFrame(
        {"hotel_code": [1], "currency_code": ["EUR"], "pricing_model": ["OBP"]})))
    frame, _ = read_rates(write_csv([HEADER[:4] + ["NumberOfGuests"] + HEADER[4:],
                                     [1, "A", "C", "2027-01-01", 2, "100", "EUR"]]))
    issues = validate_rates(frame, registry=registry, as_of=AS_OF)
    message = issues.loc[issues["rule"] == "not_checked", "message"].item()
    assert "`guests_max` did not run for room A (MaxAdultOccupancy is not known)" in message
    assert "child rate C taken to follow the parent's price (`FollowsPrice` is not known)" in message


# --- repeated cells: the first in file order is sent --------------------------------------------------------

def test_repeats_across_files_point_at_the_first_file(write_csv) -> None:
    a = write_csv([HEADER, [1, "A", "R", "2027-01-01", "100", "EUR"]], name="a.csv")
    b = write_csv([HEADER, [1, "A", "R", "2027-01-02", "90", "EUR"], [1, "A", "R", "2027-01-01", "110", "EUR"]],
                  name="b.csv")
    frame, _ = read_rates([b, a])  # b is read first: its row 3 is the first occurrence
    issues = validate_rates(frame, registry=FULL, as_of=AS_OF)
    dup = issues[issues["rule"] == "duplicate_key"]
    assert dup[["source", "row", "severity", "value"]].values.tolist() == [["a.csv", 2, "warning", "100"]]
    assert dup["message"].item().startswith("not sent: repeats `b.csv` row 3 (room A, rate R, night 2027-01-01; "
                                            "110 there, 100 here)")
    assert repeats(frame).tolist() == [False, False, True]


def _frame(keys: list[tuple[int, int]]) -> pd.DataFrame:
    """Rows (source index, night) in file order: sources s0, s1 …, rows numbered per source."""
    rows = []
    counter: dict[int, int] = {}
    for src, night in keys:
        counter[src] = counter.get(src, 1) + 1
        rows.append({"hotel_code": 1, "inv_type_code": "A", "rate_plan_code": "R",
                     "date": pd.Timestamp("2027-01-01") + pd.Timedelta(days=night), "number_of_guests": None,
                     "amount": 1.0, "amount_minor": 1, "amount_scale": 0, "amount_type": "AfterTax",
                     "decimal_places": None, "currency_code": "EUR", "source": f"s{src}.csv", "sheet": "",
                     "row": counter[src], "amount_column": "AmountAfterTax"})
    return pd.DataFrame(rows, columns=list(RATES_COLUMNS)).astype(RATES_COLUMNS)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 5)), min_size=1, max_size=40).map(sorted),
       st.randoms(use_true_random=False))
def test_exactly_the_later_occurrences_are_repeats_in_any_row_order(keys, rnd) -> None:
    """Files come in the order read; within a sheet the frame's rows may come in any order (a wide
    sheet's nights, a range's expansion): the Excel row decides."""
    frame = _frame(keys)
    expected = frame.duplicated(["date"], keep="first").to_numpy()  # built in file order
    order = []
    for _, group in frame.groupby("source", sort=False):
        within = list(group.index)
        rnd.shuffle(within)
        order += within
    shuffled = frame.iloc[order].reset_index(drop=True)
    got = repeats(shuffled)
    assert np.array_equal(got, expected[order])
    assert not shuffled[~got].duplicated(["date"]).any()  # what is sent prices each night once
