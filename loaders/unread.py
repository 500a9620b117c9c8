"""Rows a loader left out of its frame, with what could be read of them.

A row with a cell that cannot be read (a date written ``31/12/2027``) is not in the canonical
frame, but its other cells may break rules too (a negative price on the same row): every problem
of a row is reported, not only the first. The loader keeps those rows, typed where readable and
NA elsewhere, in ``frame.attrs`` (so ``frame, issues = read_rates(...)`` keeps working), and the
rules read them with :func:`unread_rows`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

ATTR = "unread"


@dataclass(frozen=True, eq=False)
class UnreadRows:
    """The rows, wrapped so pandas' copies of ``attrs`` neither copy nor compare the frame."""

    frame: pd.DataFrame

    def __deepcopy__(self, memo: dict) -> UnreadRows:
        return self


def attach_unread(frame: pd.DataFrame, rows: pd.DataFrame) -> None:
    if len(rows):
        frame.attrs[ATTR] = UnreadRows(rows.reset_index(drop=True))


def unread_rows(frame: pd.DataFrame) -> pd.DataFrame | None:
    """The rows the loader left out of ``frame`` (same columns; NA where a cell could not be read)."""
    held = frame.attrs.get(ATTR)
    return held.frame if isinstance(held, UnreadRows) else None
