"""Availability deltas: which values differ from what the platform last accepted (per target).

A value is a room type (rate plan ``''``) or room-rate, a restriction and a night; the sheet's rows and the
journal's accepted values (:func:`workbench.writers.journal_avail.read_accepted_availability`) are compared as
integer keys (the series factorised over both sides, the night as a day number), so a million values take a
fraction of a second. Each row is ``added`` (no accepted value), ``changed`` (another value) or ``unchanged``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from workbench.writers.journal_avail import read_accepted_availability

ADDED, CHANGED, UNCHANGED = "added", "changed", "unchanged"
KINDS = (ADDED, CHANGED, UNCHANGED)  # codes 0, 1, 2 of :attr:`AvailDiff.change`
SERIES = ["hotel_code", "inv_type_code", "rate_plan_code", "restriction"]


@dataclass
class AvailDiff:
    """Per row of the sheet: ``change`` (0 added, 1 changed, 2 unchanged) and ``before`` (the accepted
    value, -1 when none)."""

    change: np.ndarray
    before: np.ndarray

    @property
    def send_mask(self) -> np.ndarray:
        return self.change != 2

    def count(self, kind: str) -> int:
        return int((self.change == KINDS.index(kind)).sum())


def value_keys(left: pd.DataFrame, right: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """One int64 key per row of each frame for the same (hotel, room, rate plan, restriction, night): the
    series factorised over both frames, times 2^20, plus the night's day number (days since 1970 + 2^19)."""
    codes = np.zeros(len(left) + len(right), dtype=np.int64)
    for col in SERIES:
        both = pd.concat([_text(left[col]), _text(right[col])], ignore_index=True) if col != "hotel_code" else \
            np.concatenate([left[col].to_numpy(np.int64), right[col].to_numpy(np.int64)])
        c, uniques = pd.factorize(both)
        codes = codes * (len(uniques) + 1) + c
    series, _ = pd.factorize(codes)
    days = np.concatenate([left["date"].to_numpy("datetime64[D]").astype(np.int64),
                           right["date"].to_numpy("datetime64[D]").astype(np.int64)]) + (1 << 19)
    keys = series.astype(np.int64) * (1 << 20) + days
    return keys[:len(left)], keys[len(left):]


def _text(column: pd.Series) -> pd.Series:
    """Codes as text, a missing rate plan as ``''`` (the journal's spelling of a room type's own value)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        column = column.astype(object)
    return column.astype("string").fillna("").astype(object)


def diff_availability(frame: pd.DataFrame, accepted: pd.DataFrame) -> AvailDiff:
    """Compare ``frame`` (canonical availability rows, no repeated value) with ``accepted`` (``hotel_code,
    inv_type_code, rate_plan_code, restriction, date, value``)."""
    n = len(frame)
    if accepted.empty or n == 0:
        return AvailDiff(np.zeros(n, dtype=np.int8), np.full(n, -1, dtype=np.int64))
    mine, theirs = value_keys(frame, accepted)
    before = pd.Series(accepted["value"].to_numpy(np.int64), index=theirs)
    before = before[~before.index.duplicated(keep="last")]
    found = before.reindex(mine).to_numpy(dtype=float, na_value=np.nan)
    known = ~np.isnan(found)
    value = frame["value"].to_numpy(dtype=np.int64)
    change = np.where(~known, 0, np.where(found == value, 2, 1)).astype(np.int8)
    return AvailDiff(change, np.where(known, found, -1).astype(np.int64))


def changed_availability(frame: pd.DataFrame, journal: str | Path, target: str) -> np.ndarray:
    """True for the rows whose value the platform has not accepted yet (new or different)."""
    if frame.empty:
        return np.zeros(0, dtype=bool)
    hotels = pd.unique(frame["hotel_code"].to_numpy(np.int64))
    return diff_availability(frame, read_accepted_availability(journal, target, hotels)).send_mask


__all__ = ["ADDED", "AvailDiff", "CHANGED", "KINDS", "UNCHANGED", "changed_availability", "diff_availability",
           "value_keys"]
