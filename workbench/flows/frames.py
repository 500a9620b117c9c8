"""Rates given as pandas frames, read exactly as the same table in a sheet would be.

``check_rates`` takes frames beside files. A frame is a sheet in the long layout: its column names
are matched like a sheet's headers (``HotelCode`` or ``hotel_code``, ``Date``, ``AmountAfterTax`` or
``amount``, ...), every cell is read from the text a sheet would show, and a cell that cannot be
read becomes an issue, as for a file. (The wide and range layouts are recognised too.)

Provenance: ``source`` is ``<DataFrame 1>``, ``<DataFrame 2>``, ... (the frames counted in the order
given), ``sheet`` is blank and ``row`` is the row's position in the frame + 2: the Excel row the
same frame has when written with ``frame.to_excel(path, index=False)`` (header = row 1), so
``frame.iloc[row - 2]`` is the row an issue is about. The index is not read.

A canonical rates frame (``check.frame``, ``read_rates(...).frame``, filtered or edited) reads
back as the same prices: its ``amount`` goes under ``AmountAfterTax`` or ``AmountBeforeTax`` as its
``amount_type`` says; its own ``source``/``sheet``/``row`` columns are not read.
"""

from __future__ import annotations

import csv
import datetime as dt
import decimal
import numbers
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from loaders import Loaded, LoadError, read_rates
from loaders.headers import match_headers, missing_columns_error
from loaders.schemas import RATE_FIELDS

#: Columns that mark a canonical rates frame (``loaders.RATES_COLUMNS``), as opposed to a sheet's.
CANONICAL = ("amount", "amount_type", "amount_minor", "amount_scale")


def frame_source(n: int) -> str:
    """The ``source`` of the ``n``-th frame given (1-based)."""
    return f"<DataFrame {n}>"


def read_rates_frame(frame: pd.DataFrame, n: int) -> Loaded:
    """Read ``frame`` like a sheet (see the module docstring); ``n`` numbers it among the frames given."""
    source = frame_source(n)
    if frame.shape[1] == 0:
        raise LoadError(f"`{source}` has no columns: give a frame with the columns of a rates sheet "
                        "(`HotelCode`, `InvTypeCode`, `RatePlanCode`, `Date`, `AmountAfterTax`, `CurrencyCode`).",
                        source=source)
    table = _sheet_columns(frame)
    header = [_header_text(c) for c in table.columns]
    body = pd.DataFrame({i: _column_text(col) for i, (_, col) in enumerate(table.items())})
    with tempfile.TemporaryDirectory(prefix="workbench-frame-") as tmp:
        name = f"workbench-frame-{n}.csv"
        path = Path(tmp) / name
        # every cell quoted: the reader recognises the comma at once, whatever the cells hold
        body.to_csv(path, header=header, index=False, quoting=csv.QUOTE_ALL, encoding="utf-8", lineterminator="\n")
        try:
            loaded = read_rates(path)
        except LoadError as exc:
            raise (_not_long(header, source) or LoadError(_renamed(str(exc), name, source), source=source)) from None
    return _relabel(loaded, name, source)


def _not_long(header: list[str], source: str) -> LoadError | None:
    """For a frame in no layout at all: every column the long layout needs that it lacks (the reader
    names only the first thing it misses)."""
    found = match_headers(header, RATE_FIELDS, source=source, sheet="")
    if {"date", "start", "end"} & set(found):
        return None
    needed = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "currency_code"]
    if "amount_before_tax" not in found:
        needed.insert(4, "amount_after_tax")
    missing = [f for f in RATE_FIELDS if f.name in needed and f.name not in found]
    return missing_columns_error(missing, source=source, sheet="", header=header,
                                 extra="A frame is read like a sheet in the long layout: one row per hotel, room, "
                                       "rate plan and night (AmountBeforeTax may be given instead of AmountAfterTax).")


def _sheet_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """A canonical frame's amounts back under the sheet's two amount columns; others as given."""
    if not all(c in frame.columns for c in CANONICAL):
        return frame
    before = frame["amount_type"].astype("string").str.casefold().eq("beforetax").fillna(False).to_numpy()
    amount = frame["amount"]
    out = frame.drop(columns=[c for c in (*CANONICAL, "decimal_places") if c in frame.columns])
    out["AmountAfterTax"] = amount.where(~before)
    out["AmountBeforeTax"] = amount.where(before)
    return out


def _header_text(label: object) -> str:
    if isinstance(label, tuple):  # MultiIndex columns
        return " ".join(_cell_text(p) for p in label if _cell_text(p))
    return _cell_text(label)


def _column_text(col: pd.Series) -> pd.Series:
    """The text a sheet would show for each cell (blank for missing), formatted once per distinct value."""
    codes, uniques = pd.factorize(col.astype(object) if isinstance(col.dtype, pd.CategoricalDtype) else col,
                                  use_na_sentinel=True)
    texts = np.array([_cell_text(v) for v in np.asarray(uniques, dtype=object)] + [""], dtype=object)
    return pd.Series(texts[codes], index=col.index, dtype=object)  # code -1 (missing) takes the last: ""


def _cell_text(v: object) -> str:
    if v is None or v is pd.NA or v is pd.NaT:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (np.datetime64, dt.datetime, dt.date)):
        ts = pd.Timestamp(v)
        if pd.isna(ts):
            return ""
        return ts.strftime("%Y-%m-%d") if ts == ts.normalize() else ts.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(v, decimal.Decimal):
        return "" if v.is_nan() else format(v, "f")
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        f = float(v)
        if np.isnan(f):
            return ""
        text = f"{f:.15g}"  # as Excel shows a number: 15 significant digits, so 129.95 stays 129.95
        return np.format_float_positional(float(text), trim="-") if "e" in text else text
    return str(v)


def _renamed(text: str, name: str, source: str) -> str:
    return text.replace(f"`{name}`", f"`{source}`").replace(name, source)


def _relabel(loaded: Loaded, name: str, source: str) -> Loaded:
    frame, issues = loaded
    frame = frame.assign(source=frame["source"].replace(name, source).astype("string"))
    frame.attrs["headers"] = {(source if s == name else s, sheet): h
                              for (s, sheet), h in loaded.frame.attrs.get("headers", {}).items()}
    mine = issues["source"] == name
    issues = issues.copy()
    issues.loc[mine, "source"] = source
    issues.loc[mine, "message"] = issues.loc[mine, "message"].map(lambda m: _renamed(str(m), name, source))
    return Loaded(frame, issues)
