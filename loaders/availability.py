"""Availability spreadsheets -> the canonical availability frame (one row per value set).

An availability sheet sets, per property, room type (and rate plan) and night, any of
``RoomsToSell``, ``Closed``, ``ClosedToArrival``, ``ClosedToDeparture``, ``MinStayArrival``,
``MaxStayArrival``, ``MinStayThrough`` and ``MaxStayThrough`` (``loaders.schemas``). A blank cell
means "leave it as it is": only the cells written become rows of the frame, each with its
``restriction`` and ``value``. Three layouts are recognised from the headers, as for rates:

- **long**: one row per hotel/room/[rate]/night (a ``Date`` column), one column per value;
- **range**: ``Start``, ``End`` and optional ``Mon``..``Sun`` flags (the spec's weekday rules);
- **wide**: one column per night (header cells are dates) and one restriction per sheet, the sheet
  named after it (``RoomsToSell``, ``MinStayArrival`` …; a CSV file: its file name).

Sheets are found by their headers whatever their names; a sheet that holds none of the values
(a rates sheet, ``Notes``) and hidden sheets are skipped with a warning unless named with
``sheet=``. A key cell that cannot be read (hotel, room, rate plan, night) is an issue and its
row is left out (kept as an unread row, so the rules still speak about its values); a value cell
that cannot be read is an issue and only that value is left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from loaders import normalize as norm
from loaders.errors import LoadError
from loaders.header_rows import HEADER_SEARCH_ROWS, TableKind
from loaders.headers import header_key, match_headers, missing_columns_error, where
from loaders.issues import issues_from_records
from loaders.kind_tables import Loaded, SheetRead, gather, no_sheet_error
from loaders.rate_cells import Distinct, RateSheet, range_nights, repeated, repeated_blocks
from loaders.rates import header_dates, problem_rows
from loaders.schemas import (
    AVAILABILITY_COLUMNS,
    AVAILABILITY_VALUE_FIELDS,
    FLAG_RESTRICTIONS,
    RATE_FIELDS,
    RESTRICTIONS,
    WEEKDAY_FIELDS,
    WEEKDAYS,
    empty_availability,
)
from loaders.sheets import RawSheet, Tables, read_tables

__all__ = ["AVAILABILITY_KIND", "read_availability", "restriction_of"]

KEY_FIELDS = tuple(f for f in RATE_FIELDS if f.name in ("hotel_code", "inv_type_code", "rate_plan_code", "date",
                                                         "start", "end"))
#: what an availability sheet's header looks like; every value column is read as text (a TRUE is a
#: flag's value, never a count of 1)
AVAILABILITY_KIND = TableKind(
    "availability", (*KEY_FIELDS, *WEEKDAY_FIELDS, *AVAILABILITY_VALUE_FIELDS),
    numbers=frozenset(RESTRICTIONS), ids=frozenset({"hotel_code", "inv_type_code", "rate_plan_code"}),
    date_columns_are_numbers=True)
VALUES = {f.name: f for f in AVAILABILITY_VALUE_FIELDS}
_KEYS = {f.name: f for f in KEY_FIELDS}
_VALUE_NAMES = ", ".join(f"`{f.ota}`" for f in AVAILABILITY_VALUE_FIELDS)
_WHAT = {"rooms_to_sell": "a number of rooms (a whole number)", "min_stay_arrival": "a number of nights",
         "max_stay_arrival": "a number of nights", "min_stay_through": "a number of nights",
         "max_stay_through": "a number of nights"}


def read_availability(paths: str | Path | Iterable[str | Path], sheet: str | Sequence[str] | None = None, *,
                      encoding: str | None = None, header_row: int | None = None) -> Loaded:
    """Read availability and restrictions from CSV/Excel/Parquet files (every visible availability
    sheet, or the named ones) into one frame: one row per value written (blank cells are "leave as it
    is"). ``encoding`` forces the encoding of CSV files; ``header_row`` gives the Excel row of the header.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    tables = read_tables(list(paths), sheet, kind=AVAILABILITY_KIND, encoding=encoding, header_row=header_row)
    return _read_tables(tables)


def restriction_of(name: str) -> str | None:
    """The restriction a sheet (or file) name names (``MinStayArrival``, ``min_stay_arrival.csv``), or None."""
    key = header_key(Path(name).stem if name.lower().endswith((".csv", ".txt", ".tsv", ".parquet")) else name)
    for f in AVAILABILITY_VALUE_FIELDS:
        if key in {header_key(a) for a in (f.name, f.ota, *f.aliases)}:
            return f.name
    return None


@dataclass(frozen=True)
class _Plan:
    """How a sheet is read: its layout, matched columns, night columns (wide) and restriction (wide)."""

    layout: str
    cols: dict[str, int]
    nights: dict[int, pd.Timestamp]
    restriction: str | None
    error: LoadError | None


def _read_tables(tables: Tables) -> Loaded:
    def read_one(raw: RawSheet) -> SheetRead | None:
        plan = _plan(raw)
        if raw.sheet and not raw.named and (not raw.header_found or plan.error is not None):
            return None  # a workbook's sheet found by looking that is not an availability sheet
        if plan.error is not None:
            raise plan.error
        frame, rest, issues = _read_one(raw, plan)
        headers = {"layout": plan.layout, **({"restriction": plan.restriction} if plan.restriction else {}),
                   **{n: raw.header[p] for n, p in plan.cols.items()}}
        return frame, rest, issues, headers

    return gather(tables, read_one, columns=AVAILABILITY_COLUMNS, ignored_note=_ignored_note, no_sheet=_no_sheet)


def _plan(raw: RawSheet) -> _Plan:
    """The sheet's layout, or the error saying what it lacks."""
    cols = match_headers(raw.header, AVAILABILITY_KIND.fields, source=raw.source, sheet=raw.sheet)
    nights = {p: d for p, d in header_dates(raw.header).items() if p not in cols.values()}
    values = [n for n in RESTRICTIONS if n in cols]
    restriction = None
    if "date" in cols:
        layout = "long"
    elif "start" in cols or "end" in cols:
        layout = "range"
    elif nights and not values:
        layout = "wide"
        restriction = restriction_of(raw.sheet or raw.source)
    else:
        extra = ("An availability sheet needs a `Date` column (long layout), `Start` and `End` columns (range "
                 "layout) or one column per night with dates as headers (wide layout, one restriction per sheet).")
        return _Plan("", cols, nights, None, missing_columns_error([_KEYS["date"]], source=raw.source,
                                                                  sheet=raw.sheet, header=raw.header, extra=extra))
    required = [_KEYS["hotel_code"], _KEYS["inv_type_code"]]
    if layout == "range":
        required += [_KEYS["start"], _KEYS["end"]]
    missing = [f for f in required if f.name not in cols]
    if missing:
        return _Plan(layout, cols, nights, restriction,
                     missing_columns_error(missing, source=raw.source, sheet=raw.sheet, header=raw.header))
    if layout != "wide" and not values:
        return _Plan(layout, cols, nights, None, LoadError(
            f"{where(raw.source, raw.sheet)} sets no value: give at least one of the columns {_VALUE_NAMES} "
            f"(headers found: {_seen(raw)}).", source=raw.source, sheet=raw.sheet))
    if layout == "wide" and restriction is None:
        named = f"sheet `{raw.sheet}`" if raw.sheet else f"file `{raw.source}`"
        rename = "rename the sheet" if raw.sheet else "rename the file (e.g. `RoomsToSell.csv`)"
        return _Plan(layout, cols, nights, None, LoadError(
            f"{where(raw.source, raw.sheet)} has one column per night, so it holds one restriction and is named "
            f"after it, but {named} names none of {_VALUE_NAMES}: {rename}.", source=raw.source, sheet=raw.sheet))
    return _Plan(layout, cols, nights, restriction, None)


def _seen(raw: RawSheet) -> str:
    return ", ".join(f"`{h}`" for h in raw.header if h) or "none"


def _ignored_note(raw: RawSheet) -> dict:
    return {"source": raw.source, "sheet": raw.sheet, "row": raw.header_row, "column": "",
            "value": "not an availability sheet", "rule": "sheet_ignored", "severity": "warning",
            "message": f"sheet `{raw.sheet}` is not an availability sheet (no row within its first {HEADER_SEARCH_ROWS} "
                       f"names `HotelCode`, `InvTypeCode`, the nights and one of {_VALUE_NAMES}, and its name is no "
                       f"restriction's; headers found: {_seen(raw)}) and was not read"}


def _no_sheet(sheets: list[RawSheet]) -> LoadError:
    return no_sheet_error(sheets, "availability", "`HotelCode`, `InvTypeCode`, the nights (`Date`, `Start`/`End`, "
                          f"or dates as headers) and one of {_VALUE_NAMES}",
                          lambda raw: _plan(raw).error if raw.header_found else None)


# --- one sheet ----------------------------------------------------------------------------------------

def _read_one(raw: RawSheet, plan: _Plan) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    s = RateSheet(raw, plan.cols)
    value_positions = [plan.cols[n] for n in RESTRICTIONS if n in plan.cols]
    used = {p: raw.header[p] for p in (*plan.cols.values(), *plan.nights)}
    bad_rows = problem_rows(s, used, [*value_positions, *plan.nights])
    if len(raw.body) == 0:
        s.records.append({"source": raw.source, "sheet": raw.sheet, "row": raw.header_row, "column": "", "value": "",
                          "rule": "no_values", "severity": "warning",
                          "message": f"nothing set in {where(raw.source, raw.sheet)}: it has a header row but no "
                                     "rows below it"})
        return empty_availability(), empty_availability(), issues_from_records(s.records)
    keys = _Keys.read(s)
    keys.ok &= ~raw.rows.isin(bad_rows).to_numpy()
    if plan.layout == "wide":
        frame, unread = _wide(s, plan, keys)
    else:
        frame, unread = _rows(s, plan, keys)
    return frame, unread, issues_from_records(s.records)


@dataclass
class _Keys:
    """The key cells of every sheet row, typed: hotel, room, rate plan (NA: the room type) and, in the
    long layout, the night; ``ok`` is False for rows with a key cell that cannot be used."""

    hotel: pd.Series
    room: pd.Series
    rate: pd.Series
    ok: np.ndarray

    @classmethod
    def read(cls, s: RateSheet) -> _Keys:
        rows, index = s.raw.rows, s.raw.body.index
        ok = np.ones(len(index), dtype=bool)
        hotel_text = Distinct.of(s.text("hotel_code"))
        _required(s, "hotel_code", hotel_text, "the property id (HotelCode)", ok)
        hotel_values, err = norm.parse_ints(hotel_text.values, "a property id (a whole number)")
        bad = hotel_text.rows(err.notna(), False)
        s.flag(bad, rows, s.col("hotel_code"), hotel_text, "not_a_number", hotel_text.derived(err))
        ok &= ~bad
        codes = {}
        for name, what in (("inv_type_code", "the room type id (InvTypeCode)"),
                           ("rate_plan_code", "the rate plan id (RatePlanCode)")):
            code = Distinct.of(s.text(name))
            code = code.derived(norm.parse_codes(code.values))
            if name == "inv_type_code":
                _required(s, name, code, what, ok)
            yes_no = code.rows(code.values.str.strip().str.casefold().isin(norm.BOOLEAN_WORDS).fillna(False)
                               .to_numpy(dtype=bool), False)
            s.flag(yes_no, rows, s.col(name), code,
                   "not_a_value", code.derived("`" + code.values + f"` is a yes/no value (TRUE/FALSE), not {what}"))
            ok &= ~yes_no
            codes[name] = code.take(code.values, index)
        return cls(hotel_text.take(hotel_values, index), codes["inv_type_code"], codes["rate_plan_code"], ok)


def _required(s: RateSheet, name: str, column: Distinct, what: str, ok: np.ndarray) -> None:
    blank = column.blank()
    if blank.any():
        rows = s.raw.rows
        s.flag(blank & s.not_problem(rows, s.col(name)), rows, s.col(name), column, "missing_value",
               f"{what} is blank: fill it in")
        ok[blank] = False


def _values(s: RateSheet, text: pd.Series, rows: pd.Series, name: str,
            column: str | pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """The values of ``name`` in ``text`` (int64, one per cell) and which cells hold a usable value
    (blank cells hold none and are no issue; an unreadable cell is an issue on itself)."""
    cells = Distinct.of(text)
    if name in FLAG_RESTRICTIONS:
        flags, err = norm.parse_flags(cells.values)
        numbers = flags.astype("Int64")
    else:
        numbers, err = norm.parse_ints(cells.values, _WHAT[name])
    bad = cells.rows(err.notna().to_numpy(), False)
    if bad.any():
        s.flag(bad, rows, column, cells, "not_a_flag" if name in FLAG_RESTRICTIONS else "not_a_number",
               cells.derived(err))
    given = cells.rows(numbers.notna().to_numpy(dtype=bool), False)
    return cells.rows(numbers.fillna(0).to_numpy(dtype=np.int64), 0), given


def _assemble(s: RateSheet, keys: _Keys, at: np.ndarray, dates: np.ndarray, restriction: str | pd.Series,
              value: np.ndarray, column: np.ndarray | str | pd.Series) -> pd.DataFrame:
    """The frame rows: sheet row ``at[i]`` (a position in the sheet's rows) sets ``restriction`` (one, or one
    per row) to ``value[i]`` on night ``dates[i]``, read from the cell under ``column`` (one header, or one per
    row)."""
    index = pd.RangeIndex(len(at))
    col = repeated(column, index) if isinstance(column, str) else column if isinstance(column, pd.Series) \
        else pd.Series(column, index=index, dtype="string")
    return pd.DataFrame({
        "hotel_code": pd.Series(keys.hotel.array.take(at), index=index),
        "inv_type_code": pd.Series(keys.room.array.take(at), index=index),
        "rate_plan_code": pd.Series(keys.rate.array.take(at), index=index),
        "date": pd.Series(dates, index=index, dtype="datetime64[ns]"),
        "restriction": repeated(restriction, index) if isinstance(restriction, str) else restriction,
        "value": pd.Series(pd.arrays.IntegerArray(value.astype(np.int64), np.zeros(len(at), dtype=bool)),
                           index=index),
        "source": repeated(s.raw.source, index), "sheet": repeated(s.raw.sheet, index),
        "row": pd.Series(s.raw.rows.to_numpy()[at], index=index, dtype="Int64"),
        "value_column": col,
    }, copy=False)


def _rows(s: RateSheet, plan: _Plan, keys: _Keys) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Long and range layouts: each sheet row sets each value column it fills, on its night(s)."""
    rows = s.raw.rows
    if plan.layout == "long":
        date_text = Distinct.of(s.text("date"))
        _required(s, "date", date_text, "the night (Date)", keys.ok)
        date_values, err = norm.parse_dates(date_text.values)
        bad = date_text.rows(err.notna(), False)
        s.flag(bad, rows, s.col("date"), date_text, "not_a_date", date_text.derived(err))
        keys.ok &= ~bad
        dates = date_text.rows(date_values.to_numpy(), np.datetime64("NaT"))
        cells = pd.DataFrame({"row": rows})
    else:
        cells = pd.DataFrame({"row": rows, **{d: s.text(d) for d in ("start", "end", *WEEKDAYS) if d in s.cols}})
    parts, unread_parts = [], []
    for name in RESTRICTIONS:
        if name in plan.cols:
            parts.append((name, *_values(s, s.text(name), rows, name, s.header(name))))
    ok = keys.ok
    if plan.layout == "range":
        nights = range_nights(s, cells, ok)  # clears ``ok`` for rows with unusable bounds or weekday flags
        at, night_dates = nights.rows, nights.dates
        first_night = nights.start.to_numpy()
    else:
        at, night_dates = np.flatnonzero(ok), dates[ok]
        first_night = dates
    kept = []  # per value column: the rows setting it (assembled at once below: no frame per column to concat)
    for name, value, given in parts:
        keep = given[at]
        kept.append((at[keep], night_dates[keep], value[at][keep]))
        bad_at = np.flatnonzero(~ok & given)  # a row left out for a key cell: its values, for the rules
        if len(bad_at):
            unread_parts.append(_assemble(s, keys, bad_at, first_night[bad_at], name, value[bad_at], s.header(name)))
    sizes = [len(k[0]) for k in kept]
    if not sum(sizes):
        return empty_availability(), _concat(unread_parts)
    index = pd.RangeIndex(sum(sizes))
    frame = _assemble(s, keys, np.concatenate([k[0] for k in kept]), np.concatenate([k[1] for k in kept]),
                      repeated_blocks([name for name, _, _ in parts], sizes, index),
                      np.concatenate([k[2] for k in kept]), repeated_blocks([s.header(n) for n, _, _ in parts], sizes, index))
    return frame, _concat(unread_parts)


def _wide(s: RateSheet, plan: _Plan, keys: _Keys) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Wide layout: each night cell written sets the sheet's restriction on that night."""
    assert plan.restriction is not None
    positions = list(plan.nights)
    block = s.raw.body[positions].copy()
    block.columns = range(len(positions))
    stacked = block.stack(future_stack=True).dropna()
    row_idx = stacked.index.get_level_values(0).to_numpy()
    col_idx = stacked.index.get_level_values(1).to_numpy()
    at = s.raw.body.index.get_indexer(row_idx)
    dates = np.array([plan.nights[p] for p in positions], dtype="datetime64[ns]")[col_idx]
    headers = np.array([s.raw.header[p] for p in positions], dtype=object)[col_idx]
    rows = pd.Series(s.raw.rows.to_numpy()[at])
    value, given = _values(s, stacked.astype("string").reset_index(drop=True), rows, plan.restriction,
                           pd.Series(headers))
    good = given & keys.ok[at]
    bad = given & ~keys.ok[at]
    frame = _assemble(s, keys, at[good], dates[good], plan.restriction, value[good], headers[good])
    unread = _assemble(s, keys, at[bad], dates[bad], plan.restriction, value[bad], headers[bad])
    return frame, unread


def _concat(parts: list[pd.DataFrame]) -> pd.DataFrame:
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty_availability()
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
