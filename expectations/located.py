"""Which room-rate and nights each issue is about, from the rates frame it points into.

An issue names a cell (``source, sheet, row, column``); the rates frame knows the property, room,
rate plan and night of every cell it read (``amount_column``), and the loader keeps the rows it
could not read in full (``loaders.unread``). An issue on a price cell gets that cell's night; an
issue on another cell of the row (a currency, a room id) gets the row's nights (several for a
range row or a wide row). Issues with no row (a room-rate's coverage, a whole file) stay blank.
"""

from __future__ import annotations

import pandas as pd

from loaders.unread import unread_rows

#: Columns :func:`locate_issues` returns, index-aligned with the issues.
LOCATION_COLUMNS: dict[str, str] = {"hotel_code": "Int64", "inv_type_code": "string", "rate_plan_code": "string",
                                    "first": "datetime64[ns]", "last": "datetime64[ns]"}
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
    parts = [rates]
    held = unread_rows(rates)
    if held is not None:
        parts.append(held)
    cols = [*_KEY, "amount_column", *_WHAT, "date"]
    f = pd.concat([p[cols] for p in parts], ignore_index=True) if len(parts) > 1 else rates[cols]
    f = f[f["row"].notna()]
    if f.empty:
        return out
    f = f.astype({"row": "int64"})
    issue_rows = issues["row"].astype("Int64")
    located = issue_rows.notna()
    if not located.any():
        return out
    iss = issues.loc[located, ["source", "sheet", "column"]].assign(row=issue_rows[located].astype("int64"))
    iss = iss.assign(source=iss["source"].astype("string").fillna(""), sheet=iss["sheet"].astype("string").fillna(""),
                     column=iss["column"].astype("string").fillna(""))
    f = f.assign(source=f["source"].astype("string").fillna(""), sheet=f["sheet"].astype("string").fillna(""),
                 amount_column=f["amount_column"].astype("string").fillna(""))
    by_cell = _spans(f, [*_KEY, "amount_column"]).rename(columns={"amount_column": "column"})
    by_row = _spans(f, _KEY)
    cell = iss.reset_index().merge(by_cell, on=[*_KEY, "column"], how="left").set_index("index")
    row = iss.reset_index().merge(by_row, on=_KEY, how="left").set_index("index")
    use_cell = cell["first"].notna() | cell["hotel_code"].notna()
    for c, t in LOCATION_COLUMNS.items():
        values = cell[c].where(use_cell, row[c])
        out.loc[values.index, c] = values.astype(t)
    return out


def _spans(f: pd.DataFrame, key: list[str]) -> pd.DataFrame:
    """Per ``key``: the property, room and rate when all its rows agree (else blank), first and last night."""
    g = f.groupby(key, sort=False, dropna=False)
    out = g.agg(first=("date", "min"), last=("date", "max"),
                **{c: (c, "first") for c in _WHAT}, **{f"n_{c}": (c, "nunique") for c in _WHAT})
    for c in _WHAT:
        out[c] = out[c].where(out[f"n_{c}"] <= 1)
    return out.drop(columns=[f"n_{c}" for c in _WHAT]).reset_index()
