"""Reading one workbook sheet as text with fastexcel, fast, and without losing a cell.

fastexcel types each column (much faster than asking it for text); numbers are then written as
Excel shows them (15 significant digits, so 129.95000000000002 is 129.95) and dates as
``YYYY-MM-DD HH:MM:SS``. Columns that must hold numbers (prices, counts) are asked for as text,
so a boolean cell arrives as ``true``, never as the 1 it would be coerced to; in a sheet known to hold
no boolean cell they are read typed, and each distinct number written as fastexcel writes it as text
(:func:`as_read_as_text`: the same text, without formatting a million cells one by one). A column with a cell
that does not fit its type (``12O.50`` in a price column) is read again as text. Excel error
values (``#DIV/0!``) are kept aside with their cell, and fastexcel's own log lines are kept off
the console.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

EXCEL_ERRORS = {"Div0": "#DIV/0!", "NA": "#N/A", "Name": "#NAME?", "Null": "#NULL!", "Num": "#NUM!",
                "Ref": "#REF!", "Value": "#VALUE!", "GettingData": "#GETTING_DATA"}
_ERROR_DETAIL = re.compile(r"Error\((\w+)\)")


@dataclass
class SheetTable:
    """A sheet's range as text: ``table`` row 0 is the header; ``header_index`` is where the header
    sits in the range (rows above it are not in ``table``); ``errors`` maps (range row, column) to
    the Excel error value of cells that hold one (they are blank in ``table``)."""

    table: pa.Table
    header_index: int
    errors: dict[tuple[int, int], str] = field(default_factory=dict)


@contextmanager
def quiet_fastexcel() -> Iterator[list[str]]:
    """Keep fastexcel's log lines (e.g. "Could not determine dtype for column 5, falling back to
    string") off the console; what it said is collected in the yielded list."""
    said: list[str] = []

    class _Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage())

    logger = logging.getLogger("fastexcel")
    handler, propagate = _Keep(), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield said
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def load_typed(reader: object, name: str, header_index: int, text_names: Sequence[str],
               number_columns: Callable[[list[str]], set[int]], *, booleans: bool = True) -> SheetTable | None:
    """The fast path: typed columns turned into text. ``None`` when the sheet needs the text path
    (a header cell that is not text, or a column fastexcel cannot type).

    ``text_names``: the columns read as text as fastexcel writes it (numbers with up to 9 decimals,
    then :func:`_excel_digits`). ``booleans=False``: the sheet is known to hold no boolean cell
    (``xlsx_bounds.known_no_booleans``), so those columns are read typed and their numbers written
    as the text reading would (:func:`as_read_as_text`), and no column is read again for holding 0 or
    1; a column typed otherwise than as numbers (dates, or NaN) is read again as text, and a sheet
    fastexcel cannot read so is read as before."""
    typed = set() if booleans else {n for n in text_names if n}
    dtypes: dict[str | int, str] = {n: "string" for n in text_names if n and n not in typed}
    errors: dict[tuple[int, int], str] = {}
    for _ in range(3):  # at most: typed, then the columns that need it as text
        try:
            sheet = reader.load_sheet(name, header_row=header_index, dtype_coercion="coerce",  # type: ignore[attr-defined]
                                      dtypes=dtypes or None)
            table, cell_errors = sheet.to_arrow_with_errors()
        except Exception:  # noqa: BLE001 - e.g. UnsupportedColumnTypeCombinationError: read as text
            return load_typed(reader, name, header_index, text_names, number_columns) if typed else None
        header = _header_texts(sheet.selected_columns, table)
        if header is None:
            return None
        errors, mismatched = _split_errors(cell_errors, header_index)
        as_read = {p for p, info in enumerate(sheet.selected_columns)
                   if str(getattr(info, "name", "")) in typed and not _is_text(table.column(p).type)}
        numeric = {p for p in number_columns(header)
                   if p < table.num_columns and not _is_text(table.column(p).type)}
        coerced = {p for p in numeric if _may_hold_booleans(table.column(p))} if booleans else set()
        odd = {p for p in as_read if not _plain_floats(table.column(p))}
        redo = {p for p in mismatched | coerced | odd if not _is_text(table.column(p).type)}
        if not redo:
            body = pa.table({f"c{i}": as_read_as_text(col) if i in as_read else as_text(col)
                             for i, col in enumerate(table.columns)})
            head = pa.table({f"c{i}": pa.array([h or None], body.column(i).type) for i, h in enumerate(header)})
            return SheetTable(pa.concat_tables([head, body]), header_index, errors)
        dtypes.update({p: "string" for p in redo})
    return None


def load_text(reader: object, name: str) -> SheetTable:
    """The whole range as text (header included, ``header_index`` 0 until the caller finds it)."""
    sheet = reader.load_sheet(name, header_row=None, dtypes="string")  # type: ignore[attr-defined]
    table, cell_errors = sheet.to_arrow_with_errors()
    errors, _ = _split_errors(cell_errors, 0)
    return SheetTable(pa.table({f"c{i}": col for i, col in enumerate(table.columns)}), 0, errors)


def _split_errors(cell_errors: object, offset: int) -> tuple[dict[tuple[int, int], str], set[int]]:
    """Excel error values by (range row, column), and the columns with a cell that did not fit
    (fastexcel counts rows from the header row, which is ``offset`` rows into the range)."""
    errors: dict[tuple[int, int], str] = {}
    mismatched: set[int] = set()
    for e in getattr(cell_errors, "errors", None) or []:
        row, col = (int(x) for x in e.position)
        row += offset
        m = _ERROR_DETAIL.search(str(getattr(e, "detail", "")))
        if m:
            errors[(row, col)] = EXCEL_ERRORS.get(m.group(1), "#" + m.group(1).upper())
        else:
            mismatched.add(col)
    return errors, mismatched


def _is_text(t: pa.DataType) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_null(t)


def _may_hold_booleans(col: pa.ChunkedArray) -> bool:
    """A boolean cell in a number column arrives as 1 or 0: a column holding those is read again
    as text (rare for prices; counts of 1 cost one more read of the sheet, never a wrong number)."""
    t = col.type
    if not (pa.types.is_floating(t) or pa.types.is_integer(t)):
        return False
    return bool(pc.any(pc.is_in(col, value_set=pa.array([0, 1], t))).as_py())


def _plain_floats(col: pa.ChunkedArray) -> bool:
    """Whether ``col`` holds floats only, none of them NaN (:func:`as_read_as_text` writes those)."""
    if col.type != pa.float64():
        return False
    return not pc.any(pc.is_nan(col)).as_py()


def _header_texts(columns: Sequence[object], table: pa.Table) -> list[str] | None:
    """The header cells as typed, from fastexcel's column names; ``None`` when they cannot be
    recovered (a date or other non-text header cell: fastexcel replaces it with a made-up name)."""
    out: list[str] = []
    for info, col in zip(columns, table.columns, strict=True):
        name = str(getattr(info, "name", ""))
        if getattr(info, "column_name_from", "") == "generated":
            if col.null_count != len(col):
                return None
            name = ""
        else:
            m = re.fullmatch(r"(.*)_(\d+)", name)
            if m and m.group(1) in out:  # fastexcel renames a repeated header `Date` to `Date_1`
                name = m.group(1)
        out.append(name)
    return out


def as_text(col: pa.ChunkedArray) -> pa.ChunkedArray | pa.Array:
    t = col.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return _excel_digits(col)
    if pa.types.is_null(t):
        return pa.nulls(len(col), pa.string())
    if pa.types.is_timestamp(t) or pa.types.is_date(t):  # few distinct nights: format each once
        values = pc.cast(col, pa.timestamp("ms")).to_numpy(zero_copy_only=False)
        return _by_distinct(values, lambda v: str(pd.Timestamp(v).strftime("%Y-%m-%d %H:%M:%S")))
    if pa.types.is_floating(t) or pa.types.is_integer(t):
        return _by_distinct(col.to_numpy(zero_copy_only=False), excel_number)
    if pa.types.is_boolean(t):
        return pc.if_else(col, "true", "false")
    return pc.cast(col, pa.string())


def as_read_as_text(col: pa.ChunkedArray) -> pa.Array:
    """A column of floats (no NaN) as the same column asked of fastexcel as text would be after
    :func:`_excel_digits`: each distinct number written once, as fastexcel writes a number as text
    (:func:`fastexcel_number`), then with Excel's 15 digits when that is longer than 16 characters."""
    values = col.to_numpy(zero_copy_only=False)  # a blank is NaN here (there is no NaN value)
    codes, uniques = pd.factorize(values.view(np.int64), use_na_sentinel=True)  # by bits: -0.0 is not 0.0
    codes[np.isnan(values)] = -1
    texts = _excel_digits(pa.chunked_array([pa.array([fastexcel_number(v) for v in uniques.view(np.float64)],
                                                     pa.large_string())], pa.large_string()))
    return pc.take(texts.combine_chunks().cast(pa.large_string()),
                   pa.array(codes.astype(np.int32), mask=codes < 0))  # -1 (blank) -> null


def fastexcel_number(v: object) -> str:
    """A float as fastexcel writes it in a column asked for as text: nine decimals, trailing zeros and
    point trimmed (Rust's ``format!("{x:.9}")``: correctly rounded, ties to even, as Python's)."""
    f = float(v)  # type: ignore[arg-type]
    if f != f:
        return "NaN"
    return f"{f:.9f}".rstrip("0").rstrip(".") if np.isfinite(f) else ("inf" if f > 0 else "-inf")


_LONG_NUMBER = r"^-?\d[\d.]{16,}$"


def _excel_digits(col: pa.ChunkedArray) -> pa.ChunkedArray:
    """fastexcel writes a number read as text with up to 9 decimals (123456789.123456806): those
    with more than 15 significant digits are written as Excel shows them, like typed numbers."""
    if not pc.any(pc.greater(pc.utf8_length(col), 16)).as_py():  # the common case, cheaply
        return col
    long = pc.match_substring_regex(col, _LONG_NUMBER)
    if not pc.any(long).as_py():
        return col
    values = col.to_pandas()
    mask = long.to_pandas().fillna(False).to_numpy(dtype=bool)
    values[mask] = [excel_number(float(v)) if v.count(".") <= 1 else v for v in values[mask]]
    return pa.chunked_array([pa.array(values, pa.string())])


def _by_distinct(values: np.ndarray, fmt: Callable[[object], str]) -> pa.Array:
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    texts = pa.array([fmt(v) for v in uniques], pa.large_string())  # what pandas' string columns hold: no cast
    return pc.take(texts, pa.array(codes.astype(np.int32), mask=codes < 0))  # -1 (blank) -> null


def excel_number(v: object) -> str:
    """A number as Excel shows it: 15 significant digits, written out without an exponent."""
    f = float(v)  # type: ignore[arg-type]
    if not np.isfinite(f):
        return str(f)
    text = f"{f:.15g}"
    if "e" in text or "E" in text:  # very large or small: write it out without an exponent
        text = np.format_float_positional(float(text), trim="-")
    return text
