"""Availability to the platform: the dry run, the plan and the push of a checked workbook, and the push of a
dry-run folder (``push requests DIR``), through the one push path (:mod:`workbench.writers.avail_push`).

>>> from workbench import check_availability, dry_run, plan_availability, push_availability
>>> check = check_availability("availability.xlsx", registry="registry.xlsx")
>>> dry_run(check, "out/availability")                  # the requests, nothing sent
>>> plan_availability(check, settings, journal=".workbench/journal.sqlite")   # what a push would change
>>> push_availability(check, settings, journal=".workbench/journal.sqlite", skip_invalid=True)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.config import Settings
from workbench.errors import SettingsError
from workbench.flows.availability_dry import AvailabilityDryRun, blocked_text, dry_run
from workbench.flows.availability_dry import blocked as _blocked
from workbench.transport.estimate import send_estimate
from workbench.wording import count
from workbench.writers import (
    AVAILABILITY_OPERATION as OPERATION,
)
from workbench.writers import (
    DEFAULT_JOURNAL,
    AvailabilityKind,
    AvailabilityPlan,
    AvailabilityPushResult,
    Journal,
    Planned,
    PushInterrupted,
    Sent,
    availability_result,
    changed_availability,
    compress_availability,
    diff_availability,
    planned_availability,
    read_accepted_availability,
    read_folder,
    send,
    send_availability,
    target_of,
)
from workbench.writers import avail_held_lines as held_lines

if TYPE_CHECKING:
    from workbench.flows.availability import AvailabilityCheck

PathLike = str | Path


def availability_target(settings: Settings | None, journal: PathLike) -> str:
    """The target a plan compares with: the settings' base URL, else the journal's only availability target
    ('' when it has none; several without a base URL cannot be chosen)."""
    chosen = ((settings.base_url if settings else "") or "").rstrip("/")
    if chosen or not Path(journal).is_file():
        return chosen
    with Journal(journal) as j:
        known = j.avail_targets()
    if len(known) > 1:
        raise SettingsError(f"the journal `{journal}` holds accepted availability of {count(len(known), 'platform')} "
                            f"({', '.join(known)}): say which with WORKBENCH_BASE_URL or --env-file")
    return known[0] if known else ""


def plan_availability(check: AvailabilityCheck, settings: Settings | None = None, *,
                      journal: PathLike = DEFAULT_JOURNAL, skip_invalid: bool = False,
                      full: bool = False) -> AvailabilityPlan:
    """What ``push_availability(check, settings, journal=..., skip_invalid=..., full=...)`` would do, without
    sending anything or writing the journal: per value added, changed or unchanged against what the journal
    says the platform accepted; the requests and messages of the delta and the least send time. When errors
    would stop the push (``skip_invalid`` not given), ``plan.blocked`` says so and the plan shows what
    ``skip_invalid`` would send."""
    settings = settings or Settings()
    target = availability_target(settings, journal)
    send = check.valid_frame().reset_index(drop=True)
    hotels = pd.unique(send["hotel_code"].to_numpy(np.int64)) if len(send) else []
    accepted = read_accepted_availability(journal, target, hotels) if target else None
    diff = diff_availability(send, accepted if accepted is not None else send.iloc[:0])
    delta = send if full else send[diff.send_mask]
    compressed = compress_availability(delta)
    requests = int(compressed.messages[["hotel_code", "month"]].drop_duplicates().shape[0]) if len(delta) else 0
    return AvailabilityPlan(target, Path(journal), send, diff, requests, len(compressed.messages),
                            send_estimate(settings, OPERATION, requests), full, int(check.not_sent_mask().sum()),
                            blocked_text(check, skip_invalid))


def push_availability(check: AvailabilityCheck, settings: Settings, *, journal: PathLike = DEFAULT_JOURNAL,
                      skip_invalid: bool = False, full: bool = False, progress: bool = True, command: str = "",
                      client_options: dict | None = None, lock_wait: float = 0.0,
                      client: Any | None = None) -> AvailabilityPushResult:
    """Send what changed since the platform last accepted it (everything with ``full``).

    Raises :class:`~workbench.errors.BlockedByErrors` when the check has errors and ``skip_invalid`` was not
    asked for (nothing is sent then). Values not sent are reported all the same: those left out for errors in
    ``result.not_sent`` (``not sent (errors)``), repeats of an earlier row in ``result.rows`` (``not sent``).
    An answer refusing some messages of a request applies the others (``partial``: each row says which).
    Another push on the same journal makes this one wait up to ``lock_wait`` seconds, then raise
    :class:`~workbench.writers.send_lock.JournalBusy`."""
    _blocked(check, skip_invalid)
    invalid, repeated = check.invalid_mask(), check.repeat_mask()
    frame = check.frame.reset_index(drop=True)
    repeats = frame[repeated & ~invalid]
    held = held_lines(repeats, outcome="not sent", severity="warning", codes="duplicate_key",
                      message="not sent: repeats an earlier row setting the same value of the same night (the "
                              "first is sent)")
    valid = frame[~(invalid | repeated)]
    valid.attrs = frame.attrs
    return send_availability(valid, settings, journal=journal, full=full, progress=progress, command=command,
                             client_options=client_options, skipped_rows=int(invalid.sum()), files=check.files,
                             held=held, not_sent=check.not_sent(), lock_wait=lock_wait, client=client)


def push_availability_folder(directory: PathLike, settings: Settings, *, journal: PathLike = DEFAULT_JOURNAL,
                             full: bool = False, progress: bool = True, command: str = "",
                             client_options: dict | None = None, lock_wait: float = 0.0,
                             client: Any | None = None) -> AvailabilityPushResult:
    """Send the requests of an availability dry-run folder carrying a value the platform has not accepted yet
    (all of them with ``full``), as written (an edited one is refused): a request with one changed value is
    sent whole. A killed run started again sends only what the journal does not record as accepted."""
    target_of(settings)
    folder = read_folder(directory)
    cells = folder.cells
    counts = {"cells_total": len(cells), "cells_changed": 0}

    def prepare(j: Journal) -> list[Planned]:
        target = target_of(settings)
        changed = np.ones(len(cells), dtype=bool) if full or cells.empty else changed_availability(cells, j.path,
                                                                                                   target)
        wanted = set(cells.loc[changed, "file"].astype(str))
        requests = [r for f, r in zip(folder.manifest["file"], folder.requests, strict=True) if str(f) in wanted]
        counts["cells_changed"] = int(sum(r.cells for r in requests))
        return planned_availability(requests, cells, settings.los_reading, state=False)

    def result(sent: Sent) -> AvailabilityPushResult:
        return availability_result(sent, total=len(cells), changed=counts["cells_changed"], headers=folder.headers)

    try:
        sent = send(AvailabilityKind(), prepare, settings, journal=journal, command=command, progress=progress,
                           client=client, client_options=client_options, lock_wait=lock_wait, counts=counts)
    except PushInterrupted as stopped:
        stopped.result = result(stopped.sent)
        raise
    return result(sent)


__all__ = ["AvailabilityDryRun", "availability_target", "blocked_text", "dry_run", "plan_availability",
           "push_availability", "push_availability_folder"]
