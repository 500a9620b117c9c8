"""The availability rules: each on the cell it is about, with its severity; the rules on one row also on rows
left out for a key cell; what could not be checked said per property."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from expectations import validate_availability
from loaders import Registry, read_availability, read_registry
from loaders.schemas import RATES_COLUMNS

AS_OF = dt.date(2026, 12, 1)
H = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "Closed", "ClosedToArrival",
     "MinStayArrival", "MaxStayArrival", "MinStayThrough", "MaxStayThrough"]
REGISTRY = Registry.from_frames(
    properties=pd.DataFrame({"hotel_code": [1, 2], "pricing_model": ["Standard", "LOS"]}),
    rooms=pd.DataFrame({"hotel_code": [1, 1, 2], "inv_type_code": ["A", "B", "C"], "quantity": [10, 2, None]}),
    room_rates=pd.DataFrame({"hotel_code": [1, 1, 1, 1, 2], "inv_type_code": ["A", "A", "B", "A", "C"],
                             "rate_plan_code": ["R", "K", "R", "X", "S"], "active": [True, True, True, False, True],
                             "parent_rate_plan_code": [None, "R", None, None, None]}))


def check(write_csv, rows: list[dict], **kwargs) -> pd.DataFrame:
    base = {"HotelCode": 1, "InvTypeCode": "A", "RatePlanCode": None, "Date": "2027-01-05"}
    path = write_csv([H, *[[{**base, **r}.get(c) for c in H] for r in rows]], "avail.csv")
    frame, load = read_availability(path)
    return validate_availability(frame, registry=kwargs.pop("registry", REGISTRY), as_of=AS_OF, load_issues=load,
                                 **kwargs)


def found(issues: pd.DataFrame) -> set[tuple]:
    return {(r.rule, r.severity, int(r.row), r.column) for r in issues.itertuples() if r.rule != "not_checked"}


CASES = [
    ({"RoomsToSell": 10}, set()),
    ({"RoomsToSell": 300}, {("rooms_to_sell_range", "error", 2, "RoomsToSell")}),
    ({"RoomsToSell": -1}, {("rooms_to_sell_range", "error", 2, "RoomsToSell")}),
    ({"RoomsToSell": 255}, {("rooms_to_sell_unlimited", "warning", 2, "RoomsToSell")}),
    ({"RoomsToSell": 11}, {("rooms_to_sell_above_quantity", "warning", 2, "RoomsToSell")}),
    ({"RatePlanCode": "R", "MinStayArrival": 0}, {("stay_nights", "error", 2, "MinStayArrival")}),
    ({"RatePlanCode": "R", "MaxStayThrough": -2}, {("stay_nights", "error", 2, "MaxStayThrough")}),
    ({"RatePlanCode": "R", "MinStayArrival": 3, "MaxStayArrival": 2}, {("min_above_max", "error", 2, "MaxStayArrival")}),
    ({"RatePlanCode": "R", "MinStayThrough": 3, "MaxStayThrough": 3}, set()),
    ({"ClosedToArrival": 1}, {("rate_plan_required", "error", 2, "ClosedToArrival")}),
    ({"MinStayThrough": 2}, {("rate_plan_required", "error", 2, "MinStayThrough")}),
    ({"Closed": 1}, set()),  # a room type closed: no rate plan needed
    ({"RatePlanCode": "R", "RoomsToSell": 3}, {("rooms_to_sell_per_room_type", "error", 2, "RoomsToSell")}),
    ({"RatePlanCode": "K", "MinStayArrival": 2}, {("child_rate_restriction", "warning", 2, "RatePlanCode")}),
    ({"RatePlanCode": "X", "Closed": 1}, {("rate_not_active_for_room", "error", 2, "RatePlanCode")}),
    ({"InvTypeCode": "Z", "RoomsToSell": 1}, {("unknown_room", "error", 2, "InvTypeCode")}),
    ({"Date": "2026-11-29", "RoomsToSell": 1}, {("date_window", "error", 2, "Date")}),
    ({"Date": "2026-11-30", "RoomsToSell": 1}, set()),  # one day back, in CET
    ({"Date": "2031-12-02", "RoomsToSell": 1}, {("date_window", "error", 2, "Date")}),
    ({"HotelCode": 2, "InvTypeCode": "C", "RatePlanCode": "S", "ClosedToArrival": 1},
     {("los_pricing_restriction", "error", 2, "ClosedToArrival")}),
    ({"HotelCode": 2, "InvTypeCode": "C", "RoomsToSell": 2}, set()),  # rooms to sell stay allowed on LOS
    ({"HotelCode": 3, "InvTypeCode": "A", "RoomsToSell": 2}, {("unknown_property", "warning", 2, "HotelCode")}),
]


@pytest.mark.parametrize(("row", "expected"), CASES, ids=[str(r) for r, _ in CASES])
def test_each_rule_on_its_cell(write_csv, row, expected) -> None:
    assert found(check(write_csv, [row])) == expected


def test_min_above_max_across_rows_points_at_the_maximum_and_names_the_minimum(write_csv) -> None:
    issues = check(write_csv, [{"RatePlanCode": "R", "MaxStayArrival": 2}, {"RatePlanCode": "R", "MinStayArrival": 4}])
    assert found(issues) == {("min_above_max", "error", 2, "MaxStayArrival")}
    assert "below MinStayArrival 4 (row 3)" in issues.loc[issues["rule"] == "min_above_max", "message"].iloc[0]


def test_a_repeat_warns_on_the_later_row_and_is_not_compared(write_csv) -> None:
    issues = check(write_csv, [{"RatePlanCode": "R", "MinStayArrival": 2}, {"RatePlanCode": "R", "MaxStayArrival": 5},
                               {"RatePlanCode": "R", "MinStayArrival": 9}])
    assert found(issues) == {("duplicate_key", "warning", 4, "MinStayArrival")}
    assert "repeats row 2 (MinStayArrival of room A, rate R, night 2027-01-05; 2 there, 9 here)" in \
        issues["message"].iloc[-1]


def test_rules_on_one_row_also_run_on_rows_left_out_for_a_key_cell(write_csv) -> None:
    issues = check(write_csv, [{"Date": "05/01/2027", "RoomsToSell": 300}])
    assert {(r, c) for r, _, _, c in found(issues)} == {("not_a_date", "Date"), ("rooms_to_sell_range", "RoomsToSell")}


def test_quantity_comes_from_a_rooms_frame_too(write_csv) -> None:
    rooms = pd.DataFrame({"hotel_code": [1], "inv_code": ["A"], "quantity": [3]})
    bare = Registry.from_frames(properties=REGISTRY.properties, room_rates=REGISTRY.room_rates)
    issues = check(write_csv, [{"RoomsToSell": 4}], registry=bare, rooms=rooms)
    assert "more than the 3 units room type A has (Quantity, from the rooms)" in issues["message"].iloc[0]


def test_what_could_not_be_checked_is_said_per_property(write_csv) -> None:
    issues = check(write_csv, [{"RoomsToSell": 2}, {"RatePlanCode": "R", "MinStayArrival": 2}], registry=Registry())
    rows = issues[issues["rule"] == "not_checked"]
    assert rows["row"].tolist() == [2]
    message = rows["message"].iloc[0]
    for rule in ("los_pricing_restriction", "unknown_room", "rate_not_active_for_room", "child_rate_restriction",
                 "rooms_to_sell_above_quantity"):
        assert f"`{rule}`" in message
    assert set(found(check(write_csv, [{"RoomsToSell": 2}]))) == set()  # everything known: no warning
    assert not (check(write_csv, [{"RoomsToSell": 2}])["rule"] == "not_checked").any()


def _rates(cells: list[tuple[str, str, str]]) -> pd.DataFrame:
    rows = [{"hotel_code": 1, "inv_type_code": room, "rate_plan_code": rate, "date": pd.Timestamp(day),
             "number_of_guests": None, "amount": 100.0, "amount_minor": 100, "amount_scale": 0, "amount_type": "AfterTax",
             "decimal_places": None, "currency_code": "EUR", "source": "rates.xlsx", "sheet": "S", "row": i + 2,
             "amount_column": "AmountAfterTax"} for i, (room, rate, day) in enumerate(cells)]
    return pd.DataFrame(rows, columns=list(RATES_COLUMNS)).astype(RATES_COLUMNS)


def test_coverage_names_the_priced_nights_given_no_rooms_to_sell(write_csv) -> None:
    rates = _rates([("A", "R", "2027-01-05"), ("A", "R", "2027-01-06"), ("A", "R", "2027-01-07"),
                    ("B", "R", "2027-01-05")])
    issues = check(write_csv, [{"RoomsToSell": 3}, {"Date": "2027-01-06", "RoomsToSell": 0},
                               {"InvTypeCode": "B", "RoomsToSell": 1}], rates=rates)
    cover = issues[issues["rule"] == "coverage"]
    assert cover[["row", "column", "value"]].values.tolist() == [[2, "RoomsToSell",
                                                                  "2 of 3 priced nights without rooms to sell"]]
    assert "room A, rate R" in cover["message"].iloc[0]


@settings(max_examples=40, deadline=None)
@given(st.integers(-3, 300))
def test_rooms_to_sell_bounds_hold_for_every_value(tmp_path_factory, value) -> None:
    path = tmp_path_factory.mktemp("rts") / "a.csv"
    pd.DataFrame([[1, "A", "2027-01-05", value]], columns=["HotelCode", "InvTypeCode", "Date", "RoomsToSell"]).to_csv(
        path, index=False)
    frame, _ = read_availability(path)
    rules = set(validate_availability(frame, registry=REGISTRY, as_of=AS_OF)["rule"])
    expected = ({"rooms_to_sell_range"} if value < 0 or value > 255 else {"rooms_to_sell_unlimited"} if value == 255
                else set()) | ({"rooms_to_sell_above_quantity"} if 10 < value < 255 else set())
    assert rules == expected


def test_a_registry_file_gives_units_in_its_rooms_sheet(write_csv, tmp_path) -> None:
    rooms = tmp_path / "rooms.csv"
    pd.DataFrame({"HotelCode": [1], "InvTypeCode": ["A"], "MaxAdultOccupancy": [2], "Quantity": [5]}).to_csv(
        rooms, index=False)
    registry = read_registry(rooms)
    assert registry.rooms["quantity"].tolist() == [5]
    issues = check(write_csv, [{"RoomsToSell": 6}], registry=registry)
    assert "more than the 5 units room type A has (Quantity, from the registry)" in \
        issues.loc[issues["rule"] == "rooms_to_sell_above_quantity", "message"].iloc[0]
