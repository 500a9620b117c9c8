"""The rows of an availability push: one line per spreadsheet cell (a value of a room type or room-rate,
restriction and night, or of a range of nights), with its request's outcome and what the platform said
about it, on the cell it concerns (the value, the room, the rate plan).

A notice goes to the cells of the message its ``RecordID`` names (:mod:`workbench.writers.attribution`).
In a request applied in part (``partial``) the cells of the refused messages are ``rejected`` and the
others ``success``; in a request refused whole, the cells without a notice of their own say they were
not applied because of the others.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from workbench.writers.attribution import attribute
from workbench.writers.journal import PARTIAL, Journal
from workbench.writers.outcome import NOT_SENT_ERRORS, KindInfo, join_texts, worst

AVAILABILITY = KindInfo("availability", "Availability push", request_keys=("hotel", "month", "messages", "cells"),
                        row_keys=("hotel", "room", "rate", "restriction", "first", "last", "nights"),
                        labels={"hotel": "Hotel", "month": "Month", "messages": "Messages", "cells": "Values",
                                "room": "Room type", "rate": "Rate plan", "restriction": "Value",
                                "first": "First night", "last": "Last night", "nights": "Nights"},
                        noun="request", plural="requests", group_by=("hotel",))
#: ``AvailabilityPushResult.rows`` and ``.not_sent``: one line per spreadsheet cell
ROW_COLUMNS = AVAILABILITY.row_columns
NOT_SENT = NOT_SENT_ERRORS
REFUSED_OTHERS = ("not applied: the platform refused this request because of its other messages (their rows show "
                  "the errors); nothing in it was applied - send these values again once those are fixed")


def rows_frame(j: Journal, run_id: int, headers: Mapping[tuple[str, str], Mapping[str, str]] | None = None
               ) -> pd.DataFrame:
    """One line per spreadsheet cell the run sent (see the module docstring)."""
    cells = j.avail_cells(run_id)
    if cells.empty:
        return pd.DataFrame(columns=ROW_COLUMNS)
    req = j.requests(run_id).set_index("request_id")
    status = cells["request_id"].map(req["status"])
    cells["ruid"] = cells["request_id"].map(req["ruid"])
    notices = {int(rid): [{**n, "kind": "error"} for n in r.errors] + [{**n, "kind": "warning"} for n in r.warnings]
               for rid, r in req.iterrows() if r.errors or r.warnings}
    hits = attribute(cells, notices, headers or {})
    refused = np.zeros(len(cells), dtype=bool)
    refused[hits.loc[hits["kind"] == "error", "cell"].to_numpy(dtype=np.int64)] = True
    partial = (status == PARTIAL).to_numpy()
    cells["outcome"] = np.where(partial, np.where(refused, "rejected", "success"), status.to_numpy(dtype=object))
    plain = np.ones(len(cells), dtype=bool)
    plain[hits["cell"].to_numpy(dtype=np.int64)] = False
    lines = pd.concat([
        pd.DataFrame({"cell": np.flatnonzero(plain), "column": cells["col"].to_numpy()[plain], "code": "",
                      "text": "", "kind": ""}),
        hits], ignore_index=True)
    c = cells.iloc[lines["cell"].to_numpy()].reset_index(drop=True)
    lines = pd.concat([lines.drop(columns="cell"), c[["source", "sheet", "row", "request_id", "hotel_code",
                                                      "inv_type_code", "rate_plan_code", "restriction", "date",
                                                      "outcome", "ruid"]]], axis=1)
    bare = lines["text"] == ""
    refused_others = lines["request_id"].isin(list(notices)) & (lines["outcome"] == "rejected")
    lines.loc[bare & refused_others, "text"] = REFUSED_OTHERS
    lines.loc[bare & ~lines["outcome"].isin(["success"]) & ~refused_others, "text"] = (
        lines["request_id"].map(req["error"]).fillna(""))
    g = lines.groupby(["source", "sheet", "row", "column"], sort=True, dropna=False)
    out = g.agg(request_id=("request_id", "first"), hotel=("hotel_code", "first"), room=("inv_type_code", "first"),
                rate=("rate_plan_code", "first"), restriction=("restriction", "first"), first=("date", "min"),
                last=("date", "max"), nights=("date", "nunique"), outcome=("outcome", worst),
                codes=("code", join_texts), message=("text", join_texts), ruid=("ruid", "first")).reset_index()
    out["codes"] = out["codes"].str.replace(" | ", ", ", regex=False)
    out["severity"] = np.where(out["outcome"] == "success", np.where(out["codes"] != "", "warning", "ok"), "error")
    return out[ROW_COLUMNS]


def held_lines(frame: pd.DataFrame, *, outcome: str, severity: str, codes: str | pd.Series,
               message: str | pd.Series) -> pd.DataFrame:
    """Lines of the rows frame for canonical availability rows not sent (``frame``), one per spreadsheet cell."""
    if frame.empty:
        return pd.DataFrame(columns=ROW_COLUMNS)
    f = pd.DataFrame({"source": frame["source"].astype(str).to_numpy(), "sheet": frame["sheet"].astype(str).to_numpy(),
                      "row": frame["row"].to_numpy(), "column": frame["value_column"].astype(str).to_numpy(),
                      "hotel": frame["hotel_code"].to_numpy(), "room": frame["inv_type_code"].astype(str).to_numpy(),
                      "rate": frame["rate_plan_code"].astype("string").fillna("").to_numpy(),
                      "restriction": frame["restriction"].astype(str).to_numpy(),
                      "date": frame["date"].dt.strftime("%Y-%m-%d").to_numpy(),
                      "codes": codes.to_numpy() if isinstance(codes, pd.Series) else codes,
                      "message": message.to_numpy() if isinstance(message, pd.Series) else message})
    g = f.groupby(["source", "sheet", "row", "column"], sort=True, dropna=False)
    out = g.agg(hotel=("hotel", "first"), room=("room", "first"), rate=("rate", "first"),
                restriction=("restriction", "first"), first=("date", "min"), last=("date", "max"),
                nights=("date", "nunique"), codes=("codes", join_texts), message=("message", join_texts)).reset_index()
    out["codes"] = out["codes"].str.replace(" | ", ", ", regex=False)
    return out.assign(request_id=pd.NA, outcome=outcome, severity=severity, ruid=None)[ROW_COLUMNS]


def not_sent_rows(invalid: pd.DataFrame, errors: pd.DataFrame) -> pd.DataFrame:
    """One line per spreadsheet cell with errors (what ``skip_invalid`` leaves out): outcome ``not sent
    (errors)``, the rules as ``codes`` and their messages; the nights of its values left out."""
    if errors.empty:
        return pd.DataFrame(columns=ROW_COLUMNS)
    keys = ["source", "sheet", "row", "column"]
    err = errors.assign(row=errors["row"].astype("Int64"), sheet=errors["sheet"].fillna(""),
                        column=errors["column"].fillna(""))
    out = err.groupby(keys, dropna=False, sort=True).agg(codes=("rule", join_texts),
                                                        message=("message", join_texts)).reset_index()
    out["codes"] = out["codes"].str.replace(" | ", ", ", regex=False)
    if len(invalid):
        inv = pd.DataFrame({"source": invalid["source"].astype(str).to_numpy(),
                            "sheet": invalid["sheet"].astype("string").fillna("").to_numpy(),
                            "row": invalid["row"].astype("Int64").to_numpy(),
                            "hotel": invalid["hotel_code"].to_numpy(), "room": invalid["inv_type_code"].to_numpy(),
                            "rate": invalid["rate_plan_code"].astype("string").fillna("").to_numpy(),
                            "date": invalid["date"].dt.strftime("%Y-%m-%d").to_numpy()})
        g = inv.groupby(["source", "sheet", "row"], sort=False)
        facts = g.agg(hotel=("hotel", "first"), room=("room", "first"), rate=("rate", "first"), first=("date", "min"),
                      last=("date", "max"), nights=("date", "nunique")).reset_index()
        out = out.merge(facts, on=["source", "sheet", "row"], how="left")
        named = invalid.drop_duplicates(["source", "sheet", "row", "value_column"])
        what = pd.DataFrame({"source": named["source"].astype(str).to_numpy(),
                             "sheet": named["sheet"].astype("string").fillna("").to_numpy(),
                             "row": named["row"].astype("Int64").to_numpy(),
                             "column": named["value_column"].astype(str).to_numpy(),
                             "restriction": named["restriction"].astype(str).to_numpy()})
        out = out.merge(what, on=keys, how="left")
        out["hotel"] = out["hotel"].astype("Int64")
    out["nights"] = out.get("nights", pd.Series(0, index=out.index)).fillna(0).astype("int64")
    return out.assign(request_id=pd.NA, outcome=NOT_SENT, severity="error", ruid="").reindex(columns=ROW_COLUMNS)


__all__ = ["AVAILABILITY", "NOT_SENT", "REFUSED_OTHERS", "ROW_COLUMNS", "held_lines", "not_sent_rows", "rows_frame"]
