"""Rates, as a kind of the one send driver: deltas against the journal, one request per hotel and
month, every outcome journalled as it arrives and traced back to the rows.

Takes canonical rates frames (already checked); the analyst's entry point, which checks and plans
first, is :func:`workbench.flows.rates.push_rates`.

    from workbench.writers.push import send_rates
    result = send_rates(valid_rows, Settings.from_file("sandbox/connection.env"), journal=".workbench/journal.sqlite")
    result.requests   # one row per request: hotel, month, outcome, HTTP status, codes, ruid, attempts
    result.rows       # one line per spreadsheet cell: its request, outcome, codes and texts, ruid
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from workbench.config import Settings
from workbench.wording import count, fact
from workbench.writers import driver
from workbench.writers.accepted import journal_mark
from workbench.writers.batches import RateRequest, cell_locators, iter_requests
from workbench.writers.compress import compress
from workbench.writers.deltas import cell_keys, changed_mask
from workbench.writers.journal import DEFAULT_JOURNAL, Journal
from workbench.writers.kind import Kind
from workbench.writers.outcome import KindInfo, PushOutcome
from workbench.writers.planned import Planned
from workbench.writers.rate_rows import NOT_SENT, ROW_COLUMNS, held_lines, not_sent_rows, rows_frame

if TYPE_CHECKING:
    from workbench.writers.plan import RatesPlan

OPERATION = "OTA_HotelRateAmountNotif"
RATES = KindInfo("rates", "Rates push", request_keys=("hotel", "month", "messages", "cells"),
                 row_keys=("hotel", "month", "nights"),
                 labels={"hotel": "Hotel", "month": "Month", "messages": "Messages", "cells": "Prices",
                         "nights": "Nights"},
                 noun="request", plural="requests", group_by=("hotel",))
#: ``PushResult.requests``
REQUEST_COLUMNS = RATES.request_columns + ["errors", "warnings"]
__all__ = ["NOT_SENT", "OPERATION", "PushResult", "RATES", "REQUEST_COLUMNS", "ROW_COLUMNS", "RatesKind",
           "held_lines", "not_sent_rows", "rate_requests", "refused_requests", "rows_frame", "send_rates"]


@dataclass(repr=False)
class PushResult(PushOutcome):
    """What a rates push did: per request and per spreadsheet row, plus the delta figures."""

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
    kind: ClassVar[KindInfo] = RATES

    @property
    def named_frame(self) -> pd.DataFrame | None:
        """The plan's frame: the checked sheet, whose ``attrs`` name the properties."""
        return self.plan.frame if self.plan is not None else None

    def summary(self) -> str:
        parts = ", ".join(f"{n:,} {k}" for k, n in sorted(self.counts.items())) or "nothing to send"
        warn = int(self.requests["warnings"].map(len).sum()) if len(self.requests) else 0
        skipped = f"; {count(self.skipped_rows, 'price')} with errors not sent" if self.skipped_rows else ""
        held = int((self.rows["outcome"] == "not sent").sum()) if len(self.rows) else 0
        head = f"{self.plan.headline()}\n" if self.plan is not None else ""
        return (f"{head}{count(len(self.requests), 'request')}: {parts}; {count(warn, 'warning')}. "
                f"{self.cells_changed:,} of {count(self.cells_total, 'price')} changed since the last accepted "
                f"push{skipped}" + (f"; {count(held, 'cell')} not sent (see the rows marked `not sent`)" if held else ""))

    def headline(self) -> str:
        line = f"Run {self.run_id}: {self.cells_changed:,} of {count(self.cells_total, 'price')} changed since the last " \
               "accepted push"
        return f"{self.plan.headline()} · {line}" if self.plan is not None else line

    def verdict(self) -> str:
        return "nothing to send: the platform already has every price" if self.requests.empty else super().verdict()

    def facts(self) -> list[tuple[str, str]]:
        head = [(self.plan.headline(), "")] if self.plan is not None else []
        return head + [(f"{self.cells_changed:,} of {self.cells_total:,}", "prices changed since the last accepted push"),
                       fact(self.skipped_rows, "price with errors left out", "prices with errors left out"), (str(self.run_id), "run:")]

    def __repr__(self) -> str:
        return f"<PushResult run {self.run_id} to {self.target}: {self.summary()}>"


class RatesKind(Kind):
    """Rates in the send driver: their cells journalled in the rates tables (the accepted prices)."""

    info = RATES

    def record(self, journal: Journal, run_id: int, target: str, planned: Sequence[Planned]) -> list[int]:
        return journal.add_requests(run_id, target, [p.source for p in planned], [p.rows for p in planned])


def rate_requests(delta: pd.DataFrame, spelling: str = "ota") -> tuple[list[RateRequest], list[pd.DataFrame]]:
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


plan = rate_requests  # the older name of :func:`rate_requests`


def planned_rates(requests: Sequence[RateRequest], cells: Sequence[pd.DataFrame]) -> list[Planned]:
    """Rates requests as the driver takes them (``cells``: each one's cell keys, see :func:`rate_requests`)."""
    return [Planned("rates", OPERATION, r.key, r.body, str(r.hotel_code), r.month, hotel_code=int(r.hotel_code),
                    messages=int(r.messages), items=int(r.cells), rows=c, source=r, idempotent=True,
                    extra={"hotel": int(r.hotel_code), "month": r.month})
            for r, c in zip(requests, cells, strict=True)]


def send_rates(valid: pd.DataFrame, settings: Settings, *, journal: str | Path = DEFAULT_JOURNAL, full: bool = False,
               progress: bool = True, command: str = "", client_options: dict | None = None,
               skipped_rows: int = 0, files: Sequence[Path] = (), held: pd.DataFrame | None = None,
               refused: pd.DataFrame | None = None, not_sent: pd.DataFrame | None = None,
               lock_wait: float = 0.0, plan: RatesPlan | None = None, client: Any | None = None) -> PushResult:
    """Send the prices of ``valid`` (canonical rates rows, already checked) that changed since the
    platform last accepted them (every one with ``full``); every outcome goes into the journal.

    ``plan`` (``plan_rates`` of the same rows): its delta is sent when the journal has not changed since
    it was made (else the delta is compared again); so a push compares with the journal once.
    ``held`` (lines of :data:`ROW_COLUMNS`, see :func:`held_lines`) are rows deliberately not sent
    (repeats, errors skipped, properties the platform refused), added to ``rows``; ``refused``
    (``hotel_code, code, text, ruid, cells, source_rows``) adds one ``rejected`` line per property
    the platform refused to describe to ``requests``. Another push on the same journal makes this one
    wait up to ``lock_wait`` seconds, then raise :class:`~workbench.writers.send_lock.JournalBusy`."""
    target = driver.target_of(settings)
    headers = valid.attrs.get("headers", {})
    valid = valid.reset_index(drop=True)
    counts: dict[str, int] = {"cells_total": len(valid)}

    def prepare(j: Journal) -> list[Planned]:
        if plan is not None and plan.mark == journal_mark(j.path) and len(plan.frame) == len(valid) \
                and plan.target == target:
            delta = plan.delta().reset_index(drop=True)
        elif full:
            delta = valid
        else:
            delta = valid[changed_mask(valid, j, target)].reset_index(drop=True)
        counts["cells_changed"] = len(delta)
        return planned_rates(*rate_requests(delta, spelling=settings.weekday_spelling))

    def result(sent: driver.Sent) -> PushResult:
        return rates_result(sent, valid_total=len(valid), changed=counts.get("cells_changed", 0), headers=headers,
                            skipped_rows=skipped_rows, files=files, held=held, refused=refused, not_sent=not_sent)

    with driver.result_when_stopped(result):  # the reports still say what was sent
        sent = driver.send(RatesKind(), prepare, settings, journal=journal, command=command, progress=progress,
                           client=client, client_options=client_options, lock_wait=lock_wait, counts=counts)
    return result(sent)


def rates_result(sent: driver.Sent, *, valid_total: int, changed: int, headers: dict, skipped_rows: int = 0,
                 files: Sequence[Path] = (), held: pd.DataFrame | None = None, refused: pd.DataFrame | None = None,
                 not_sent: pd.DataFrame | None = None) -> PushResult:
    """The :class:`PushResult` of a rates run of the driver."""
    with Journal(sent.journal) as j:
        rows = rows_frame(j, sent.run_id, headers)
    frame_req = requests_frame(sent)
    if refused is not None and len(refused):
        frame_req = pd.concat([frame_req, refused_requests(refused)], ignore_index=True) if len(frame_req) else \
            refused_requests(refused)
    if held is not None and len(held):
        rows = pd.concat([rows, held], ignore_index=True) if len(rows) else held.reset_index(drop=True)
        rows = rows.sort_values(["source", "sheet", "row", "column"], kind="stable").reset_index(drop=True)
    return PushResult(sent.run_id, sent.target, sent.journal, frame_req, rows, valid_total, changed, skipped_rows,
                      list(files), not_sent if not_sent is not None else pd.DataFrame(columns=ROW_COLUMNS))


def requests_frame(sent: driver.Sent) -> pd.DataFrame:
    """One row per request of the run: hotel, month, outcome, HTTP status, codes and texts, ruid."""
    f = driver.requests_frame(sent)
    hotel = sent.frame["hotel_code"]
    out = f.assign(hotel=hotel.to_numpy(), month=sent.frame["month"].to_numpy(), cells=f["items"].to_numpy())
    return out[REQUEST_COLUMNS]


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
        "texts": texts, "error": texts, "source_rows": refused["source_rows"].to_numpy()})[REQUEST_COLUMNS]
