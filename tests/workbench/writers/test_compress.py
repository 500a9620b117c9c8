"""Compression and batching: properties that must hold for every calendar."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from loaders.schemas import RATES_COLUMNS
from workbench.ota.rate_amount import parse_request_messages
from workbench.writers.batches import plan_requests
from workbench.writers.compress import ALL_DAYS, compress, compress_month, expand

START = dt.date(2027, 1, 1)


def calendar(cells: list[tuple[int, str, str, int, int | None, int]]) -> pd.DataFrame:
    """cells: (hotel, room, rate, day offset, guests, price in cents)."""
    rows = []
    for i, (hotel, room, rate, day, guests, cents) in enumerate(cells):
        rows.append({"hotel_code": hotel, "inv_type_code": room, "rate_plan_code": rate,
                     "date": pd.Timestamp(START + dt.timedelta(days=day)), "number_of_guests": guests,
                     "amount": cents / 100, "amount_minor": cents, "amount_scale": 2, "amount_type": "AfterTax",
                     "decimal_places": None, "currency_code": "EUR", "source": "t.csv", "sheet": "", "row": i + 2,
                     "amount_column": "AmountAfterTax"})
    return pd.DataFrame(rows, columns=list(RATES_COLUMNS)).astype(RATES_COLUMNS)


cell_keys = st.tuples(st.sampled_from([1, 2]), st.sampled_from(["A", "B"]), st.sampled_from(["R"]),
                      st.integers(0, 75), st.sampled_from([None, 1, 2]))
calendars = st.dictionaries(cell_keys, st.sampled_from([10000, 12000, 15000, 0]), min_size=1, max_size=120)


def _frame(cal: dict) -> pd.DataFrame:
    return calendar([(*k, v) for k, v in cal.items()])


def _expanded_cells(frame: pd.DataFrame, weekly: bool = True) -> tuple[set, int]:
    c = compress(frame, weekly=weekly)
    nights = expand(c.messages)
    cells = set()
    for n in nights.itertuples():
        for p in c.prices[c.prices["vector"] == n.vector].itertuples():
            guests = None if pd.isna(p.number_of_guests) else int(p.number_of_guests)
            cells.add((n.hotel_code, n.inv_type_code, n.rate_plan_code, n.date.date(), guests, int(p.amount_minor)))
    return cells, len(c.messages)


@settings(max_examples=150, deadline=None)
@given(calendars)
def test_expanding_the_messages_gives_back_exactly_the_calendar(cal) -> None:
    frame = _frame(cal)
    expected = {(h, r, p, START + dt.timedelta(days=d), g, v) for (h, r, p, d, g), v in cal.items()}
    got, n_weekly = _expanded_cells(frame)
    assert got == expected            # no cell lost, none invented
    _, n_rle = _expanded_cells(frame, weekly=False)
    assert n_weekly <= n_rle          # never worse than run-length


@settings(max_examples=150, deadline=None)
@given(calendars)
def test_no_night_is_covered_twice_and_requests_are_one_hotel_and_month(cal) -> None:
    frame = _frame(cal)
    nights = expand(compress(frame).messages)
    assert not nights.duplicated(["hotel_code", "inv_type_code", "rate_plan_code", "date"]).any()
    for req in plan_requests(frame):
        msgs = parse_request_messages(req.body)
        assert {m["hotel_code"] for m in msgs} == {req.hotel_code}
        assert {m["start"][:7] for m in msgs} | {m["end"][:7] for m in msgs} == {req.month}


@settings(max_examples=150, deadline=None)
@given(calendars)
def test_requests_read_back_by_the_spec_weekday_rules_equal_the_calendar(cal) -> None:
    frame = _frame(cal)
    expected = {(h, r, p, START + dt.timedelta(days=d), g, v / 100) for (h, r, p, d, g), v in cal.items()}
    got = set()
    for req in plan_requests(frame):
        for m in parse_request_messages(req.body):
            start, end = dt.date.fromisoformat(m["start"]), dt.date.fromisoformat(m["end"])
            d = start
            while d <= end:
                if m["days"][d.weekday()]:
                    for a in m["amounts"]:
                        guests = int(a["NumberOfGuests"]) if "NumberOfGuests" in a else None
                        got.add((m["hotel_code"], m["inv_type_code"], m["rate_plan_code"], d, guests,
                                 float(a["AmountAfterTax"])))
                d += dt.timedelta(days=1)
    assert got == expected


def test_weekday_weekend_season_is_two_messages_a_month() -> None:
    cells = []
    for day in range(0, 90):
        weekday = (START + dt.timedelta(days=day)).weekday()
        cells.append((1, "A", "R", day, None, 15900 if weekday in (4, 5) else 12900))
    c = compress(calendar(cells))
    assert len(c.messages) == 6
    rle = compress(calendar(cells), weekly=False)
    assert len(c.messages) <= 0.3 * len(rle.messages)


def test_compress_month_examples() -> None:
    days = np.arange(31)
    assert compress_month(days, np.zeros(31, dtype=int), 4) == [(0, 30, ALL_DAYS, 0)]
    vals = np.array([1 if (d + 4) % 7 in (4, 5) else 0 for d in days])
    plan = compress_month(days, vals, 4)
    assert sorted(plan) == [(0, 29, 0b0110000, 1), (2, 30, 0b1001111, 0)]


def test_each_request_knows_its_source_rows() -> None:
    frame = calendar([(1, "A", "R", d, None, 10000) for d in range(0, 40)])
    reqs = plan_requests(frame)
    assert [(r.key, r.cells, r.messages) for r in reqs] == [("1-2027-01", 31, 1), ("1-2027-02", 9, 1)]
    assert reqs[0].source_rows() == "t.csv 2-32"
    assert etree.fromstring(reqs[1].body).tag.endswith("OTA_HotelRateAmountNotifRQ")
