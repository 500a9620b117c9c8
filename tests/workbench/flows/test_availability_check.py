"""``check_availability`` on the sample workbook (its deliberate problems, data/samples/README.md), what an
error leaves out (a key cell: the row; a value's cell: that value), waivers, and the calendar view."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from loaders import read_waivers
from workbench import AvailabilityCheck, check_availability
from workbench.paths import SAMPLES

SAMPLE = SAMPLES / "availability.xlsx"
AS_OF = dt.date(2026, 12, 1)
#: the sample's deliberate problems, by rule (data/samples/README.md, "availability.xlsx")
SAMPLE_ERRORS = ["date_window", "los_pricing_restriction", "min_above_max", "not_a_flag", "not_a_number",
                 "rate_not_active_for_room", "rate_plan_required", "rooms_to_sell_per_room_type", "rooms_to_sell_range",
                 "stay_nights", "unknown_room"]
SAMPLE_WARNINGS = ["child_rate_restriction", "duplicate_key", "hidden_sheet", "rooms_to_sell_above_quantity",
                   "rooms_to_sell_unlimited", "sheet_ignored"]


@pytest.fixture(scope="module")
def sample() -> AvailabilityCheck:
    return check_availability(SAMPLE, registry=SAMPLES / "registry.xlsx", rooms=SAMPLES / "platform_rooms.xlsx",
                              as_of=AS_OF)


def test_the_sample_has_exactly_its_listed_problems(sample) -> None:
    assert not sample.ok
    assert sorted(sample.errors["rule"]) == SAMPLE_ERRORS
    assert sorted(r for r in sample.warnings["rule"] if r != "not_checked") == SAMPLE_WARNINGS
    assert sample.not_checked()["hotel_code"].tolist() == [1000001]  # room 103 is unknown: its units too
    assert repr(sample).startswith("<AvailabilityCheck: ") and "11 errors to fix" in repr(sample)
    html = sample._repr_html_()
    assert "Availability check" in html and "rooms_to_sell_range" in html


def test_an_error_on_a_value_leaves_out_that_value_and_on_a_key_the_row(sample) -> None:
    f = sample.frame
    left_out = f[sample.invalid_mask()]
    # row 276 sets MinStayArrival 5 and MaxStayArrival 3: only the maximum (the error's cell) is left out
    row_276 = left_out[left_out["row"] == 276]
    assert row_276["restriction"].tolist() == ["max_stay_arrival"]
    assert f[(f["row"] == 276) & ~sample.invalid_mask()]["restriction"].tolist() == ["min_stay_arrival"]
    # row 280 names rate 5003, not active for room 102 (an error on RatePlanCode): its value is left out
    assert f[f["row"] == 280].index.isin(left_out.index).all()
    valid = sample.valid_frame()
    assert not valid["row"].isin([272, 281, 282, 283]).any()  # range, window, unknown room, the repeat
    assert valid["row"].isin([71]).any()                     # the first of the repeated night is sent


def test_calendar_is_one_row_per_room_or_room_rate_and_night(sample) -> None:
    cal = sample.calendar()
    row = cal[(cal["inv_type_code"] == "101") & cal["rate_plan_code"].isna() & (cal["date"] == "2026-12-24")]
    assert row["RoomsToSell"].tolist() == [4]
    weekend = cal[(cal["hotel_code"] == 1000004) & cal["rate_plan_code"].eq("8001").fillna(False)
                  & (cal["inv_type_code"] == "401")]
    assert set(weekend["date"].dt.day_of_week) == {4, 5} and set(weekend["MinStayArrival"]) == {2}
    assert {"RoomsToSell", "Closed", "ClosedToArrival", "MinStayArrival"} <= set(cal.columns)


def test_waivers_set_warnings_aside_and_never_errors(sample, tmp_path) -> None:
    path = tmp_path / "waivers.csv"
    pd.DataFrame({"rule": ["child_rate_restriction", "min_above_max"], "property": [1000001, 1000001],
                  "room": ["101", "101"], "rate": ["5002", "5001"], "reason": ["parent set too", "n/a"],
                  "who": ["ana", "ana"], "expires": ["2027-12-31", "2027-12-31"]}).to_csv(path, index=False)
    waived = sample.waive(read_waivers(path))
    assert waived.waived["rule"].tolist() == ["child_rate_restriction"]
    assert "child_rate_restriction" not in set(waived.issues["rule"])
    assert "min_above_max" in set(waived.errors["rule"]) and "waiver_on_error" in set(waived.warnings["rule"])


def test_without_facts_the_rules_that_need_them_are_named() -> None:
    bare = check_availability(SAMPLE, as_of=AS_OF)
    missing = bare.not_checked()
    assert set(missing["hotel_code"]) == {1000001, 1000004, 1000005}
    assert "los_pricing_restriction" in missing.set_index("hotel_code").loc[1000005, "rules"]
    assert "los_pricing_restriction" not in set(bare.errors["rule"])
