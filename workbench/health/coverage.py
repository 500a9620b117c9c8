"""How far each room-rate is priced: per room-rate figures and the ranges behind them.

Words used throughout (docs/health.md):

- a night is **priced** when the platform accepted a price for it (0 included: a 0 is a price that
  says "not available"); **bookable** when that price is above 0 (the spec, E3: 0 means not
  available); **unpriced** when no price was accepted at all;
- **bookable until**: the last bookable night (inclusive);
- **gap**: an unpriced night from the as-of night up to *bookable until*;
- **closed**: a night priced 0.

Dates are calendar nights in the platform's time zone (CET), as the spec's rate window is; the
as-of night itself counts as ahead.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd

KEY = ["hotel_code", "inv_type_code", "rate_plan_code"]
COVERAGE_COLUMNS = {"hotel_code": "int64", "inv_type_code": "string", "rate_plan_code": "string",
                    "first_night": "datetime64[s]", "last_night": "datetime64[s]",
                    "bookable_until": "datetime64[s]", "nights_ahead": "int64", "gap_nights": "int64",
                    "closed_nights": "int64"}
RANGE_COLUMNS = {"hotel_code": "int64", "inv_type_code": "string", "rate_plan_code": "string",
                 "kind": "string", "start": "datetime64[s]", "end": "datetime64[s]", "nights": "int64"}
#: the platform's time zone (the spec's rate window is in Central European Time), as ``expectations.reference.CET``
CET = ZoneInfo("Europe/Amsterdam")
#: the nights from the as-of night on in which closed nights are counted
CLOSED_WINDOW = 90
DAY = np.timedelta64(1, "D")


def cet_today(now: dt.datetime | None = None) -> dt.date:
    """Today's date in CET: ``expectations.cet_today`` without importing ``expectations`` (which loads
    Great Expectations, seconds a scheduled health check need not spend; a test keeps the two equal)."""
    now = now or dt.datetime.now(dt.UTC)
    return (now if now.tzinfo else now.replace(tzinfo=dt.UTC)).astimezone(CET).date()


def empty(columns: dict[str, str]) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in columns.items()})


def _ts(day: dt.date) -> np.datetime64:
    return np.datetime64(day.isoformat(), "s")


def per_night(nights: pd.DataFrame) -> pd.DataFrame:
    """One row per room-rate and night, ``price`` the highest over the night's rows (guest counts),
    sorted by room-rate and night. Input: ``hotel_code, inv_type_code, rate_plan_code, date, price``."""
    if nights.empty:
        return empty({**{k: COVERAGE_COLUMNS[k] for k in KEY}, "date": "datetime64[s]", "price": "float64"})
    frame = nights[[*KEY, "date", "price"]].astype({"hotel_code": "int64", "inv_type_code": "string",
                                                    "rate_plan_code": "string", "price": "float64"})
    frame["date"] = pd.to_datetime(frame["date"]).astype("datetime64[s]")
    return frame.groupby([*KEY, "date"], as_index=False, sort=True)["price"].max()


def coverage_of_nights(nights: pd.DataFrame, as_of: dt.date, window: int = CLOSED_WINDOW) -> pd.DataFrame:
    """The coverage figures (``COVERAGE_COLUMNS``) of each room-rate in a frame of priced nights:
    what :meth:`workbench.writers.journal.Journal.accepted_summary` computes in SQL, in pandas."""
    n = per_night(nights)
    if n.empty:
        return empty(COVERAGE_COLUMNS)
    a, end = _ts(as_of), _ts(as_of + dt.timedelta(days=window - 1))
    g = n.groupby(KEY, sort=False)
    out = g["date"].agg(first_night="min", last_night="max")
    out["bookable_until"] = n[n["price"] > 0].groupby(KEY, sort=False)["date"].max()
    ahead = n[n["date"] >= a]
    out["nights_ahead"] = ahead.groupby(KEY, sort=False).size()
    bu = out["bookable_until"].reindex(pd.MultiIndex.from_frame(ahead[KEY])).to_numpy()
    to_bu = ahead[ahead["date"].to_numpy() <= bu]
    out["_to_bu"] = to_bu.groupby(KEY, sort=False).size()
    closed = ahead[(ahead["date"] <= end) & (ahead["price"] <= 0)]
    out["closed_nights"] = closed.groupby(KEY, sort=False).size()
    out = out.reset_index()
    for c in ("nights_ahead", "_to_bu", "closed_nights"):
        out[c] = out[c].fillna(0).astype("int64")
    out["gap_nights"] = _gap_nights(out["bookable_until"], out["_to_bu"], as_of)
    return out.drop(columns="_to_bu")[list(COVERAGE_COLUMNS)].astype(COVERAGE_COLUMNS)


def coverage_from_summary(summary: pd.DataFrame, as_of: dt.date) -> pd.DataFrame:
    """``Journal.accepted_summary`` (dates as text, nights after *bookable until*) as ``COVERAGE_COLUMNS``."""
    out = summary.copy()
    for c in ("first_night", "last_night", "bookable_until"):
        out[c] = pd.to_datetime(out[c], format="%Y-%m-%d").astype("datetime64[s]")
    to_bu = out["nights_ahead"] - out["nights_after_bookable"]
    out["gap_nights"] = _gap_nights(out["bookable_until"], to_bu, as_of)
    return out[list(COVERAGE_COLUMNS)].astype(COVERAGE_COLUMNS).reset_index(drop=True)


def _gap_nights(bookable_until: pd.Series, priced_to_bu: pd.Series, as_of: dt.date) -> pd.Series:
    span = (bookable_until - pd.Timestamp(as_of)).dt.days + 1
    return (span - priced_to_bu).where(span > 0, 0).fillna(0).astype("int64")


def night_ranges(nights: pd.DataFrame, as_of: dt.date | None = None) -> pd.DataFrame:
    """Runs of consecutive nights per room-rate (``RANGE_COLUMNS``): ``priced`` (bookable), ``closed``
    (priced 0) and, from ``as_of`` up to the room-rate's last bookable night, ``gap`` (unpriced)."""
    n = per_night(nights)
    if n.empty:
        return empty(RANGE_COLUMNS)
    day = n["date"].to_numpy().astype("datetime64[D]").astype("int64")
    key = n.groupby(KEY, sort=False).ngroup().to_numpy()
    state = (n["price"].to_numpy() > 0)
    new = np.ones(len(n), dtype=bool)
    new[1:] = (key[1:] != key[:-1]) | (day[1:] != day[:-1] + 1) | (state[1:] != state[:-1])
    run = np.cumsum(new) - 1
    first = np.flatnonzero(new)
    last = np.r_[first[1:] - 1, len(n) - 1]
    runs = n.iloc[first][KEY].reset_index(drop=True)
    runs["kind"] = np.where(state[first], "priced", "closed")
    runs["start"] = n["date"].to_numpy()[first]
    runs["end"] = n["date"].to_numpy()[last]
    runs["nights"] = np.bincount(run)
    parts = [runs]
    if as_of is not None:
        parts.append(gap_ranges(n, as_of))
    out = pd.concat(parts, ignore_index=True)
    return out.sort_values([*KEY, "start"], kind="stable").reset_index(drop=True).astype(RANGE_COLUMNS)


def gap_ranges(nights: pd.DataFrame, as_of: dt.date) -> pd.DataFrame:
    """The unpriced runs of each room-rate between ``as_of`` and its last bookable night (``kind`` = gap)."""
    n = per_night(nights)
    bu = n[n["price"] > 0].groupby(KEY, sort=False)["date"].max().rename("bu")
    n = n[n["date"] >= _ts(as_of)].join(bu, on=KEY)
    n = n[n["date"] <= n["bu"]]
    if n.empty:
        return empty(RANGE_COLUMNS)
    day = n["date"].to_numpy().astype("datetime64[D]").astype("int64")
    key = n.groupby(KEY, sort=False).ngroup().to_numpy()
    first_of_key = np.ones(len(n), dtype=bool)
    first_of_key[1:] = key[1:] != key[:-1]
    prev = np.r_[0, day[:-1]]
    a = np.datetime64(as_of, "D").astype("int64")
    prev = np.where(first_of_key, a - 1, prev)  # the night before as-of closes a leading gap
    has_gap = day - prev > 1
    idx = np.flatnonzero(has_gap)
    out = n.iloc[idx][KEY].reset_index(drop=True)
    out["kind"] = "gap"
    out["start"] = (prev[idx] + 1).astype("datetime64[D]").astype("datetime64[s]")
    out["end"] = (day[idx] - 1).astype("datetime64[D]").astype("datetime64[s]")
    out["nights"] = day[idx] - prev[idx] - 1
    return out.astype(RANGE_COLUMNS)
