"""An availability push's plan: what it would change against the last accepted values, before anything is
sent: per value added, changed or unchanged (:mod:`workbench.writers.avail_deltas`), the requests and messages
the compressor makes of the delta, and the least send time at the configured limits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from loaders.schemas import RESTRICTION_HEADERS
from workbench.display import Summary, Table
from workbench.transport.estimate import SendEstimate
from workbench.wording import count, fact, platform_text
from workbench.writers.avail_deltas import KINDS, AvailDiff

CHANGE_COLUMNS = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "restriction", "change", "before", "after",
                  "source", "sheet", "row", "column"]
SERIES_COLUMNS = ["hotel_code", "inv_type_code", "rate_plan_code", "restriction", *KINDS]
SHOWN = 10


@dataclass
class AvailabilityPlan:
    """What ``push_availability`` would do: ``frame`` (the rows it would send: no errors, no repeats),
    ``diff`` against the journal's accepted values of ``target``, the ``requests`` and ``messages`` of the
    delta (everything with ``full``), the least send time, and ``blocked`` (why errors would stop the push,
    '' when nothing does)."""

    target: str
    journal: Path
    frame: pd.DataFrame
    diff: AvailDiff
    requests: int
    messages: int
    estimate: SendEstimate
    full: bool = False
    left_out: int = 0
    blocked: str = ""

    def count(self, kind: str) -> int:
        return self.diff.count(kind)

    @property
    def to_send(self) -> int:
        return len(self.frame) if self.full else int(self.diff.send_mask.sum())

    def delta(self) -> pd.DataFrame:
        """The rows a push would send."""
        return self.frame if self.full else self.frame[self.diff.send_mask]

    def changes(self) -> pd.DataFrame:
        """One row per value a push would send: its room type (room-rate), night, value name, ``change``
        (added / changed, or unchanged with ``full``), the accepted value ``before`` and the sheet's ``after``,
        and its cell."""
        keep = np.ones(len(self.frame), dtype=bool) if self.full else self.diff.send_mask
        f = self.frame[keep]
        before = pd.array(self.diff.before[keep], dtype="Int64")
        before[self.diff.before[keep] < 0] = pd.NA
        return pd.DataFrame({
            "hotel_code": f["hotel_code"].to_numpy(), "inv_type_code": f["inv_type_code"].to_numpy(),
            "rate_plan_code": f["rate_plan_code"].to_numpy(), "date": f["date"].to_numpy(),
            "restriction": f["restriction"].astype(str).map(RESTRICTION_HEADERS).to_numpy(),
            "change": np.asarray(KINDS, dtype=object)[self.diff.change[keep]], "before": before,
            "after": f["value"].to_numpy(), "source": f["source"].to_numpy(), "sheet": f["sheet"].to_numpy(),
            "row": f["row"].to_numpy(), "column": f["value_column"].to_numpy()}, columns=CHANGE_COLUMNS)

    def series(self) -> pd.DataFrame:
        """Per room type (room-rate) and value name: how many nights are added, changed, unchanged."""
        f = self.frame
        if f.empty:
            return pd.DataFrame(columns=SERIES_COLUMNS)
        keys = f[["hotel_code", "inv_type_code", "rate_plan_code", "restriction"]].astype(
            {"restriction": str}).assign(rate_plan_code=f["rate_plan_code"].astype("string").fillna(""))
        keys["restriction"] = keys["restriction"].map(RESTRICTION_HEADERS)
        kind = pd.Categorical.from_codes(self.diff.change.astype(np.int64), categories=list(KINDS))
        table = pd.crosstab([keys[c] for c in keys.columns], kind, dropna=False).reindex(columns=list(KINDS),
                                                                                           fill_value=0)
        table.columns.name = None
        return table[(table.sum(axis=1) > 0)].reset_index()

    def headline(self) -> str:
        what = "every value (--full)" if self.full else \
            f"{self.count('added'):,} added, {self.count('changed'):,} changed, {self.count('unchanged'):,} unchanged"
        return (f"Plan against {platform_text(self.target)}: {what}; {count(self.requests, 'request')}, "
                f"{count(self.messages, 'message')}; send time {self.estimate.text()}")

    def _repr_html_(self) -> str:
        facts = [(f"{self.count(k):,}", k) for k in KINDS] + [
            fact(self.requests, "request", "requests"), fact(self.messages, "message", "messages"), (self.estimate.text(), "send time:"),
            (f"{self.left_out:,}", "values left out (errors, repeats)"), (platform_text(self.target), "platform:")]
        tables = [Table(self.blocked, pd.DataFrame())] if self.blocked else []
        changes = self.changes()
        if len(changes):
            tables.append(Table("Values a push would send", changes.head(SHOWN), note=(
                f"{SHOWN} of {len(changes):,} shown; all of them: `.changes()`" if len(changes) > SHOWN else "")))
        verdict = "blocked by errors" if self.blocked else ("nothing to send" if not self.to_send else
                                                            f"{count(self.to_send, 'value')} to send")
        tone = "error" if self.blocked else "info"
        return Summary("Availability plan", verdict, tone, facts, tables).html()

    def __repr__(self) -> str:
        return f"<AvailabilityPlan: {self.headline()}>"


__all__ = ["AvailabilityPlan", "CHANGE_COLUMNS", "SERIES_COLUMNS"]
