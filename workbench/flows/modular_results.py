"""What a push through the modular APIs came to (``workbench.flows.content_modular``): the one outcome model of
every push (``workbench.writers.outcome``) with this kind's columns: one request per property and API, each cell it
carried, and the issues (the mapping's and the platform's answers', each on its cell)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from loaders.issues import combine, issues_from_records
from workbench.modular.cells import issues_from_envelope
from workbench.writers import (
    CREATE,
    MODULAR,
    NOT_SENT_ERRORS,
    Planned,
    PushOutcome,
    Sent,
    notice_message,
    requests_frame,
)

CREATED_COLUMNS = ["custom_id", "hotel_code", "ruid"]
REQUEST_COLUMNS = [*MODULAR.request_columns, "hotel_code", "custom_id", "method", "path", "note"]
HELD = "not sent"


@dataclass(repr=False)
class ModularPushResult(PushOutcome):
    """A push through the modular APIs: ``requests`` (one per property and API), ``rows`` (each cell sent, with
    its request's outcome; the cells the platform's errors name are errors), ``issues`` (the mapping's and the
    platform's, on their cells), ``created`` (custom ID -> property id), ``unchanged`` (requests not sent: the
    platform accepted the same last time)."""

    requests: pd.DataFrame
    rows: pd.DataFrame
    issues: pd.DataFrame
    created: pd.DataFrame
    unchanged: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    target: str = ""
    dry_run: Path | None = None
    filled: list[Path] = field(default_factory=list)
    run_ids: list[int] = field(default_factory=list)
    kind: ClassVar = MODULAR

    @property
    def not_sent(self) -> pd.DataFrame:
        errors = self.issues[self.issues["severity"] == "error"] if len(self.issues) else self.issues
        if errors.empty:
            return pd.DataFrame(columns=MODULAR.row_columns)
        return pd.DataFrame({"source": errors["source"], "sheet": errors["sheet"], "row": errors["row"],
                             "column": errors["column"], "request_id": pd.NA, "property": "", "api": "",
                             "outcome": NOT_SENT_ERRORS, "severity": "error", "codes": errors["rule"],
                             "message": errors["message"], "ruid": ""}, columns=MODULAR.row_columns)

    @property
    def ok(self) -> bool:
        errors = bool(len(self.issues)) and bool((self.issues["severity"] == "error").any())
        fine = self.requests["outcome"].isin(["success", "written", "planned"]) if len(self.requests) else []
        return bool(all(fine)) and not errors

    def summary(self) -> str:
        if self.dry_run is not None:
            return f"dry run: {len(self.requests)} request(s) written to {self.dry_run}"
        text = ", ".join(f"{n} {k}" for k, n in sorted(self.counts.items())) or "nothing to send"
        return (f"{len(self.requests)} request(s) through the modular APIs: {text}; {len(self.created)} created; "
                f"{len(self.unchanged)} unchanged (not sent)")

    def headline(self) -> str:
        return self.summary()

    def verdict(self) -> str:
        return self.summary()

    def facts(self) -> list[tuple[str, str]]:
        return [(f"{len(self.created):,}", "created"), (f"{len(self.unchanged):,}", "unchanged, not sent")]

    def __repr__(self) -> str:
        return f"<ModularPushResult: {self.summary()}>"


def identity(p: Planned) -> dict[str, Any]:
    return {"property": p.property, "api": p.extra.get("api"), "operation": p.operation, "hotel_code": p.hotel_code,
            "custom_id": p.extra.get("custom_id"), "method": p.method, "path": p.path}


def held_frame(held: Sequence[tuple[Planned, str]]) -> pd.DataFrame:
    rows = [{**identity(p), "outcome": HELD, "http_status": pd.NA, "codes": "", "texts": why, "ruid": "",
             "attempts": 0, "error": "", "source_rows": p.extra.get("source_rows", ""), "note": why}
            for p, why in held]
    frame = pd.DataFrame(rows, columns=REQUEST_COLUMNS[1:])
    frame.insert(0, "request_id", pd.array([pd.NA] * len(frame), dtype="Int64"))
    return frame


def modular_result(files: Sequence[Path], sent: Sequence[Sent], held: Sequence[tuple[Planned, str]],
            unchanged: Sequence[Planned], issues: pd.DataFrame, target: str) -> ModularPushResult:
    frames, rows, answered, created = [], [], [], []
    for s in sent:
        f = requests_frame(s).set_index("request_id")
        for rid, p in s.planned.items():
            r = f.loc[rid]
            result = s.results.get(rid)
            req = p.source
            if result is not None and result.envelope is not None:
                answered += issues_from_envelope(result.envelope, req.cells, str(p.extra.get("api")) + " API")
            made = r["made"] if isinstance(r["made"], str) else None
            if p.operation == CREATE and made and r["outcome"] == "success":
                created.append({"custom_id": p.creates, "hotel_code": int(made), "ruid": r["ruid"]})
            frames.append({"request_id": rid, **identity(p), "hotel_code": int(made) if made else p.hotel_code,
                           "outcome": r["outcome"], "http_status": r["http_status"], "codes": r["codes"],
                           "texts": r["texts"], "ruid": r["ruid"], "attempts": r["attempts"],
                           "error": r["error"] if isinstance(r["error"], str) else "",
                           "source_rows": p.extra.get("source_rows") or r["source_rows"],
                           "note": r["note"] if isinstance(r["note"], str) else ""})
            rows.append(_cells(p, rid, str(r["outcome"]), r))
        for h in s.held:  # a create made already (found in the journal, or settled by sending it again): done
            done = h.planned.operation == CREATE and h.made is not None
            frames.append({"request_id": pd.NA, **identity(h.planned), "hotel_code": int(h.made) if done and h.made else
                           h.planned.hotel_code, "outcome": "success" if done else h.outcome, "http_status": pd.NA,
                           "codes": "", "texts": h.message, "ruid": "", "attempts": 0, "error": "",
                           "source_rows": h.planned.extra.get("source_rows", ""), "note": h.message})
            if h.planned.operation == CREATE and h.made:
                created.append({"custom_id": h.planned.creates, "hotel_code": int(h.made), "ruid": ""})
    requests = pd.DataFrame(frames, columns=REQUEST_COLUMNS)
    kept_back = held_frame(held)
    if len(kept_back):
        requests = pd.concat([requests, kept_back], ignore_index=True)
    all_issues = combine([issues, issues_from_records(answered)])
    row_frame = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=MODULAR.row_columns)
    row_frame = _mark(row_frame, all_issues)
    return ModularPushResult(requests, row_frame, all_issues, pd.DataFrame(created, columns=CREATED_COLUMNS),
                             [p.key for p in unchanged], list(files), target, run_ids=[s.run_id for s in sent])


def _cells(p: Planned, rid: int, outcome: str, r: Any) -> pd.DataFrame:
    rows = p.rows if p.rows is not None else pd.DataFrame(columns=["source", "sheet", "row", "column"])
    said = "; ".join(notice_message(n) for n in r["errors"]) if outcome != "success" else ""
    return pd.DataFrame({"source": rows["source"], "sheet": rows["sheet"], "row": rows["row"],
                         "column": rows["column"], "request_id": rid, "property": p.property,
                         "api": p.extra.get("api"), "outcome": outcome,
                         "severity": "ok" if outcome == "success" else "error", "codes": r["codes"] or "",
                         "message": said or (r["error"] if isinstance(r["error"], str) else ""),
                         "ruid": r["ruid"]}, columns=MODULAR.row_columns)


def _mark(rows: pd.DataFrame, issues: pd.DataFrame) -> pd.DataFrame:
    """The cells the platform's answers name carry their issue (message and rule) and severity."""
    if rows.empty or issues.empty:
        return rows
    platform = issues[issues["rule"].astype(str).str.startswith("platform_")]
    for i in platform.itertuples(index=False):
        hit = (rows["sheet"] == i.sheet) & (rows["row"] == i.row) & (rows["column"] == i.column)
        rows.loc[hit, ["severity", "codes", "message"]] = [i.severity, i.rule, i.message]
    return rows




__all__ = ["CREATED_COLUMNS", "HELD", "ModularPushResult", "REQUEST_COLUMNS", "held_frame", "identity",
           "modular_result"]
