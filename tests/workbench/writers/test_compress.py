"""Compression and batching: properties that must hold for every calendar.

``compress`` finds every month's messages at once (numpy); ``compress_month`` is the same rule for
one month written plainly, and the reference the fast path is held to, message for message."""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict

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


# --- calendars of every kind, the one-month reference, and row order -------------------------------

KINDS = ("random", "few_prices", "constant", "weekday_weekend", "friday_saturday", "seasonal", "gappy", "events")


@st.composite
def kind_calendars(draw: st.DrawFn) -> pd.DataFrame:
    """A few series (hotels, rooms, rate plans; with or without guest counts) priced by one of
    :data:`KINDS` over up to ten weeks that may straddle month ends."""
    kind = draw(st.sampled_from(KINDS))
    n_series = draw(st.integers(1, 5))
    first, length = draw(st.integers(0, 45)), draw(st.integers(1, 70))
    guests = draw(st.sampled_from([(None,), (1, 2), (2, 1, 3)]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    cells = []
    for s in range(n_series):
        hotel, room, rate = 1 + s % 2, "AB"[s // 2 % 2], "RQ"[s // 4 % 2]
        base, season = 9_000 + 500 * int(rng.integers(0, 3)), int(rng.integers(0, 40))
        for day in range(first, first + length):
            wd = (START + dt.timedelta(days=day)).weekday()
            month = (START + dt.timedelta(days=day)).month
            weekend = base + (wd >= 4) * 2_500 + month % 2 * 1_000
            cents = {"random": 5_000 + 100 * int(rng.integers(0, 40)),
                     "few_prices": base + 1_000 * int(rng.integers(0, 3)), "constant": base,
                     "weekday_weekend": weekend, "gappy": weekend,
                     "friday_saturday": base + (wd in (4, 5)) * 3_000 + month % 3 * 800,
                     "seasonal": base + (day >= season) * 700 + (wd in (4, 5)) * 3_000,
                     "events": weekend + (rng.random() < 0.1) * 5_000}[kind]
            if kind == "gappy" and rng.random() < 0.15:
                continue
            for g in guests:
                extra = int(rng.integers(0, 2)) * 100 if kind == "random" else 0
                cells.append((hotel, room, rate, day, g, cents + (0 if g is None else (g - 1) * 1_500) + extra))
    return calendar(cells)


def _content(frame: pd.DataFrame) -> dict[tuple, tuple]:
    """(hotel, room, rate, date) -> the night's prices as sorted (guests, amount) pairs."""
    nights: dict[tuple, list] = defaultdict(list)
    for r in frame.itertuples():
        guests = -1 if pd.isna(r.number_of_guests) else int(r.number_of_guests)
        nights[(int(r.hotel_code), r.inv_type_code, r.rate_plan_code, r.date.date())].append(
            (guests, int(r.amount_minor)))
    return {k: tuple(sorted(v)) for k, v in nights.items()}


def reference_messages(frame: pd.DataFrame) -> list[tuple]:
    """Today's rule month by month (``compress_month``), with price vectors numbered in a random
    order: (hotel, room, rate, start, end, mask, prices) of every message, sorted."""
    nights = _content(frame)
    vectors = list(set(nights.values()))
    random.shuffle(vectors)
    number = {v: i for i, v in enumerate(vectors)}
    months: dict[tuple, list] = defaultdict(list)
    for (hotel, room, rate, date), v in nights.items():
        months[(hotel, room, rate, date.replace(day=1))].append((date.day - 1, number[v]))
    out = []
    for (hotel, room, rate, first), nights_of_month in months.items():
        days, vals = zip(*sorted(nights_of_month), strict=True)
        for s, e, mask, val in compress_month(np.array(days), np.array(vals), first.weekday()):
            out.append((hotel, room, rate, first + dt.timedelta(days=s), first + dt.timedelta(days=e), mask,
                        vectors[val]))
    return sorted(out)


def messages_of(frame: pd.DataFrame, weekly: bool = True) -> list[tuple]:
    c = compress(frame, weekly=weekly)
    prices: dict[int, list] = defaultdict(list)
    for p in c.prices.itertuples():
        prices[int(p.vector)].append((-1 if pd.isna(p.number_of_guests) else int(p.number_of_guests),
                                      int(p.amount_minor)))
    return [(int(m.hotel_code), m.inv_type_code, m.rate_plan_code, m.start.date(), m.end.date(), int(m.mask),
             tuple(sorted(prices[int(m.vector)]))) for m in c.messages.itertuples()]


@settings(max_examples=100, deadline=None)
@given(kind_calendars())
def test_every_month_gets_exactly_the_messages_of_the_one_month_rule(frame) -> None:
    ours = messages_of(frame)
    assert sorted(ours) == reference_messages(frame)         # same messages as today's rule: never more
    assert len(ours) <= len(messages_of(frame, weekly=False))  # never worse than run-length
    nights = expand(compress(frame).messages)
    assert len(nights) == len(_content(frame))                # every night set once, none invented


@settings(max_examples=100, deadline=None)
@given(kind_calendars(), st.randoms(use_true_random=False))
def test_shuffled_rows_give_byte_identical_requests(frame, rnd) -> None:
    order = list(range(len(frame)))
    rnd.shuffle(order)
    shuffled = frame.iloc[order].reset_index(drop=True)
    shuffled["source"] = pd.array(np.where(np.arange(len(frame)) % 2, "b.csv", "a.xlsx"), dtype="string")
    shuffled["row"] = pd.array(np.arange(len(frame)) + 2, dtype="Int64")
    stamp = dt.datetime(2027, 1, 1, tzinfo=dt.UTC)
    ours, theirs = plan_requests(frame, timestamp=stamp), plan_requests(shuffled, timestamp=stamp)
    assert [(r.key, r.body) for r in ours] == [(r.key, r.body) for r in theirs]


def test_messages_come_in_room_rate_start_order_with_locators_to_match() -> None:
    cells = [(1, room, rate, d, None, 10000 + 100 * (d % 3)) for room, rate in (("B", "R"), ("A", "Q"), ("A", "P"))
             for d in (5, 1, 3)]
    (req,) = plan_requests(calendar(cells))
    got = [(m["inv_type_code"], m["rate_plan_code"], m["start"], m["locator"]) for m in parse_request_messages(req.body)]
    assert got == [(room, rate, f"2027-01-0{d + 1}", str(n)) for n, (room, rate, d) in enumerate(
        [(r, p, d) for r, p in (("A", "P"), ("A", "Q"), ("B", "R")) for d in (1, 3, 5)], start=1)]


def test_equally_common_prices_give_the_same_messages_whatever_came_first() -> None:
    days = list(range(14))
    cheap_first = [(1, "A", "R", d, None, 10000 if d % 2 else 12000) for d in days]
    dear_first = list(reversed(cheap_first))
    assert plan_requests(calendar(cheap_first), timestamp=START_TS)[0].body == \
        plan_requests(calendar(dear_first), timestamp=START_TS)[0].body


START_TS = dt.datetime(2027, 1, 1, tzinfo=dt.UTC)


@settings(max_examples=60, deadline=None)
@given(kind_calendars())
def test_each_hotel_alone_gives_the_requests_it_gets_with_the_others(frame) -> None:
    """What a partition of hotels (a Dask worker's share) builds is what the whole run builds for them."""
    whole = [(r.key, r.body) for r in plan_requests(frame, timestamp=START_TS)]
    apart = [(r.key, r.body) for _, part in frame.groupby("hotel_code") for r in plan_requests(part, timestamp=START_TS)]
    assert whole == apart


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-800_000, 2_900_000)), max_size=50),
       st.integers(-60_000, 60_000))
def test_months_of_is_numpys_month_of_every_night(offsets: list[int | None], shift: int) -> None:
    from workbench.writers.compress import months_of

    days = np.array([np.datetime64("NaT") if o is None else np.datetime64(o + shift, "D") for o in offsets],
                    dtype="datetime64[D]")
    expected = days.astype("datetime64[M]")
    got = months_of(days)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected, equal_nan=True)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 1_500), min_size=1, max_size=50), st.integers(-40_000, 40_000))
def test_months_of_a_short_span_goes_through_the_table(offsets: list[int], first: int) -> None:
    from workbench.writers.compress import months_of

    days = (np.array(offsets, dtype=np.int64) + first).view("datetime64[D]")
    assert np.array_equal(months_of(days), days.astype("datetime64[M]"))


def _rank(codes: np.ndarray) -> list[int]:
    return pd.factorize(codes, sort=True)[0].tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-5, 40)), max_size=40),
       st.lists(st.one_of(st.none(), st.sampled_from(["", "900", "901", "DBL", "Zürich", "b", "a"])), max_size=40),
       st.integers(0, 10**12))
def test_ordered_codes_order_rows_as_sorted_factorisation_does(numbers: list[int | None], texts: list[str | None],
                                                               offset: int) -> None:
    """Whole numbers over a short span (their distance from the least) and texts (Arrow's hash table and a sort)
    are numbered in value order, missing values first: the same order as ``pd.factorize(sort=True)``."""
    from workbench.writers.compress import _codes, _ordered_codes

    columns = [pd.Series([None if n is None else n + offset for n in numbers], dtype="Int64"),
               pd.Series(texts, dtype="string"), pd.Series(texts, dtype=object)]
    if None not in numbers:
        columns += [np.array(numbers, dtype=np.int64) + offset, pd.Series(numbers, dtype=np.int64)]
    for column in columns:
        got = _ordered_codes(column)
        assert _rank(got) == _rank(_codes(column))
        assert (got >= 0).all() and ((got == 0) == pd.isna(pd.Series(column)).to_numpy()).all()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3), st.integers(0, 10**6)), min_size=1, max_size=60))
def test_value_codes_rank_rows_lexicographically(rows: list[tuple[int, int, int]]) -> None:
    """Dense codes in lexicographic order, by an array over a short span or by pandas' sort past it."""
    from workbench.writers.compress import _value_codes

    columns = [np.array(c, dtype=np.int64) for c in zip(*rows, strict=True)]
    codes, at = _value_codes(columns)
    expected = pd.factorize(pd.Series(rows, dtype=object).map(tuple), sort=True)[0]
    assert codes.tolist() == expected.tolist()
    assert all(rows[at[c]] == rows[i] for i, c in enumerate(codes))
