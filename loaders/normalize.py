"""Typing text cells: dates, exact amounts, integers, codes and weekday flags.

Each parser works on the distinct values of a column (a price list of a million rows has a few
hundred distinct prices), then maps the results back, so cost follows the distinct values.
Each returns the typed values and, for cells it could not read, the reason in words.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation

import numpy as np
import pandas as pd

from loaders.money import split_currency

EXCEL_EPOCH = dt.date(1899, 12, 30)
FIRST_YEAR, LAST_YEAR = 1900, 2199
_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]00:00(?::00(?:\.0+)?)?)?$")
_SERIAL = re.compile(r"^\d{1,6}(?:\.0+)?$")
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009']")
_INT = re.compile(r"^[+-]?\d+(?:\.0+)?$")


def _by_unique(values: pd.Series, parse):
    """Apply ``parse(text) -> (value, error)`` to each distinct non-blank value."""
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    parsed = [parse(u) for u in uniques]
    return codes, parsed


def parse_dates(values: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Text -> ``datetime64[ns]``; returns (dates, error text or NA per cell)."""
    codes, parsed = _by_unique(values, parse_date)
    n = len(values)
    out = np.full(n, np.datetime64("NaT"), dtype="datetime64[ns]")
    errors = np.full(n, None, dtype=object)
    if parsed:
        dvals = np.array([np.datetime64(p[0], "ns") if p[0] is not None else np.datetime64("NaT")
                          for p in parsed], dtype="datetime64[ns]")
        evals = np.array([p[1] for p in parsed], dtype=object)
        ok = codes >= 0
        out[ok] = dvals[codes[ok]]
        errors[ok] = evals[codes[ok]]
    return pd.Series(out, index=values.index), pd.Series(errors, index=values.index, dtype=object)


def parse_date(text: str) -> tuple[dt.date | None, str | None]:
    """One date cell: ``YYYY-MM-DD`` (midnight allowed) or an Excel serial number."""
    m = _ISO_DATE.match(text)
    if m:
        try:
            return _in_years(dt.date(int(m[1]), int(m[2]), int(m[3])), text)
        except ValueError:
            return None, f"`{text}` is not a real calendar date"
    if _SERIAL.match(text):
        serial = int(float(text))
        if 1 <= serial <= 2958465:
            return _in_years(EXCEL_EPOCH + dt.timedelta(days=serial), text)
    if re.match(r"^\d{4}-\d{1,2}-\d{1,2}[ T]\d", text):
        return None, f"`{text}` has a time of day; give the date only (YYYY-MM-DD)"
    return None, (f"`{text}` is not a date this tool reads without guessing: write it as YYYY-MM-DD "
                  "or format the cell as a date")


def _in_years(day: dt.date, text: str) -> tuple[dt.date | None, str | None]:
    """Nights outside 1900-2199 are no price list's (and beyond what a date column can hold)."""
    if day.year < FIRST_YEAR:
        return None, f"`{text}` is too far in the past: check the year"
    if day.year > LAST_YEAR:
        return None, f"`{text}` is too far in the future (the platform takes nights up to 5 years ahead): check the year"
    return day, None


def is_serial(text: str) -> bool:
    """Text that could be an Excel date serial number (a whole number of up to six digits)."""
    return bool(_SERIAL.match(text))


def is_serial_date(text: str) -> bool:
    """Text that is an Excel date serial number between 2000-01-01 and 9999-12-31."""
    return bool(_SERIAL.match(text)) and 36526 <= float(text) <= 2958465


BOOLEAN_WORDS = frozenset({"true", "false", "wahr", "falsch", "vrai", "faux", "verdadero", "falso", "vero"})
#: the largest amount read: 10**15 is beyond the platform's cap (50,000 EUR a night) in any currency
MAX_AMOUNT_DIGITS = 15
MAX_DECIMALS = 18
MAX_DIGITS = 18
THREE_DECIMAL_CURRENCIES = frozenset({"BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"})


def boolean_word(text: str) -> bool:
    """``TRUE``/``FALSE`` (an Excel boolean, or the word): a yes/no value, never a 1 or a 0."""
    return text.strip().casefold() in BOOLEAN_WORDS


def parse_decimal(text: str, grouping: bool = False) -> tuple[Decimal | None, str | None]:
    """An amount typed by a person: ``99.99``, ``1,234.50``, ``1.234,50``, ``449,50``, ``1 250,00``.

    ``grouping``: a single comma followed by three digits (``12,000``) is a thousands separator
    (the amount carries the mark of a currency with fewer than three decimals).
    """
    raw = text
    if boolean_word(text):
        return None, f"`{raw}` is a yes/no value (TRUE/FALSE), not a number: type the amount"
    t = _SPACES.sub("", text)
    if t.startswith("(") and t.endswith(")"):
        t = "-" + t[1:-1]
    if not t:
        return None, "the cell is blank"
    if re.search(r"[oO]", t) and re.fullmatch(r"[-+]?[\doO.,]+", t):
        return None, f"`{raw}` is not a number (letter O instead of zero?)"
    if "," in t and "." in t:
        dec = "," if t.rfind(",") > t.rfind(".") else "."
        thou = "." if dec == "," else ","
        whole, _, frac = t.rpartition(dec)
        if not _grouped(whole, thou):
            return None, f"`{raw}` mixes `.` and `,` in a way that is not a number"
        t = whole.replace(thou, "") + "." + frac
    elif "," in t:
        parts = t.split(",")
        if len(parts) > 2:
            if not _grouped(t, ","):
                return None, f"`{raw}` is not a number"
            t = t.replace(",", "")
        elif len(parts[1]) == 3 and parts[0].lstrip("+-") not in ("", "0"):
            if not (grouping and _grouped(t, ",")):
                return None, (f"`{raw}` is ambiguous (1,250 could be 1250 or 1.25): write it as a number "
                              "without a thousands separator")
            t = t.replace(",", "")
        else:
            t = t.replace(",", ".")
    elif t.count(".") > 1:
        if not _grouped(t, "."):
            return None, f"`{raw}` is not a number"
        t = t.replace(".", "")
    if len(t) > 400:
        return None, f"`{shown(raw)}` is not a number this tool can read (too many digits)"
    try:
        value = Decimal(t)
    except InvalidOperation:
        return None, f"`{raw}` is not a number"
    if not value.is_finite():
        return None, f"`{raw}` is not a number"
    if value != 0 and value.adjusted() >= MAX_AMOUNT_DIGITS:
        return None, (f"`{shown(raw)}` is beyond what the platform accepts (at most 50,000 EUR a night, or the "
                      "equivalent): check for extra digits")
    exact = value.normalize().as_tuple()
    if value != 0 and -exact.exponent > MAX_DECIMALS:  # type: ignore[operator]
        return None, f"`{shown(raw)}` has more than {MAX_DECIMALS} decimals and cannot be represented exactly: round it"
    if len(exact.digits) > MAX_DIGITS:  # the exact amount is kept as an int64 of its smallest unit
        return None, (f"`{shown(raw)}` has more than {MAX_DIGITS} significant digits and cannot be represented "
                      "exactly: round it")
    return value, None


def shown(text: str, width: int = 40) -> str:
    """A cell's text for a message: a long number is cut, saying how many digits it has."""
    if len(text) <= width:
        return text
    digits = sum(ch.isdigit() for ch in text)
    return f"{text[:16]}… ({digits} digits)" if digits > width // 2 else text[: width - 1] + "…"


def parse_money(text: str) -> tuple[Decimal | None, frozenset[str] | None, str | None]:
    """An amount, maybe with its currency (``€ 99,50``): (value, the codes its mark can mean, error)."""
    number, codes, _mark = split_currency(text)
    if codes is None:
        value, err = parse_decimal(text)
        return value, None, err
    if not codes:
        return None, None, f"`{text}` names two different currencies"
    value, err = parse_decimal(number, grouping=not (codes & THREE_DECIMAL_CURRENCIES))
    if err is not None:
        return None, None, err.replace(f"`{number}`", f"`{text}`", 1) if number != text else err
    return value, codes, None


def _grouped(number: str, sep: str) -> bool:
    body = number.lstrip("+-")
    groups = body.split(sep)
    return bool(groups[0]) and len(groups[0]) <= 3 and all(len(g) == 3 and g.isdigit() for g in groups[1:]) \
        and groups[0].isdigit()


def split_decimal(value: Decimal) -> tuple[int, int]:
    """An exact decimal as (integer units, scale) with trailing zeros removed: 99.90 -> (999, 1)."""
    sign, digits, exp = value.normalize().as_tuple()
    n = int("".join(map(str, digits))) if digits else 0
    if sign:
        n = -n
    if not isinstance(exp, int):  # 'n', 'N' or 'F': NaN or infinity has no units and scale
        raise ValueError(f"{value} is not a finite number")
    if exp >= 0:
        return n * 10 ** exp, 0
    return n, -exp


def parse_amounts(values: pd.Series) -> tuple[pd.DataFrame, pd.Series]:
    """Text -> exact amounts: columns ``minor`` (Int64), ``scale`` (Int64), ``value`` (float64) and
    ``currencies`` (the ISO codes a currency mark in the cell can mean, space-separated; NA without one)."""
    def parse(text: str):
        value, codes, err = parse_money(text)
        if err or value is None:  # parse_money gives a value exactly when it gives no error
            return None, err
        minor, scale = split_decimal(value)
        return (minor, scale, float(value), " ".join(sorted(codes)) if codes else None), None

    codes, parsed = _by_unique(values, parse)
    n = len(values)
    minor = np.zeros(n, dtype="int64")
    scale = np.zeros(n, dtype="int64")
    value = np.full(n, np.nan)
    valid = np.zeros(n, dtype=bool)
    errors = np.full(n, None, dtype=object)
    marks = np.full(n, None, dtype=object)
    if parsed:
        pm = np.array([p[0][0] if p[0] else 0 for p in parsed], dtype="int64")
        ps = np.array([p[0][1] if p[0] else 0 for p in parsed], dtype="int64")
        pv = np.array([p[0][2] if p[0] else np.nan for p in parsed], dtype="float64")
        pc = np.array([p[0][3] if p[0] else None for p in parsed], dtype=object)
        pok = np.array([p[0] is not None for p in parsed], dtype=bool)
        pe = np.array([p[1] for p in parsed], dtype=object)
        ok = codes >= 0
        c = codes[ok]
        minor[ok], scale[ok], value[ok], valid[ok], errors[ok], marks[ok] = pm[c], ps[c], pv[c], pok[c], pe[c], pc[c]
    frame = pd.DataFrame({
        "minor": pd.array(np.where(valid, minor, 0), dtype="Int64"),
        "scale": pd.array(np.where(valid, scale, 0), dtype="Int64"),
        "value": value,
        "currencies": pd.array(marks, dtype="string"),
    }, index=values.index)
    frame.loc[~valid, ["minor", "scale"]] = pd.NA
    return frame, pd.Series(errors, index=values.index, dtype=object)


def parse_ints(values: pd.Series, what: str = "a whole number") -> tuple[pd.Series, pd.Series]:
    """Text -> Int64 (``3`` and ``3.0`` both read as 3)."""
    def parse(text: str):
        if _INT.match(text):
            number = int(text.split(".")[0])
            if abs(number) >= 2**63:
                return None, f"`{text}` is too large for {what}"
            return number, None
        if boolean_word(text):
            return None, f"`{text}` is a yes/no value (TRUE/FALSE), not {what}"
        return None, f"`{text}` is not {what}"

    codes, parsed = _by_unique(values, parse)
    n = len(values)
    ints = np.zeros(n, dtype="int64")
    valid = np.zeros(n, dtype=bool)
    errors = np.full(n, None, dtype=object)
    if parsed:
        pi = np.array([p[0] if p[0] is not None else 0 for p in parsed], dtype="int64")
        pok = np.array([p[0] is not None for p in parsed], dtype=bool)
        pe = np.array([p[1] for p in parsed], dtype=object)
        ok = codes >= 0
        ints[ok], valid[ok], errors[ok] = pi[codes[ok]], pok[codes[ok]], pe[codes[ok]]
    out = pd.array(ints, dtype="Int64")
    out[~valid] = pd.NA
    return pd.Series(out, index=values.index), pd.Series(errors, index=values.index, dtype=object)


def parse_codes(values: pd.Series) -> pd.Series:
    """Identifiers as text; a number written by a spreadsheet as ``101.0`` is ``101``."""
    s = values.astype("string")
    return s.str.replace(r"^(\d+)\.0+$", r"\1", regex=True)


TRUE_WORDS = {"1", "true", "yes", "y", "x", "ja", "oui", "si", "wahr", "1.0"}
FALSE_WORDS = {"0", "false", "no", "n", "nein", "non", "falsch", "0.0"}


def parse_flags(values: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Weekday flags: True / False / NA (blank = omitted, which the weekday rules tell apart)."""
    def parse(text: str):
        t = text.strip().casefold()
        if t in TRUE_WORDS:
            return True, None
        if t in FALSE_WORDS:
            return False, None
        return None, f"`{text}` is not a yes/no flag: use 1 or 0 (or leave blank)"

    codes, parsed = _by_unique(values, parse)
    out = pd.array([pd.NA] * len(values), dtype="boolean")
    errors = np.full(len(values), None, dtype=object)
    if parsed:
        pv = [p[0] for p in parsed]
        for i, c in enumerate(codes):
            if c >= 0:
                if pv[c] is not None:
                    out[i] = pv[c]
                errors[i] = parsed[c][1]
    return pd.Series(out, index=values.index), pd.Series(errors, index=values.index, dtype=object)


def decimal_text(minor: int, scale: int) -> str:
    """The exact decimal text of ``minor * 10**-scale``: (9999, 2) -> ``99.99`` (blank when unknown)."""
    if pd.isna(minor) or pd.isna(scale):
        return ""
    return str(Decimal(int(minor)).scaleb(-int(scale)))
