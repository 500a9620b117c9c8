"""``--engine dask`` of ``workbench validate rates`` and ``workbench push rates --dry-run DIR``: the
options, and the runs on a cluster (a LocalCluster, or the one ``--scheduler`` names)."""

from __future__ import annotations

import datetime as dt
import re
from contextlib import ExitStack, contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from workbench.cli.console import check_paths, console, fail, print_issues, written
from workbench.wording import agree, count

if TYPE_CHECKING:
    from collections.abc import Iterator

    from distributed import Client

    from workbench.scale import ClusterRun


class Engine(StrEnum):
    local = "local"
    dask = "dask"


EngineOpt = Annotated[Engine, typer.Option(
    "--engine", help="local: one process; dask: partitions of hotels on a Dask cluster (see docs/scale.md).")]
WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", min=1, help="With --engine dask: start a LocalCluster of this many worker processes (default: one "
                             "per core).", show_default=False)]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help="With --engine dask: use the running cluster of this scheduler (tcp://host:8786) instead "
                        "of starting one.", show_default=False)]
PartitionSizeOpt = Annotated[int, typer.Option(
    "--partition-size", min=1, metavar="HOTELS", help="With --engine dask: hotels per partition.")]
IssuesOpt = Annotated[str | None, typer.Option(
    "--issues", metavar="DIR", help="With --engine dask: write every issue as Parquet parts into this folder (a "
                                    "path or an fsspec URL).", show_default=False)]
DEFAULT_PARTITION_SIZE = 100


def url(path: Path | str) -> str:
    """The text given on the command line (typer reads it as a path, which folds ``s3://`` to ``s3:/``)."""
    return re.sub(r"^([A-Za-z][A-Za-z0-9+.\-]*):/(?!/)", r"\1://", str(path))


def check_engine(engine: Engine, workers: int | None, scheduler: str | None, size: int,
                 extra: dict[str, object] | None = None) -> None:
    """Refuse (exit 2) the Dask options without ``--engine dask``, and ``--workers`` with ``--scheduler``."""
    given = {"--workers": workers, "--scheduler": scheduler,
             "--partition-size": None if size == DEFAULT_PARTITION_SIZE else size, **(extra or {})}
    if engine is Engine.local:
        named = [k for k, v in given.items() if v]
        if named:
            fail(f"{', '.join(named)} {agree(len(named), 'works', 'work')} with --engine dask only; add it, or "
                 f"leave {'it' if len(named) == 1 else 'them'} out")
    elif workers and scheduler:
        fail("--workers starts a local cluster and --scheduler uses a running one: give one of them")


@contextmanager
def _client(workers: int | None, scheduler: str | None) -> Iterator[Client]:
    """The cluster's client (closed on exit); prints where its dashboard is."""
    from workbench.scale import cluster

    with ExitStack() as stack:
        with console.status(f"Connecting to {scheduler}…" if scheduler else "Starting a local Dask cluster…"):
            client = stack.enter_context(cluster(workers=workers, scheduler=scheduler))
        workers_up = len(client.scheduler_info().get("workers", {}))
        console.print(f"Dask cluster: {count(workers_up, 'worker')}; dashboard: "
                      f"[link]{escape(str(client.dashboard_link))}[/]")
        yield client


def print_run(run: ClusterRun, limit: int) -> None:
    """The issues as one process prints them; when there are too many to gather, the counts and the first ones."""
    if run.complete:
        print_issues(run.issues, rows=run.rows, limit=limit)
        return
    colour = "red" if run.errors else "green"
    console.print(f"{count(run.rows, 'price')} read; [{colour}]{count(run.errors, 'error')}[/], "
                  f"[yellow]{count(run.warnings, 'warning')}[/] (the first ones follow; all of them are in the Parquet "
                  "parts)")
    print_issues(run.issues.head(limit), limit=limit)


def write_reports(run: ClusterRun, paths: list[Path] | None, files: list[Path], as_of: dt.date | None) -> None:
    """The usual reports, when the issues are few enough for a person (else: where they are instead)."""
    from workbench.reports.validation import ReportContext, write_report

    for path in paths or []:
        if not run.complete:
            fail(f"not writing `{path}`: {count(run.errors + run.warnings, 'issue')} are too many for a report a person "
                 "reads; they are in the Parquet parts (--issues DIR, or DIR/issues/ of a dry run)", code=1)
        ctx = ReportContext(title="Rates validation", files=files, as_of=as_of, rows_checked=run.rows)
        try:
            with console.status(f"Writing {path}…"):
                done = write_report(run.issues, path, ctx)
        except (ValueError, OSError) as exc:
            fail(f"cannot write the report `{path}`: {exc}")
        written(done)


def _read_registry(registry: list[Path] | None):
    from loaders import read_registry

    return read_registry(registry) if registry else None


def validate_on_cluster(files: list[Path], *, as_of: dt.date | None, registry: list[Path] | None, fx: Path | None,
                        sheet: list[str] | None, encoding: str | None, header_row: int | None,
                        report: list[Path] | None, show: int, workers: int | None, scheduler: str | None,
                        size: int, issues: str | None) -> ClusterRun:
    """``validate rates --engine dask``: check on the cluster, print, write the reports."""
    from loaders import LoadError
    from workbench.errors import SettingsError
    from workbench.reports.validation import check_report_path
    from workbench.scale import validate_on

    check_paths(report, check_report_path)
    try:
        reg = _read_registry(registry)
        with _client(workers, scheduler) as client:
            run = validate_on(client, [url(f) for f in files], issues=url(issues) if issues else None, registry=reg,
                              as_of=as_of, fx=fx, size=size, sheet=sheet or None, encoding=encoding,
                              header_row=header_row)
    except (LoadError, SettingsError) as exc:
        fail(str(exc))
    print_run(run, show)
    write_reports(run, report, [f for f in files if "://" not in url(f)], as_of)
    return run


def dry_run_on_cluster(files: list[Path], out: Path, *, as_of: dt.date | None, registry: list[Path] | None,
                       fx: Path | None, sheet: list[str] | None, encoding: str | None, header_row: int | None,
                       skip_invalid: bool, spelling: str, target: str, journal: Path, full: bool,
                       workers: int | None, scheduler: str | None, size: int, platform=None) -> ClusterRun:
    """``push rates --dry-run DIR --engine dask``: check and build on the cluster, only the cells the
    journal has not seen accepted by ``target`` unless ``full``; with ``platform`` (settings), the workers
    read their properties' rooms and rate plans from it first."""
    from loaders import LoadError
    from workbench.errors import SettingsError
    from workbench.scale import dry_run_on

    folder = url(out)
    try:
        reg = _read_registry(registry)
        with _client(workers, scheduler) as client:
            run = dry_run_on(client, [url(f) for f in files], folder, registry=reg, as_of=as_of, fx=fx,
                             skip_invalid=skip_invalid, spelling=spelling, journal=None if full else journal,
                             target=target, size=size, sheet=sheet or None, encoding=encoding, header_row=header_row,
                             platform=platform)
    except (LoadError, SettingsError) as exc:
        fail(str(exc))
    print_run(run, 10)
    if run.blocked:
        console.print(f"[red]Nothing written:[/] {count(run.errors, 'error')} {agree(run.errors, 'blocks', 'block')} "
                      "the push; fix them, or send only the "
                      f"rows without errors with --skip-invalid (the issues: {escape(folder)}/issues/)")
        raise typer.Exit(1)
    delta = (f"; {count(run.valid_rows - run.cells, 'price')} the platform already accepted left out "
             f"(journal {escape(str(journal))})" if run.accepted_cells else "")
    console.print(f"[green]Wrote {count(len(run.manifest), 'request')}[/] with {count(run.messages, 'message')} for "
                  f"{count(run.cells, 'price')} into [bold]{escape(folder)}[/] (see manifest.csv; send them with "
                  f"`workbench push requests {escape(folder)}`)"
                  + (f"; {count(run.skipped_rows, 'price')} with errors skipped" if run.skipped_rows else "")
                  + (f"; {count(run.repeated_rows, 'repeated price')} not written (the first is)"
                     if run.repeated_rows else "") + delta)
    return run
