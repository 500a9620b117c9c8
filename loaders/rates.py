"""Rates spreadsheets -> the canonical rates frame (one row per night's price).

Three layouts are recognised from the headers:

- **long**: one row per hotel/room/rate/date[/guests] (a ``Date`` column);
- **wide**: one row per hotel/room/rate[/guests], one column per night (header cells are dates);
- **range**: ``Start``, ``End`` and optional ``Mon``..``Sun`` flags, read with the spec's weekday
  rules: some days true -> only those; only explicit falses -> every day; none given -> every day.

A cell that cannot be read becomes an issue on that cell and its row is left out of the frame;
a file that cannot be used at all raises :class:`~loaders.errors.LoadError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from loaders import normalize as norm
from loaders.headers import match_headers, missing_columns_error
from loaders.issues import combine, empty_issues, issues_from_records
from loaders.schemas import RATE_FIELDS, RATES_COLUMNS, WEEKDAY_FIELDS, WEEKDAYS, Field, empty_rates
from loaders.sheets import RawSheet, read_sheets

_FIELDS = {f.name: f for f in (*RATE_FIELDS, *WEEKDAY_FIELDS)}
AMOUNT_TYPE_FIELD = Field("amount_type", "AmountType", ("AmountType", "amount_type", "tax"),
                          "wide sheets: `AfterTax` (default) or `BeforeTax`")
MAX_RANGE_DAYS = 5 * 366 + 2


class Loaded(NamedTuple):
    """What a loader returns: the canonical ``frame`` and the ``issues`` found while reading."""

    frame: pd.DataFrame
    issues: pd.DataFrame


def read_rates(paths: str | Path | Iterable[str | Path], sheet: str | Sequence[str] | None = None) -> Loaded:
    """Read rates from CSV/Excel files (every sheet, or the named ones) into one canonical frame."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    frames, issues, headers = [], [], {}
    for raw in read_sheets(list(paths), sheet):
        loaded, layout_headers = _read_one(raw)
        frames.append(loaded.frame)
        issues.append(loaded.issues)
        headers[(raw.source, raw.sheet)] = layout_headers
    frame = pd.concat(frames, ignore_index=True) if frames else empty_rates()
    frame = frame.astype(RATES_COLUMNS)
    frame.attrs["headers"] = headers
    return Loaded(frame, combine(issues))


def sheet_headers(frame: pd.DataFrame, source: str, sheet: str) -> dict[str, str]:
    """The header text a sheet used for each canonical field (plus ``layout``), as read."""
    return frame.attrs.get("headers", {}).get((source, sheet), {})


@dataclass
class _Sheet:
    raw: RawSheet
    cols: dict[str, int]
    records: list[dict] = field(default_factory=list)

    def header(self, name: str) -> str:
        return self.raw.header[self.cols[name]]

    def text(self, name: str) -> pd.Series:
        if name not in self.cols:
            return pd.Series(pd.NA, index=self.raw.body.index, dtype="string")
        return self.raw.body[self.cols[name]].astype("string")

    def flag(self, bad: pd.Series, rows: pd.Series, column: str, values: pd.Series, rule: str,
             messages: pd.Series | str, severity: str = "error") -> None:
        idx = np.flatnonzero(np.asarray(bad, dtype=bool))
        for i in idx:
            msg = messages if isinstance(messages, str) else messages.iloc[i]
            val = values.iloc[i]
            self.records.append({"source": self.raw.source, "sheet": self.raw.sheet, "row": int(rows.iloc[i]),
                                 "column": column, "value": "" if pd.isna(val) else str(val),
                                 "rule": rule, "severity": severity, "message": msg})


def _read_one(raw: RawSheet) -> tuple[Loaded, dict[str, str]]:
    cols = match_headers(raw.header, (*RATE_FIELDS, *WEEKDAY_FIELDS, AMOUNT_TYPE_FIELD),
                         source=raw.source, sheet=raw.sheet)
    date_headers = {pos: d for pos, d in _date_headers(raw.header).items() if pos not in cols.values()}
    s = _Sheet(raw, cols)
    required = [_FIELDS[n] for n in ("hotel_code", "inv_type_code", "rate_plan_code", "currency_code")]
    if "date" in cols:
        layout = "long"
    elif "start" in cols or "end" in cols:
        layout = "range"
        required += [_FIELDS["start"], _FIELDS["end"]]
    elif date_headers:
        layout = "wide"
    else:
        raise missing_columns_error(
            [_FIELDS["date"]], source=raw.source, sheet=raw.sheet, header=raw.header,
            extra="A rates sheet needs a `Date` column (long layout), `Start` and `End` columns (range layout) "
                  "or one column per night with dates as headers (wide layout).")
    if layout != "wide" and "amount_after_tax" not in cols and "amount_before_tax" not in cols:
        required.append(_FIELDS["amount_after_tax"])
    missing = [f for f in required if f.name not in cols]
    if missing:
        extra = "AmountBeforeTax may be given instead of AmountAfterTax." if _FIELDS["amount_after_tax"] in missing else ""
        raise missing_columns_error(missing, source=raw.source, sheet=raw.sheet, header=raw.header, extra=extra)
    headers = {"layout": layout, **{name: raw.header[pos] for name, pos in cols.items()}}
    if len(raw.body) == 0:
        return Loaded(empty_rates(), empty_issues()), headers
    cells = _wide_cells(s, date_headers) if layout == "wide" else _row_cells(s, layout)
    frame = _type_cells(s, cells, layout)
    return Loaded(frame, issues_from_records(s.records)), headers


def _date_headers(header: Sequence[str]) -> dict[int, pd.Timestamp]:
    out = {}
    for pos, text in enumerate(header):
        if not text:
            continue
        if norm._SERIAL.match(text) and not 36526 <= float(text) <= 2958465:
            continue
        value, err = norm._parse_date(text)
        if value is not None:
            out[pos] = pd.Timestamp(value)
    return out


def _row_cells(s: _Sheet, layout: str) -> pd.DataFrame:
    """Long and range layouts: one cell row per sheet row."""
    after, before = s.text("amount_after_tax"), s.text("amount_before_tax")
    both = after.notna() & before.notna()
    neither = after.isna() & before.isna()
    rows = s.raw.rows
    a_name = s.header("amount_after_tax") if "amount_after_tax" in s.cols else "AmountAfterTax"
    b_name = s.header("amount_before_tax") if "amount_before_tax" in s.cols else "AmountBeforeTax"
    s.flag(both, rows, a_name, after, "one_amount",
           f"both `{a_name}` and `{b_name}` are given: the platform takes exactly one of them; "
           "keep the one that matches the room's tax settings")
    s.flag(neither, rows, a_name, after, "missing_value",
           f"no price: fill in `{a_name}` (or `{b_name}`), or delete the row")
    amount = after.fillna(before) if "amount_before_tax" in s.cols else after
    which = np.where(after.notna().to_numpy(), 0, 1)
    cells = pd.DataFrame({
        "row": rows,
        "amount_text": amount,
        "amount_type": _pick(["AfterTax", "BeforeTax"], which),
        "amount_column": _pick([a_name, b_name], which),
        "ok": ~(both | neither).to_numpy(),
    })
    for name in ("hotel_code", "inv_type_code", "rate_plan_code", "currency_code", "number_of_guests",
                 "decimal_places", "date", "start", "end", *WEEKDAYS):
        if name in s.cols:  # absent optional columns stay absent (cheap on a million rows)
            cells[name] = s.text(name)
    return cells


def _wide_cells(s: _Sheet, date_headers: dict[int, pd.Timestamp]) -> pd.DataFrame:
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
        "amount_text": stacked.astype("string").to_numpy(),
        "amount_type": kind[row_idx],
        "amount_column": headers[col_idx],
        "ok": ~bad_type.to_numpy()[row_idx],
        "date_value": dates[col_idx],
    })
    for name in ("hotel_code", "inv_type_code", "rate_plan_code", "currency_code", "number_of_guests",
                 "decimal_places"):
        if name in s.cols:
            cells[name] = s.text(name).to_numpy()[row_idx]
    return cells.reset_index(drop=True)


def _type_cells(s: _Sheet, cells: pd.DataFrame, layout: str) -> pd.DataFrame:
    ok = cells["ok"].to_numpy().copy()
    rows = cells["row"]

    def col(name: str) -> str:
        return s.header(name) if name in s.cols else _FIELDS[name].ota

    def required(name: str, values: pd.Series, what: str) -> None:
        blank = values.isna()
        s.flag(blank & ok, rows, col(name), values, "missing_value", f"{what} is blank: fill it in")
        ok[blank.to_numpy()] = False

    hotel_text = cells["hotel_code"].astype("string")
    required("hotel_code", hotel_text, "the property id (HotelCode)")
    hotel, err = norm.parse_ints(hotel_text.dropna(), "a property id (a whole number)")
    hotel = hotel.reindex(cells.index)
    err = err.reindex(cells.index)
    s.flag(err.notna() & ok, rows, col("hotel_code"), hotel_text, "not_a_number", err)
    ok &= err.isna().to_numpy()

    codes = {}
    for name, what in (("inv_type_code", "the room type id (InvTypeCode)"),
                       ("rate_plan_code", "the rate plan id (RatePlanCode)")):
        codes[name] = norm.parse_codes(cells[name])
        required(name, codes[name], what)

    currency = cells["currency_code"].astype("string").str.upper()
    required("currency_code", currency, "the currency (CurrencyCode)")
    bad_cur = currency.notna() & ~currency.str.fullmatch(r"[A-Z]{3}").fillna(False)
    s.flag(bad_cur & ok, rows, col("currency_code"), cells["currency_code"], "currency_code",
           "a currency is a three-letter ISO 4217 code such as EUR")
    ok &= ~bad_cur.to_numpy()

    if "number_of_guests" in cells:
        guests_text = cells["number_of_guests"].astype("string")
        guests, err = norm.parse_ints(guests_text.dropna(), "a number of guests (a whole number)")
        guests, err = guests.reindex(cells.index), err.reindex(cells.index)
        s.flag(err.notna() & ok, rows, col("number_of_guests"), guests_text, "not_a_number", err)
        ok &= err.isna().to_numpy()
    else:
        guests = _all_na_ints(cells.index)

    if "decimal_places" in cells:
        dp_text = cells["decimal_places"].astype("string")
        dp, err = norm.parse_ints(dp_text.dropna(), "a number of decimal places (0 to 4)")
        dp, err = dp.reindex(cells.index), err.reindex(cells.index)
        bad_dp = err.notna() | (dp.notna() & ~dp.between(0, 4).fillna(False))
        s.flag(bad_dp & ok, rows, col("decimal_places"), dp_text, "decimal_places",
               err.fillna("DecimalPlaces must be between 0 and 4"))
        ok &= ~bad_dp.to_numpy()
    else:
        dp = _all_na_ints(cells.index)

    amounts, err = norm.parse_amounts(cells["amount_text"].astype("string"))
    amount_col = cells["amount_column"]
    _flag_series(s, err.notna() & cells["amount_text"].notna() & ok, rows, amount_col, cells["amount_text"],
                 "not_a_number", err.fillna(""))
    ok &= err.isna().to_numpy()
    scaled = dp.notna() & amounts["scale"].fillna(0).gt(0)
    _flag_series(s, scaled & ok, rows, amount_col, cells["amount_text"], "decimal_places",
                 "with DecimalPlaces given, the amount must be a whole number of the smallest unit "
                 "(e.g. 8550 with DecimalPlaces 2 for 85.50); remove the decimals or clear DecimalPlaces")
    ok &= ~scaled.to_numpy()
    minor, scale, value = amounts["minor"], amounts["scale"], amounts["value"]
    has_dp = dp.notna() & ok
    if has_dp.any():  # 8550 with DecimalPlaces=2 is 85.50
        d = dp[has_dp].astype("int64")
        value = value.where(~has_dp, value / np.power(10.0, dp.fillna(0).astype("int64")))
        m, sc = _normalize_scaled(minor[has_dp].astype("int64"), d)
        minor = minor.copy()
        scale = scale.copy()
        minor[has_dp], scale[has_dp] = m, sc

    if layout == "long":
        dates, err = norm.parse_dates(cells["date"].astype("string").dropna())
        dates, err = dates.reindex(cells.index), err.reindex(cells.index)
        required("date", cells["date"].astype("string"), "the night (Date)")
        s.flag(err.notna() & ok, rows, col("date"), cells["date"], "not_a_date", err)
        ok &= err.isna().to_numpy()
    elif layout == "wide":
        dates = pd.Series(cells["date_value"].to_numpy(), index=cells.index)
    out = pd.DataFrame({
        "hotel_code": hotel, "inv_type_code": codes["inv_type_code"], "rate_plan_code": codes["rate_plan_code"],
        "number_of_guests": guests, "amount": value, "amount_minor": minor, "amount_scale": scale,
        "amount_type": cells["amount_type"], "decimal_places": dp, "currency_code": currency,
        "source": s.raw.source, "sheet": s.raw.sheet, "row": rows, "amount_column": cells["amount_column"],
    })
    if layout == "range":
        return _expand_ranges(s, cells, out, ok)
    out.insert(3, "date", dates)
    return out[ok].astype(RATES_COLUMNS)[list(RATES_COLUMNS)]


def _pick(choices: list[str], codes: np.ndarray) -> pd.Series:
    """``choices[codes]`` as an Arrow-backed string column (fast for a million rows)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = pc.take(pa.array(choices, pa.string()), pa.array(codes, pa.int32()))
    return pd.Series(arr.to_pandas(types_mapper={pa.string(): pd.StringDtype("pyarrow")}.get), dtype="string")


def _all_na_ints(index: pd.Index) -> pd.Series:
    n = len(index)
    return pd.Series(pd.arrays.IntegerArray(np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool)), index=index)


def _flag_series(s: _Sheet, bad: pd.Series, rows: pd.Series, columns: pd.Series, values: pd.Series, rule: str,
                 messages: pd.Series | str) -> None:
    for i in np.flatnonzero(np.asarray(bad, dtype=bool)):
        val = values.iloc[i]
        s.records.append({"source": s.raw.source, "sheet": s.raw.sheet, "row": int(rows.iloc[i]),
                          "column": str(columns.iloc[i]), "value": "" if pd.isna(val) else str(val),
                          "rule": rule, "severity": "error",
                          "message": messages if isinstance(messages, str) else messages.iloc[i]})


def _normalize_scaled(minor: pd.Series, dp: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """8550 at 2 places -> (855, 1): the same exact value with trailing zeros removed."""
    m = minor.to_numpy().copy()
    d = dp.to_numpy().copy()
    for _ in range(int(d.max()) if len(d) else 0):
        strip = (d > 0) & (m % 10 == 0)
        m[strip] //= 10
        d[strip] -= 1
    return m, d


def _expand_ranges(s: _Sheet, cells: pd.DataFrame, out: pd.DataFrame, ok: np.ndarray) -> pd.DataFrame:
    rows = cells["row"]
    bounds = {}
    for name in ("start", "end"):
        text = cells[name].astype("string")
        blank = text.isna()
        s.flag(blank & ok, rows, s.header(name), text, "missing_value",
               f"`{s.header(name)}` is blank: give the {'first' if name == 'start' else 'last'} night of the range")
        ok &= ~blank.to_numpy()
        d, err = norm.parse_dates(text.dropna())
        d, err = d.reindex(cells.index), err.reindex(cells.index)
        s.flag(err.notna() & ok, rows, s.header(name), text, "not_a_date", err)
        ok &= err.isna().to_numpy()
        bounds[name] = d
    start, end = bounds["start"], bounds["end"]
    reversed_ = (start > end).fillna(False)
    s.flag(reversed_ & ok, rows, s.header("start"), cells["start"], "date_order",
           "`Start` is after `End`: swap them (both nights are inclusive)")
    ok &= ~reversed_.to_numpy()
    length = ((end - start).dt.days + 1).fillna(0).astype("int64")
    too_long = length > MAX_RANGE_DAYS
    s.flag(too_long & ok, rows, s.header("end"), cells["end"], "date_window",
           "the range is longer than the platform's 5-year window: shorten it")
    ok &= ~too_long.to_numpy()

    flags = {}
    for day in WEEKDAYS:
        if day in s.cols:
            v, err = norm.parse_flags(cells[day].astype("string").dropna())
            v, err = v.reindex(cells.index), err.reindex(cells.index)
            s.flag(err.notna() & ok, rows, s.header(day), cells[day], "not_a_flag", err)
            ok &= err.isna().to_numpy()
            flags[day] = v
        else:
            flags[day] = pd.Series(pd.NA, index=cells.index, dtype="boolean")
    mask = weekday_mask(pd.DataFrame(flags))

    keep = np.flatnonzero(ok)
    n = length.to_numpy()[keep]
    rep = np.repeat(keep, n)
    offsets = np.arange(len(rep)) - np.repeat(np.cumsum(n) - n, n)
    dates = start.to_numpy()[rep] + offsets.astype("timedelta64[D]")
    expanded = out.iloc[rep].reset_index(drop=True)
    expanded.insert(3, "date", dates)
    wd = pd.DatetimeIndex(dates).day_of_week.to_numpy()
    applies = mask[rep, wd]
    return expanded[applies].astype(RATES_COLUMNS)[list(RATES_COLUMNS)].reset_index(drop=True)


def weekday_mask(flags: pd.DataFrame) -> np.ndarray:
    """The spec's weekday rules, per row, as a (rows x 7) bool array Mon..Sun.

    (1) some days true, others omitted -> omitted days are false; (2) some explicitly false and
    none true -> every day; (3) all omitted -> every day.
    """
    vals = flags[list(WEEKDAYS)].astype("boolean")
    is_true = vals.fillna(False).to_numpy(dtype=bool)
    any_true = is_true.any(axis=1)
    return np.where(any_true[:, None], is_true, True)
