"""One partition's work, on a worker: load -> validate -> (delta) -> compress -> build -> write.

The same functions as one process (``validate_rates``, :class:`~workbench.flows.rates.RatesCheck`'s
masks, ``plan_folder`` and ``manifest`` of :mod:`workbench.writers.request_folder`) on the rows of a group of hotels. Every rule of the
platform looks at one hotel at a time (a price, a night, a room-rate, a cell, a property), so the
issues and requests of a partition are exactly the single-process ones of its hotels.

What a partition writes (``NNNNN`` its number): ``ISSUES/part-NNNNN.parquet`` and, for a dry
run, ``OUT/<hotel>-<YYYY-MM>.xml`` per request and ``OUT/cells.parquet/part-NNNNN.parquet`` (the
prices they carry); it returns a small :class:`PartResult`.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from expectations import FxTable, validate_rates
from loaders import Loaded, Registry
from loaders.issues import empty_issues
from workbench.flows import RatesCheck
from workbench.scale.parquet import FileSlice, concat_loaded, read_slice
from workbench.scale.storage import join, write_files, write_parquet
from workbench.writers import (
    CELL_COLUMNS,
    CELLS,
    RateRequest,
    cell_keys,
    changed_against,
    manifest,
    plan_folder,
)
from workbench.writers import read_accepted_snapshot as read_accepted

if TYPE_CHECKING:
    from workbench.config import Settings

#: a partition sends its issues back to the client when it has at most this many (else only the
#: first ones and the counts: the rest are in its Parquet part)
RETURN_ISSUES = 20_000


@dataclass(frozen=True)
class Job:
    """What every partition of a run shares."""

    registry: Registry
    as_of: dt.date
    fx: FxTable
    issues: str | None = None        # URL of the folder for the issues' Parquet parts
    out: str | None = None           # URL of the dry-run folder (None: validate only)
    skip_invalid: bool = False
    spelling: str = "ota"
    timestamp: dt.datetime | None = None
    accepted: str | None = None      # URL of the journal's snapshot (None: build every cell)
    platform: Settings | None = None  # read each partition's rooms and rate plans from this platform (roomrates)


@dataclass(frozen=True)
class Partition:
    """A group of hotels: Parquet slices the worker reads, or rows the client already read."""

    number: int
    slices: tuple[FileSlice, ...] = ()
    loaded: Loaded | None = None

    def load(self) -> Loaded:
        if self.loaded is not None:
            return self.loaded
        return concat_loaded([read_slice(s) for s in self.slices])


@dataclass
class PartResult:
    """What a partition sends back: its figures, its issues (all, or the first ones), its manifest."""

    number: int
    rows: int
    errors: int
    warnings: int
    issues: pd.DataFrame
    complete: bool                   # ``issues`` holds all of them
    not_checked: pd.DataFrame
    manifest: pd.DataFrame = field(default_factory=lambda: manifest([], pd.DataFrame()))
    built: bool = False              # requests written (no errors, or skip_invalid)
    skipped_rows: int = 0
    repeated_rows: int = 0
    valid_rows: int = 0              # rows a push would consider (before the delta)
    peak_rss: int = 0                # bytes, the worker process's peak so far
    cpu_seconds: float = 0.0         # CPU time this partition took (its process's, all threads)
    seconds: float = 0.0             # wall-clock time this partition took
    process: int = 0                 # the id of the process that ran it
    headers: dict = field(default_factory=dict)  # the sheets' header names, per (source, sheet)


def run_partition(part: Partition, job: Job) -> PartResult:
    """Load, check and (for a dry run) build and write one partition."""
    cpu, wall = time.process_time(), time.perf_counter()
    frame, load_issues = part.load()
    registry = with_platform(job, frame)
    issues = validate_rates(frame, registry=registry, as_of=job.as_of, fx=job.fx, load_issues=load_issues)
    check = RatesCheck(frame, issues, registry, job.as_of)
    if job.issues is not None and len(issues):
        write_parquet(issues, join(job.issues, f"part-{part.number:05d}.parquet"))
    errors = int((issues["severity"] == "error").sum())
    complete = len(issues) <= RETURN_ISSUES
    shown = issues if complete else first_issues(issues, RETURN_ISSUES)
    result = PartResult(part.number, len(frame), errors, int((issues["severity"] == "warning").sum()), shown,
                        complete, check.not_checked(), headers=frame.attrs.get("headers", {}))
    if job.out is not None and (errors == 0 or job.skip_invalid):
        invalid = check.invalid_mask()
        valid = frame[~(invalid | check.repeat_mask())]
        result.valid_rows, result.skipped_rows = len(valid), int(invalid.sum())
        result.repeated_rows = int(check.repeat_mask().sum())
        if job.accepted is not None and len(valid):
            valid = valid[changed(valid, job.accepted)]
        requests, cells = build(valid, job)
        write_files(job.out, ((f"{r.key}.xml", r.body) for r in requests))
        if len(cells):
            write_parquet(cells, join(job.out, CELLS, f"part-{part.number:05d}.parquet"))
        result.manifest, result.built = manifest(requests, cells), True
    result.peak_rss, result.cpu_seconds, result.process = peak_rss(), time.process_time() - cpu, os.getpid()
    result.seconds = time.perf_counter() - wall
    return result


def with_platform(job: Job, frame: pd.DataFrame) -> Registry:
    """The job's registry, merged with what the platform says of this partition's properties when the job
    names a platform (as a one-process push reads it before checking). Every worker calls with the same
    machine account: they share its token (``workbench.transport.token_cache``), one exchange for them all."""
    if job.platform is None or not len(frame):
        return job.registry
    from workbench.platform import fetch_registry

    return job.registry.merge(fetch_registry(job.platform, frame["hotel_code"].dropna().astype(int).unique()))


def build(valid: pd.DataFrame, job: Job) -> tuple[list[RateRequest], pd.DataFrame]:
    """The requests for ``valid`` and the cells they carry (:data:`CELL_COLUMNS` + ``file, month,
    locator``: what a dry-run folder's ``cells.parquet`` holds for ``push requests DIR``)."""
    if valid.empty:
        return [], pd.DataFrame(columns=[*CELL_COLUMNS, "file", "month", "locator"])
    requests, cells = plan_folder(valid, spelling=job.spelling, timestamp=job.timestamp)
    cells.attrs = {}  # the headers go into cells.parquet's metadata once, from the client
    return requests, cells.astype({"month": "string", "file": "string", "locator": "int64"})


def changed(valid: pd.DataFrame, snapshot: str) -> np.ndarray:
    """The rows of ``valid`` whose price the snapshot of the journal does not hold."""
    keys = cell_keys(valid)
    hotels = keys["hotel_code"]
    return changed_against(keys, read_accepted(snapshot, int(hotels.min()), int(hotels.max())))


def first_issues(issues: pd.DataFrame, n: int) -> pd.DataFrame:
    """The first ``n`` errors, then warnings (the order the console prints them)."""
    if issues.empty:
        return empty_issues()
    return pd.concat([issues[issues["severity"] == "error"].head(n),
                      issues[issues["severity"] != "error"].head(n)]).head(n)


def peak_rss() -> int:
    """The peak resident memory of this process, in bytes (0 where the platform does not say)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return 0
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024
