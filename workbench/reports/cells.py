"""Text from the data is written as text, in every export: never a live formula.

Cells reach the reports from places nobody here controls: a rates CSV cell
``=HYPERLINK("http://…","click")``, a notification's type and payload from the internet, a hotel
or room name a property typed. A spreadsheet opening the export must show them, not run them:

- CSV: a text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a single
  quote in front (OWASP, CSV injection); numbers written as numbers are not text and stay as
  they are (``-5`` in a number column stays ``-5``). :func:`write_csv` is the one CSV writer.
- XLSX with xlsxwriter: :data:`XLSXWRITER_OPTIONS` (a string is a string cell, never a formula,
  a URL or a number); with openpyxl, which makes a formula of any text starting with ``=``:
  :func:`append_row` and :func:`keep_text` turn the cells written back into text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

#: what makes a spreadsheet read a CSV field as a formula (OWASP)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: xlsxwriter workbook options: text is written as text (for ``pd.ExcelWriter``:
#: ``engine_kwargs={"options": XLSXWRITER_OPTIONS}``)
XLSXWRITER_OPTIONS: dict[str, Any] = {"strings_to_formulas": False, "strings_to_urls": False,
                                      "strings_to_numbers": False}

__all__ = ["FORMULA_STARTS", "XLSXWRITER_OPTIONS", "append_row", "csv_safe", "keep_text", "neutralise_csv",
           "write_csv"]


def neutralise_csv(value: object) -> object:
    """``value`` with a single quote in front when it is a text a spreadsheet would read as a
    formula; anything else (numbers, dates, missing values) as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every formula-looking text neutralised (:func:`neutralise_csv`); columns of
    numbers, dates and booleans are not text and are left as they are (no copy when nothing changes)."""
    out = frame
    for i, risky in _texts_starting(frame, FORMULA_STARTS):
        if out is frame:
            out = frame.copy()
        series = frame.iloc[:, i]
        out.isetitem(i, series.astype(object).where(~risky, "'" + series[risky].astype(str)))
    return out


def _texts_starting(frame: pd.DataFrame, starts: tuple[str, ...]) -> Iterator[tuple[int, pd.Series]]:
    """(column position, mask) of each column holding a text that starts with one of ``starts``."""
    for i in range(len(frame.columns)):
        series = frame.iloc[:, i]
        if not (pd.api.types.is_object_dtype(series.dtype) or pd.api.types.is_string_dtype(series.dtype)):
            continue
        try:
            risky = series.str.startswith(starts).fillna(False).astype(bool)
        except AttributeError:  # no text in the column
            continue
        if risky.any():
            yield i, risky


def write_csv(frame: pd.DataFrame, path: str | Path, **to_csv: Any) -> Path:
    """The one CSV writer of the reports: UTF-8 with BOM (so Excel opens it right), no index, lines
    ending in CRLF (RFC 4180: a field holding a carriage return is quoted, not cut in two),
    formula-looking texts neutralised; ``to_csv``: more of ``DataFrame.to_csv``'s arguments."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    csv_safe(frame).to_csv(path, index=False, encoding="utf-8-sig", lineterminator="\r\n", **to_csv)
    return path


def keep_text(ws: Any, frame: pd.DataFrame, first_row: int = 2) -> None:
    """``frame`` was written to the openpyxl sheet ``ws`` from ``first_row`` (its column 0 in A):
    the texts openpyxl took for formulas (they start with ``=``) are text again."""
    for j, risky in _texts_starting(frame, ("=",)):
        for i in risky.to_numpy().nonzero()[0]:
            _as_text(ws.cell(row=first_row + int(i), column=j + 1))


def append_row(ws: Any, values: Sequence[object]) -> None:
    """``ws.append(values)`` (an openpyxl sheet), every text written as text."""
    ws.append(values)
    if any(isinstance(v, str) and v.startswith("=") for v in values):
        for cell in ws[ws.max_row]:
            _as_text(cell)


def _as_text(cell: Any) -> None:
    if cell.data_type == "f" and isinstance(cell.value, str):
        cell.data_type = "s"
