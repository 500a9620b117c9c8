"""The one outcome model of a push, whatever the kind of data: per request and per spreadsheet row,
the outcome, the codes and texts the platform gave, the ruid and the attempts.

Every push result (``PushResult`` for rates, ``RoomsPushResult``, ``ContentPushResult``, ...) is a
:class:`PushOutcome`: its ``requests`` frame has the kind's identity columns (:attr:`KindInfo.request_keys`:
hotel and month for rates, the room type for rooms, the property for content) followed by
:data:`OUTCOME_COLUMNS`; its ``rows`` frame has :data:`PLACE_COLUMNS`, ``request_id``, the kind's
:attr:`KindInfo.row_keys` and :data:`ROW_OUTCOME`. Reports, summaries and the CLI read these, by type.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from workbench.display import OUTCOME_TONES, MarkdownSummary, Summary, Table
from workbench.wording import count, fact

#: what every request says about its answer (after the kind's identity columns)
OUTCOME_COLUMNS = ["outcome", "http_status", "codes", "texts", "ruid", "attempts", "error", "source_rows"]
#: where a row came from
PLACE_COLUMNS = ["source", "sheet", "row", "column"]
#: what every row line says (after its place, its request and the kind's row keys)
ROW_OUTCOME = ["outcome", "severity", "codes", "message", "ruid"]
NOT_SENT_ERRORS = "not sent (errors)"  # the outcome of a row left out for its errors
SHOWN = 10  # requests and rows a summary lists


@dataclass(frozen=True)
class KindInfo:
    """How a kind of data names its requests and rows (columns, headings), for results and reports."""

    name: str                              # rates, rooms, content, ...
    title: str                             # "Rates push"
    request_keys: tuple[str, ...]          # the identity columns of a request
    row_keys: tuple[str, ...]              # the identity columns of a row line
    labels: Mapping[str, str] = field(default_factory=dict)  # column -> heading for people
    noun: str = "request"                  # what one request is, for people ("room type", "property")
    plural: str = "requests"
    group_by: tuple[str, ...] = ()         # how a report groups the rows (by property and ...)

    @property
    def request_columns(self) -> list[str]:
        return ["request_id", *self.request_keys, *OUTCOME_COLUMNS]

    @property
    def row_columns(self) -> list[str]:
        return [*PLACE_COLUMNS, "request_id", *self.row_keys, *ROW_OUTCOME]

    def label(self, column: str) -> str:
        return self.labels.get(column, column.replace("_", " ").capitalize())

    def count(self, n: int) -> str:
        return count(n, self.noun, self.plural)


class PushOutcome(MarkdownSummary):
    """What a push did, per request and per row (see the module docstring). Subclasses are dataclasses
    holding ``requests``, ``rows``, ``not_sent``, ``files`` and ``target`` (or properties of those names)."""

    kind: ClassVar[KindInfo]
    requests: pd.DataFrame
    rows: pd.DataFrame
    files: list[Path]
    target: str

    @property
    def named_frame(self) -> pd.DataFrame | None:
        """The frame whose ``attrs`` carry the properties' names for the reports (``None``: the rows' own)."""
        return None

    @property
    def not_sent_rows(self) -> pd.DataFrame:
        """The rows left out for their errors (in the columns of ``rows``)."""
        return _frame(getattr(self, "not_sent", None), self.kind.row_columns)

    @property
    def counts(self) -> dict[str, int]:
        req = self.requests
        return req["outcome"].value_counts().to_dict() if len(req) else {}

    @property
    def ok(self) -> bool:
        req = self.requests
        return bool((req["outcome"] == "success").all()) if len(req) else True

    def headline(self) -> str:
        """The line a report starts with."""
        return self.summary()

    def summary(self) -> str:
        parts = ", ".join(f"{n} {k}" for k, n in sorted(self.counts.items())) or "nothing to send"
        return f"{self.kind.count(len(self.requests))}: {parts}"

    def facts(self) -> list[tuple[str, str]]:
        """Figures a summary shows besides the counts by outcome."""
        return []

    def notes(self) -> list[str]:
        """Lines said before the tables (a deprecation, what was held back)."""
        return []

    def summary_columns(self) -> list[str]:
        """The columns of the requests a summary lists (``said``: what the platform said)."""
        return [*self.kind.request_keys, "outcome", "http_status", "codes", "said", "ruid", "attempts"]

    def verdict(self) -> str:
        req = self.requests
        bad = len(req) - self.counts.get("success", 0)
        if req.empty:
            return "nothing to send"
        return f"every {self.kind.noun} applied" if bad == 0 else f"{self.kind.count(bad)} not applied"

    def _repr_html_(self) -> str:
        """In Jupyter: the verdict, the figures, then the requests and rows that need attention first."""
        req, rows = self.requests, self.rows
        bad = len(req) - self.counts.get("success", 0)
        flagged = rows[rows["severity"] != "ok"] if len(rows) else rows
        facts = [(f"{n:,}", k) for k, n in sorted(self.counts.items())] + self.facts() + [
            fact(len(flagged), "row with warnings or errors", "rows with warnings or errors")]
        if self.target:
            facts.append((self.target, "target:"))
        tables = [Table(line, pd.DataFrame()) for line in self.notes()]
        if len(req):
            attention = (req["outcome"] != "success").astype(int) * 2 + (req["codes"].fillna("") != "").astype(int)
            shown = req.iloc[(-attention).to_numpy().argsort(kind="stable")].head(SHOWN)
            said = [t or (e if isinstance(e, str) else "") for t, e in zip(shown["texts"].fillna(""), shown["error"],
                                                                           strict=True)]
            view = shown.assign(said=said)[self.summary_columns()].rename(columns={"said": "what the platform said"})
            tables.append(Table(self.kind.plural.capitalize(), view, wide=("what the platform said", "ruid"),
                                note=_shown(len(shown), len(req), self.kind.plural, "`.requests`"),
                                tone_column="outcome", tones=OUTCOME_TONES))
        if len(flagged):
            tables.append(Table("Rows with warnings or errors", flagged.head(SHOWN)[
                ["source", "sheet", "row", "outcome", "severity", "codes", "message", "ruid"]],
                note=_shown(min(len(flagged), SHOWN), len(flagged), "rows", "`.rows`"),
                wide=("message", "ruid"), tone_column="severity"))
        tone = "error" if bad else ("warning" if len(flagged) else "ok")
        return Summary(self.kind.title, self.verdict(), tone, facts, tables).html()


def _shown(n: int, total: int, what: str, where: str) -> str:
    return f"{n} of {total:,} {what} shown; all of them: {where}" if n < total else ""


def _frame(frame: pd.DataFrame | None, columns: list[str]) -> pd.DataFrame:
    if frame is None or frame.empty:
        return pd.DataFrame(columns=columns)
    return frame.reindex(columns=[*columns, *[c for c in frame.columns if c not in columns]])


def notice_text(n: Mapping[str, Any]) -> str:
    """A journalled notice (code, texts) for people."""
    return " ".join(str(x) for x in (n.get("code"), n.get("short_text"), n.get("details")) if x)


def notice_message(n: Mapping[str, Any]) -> str:
    """A journalled notice's most informative text, as ``workbench.ota.response.Notice.message`` says it."""
    parts = [str(p) for p in (n.get("short_text"), n.get("details")) if p]
    return " - ".join(dict.fromkeys(parts)) or str(n.get("code") or "")


def worst(values: pd.Series) -> str:
    """The outcome a row shows when several requests carried it: the worst."""
    order = ["failed", "unrecognised", "rejected", "unknown", "interrupted", "not sent", "sending", "pending",
             "success"]
    vals = set(values)
    return next((o for o in order if o in vals), str(values.iloc[0]))


def join_texts(values: pd.Series) -> str:
    return " | ".join(dict.fromkeys(v for v in values if v))


__all__ = ["KindInfo", "NOT_SENT_ERRORS", "OUTCOME_COLUMNS", "PLACE_COLUMNS", "PushOutcome", "ROW_OUTCOME",
           "join_texts", "notice_message", "notice_text", "worst"]
