"""Availability, as a kind of the one send driver: deltas against the journal, one ``OTA_HotelAvailNotif``
request per hotel and month, every outcome journalled as it arrives and traced back to the cells.

Takes canonical availability rows (already checked: ``check.valid_frame()``); the analyst's entry point,
which checks and plans first, is :func:`workbench.flows.availability.push_availability`.

**Partial success.** The platform applies each ``AvailStatusMessage`` on its own: an answer that is a
2xx with ``Errors`` naming messages by ``RecordID`` (their ``LocatorID``) and no ``Success`` applied the
messages it does not name (platform-now §2.6: the shape is not published; the sandbox answers so). The
transport classifies that answer ``rejected`` (an OTA 2xx with errors); :meth:`AvailabilityKind.answer`
reads it as ``partial`` and :meth:`AvailabilityKind.accept` names the values of the messages applied, so
the journal accepts those and not the refused ones, and each row says which it was. An error that names
no message of the request (no ``RecordID``, or one the request does not have) refuses the request whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from workbench.config import Settings
from workbench.transport.result import Outcome, Result
from workbench.wording import count, fact
from workbench.writers import driver
from workbench.writers.avail_requests import availability_folder_plan, item_keys, planned_availability
from workbench.writers.avail_rows import AVAILABILITY, ROW_COLUMNS, rows_frame
from workbench.writers.batches import row_ranges
from workbench.writers.journal import DEFAULT_JOURNAL, PARTIAL, Journal
from workbench.writers.kind import Answer, Kind
from workbench.writers.outcome import PushOutcome
from workbench.writers.planned import Planned

#: ``AvailabilityPushResult.requests``
REQUEST_COLUMNS = AVAILABILITY.request_columns + ["errors", "warnings"]


@dataclass(repr=False)
class AvailabilityPushResult(PushOutcome):
    """What an availability push did: per request and per spreadsheet cell, plus the delta figures."""

    run_id: int
    target: str
    journal: Path
    requests: pd.DataFrame
    rows: pd.DataFrame
    values_total: int
    values_changed: int
    skipped_rows: int = 0
    files: list[Path] = field(default_factory=list)
    #: the cells left out for errors (``skip_invalid``), in the columns of ``rows``
    not_sent: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=ROW_COLUMNS))
    kind: ClassVar = AVAILABILITY

    def headline(self) -> str:
        return (f"Run {self.run_id}: {self.values_changed:,} of {count(self.values_total, 'value')} changed since the last "
                "accepted push")

    def summary(self) -> str:
        parts = ", ".join(f"{n:,} {k}" for k, n in sorted(self.counts.items())) or "nothing to send"
        held = int((self.rows["outcome"] == "not sent").sum()) if len(self.rows) else 0
        return (f"{count(len(self.requests), 'request')}: {parts}. {self.values_changed:,} of "
                f"{count(self.values_total, 'value')} changed since the last accepted push"
                + (f"; {count(self.skipped_rows, 'value')} with errors not sent" if self.skipped_rows else "")
                + (f"; {count(held, 'cell')} not sent (repeats)" if held else ""))

    def verdict(self) -> str:
        if self.requests.empty:
            return "nothing to send: the platform already has every value"
        partial = self.counts.get(PARTIAL, 0)
        return super().verdict() + (f" ({partial} in part)" if partial else "")

    def facts(self) -> list[tuple[str, str]]:
        return [(f"{self.values_changed:,} of {self.values_total:,}", "values changed since the last accepted push"),
                fact(self.skipped_rows, "value with errors left out", "values with errors left out"), (str(self.run_id), "run:")]

    def __repr__(self) -> str:
        return f"<AvailabilityPushResult run {self.run_id} to {self.target}: {self.summary()}>"


def refused_locators(planned: Planned, result: Result) -> set[int] | None:
    """The ``LocatorID``s of the messages the answer's errors name (every error names one of the
    request's messages), or None when an error names none of them: the request was refused whole."""
    found: set[int] = set()
    for n in result.errors:
        record = str(n.record_id or "").strip()
        if not record.isdigit() or not 1 <= int(record) <= planned.messages:
            return None
        found.add(int(record))
    return found


class AvailabilityKind(Kind):
    """Availability in the send driver: values journalled in their own tables; an answer refusing some
    messages accepts the others (``partial``)."""

    info = AVAILABILITY

    def record(self, journal: Journal, run_id: int, target: str, planned: Sequence[Planned]) -> list[int]:
        return journal.add_avail_requests(run_id, target, planned)

    def answer(self, planned: Planned, result: Result, sends: int, ruids: Sequence[str]) -> Answer:
        if result.outcome is Outcome.REJECTED and result.status is not None and 200 <= result.status < 300 \
                and result.errors and not result.fatal:
            refused = refused_locators(planned, result)
            if refused is not None and len(refused) < planned.messages:
                applied = planned.messages - len(refused)
                return Answer(PARTIAL, error=result.error, note=(
                    f"applied in part: {applied:,} of {count(planned.messages, 'message')} applied; the platform refused "
                    f"LocatorID {row_ranges(sorted(refused))} (their rows say why)"))
        return super().answer(planned, result, sends, ruids)

    def accept(self, planned: Planned, result: Result, answer: Answer) -> list[tuple[str, str]] | None:
        if answer.status != PARTIAL or planned.rows is None:
            return None
        refused = refused_locators(planned, result) or set()
        rows = planned.rows[~planned.rows["locator"].isin(sorted(refused))]
        items = item_keys(pd.Series(planned.hotel_code, index=rows.index), rows["inv_type_code"],
                          rows["rate_plan_code"], rows["date"], rows["restriction"])
        return list(zip(items.tolist(), rows["value"].astype(str).tolist(), strict=True))


def avail_requests(delta: pd.DataFrame, reading: str) -> list[Planned]:
    """The requests for ``delta`` (availability rows to send), as the driver takes them."""
    if delta.empty:
        return []
    requests, cells = availability_folder_plan(delta, reading=reading)
    return planned_availability(requests, cells, reading, state=False)


def send_availability(valid: pd.DataFrame, settings: Settings, *, journal: str | Path = DEFAULT_JOURNAL,
                      full: bool = False, progress: bool = True, command: str = "", client_options: dict | None = None,
                      skipped_rows: int = 0, files: Sequence[Path] = (), held: pd.DataFrame | None = None,
                      not_sent: pd.DataFrame | None = None, lock_wait: float = 0.0,
                      client: Any | None = None) -> AvailabilityPushResult:
    """Send the values of ``valid`` (canonical availability rows, checked, no repeats) the platform has not
    accepted yet (every one with ``full``); every outcome goes into the journal. ``held``: lines of
    :data:`ROW_COLUMNS` for rows deliberately not sent (repeats), added to ``rows``."""
    from workbench.writers.avail_deltas import changed_availability

    target = driver.target_of(settings)
    headers = valid.attrs.get("headers", {})
    valid = valid.reset_index(drop=True)
    counts: dict[str, int] = {"cells_total": len(valid)}

    def prepare(j: Journal) -> list[Planned]:
        delta = valid if full else valid[changed_availability(valid, j.path, target)].reset_index(drop=True)
        counts["cells_changed"] = len(delta)
        return avail_requests(delta, settings.los_reading)

    def result(sent: driver.Sent) -> AvailabilityPushResult:
        return availability_result(sent, total=len(valid), changed=counts.get("cells_changed", 0), headers=headers,
                                   skipped_rows=skipped_rows, files=files, held=held, not_sent=not_sent)

    try:
        sent = driver.send(AvailabilityKind(), prepare, settings, journal=journal, command=command, progress=progress,
                           client=client, client_options=client_options, lock_wait=lock_wait, counts=counts)
    except driver.PushInterrupted as stopped:  # the reports still say what was sent
        stopped.result = result(stopped.sent)
        raise
    return result(sent)


def availability_result(sent: driver.Sent, *, total: int, changed: int, headers: dict, skipped_rows: int = 0,
                        files: Sequence[Path] = (), held: pd.DataFrame | None = None,
                        not_sent: pd.DataFrame | None = None) -> AvailabilityPushResult:
    """The :class:`AvailabilityPushResult` of an availability run of the driver."""
    with Journal(sent.journal) as j:
        rows = rows_frame(j, sent.run_id, headers)
    f = driver.requests_frame(sent)
    requests = f.assign(hotel=sent.frame["hotel_code"].to_numpy(), month=sent.frame["month"].to_numpy(),
                        cells=f["items"].to_numpy())
    requests["texts"] = [" | ".join(t for t in (note, texts) if isinstance(t, str) and t)
                         for note, texts in zip(requests["note"], requests["texts"], strict=True)]
    if held is not None and len(held):
        rows = pd.concat([rows, held], ignore_index=True) if len(rows) else held.reset_index(drop=True)
        rows = rows.sort_values(["source", "sheet", "row", "column"], kind="stable").reset_index(drop=True)
    return AvailabilityPushResult(sent.run_id, sent.target, sent.journal, requests[REQUEST_COLUMNS], rows, total,
                                  changed, skipped_rows, list(files),
                                  not_sent if not_sent is not None else pd.DataFrame(columns=ROW_COLUMNS))


__all__ = ["AVAILABILITY", "AvailabilityKind", "AvailabilityPushResult", "REQUEST_COLUMNS", "ROW_COLUMNS",
           "avail_requests", "availability_result", "refused_locators", "send_availability"]
