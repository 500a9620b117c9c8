"""How far each room-rate is priced: the same figures from the journal (SQL, index seeks) and from a
frame of nights (pandas), on edge cases and on random calendars."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.workbench.health.conftest import AS_OF, TARGET, nights, write_journal
from workbench.health import coverage_from_summary, coverage_of_nights
from workbench.health.coverage import night_ranges
from workbench.writers.journal import Journal

T = pd.Timestamp
NA = pd.NaT


def _frame(cells: list[tuple]) -> pd.DataFrame:
    return pd.DataFrame(cells, columns=["hotel_code", "inv_type_code", "rate_plan_code", "date", "guests", "price"])


def _via_journal(cells: list[tuple], tmp_path: Path, as_of: dt.date = AS_OF) -> pd.DataFrame:
    path = write_journal(tmp_path / f"j{len(list(tmp_path.iterdir()))}.sqlite", cells)
    with Journal(path) as j:
        return coverage_from_summary(j.accepted_summary(TARGET, as_of), as_of)


def _via_frame(cells: list[tuple], tmp_path: Path, as_of: dt.date = AS_OF) -> pd.DataFrame:
    return coverage_of_nights(_frame(cells), as_of)


READERS = [pytest.param(_via_journal, id="journal-sql"), pytest.param(_via_frame, id="pandas")]

# (case, cells, bookable_until, nights_ahead, gap_nights, closed_nights)
CASES = [
    ("a year from as-of", nights("2026-12-01", "2027-11-30"), T("2027-11-30"), 365, 0, 0),
    ("the last night is inclusive", nights("2026-12-01", "2026-12-01"), T("2026-12-01"), 1, 0, 0),
    ("a price of 0 is not bookable",
     nights("2026-12-01", "2026-12-10") + nights("2026-12-11", "2026-12-20", 0), T("2026-12-10"), 20, 0, 10),
    ("every price 0", nights("2026-12-01", "2026-12-05", 0), NA, 5, 0, 5),
    ("ended before as-of (the night before is not ahead)", nights("2026-11-20", "2026-11-30"), T("2026-11-30"), 0, 0,
     0),
    ("the as-of night counts as ahead", nights("2026-11-20", "2026-12-01"), T("2026-12-01"), 1, 0, 0),
    ("unpriced nights inside", nights("2026-12-01", "2026-12-10", skip=["2026-12-03", "2026-12-04"]),
     T("2026-12-10"), 8, 2, 0),
    ("unpriced from as-of to the first price", nights("2026-12-05", "2026-12-10"), T("2026-12-10"), 6, 4, 0),
    ("unpriced after the last bookable night is not a gap",
     nights("2026-12-01", "2026-12-05") + nights("2026-12-09", "2026-12-10", 0), T("2026-12-05"), 7, 0, 2),
    ("closed nights count only in the next 90", nights("2026-12-01", "2027-03-31", 0) + nights("2027-04-01",
                                                                                              "2027-04-01"),
     T("2027-04-01"), 122, 0, 90),
    ("a night is bookable when any guest count is priced above 0",
     nights("2026-12-01", "2026-12-02", 0, guests=1) + nights("2026-12-01", "2026-12-02", 80, guests=2),
     T("2026-12-02"), 2, 0, 0),
    ("a night is closed only when every guest count is 0",
     nights("2026-12-01", "2026-12-02", 0, guests=1) + nights("2026-12-02", "2026-12-02", 0, guests=2)
     + nights("2026-12-01", "2026-12-01", 60, guests=2) + nights("2026-12-03", "2026-12-03", 60, guests=1),
     T("2026-12-03"), 3, 0, 1),
]


@pytest.mark.parametrize("read", READERS)
@pytest.mark.parametrize(("case", "cells", "until", "ahead", "gaps", "closed"), CASES, ids=[c[0] for c in CASES])
def test_coverage_edges(read, case, cells, until, ahead, gaps, closed, tmp_path: Path) -> None:
    cov = read(cells, tmp_path)
    assert len(cov) == 1
    row = cov.iloc[0]
    assert (pd.isna(row["bookable_until"]) if pd.isna(until) else row["bookable_until"] == until), case
    assert (row["nights_ahead"], row["gap_nights"], row["closed_nights"]) == (ahead, gaps, closed), case


def test_several_properties_and_room_rates_are_kept_apart(tmp_path: Path) -> None:
    cells = (nights("2026-12-01", "2026-12-31", hotel=1, room="101", rate="5001")
             + nights("2026-12-01", "2026-12-10", hotel=1, room="101", rate="5002")
             + nights("2026-12-05", "2026-12-06", hotel=1, room="102", rate="5001")
             + nights("2026-12-01", "2027-12-31", hotel=7, room="101", rate="5001"))
    for workers in (1, 2):
        path = write_journal(tmp_path / f"j{workers}.sqlite", cells)
        with Journal(path) as j:
            got = coverage_from_summary(j.accepted_summary(TARGET, AS_OF, workers=workers), AS_OF)
            only = j.accepted_summary(TARGET, AS_OF, hotels=[7])
        assert got.equals(coverage_of_nights(_frame(cells), AS_OF))
        assert only["hotel_code"].tolist() == [7]
        assert got["bookable_until"].tolist() == [T("2026-12-31"), T("2026-12-10"), T("2026-12-06"), T("2027-12-31")]


def test_other_targets_are_not_read(tmp_path: Path) -> None:
    path = write_journal(tmp_path / "j.sqlite", nights("2026-12-01", "2026-12-31"), target="https://other.test")
    with Journal(path) as j:
        assert j.accepted_summary(TARGET, AS_OF).empty
        assert j.accepted_nights(TARGET).empty
        assert j.targets() == ["https://other.test"]


def test_accepted_nights_reads_the_amount_of_the_price_key(tmp_path: Path) -> None:
    cells = [(1, "101", "5001", "2026-12-01", -1, 159.0), (1, "101", "5001", "2026-12-02", 1, 0.5),
             (1, "101", "5001", "2026-12-02", 2, 0.0)]
    path = write_journal(tmp_path / "j.sqlite", cells)
    with Journal(path) as j:
        got = j.accepted_nights(TARGET, start=dt.date(2026, 12, 2))
    assert got["date"].tolist() == [T("2026-12-02")] and got["price"].tolist() == [0.5]


def test_ranges_of_a_calendar() -> None:
    cells = (nights("2026-12-03", "2026-12-04") + nights("2026-12-05", "2026-12-05", 0)
             + nights("2026-12-07", "2026-12-07") + nights("2026-12-08", "2026-12-08", 0))
    got = night_ranges(_frame(cells), AS_OF)
    assert list(zip(got["kind"], got["start"].dt.strftime("%m-%d"), got["end"].dt.strftime("%m-%d"), got["nights"],
                    strict=True)) == [
        ("gap", "12-01", "12-02", 2), ("priced", "12-03", "12-04", 2), ("closed", "12-05", "12-05", 1),
        ("gap", "12-06", "12-06", 1), ("priced", "12-07", "12-07", 1), ("closed", "12-08", "12-08", 1)]


_cells = st.lists(st.tuples(st.sampled_from([1, 2]), st.sampled_from(["101", "102"]), st.sampled_from(["5001", "A"]),
                            st.integers(-20, 120), st.sampled_from([-1, 1, 2]), st.sampled_from([0.0, 0.5, 99.0])),
                  max_size=60)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=_cells, offset=st.integers(0, 30))
def test_sql_and_pandas_agree_on_any_calendar(cells, offset, tmp_path_factory) -> None:
    """Property: the journal's index-seek summary equals the pandas figures, for every calendar."""
    as_of = AS_OF + dt.timedelta(days=offset)
    rows = {(h, r, p, (AS_OF + dt.timedelta(days=d)).isoformat(), g): a for h, r, p, d, g, a in cells}
    flat = [(*k, a) for k, a in rows.items()]
    tmp = tmp_path_factory.mktemp("prop")
    sql = _via_journal(flat, tmp, as_of)
    pandas = coverage_of_nights(_frame(flat), as_of) if flat else sql
    key = ["hotel_code", "inv_type_code", "rate_plan_code"]
    assert sql.sort_values(key).reset_index(drop=True).equals(pandas.sort_values(key).reset_index(drop=True))


@pytest.mark.parametrize("now", [dt.datetime(2026, 11, 30, 22, 59, tzinfo=dt.UTC),
                                 dt.datetime(2026, 11, 30, 23, 0, tzinfo=dt.UTC),
                                 dt.datetime(2027, 6, 30, 21, 59, tzinfo=dt.UTC),
                                 dt.datetime(2027, 6, 30, 22, 0, tzinfo=dt.UTC), dt.datetime(2027, 6, 30, 22, 0)])
def test_today_is_the_platforms_cet_day(now: dt.datetime) -> None:
    """The health check's today (no Great Expectations import) is the expectations' CET day, summer time too."""
    from expectations import cet_today as expected
    from workbench.health.coverage import cet_today

    assert cet_today(now) == expected(now)
