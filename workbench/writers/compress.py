"""A calendar of night prices -> the fewest RateAmountMessages that set exactly those prices.

Per hotel, room, rate plan and calendar month (a request never spans months), the nights are
covered by messages of two kinds: a plain date range, or a date range with a weekday mask
(e.g. "every Fri and Sat from the 1st to the 31st"). Every guest count of a night travels in
the same message (several ``BaseByGuestAmt``), so nights are compared by their whole price
vector. The weekly encoding is used only when it needs fewer messages than run-length
encoding, so the result is never worse than run-length; no night is covered twice and no night
is set that the input did not price.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

ALL_DAYS = 0b1111111  # bit 0 = Monday ... bit 6 = Sunday

PRICE_COLUMNS = ["number_of_guests", "amount_type", "amount_minor", "amount_scale", "decimal_places", "currency_code"]


@dataclass
class Compressed:
    """``messages``: one row per RateAmountMessage; ``prices``: the BaseByGuestAmt rows of each
    price vector; ``cells``: the input rows with the message that carries each of them."""

    messages: pd.DataFrame   # hotel_code, month, inv_type_code, rate_plan_code, start, end, mask, vector
    prices: pd.DataFrame     # vector, number_of_guests, amount_type, amount_minor, amount_scale, decimal_places, currency_code
    cells: pd.DataFrame      # source, sheet, row, hotel_code, month, message (index into messages)


def compress(frame: pd.DataFrame, weekly: bool = True) -> Compressed:
    """Compress a canonical rates frame (no duplicate keys) into messages."""
    f = frame.reset_index(drop=True)
    if f.empty:
        return Compressed(pd.DataFrame(columns=["hotel_code", "month", "inv_type_code", "rate_plan_code", "start",
                                                "end", "mask", "vector"]),
                          pd.DataFrame(columns=["vector", *PRICE_COLUMNS]),
                          pd.DataFrame(columns=["source", "sheet", "row", "hotel_code", "month", "message"]))
    cell_price, cell_uniques = pd.factorize(pd.MultiIndex.from_frame(f[PRICE_COLUMNS]), use_na_sentinel=False)
    night = pd.MultiIndex.from_frame(f[["hotel_code", "inv_type_code", "rate_plan_code", "date"]])
    night_id, nights = pd.factorize(night)
    if len(nights) == len(f):  # one price per night: the cell price is the vector
        vector = cell_price
        vec_prices = pd.DataFrame(list(cell_uniques), columns=PRICE_COLUMNS)
        vec_prices.insert(0, "vector", np.arange(len(vec_prices)))
    else:
        order = np.lexsort((f["number_of_guests"].fillna(-1).to_numpy(), night_id))
        grouped = pd.Series(cell_price[order]).groupby(night_id[order], sort=True).agg(tuple)
        vec_of_night, vec_uniques = pd.factorize(grouped)
        vector = vec_of_night[night_id]
        up = pd.DataFrame(list(cell_uniques), columns=PRICE_COLUMNS)
        rows = [(v, c) for v, tup in enumerate(vec_uniques) for c in tup]
        vec_prices = up.iloc[[c for _, c in rows]].reset_index(drop=True)
        vec_prices.insert(0, "vector", [v for v, _ in rows])

    dates = f["date"].to_numpy("datetime64[D]")
    month = dates.astype("datetime64[M]")
    day0 = (dates - month).astype(np.int64)  # 0-based day of month
    first_wd = ((month.astype("datetime64[D]").astype(np.int64) + 3) % 7)  # 1970-01-01 was a Thursday
    series_key = pd.MultiIndex.from_arrays([f["hotel_code"].to_numpy(), f["inv_type_code"].to_numpy(),
                                            f["rate_plan_code"].to_numpy(), month])
    series_id, series = pd.factorize(series_key)
    # one entry per night (several guest rows of a night share it)
    nf = pd.DataFrame({"series": series_id, "night": night_id, "day": day0, "vector": vector, "wd0": first_wd})
    nf = nf.drop_duplicates("night").sort_values(["series", "day"], kind="stable")
    s_arr, d_arr, v_arr = nf["series"].to_numpy(), nf["day"].to_numpy(), nf["vector"].to_numpy()
    w_arr = nf["wd0"].to_numpy()
    bounds = np.flatnonzero(np.diff(s_arr)) + 1
    starts = np.concatenate(([0], bounds))
    ends = np.concatenate((bounds, [len(s_arr)]))

    m_series: list[np.integer]  # series ids (numpy integers from ``pd.factorize``)
    m_series, m_start, m_end, m_mask, m_vec = [], [], [], [], []
    night_msg = np.empty(len(nights), dtype=np.int64)
    n_arr = nf["night"].to_numpy()
    for a, b in zip(starts, ends, strict=True):
        days, vals = d_arr[a:b], v_arr[a:b]
        plan = compress_month(days, vals, int(w_arr[a]), weekly=weekly)
        base = len(m_series)
        slot = np.full(31, -1, dtype=np.int64)
        for k, (s, e, mask, val) in enumerate(plan):
            m_series.append(s_arr[a])
            m_start.append(s)
            m_end.append(e)
            m_mask.append(mask)
            m_vec.append(val)
            for d in range(s, e + 1):
                if mask >> ((int(w_arr[a]) + d) % 7) & 1:
                    slot[d] = base + k
        night_msg[n_arr[a:b]] = slot[days]

    s_idx = np.asarray(m_series, dtype=np.int64)
    month_start = np.asarray([series[i][3] for i in range(len(series))], dtype="datetime64[D]")
    ms = month_start[s_idx]
    messages = pd.DataFrame({
        "hotel_code": series.get_level_values(0)[s_idx],
        "month": pd.DatetimeIndex(ms).strftime("%Y-%m"),
        "inv_type_code": series.get_level_values(1)[s_idx],
        "rate_plan_code": series.get_level_values(2)[s_idx],
        "start": ms + np.asarray(m_start, dtype="timedelta64[D]"),
        "end": ms + np.asarray(m_end, dtype="timedelta64[D]"),
        "mask": np.asarray(m_mask, dtype=np.int64),
        "vector": np.asarray(m_vec, dtype=np.int64),
    })
    messages["start"] = pd.to_datetime(messages["start"])
    messages["end"] = pd.to_datetime(messages["end"])
    cells = pd.DataFrame({"source": f["source"], "sheet": f["sheet"], "row": f["row"], "hotel_code": f["hotel_code"],
                          "month": pd.DatetimeIndex(month).strftime("%Y-%m"), "message": night_msg[night_id]})
    return Compressed(messages, vec_prices, cells)


def compress_month(days: np.ndarray, vals: np.ndarray, first_weekday: int,
                   weekly: bool = True) -> list[tuple[int, int, int, int]]:
    """Messages ``(start_day, end_day, weekday_mask, value)`` (0-based days) for one month.

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
