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

EXCEL_EPOCH = dt.date(1899, 12, 30)
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
    codes, parsed = _by_unique(values, _parse_date)
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


def _parse_date(text: str) -> tuple[dt.date | None, str | None]:
    m = _ISO_DATE.match(text)
    if m:
        try:
            return dt.date(int(m[1]), int(m[2]), int(m[3])), None
        except ValueError:
            return None, f"`{text}` is not a real calendar date"
    if _SERIAL.match(text):
        serial = int(float(text))
        if 1 <= serial <= 2958465:
            return EXCEL_EPOCH + dt.timedelta(days=serial), None
    if re.match(r"^\d{4}-\d{1,2}-\d{1,2}[ T]\d", text):
        return None, f"`{text}` has a time of day; give the date only (YYYY-MM-DD)"
    return None, (f"`{text}` is not a date this tool reads without guessing: write it as YYYY-MM-DD "
                  "or format the cell as a date")


def parse_decimal(text: str) -> tuple[Decimal | None, str | None]:
    """An amount typed by a person: ``99.99``, ``1,234.50``, ``1.234,50``, ``449,50``, ``1 250,00``."""
    raw = text
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
            return None, (f"`{raw}` is ambiguous (1,250 could be 1250 or 1.25): write it as a number "
                          "without a thousands separator")
        else:
            t = t.replace(",", ".")
    elif t.count(".") > 1:
        if not _grouped(t, "."):
            return None, f"`{raw}` is not a number"
        t = t.replace(".", "")
    try:
        value = Decimal(t)
    except InvalidOperation:
        return None, f"`{raw}` is not a number"
    if not value.is_finite():
        return None, f"`{raw}` is not a number"
    return value, None


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
    """Text -> exact amounts: columns ``minor`` (Int64), ``scale`` (Int64), ``value`` (float64)."""
    def parse(text: str):
        value, err = parse_decimal(text)
        if err or value is None:  # parse_decimal gives a value exactly when it gives no error
            return None, err
        minor, scale = split_decimal(value)
        return (minor, scale, float(value)), None

    codes, parsed = _by_unique(values, parse)
    n = len(values)
    minor = np.zeros(n, dtype="int64")
    scale = np.zeros(n, dtype="int64")
    value = np.full(n, np.nan)
    valid = np.zeros(n, dtype=bool)
    errors = np.full(n, None, dtype=object)
    if parsed:
        pm = np.array([p[0][0] if p[0] else 0 for p in parsed], dtype="int64")
        ps = np.array([p[0][1] if p[0] else 0 for p in parsed], dtype="int64")
        pv = np.array([p[0][2] if p[0] else np.nan for p in parsed], dtype="float64")
        pok = np.array([p[0] is not None for p in parsed], dtype=bool)
        pe = np.array([p[1] for p in parsed], dtype=object)
        ok = codes >= 0
        c = codes[ok]
        minor[ok], scale[ok], value[ok], valid[ok], errors[ok] = pm[c], ps[c], pv[c], pok[c], pe[c]
    frame = pd.DataFrame({
        "minor": pd.array(np.where(valid, minor, 0), dtype="Int64"),
        "scale": pd.array(np.where(valid, scale, 0), dtype="Int64"),
        "value": value,
    }, index=values.index)
    frame.loc[~valid, ["minor", "scale"]] = pd.NA
    return frame, pd.Series(errors, index=values.index, dtype=object)


def parse_ints(values: pd.Series, what: str = "a whole number") -> tuple[pd.Series, pd.Series]:
    """Text -> Int64 (``3`` and ``3.0`` both read as 3)."""
    def parse(text: str):
        if _INT.match(text):
            return int(float(text)) if "." in text else int(text), None
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
    """The exact decimal text of ``minor * 10**-scale``: (9999, 2) -> ``99.99``."""
    return str(Decimal(int(minor)).scaleb(-int(scale)))
