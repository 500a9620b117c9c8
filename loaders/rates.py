"""Rates spreadsheets -> the canonical rates frame (one row per night's price).

Three layouts are recognised from the headers:

- **long**: one row per hotel/room/rate/date[/guests] (a ``Date`` column);
- **wide**: one row per hotel/room/rate[/guests], one column per night (header cells are dates);
- **range**: ``Start``, ``End`` and optional ``Mon``..``Sun`` flags, read with the spec's weekday
  rules: some days true -> only those; only explicit falses -> every day; none given -> every day.

A workbook's sheets are read when their headers are a rates sheet's (found within the first 20
rows, below any title rows); other sheets (``Lookup``, ``Notes``) and hidden sheets are skipped
with a warning saying so, unless named with ``sheet=``. A cell that cannot be read becomes an
issue on that cell (every such cell of a row, not only the first) and its row is left out of the
frame; a file that cannot be used at all raises :class:`~loaders.errors.LoadError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from loaders import normalize as norm
from loaders.blank_cells import problem_cells
from loaders.errors import LoadError
from loaders.header_rows import HEADER_SEARCH_ROWS, TableKind
from loaders.headers import match_headers, missing_columns_error, where
from loaders.issues import issues_from_records
from loaders.kind_tables import Loaded, SheetRead, gather, no_sheet_error
from loaders.rate_cells import FIELDS, MAX_RANGE_DAYS, RateSheet, repeated, type_cells, weekday_mask
from loaders.schemas import RATE_FIELDS, RATES_COLUMNS, WEEKDAY_FIELDS, WEEKDAYS, Field, empty_rates
from loaders.sheets import RawSheet, Tables, arrow_sheet, read_tables

__all__ = ["AMOUNT_TYPE_FIELD", "Loaded", "MAX_RANGE_DAYS", "RATES_KIND", "read_rates", "read_rates_table", "sheet_headers",
           "weekday_mask"]

AMOUNT_TYPE_FIELD = Field("amount_type", "AmountType", ("AmountType", "amount_type", "tax"),
                          "wide sheets: `AfterTax` (default) or `BeforeTax`")
#: what a rates sheet's header looks like, and which of its columns hold amounts and counts
RATES_KIND = TableKind(
    "rates", (*RATE_FIELDS, *WEEKDAY_FIELDS, AMOUNT_TYPE_FIELD),
    numbers=frozenset({"amount_after_tax", "amount_before_tax", "number_of_guests", "decimal_places"}),
    ids=frozenset({"hotel_code", "inv_type_code", "rate_plan_code"}), date_columns_are_numbers=True)
_KEY_FIELDS = ("hotel_code", "inv_type_code", "rate_plan_code", "currency_code")


def read_rates(paths: str | Path | Iterable[str | Path], sheet: str | Sequence[str] | None = None, *,
               encoding: str | None = None, header_row: int | None = None) -> Loaded:
    """Read rates from CSV/Excel files (every visible rates sheet, or the named ones) into one frame.

    ``encoding`` forces the encoding of CSV files (default: detected); ``header_row`` gives the
    Excel row number of the header (default: the first of the first 20 rows naming rates columns).
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    return _read_tables(read_tables(list(paths), sheet, kind=RATES_KIND, encoding=encoding, header_row=header_row))


def read_rates_table(table: pa.Table, source: str, rows: np.ndarray | None = None) -> Loaded:
    """Rates in an Arrow ``table`` (e.g. row groups of a Parquet file), read as ``read_rates`` reads
    a Parquet file holding it: its column names are the header, its values the cells. ``source``
    names it in issues; ``rows[i]`` numbers its ``i``-th row (default ``i + 2``, as in the file).
    Raises :class:`~loaders.errors.LoadError` when the columns are not a rates table's."""
    raw = arrow_sheet(table, source, rows, kind=RATES_KIND)
    if raw is None:
        raise LoadError(f"`{source}` has no columns: give the columns of a rates table (`HotelCode`, `InvTypeCode`, "
                        "`RatePlanCode`, `Date`, `AmountAfterTax`, `CurrencyCode`).", source=source)
    return _read_tables(Tables([raw]))


def _read_tables(tables: Tables) -> Loaded:
    def read_one(raw: RawSheet) -> SheetRead | None:
        if raw.sheet and not raw.header_found and not raw.named:
            return None
        return _read_one(raw)

    return gather(tables, read_one, columns=RATES_COLUMNS, ignored_note=_ignored_note, no_sheet=_no_rates_sheet)


def sheet_headers(frame: pd.DataFrame, source: str, sheet: str) -> dict[str, str]:
    """The header text a sheet used for each canonical field (plus ``layout``), as read."""
    return frame.attrs.get("headers", {}).get((source, sheet), {})


def _ignored_note(raw: RawSheet) -> dict:
    seen = ", ".join(f"`{h}`" for h in raw.header if h) or "none"
    return {"source": raw.source, "sheet": raw.sheet, "row": raw.header_row, "column": "",
            "value": "not a rates sheet", "rule": "sheet_ignored", "severity": "warning",
            "message": f"sheet `{raw.sheet}` is not a rates sheet (no row within its first {HEADER_SEARCH_ROWS} names "
                       f"rates columns such as `HotelCode`, `InvTypeCode`, `RatePlanCode`; headers found: {seen}) "
                       "and was not read"}


def _no_rates_sheet(sheets: list[RawSheet]) -> LoadError:
    return no_sheet_error(sheets, "rates", "rates columns (`HotelCode`, `InvTypeCode`, `RatePlanCode`, "
                          "`CurrencyCode`, and `Date`, `Start`/`End` or one column per night)",
                          lambda raw: _layout(raw, {}, {})[1])


def _layout(raw: RawSheet, cols: dict[str, int], date_headers: dict[int, pd.Timestamp]) -> tuple[str, LoadError | None]:
    """The sheet's layout, or the error saying which columns are missing."""
    if not cols:
        cols = match_headers(raw.header, RATES_KIND.fields, source=raw.source, sheet=raw.sheet)
        date_headers = {p: d for p, d in header_dates(raw.header).items() if p not in cols.values()}
    required = [FIELDS[n] for n in _KEY_FIELDS]
    extra = raw.hint
    if "date" in cols:
        layout = "long"
    elif "start" in cols or "end" in cols:
        layout = "range"
        required += [FIELDS["start"], FIELDS["end"]]
    elif date_headers:
        layout = "wide"
    else:
        return "", missing_columns_error(
            [FIELDS["date"]], source=raw.source, sheet=raw.sheet, header=raw.header,
            extra=" ".join(x for x in ("A rates sheet needs a `Date` column (long layout), `Start` and `End` columns "
                                       "(range layout) or one column per night with dates as headers (wide layout).",
                                       extra) if x))
    if layout != "wide" and "amount_after_tax" not in cols and "amount_before_tax" not in cols:
        required.append(FIELDS["amount_after_tax"])
    missing = [f for f in required if f.name not in cols]
    if missing:
        if FIELDS["amount_after_tax"] in missing:
            extra = " ".join(x for x in ("AmountBeforeTax may be given instead of AmountAfterTax.", extra) if x)
        return layout, missing_columns_error(missing, source=raw.source, sheet=raw.sheet, header=raw.header,
                                             extra=extra)
    return layout, None


def _read_one(raw: RawSheet) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, dict[str, str]]:
    cols = match_headers(raw.header, RATES_KIND.fields, source=raw.source, sheet=raw.sheet)
    date_headers = {pos: d for pos, d in header_dates(raw.header).items() if pos not in cols.values()}
    layout, error = _layout(raw, cols, date_headers)
    if error is not None:
        raise error
    s = RateSheet(raw, cols)
    headers = {"layout": layout, **{name: raw.header[pos] for name, pos in cols.items()}}
    used = {pos: raw.header[pos] for pos in (*cols.values(), *date_headers)}
    bad_rows = problem_rows(s, used, list(date_headers) if layout == "wide" else [])
    if len(raw.body) == 0:
        if not s.records:
            s.records.append({"source": raw.source, "sheet": raw.sheet, "row": raw.header_row, "column": "",
                              "value": "", "rule": "no_prices", "severity": "warning",
                              "message": f"no prices in {where(raw.source, raw.sheet)}: it has a header row but "
                                         "no rows below it"})
        return empty_rates(), empty_rates(), issues_from_records(s.records), headers
    cells = _wide_cells(s, date_headers) if layout == "wide" else _row_cells(s, layout)
    if bad_rows:
        cells["ok"] &= ~cells["row"].isin(bad_rows).to_numpy()
    frame, unread = type_cells(s, cells, layout)
    return frame, unread, issues_from_records(s.records), headers


def problem_rows(s: RateSheet, used: dict[int, str], nights: list[int]) -> set[int]:
    """An issue for each Excel error value and formula without a saved value in the columns read.
    Returns the rows they make unusable (a night cell of a wide sheet only loses that night)."""
    raw = s.raw
    rows = set()
    for (row, pos), (rule, value, message) in problem_cells(raw, used).items():
        s.records.append({"source": raw.source, "sheet": raw.sheet, "row": row, "column": used[pos], "value": value,
                          "rule": rule, "severity": "error", "message": message})
        s.problems.add((row, used[pos]))
        if pos not in nights:
            rows.add(row)
    return rows


def header_dates(header: Sequence[str]) -> dict[int, pd.Timestamp]:
    """The header cells that are dates (a wide sheet's nights), by position."""
    out = {}
    for pos, text in enumerate(header):
        if not text:
            continue
        if norm.is_serial(text) and not norm.is_serial_date(text):
            continue
        value, err = norm.parse_date(text)
        if value is not None:
            out[pos] = pd.Timestamp(value)
    return out


def _row_cells(s: RateSheet, layout: str) -> pd.DataFrame:
    """Long and range layouts: one cell row per sheet row."""
    after = s.text("amount_after_tax")
    given = after.notna().to_numpy()
    if "amount_before_tax" in s.cols:
        before = s.text("amount_before_tax")
        both, neither = given & before.notna().to_numpy(), ~given & before.isna().to_numpy()
        amount = after.fillna(before)
    else:  # one amount column: no column of a million blanks to compare it with
        both, neither, amount = np.zeros(len(after), dtype=bool), ~given, after
    rows = s.raw.rows
    a_name = s.header("amount_after_tax") if "amount_after_tax" in s.cols else "AmountAfterTax"
    b_name = s.header("amount_before_tax") if "amount_before_tax" in s.cols else "AmountBeforeTax"
    s.flag(both, rows, a_name, after, "one_amount",
           f"both `{a_name}` and `{b_name}` are given: the platform takes exactly one of them; "
           "keep the one that matches the room's tax settings")
    s.flag(neither & s.not_problem(rows, a_name) & s.not_problem(rows, b_name), rows, a_name, after,
           "missing_value", f"no price: fill in `{a_name}` (or `{b_name}`), or delete the row")
    which = np.where(given, 0, 1)
    usable = ~(both | neither)
    cells = pd.DataFrame({
        "row": rows,
        "amount_text": amount,
        "amount_type": _pick(["AfterTax", "BeforeTax"], which),
        "amount_column": _pick([a_name, b_name], which),
        "ok": usable,
        "amount_ok": usable,
    })
    for name in ("hotel_code", "inv_type_code", "rate_plan_code", "currency_code", "number_of_guests",
                 "decimal_places", "date", "start", "end", *WEEKDAYS):
        if name in s.cols:  # absent optional columns stay absent (cheap on a million rows)
            cells[name] = s.text(name)
    return cells


def _wide_cells(s: RateSheet, date_headers: dict[int, pd.Timestamp]) -> pd.DataFrame:
    """Wide layout: one cell row per non-blank night column."""
    body = s.raw.body
    positions = list(date_headers)
    block = body[positions].copy()
    block.columns = range(len(positions))
    stacked = block.stack(future_stack=True).dropna()
    row_idx = stacked.index.get_level_values(0).to_numpy()
    col_idx = stacked.index.get_level_values(1).to_numpy()
    dates = np.array([date_headers[p] for p in positions], dtype="datetime64[ns]")
    headers = np.array([s.raw.header[p] for p in positions], dtype=object)
    amount_type = s.text("amount_type").str.replace(r"[\s_-]", "", regex=True).str.casefold()
    bad_type = amount_type.notna() & ~amount_type.isin(["aftertax", "beforetax"])
    if "amount_type" in s.cols:
        s.flag(bad_type, s.raw.rows, s.header("amount_type"), s.text("amount_type"), "not_a_value",
               "write `AfterTax` or `BeforeTax` (blank means AfterTax)")
    kind = np.where(amount_type.fillna("aftertax") == "beforetax", "BeforeTax", "AfterTax")
    cells = pd.DataFrame({
        "row": s.raw.rows.to_numpy()[row_idx],
        "amount_text": stacked.astype("string").array,
        "amount_type": kind[row_idx],
        "amount_column": headers[col_idx],
        "ok": ~bad_type.to_numpy()[row_idx],
        "amount_ok": ~bad_type.to_numpy()[row_idx],
        "date_value": dates[col_idx],
    })
    for name in ("hotel_code", "inv_type_code", "rate_plan_code", "currency_code", "number_of_guests",
                 "decimal_places"):
        if name in s.cols:
            cells[name] = s.text(name).array.take(row_idx)  # stays Arrow text: read by distinct values
    return cells.reset_index(drop=True)


def _pick(choices: list[str], codes: np.ndarray) -> pd.Series:
    """``choices[codes]`` as an Arrow-backed string column (fast for a million rows)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if len(codes) and (codes == codes[0]).all():  # one amount column: the same text on every row
        return repeated(choices[int(codes[0])], pd.RangeIndex(len(codes)))
    arr = pc.take(pa.array(choices, pa.large_string()), pa.array(codes, pa.int32()))
    return pd.Series(pd.arrays.ArrowStringArray(arr), copy=False)

