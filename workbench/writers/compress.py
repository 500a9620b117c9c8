"""A calendar of night prices -> the fewest RateAmountMessages that set exactly those prices.

Per hotel, room, rate plan and calendar month (a request never spans months), the nights are
covered by messages of two kinds: a plain date range, or a date range with a weekday mask
(e.g. "every Fri and Sat from the 1st to the 31st"). Every guest count of a night travels in
the same message (several ``BaseByGuestAmt``), so nights are compared by their whole price
vector. The weekly encoding is used only when it needs fewer messages than run-length
encoding, so the result is never worse than run-length; no night is covered twice and no night
is set that the input did not price.

The output is canonical: it depends on the calendar, never on the order of its rows, sheets or
files. Messages come in hotel, month, room, rate plan and start order (so a request's
``LocatorID`` numbering is canonical too), price vectors are numbered in value order, and a
vector's prices are in number-of-guests order. :func:`compress` searches every month at once
(:mod:`workbench.writers.month_plans`); :func:`compress_month` is the same rule for one month
written plainly, the reference the fast path is tested against.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from loaders.text_codes import text_codes
from workbench.writers.month_plans import ALL_DAYS, DAYS, plan_months

PRICE_COLUMNS = ["number_of_guests", "amount_type", "amount_minor", "amount_scale", "decimal_places", "currency_code"]


@dataclass
class Compressed:
    """``messages``: one row per RateAmountMessage; ``prices``: the BaseByGuestAmt rows of each
    price vector; ``cells``: the input rows with the message that carries each of them."""

    messages: pd.DataFrame   # hotel_code, month, inv_type_code, rate_plan_code, start, end, mask, vector
    prices: pd.DataFrame     # vector, number_of_guests, amount_type, amount_minor, amount_scale, decimal_places, currency_code
    cells: pd.DataFrame      # source, sheet, row, hotel_code, month, message (index into messages)


def compress(frame: pd.DataFrame, weekly: bool = True) -> Compressed:
    """Compress a canonical rates frame (no duplicate keys) into messages.

    The result depends only on the calendar, never on the order of its rows: messages come in
    hotel, month, room, rate plan and start order, and price vectors are numbered in value order."""
    f = frame.reset_index(drop=True)
    if f.empty:
        return Compressed(pd.DataFrame({"hotel_code": f["hotel_code"], "month": pd.Series(dtype="str"),
                                        "inv_type_code": f["inv_type_code"], "rate_plan_code": f["rate_plan_code"],
                                        "start": f["date"], "end": f["date"], "mask": pd.Series(dtype=np.int64),
                                        "vector": pd.Series(dtype=np.int64)}),
                          pd.DataFrame(columns=["vector", *PRICE_COLUMNS]),
                          pd.DataFrame(columns=["source", "sheet", "row", "hotel_code", "month", "message"]))
    s = series_months(f["hotel_code"], f["date"], [f["inv_type_code"], f["rate_plan_code"]])
    vector, prices = _vectors(f, s.cell)
    p = plan_series(s, vector, weekly=weekly)
    take = s.at[p.series]
    messages = pd.DataFrame({
        "hotel_code": f["hotel_code"].array.take(take),
        "month": p.months.take(p.series),
        "inv_type_code": f["inv_type_code"].array.take(take),
        "rate_plan_code": f["rate_plan_code"].array.take(take),
        "start": p.start, "end": p.end, "mask": p.mask, "vector": p.value,
    })
    cells = pd.DataFrame({"source": f["source"], "sheet": f["sheet"], "row": f["row"], "hotel_code": f["hotel_code"],
                          "month": p.months.take(s.series), "message": p.message})
    return Compressed(messages, prices, cells)


@dataclass
class SeriesMonths:
    """Rows of a calendar grouped into series-months: a hotel, a calendar month and the other key
    columns (room, rate plan, …), numbered in that value order (the order of requests and of their
    messages). ``cell`` is each row's place in the month grids: ``series * 31 + day``."""

    series: np.ndarray       # per row: its series-month
    at: np.ndarray           # per series-month: one row holding it
    month_start: np.ndarray  # per series-month: its first day (datetime64[D])
    cell: np.ndarray         # per row: series * 31 + day of the month (0-based)


def series_months(hotel: pd.Series, dates: pd.Series, keys: list[pd.Series | np.ndarray]) -> SeriesMonths:
    """The series-month of each row: (``hotel``, month of ``dates``, ``*keys``) in value order."""
    days = dates.to_numpy("datetime64[D]")
    month = months_of(days)
    day = (days - month.astype("datetime64[D]")).astype(np.int64)
    series, series_at = _value_codes([_ordered_codes(hotel), _ordered_codes(month.astype(np.int64)),
                                      *(_ordered_codes(k) for k in keys)])
    return SeriesMonths(series, series_at, month[series_at].astype("datetime64[D]"), series * DAYS + day)


def months_of(days: np.ndarray) -> np.ndarray:
    """``days.astype("datetime64[M]")`` for ``datetime64[D]`` nights, through a table of the nights from the
    first to the last: the calendar is worked out once per night of the span, not once per row (a million
    rows over two years: 10 -> 3 ms). A span much longer than the rows, or a NaT, is converted as numpy does."""
    n = days.view(np.int64)
    if len(n) == 0:
        return days.astype("datetime64[M]")
    lo, hi = int(n.min()), int(n.max())
    if lo == np.iinfo(np.int64).min or hi - lo > 4 * len(n) + 1_000:
        return days.astype("datetime64[M]")
    table = np.arange(lo, hi + 1, dtype=np.int64).view("datetime64[D]").astype("datetime64[M]")
    return table[n - lo]


@dataclass
class SeriesPlan:
    """The messages of every series-month, in series then start order: each one's series-month, first
    and last night, weekday mask and value; ``message``: the message carrying each input row;
    ``months``: each series-month as ``YYYY-MM``."""

    series: np.ndarray
    start: np.ndarray        # datetime64[ns]
    end: np.ndarray          # datetime64[ns]
    mask: np.ndarray         # int64, bit 0 = Monday
    value: np.ndarray        # the value (code) the message sets
    message: np.ndarray      # per input row
    months: pd.api.extensions.ExtensionArray


def plan_series(s: SeriesMonths, values: np.ndarray, weekly: bool = True) -> SeriesPlan:
    """The fewest messages that set ``values`` (a non-negative code per row; one row per cell) on every
    series-month: date ranges with weekday masks (:mod:`workbench.writers.month_plans`), never more
    than run-length encoding."""
    grid = np.full((len(s.at), DAYS), -1, dtype=np.int64)
    grid.ravel()[s.cell] = values
    first_weekday = (s.month_start.astype(np.int64) + 3) % 7  # 1970-01-01 was a Thursday
    plans = plan_months(grid, first_weekday, weekly=weekly)
    starts = plans.starts()
    row, start = starts // DAYS, starts % DAYS
    number = np.full(grid.size, -1, dtype=np.int64)
    number[starts] = np.arange(len(starts))
    return SeriesPlan(
        series=row,
        start=(s.month_start[row] + start.astype("timedelta64[D]")).astype("datetime64[ns]"),
        end=(s.month_start[row] + plans.end.ravel()[starts].astype("timedelta64[D]")).astype("datetime64[ns]"),
        mask=plans.mask.ravel()[starts].astype(np.int64),
        value=grid.ravel()[starts],
        message=number[s.series * DAYS + plans.owner.ravel()[s.cell]],
        months=pd.Series(np.datetime_as_string(s.month_start, unit="M").astype(object)).array,  # YYYY-MM
    )


def _codes(values: pd.Series | np.ndarray) -> np.ndarray:
    """Codes of ``values`` in value order (missing values first, as 0)."""
    codes, _ = pd.factorize(values, sort=True)
    return codes.astype(np.int64) + 1


def _ordered_codes(values: pd.Series | np.ndarray) -> np.ndarray:
    """Codes of ``values`` in value order (missing values first, as 0), not necessarily consecutive: whole
    numbers over a short span are their distance from the least (no hash table, no sort); texts by Arrow's
    hash table and a sort of the distinct ones (:func:`loaders.text_codes.text_codes`); anything else as
    :func:`_codes`."""
    if isinstance(values, pd.Series) and isinstance(values.array, pd.arrays.ArrowStringArray) and len(values):
        return text_codes(values, sort=True)[0] + 1  # a missing text (-1) first, as 0
    numbers, missing = _whole_numbers(values)
    if numbers is None or len(numbers) == 0 or (missing is not None and missing.all()):
        return _codes(values)
    present = numbers if missing is None else numbers[~missing]
    least, most = int(present.min()), int(present.max())
    if most - least > 4 * len(numbers) + 1_000:
        return _codes(values)
    codes = numbers - least + 1
    if missing is not None:
        codes[missing] = 0
    return codes


def _whole_numbers(values: pd.Series | np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(int64 values, which are missing) of a column of whole numbers; (None, None) for any other column."""
    if isinstance(values, np.ndarray):
        return (values.astype(np.int64, copy=False), None) if values.dtype.kind in "iu" else (None, None)
    if isinstance(values.array, pd.arrays.IntegerArray):
        missing = values.isna().to_numpy()
        return values.to_numpy(dtype=np.int64, na_value=0), (missing if missing.any() else None)
    if values.dtype.kind in "iu":
        return values.to_numpy(dtype=np.int64), None
    return None, None


def _value_codes(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Codes of the rows of ``columns`` (value-ordered codes each) in lexicographic order, and one
    row index holding each code."""
    key = columns[0]
    for col in columns[1:]:
        width = int(col.max()) + 1
        if int(key.max()) >= np.iinfo(np.int64).max // width:
            key = _codes(key)  # renumber densely (order kept) before it could overflow
        key = key * width + col
    span = int(key.max()) + 1
    if span <= max(1 << 22, 4 * len(key)):  # ranked by an array over the span: no hash table, no sort
        present = np.zeros(span, dtype=bool)
        present[key] = True
        codes = (np.cumsum(present) - 1)[key]
    else:
        codes, _ = pd.factorize(key, sort=True)
    at = np.empty(int(codes.max()) + 1, dtype=np.int64)
    at[codes] = np.arange(len(codes))  # any row of a code will do: they hold the same values
    return codes.astype(np.int64), at


def _vectors(f: pd.DataFrame, cell: np.ndarray) -> tuple[np.ndarray, pd.DataFrame]:
    """The price vector of each row's night (all its guest counts), numbered in value order, and
    the ``BaseByGuestAmt`` rows of each vector (by number of guests)."""
    price, price_at = _value_codes([_codes(f[c]) for c in PRICE_COLUMNS])
    if np.bincount(cell).max() == 1:  # one price per night: the price is the vector
        vector, members = price, np.arange(len(price_at))[:, None]
    else:
        order = np.lexsort((price, cell))  # a night's prices by number of guests (the first price column)
        night = cell[order]
        first = np.flatnonzero(np.append(True, night[1:] != night[:-1]))
        size = np.diff(np.append(first, len(night)))
        table = np.full((len(first), int(size.max())), -1, dtype=np.int64)
        table[np.repeat(np.arange(len(first)), size), np.arange(len(night)) - np.repeat(first, size)] = price[order]
        night_vector, vector_at = _value_codes([_codes(table[:, j]) for j in range(table.shape[1])])
        vector = np.empty(len(cell), dtype=np.int64)
        vector[order] = np.repeat(night_vector, size)
        members = table[vector_at]
    vec_of, slot = np.nonzero(members >= 0)
    prices = f[PRICE_COLUMNS].iloc[price_at[members[vec_of, slot]]].reset_index(drop=True)
    prices.insert(0, "vector", vec_of)
    return vector, prices


def compress_month(days: np.ndarray, vals: np.ndarray, first_weekday: int,
                   weekly: bool = True) -> list[tuple[int, int, int, int]]:
    """Messages ``(start_day, end_day, weekday_mask, value)`` (0-based days) for one month (the
    plain statement of the rule :func:`compress` applies to all months at once).

    ``days`` are sorted, distinct days of the month; ``vals`` the value (price vector) of each;
    ``first_weekday`` the weekday of day 0 (0 = Monday).
    """
    rle = _runs(days, vals)
    if not weekly or len(rle) <= 2:
        return rle
    grid = np.full(31, -1, dtype=np.int64)
    grid[days] = vals
    free = np.zeros(31, dtype=bool)
    free[days] = True
    wd = (np.arange(31) + first_weekday) % 7
    plan: list[tuple[int, int, int, int]] = []
    uniq, counts = np.unique(vals, return_counts=True)
    for val in uniq[np.argsort(-counts, kind="stable")]:
        mine = np.flatnonzero((grid == val) & free)
        if len(mine) < 2:
            continue
        cuts = np.flatnonzero(np.diff(mine) >= 7) + 1
        for seg in np.split(mine, cuts):
            if len(seg) < 2:
                continue
            lo, hi = int(seg[0]), int(seg[-1])
            span = np.arange(lo, hi + 1)
            ok = (grid[span] == val) & free[span]
            mask = 0
            for w in range(7):
                sel = wd[span] == w
                if sel.any() and ok[sel].all():
                    mask |= 1 << w
            if not mask:
                continue
            hit = span[(mask >> wd[span]) & 1 == 1]
            if len(hit) < 2:
                continue
            s, e = int(hit[0]), int(hit[-1])
            covered = np.arange(s, e + 1)
            covered = covered[(mask >> wd[covered]) & 1 == 1]
            present = set(wd[covered].tolist())
            mask = sum(1 << w for w in present)
            if e - s >= 6 and mask == ALL_DAYS or e - s < 6 and len(covered) == e - s + 1:
                mask = ALL_DAYS  # a plain range
            plan.append((s, e, mask, int(val)))
            free[covered] = False
            if len(plan) >= len(rle):
                return rle
    rest = np.flatnonzero(free)
    plan.extend(_runs(rest, grid[rest]))
    return plan if len(plan) < len(rle) else rle


def _runs(days: np.ndarray, vals: np.ndarray) -> list[tuple[int, int, int, int]]:
    if len(days) == 0:
        return []
    brk = np.flatnonzero((np.diff(days) != 1) | (np.diff(vals) != 0)) + 1
    starts = np.concatenate(([0], brk))
    ends = np.concatenate((brk, [len(days)])) - 1
    return [(int(days[a]), int(days[b]), ALL_DAYS, int(vals[a])) for a, b in zip(starts, ends, strict=True)]


def expand(messages: pd.DataFrame) -> pd.DataFrame:
    """The nights each message sets, by the spec's weekday rules: hotel, room, rate, date, vector."""
    n = ((messages["end"] - messages["start"]).dt.days + 1).to_numpy()
    rep = np.repeat(np.arange(len(messages)), n)
    off = np.arange(len(rep)) - np.repeat(np.cumsum(n) - n, n)
    dates = messages["start"].to_numpy("datetime64[D]")[rep] + off.astype("timedelta64[D]")
    wd = (dates.astype(np.int64) + 3) % 7
    keep = (messages["mask"].to_numpy()[rep] >> wd) & 1 == 1
    m = messages.iloc[rep[keep]]
    return pd.DataFrame({"hotel_code": m["hotel_code"].to_numpy(), "inv_type_code": m["inv_type_code"].to_numpy(),
                         "rate_plan_code": m["rate_plan_code"].to_numpy(), "date": dates[keep].astype("datetime64[ns]"),
                         "vector": m["vector"].to_numpy(), "message": rep[keep]})
