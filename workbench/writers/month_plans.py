"""The weekly search of :mod:`workbench.writers.compress`, for every series-month at once.

Input: a grid of price vectors, one row per series-month (hotel, room, rate plan, month) and one
column per day of the month (``-1`` where the calendar has no price), and the weekday of each
row's first day. Output: for each priced cell, the start day of the message that carries it, and
for each message (keyed by its row and start day) its last day and weekday mask.

The rule is :func:`workbench.writers.compress.compress_month`'s, which is what the tests hold this
to, message for message:

- each value (price vector) seen at least twice in a month is looked at on its own: its days are
  cut into segments wherever two of them are a week or more apart; a segment's span (first to
  last day) gets the weekdays on which *every* day of the span has this value; if that covers at
  least two days, it is one message (a plain range when it covers every day it spans);
- whatever no such message covers is run-length encoded;
- a month keeps that plan only when it needs fewer messages than run-length encoding.

A value's messages depend only on where that value is, never on the other values or on the order
in which values are looked at; that is why all of them can be found in one pass, and why the
result does not depend on the order of the input rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ALL_DAYS = 0b1111111  # bit 0 = Monday ... bit 6 = Sunday
DAYS = 31
_DAY = np.arange(DAYS)
_DAY8 = _DAY.astype(np.int8)
_FAR = np.int8(60)  # further than a week from any day of a month (and a difference of two still fits int8)
#: ``_BIT[w, d]``: the weekday bit of day ``d`` of a month whose first day is weekday ``w``
_BIT = (1 << ((np.arange(7)[:, None] + _DAY) % 7)).astype(np.int8)


@dataclass
class MonthPlans:
    """``owner[r, d]``: start day of the message carrying cell ``(r, d)`` (``-1`` where unpriced);
    ``end`` and ``mask`` hold each message's last day and weekday mask at its start cell."""

    owner: np.ndarray
    end: np.ndarray
    mask: np.ndarray

    def starts(self) -> np.ndarray:
        """Flat indices (``row * 31 + start``) of the message start cells, in row then day order."""
        return np.flatnonzero(self.owner.ravel() == np.tile(_DAY, len(self.owner)))


def plan_months(grid: np.ndarray, first_weekday: np.ndarray, weekly: bool = True) -> MonthPlans:
    """Messages for every row of ``grid`` (int, ``-1`` = no price) by the weekly rule, or by
    run-length encoding only when ``weekly`` is false."""
    present = grid >= 0
    rle_owner, rle_end, n_rle = _runs(grid, present)
    mask = np.full(grid.shape, ALL_DAYS, dtype=np.int8)
    if not weekly:
        return MonthPlans(rle_owner, rle_end, mask)
    rows = np.flatnonzero(n_rle > 2)
    if not len(rows):
        return MonthPlans(rle_owner, rle_end, mask)
    sub = grid[rows]
    w_owner, w_end, w_mask, n_weekly = _weekly(sub, first_weekday[rows])
    covered = w_owner >= 0
    rest_owner, rest_end, n_rest = _runs(sub, (sub >= 0) & ~covered)
    better = n_weekly + n_rest < n_rle[rows]
    take = rows[better]
    keep = covered[better]
    rle_owner[take] = np.where(keep, w_owner[better], rest_owner[better])
    rle_end[take] = np.where(keep, w_end[better], rest_end[better])
    mask[take] = np.where(keep, w_mask[better], ALL_DAYS)
    return MonthPlans(rle_owner, rle_end, mask)


def _runs(grid: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-length encoding of ``cells`` (runs of consecutive days with one value): owner start
    day per cell, the run's last day at its start cell, and the runs per row."""
    same_as_prev = np.zeros(grid.shape, dtype=bool)
    same_as_prev[:, 1:] = cells[:, :-1] & cells[:, 1:] & (grid[:, 1:] == grid[:, :-1])
    start = cells & ~same_as_prev
    owner = np.maximum.accumulate(np.where(start, _DAY, -1), axis=1)
    owner[~cells] = -1
    last = np.zeros(grid.shape, dtype=bool)
    last[:, :-1] = cells[:, :-1] & ~same_as_prev[:, 1:]
    last[:, -1] = cells[:, -1]
    end = np.full(grid.shape, -1, dtype=np.int64)
    end.ravel()[np.flatnonzero(start)] = np.flatnonzero(last) % DAYS
    return owner, end, start.sum(axis=1)


def _weekly(grid: np.ndarray, first_weekday: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The weekday messages of every value seen at least twice in a row: owner start day per
    covered cell (``-1`` elsewhere), last day and mask at each start cell, messages per row."""
    n_rows = len(grid)
    owner = np.full(grid.shape, -1, dtype=np.int64)
    end = np.full(grid.shape, -1, dtype=np.int64)
    mask = np.full(grid.shape, ALL_DAYS, dtype=np.int8)
    # every (row, value) seen at least twice
    ordered = np.sort(grid, axis=1).ravel()
    new = np.ones(len(ordered), dtype=bool)
    new[1:] = ordered[1:] != ordered[:-1]
    new[::DAYS] = True
    first = np.flatnonzero(new)
    count = np.diff(np.append(first, len(ordered)))
    pick = (ordered[first] >= 0) & (count >= 2)
    pair_row, pair_val = first[pick] // DAYS, ordered[first[pick]]
    if not len(pair_row):
        return owner, end, mask, np.zeros(n_rows, dtype=np.int64)
    mine = grid[pair_row] == pair_val[:, None]
    # a segment's span: the days between two of its days that are less than a week apart
    before = np.maximum.accumulate(np.where(mine, _DAY8, -_FAR), axis=1)
    after = np.minimum.accumulate(np.where(mine, _DAY8, _FAR)[:, ::-1], axis=1)[:, ::-1]
    span = (after - before) < 7
    opens = span.copy()
    opens[:, 1:] &= ~span[:, :-1]
    at = np.flatnonzero(span.ravel())                 # the span cells, span after span
    heads = np.flatnonzero(opens.ravel()[at])        # where each span starts among them
    bit = _BIT[first_weekday[pair_row]].ravel()[at]
    has = np.bitwise_or.reduceat(bit, heads)
    bad = np.bitwise_or.reduceat(np.where(mine.ravel()[at], np.int8(0), bit), heads)
    span_mask = has & ~bad                            # weekdays whose every day in the span has the value
    span_of = np.cumsum(opens.ravel()[at]) - 1
    hit = (span_mask[span_of] & bit) != 0
    day = (at % DAYS).astype(np.int8)
    n_hit = np.add.reduceat(hit.astype(np.int8), heads)
    s = np.minimum.reduceat(np.where(hit, day, np.int8(DAYS)), heads)
    e = np.maximum.reduceat(np.where(hit, day, np.int8(-1)), heads)
    keep = n_hit >= 2
    plain = ((e - s >= 6) & (span_mask == ALL_DAYS)) | ((e - s < 6) & (n_hit == e - s + 1))
    span_mask = np.where(plain, ALL_DAYS, span_mask)
    # write the kept messages into the row grids (a value's cells belong to no other value)
    span_row = pair_row[at[heads] // DAYS]
    cell = hit & keep[span_of]
    cell_row = pair_row[at[cell] // DAYS]
    owner[cell_row, day[cell]] = s[span_of[cell]]
    end[span_row[keep], s[keep]] = e[keep]
    mask[span_row[keep], s[keep]] = span_mask[keep]
    return owner, end, mask, np.bincount(span_row[keep], minlength=n_rows)
