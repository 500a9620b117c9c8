"""The Dask engine, client side: plan the partitions, run them on ``dask.distributed``, gather.

    with cluster(workers=2) as client:          # a LocalCluster; cluster(scheduler="tcp://host:8786") joins one
        run = dry_run_on(client, ["s3://bucket/rates/"], "s3://bucket/out/", as_of="2026-12-01")
    run.manifest, run.errors, run.issues

Outputs (fsspec URLs): ``OUT/<hotel>-<YYYY-MM>.xml`` per request, ``OUT/manifest.csv`` and
``OUT/cells.parquet`` (the prices each request carries: a Parquet dataset, one part per partition
written by its worker, with the sheets' headers in its ``_common_metadata``; one process writes one
file, and both read the same), ``OUT/issues/part-NNNNN.parquet`` per partition, and for a delta
``OUT/accepted.parquet`` (the journal's snapshot the workers read).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from expectations import FxTable, read_fx_table
from expectations.rates import as_of_date
from loaders import Registry, read_rates
from loaders.issues import combine
from workbench.errors import SettingsError
from workbench.scale.parquet import is_parquet, parquet_files, scan_hotels
from workbench.scale.partitions import DEFAULT_SIZE, frame_partitions, parquet_partitions
from workbench.scale.pipeline import CELLS, Job, Partition, PartResult, first_issues, run_partition
from workbench.scale.storage import absolute, clear, describe_parts, join, remove, remove_tree, write_bytes
from workbench.writers import HEADERS_KEY, export_accepted, manifest

if TYPE_CHECKING:
    from distributed import Client

    from workbench.config import Settings

#: up to this many issues the client gathers them all (reports for people can be written)
REPORT_ISSUES = 100_000


CONNECT_TIMEOUT = "20s"  # to reach a running scheduler


@contextmanager
def cluster(workers: int | None = None, scheduler: str | None = None,
            timeout: str = CONNECT_TIMEOUT) -> Iterator[Client]:
    """A client of the cluster at ``scheduler`` (``tcp://host:8786``; ``SettingsError`` when it cannot be
    reached within ``timeout``), or of a new ``LocalCluster`` of ``workers`` processes with one thread
    each (default: one per core); closed on exit.

    The local workers run without Dask's statistical profiler (it samples every thread 100 times a
    second: ~5 % of a worker's CPU on this pipeline, measured); set
    ``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=true`` to have it (the dashboard's Profile page)."""
    import os

    import dask
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout=timeout)
        except OSError as exc:
            raise SettingsError(f"cannot reach the Dask scheduler `{scheduler}` ({exc}); start one with `dask "
                                "scheduler` and workers with `dask worker ADDRESS`, or leave --scheduler out to "
                                "start a local cluster") from None
        with client:
            batch_memory(client)
            yield client
        return
    profile = "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED" in os.environ and \
        bool(dask.config.get("distributed.worker.profile.enabled"))
    with dask.config.set({"distributed.worker.profile.enabled": profile}), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, silence_logs=logging.ERROR) as local, \
            Client(local) as client:
        batch_memory(client)
        yield client


def batch_memory(client: Client) -> None:
    """Register :class:`~workbench.scale.worker_memory.BatchMemory` with the cluster (its workers keep
    freed memory for the next partition) unless ``WORKBENCH_MALLOC_TUNING=0`` here."""
    from workbench.memory import wanted

    if wanted():
        from workbench.scale.worker_memory import BatchMemory

        client.register_plugin(BatchMemory())


@dataclass(repr=False)
class ClusterRun:
    """What a run on the cluster found and wrote."""

    parts: list[PartResult]
    issues: pd.DataFrame                  # every issue when ``complete``, else the first ones
    complete: bool
    directory: str | None = None
    manifest: pd.DataFrame = field(default_factory=lambda: manifest([], pd.DataFrame()))
    files: list[str] = field(default_factory=list)
    accepted_cells: int = 0               # cells in the journal's snapshot (a delta run)

    @property
    def rows(self) -> int:
        return sum(p.rows for p in self.parts)

    @property
    def errors(self) -> int:
        return sum(p.errors for p in self.parts)

    @property
    def warnings(self) -> int:
        return sum(p.warnings for p in self.parts)

    @property
    def ok(self) -> bool:
        return self.errors == 0

    @property
    def blocked(self) -> bool:
        return self.directory is not None and not all(p.built for p in self.parts)

    def not_checked(self) -> pd.DataFrame:
        """Per property: the rules that did not run for lack of facts (as ``RatesCheck.not_checked``)."""
        frames = [p.not_checked for p in self.parts if len(p.not_checked)]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["hotel_code", "rules", "why"])

    @property
    def cells(self) -> int:
        return int(self.manifest["cells"].sum()) if len(self.manifest) else 0

    @property
    def messages(self) -> int:
        return int(self.manifest["messages"].sum()) if len(self.manifest) else 0

    @property
    def skipped_rows(self) -> int:
        return sum(p.skipped_rows for p in self.parts)

    @property
    def repeated_rows(self) -> int:
        return sum(p.repeated_rows for p in self.parts)

    @property
    def valid_rows(self) -> int:
        return sum(p.valid_rows for p in self.parts)

    @property
    def peak_rss(self) -> int:
        return max((p.peak_rss for p in self.parts), default=0)

    def __repr__(self) -> str:
        built = f"; {len(self.manifest):,} requests for {self.cells:,} prices in {self.directory}" \
            if self.directory else ""
        return (f"<ClusterRun: {len(self.parts)} partitions, {self.rows:,} prices, {self.errors:,} errors, "
                f"{self.warnings:,} warnings{built}>")


def partitions(client: Client, sources: Sequence[str | Path], size: int = DEFAULT_SIZE, *,
               sheet: str | Sequence[str] | None = None, encoding: str | None = None,
               header_row: int | None = None) -> list[Partition]:
    """The partitions of ``sources``: Parquet files/folders (scanned and later read by the workers), or
    CSV/Excel files (read here and split); the two kinds cannot be mixed in one run."""
    urls = [absolute(s) for s in sources]
    parquet = [is_parquet(u) for u in urls]
    if any(parquet) and not all(parquet):
        from loaders import LoadError

        raise LoadError("give the Dask engine either Parquet sources or CSV/Excel files, not both: "
                        + ", ".join(f"`{u}`" for u, p in zip(urls, parquet, strict=True) if p) + " are Parquet",
                        source=urls[0])
    if all(parquet) and urls:
        files = [f for u in urls for f in parquet_files(u)]
        scans = client.gather(client.map(scan_hotels, files, pure=False))
        return parquet_partitions(list(scans), size)
    return frame_partitions(read_rates([Path(u) for u in urls], sheet=sheet, encoding=encoding,
                                       header_row=header_row), size)


def run(client: Client, parts: list[Partition], job: Job, progress: bool = True) -> list[PartResult]:
    """Every partition on the cluster, results in partition order; a bar counts the partitions done."""
    from distributed import as_completed

    from workbench.display import progress_bar as tqdm  # a notebook keeps the finished bar as text

    futures = client.map(run_partition, parts, job=job, pure=False)
    done: list[PartResult] = []
    with tqdm(total=len(futures), unit="partition", desc="Partitions", disable=not progress) as bar:
        try:
            for future in as_completed(futures):
                result = future.result()  # a partition that failed (not its data: the code) raises here
                done.append(result)
                bar.update(1)
                if result.errors:
                    bar.set_postfix_str(f"errors so far: {sum(r.errors for r in done):,}")
        except BaseException:
            client.cancel(futures)  # the others stop now, on a shared cluster too
            raise
    return sorted(done, key=lambda r: r.number)


def make_job(registry: Registry | None, as_of: dt.date | str | None, fx: FxTable | str | Path | None,
         **kw: object) -> Job:
    fx_table = fx if isinstance(fx, FxTable) else read_fx_table(fx)
    return Job(registry or Registry(), as_of_date(as_of), fx_table, **kw)  # type: ignore[arg-type]


def gathered(results: list[PartResult]) -> tuple[pd.DataFrame, bool]:
    """The issues of every partition (all of them when each sent them all and they are few enough)."""
    complete = all(r.complete for r in results) and sum(len(r.issues) for r in results) <= REPORT_ISSUES
    issues = combine([r.issues for r in results])
    return (issues, True) if complete else (first_issues(issues, 1000), False)


def validate_on(client: Client, sources: Iterable[str | Path], *, issues: str | None = None,
                registry: Registry | None = None, as_of: dt.date | str | None = None,
                fx: FxTable | str | Path | None = None, size: int = DEFAULT_SIZE, progress: bool = True,
                **read: object) -> ClusterRun:
    """Check ``sources`` on the cluster; the issues' Parquet parts go to ``issues`` (a folder URL) if given."""
    parts = partitions(client, list(sources), size, **read)  # type: ignore[arg-type]
    if issues is not None:
        issues = absolute(issues)
        remove_tree(issues)
    results = run(client, parts, make_job(registry, as_of, fx, issues=issues), progress)
    found, complete = gathered(results)
    return ClusterRun(results, found, complete)


def dry_run_on(client: Client, sources: Iterable[str | Path], out: str | Path, *, registry: Registry | None = None,
               as_of: dt.date | str | None = None, fx: FxTable | str | Path | None = None,
               skip_invalid: bool = False, spelling: str = "ota", journal: str | Path | None = None,
               target: str = "", size: int = DEFAULT_SIZE, progress: bool = True, platform: Settings | None = None,
               **read: object) -> ClusterRun:
    """Check ``sources`` and write the requests a push would send into ``out`` (a folder URL), as
    :func:`workbench.flows.rates.dry_run` does; with a ``journal`` and a ``target``, only the cells the
    platform has not accepted yet (the journal's accepted prices go to ``out/accepted.parquet`` first).
    With ``platform``, each partition's worker reads its properties' rooms and rate plans from it first.

    When there are errors and not ``skip_invalid``, nothing is written but the issues (``out/issues/``):
    ``blocked`` is true (the requests some partitions wrote before are removed again)."""
    out = absolute(out)
    parts = partitions(client, list(sources), size, **read)  # type: ignore[arg-type]
    clear(out, "*.xml")
    for old in ("issues", "cells", CELLS):  # ``cells``: the parts folder of earlier versions
        remove_tree(join(out, old))
    snapshot, accepted = None, 0
    if journal is not None and target:
        snapshot = join(out, "accepted.parquet")
        accepted = export_accepted(journal, target, snapshot)
    job = make_job(registry, as_of, fx, issues=join(out, "issues"), out=out, skip_invalid=skip_invalid,
                   spelling=spelling, timestamp=dt.datetime.now(dt.UTC), accepted=snapshot if accepted else None,
                   platform=platform)
    results = run(client, parts, job, progress)
    found, complete = gathered(results)
    done = ClusterRun(results, found, complete, out, accepted_cells=accepted)
    if done.blocked:
        remove([join(out, f) for r in results for f in r.manifest["file"]])
        remove_tree(join(out, CELLS))
        return done
    headers = [[s, h, dict(v)] for r in results for (s, h), v in r.headers.items()]
    describe_parts(join(out, CELLS), {HEADERS_KEY: json.dumps(headers).encode("utf-8")})
    manifests = [r.manifest for r in results if len(r.manifest)]
    if manifests:
        done.manifest = pd.concat(manifests, ignore_index=True).sort_values(["hotel", "month"], kind="stable") \
            .reset_index(drop=True)
    write_bytes(join(out, "manifest.csv"), done.manifest.to_csv(index=False).encode())
    return done
