"""The issues frame: one row per problem, pointing at a cell a person can fix.

Columns: ``source, sheet, row, column, value, rule, severity, message``. ``row`` is the row
number the person sees in Excel (header = 1); ``column`` is the header text of the cell;
``severity`` is ``error`` (blocks a push) or ``warning`` (never does). Loaders create issues
for cells they cannot read; ``expectations`` adds the platform's rules.

Every issue frame is made here, so this is where a long cell is cut (:func:`cut`): the ``value``
column and the values a message quotes in backticks hold at most :data:`QUOTE_LIMIT` characters
and say how long the cell was, so a 1,000,000-character cell is not carried (and printed) whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from loaders.wording import count

ISSUE_COLUMNS = ["source", "sheet", "row", "column", "value", "rule", "severity", "message"]
ISSUE_DTYPES = {"source": "string", "sheet": "string", "row": "Int64", "column": "string", "value": "string",
                "rule": "string", "severity": "string", "message": "string"}
SEVERITIES = ("error", "warning")
QUOTE_LIMIT = 200       # characters of a cell shown in an issue
MESSAGE_LIMIT = 2_000   # characters of a message (a sentence, its quoted values cut first)
#: every quoted span, paired left to right (so the text between two quotes is never taken for one)
_QUOTED = re.compile(r"`([^`]*)`")
_WAS_CUT = re.compile(r"… \([\d,]+ characters\)$")


def cut(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was: ``aaaa… (1,000,000 characters)``
    (a text cut already is left as it is: issue frames are combined more than once)."""
    if len(text) <= limit:
        return text
    done = _WAS_CUT.search(text)
    if done is not None and done.start() <= limit:
        return text
    return f"{text[:limit]}… ({count(len(text), 'character')})"


def empty_issues() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in ISSUE_DTYPES.items()})


def issues_from_records(records: Iterable[Mapping[str, object]]) -> pd.DataFrame:
    rows = list(records)
    if not rows:
        return empty_issues()
    return _typed(pd.DataFrame(rows, columns=ISSUE_COLUMNS))


def issues_where(frame: pd.DataFrame, mask: pd.Series | np.ndarray, *, column: str | pd.Series,
                 value: pd.Series | str, rule: str, severity: str, message: str | pd.Series) -> pd.DataFrame:
    """Issues for the rows of ``frame`` (which has provenance columns) selected by ``mask``."""
    mask = np.asarray(mask, dtype=bool)
    if not mask.any():
        return empty_issues()
    idx = np.flatnonzero(mask)
    sub = frame.iloc[idx][["source", "sheet", "row"]]

    def pick(x: pd.Series | str) -> object:
        """A full-length column, or one indexed by just the selected rows' labels."""
        if not isinstance(x, pd.Series):
            return x
        if len(x) == len(frame) and x.index.equals(frame.index):
            return x.iloc[idx].astype("string").to_numpy()
        return x.reindex(sub.index).astype("string").to_numpy()

    out = pd.DataFrame({
        "source": sub["source"].to_numpy(), "sheet": sub["sheet"].to_numpy(), "row": sub["row"].to_numpy(),
        "column": pick(column), "value": pick(value), "rule": rule, "severity": severity, "message": pick(message),
    })
    return _typed(out)


def combine(parts: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate issue frames; one issue per (cell, rule) (a range row spanning 30 nights with
    one bad price is one issue, not 30); sorted the way a person reads a workbook."""
    frames = [p for p in parts if len(p)]
    if not frames:
        return empty_issues()
    out = _typed(pd.concat(frames, ignore_index=True))
    out = out.drop_duplicates(subset=["source", "sheet", "row", "column", "rule"], keep="first")
    sev = out["severity"].map({"error": 0, "warning": 1}).fillna(2)
    out = out.assign(_sev=sev).sort_values(["source", "sheet", "row", "_sev", "column"], kind="stable",
                                           na_position="last")
    return out.drop(columns="_sev").reset_index(drop=True)


def has_errors(issues: pd.DataFrame) -> bool:
    return bool((issues["severity"] == "error").any())


#: what ``str()`` makes of a missing value: never an issue's value (a blank cell's value is missing)
MISSING_TEXTS = ("<NA>", "NaT")


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame[ISSUE_COLUMNS].astype(ISSUE_DTYPES)
    value = frame["value"]
    if value.isin(MISSING_TEXTS).any():  # what str() makes of a missing value is never an issue's value
        frame = frame.assign(value=value.mask(value.isin(MISSING_TEXTS)))
    value_long = frame["value"].str.len() > QUOTE_LIMIT
    message_long = frame["message"].str.len() > QUOTE_LIMIT
    if not (value_long.any() or message_long.any()):  # the common case: nothing to copy
        return frame
    frame = frame.copy()
    value_long, message_long = value_long.fillna(False).astype(bool), message_long.fillna(False).astype(bool)
    frame.loc[value_long, "value"] = frame.loc[value_long, "value"].map(cut)
    frame.loc[message_long, "message"] = frame.loc[message_long, "message"].map(
        lambda m: cut(_QUOTED.sub(lambda q: f"`{cut(q.group(1))}`", m), MESSAGE_LIMIT))
    return frame
