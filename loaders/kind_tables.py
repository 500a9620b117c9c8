"""The sheets of one kind of table read into one canonical frame: the loop every table reader shares.

A reader says how it reads one sheet; here the sheets that are not of its kind (found by looking,
not named) are set aside with a ``sheet_ignored`` warning each, a file none of whose sheets is of the
kind is refused with the reader's error, and the frames, the rows left out (``loaders.unread``), the
issues and each sheet's header names (``frame.attrs["headers"]``) are put together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import pandas as pd

from loaders.errors import LoadError
from loaders.header_rows import HEADER_SEARCH_ROWS
from loaders.issues import combine, issues_from_records
from loaders.sheets import RawSheet, Tables
from loaders.unread import attach_unread

#: One sheet read: its frame, the rows it left out, its issues and the header text of each field (+ layout).
SheetRead = tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, dict[str, str]]


class Loaded(NamedTuple):
    """What a loader returns: the canonical ``frame`` and the ``issues`` found while reading."""

    frame: pd.DataFrame
    issues: pd.DataFrame


def gather(tables: Tables, read_one: Callable[[RawSheet], SheetRead | None], *, columns: dict[str, str],
           ignored_note: Callable[[RawSheet], dict], no_sheet: Callable[[list[RawSheet]], LoadError]) -> Loaded:
    """Read every sheet of ``tables`` with ``read_one`` (``None``: the sheet is not of the kind and goes
    aside, noted by ``ignored_note``; a file with no sheet of the kind raises ``no_sheet(its sheets)``)."""
    frames, unread, issues = [], [], [issues_from_records(tables.hidden_records())]
    headers: dict[tuple[str, str], dict[str, str]] = {}
    ignored: dict[str, list[RawSheet]] = {}
    read_from: set[str] = set()
    for raw in tables.sheets:
        read = read_one(raw)
        if read is None:
            ignored.setdefault(raw.source, []).append(raw)
            continue
        frame, rest, sheet_issues, headers[(raw.source, raw.sheet)] = read
        frames.append(frame)
        unread.append(rest)
        issues.append(sheet_issues)
        read_from.add(raw.source)
    for source, sheets in ignored.items():
        if source not in read_from:
            raise no_sheet(sheets)
        issues.append(issues_from_records(ignored_note(raw) for raw in sheets))
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame({c: pd.Series(dtype=t)
                                                                            for c, t in columns.items()})
    out = out.astype(columns)
    out.attrs["headers"] = headers
    rest = [u for u in unread if len(u)]
    if rest:
        attach_unread(out, pd.concat(rest, ignore_index=True))
    return Loaded(out, combine(issues))


def no_sheet_error(sheets: list[RawSheet], what: str, names: str,
                   own_error: Callable[[RawSheet], LoadError | None]) -> LoadError:
    """The error for a file none of whose ``sheets`` is a ``what`` sheet (one naming ``names``): the one
    sheet's own error (``own_error``) when there is one sheet with headers, else a list of the sheets."""
    def found(r: RawSheet) -> str:
        if not r.header:  # --header-row pointed at a blank row
            return f"row {r.header_row} is blank"
        return "headers found: " + (", ".join(f"`{h}`" for h in r.header if h) or "none")

    if len(sheets) == 1 and sheets[0].header:  # the sheet's own missing-columns error says most
        error = own_error(sheets[0])
        if error is not None:
            return error
    listing = "; ".join(f"`{r.sheet}` ({found(r)})" for r in sheets)
    return LoadError(f"`{sheets[0].source}` has no {what} sheet: no sheet names {names} within its first "
                     f"{HEADER_SEARCH_ROWS} rows or on the row given. Sheets: {listing}.", source=sheets[0].source)
