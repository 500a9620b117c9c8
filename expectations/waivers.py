"""Waivers applied to an issues frame: accepted warnings set aside, errors never.

A waiver (a row of :func:`loaders.waivers.read_waivers`) matches an issue of its ``rule`` whose
property, room, rate plan and nights fall within what the waiver names (blank = any; an issue
whose nights are not known matches only a waiver without dates). Then:

- a matched **warning** is waived: it leaves the issues (so it counts nowhere: not in the exit
  code, the counts or the verdict) and is listed in ``waived`` with the waiver's reason and who;
- a matched **error** stays an error (errors can never be waived) and the waiver itself is
  reported: a ``waiver_on_error`` warning on the waiver's row;
- a waiver whose ``expires`` day is before the check's day waives nothing and is reported: a
  ``waiver_expired`` warning on its ``expires`` cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from loaders.issues import combine, empty_issues, issues_from_records
from loaders.wording import count

#: Columns the waived frame adds to the issue columns.
WAIVED_COLUMNS = ["waiver_reason", "waived_by", "waiver"]


@dataclass
class Waived:
    """``issues``: what still counts (waiver problems added); ``waived``: the warnings set aside."""

    issues: pd.DataFrame
    waived: pd.DataFrame


def empty_waived() -> pd.DataFrame:
    out = empty_issues()
    for c in WAIVED_COLUMNS:
        out[c] = pd.Series(dtype="string")
    return out


def apply_waivers(issues: pd.DataFrame, located: pd.DataFrame, waivers: pd.DataFrame, as_of: object) -> Waived:
    """Apply ``waivers`` to ``issues`` (``located``: their room-rates and nights, same index, see
    :func:`expectations.located.locate_issues`) as of the day ``as_of``."""
    day = pd.Timestamp(str(as_of))
    expired = waivers["expires"] < day
    problems: list[dict[str, object]] = [_expired(w, day) for w in waivers[expired].to_dict("records")]
    taken = np.zeros(len(issues), dtype=bool)
    reason = np.full(len(issues), None, dtype=object)
    who = np.full(len(issues), None, dtype=object)
    where = np.full(len(issues), None, dtype=object)
    is_warning = (issues["severity"] == "warning").to_numpy(dtype=bool, na_value=False)
    is_error = (issues["severity"] == "error").to_numpy(dtype=bool, na_value=False)
    for w in waivers[~expired].to_dict("records"):
        hit = _matches(w, issues, located)
        errors = hit & is_error
        if errors.any():
            problems.append(_on_error(w, issues[errors]))
        new = hit & is_warning & ~taken
        taken |= new
        reason[new], who[new], where[new] = w["reason"], w["who"], _waiver_where(w)
    waived = issues[taken].copy()
    waived["waiver_reason"] = pd.array(reason[taken], dtype="string")
    waived["waived_by"] = pd.array(who[taken], dtype="string")
    waived["waiver"] = pd.array(where[taken], dtype="string")
    kept = combine([issues[~taken], issues_from_records(problems)])
    return Waived(kept, waived.reset_index(drop=True) if len(waived) else empty_waived())


def _matches(w: dict[str, Any], issues: pd.DataFrame, located: pd.DataFrame) -> np.ndarray:
    hit = (issues["rule"] == w["rule"]).to_numpy(dtype=bool, na_value=False)
    for col, value in (("hotel_code", w["hotel_code"]), ("inv_type_code", w["inv_type_code"]),
                       ("rate_plan_code", w["rate_plan_code"])):
        if not pd.isna(value):
            hit &= (located[col] == value).to_numpy(dtype=bool, na_value=False)
    if not pd.isna(w["start"]):
        hit &= (located["first"] >= w["start"]).to_numpy(dtype=bool, na_value=False)
    if not pd.isna(w["end"]):
        hit &= (located["last"] <= w["end"]).to_numpy(dtype=bool, na_value=False)
    return hit


def _waiver_where(w: dict[str, Any]) -> str:
    sheet = f" sheet {w['sheet']}" if w['sheet'] else ""
    return f"{w['source']}{sheet} row {w['row']}"


def _named(w: dict[str, Any]) -> str:
    """What the waiver covers, for a message: ``duplicate_key for property 1000001, room 101``."""
    parts = [f"{label} {value}" for label, value in (("property", w['hotel_code']), ("room", w['inv_type_code']),
                                                     ("rate", w['rate_plan_code'])) if not pd.isna(value)]
    return f"`{w['rule']}`" + (f" for {', '.join(parts)}" if parts else "")


def _expired(w: dict[str, Any], day: pd.Timestamp) -> dict[str, object]:
    return {"source": w['source'], "sheet": w['sheet'], "row": w['row'], "column": w['expires_column'],
            "value": f"{w['expires']:%Y-%m-%d}", "rule": "waiver_expired", "severity": "warning",
            "message": f"the waiver of {_named(w)} ({w['reason']}, {w['who']}) expired on {w['expires']:%Y-%m-%d}, "
                       f"before {day:%Y-%m-%d}: it waives nothing now; give it a later `expires` if the "
                       "warnings are still accepted, or remove the row"}


def _on_error(w: dict[str, Any], errors: pd.DataFrame) -> dict[str, object]:
    first = errors.iloc[0]
    at = f"{first['source']}{' sheet ' + str(first['sheet']) if not pd.isna(first['sheet']) and first['sheet'] else ''}"
    at += f" row {int(first['row'])}" if not pd.isna(first["row"]) else ""
    n = len(errors)
    return {"source": w['source'], "sheet": w['sheet'], "row": w['row'], "column": "rule", "value": w['rule'],
            "rule": "waiver_on_error", "severity": "warning",
            "message": f"the waiver of {_named(w)} matches {count(n, 'error')} (first: {at}): "
                       "errors can never be waived; fix the data, or leave those rows out with --skip-invalid"}
