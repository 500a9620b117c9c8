"""The oracle for ``test_rate_cells_distinct.py``: the per-row typing of rates cells as it was before
it was done by distinct values (``loaders/rate_cells.py`` and the cell builders of ``loaders/rates.py``
at commit 9c079a5), kept verbatim so the distinct path is always compared with the per-row one.
Loaded by file path from the tests; not a test module itself."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from loaders import normalize as norm
from loaders.schemas import RATE_FIELDS, RATES_COLUMNS, WEEKDAY_FIELDS, WEEKDAYS
from loaders.sheets import RawSheet

FIELDS = {f.name: f for f in (*RATE_FIELDS, *WEEKDAY_FIELDS)}
MAX_RANGE_DAYS = 5 * 366 + 2


@dataclass
class RateSheet:
    raw: RawSheet
    cols: dict[str, int]
    records: list[dict] = field(default_factory=list)
    problems: set[tuple[int, str]] = field(default_factory=set)  # (row, header) of error/formula cells

    def not_problem(self, rows: pd.Series, column: str) -> np.ndarray:
        """False for the cells already reported as an Excel error or a formula without a value."""
        if not self.problems:
            return np.ones(len(rows), dtype=bool)
        return np.array([(int(r), column) not in self.problems for r in rows], dtype=bool)

    def header(self, name: str) -> str:
        return self.raw.header[self.cols[name]]

    def col(self, name: str) -> str:
        return self.header(name) if name in self.cols else FIELDS[name].ota

    def text(self, name: str) -> pd.Series:
        if name not in self.cols:
            return pd.Series(pd.NA, index=self.raw.body.index, dtype="string")
        return self.raw.body[self.cols[name]].astype("string")

    def flag(self, bad: pd.Series | np.ndarray, rows: pd.Series, column: str | pd.Series, values: pd.Series, rule: str,
             messages: pd.Series | str, severity: str = "error") -> None:
        for i in np.flatnonzero(np.asarray(bad, dtype=bool)):
            msg = messages if isinstance(messages, str) else messages.iloc[i]
            val = values.iloc[i]
            self.records.append({"source": self.raw.source, "sheet": self.raw.sheet, "row": int(rows.iloc[i]),
                                 "column": column if isinstance(column, str) else str(column.iloc[i]),
                                 "value": "" if pd.isna(val) else norm.shown(str(val), 60),
                                 "rule": rule, "severity": severity, "message": msg})


def type_cells(s: RateSheet, cells: pd.DataFrame, layout: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the frame of readable rows, the unread rows) for ``cells``."""
    ok = cells["ok"].to_numpy().copy()
    rows = cells["row"]

    def required(name: str, values: pd.Series, what: str) -> None:
        blank = values.isna().to_numpy()
        s.flag(blank & s.not_problem(rows, s.col(name)), rows, s.col(name), values, "missing_value",
               f"{what} is blank: fill it in")
        ok[blank] = False

    hotel_text = cells["hotel_code"].astype("string")
    required("hotel_code", hotel_text, "the property id (HotelCode)")
    hotel, err = _ints(hotel_text, "a property id (a whole number)")
    s.flag(err.notna(), rows, s.col("hotel_code"), hotel_text, "not_a_number", err)
    ok &= err.isna().to_numpy()

    codes = {}
    for name, what in (("inv_type_code", "the room type id (InvTypeCode)"),
                       ("rate_plan_code", "the rate plan id (RatePlanCode)")):
        codes[name] = norm.parse_codes(cells[name])
        required(name, codes[name], what)
        yes_no = codes[name].str.strip().str.casefold().isin(norm.BOOLEAN_WORDS).fillna(False).to_numpy()
        s.flag(yes_no, rows, s.col(name), codes[name], "not_a_value",
               "`" + codes[name].fillna("") + f"` is a yes/no value (TRUE/FALSE), not {what}")
        ok &= ~yes_no

    currency = cells["currency_code"].astype("string").str.strip().str.upper()
    required("currency_code", currency, "the currency (CurrencyCode)")
    bad_cur = currency.notna() & ~currency.str.fullmatch(r"[A-Z]{3}").fillna(False)
    s.flag(bad_cur, rows, s.col("currency_code"), cells["currency_code"], "currency_code",
           "a currency is a three-letter ISO 4217 code such as EUR")
    ok &= ~bad_cur.to_numpy()
    currency = currency.mask(bad_cur)

    guests = _optional_ints(s, cells, "number_of_guests", "a number of guests (a whole number)", ok)
    dp = _optional_ints(s, cells, "decimal_places", "a number of decimal places (0 to 4)", ok, rule="decimal_places")
    if "decimal_places" in cells:
        out_of_range = dp.notna() & ~dp.between(0, 4).fillna(False)
        s.flag(out_of_range, rows, s.col("decimal_places"), cells["decimal_places"], "decimal_places",
               "DecimalPlaces must be between 0 and 4")
        ok &= ~out_of_range.to_numpy()
        dp = dp.mask(out_of_range)

    amounts, err = norm.parse_amounts(cells["amount_text"].astype("string"))
    amount_col = cells["amount_column"]
    s.flag(err.notna() & cells["amount_text"].notna(), rows, amount_col, cells["amount_text"], "not_a_number",
           err.fillna(""))
    amount_ok = err.isna().to_numpy() & cells["amount_ok"].to_numpy()
    marked = amounts["currencies"].notna()
    if marked.any():  # `€ 99,50`: the mark must agree with the row's currency
        agree = pd.Series([c in str(m).split() for c, m in zip(currency.fillna(""), amounts["currencies"].fillna(""),
                                                                 strict=True)], index=cells.index)
        clash = marked & currency.notna() & ~agree
        s.flag(clash, rows, amount_col, cells["amount_text"], "amount_currency",
               pd.Series([_clash(t, m, c) for t, m, c in zip(cells["amount_text"], amounts["currencies"], currency,
                                                             strict=True)], index=cells.index, dtype=object))
        amount_ok &= ~clash.to_numpy()
    scaled = dp.notna() & amounts["scale"].fillna(0).gt(0)
    s.flag(scaled, rows, amount_col, cells["amount_text"], "decimal_places",
           "with DecimalPlaces given, the amount must be a whole number of the smallest unit "
           "(e.g. 8550 with DecimalPlaces 2 for 85.50); remove the decimals or clear DecimalPlaces")
    amount_ok &= ~scaled.to_numpy()
    if "decimal_places" in cells:
        amount_ok &= ~(cells["decimal_places"].notna() & dp.isna()).to_numpy()  # scale unknown: amount unknown
    ok &= amount_ok
    minor, scale, value = amounts["minor"].copy(), amounts["scale"].copy(), amounts["value"].copy()
    has_dp = dp.notna() & pd.Series(amount_ok, index=cells.index)
    if has_dp.any():  # 8550 with DecimalPlaces=2 is 85.50
        d = dp[has_dp].astype("int64")
        value = value.where(~has_dp, value / np.power(10.0, dp.fillna(0).astype("int64")))
        m, sc = _normalize_scaled(minor[has_dp].astype("int64"), d)
        minor[has_dp], scale[has_dp] = m, sc
    unknown = ~amount_ok
    minor[unknown], scale[unknown], value[unknown] = pd.NA, pd.NA, np.nan

    if layout == "long":
        date_text = cells["date"].astype("string")
        required("date", date_text, "the night (Date)")
        dates, err = norm.parse_dates(date_text.dropna())
        dates, err = dates.reindex(cells.index), err.reindex(cells.index)
        s.flag(err.notna(), rows, s.col("date"), cells["date"], "not_a_date", err)
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
        return expand_ranges(s, cells, out, ok)
    out.insert(3, "date", dates)
    return _typed(out[ok]), _typed(out[~ok])


def _clash(text: str, codes: str, currency: str) -> str:
    options = str(codes).split()
    said = options[0] if len(options) == 1 else "one of " + ", ".join(options[:4]) + (" …" if len(options) > 4 else "")
    return (f"`{text}` is written in {said}, but the row's currency (CurrencyCode) is {currency}: give the price "
            f"in {currency}, or correct CurrencyCode")


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.astype(RATES_COLUMNS)[list(RATES_COLUMNS)].reset_index(drop=True)


def _ints(text: pd.Series, what: str) -> tuple[pd.Series, pd.Series]:
    values, err = norm.parse_ints(text.dropna(), what)
    return values.reindex(text.index), err.reindex(text.index)


def _optional_ints(s: RateSheet, cells: pd.DataFrame, name: str, what: str, ok: np.ndarray,
                   rule: str = "not_a_number") -> pd.Series:
    if name not in cells:
        n = len(cells)
        return pd.Series(pd.arrays.IntegerArray(np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool)),
                         index=cells.index)
    text = cells[name].astype("string")
    values, err = _ints(text, what)
    s.flag(err.notna(), cells["row"], s.col(name), text, rule, err)
    ok &= err.isna().to_numpy()
    return values


def _normalize_scaled(minor: pd.Series, dp: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """8550 at 2 places -> (855, 1): the same exact value with trailing zeros removed."""
    m = minor.to_numpy().copy()
    d = dp.to_numpy().copy()
    for _ in range(int(d.max()) if len(d) else 0):
        strip = (d > 0) & (m % 10 == 0)
        m[strip] //= 10
        d[strip] -= 1
    return m, d


def expand_ranges(s: RateSheet, cells: pd.DataFrame, out: pd.DataFrame,
                  ok: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows = cells["row"]
    bounds = {}
    for name in ("start", "end"):
        text = cells[name].astype("string")
        blank = text.isna().to_numpy()
        s.flag(blank & s.not_problem(rows, s.header(name)), rows, s.header(name), text, "missing_value",
               f"`{s.header(name)}` is blank: give the {'first' if name == 'start' else 'last'} night of the range")
        ok &= ~blank
        d, err = norm.parse_dates(text.dropna())
        d, err = d.reindex(cells.index), err.reindex(cells.index)
        s.flag(err.notna(), rows, s.header(name), text, "not_a_date", err)
        ok &= err.isna().to_numpy()
        bounds[name] = d
    start, end = bounds["start"], bounds["end"]
    reversed_ = (start > end).fillna(False)
    s.flag(reversed_, rows, s.header("start"), cells["start"], "date_order",
           "`Start` is after `End`: swap them (both nights are inclusive)")
    ok &= ~reversed_.to_numpy()
    length = ((end - start).dt.days + 1).fillna(0).astype("int64")
    too_long = length > MAX_RANGE_DAYS
    s.flag(too_long, rows, s.header("end"), cells["end"], "date_window",
           "the range is longer than the platform's 5-year window: shorten it")
    ok &= ~too_long.to_numpy()

    flags = {}
    for day in WEEKDAYS:
        if day in s.cols:
            v, err = norm.parse_flags(cells[day].astype("string").dropna())
            v, err = v.reindex(cells.index), err.reindex(cells.index)
            s.flag(err.notna(), rows, s.header(day), cells[day], "not_a_flag", err)
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
    # an unread range row stands for its first and last nights (for the rules on nights)
    bad = out[~ok]
    unread = pd.concat([bad.assign(date=start[~ok]), bad.assign(date=end[~ok])], ignore_index=True)
    unread = unread.drop_duplicates(subset=["row", "date"]).reset_index(drop=True)
    return _typed(expanded[applies]), _typed(unread)


def weekday_mask(flags: pd.DataFrame) -> np.ndarray:
    """The spec's weekday rules, per row, as a (rows x 7) bool array Mon..Sun.

    (1) some days true, others omitted -> omitted days are false; (2) some explicitly false and
    none true -> every day; (3) all omitted -> every day.
    """
    vals = flags[list(WEEKDAYS)].astype("boolean")
    is_true = vals.fillna(False).to_numpy(dtype=bool)
    any_true = is_true.any(axis=1)
    return np.where(any_true[:, None], is_true, True)



# --- the cell builders of loaders/rates.py at commit 9c079a5 -------------------------------------------

def _row_cells(s: RateSheet, layout: str) -> pd.DataFrame:
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
    s.flag(neither.to_numpy() & s.not_problem(rows, a_name) & s.not_problem(rows, b_name), rows, a_name, after,
           "missing_value", f"no price: fill in `{a_name}` (or `{b_name}`), or delete the row")
    amount = after.fillna(before) if "amount_before_tax" in s.cols else after
    which = np.where(after.notna().to_numpy(), 0, 1)
    usable = ~(both | neither).to_numpy()
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
        "amount_text": stacked.astype("string").to_numpy(),
        "amount_type": kind[row_idx],
        "amount_column": headers[col_idx],
        "ok": ~bad_type.to_numpy()[row_idx],
        "amount_ok": ~bad_type.to_numpy()[row_idx],
        "date_value": dates[col_idx],
    })
    for name in ("hotel_code", "inv_type_code", "rate_plan_code", "currency_code", "number_of_guests",
                 "decimal_places"):
        if name in s.cols:
            cells[name] = s.text(name).to_numpy()[row_idx]
    return cells.reset_index(drop=True)


def _pick(choices: list[str], codes: np.ndarray) -> pd.Series:
    """``choices[codes]`` as an Arrow-backed string column (fast for a million rows)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = pc.take(pa.array(choices, pa.string()), pa.array(codes, pa.int32()))
    return pd.Series(arr.to_pandas(types_mapper={pa.string(): pd.StringDtype("pyarrow")}.get), dtype="string")

