"""Sending rates: deltas against the journal, one request per hotel and month, sent through the
rate-limited client, every outcome journalled as it arrives and traced back to the rows.

Takes canonical rates frames (already checked); the analyst's entry point, which checks first,
is :func:`workbench.flows.rates.push_rates`.

    from workbench.writers.push import send_rates
    result = send_rates(valid_rows, Settings.from_file("sandbox/connection.env"), journal=".workbench/journal.sqlite")
    result.requests   # one row per request: hotel, month, outcome, HTTP status, codes, ruid, attempts
    result.rows       # one line per spreadsheet cell: its request, outcome, codes and texts, ruid
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.aio import run_blocking
from workbench.config import Settings
from workbench.display import OUTCOME_TONES, Summary, Table
from workbench.transport.errors import ConfigurationError
from workbench.writers.attribution import attribute
from workbench.writers.batches import RateRequest, cell_locators, iter_requests
from workbench.writers.compress import compress
from workbench.writers.deltas import cell_keys, changed_mask
from workbench.writers.journal import DEFAULT_JOURNAL, Journal
from workbench.writers.send_lock import send_lock

if TYPE_CHECKING:
    from workbench.transport.client import SendItem
    from workbench.transport.result import Result

OPERATION = "OTA_HotelRateAmountNotif"
#: ``PushResult.rows`` and ``PushResult.not_sent``: one row per spreadsheet row
ROW_COLUMNS = ["source", "sheet", "row", "column", "request_id", "hotel", "month", "nights", "outcome", "severity",
               "codes", "message", "ruid"]
NOT_SENT = "not sent (errors)"  # the outcome of a row left out by ``skip_invalid``


@dataclass(repr=False)
class PushResult:
    """What a push did: per request and per spreadsheet row, plus the delta figures."""

    run_id: int
    target: str
    journal: Path
    requests: pd.DataFrame
    rows: pd.DataFrame
    cells_total: int
    cells_changed: int
    skipped_rows: int = 0
    files: list[Path] = field(default_factory=list)
    #: the spreadsheet rows left out for errors (``skip_invalid``), in the columns of ``rows``
    not_sent: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=ROW_COLUMNS))
    #: what the push was about to do when it started (``workbench.writers.plan.RatesPlan``): its
    #: figures head the summary and the reports
    plan: Any = None

    @property
    def ok(self) -> bool:
        return bool((self.requests["outcome"] == "success").all()) if len(self.requests) else True

    @property
    def counts(self) -> dict[str, int]:
        return self.requests["outcome"].value_counts().to_dict() if len(self.requests) else {}

    def summary(self) -> str:
        parts = ", ".join(f"{n} {k}" for k, n in sorted(self.counts.items())) or "nothing to send"
        warn = int(self.requests["warnings"].map(len).sum()) if len(self.requests) else 0
        skipped = f"; {self.skipped_rows:,} price(s) with errors not sent" if self.skipped_rows else ""
        held = int((self.rows["outcome"] == "not sent").sum()) if len(self.rows) else 0
        head = f"{self.plan.headline()}\n" if self.plan is not None else ""
        return (f"{head}{len(self.requests)} request(s): {parts}; {warn} warning(s). {self.cells_changed:,} of "
                f"{self.cells_total:,} price(s) changed since the last accepted push{skipped}"
                + (f"; {held:,} cell(s) not sent (see the rows marked `not sent`)" if held else ""))

    def __repr__(self) -> str:
        return f"<PushResult run {self.run_id} to {self.target}: {self.summary()}>"

    def _repr_html_(self) -> str:
        """In Jupyter: the verdict, the figures, then the requests and rows that need attention first."""
        req, rows = self.requests, self.rows
        bad = len(req) - self.counts.get("success", 0)
        flagged = rows[rows["severity"] != "ok"] if len(rows) else rows
        facts = [(f"{n:,}", k) for k, n in sorted(self.counts.items())] + [
            (f"{self.cells_changed:,} of {self.cells_total:,}", "prices changed since the last accepted push"),
            (f"{len(flagged):,}", "rows with warnings or errors"), (f"{self.skipped_rows:,}", "prices with errors left out"),
            (self.target, "target:"), (str(self.run_id), "run:")]
        if self.plan is not None:
            facts = [(self.plan.headline(), "")] + facts
        tables = []
        if len(req):
            attention = (req["outcome"] != "success").astype(int) * 2 + (req["codes"] != "").astype(int)
            shown = req.iloc[(-attention).to_numpy().argsort(kind="stable")].head(SUMMARY_ROWS)
            shown = shown.assign(said=[t or (e if isinstance(e, str) else "") for t, e in zip(shown["texts"],
                                                                                           shown["error"], strict=True)])
            cols = ["hotel", "month", "messages", "cells", "outcome", "http_status", "codes", "said", "ruid", "attempts"]
            tables.append(Table("Requests", shown[cols].rename(columns={"said": "what the platform said"}),
                                note=_shown(len(shown), len(req), "requests", "`.requests`"),
                                wide=("what the platform said", "ruid"), tone_column="outcome", tones=OUTCOME_TONES))
        if len(flagged):
            tables.append(Table("Rows with warnings or errors", flagged.head(SUMMARY_ROWS)[
                ["source", "sheet", "row", "outcome", "severity", "codes", "message", "ruid"]],
                note=_shown(min(len(flagged), SUMMARY_ROWS), len(flagged), "rows", "`.rows`"),
                wide=("message", "ruid"), tone_column="severity"))
        verdict = ("nothing to send: the platform already has every price" if req.empty else
                   "every request applied" if bad == 0 else f"{bad:,} request{'s' if bad != 1 else ''} not applied")
        tone = "error" if bad else ("warning" if len(flagged) else "ok")
        return Summary("Rates push", verdict, tone, facts, tables).html()


SUMMARY_ROWS = 10  # requests and rows a push's summary lists


def _shown(n: int, total: int, what: str, where: str) -> str:
    return f"{n} of {total:,} {what} shown; all of them: {where}" if n < total else ""


def send_rates(valid: pd.DataFrame, settings: Settings, *, journal: str | Path = DEFAULT_JOURNAL, full: bool = False,
               progress: bool = True, command: str = "", client_options: dict | None = None,
               skipped_rows: int = 0, files: Sequence[Path] = (), held: pd.DataFrame | None = None,
               refused: pd.DataFrame | None = None, not_sent: pd.DataFrame | None = None,
               lock_wait: float = 0.0) -> PushResult:
    """Send the prices of ``valid`` (canonical rates rows, already checked) that changed since the
    platform last accepted them (every one with ``full``); every outcome goes into the journal.

    ``held`` (lines of :data:`ROW_COLUMNS`, see :func:`held_lines`) are rows deliberately not sent
    (repeats, errors skipped, properties the platform refused), added to ``rows``; ``refused``
    (``hotel_code, code, text, ruid, cells, source_rows``) adds one ``rejected`` line per property
    the platform refused to describe to ``requests``. The journal's send lock is held throughout
    (see :mod:`workbench.writers.send_lock`): another push on the same journal makes this one wait
    up to ``lock_wait`` seconds, then raise :class:`~workbench.writers.send_lock.JournalBusy`."""
    if not settings.base_url:
        raise ConfigurationError("no target: set WORKBENCH_BASE_URL (or give the sandbox's connection.env with "
                                 "--env-file)")
    headers = valid.attrs.get("headers", {})
    valid = valid.reset_index(drop=True)
    target = settings.base_url.rstrip("/")
    with send_lock(journal, wait=lock_wait, command=command), Journal(journal) as j:
        run_id = j.start_run(target, command)
        changed = changed_mask(valid, j, target) if not full else pd.Series(True, index=valid.index).to_numpy()
        delta = valid[changed].reset_index(drop=True)
        requests, cells = plan(delta, spelling=settings.weekday_spelling)
        ids = j.add_requests(run_id, target, requests, cells)
        send_planned(j, settings, target, requests, ids, progress, client_options or {})
        frame_req = requests_frame(j, run_id, requests)
        rows = rows_frame(j, run_id, headers)
        failed = int((frame_req["outcome"] != "success").sum()) if len(frame_req) else 0
        j.finish_run(run_id, "done" if failed == 0 else "done_with_failures", cells_total=len(valid),
                     cells_changed=len(delta), requests=len(requests))
    if refused is not None and len(refused):
        frame_req = pd.concat([frame_req, refused_requests(refused)], ignore_index=True) if len(frame_req) else \
            refused_requests(refused)
    if held is not None and len(held):
        rows = pd.concat([rows, held], ignore_index=True) if len(rows) else held.reset_index(drop=True)
        rows = rows.sort_values(["source", "sheet", "row", "column"], kind="stable").reset_index(drop=True)
    return PushResult(run_id, target, Path(journal), frame_req, rows, len(valid), len(delta), skipped_rows,
                      list(files), not_sent if not_sent is not None else pd.DataFrame(columns=ROW_COLUMNS))


def plan(delta: pd.DataFrame, spelling: str = "ota") -> tuple[list[RateRequest], list[pd.DataFrame]]:
    """The requests for ``delta`` and, for each, the journal's view of the cells it carries (with
    the ``LocatorID`` of the message carrying each)."""
    if delta.empty:
        return [], []
    compressed = compress(delta)
    requests = list(iter_requests(compressed, timestamp=dt.datetime.now(dt.UTC), spelling=spelling))
    keys = cell_keys(delta)
    keys["month"] = compressed.cells["month"].to_numpy()
    keys["locator"] = cell_locators(compressed)
    by = dict(tuple(keys.groupby(["hotel_code", "month"], sort=False)))
    return requests, [by[(r.hotel_code, r.month)] for r in requests]


def send_planned(j: Journal, settings: Settings, target: str, requests: list[RateRequest], ids: list[int],
                 progress: bool, client_options: dict) -> None:
    """Send requests the journal has recorded (``ids``), each marked ``sending`` before it goes and
    its outcome recorded as it arrives."""
    if not requests:
        return
    from tqdm.auto import tqdm

    from workbench.transport.client import PlatformClient, SendItem  # httpx: only when something is sent

    bar = tqdm(total=len(requests), unit="req", desc="Pushing rates", disable=not progress, leave=True)

    def items() -> Iterator[SendItem]:
        for req, rid in zip(requests, ids, strict=True):
            j.mark_sending(rid)  # recorded before it is sent
            yield SendItem(OPERATION, req.body, context=rid)

    def record(result: Result) -> None:
        j.record_result(result.context, target, status=result.outcome.value, http_status=result.status,
                        ruid=result.ruid, attempts=result.attempts,
                        errors=[_notice(n) for n in result.errors], warnings=[_notice(n) for n in result.warnings],
                        error=result.error)
        bar.update(1)
        if not result.ok:
            bar.set_postfix_str(f"last problem: {result.summary()[:60]}")

    async def run() -> None:
        async with PlatformClient(settings, **client_options) as client:
            await client.send_many(items(), on_result=record)

    try:
        run_blocking(run)
    finally:
        bar.close()


def _notice(n: object) -> dict[str, str]:
    """What the journal keeps of a notice: code, texts, type and the ``RecordID`` it points at."""
    out = {k: getattr(n, k) or "" for k in ("code", "short_text", "details", "record_id") if hasattr(n, k)}
    text = getattr(n, "text", None)
    if not out.get("short_text") and text:  # a B.XML <error>text</error>
        out["short_text"] = str(text)
    return out | {"type": str(getattr(n, "type", "") or "")}


def requests_frame(j: Journal, run_id: int, requests: list[RateRequest]) -> pd.DataFrame:
    """One row per request of the run: hotel, month, outcome, HTTP status, codes and texts, ruid."""
    f = j.requests(run_id)
    src = {i: r.source_rows() for i, r in zip(f["request_id"], requests, strict=False)}
    out = pd.DataFrame({
        "request_id": f["request_id"], "hotel": f["hotel_code"], "month": f["month"],
        "messages": f["messages"], "cells": f["cells"],
        "outcome": f["status"].replace({"sending": "unknown", "pending": "not sent"}),
        "http_status": f["http_status"].astype("Int64"), "ruid": f["ruid"], "attempts": f["attempts"].astype("Int64"),
        "errors": f["errors"], "warnings": f["warnings"],
        "codes": [", ".join(n.get("code", "") for n in e + w) for e, w in zip(f["errors"], f["warnings"],
                                                                              strict=True)],
        "texts": [" | ".join(_text(n) for n in e + w) for e, w in zip(f["errors"], f["warnings"], strict=True)],
        "error": f["error"],
        "source_rows": f["request_id"].map(src),
    })
    return out


def refused_requests(refused: pd.DataFrame) -> pd.DataFrame:
    """One ``rejected`` line per property whose ``roomrates`` read the platform refused: its rates
    were not sent (``refused``: ``hotel_code, code, text, ruid, cells, source_rows``)."""
    texts = ("roomrates refused: " + refused["text"].fillna("").astype(str)
             + "; its rates were not sent").to_numpy()
    return pd.DataFrame({
        "request_id": pd.NA, "hotel": refused["hotel_code"].to_numpy(), "month": "", "messages": 0,
        "cells": refused["cells"].to_numpy(), "outcome": "rejected", "http_status": pd.NA,
        "ruid": refused["ruid"].to_numpy(), "attempts": pd.NA,
        "errors": [[{"code": c or "", "short_text": t or "", "details": "", "record_id": "", "type": ""}]
                   for c, t in zip(refused["code"].fillna(""), refused["text"].fillna(""), strict=True)],
        "warnings": [[] for _ in range(len(refused))], "codes": refused["code"].fillna("").to_numpy(),
        "texts": texts, "error": texts, "source_rows": refused["source_rows"].to_numpy()})


def _text(n: dict) -> str:
    return " ".join(x for x in (n.get("code"), n.get("short_text"), n.get("details")) if x)


ROW_COLUMNS = ["source", "sheet", "row", "column", "request_id", "hotel", "month", "nights", "outcome", "severity",
               "codes", "message", "ruid"]


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
                nights=("date", "nunique"), outcome=("outcome", _worst), codes=("code", _join),
                message=("text", _join), ruid=("ruid", "first")).reset_index()
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
        column=("column", "first"), codes=("rule", _join), message=("message", _join)).reset_index()
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


def _matching(notices: list[dict], cell) -> list[dict]:
    """The notices that concern this cell: those whose Details name its room, rate or night, or,
    when Details name none of the request's values, every notice of the request."""
    out = []
    for n in notices:
        details = n.get("details", "") or ""
        mentions = [v for v in (cell.inv_type_code, cell.rate_plan_code, cell.date) if v and v in details]
        names_something = any(ch.isdigit() for ch in details)
        if not details or not names_something or mentions:
            out.append(n)
    return out
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
                codes=("codes", _join), message=("message", _join)).reset_index()
    out["codes"] = out["codes"].str.replace(" | ", ", ", regex=False)
    return out.assign(request_id=pd.NA, outcome=outcome, severity=severity, ruid=ruid)[ROW_COLUMNS]


def _worst(values: pd.Series) -> str:
    order = ["failed", "unrecognised", "rejected", "unknown", "interrupted", "not sent", "sending", "pending",
             "success"]
    vals = set(values)
    return next((o for o in order if o in vals), str(values.iloc[0]))


def _join(values: pd.Series) -> str:
    return " | ".join(dict.fromkeys(v for v in values if v))


ProgressCallback = Callable[[int, int], None]
