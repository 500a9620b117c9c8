"""Typing the cells of a rates sheet: every unreadable cell of a row is an issue, not only the first.

``cells`` holds one row per price (a sheet row in the long and range layouts, a night cell in
the wide layout) with the text of each field. A row with any unreadable cell is left out of the
frame; what could be read of it is kept as an unread row (``loaders.unread``) so the platform's
rules can still speak about its other cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from loaders import normalize as norm
from loaders.schemas import RATE_FIELDS, RATES_COLUMNS, WEEKDAY_FIELDS, WEEKDAYS
from loaders.sheets import RawSheet

FIELDS = {f.name: f for f in (*RATE_FIELDS, *WEEKDAY_FIELDS)}
MAX_RANGE_DAYS = 5 * 366 + 2


@dataclass(frozen=True)
class Distinct:
    """A column as ``codes`` into its distinct values (code -1: a blank cell).

    A rates sheet has few distinct texts per column (hundreds of hotels, a few room and rate
    codes, 365 nights, a few thousand prices), so each text is read once and the results are
    taken back by code: the cost follows the distinct values, not the million rows.
    """

    codes: np.ndarray  # one per row: the position of its value in ``values``, -1 when blank
    values: pd.Series  # one per distinct text (RangeIndex), or what was derived from each
    column: pd.Series | None = None  # the column read (string), and its distinct texts
    texts: pd.Series | None = None

    @classmethod
    def of(cls, column: pd.Series) -> Distinct:
        column = column.astype("string")
        data = pa.array(column.array)
        if isinstance(data, pa.ChunkedArray):  # a Parquet dataset's row groups
            data = data.combine_chunks()
        encoded = pc.dictionary_encode(data)  # Arrow's hashing: int32 codes, no copies
        codes = encoded.indices.fill_null(-1) if encoded.null_count else encoded.indices
        texts = pd.Series(pd.arrays.ArrowStringArray(pc.cast(encoded.dictionary, pa.large_string())), copy=False)
        return cls(codes.to_numpy(), texts, column, texts)

    def blank(self) -> np.ndarray:
        return self.codes < 0

    def derived(self, values: pd.Series) -> Distinct:
        """The same rows, each distinct text replaced by ``values`` (one per distinct text)."""
        return Distinct(self.codes, values.reset_index(drop=True), self.column, self.texts)

    def rows(self, per_value: np.ndarray | pd.Series, fill: object) -> np.ndarray:
        """``per_value`` (one per distinct text) for each row as a NumPy array, ``fill`` for blank rows."""
        v = np.asarray(per_value)
        if v.dtype == bool and not fill and not v.any():  # a check no cell fails: the common clean file
            return np.zeros(len(self.codes), dtype=bool)
        return np.concatenate([v, np.array([fill], dtype=v.dtype)])[self.codes]

    def take(self, per_value: pd.Series, index: pd.Index) -> pd.Series:
        """``per_value`` for each row, NA for blank rows, keeping its dtype (the column read itself
        when ``per_value`` are its own texts: codes and currencies are mostly written as sent)."""
        if self.column is not None and self.texts is not None and per_value.equals(self.texts):
            return self.column.set_axis(index)
        if isinstance(per_value.array, pd.arrays.IntegerArray):  # NumPy's take: pandas' is ~10x slower
            numbers = self.rows(per_value.to_numpy(dtype=np.int64, na_value=0), 0)
            blank = self.rows(per_value.isna().to_numpy(), True)
            return pd.Series(pd.arrays.IntegerArray(numbers, blank), index=index, copy=False)
        return pd.Series(per_value.array.take(self.codes, allow_fill=True), index=index, copy=False)

    def at(self, position: int) -> object:
        code = self.codes[position]
        return pd.NA if code < 0 else self.values.iloc[code]


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
        column = self.raw.body[self.cols[name]]
        return column if column.dtype == "string" else column.astype("string")

    def flag(self, bad: pd.Series | np.ndarray, rows: pd.Series, column: str | pd.Series,
             values: pd.Series | Distinct, rule: str, messages: pd.Series | Distinct | str,
             severity: str = "error") -> None:
        """An issue for each row where ``bad`` (the cell's text and message are only looked up there)."""
        for i in np.flatnonzero(np.asarray(bad, dtype=bool)).tolist():
            msg = messages if isinstance(messages, str) else _at(messages, i)
            val = _at(values, i)
            self.records.append({"source": self.raw.source, "sheet": self.raw.sheet, "row": int(rows.iloc[i]),
                                 "column": column if isinstance(column, str) else str(column.iloc[i]),
                                 "value": "" if pd.isna(val) else norm.shown(str(val), 60),
                                 "rule": rule, "severity": severity, "message": msg})


def _at(values: pd.Series | Distinct, position: int) -> object:
    return values.at(position) if isinstance(values, Distinct) else values.iloc[position]


def type_cells(s: RateSheet, cells: pd.DataFrame, layout: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the frame of readable rows, the unread rows) for ``cells``.

    Every column is read by its distinct texts (:class:`Distinct`); only the checks that join two
    columns (a price's currency mark against the row's currency, decimals against DecimalPlaces)
    look at rows, as NumPy masks.
    """
    ok = cells["ok"].to_numpy().copy()
    rows = cells["row"]
    index = cells.index

    def required(name: str, column: Distinct, what: str) -> None:
        blank = column.blank()
        if blank.any():
            s.flag(blank & s.not_problem(rows, s.col(name)), rows, s.col(name), column, "missing_value",
                   f"{what} is blank: fill it in")
            ok[blank] = False

    hotel_text = Distinct.of(cells["hotel_code"])
    required("hotel_code", hotel_text, "the property id (HotelCode)")
    hotel_values, err = norm.parse_ints(hotel_text.values, "a property id (a whole number)")
    bad = hotel_text.rows(err.notna(), False)
    s.flag(bad, rows, s.col("hotel_code"), hotel_text, "not_a_number", hotel_text.derived(err))
    ok &= ~bad
    hotel = hotel_text.take(hotel_values, index)

    codes = {}
    for name, what in (("inv_type_code", "the room type id (InvTypeCode)"),
                       ("rate_plan_code", "the rate plan id (RatePlanCode)")):
        code = Distinct.of(cells[name])
        code = code.derived(norm.parse_codes(code.values))
        required(name, code, what)
        yes_no_values = code.values.str.strip().str.casefold().isin(norm.BOOLEAN_WORDS).fillna(False)
        yes_no = code.rows(yes_no_values.to_numpy(dtype=bool), False)
        s.flag(yes_no, rows, s.col(name), code, "not_a_value",
               code.derived("`" + code.values + f"` is a yes/no value (TRUE/FALSE), not {what}"))
        ok &= ~yes_no
        codes[name] = code.take(code.values, index)

    currency_text = Distinct.of(cells["currency_code"])
    currency_values = currency_text.values.str.strip().str.upper()
    required("currency_code", currency_text.derived(currency_values), "the currency (CurrencyCode)")
    bad_cur_values = ~currency_values.str.fullmatch(r"[A-Z]{3}").fillna(False).to_numpy(dtype=bool)
    bad_cur = currency_text.rows(bad_cur_values, False)
    s.flag(bad_cur, rows, s.col("currency_code"), currency_text, "currency_code",
           "a currency is a three-letter ISO 4217 code such as EUR")
    ok &= ~bad_cur
    currency_values = currency_values.mask(bad_cur_values)
    currency = currency_text.take(currency_values, index)

    guests = _optional_ints(s, cells, "number_of_guests", "a number of guests (a whole number)", ok)[0]
    dp, dp_text, dp_values = _optional_ints(s, cells, "decimal_places", "a number of decimal places (0 to 4)", ok,
                                            rule="decimal_places")
    if dp_text is not None and dp_values is not None:
        out_of_range = dp_values.notna() & ~dp_values.between(0, 4).fillna(False)
        bad = dp_text.rows(out_of_range.to_numpy(dtype=bool), False)
        s.flag(bad, rows, s.col("decimal_places"), dp_text, "decimal_places", "DecimalPlaces must be between 0 and 4")
        ok &= ~bad
        dp_values = dp_values.mask(out_of_range)
        dp = dp_text.take(dp_values, index)
        dp_given = dp_text.rows(dp_values.notna().to_numpy(dtype=bool), False)
    else:
        dp_given = np.zeros(len(cells), dtype=bool)

    amount_text = Distinct.of(cells["amount_text"])
    amounts, err = norm.parse_amounts(amount_text.values)
    amount_col = cells["amount_column"]
    bad = amount_text.rows(err.notna(), False)
    s.flag(bad, rows, amount_col, amount_text, "not_a_number", amount_text.derived(err.fillna("")))
    amount_ok = ~bad & cells["amount_ok"].to_numpy()
    marked = amount_text.rows(amounts["currencies"].notna(), False)
    if marked.any():  # `€ 99,50`: the mark must agree with the row's currency
        clash, clash_text = _currency_clash(amount_text, amounts["currencies"], currency_text, currency_values,
                                            marked)
        s.flag(clash, rows, amount_col, amount_text, "amount_currency", clash_text)
        amount_ok &= ~clash
    scaled = dp_given & amount_text.rows(amounts["scale"].fillna(0).gt(0), False)
    s.flag(scaled, rows, amount_col, amount_text, "decimal_places",
           "with DecimalPlaces given, the amount must be a whole number of the smallest unit "
           "(e.g. 8550 with DecimalPlaces 2 for 85.50); remove the decimals or clear DecimalPlaces")
    amount_ok &= ~scaled
    if dp_text is not None:  # DecimalPlaces written but unreadable: scale unknown, amount unknown
        amount_ok &= ~(~dp_text.blank() & ~dp_given)
    ok &= amount_ok
    minor, scale = amount_text.take(amounts["minor"], index), amount_text.take(amounts["scale"], index)
    value = pd.Series(amount_text.rows(amounts["value"], np.nan), index=index, copy=False)
    has_dp = dp_given & amount_ok
    if has_dp.any():  # 8550 with DecimalPlaces=2 is 85.50
        has = pd.Series(has_dp, index=index)
        d = dp[has].astype("int64")
        value = value.where(~has, value / np.power(10.0, dp.fillna(0).astype("int64")))
        m, sc = _normalize_scaled(minor[has].astype("int64"), d)
        minor[has], scale[has] = m, sc
    unknown = ~amount_ok
    if unknown.any():
        minor[unknown], scale[unknown], value[unknown] = pd.NA, pd.NA, np.nan

    if layout == "long":
        date_text = Distinct.of(cells["date"])
        required("date", date_text, "the night (Date)")
        date_values, err = norm.parse_dates(date_text.values)
        dates = pd.Series(date_text.rows(date_values, np.datetime64("NaT")), index=index, copy=False)
        bad = date_text.rows(err.notna(), False)
        s.flag(bad, rows, s.col("date"), date_text, "not_a_date", date_text.derived(err))
        ok &= ~bad
    elif layout == "wide":
        dates = pd.Series(cells["date_value"].to_numpy(), index=index, copy=False)
    out = pd.DataFrame({
        "hotel_code": hotel, "inv_type_code": codes["inv_type_code"], "rate_plan_code": codes["rate_plan_code"],
        "number_of_guests": guests, "amount": value, "amount_minor": minor, "amount_scale": scale,
        "amount_type": cells["amount_type"], "decimal_places": dp, "currency_code": currency,
        "source": repeated(s.raw.source, index), "sheet": repeated(s.raw.sheet, index), "row": rows,
        "amount_column": cells["amount_column"],
    }, copy=False)
    if layout == "range":
        return expand_ranges(s, cells, out, ok)
    out.insert(3, "date", dates)
    if ok.all():  # the common clean file: no copy of a million rows to keep them all
        return _typed(out), _typed(out.iloc[:0])
    return _typed(out[ok]), _typed(out[~ok])


def repeated(text: str, index: pd.Index) -> pd.Series:
    """``text`` on every row, as a string column built from its Arrow buffers (no million Python
    objects, no per-row work: a source or sheet name, or the one amount column of a sheet)."""
    return repeated_blocks([text], [len(index)], index)


def repeated_blocks(texts: Sequence[str], sizes: Sequence[int] | np.ndarray, index: pd.Index) -> pd.Series:
    """``texts[0]`` on the first ``sizes[0]`` rows, then ``texts[1]`` on the next ``sizes[1]``, ...: a string
    column built from its Arrow buffers (each text's bytes repeated, its offsets counted), as :func:`repeated`
    (a million rows: 3 ms, where taking them from an array of the texts copies each row's text: 12 ms)."""
    encoded = [t.encode() for t in texts]
    counts = np.asarray(sizes, dtype=np.int64)
    lengths = np.repeat(np.array([len(e) for e in encoded], dtype=np.int64), counts)
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    data = b"".join(e * int(n) for e, n in zip(encoded, counts, strict=True))
    arr = pa.LargeStringArray.from_buffers(len(lengths), pa.py_buffer(offsets), pa.py_buffer(data))
    return pd.Series(pd.arrays.ArrowStringArray(arr), index=index, copy=False)


def _currency_clash(amount_text: Distinct, marks: pd.Series, currency_text: Distinct, currency_values: pd.Series,
                    marked: np.ndarray) -> tuple[np.ndarray, Distinct]:
    """The rows whose price carries a currency mark (``€ 99,50``) that is not the row's currency, and
    the message for each; every (price, currency) pair met is read once."""
    n_currencies = len(currency_values) + 1
    known = currency_text.rows(currency_values.notna(), False)
    at = np.flatnonzero(marked & known)
    pairs, pair_codes = np.unique(amount_text.codes[at].astype(np.int64) * n_currencies + currency_text.codes[at],
                                  return_inverse=True)
    clash_pairs = np.zeros(len(pairs), dtype=bool)
    texts = []
    for k, pair in enumerate(pairs):
        a, c = divmod(int(pair), n_currencies)
        mark, cur = str(marks.iloc[a]), str(currency_values.iloc[c])
        clash_pairs[k] = cur not in mark.split()
        texts.append(_clash(str(amount_text.values.iloc[a]), mark, cur))
    clash = np.zeros(len(marked), dtype=bool)
    clash[at] = clash_pairs[pair_codes]
    codes = np.full(len(marked), -1, dtype=np.int64)
    codes[at] = pair_codes
    return clash, Distinct(codes, pd.Series(texts, dtype=object))


def _clash(text: str, codes: str, currency: str) -> str:
    options = str(codes).split()
    said = options[0] if len(options) == 1 else "one of " + ", ".join(options[:4]) + (" …" if len(options) > 4 else "")
    return (f"`{text}` is written in {said}, but the row's currency (CurrencyCode) is {currency}: give the price "
            f"in {currency}, or correct CurrencyCode")


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.astype(RATES_COLUMNS)[list(RATES_COLUMNS)].reset_index(drop=True)


def _optional_ints(s: RateSheet, cells: pd.DataFrame, name: str, what: str, ok: np.ndarray,
                   rule: str = "not_a_number") -> tuple[pd.Series, Distinct | None, pd.Series | None]:
    """The column's whole numbers (NA when blank or absent), its distinct texts, and their numbers."""
    if name not in cells:
        n = len(cells)
        return pd.Series(pd.arrays.IntegerArray(np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool)),
                         index=cells.index, copy=False), None, None
    text = Distinct.of(cells[name])
    values, err = norm.parse_ints(text.values, what)
    bad = text.rows(err.notna(), False)
    s.flag(bad, cells["row"], s.col(name), text, rule, text.derived(err))
    ok &= ~bad
    return text.take(values, cells.index), text, values


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
    nights = range_nights(s, cells, ok)
    expanded = out.iloc[nights.rows].reset_index(drop=True)
    expanded.insert(3, "date", nights.dates)
    # an unread range row stands for its first and last nights (for the rules on nights)
    bad = out[~ok]
    unread = pd.concat([bad.assign(date=nights.start[~ok]), bad.assign(date=nights.end[~ok])], ignore_index=True)
    unread = unread.drop_duplicates(subset=["row", "date"]).reset_index(drop=True)
    return _typed(expanded), _typed(unread)


@dataclass(frozen=True)
class RangeNights:
    """The nights of a sheet's range rows: ``rows[i]`` (a position in the sheet's rows) sets night
    ``dates[i]``; ``start`` and ``end`` are each row's bounds as read (NaT where unreadable)."""

    rows: np.ndarray
    dates: np.ndarray
    start: pd.Series
    end: pd.Series


def range_nights(s: RateSheet, cells: pd.DataFrame, ok: np.ndarray) -> RangeNights:
    """Read the ``Start``, ``End`` and weekday cells of range rows (an issue for each one that cannot be
    used, its row cleared in ``ok``) and expand the ``ok`` rows into the nights they set, by the spec's
    weekday rules."""
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
    wd = pd.DatetimeIndex(dates).day_of_week.to_numpy()
    applies = mask[rep, wd]
    return RangeNights(rep[applies], dates[applies], start, end)


def weekday_mask(flags: pd.DataFrame) -> np.ndarray:
    """The spec's weekday rules, per row, as a (rows x 7) bool array Mon..Sun.

    (1) some days true, others omitted -> omitted days are false; (2) some explicitly false and
    none true -> every day; (3) all omitted -> every day.
    """
    vals = flags[list(WEEKDAYS)].astype("boolean")
    is_true = vals.fillna(False).to_numpy(dtype=bool)
    any_true = is_true.any(axis=1)
    return np.where(any_true[:, None], is_true, True)

