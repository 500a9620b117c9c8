"""The rows of a rates push: one line per spreadsheet cell, with its request's outcome and what the
platform said about it, on the cell it concerns (price, room, rate plan, date ...).

A notice goes to the rows of the message its ``RecordID`` names (:mod:`workbench.writers.attribution`);
the other rows of a refused request say they were not applied because of those. Rows not sent
(errors skipped, repeats, refused properties) get lines of their own (:func:`held_lines`,
:func:`not_sent_rows`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from workbench.writers.attribution import attribute
from workbench.writers.journal import Journal
from workbench.writers.outcome import NOT_SENT_ERRORS, join_texts, worst

#: ``PushResult.rows`` and ``PushResult.not_sent``: one row per spreadsheet row
ROW_COLUMNS = ["source", "sheet", "row", "column", "request_id", "hotel", "month", "nights", "outcome", "severity",
               "codes", "message", "ruid"]
NOT_SENT = NOT_SENT_ERRORS  # the outcome of a row left out by ``skip_invalid``


def rows_frame(j: Journal, run_id: int, headers: Mapping[tuple[str, str], Mapping[str, str]] | None = None
               ) -> pd.DataFrame:
    """One line per spreadsheet cell the run's answers concern: each row sent, on its price cell, or,
    when a notice is about its room, rate plan, currency, guests or date, on that cell instead. A
    notice goes to the rows of the message its ``RecordID`` names (see :mod:`workbench.writers.attribution`);
    the other rows of a refused request say they were not applied because of those."""
    cells = j.request_cells(run_id)
    if cells.empty:
        return pd.DataFrame(columns=ROW_COLUMNS)
    req = j.requests(run_id).set_index("request_id")
    cells["outcome"] = cells["request_id"].map(req["status"])
    cells["ruid"] = cells["request_id"].map(req["ruid"])
    notices = {int(rid): [{**n, "kind": "error"} for n in r.errors] + [{**n, "kind": "warning"} for n in r.warnings]
               for rid, r in req.iterrows() if r.errors or r.warnings}
    hits = attribute(cells, notices, headers or {})
    plain = np.ones(len(cells), dtype=bool)
    plain[hits["cell"].to_numpy(dtype=np.int64)] = False
    lines = pd.concat([
        pd.DataFrame({"cell": np.flatnonzero(plain), "column": cells["col"].to_numpy()[plain], "code": "",
                      "text": "", "kind": ""}),
        hits], ignore_index=True)
    c = cells.iloc[lines["cell"].to_numpy()].reset_index(drop=True)
    lines = pd.concat([lines.drop(columns="cell"), c[["source", "sheet", "row", "request_id", "hotel_code", "month",
                                                      "date", "outcome", "ruid"]]], axis=1)
    # a row with no notice of its own in a request that was not applied says why
    bare = lines["text"] == ""
    refused_others = lines["request_id"].isin(list(notices)) & (lines["outcome"] == "rejected")
    lines.loc[bare & refused_others, "text"] = (
        "not applied: the platform refused this request because of its other messages (their rows show the "
        "errors); nothing in it was applied - send these prices again once those are fixed")
    lines.loc[bare & (lines["outcome"] != "success") & ~refused_others, "text"] = (
        lines["request_id"].map(req["error"]).fillna(""))
    g = lines.groupby(["source", "sheet", "row", "column"], sort=True, dropna=False)
    out = g.agg(request_id=("request_id", "first"), hotel=("hotel_code", "first"), month=("month", "first"),
                nights=("date", "nunique"), outcome=("outcome", worst), codes=("code", join_texts),
                message=("text", join_texts), ruid=("ruid", "first")).reset_index()
    out["codes"] = out["codes"].str.replace(" | ", ", ", regex=False)
    out["severity"] = np.where(out["outcome"] == "success", np.where(out["codes"] != "", "warning", "ok"), "error")
    return out[ROW_COLUMNS]


def not_sent_rows(invalid: pd.DataFrame, errors: pd.DataFrame) -> pd.DataFrame:
    """One row per spreadsheet row with errors (what ``skip_invalid`` leaves out), in the columns of
    ``rows``: outcome ``not sent (errors)``, the rules as ``codes``, their messages, and how many of
    the row's prices were left out (``nights``; 0 when none could be read)."""
    if errors.empty:
        return pd.DataFrame(columns=ROW_COLUMNS)
    keys = ["source", "sheet", "row"]
    err = errors.assign(row=errors["row"].astype("Int64"), sheet=errors["sheet"].fillna(""))
    out = err.groupby(keys, dropna=False, sort=True).agg(
        column=("column", "first"), codes=("rule", join_texts), message=("message", join_texts)).reset_index()
    if len(invalid):
        inv = invalid.assign(row=invalid["row"].astype("Int64"), sheet=invalid["sheet"].fillna(""))
        g = inv.groupby(keys, sort=False)
        facts = pd.DataFrame({"nights": g.size(), "hotel": g["hotel_code"].first(),
                              "month": g["date"].first().map(lambda d: "" if pd.isna(d) else f"{d:%Y-%m}")})
        out = out.merge(facts.reset_index(), on=keys, how="left")
    else:
        out = out.assign(nights=0, hotel=pd.NA, month="")
    out["nights"] = out["nights"].fillna(0).astype("int64")
    out["month"] = out["month"].fillna("")
    out = out.assign(request_id=pd.NA, outcome=NOT_SENT, severity="error", ruid="")
    return out[ROW_COLUMNS].reset_index(drop=True)


def held_lines(frame: pd.DataFrame, column: pd.Series | str, *, outcome: str, severity: str, codes: str | pd.Series,
               message: str | pd.Series, ruid: str | None = None) -> pd.DataFrame:
    """Lines of the rows frame for canonical rows that were not sent (``frame``: rates rows), one per
    spreadsheet cell (``column``)."""
    if frame.empty:
        return pd.DataFrame(columns=ROW_COLUMNS)
    f = pd.DataFrame({"source": frame["source"].to_numpy(), "sheet": frame["sheet"].to_numpy(),
                      "row": frame["row"].to_numpy(),
                      "column": column.to_numpy() if isinstance(column, pd.Series) else column,
                      "hotel": frame["hotel_code"].to_numpy(), "month": frame["date"].dt.strftime("%Y-%m").to_numpy(),
                      "date": frame["date"].to_numpy(),
                      "codes": codes.to_numpy() if isinstance(codes, pd.Series) else codes,
                      "message": message.to_numpy() if isinstance(message, pd.Series) else message})
    g = f.groupby(["source", "sheet", "row", "column"], sort=True, dropna=False)
    out = g.agg(hotel=("hotel", "first"), month=("month", "first"), nights=("date", "nunique"),
                codes=("codes", join_texts), message=("message", join_texts)).reset_index()
    out["codes"] = out["codes"].str.replace(" | ", ", ", regex=False)
    return out.assign(request_id=pd.NA, outcome=outcome, severity=severity, ruid=ruid)[ROW_COLUMNS]
