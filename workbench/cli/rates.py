"""``workbench validate rates`` and ``workbench push rates``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from workbench.cli import summary
from workbench.cli.common import (
    AsOf,
    EncodingOpt,
    EnvFileOpt,
    Files,
    FxOpt,
    HeaderRowOpt,
    JournalOpt,
    PushReports,
    RegistryOpt,
    ReportOpt,
    SheetOpt,
    WaitOpt,
    WaiversOpt,
    load_settings,
    print_skipped,
    push_app,
    validate_app,
    write_each,
)
from workbench.cli.console import (
    check_paths,
    console,
    fail,
    print_issues,
    print_outcome,
    print_push_result,
    written,
)
from workbench.cli.kinds import refuse_other_kind
from workbench.cli.paths import PathsOf, check_outputs
from workbench.cli.scale import (
    DEFAULT_PARTITION_SIZE,
    Engine,
    EngineOpt,
    IssuesOpt,
    PartitionSizeOpt,
    SchedulerOpt,
    WorkersOpt,
    check_engine,
)
from workbench.cli.signals import finishing


def _as_of(value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        fail(f"--as-of `{value}` is not a date: write it as YYYY-MM-DD")
        raise


def _checked(files: list[Path], sheet: list[str] | None, registry: list[Path] | None, day: dt.date | None,
             fx: Path | None, encoding: str | None = None, header_row: int | None = None, waivers: Path | None = None,
             **platform: object):
    """``workbench.flows.rates.check_rates`` as every rates command calls it (``platform``: its ``settings``,
    ``journal``, ``price_jumps``, ``fetch_registry``), each step in the spinner; then which sheets were
    skipped and how many warnings the waivers set aside. Raises what the flow raises (``LoadError``,
    ``WorkbenchError``): the command decides what it writes before failing.

    The checks' modules are imported in the background while the files are read (Great Expectations
    itself only when a row may fail a rule: ``expectations.engine``)."""
    from workbench.cli.prefetch import import_in_background
    from workbench.memory import batch_process

    batch_process()
    import_in_background("expectations.rates", "workbench.flows.plan")
    from workbench.flows import check_rates

    with console.status("Reading…") as status:
        check = check_rates(files, sheet=sheet or None, registry=registry or None, as_of=day, fx=fx,
                            encoding=encoding, header_row=header_row, waivers=waivers,
                            progress=lambda step: _stage(status, step), **platform)  # type: ignore[arg-type]
    print_skipped(check.issues)
    if waivers is not None and len(check.waived):
        console.print(f"[dim]{len(check.waived):,} warning(s) waived by {escape(waivers.name)}: listed apart in the "
                      "reports, counted nowhere[/]")
    return check


def _inputs(files: list[Path], registry: list[Path] | None, fx: Path | None, waivers: Path | None,
            env_file: Path | None = None) -> dict[str, PathsOf]:
    """What a rates command reads, by option (for :func:`~workbench.cli.paths.check_outputs`)."""
    return {"files": files, "--registry": registry, "--fx": fx, "--waivers": waivers, "--env-file": env_file}


def _stage(status, step: str) -> None:
    """A stage of the check in the spinner (and a line of its own with --verbose)."""
    summary.stage(step)
    status.update(escape(step))


def _check(files: list[Path], sheet: list[str] | None, registry: list[Path] | None, day: dt.date | None,
           fx: Path | None, encoding: str | None = None, header_row: int | None = None, waivers: Path | None = None):
    """:func:`_checked` for ``validate``: a file that cannot be used is one line, exit 2."""
    from loaders import LoadError

    try:
        return _checked(files, sheet, registry, day, fx, encoding, header_row, waivers)
    except LoadError as exc:
        fail(str(exc))


def _print_not_checked(check) -> None:
    """One line naming the rules that did not run for lack of facts, and where they come from."""
    missing = check.not_checked()
    if missing.empty:
        return
    rules = sorted({r for rs in missing["rules"] for r in rs})
    hotels = ", ".join(str(h) for h in missing["hotel_code"].head(5)) + (" …" if len(missing) > 5 else "")
    console.print(f"[yellow]Not fully checked[/] ({len(missing)} propert{'y' if len(missing) == 1 else 'ies'}: "
                  f"{hotels}): {', '.join(rules)} did not run or ran on a guess, for lack of facts the platform "
                  "does not send (currency, pricing model, FollowsPrice) or no registry gave; give them with "
                  "--registry FILE (see the `not_checked` warnings)")


@validate_app.command("rates")
def validate_rates_cmd(
    files: Files,
    as_of: AsOf = None,
    registry: RegistryOpt = None,
    report: ReportOpt = None,
    sheet: SheetOpt = None,
    fx: FxOpt = None,
    show: Annotated[int, typer.Option(help="How many issues to print.")] = 20,
    encoding: EncodingOpt = None,
    header_row: HeaderRowOpt = None,
    waivers: WaiversOpt = None,
    engine: EngineOpt = Engine.local,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    partition_size: PartitionSizeOpt = DEFAULT_PARTITION_SIZE,
    issues: IssuesOpt = None,
) -> None:
    """Check rates files. Exit code 0: no errors; 1: errors found; 2: the input cannot be used.

    Examples:

      workbench validate rates rates.xlsx --report issues.html
      workbench validate rates data/ --registry registry.xlsx --as-of 2027-01-01 --report issues.xlsx
    """
    from workbench.reports.validation import ReportContext, check_report_path, write_report

    check_engine(engine, workers, scheduler, partition_size, {"--issues": issues})
    check_outputs(_inputs(files, registry, fx, waivers), files={"--report": report},
                  folders={"--issues": [Path(issues)] if issues else None})
    refuse_other_kind(files, "rates", "validate")
    if engine is Engine.dask:
        _one_process_only({"--waivers": waivers})
        _validate_on_dask(files, as_of, registry, report, sheet, fx, show, encoding, header_row, workers, scheduler,
                          partition_size, issues)
    check_paths(report, check_report_path)
    check = _check(files, sheet, registry, _as_of(as_of), fx, encoding=encoding, header_row=header_row,
                   waivers=waivers)
    print_issues(check.issues, rows=len(check.frame), limit=show)
    _print_not_checked(check)
    ctx = ReportContext(title="Rates validation", files=check.files, as_of=check.as_of, rows_checked=len(check.frame))
    with finishing():  # every report, or a Ctrl-C waits until they are written
        for path in report or []:
            try:
                with console.status(f"Writing {path}…"):
                    done = write_report(check.issues, path, ctx, rates=check.frame, waived=check.waived)
            except (ValueError, OSError) as exc:
                fail(f"cannot write the report `{path}`: {exc}")
            written(done)
    raise typer.Exit(0 if check.ok else 1)


def _one_process_only(options: dict[str, object]) -> None:
    """Options the Dask engine does not apply are refused (exit 2) rather than silently ignored."""
    given = [name for name, value in options.items() if value]
    if given:
        fail(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} not applied with --engine dask: run without "
             "--engine dask (one process) to use " + ("it" if len(given) == 1 else "them"))


def _validate_on_dask(files, as_of, registry, report, sheet, fx, show, encoding, header_row, workers, scheduler,
                      partition_size, issues) -> None:
    from workbench.cli.scale import validate_on_cluster

    run = validate_on_cluster(files, as_of=_as_of(as_of), registry=registry, fx=fx, sheet=sheet, encoding=encoding,
                              header_row=header_row, report=report, show=show, workers=workers, scheduler=scheduler,
                              size=partition_size, issues=issues)
    _print_not_checked(run)
    raise typer.Exit(0 if run.ok else 1)


def _dry_run_on_dask(files, dry_run, as_of, registry, sheet, fx, encoding, header_row, skip_invalid, env_file, journal,
                     full, report, workers, scheduler, partition_size, fetch_registry=False) -> None:
    from workbench.cli.scale import dry_run_on_cluster
    from workbench.errors import WorkbenchError

    if dry_run is None:
        fail("--engine dask builds the requests on the cluster: give --dry-run DIR, then send them from one place "
             "with `workbench push requests DIR`")
    if report:
        fail("--report is not written with --engine dask: the issues are in DIR/issues/ (Parquet); use "
             "`workbench validate rates --engine dask --report FILE` for a report")
    try:
        settings = load_settings(env_file)
    except WorkbenchError as exc:
        fail(str(exc))
    run = dry_run_on_cluster(files, dry_run, as_of=_as_of(as_of), registry=registry, fx=fx, sheet=sheet,
                             encoding=encoding, header_row=header_row, skip_invalid=skip_invalid,
                             spelling=settings.weekday_spelling, target=(settings.base_url or "").rstrip("/"),
                             journal=journal, full=full, workers=workers, scheduler=scheduler, size=partition_size,
                             platform=settings if fetch_registry and settings.base_url else None)
    _print_not_checked(run)


@push_app.command("rates")
def push_rates_cmd(
    files: Files,
    dry_run: Annotated[Path | None, typer.Option(
        "--dry-run", help="Write the requests into this folder (one .xml each, plus manifest.csv) instead of "
                          "sending them.", show_default=False)] = None,
    as_of: AsOf = None,
    registry: RegistryOpt = None,
    skip_invalid: Annotated[bool, typer.Option("--skip-invalid", help="Send only the rows without errors.")] = False,
    full: Annotated[bool, typer.Option("--full", help="Send every price, not only what changed since the "
                                                      "platform last accepted it.")] = False,
    env_file: EnvFileOpt = None,
    journal: JournalOpt = Path(".workbench/journal.sqlite"),
    report: Annotated[list[Path] | None, typer.Option(
        "--report", help="Write a push report: .csv, .xlsx (your sheets with refused rows marked) or .html. "
                         "Always written, also when nothing is sent. May repeat.", show_default=False)] = None,
    fetch_registry: Annotated[bool, typer.Option(
        "--fetch-registry/--no-fetch-registry", help="Read rooms and rate plans from the platform (roomrates) "
                                                     "before checking.")] = True,
    sheet: SheetOpt = None,
    fx: FxOpt = None,
    encoding: EncodingOpt = None,
    header_row: HeaderRowOpt = None,
    waivers: WaiversOpt = None,
    plan: Annotated[bool, typer.Option(
        "--plan", help="Send nothing: show what a push would change against the last accepted prices (the "
                       "journal), the requests, messages and send time; --report writes the plan.")] = False,
    price_jumps: Annotated[bool, typer.Option(
        "--price-jumps/--no-price-jumps", help="Warn about prices that jump against the last accepted price or "
                                               "stand out from their month (docs/rates.md).")] = True,
    wait: WaitOpt = 0.0,
    engine: EngineOpt = Engine.local,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    partition_size: PartitionSizeOpt = DEFAULT_PARTITION_SIZE,
    show: Annotated[int, typer.Option(help="How many issues to print.")] = 10,
) -> None:
    """Send rates as OTA_HotelRateAmountNotif requests (one hotel and month each), or write them with --dry-run.

    Exit code 0: every request applied; 1: errors block the push or the platform refused or failed some
    requests; 2: the input or the settings cannot be used.

    Examples:

      workbench push rates rates.xlsx --dry-run requests/
      workbench push rates rates.xlsx --plan --report plan.html
      workbench push rates rates.xlsx --env-file sandbox/connection.env --report push.html
    """
    from loaders import LoadError
    from workbench.errors import BlockedByErrors, WorkbenchError
    from workbench.reports.push import check_push_report_path
    from workbench.writers import PushInterrupted, target_of

    check_engine(engine, workers, scheduler, partition_size)
    check_outputs(_inputs(files, registry, fx, waivers, env_file), files={"--report": report, "--journal": journal},
                  folders={"--dry-run": dry_run})
    refuse_other_kind(files, "rates", "push")
    if engine is Engine.dask:
        _one_process_only({"--waivers": waivers, "--plan": plan, "--wait": wait})
        return _dry_run_on_dask(files, dry_run, as_of, registry, sheet, fx, encoding, header_row, skip_invalid,
                                env_file, journal, full, report, workers, scheduler, partition_size, fetch_registry)
    check_paths(report, check_push_report_path)
    day = _as_of(as_of)
    if plan:
        _plan_push(files, day, registry, skip_invalid, full, env_file, journal, report, fetch_registry, sheet, fx,
                   encoding, header_row, price_jumps, waivers, show)
        return
    reports = PushReports(report, journal)
    if dry_run is not None:
        try:
            spelling = load_settings(env_file, check_files=False).weekday_spelling  # all a dry run needs of them
            check = _checked(files, sheet, registry, day, fx, encoding, header_row, waivers)
        except (LoadError, WorkbenchError) as exc:
            reports.nothing_sent(str(exc))
            fail(str(exc))
        print_issues(check.issues, rows=len(check.frame), limit=show)
        _print_not_checked(check)
        from workbench.flows import rates_dry_run as write_dry_run

        try:
            with console.status(f"Writing the requests into {dry_run}…"):
                done = write_dry_run(check, dry_run, skip_invalid=skip_invalid, spelling=spelling)
        except BlockedByErrors as exc:
            console.print(f"[red]Nothing written:[/] {escape(str(exc))}")
            reports.nothing_sent(str(exc), check)
            raise typer.Exit(1) from None
        console.print(f"[green]Wrote {len(done.requests)} request(s)[/] with {done.messages:,} message(s) for "
                      f"{done.cells:,} price(s) into [bold]{escape(str(done.directory))}[/] (see manifest.csv)"
                      + (f"; {done.skipped_rows:,} price(s) with errors skipped" if done.skipped_rows else "")
                      + (f"; {done.repeated_rows:,} repeated price(s) not written (the first is)"
                         if done.repeated_rows else ""))
        reports.nothing_sent(f"a dry run: the {len(done.requests)} request(s) were written to `{done.directory}`, "
                             "not sent", check)
        return
    target = ""
    try:
        settings = load_settings(env_file)
        target = target_of(settings)  # a push needs its target: said before minutes of checks, not after
        check = _checked(files, sheet, registry, day, fx, encoding, header_row, waivers, settings=settings,
                         journal=journal, price_jumps=price_jumps, fetch_registry=fetch_registry)
    except (LoadError, WorkbenchError) as exc:
        reports.nothing_sent(str(exc), target=target)
        fail(str(exc))
    print_issues(check.issues, rows=len(check.frame), limit=show)
    _print_not_checked(check)
    from workbench.flows import push_rates

    try:
        result = push_rates(check, settings, journal=journal, skip_invalid=skip_invalid, full=full,
                            command="push rates " + " ".join(str(f) for f in files), price_jumps=price_jumps,
                            lock_wait=wait)
    except BlockedByErrors as exc:
        console.print(f"[red]Nothing sent:[/] {escape(str(exc))}")
        reports.nothing_sent(str(exc), check, target)
        raise typer.Exit(1) from None
    except PushInterrupted as exc:  # Ctrl-C / SIGTERM: what was sent is in the journal, the reports say it
        reports.stopped(exc, check.plan)
    except WorkbenchError as exc:
        reports.nothing_sent(str(exc), check, target)
        fail(str(exc))
    print_push_result(result)
    reports.write(result)
    raise typer.Exit(0 if result.ok else 1)


@push_app.command("requests")
def push_requests_cmd(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="A folder written by `push rates|rooms|content "
                                                                  "--dry-run DIR` (manifest.csv, the .xml requests; "
                                                                  "cells.parquet for rates).", show_default=False)],
    env_file: EnvFileOpt = None,
    journal: JournalOpt = Path(".workbench/journal.sqlite"),
    report: Annotated[list[Path] | None, typer.Option(
        "--report", help="Write a push report: .csv, .xlsx or .html. Always written, also when nothing is sent. "
                         "May repeat.", show_default=False)] = None,
    full: Annotated[bool, typer.Option("--full", help="Send every request, also those whose content the platform "
                                                      "already accepted.")] = False,
    wait: WaitOpt = 0.0,
) -> None:
    """Send the requests of a dry-run folder of any kind (rates, room types, content; built here or elsewhere,
    e.g. on a cluster) through the rate-limited client with the journal. Started again after a kill, it sends
    only what the journal does not record as accepted; a request edited after it was written is refused.

    Exit code 0: every request applied; 1: the platform refused or failed some requests; 2: the folder or
    the settings cannot be used, or another push holds the journal.

    Examples:

      workbench push requests requests/ --env-file sandbox/connection.env --report push.html
    """
    from workbench.errors import WorkbenchError
    from workbench.flows import push_requests
    from workbench.reports.push import check_push_report_path
    from workbench.writers import PushInterrupted, target_of

    check_outputs({"DIR": directory, "--env-file": env_file}, files={"--report": report, "--journal": journal})
    check_paths(report, check_push_report_path)
    reports = PushReports(report, journal)
    target = ""
    try:
        settings = load_settings(env_file)
        target = target_of(settings)
        result = push_requests(directory, settings, journal=journal, full=full, command=f"push requests {directory}",
                               lock_wait=wait)
    except PushInterrupted as exc:
        reports.stopped(exc)
    except WorkbenchError as exc:
        reports.nothing_sent(str(exc), target=target)
        fail(str(exc))
    print_outcome(result)
    reports.write(result)
    raise typer.Exit(0 if result.ok else 1)


def _plan_push(files: list[Path], day: dt.date | None, registry: list[Path] | None, skip_invalid: bool, full: bool,
               env_file: Path | None, journal: Path, report: list[Path] | None, fetch_registry: bool,
               sheet: list[str] | None, fx: Path | None, encoding: str | None, header_row: int | None,
               price_jumps: bool, waivers: Path | None = None, show: int = 10) -> None:
    """``push rates --plan``: what a push would do; nothing is sent and the journal is not written.
    Exit code 0, or 1 when errors would stop the push (without --skip-invalid)."""
    from loaders import LoadError
    from workbench.cli.console import print_plan
    from workbench.errors import WorkbenchError
    from workbench.flows import as_pushed, plan_rates
    from workbench.reports.plan import check_plan_report_path, write_plan_report

    check_paths(report, check_plan_report_path)
    try:
        settings = load_settings(env_file)
        check = _checked(files, sheet, registry, day, fx, encoding, header_row, waivers, settings=settings,
                         journal=journal, price_jumps=price_jumps, fetch_registry=fetch_registry)
        if check.plan is not None and not full:  # compared once: the check's plan is the push's
            result = as_pushed(check.plan, check, skip_invalid)
        else:
            with console.status("Comparing with the last accepted prices…"):
                result = plan_rates(check, settings, journal=journal, skip_invalid=skip_invalid, full=full,
                                    price_jumps=price_jumps)
    except (LoadError, WorkbenchError) as exc:
        fail(str(exc))
    print_issues(check.issues, rows=len(check.frame), limit=show)
    _print_not_checked(check)
    print_plan(result)
    write_each(report, lambda path: write_plan_report(result, path), "plan report")
    raise typer.Exit(1 if result.blocked else 0)
