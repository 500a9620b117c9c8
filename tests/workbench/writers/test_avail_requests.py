"""Availability requests: the rates' compressor on series of (room, rate, restriction); properties that must
hold for every calendar (expand gives back the input, never more messages than run-length, one hotel and
month per request, row order does not matter), LocatorIDs that lead back to the cells, and the dry-run
folder the rates' writer writes."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loaders.schemas import AVAILABILITY_COLUMNS, FLAG_RESTRICTIONS, RESTRICTIONS
from workbench.config import LOS_READINGS
from workbench.ota.avail_notif import parse_avail_notif
from workbench.writers.avail_requests import (
    availability_folder_plan,
    compress_availability,
    plan_availability_requests,
    planned_availability,
)
from workbench.writers.compress import expand
from workbench.writers.request_folder import read_folder, write_folder

START = dt.date(2027, 1, 1)
TS = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


def frame(cells: dict[tuple, int]) -> pd.DataFrame:
    """cells: (hotel, room, rate or None, day offset, restriction) -> value."""
    rows = [{"hotel_code": h, "inv_type_code": room, "rate_plan_code": rate, "date": pd.Timestamp(START) + pd.Timedelta(
        days=d), "restriction": r, "value": v, "source": "a.xlsx", "sheet": "S", "row": i + 2, "value_column": r}
        for i, ((h, room, rate, d, r), v) in enumerate(cells.items())]
    return pd.DataFrame(rows, columns=list(AVAILABILITY_COLUMNS)).astype(AVAILABILITY_COLUMNS)


def _level(r: str) -> st.SearchStrategy:
    if r == "rooms_to_sell":
        return st.just(None)
    return st.sampled_from([None, "R"]) if r == "closed" else st.just("R")


@st.composite
def calendars(draw: st.DrawFn) -> dict[tuple, int]:
    out = {}
    for _ in range(draw(st.integers(1, 80))):
        r = draw(st.sampled_from(RESTRICTIONS))
        value = draw(st.sampled_from([0, 1]) if r in FLAG_RESTRICTIONS else st.sampled_from([0, 2, 3, 255]))
        out[(draw(st.sampled_from([1, 2])), draw(st.sampled_from(["A", "B"])), draw(_level(r)),
             draw(st.integers(0, 70)), r)] = value
    return out


def _nights(c) -> set[tuple]:
    m = c.messages
    nights = expand(m.assign(vector=np.arange(len(m))))
    got = set()
    for n in nights.itertuples():
        msg = m.iloc[int(n.vector)]
        rate = None if pd.isna(msg["rate_plan_code"]) else msg["rate_plan_code"]
        got.add((n.hotel_code, n.inv_type_code, rate, (n.date.date() - START).days, msg["restriction"],
                 int(msg["value"])))
    return got


@settings(max_examples=120, deadline=None)
@given(calendars())
def test_expanding_the_messages_gives_back_exactly_the_input_never_more_than_run_length(cal) -> None:
    f = frame(cal)
    weekly, rle = compress_availability(f), compress_availability(f, weekly=False)
    assert _nights(weekly) == _nights(rle) == {(*k, v) for k, v in cal.items()}
    assert len(weekly.messages) <= len(rle.messages)
    nights = expand(weekly.messages.assign(vector=0))
    assert len(nights) == len(cal)  # no night set twice


@settings(max_examples=60, deadline=None)
@given(calendars(), st.sampled_from(LOS_READINGS), st.randoms(use_true_random=False))
def test_requests_read_back_by_the_weekday_rules_equal_the_input(cal, reading, rnd) -> None:
    f = frame(cal)
    rows = list(range(len(f)))
    rnd.shuffle(rows)
    requests = plan_availability_requests(f, timestamp=TS, reading=reading)
    shuffled = plan_availability_requests(f.iloc[rows], timestamp=TS, reading=reading)
    assert [r.body for r in requests] == [r.body for r in shuffled]  # canonical whatever the row order
    got = set()
    for req in requests:
        msgs = parse_avail_notif(req.body, reading=reading)
        assert {m["hotel_code"] for m in msgs} == {req.hotel_code}
        assert {m["start"][:7] for m in msgs} | {m["end"][:7] for m in msgs} == {req.month}
        for m in msgs:
            day = dt.date.fromisoformat(str(m["start"]))
            while day <= dt.date.fromisoformat(str(m["end"])):
                if m["days"][day.weekday()]:
                    got.add((m["hotel_code"], m["inv_type_code"], m["rate_plan_code"], (day - START).days,
                             m["restriction"], m["value"]))
                day += dt.timedelta(days=1)
    assert got == {(*k, v) for k, v in cal.items()}


def test_each_cell_knows_its_request_and_the_locator_of_the_message_setting_it() -> None:
    cal = {(1, "A", None, d, "rooms_to_sell"): 4 for d in range(0, 40)}
    cal |= {(1, "A", "R", d, "min_stay_arrival"): 2 for d in range(0, 40) if (START + dt.timedelta(days=d)).weekday() >= 4}
    given = frame(cal)
    requests, cells = availability_folder_plan(given, timestamp=TS)
    requests = list(requests)
    assert list(given.columns) == list(AVAILABILITY_COLUMNS) and given.equals(frame(cal))  # the input is untouched
    assert [(r.key, r.messages) for r in requests] == [("1-2027-01", 2), ("1-2027-02", 2)]
    by_request = {r.key + ".xml": {m["locator"]: m for m in parse_avail_notif(r.body)} for r in requests}
    for cell in cells.itertuples():
        m = by_request[cell.file][str(cell.locator)]
        assert (m["restriction"], m["value"], m["inv_type_code"]) == (cell.restriction, cell.value, cell.inv_type_code)
        assert m["start"] <= f"{cell.date:%Y-%m-%d}" <= m["end"] and m["days"][cell.date.weekday()]
    assert requests[0].locators.groupby("locator")["row"].count().to_dict() == {1: 31, 2: 15}
    assert requests[0].source_rows() == "a.xlsx S 2-32,42-56"


def test_weekday_and_weekend_stays_are_at_most_a_third_of_run_length() -> None:
    cal = {(1, "A", "R", d, "min_stay_arrival"): 2 if (START + dt.timedelta(days=d)).weekday() >= 4 else 1
           for d in range(0, 90)}
    weekly, rle = compress_availability(frame(cal)), compress_availability(frame(cal), weekly=False)
    assert len(weekly.messages) == 6 and len(weekly.messages) <= 0.3 * len(rle.messages)


def test_a_repeated_cell_is_refused_rather_than_sent_twice() -> None:
    f = frame({(1, "A", None, 0, "rooms_to_sell"): 4})
    with pytest.raises(ValueError, match="two rows set the same value of the same night"):
        compress_availability(pd.concat([f, f], ignore_index=True))


def test_the_rates_folder_writer_writes_and_reads_back_an_availability_dry_run(tmp_path) -> None:
    cal = {(h, "A", None, d, "rooms_to_sell"): d % 3 for h in (1, 2) for d in range(20, 45)}
    requests, cells = availability_folder_plan(frame(cal), timestamp=TS)
    written, manifest = write_folder(tmp_path / "dry", requests, cells)
    assert manifest[["file", "hotel", "month"]].values.tolist() == [
        ["1-2027-01.xml", 1, "2027-01"], ["1-2027-02.xml", 1, "2027-02"], ["2-2027-01.xml", 2, "2027-01"],
        ["2-2027-02.xml", 2, "2027-02"]]
    folder = read_folder(tmp_path / "dry")
    assert [r.body for r in folder.requests] == [r.body for r in written]
    assert set(folder.cells.columns) >= {"restriction", "value", "locator", "file", "value_column"}
    assert len(folder.cells) == len(cal)


@pytest.mark.parametrize("reading", LOS_READINGS)
def test_planned_requests_carry_the_state_they_set_and_the_cells_behind_it(reading) -> None:
    cal = {(1, "A", None, d, "rooms_to_sell"): 3 + d % 2 for d in range(25, 40)}
    cal |= {(1, "A", "R", d, "min_stay_through"): 2 for d in range(25, 40) if (START + dt.timedelta(days=d)).weekday() >= 4}
    requests, cells = availability_folder_plan(frame(cal), timestamp=TS, reading=reading)
    planned = planned_availability(list(requests), cells, reading)
    assert [(p.kind, p.operation, p.key, p.what) for p in planned] == [
        ("availability", "OTA_HotelAvailNotif", "1-2027-01", "2027-01"),
        ("availability", "OTA_HotelAvailNotif", "1-2027-02", "2027-02")]
    state = {item: value for p in planned for item, value in p.state}
    expected = {f"1/A/{rate or ''}/{START + dt.timedelta(days=d)}/{r}": str(v) for (_, _, rate, d, r), v in cal.items()}
    assert state == expected
    for p in planned:  # each row's item is in its request's state, and its locator one of its messages
        assert set(p.rows["item"]) == {item for item, _ in p.state} and len(p.rows) == p.items
        assert set(p.rows["locator"]) <= set(range(1, p.messages + 1))
        assert set(p.rows["column"]) == {"rooms_to_sell", "min_stay_through"}
