"""Plans on constructed journal states: exact cells added, changed, unchanged and removed, the
requests and messages a push would send, and the changes as ranges with weekday masks."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loaders import RATES_COLUMNS
from workbench.config import Settings
from workbench.flows.plan import plan_rates, plan_target
from workbench.flows.rates import check_rates
from workbench.transport.estimate import send_estimate
from workbench.writers.accepted import read_accepted
from workbench.writers.compress import compress
from workbench.writers.deltas import cell_keys
from workbench.writers.journal import Journal
from workbench.writers.plan import count_messages, diff_cells, weekday_text

TARGET = "https://platform.test"
AS_OF = "2026-12-01"


def sheet(rows: list[tuple[str, str, str, float]]) -> pd.DataFrame:
    """A long-layout sheet: ``(room, rate, night, price)`` rows of property 1000001 in EUR."""
    return pd.DataFrame({"HotelCode": 1000001, "InvTypeCode": [r[0] for r in rows],
                         "RatePlanCode": [r[1] for r in rows], "Date": [r[2] for r in rows],
                         "AmountAfterTax": [f"{r[3]:.2f}" for r in rows], "CurrencyCode": "EUR"})


def nights(start: str, end: str) -> list[str]:
    return [f"{d:%Y-%m-%d}" for d in pd.date_range(start, end)]


def accept(journal: Path, frame: pd.DataFrame, target: str = TARGET) -> None:
    """Record ``frame``'s prices as accepted by ``target``, as a push that succeeded does."""
    keys = cell_keys(check_rates(frame, as_of="2026-01-01").frame)
    with Journal(journal) as j, j._tx() as db:
        db.executemany("INSERT OR REPLACE INTO accepted(target, hotel_code, inv_type_code, rate_plan_code, date, guests, price) "
                       "VALUES (?,?,?,?,?,?,?)", ((target, *t) for t in keys[[
                           "hotel_code", "inv_type_code", "rate_plan_code", "date", "guests", "price"]]
                           .itertuples(index=False, name=None)))


@pytest.fixture
def state(tmp_path: Path) -> Path:
    """Accepted: room 101 / rate 5001 at 120.00 every night of March 2027 and 100.00 on 1-5 April;
    a night of June 2026 (in the past at the plan's date)."""
    journal = tmp_path / "journal.sqlite"
    accept(journal, sheet([("101", "5001", d, 120.0) for d in nights("2027-03-01", "2027-03-31")]
                          + [("101", "5001", d, 100.0) for d in nights("2027-04-01", "2027-04-05")]
                          + [("101", "5001", "2026-06-01", 80.0)]))
    return journal


def new_sheet() -> pd.DataFrame:
    """March again, Fridays and Saturdays now 135.00; April dropped; room 102 new on 1-3 March."""
    march = [("101", "5001", d, 135.0 if pd.Timestamp(d).day_of_week in (4, 5) else 120.0)
             for d in nights("2027-03-01", "2027-03-31")]
    return sheet(march + [("102", "5001", d, 90.0) for d in nights("2027-03-01", "2027-03-03")])


def test_plan_counts_each_cell_exactly(state: Path) -> None:
    plan = plan_rates(check_rates(new_sheet(), as_of=AS_OF), Settings(base_url=TARGET), journal=state)
    assert plan.counts == {"added": 3, "changed": 8, "unchanged": 23, "removed": 5}   # June 2026 is past
    assert plan.room_rates.to_dict("records") == [
        {"hotel_code": 1000001, "inv_type_code": "101", "rate_plan_code": "5001", "added": 0, "changed": 8,
         "unchanged": 23, "removed": 5},
        {"hotel_code": 1000001, "inv_type_code": "102", "rate_plan_code": "5001", "added": 3, "changed": 0,
         "unchanged": 0, "removed": 0}]
    assert (plan.requests, plan.messages, plan.cells_to_send) == (1, 2, 11)   # one hotel-month; Fri-Sat + a run
    changed = plan.changes().query("change == 'changed'")
    assert set(changed["before"]) == {"120.00"} and set(changed["after"]) == {"135.00"}
    assert set(changed["change_pct"]) == {12.5}
    assert [f"{d:%d}" for d in changed["date"]] == ["05", "06", "12", "13", "19", "20", "26", "27"]
    assert changed["row"].tolist() == [6, 7, 13, 14, 20, 21, 27, 28]   # the analyst's rows (frame row + 2)


def test_plan_ranges_read_as_a_person_writes_them(state: Path) -> None:
    plan = plan_rates(check_rates(new_sheet(), as_of=AS_OF), Settings(base_url=TARGET), journal=state)
    assert plan.ranges()[["text", "nights"]].values.tolist() == [
        ["room 101 / rate 5001: 120.00 → 135.00 EUR (+12.5%), 5–27 Mar 2027, Fri–Sat", 8],
        ["room 101 / rate 5001: 100.00 EUR no longer in the sheet (the platform keeps it), 1–5 Apr 2027", 5],
        ["room 102 / rate 5001: new 90.00 EUR, 1–3 Mar 2027", 3]]


def test_ranges_give_back_exactly_the_changed_cells(state: Path) -> None:
    plan = plan_rates(check_rates(new_sheet(), as_of=AS_OF), Settings(base_url=TARGET), journal=state)
    ranges = plan.ranges()
    assert ranges["nights"].sum() == len(plan.changes())


def test_same_sheet_again_changes_nothing_and_full_sends_all(state: Path) -> None:
    check = check_rates(new_sheet(), as_of=AS_OF)
    accept(state, new_sheet())
    plan = plan_rates(check, Settings(base_url=TARGET), journal=state)
    assert plan.counts == {"added": 0, "changed": 0, "unchanged": 34, "removed": 5}
    assert (plan.requests, plan.messages, plan.cells_to_send) == (0, 0, 0)
    assert plan.ranges()["change"].tolist() == ["removed"]
    full = plan_rates(check, Settings(base_url=TARGET), journal=state, full=True)
    assert (full.requests, full.cells_to_send) == (1, 34)


def test_other_targets_and_properties_are_not_compared(state: Path) -> None:
    accept(state, sheet([("101", "5001", "2027-03-05", 999.0)]), target="https://other.test")
    plan = plan_rates(check_rates(new_sheet(), as_of=AS_OF), Settings(base_url=TARGET), journal=state)
    assert plan.counts["changed"] == 8
    assert read_accepted(state, TARGET, hotels=[1000002]).empty


def test_a_plan_never_creates_or_writes_the_journal(tmp_path: Path, state: Path) -> None:
    missing = tmp_path / "none.sqlite"
    plan = plan_rates(check_rates(new_sheet(), as_of=AS_OF), Settings(base_url=TARGET), journal=missing)
    assert plan.counts == {"added": 34, "changed": 0, "unchanged": 0, "removed": 0}
    assert not missing.exists()
    before = sqlite3.connect(state).execute("SELECT count(*) FROM accepted").fetchone()
    plan_rates(check_rates(new_sheet(), as_of=AS_OF), Settings(base_url=TARGET), journal=state)
    assert sqlite3.connect(state).execute("SELECT count(*) FROM accepted").fetchone() == before
    assert sqlite3.connect(state).execute("SELECT count(*) FROM runs").fetchone() == (0,)


def test_price_jumps_against_the_journal(state: Path) -> None:
    jumpy = new_sheet()
    jumpy.loc[0, "AmountAfterTax"] = "1200.00"   # 1 March: 120.00 -> 1,200.00, also 10x its month
    plan = plan_rates(check_rates(jumpy, as_of=AS_OF), Settings(base_url=TARGET), journal=state)
    assert sorted(plan.warnings["rule"]) == ["price_jump"]   # its month's median is 120.00: 1,200 is exactly 10x
    assert plan.warnings["message"].iloc[0].startswith("1,200.00 EUR is 900.0% above 120.00 EUR")
    assert plan.warnings["row"].tolist() == [2]
    quiet = plan_rates(check_rates(jumpy, as_of=AS_OF), Settings(base_url=TARGET, price_jump_share=10.0),
                       journal=state)
    assert quiet.warnings.empty
    off = plan_rates(check_rates(jumpy, as_of=AS_OF), Settings(base_url=TARGET), journal=state, price_jumps=False)
    assert off.warnings.empty


def test_errors_block_but_the_plan_shows_what_skip_invalid_sends(state: Path) -> None:
    bad = new_sheet()
    bad.loc[1, "AmountAfterTax"] = "-5"
    plan = plan_rates(check_rates(bad, as_of=AS_OF), Settings(base_url=TARGET), journal=state)
    assert re.search(r"errors? blocks? the push", plan.blocked)
    assert plan.rows_left_out == 1 and plan.counts["unchanged"] == 22
    assert plan_rates(check_rates(bad, as_of=AS_OF), Settings(base_url=TARGET), journal=state,
                      skip_invalid=True).blocked == ""


def test_target_comes_from_settings_else_the_journals_only_one(state: Path) -> None:
    assert plan_target(Settings(), state) == TARGET
    accept(state, sheet([("101", "5001", "2027-03-05", 1.0)]), target="https://other.test")
    from workbench.errors import SettingsError

    with pytest.raises(SettingsError, match="2 platforms"):
        plan_target(Settings(), state)
    assert plan_target(Settings(base_url=TARGET + "/"), state) == TARGET


@pytest.mark.parametrize(("calls", "limits", "seconds"), [
    (0, "", 0.0), (10_000, "", 0.0), (10_001, "", 60.14), (25_000, "", 120.28),
    (601, "OTA_HotelRateAmountNotif=600", 60.14), (600, "OTA_HotelRateAmountNotif=600,all=300", 60.14),
])
def test_send_time_at_the_configured_limits(calls: int, limits: str, seconds: float) -> None:
    estimate = send_estimate(Settings(rate_limits=limits), "OTA_HotelRateAmountNotif", calls)
    assert estimate.seconds == pytest.approx(seconds)


@pytest.mark.parametrize(("mask", "text"), [(0b0110000, "Fri–Sat"), (0b1111111, "every night"),
                                            (0b0010101, "Mon, Wed, Fri"), (0b1000011, "Mon–Tue, Sun")])
def test_weekday_text(mask: int, text: str) -> None:
    assert weekday_text(mask) == text


def test_plan_html_summary_escapes_and_heads_with_the_figures(state: Path) -> None:
    plan = plan_rates(check_rates(new_sheet(), as_of=AS_OF), Settings(base_url=TARGET), journal=state)
    page = plan._repr_html_()
    assert "Plan (nothing sent)" in page and "120.00 → 135.00 EUR (+12.5%), 5–27 Mar 2027, Fri–Sat" in page
    assert plan.headline().startswith("Plan: 3 added, 8 changed, 23 unchanged, 5 removed from the sheet; 11 prices "
                                      "to send in 1 request with 2 messages")
    assert dt.date(2026, 11, 30) == plan.since


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["101", "102"]), st.integers(0, 70), st.sampled_from([100, 120, 135]),
                          st.sampled_from([None, 1, 2])), min_size=1, max_size=80))
def test_message_count_is_the_compressors(cells: list[tuple[str, int, int, int | None]]) -> None:
    """The plan's count of requests and messages is exactly what the compressor sends."""
    seen: dict[tuple[str, int, int | None], int] = {}
    for room, day, price, guests in cells:
        seen[(room, day, guests)] = price
    keys = list(seen)
    if len({g is None for _, _, g in keys}) > 1:   # guests in all rows or none
        keys = [k for k in keys if k[2] is None] or [k for k in keys if k[2] is not None]
    n = len(keys)
    frame = pd.DataFrame({
        "hotel_code": 1000001, "inv_type_code": [k[0] for k in keys], "rate_plan_code": "5001",
        "date": pd.Timestamp("2027-02-20") + pd.to_timedelta([k[1] for k in keys], unit="D"),
        "number_of_guests": pd.array([k[2] for k in keys], dtype="Int64"),
        "amount": [float(seen[k]) for k in keys], "amount_minor": [seen[k] for k in keys], "amount_scale": 0,
        "amount_type": "AfterTax", "decimal_places": pd.array([None] * n, dtype="Int64"), "currency_code": "EUR",
        "source": "s.csv", "sheet": "", "row": range(2, n + 2), "amount_column": "AmountAfterTax"}).astype(RATES_COLUMNS)
    messages = compress(frame).messages
    assert count_messages(frame) == (len(messages[["hotel_code", "month"]].drop_duplicates()), len(messages))


def test_diff_cells_with_far_apart_property_ids_and_guests() -> None:
    """Property ids far apart (factorised, not offset) and guest counts: cells match on every key part."""
    frame = pd.DataFrame({
        "hotel_code": [1, 9_000_000_000, 9_000_000_000], "inv_type_code": ["101", "101", "101"],
        "rate_plan_code": ["5001", "5001", "5001"], "date": pd.to_datetime(["2027-03-01"] * 3),
        "number_of_guests": [1, 1, 2], "amount": [100.0, 100.0, 120.0], "amount_minor": [100, 100, 120],
        "amount_scale": 0, "amount_type": "AfterTax", "decimal_places": pd.array([None] * 3, dtype="Int64"),
        "currency_code": "EUR", "source": "s.csv", "sheet": "", "row": [2, 3, 4],
        "amount_column": "AmountAfterTax"}).astype(RATES_COLUMNS)
    accepted = pd.DataFrame({"hotel_code": [1, 9_000_000_000, 9_000_000_000], "inv_type_code": "101",
                             "rate_plan_code": "5001", "date": pd.to_datetime(["2027-03-01"] * 3),
                             "guests": [1, 2, 3], "price": ["AfterTax:100e-0::EUR", "AfterTax:99e-0::EUR",
                                                            "AfterTax:1e-0::EUR"]})
    diff = diff_cells(frame, accepted)
    assert diff.change.tolist() == [2, 0, 1]          # unchanged, added (1 guest), changed (2 guests)
    assert diff.before.tolist() == ["AfterTax:100e-0::EUR", None, "AfterTax:99e-0::EUR"]
    assert diff.removed[["hotel_code", "guests"]].values.tolist() == [[9_000_000_000, 3]]
