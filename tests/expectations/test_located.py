"""Each issue tied to its room-rate and nights, read from the rates frame it points into."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from expectations import validate_rates
from expectations.located import locate_issues
from loaders import read_rates, read_registry

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"


@pytest.fixture(scope="module")
def located() -> pd.DataFrame:
    frame, load_issues = read_rates([SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"])
    issues = validate_rates(frame, registry=read_registry(SAMPLES / "registry.xlsx"), as_of="2026-12-01",
                            load_issues=load_issues)
    return pd.concat([issues, locate_issues(issues, frame)], axis=1)


def one(located: pd.DataFrame, rule: str) -> pd.Series:
    return located[located["rule"] == rule].iloc[0]


@pytest.mark.parametrize(("rule", "where", "nights"), [
    ("price_negative", (1000002, "201", "6002"), ("2027-01-04", "2027-01-04")),  # a wide sheet's cell: its night
    ("date_window", (1000001, "102", "5001"), ("2026-11-15", "2026-11-15")),     # another cell of a long row
    ("not_a_number", (1000001, "101", "5001"), ("2027-02-14", "2027-02-14")),    # a row the loader could not read
    ("date_order", (1000004, "401", "8001"), ("2027-05-03", "2027-05-10")),      # a range row: its nights
    ("coverage", (1000001, "101", "5001"), (None, None)),                       # a room-rate as a whole
], ids=["wide cell", "long row", "unread row", "range row", "room-rate"])
def test_an_issue_gets_the_room_rate_and_nights_of_its_cell(located, rule, where, nights) -> None:
    r = one(located, rule)
    assert (r["hotel_code"], r["inv_type_code"], r["rate_plan_code"]) == where
    first, last = (None if pd.isna(r[c]) else f"{r[c]:%Y-%m-%d}" for c in ("first", "last"))
    assert (first, last) == nights


def test_without_rates_or_rows_nothing_is_located(located) -> None:
    issues = located[["source", "sheet", "row", "column", "value", "rule", "severity", "message"]]
    assert locate_issues(issues, None).isna().all().all()
    no_rows = issues.assign(row=pd.array([None] * len(issues), dtype="Int64"))
    frame, _ = read_rates(SAMPLES / "lisbon_seasons.csv")
    assert locate_issues(no_rows, frame).isna().all().all()
