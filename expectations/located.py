"""Which room-rate and nights each issue is about, from the rates frame it points into.

An issue names a cell (``source, sheet, row, column``); the rates frame knows the property, room,
rate plan and night of every cell it read (``amount_column``), and the loader keeps the rows it
could not read in full (``loaders.unread``). An issue on a price cell gets that cell's night; an
issue on another cell of the row (a currency, a room id) gets the row's nights (several for a
range row or a wide row). Issues with no row (a whole file) stay blank. A few rules are about a
whole room-rate or property although they sit on its first row: they get no night (:data:`ROOM_RATE_RULES`)
or only the property (:data:`PROPERTY_RULES`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from loaders.unread import unread_rows

#: Columns :func:`locate_issues` returns, index-aligned with the issues.
LOCATION_COLUMNS: dict[str, str] = {"hotel_code": "Int64", "inv_type_code": "string", "rate_plan_code": "string",
                                    "first": "datetime64[ns]", "last": "datetime64[ns]"}
#: Rules about a room-rate as a whole (on its first row): located to the room-rate, not to a night.
ROOM_RATE_RULES = frozenset({"coverage"})
#: Rules about a property as a whole (on its first row): located to the property only.
PROPERTY_RULES = frozenset({"not_checked", "unknown_property"})
_KEY = ["source", "sheet", "row"]
_WHAT = ["hotel_code", "inv_type_code", "rate_plan_code"]


def empty_locations(index: pd.Index | None = None) -> pd.DataFrame:
    index = index if index is not None else pd.RangeIndex(0)
    return pd.DataFrame({c: pd.Series(pd.NA if t != "datetime64[ns]" else pd.NaT, index=index, dtype=t)
                         for c, t in LOCATION_COLUMNS.items()})


def locate_issues(issues: pd.DataFrame, rates: pd.DataFrame | None) -> pd.DataFrame:
    """Per issue (same index): ``hotel_code, inv_type_code, rate_plan_code, first, last`` (the nights
    it is about, ``first == last`` for one night); blank where the rates do not say."""
    out = empty_locations(issues.index)
    if rates is None or issues.empty:
        return out
    held = unread_rows(rates)
    cols = [*_KEY, "amount_column", *_WHAT, "date"]
    f = pd.concat([rates[cols], held[cols]], ignore_index=True) if held is not None else rates[cols]
    f = f[f["row"].notna()]
    if f.empty or issues["row"].notna().sum() == 0:
        return out
    # every key as one int64: (source, sheet) code, row, and for a cell the column's code
    src_f, src_i = _codes(f["source"], issues["source"])
    sh_f, sh_i = _codes(f["sheet"], issues["sheet"])
    col_f, col_i = _codes(f["amount_column"], issues["column"])
    n_sheets, n_cols = int(max(sh_f.max(), sh_i.max())) + 2, int(max(col_f.max(), col_i.max())) + 2
    row_f = (src_f * n_sheets + sh_f) * (1 << 32) + f["row"].to_numpy(dtype=np.int64)
    issue_row = issues["row"].astype("Int64")
    row_i = (src_i * n_sheets + sh_i) * (1 << 32) + issue_row.fillna(-1).to_numpy(dtype=np.int64)
    what, first_row = combined_codes([f[c] for c in _WHAT])
    combos = f[_WHAT].iloc[first_row].reset_index(drop=True)
    day = f["date"].to_numpy("datetime64[D]").astype(np.int64)
    day = np.where(f["date"].isna().to_numpy(), np.iinfo(np.int64).min, day)
    cell = _spans(row_f * n_cols + col_f, what, day, row_i * n_cols + col_i)
    row = _spans(row_f, what, day, row_i)
    use_cell = cell[0] >= 0
    found = np.where(use_cell, cell[0], row[0])
    first = np.where(use_cell, cell[1], row[1])
    last = np.where(use_cell, cell[2], row[2])
    found[issue_row.isna().to_numpy()] = -1
    known = found >= 0
    for c in _WHAT:
        values = combos[c].take(np.where(known, found, 0)).to_numpy()
        out[c] = pd.Series(values, index=issues.index).astype(LOCATION_COLUMNS[c]).where(known)
    whole = issues["rule"].isin(ROOM_RATE_RULES | PROPERTY_RULES).to_numpy(dtype=bool, na_value=False)
    for c in ("inv_type_code", "rate_plan_code"):
        out[c] = out[c].mask(issues["rule"].isin(PROPERTY_RULES).to_numpy(dtype=bool, na_value=False))
    no_day = ~known | (first == np.iinfo(np.int64).min) | whole
    for c, days in (("first", first), ("last", last)):
        stamps = np.where(no_day, 0, days).astype("datetime64[D]").astype("datetime64[ns]")
        out[c] = pd.Series(stamps, index=issues.index).where(~no_day)
    return out


def combined_codes(columns: list[pd.Series] | list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """One code per distinct combination of the columns' values (a missing value is a value), numbered
    in order of appearance, and the position of each code's first row; without building tuples."""
    code = np.zeros(len(columns[0]), dtype=np.int64)
    for col in columns:
        part, uniques = pd.factorize(col, use_na_sentinel=False)
        code, _ = pd.factorize(code * (len(uniques) + 1) + part)
    code = code.astype(np.int64)
    first = np.full(int(code.max()) + 1 if len(code) else 0, len(code), dtype=np.int64)
    np.minimum.at(first, code, np.arange(len(code)))
    return code, first


def _codes(a: pd.Series, b: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Codes of ``a`` and ``b`` in one numbering (a blank is ``""``)."""
    both = pd.concat([a.astype("string").fillna(""), b.astype("string").fillna("")], ignore_index=True)
    codes, _ = pd.factorize(both)
    return codes[:len(a)].astype(np.int64), codes[len(a):].astype(np.int64)


def _spans(key: np.ndarray, what: np.ndarray, day: np.ndarray, wanted: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each ``wanted`` key: the (hotel, room, rate) code when all its rows agree (-1 when they do
    not, or the key is unknown), and its first and last day."""
    g = pd.DataFrame({"k": key, "w": what, "d": day}).groupby("k", sort=False)
    agg = pd.DataFrame({"wmin": g["w"].min(), "wmax": g["w"].max(), "dmin": g["d"].min(), "dmax": g["d"].max()})
    at = agg.reindex(wanted)
    w = np.where(at["wmin"].to_numpy() == at["wmax"].to_numpy(), at["wmin"].to_numpy(), -1)
    w = np.nan_to_num(w.astype(np.float64), nan=-1).astype(np.int64)
    lo = np.nan_to_num(at["dmin"].to_numpy(dtype=np.float64), nan=np.iinfo(np.int64).min).astype(np.int64)
    hi = np.nan_to_num(at["dmax"].to_numpy(dtype=np.float64), nan=np.iinfo(np.int64).min).astype(np.int64)
    return w, lo, hi
