"""``workbench validate availability`` (check the workbooks; nothing is sent) and ``workbench push availability``
(send them through the one push path: journal, deltas, resume, reports; or ``--dry-run DIR`` / ``--plan``).
``fetch availability`` and ``reconcile availability`` are in :mod:`workbench.cli.availability_read`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from workbench.cli.common import (
    AsOf,
    EncodingOpt,
    EnvFileOpt,
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
from workbench.cli.console import check_paths, console, fail, print_issues, print_outcome, written
from workbench.cli.kinds import refuse_other_kind
from workbench.cli.paths import check_outputs
from workbench.cli.scale import Engine, EngineOpt
from workbench.cli.signals import finishing
from workbench.wording import count

Files = Annotated[list[Path], typer.Argument(
    help="Availability workbooks or CSV/Parquet files (or folders of them): `HotelCode`, `InvTypeCode`, "
         "`RatePlanCode`, `Date` (or `Start`/`End` with `Mon`..`Sun`, or one column per night and one restriction "
         "per sheet named after it), and any of `RoomsToSell`, `Closed`, `ClosedToArrival`, `ClosedToDeparture`, "
         "`MinStayArrival`, `MaxStayArrival`, `MinStayThrough`, `MaxStayThrough`; a blank cell leaves the value "
         "as it is.", show_default=False)]
RoomsOpt = Annotated[list[Path] | None, typer.Option(
    "--rooms", help="Room types (a rooms workbook, e.g. the sandbox's platform_rooms.xlsx): their `Quantity` "
                    "(units) is checked against rooms to sell; may repeat.", show_default=False)]


@validate_app.command("availability")
def validate_availability_cmd(
    files: Files,
    as_of: AsOf = None,
    registry: RegistryOpt = None,
    rooms: RoomsOpt = None,
    report: ReportOpt = None,
    sheet: SheetOpt = None,
    show: Annotated[int, typer.Option(help="How many issues to print.")] = 20,
    encoding: EncodingOpt = None,
    header_row: HeaderRowOpt = None,
    waivers: WaiversOpt = None,
) -> None:
    """Check availability and restrictions. Exit code 0: no errors; 1: errors found; 2: the input cannot be used.

    Examples:

      workbench validate availability availability.xlsx --report availability-issues.html
      workbench validate availability availability.xlsx --rooms platform_rooms.xlsx --as-of 2027-01-01
    """
    from loaders import LoadError
    from workbench.reports.validation import check_report_path

    check_outputs({"files": files, "--registry": registry, "--rooms": rooms, "--waivers": waivers},
                  files={"--report": report})
    refuse_other_kind(files, "availability", "validate")
    check_paths(report, check_report_path)
    day = _day(as_of)
    try:
        with console.status("Reading and checking…"):
            from workbench.flows import check_availability

            check = check_availability(files, sheet=sheet or None, registry=registry or None, rooms=rooms or None,
                                       as_of=day, encoding=encoding, header_row=header_row)
        if waivers is not None:
            check = check.waive(waivers)
            if len(check.waived):
                console.print(f"[dim]{count(len(check.waived), 'warning')} waived by {escape(waivers.name)}: listed "
                              "apart in the reports, counted nowhere[/]")
    except LoadError as exc:
        fail(str(exc))
    print_skipped(check.issues)
    console.print(f"{count(len(check.frame), 'value')} read (rooms to sell and restrictions, one per room or room-rate "
                  "and night)")
    print_issues(check.issues, limit=show)
    missing = check.not_checked()
    if len(missing):
        rules = sorted({r for rs in missing["rules"] for r in rs})
        console.print(f"[yellow]Not fully checked[/] ({count(len(missing), 'property', 'properties')}): "
                      f"{', '.join(rules)} did not run for lack of facts the platform does not send (pricing model, "
                      "units); give them with --registry FILE or --rooms FILE (see the `not_checked` warnings)")
    _reports(check, report)
    raise typer.Exit(0 if check.ok else 1)


def _reports(check, paths: list[Path] | None) -> None:
    """Each report: CSV, XLSX (the analyst's own sheets with the failing cells marked) or HTML, issues as ranges."""
    from expectations.availability import for_rules
    from workbench.reports.validation import ReportContext, write_report

    ctx = ReportContext(title="Availability validation", files=check.files, as_of=check.as_of,
                        rows_checked=len(check.frame))
    with finishing():  # every report, or a Ctrl-C waits until they are written
        for path in paths or []:
            try:
                with console.status(f"Writing {path}…"):
                    done = write_report(check.issues, path, ctx, rates=for_rules(check.frame), waived=check.waived)
            except (ValueError, OSError) as exc:
                fail(f"cannot write the report `{path}`: {exc}")
            written(done)


def _checked(files: list[Path], day, registry, rooms, sheet, encoding, header_row, waivers):
    """``check_availability`` as the push command calls it: reading and checking in the spinner, then the
    sheets skipped and the warnings waived. Raises what the flow raises (``LoadError``, ``WorkbenchError``)."""
    from workbench.flows import check_availability
    from workbench.memory import batch_process

    batch_process()
    with console.status("Reading and checking…"):
        check = check_availability(files, sheet=sheet or None, registry=registry or None, rooms=rooms or None,
                                   as_of=day, encoding=encoding, header_row=header_row, waivers=waivers)
    print_skipped(check.issues)
    if waivers is not None and len(check.waived):
        console.print(f"[dim]{count(len(check.waived), 'warning')} waived by {escape(waivers.name)}: listed apart in the "
                      "reports, counted nowhere[/]")
    print_issues(check.issues, limit=10)
    return check


@push_app.command("availability")
def push_availability_cmd(
    files: Files,
    dry_run: Annotated[Path | None, typer.Option(
        "--dry-run", help="Write the requests into this folder (one .xml per hotel and month, manifest.csv, "
                          "cells.parquet) instead of sending them; `workbench push requests DIR` sends it.",
        show_default=False)] = None,
    plan: Annotated[bool, typer.Option(
        "--plan", help="Send nothing: show what a push would change against the last accepted values (the "
                       "journal), the requests, messages and send time; --report writes the plan.")] = False,
    as_of: AsOf = None,
    registry: RegistryOpt = None,
    rooms: RoomsOpt = None,
    skip_invalid: Annotated[bool, typer.Option("--skip-invalid", help="Send only the values without errors.")] = False,
    full: Annotated[bool, typer.Option("--full", help="Send every value, not only what changed since the platform "
                                                      "last accepted it.")] = False,
    env_file: EnvFileOpt = None,
    journal: JournalOpt = Path(".workbench/journal.sqlite"),
    report: Annotated[list[Path] | None, typer.Option(
        "--report", help="Write a push report: .csv, .xlsx (your sheets with refused cells marked) or .html; with "
                         "--plan, the plan (.csv, .xlsx, .html). Always written, also when nothing is sent. May "
                         "repeat.", show_default=False)] = None,
    sheet: SheetOpt = None,
    encoding: EncodingOpt = None,
    header_row: HeaderRowOpt = None,
    waivers: WaiversOpt = None,
    wait: WaitOpt = 0.0,
    engine: EngineOpt = Engine.local,
) -> None:
    """Send rooms to sell and restrictions as OTA_HotelAvailNotif requests (one hotel and month each), or write
    them with --dry-run, or show the plan with --plan.

    Exit code 0: every request applied; 1: errors block the push or the platform refused (or applied only in
    part) or failed some requests; 2: the input or the settings cannot be used; 130: interrupted (run the same
    command again to resume: nothing accepted is sent twice).

    Examples:

      workbench push availability availability.xlsx --registry registry.xlsx --dry-run requests/
      workbench push availability availability.xlsx --plan --report plan.html
      workbench push availability availability.xlsx --env-file sandbox/connection.env --report push.html
    """
    from loaders import LoadError
    from workbench import writers  # the face: a name's module is imported when it is used (see below)
    from workbench.errors import BlockedByErrors, WorkbenchError

    check_outputs({"files": files, "--registry": registry, "--rooms": rooms, "--waivers": waivers,
                   "--env-file": env_file}, files={"--report": report, "--journal": journal},
                  folders={"--dry-run": dry_run})
    refuse_other_kind(files, "availability", "push")
    if engine is Engine.dask:
        fail("--engine dask cannot take availability yet: the partition pipeline (workbench/scale) reads, checks "
             "and builds rates only; run without it (a million values take seconds in one process)")
    if dry_run is not None and plan:
        fail("give --dry-run DIR or --plan, not both")
    if plan:
        from workbench.reports.plan import check_plan_report_path

        check_paths(report, check_plan_report_path)
    elif report:  # the reports' module only when one is asked for (a dry run's imports stay few)
        from workbench.reports.push import check_push_report_path

        check_paths(report, check_push_report_path)
    day = _day(as_of)
    # the kind of data a report of nothing sent is about: only with --report (a dry run without reports imports
    # none of the push's outcomes)
    reports = PushReports(report, journal, writers.AVAILABILITY if report else None)
    target = ""
    try:
        settings = load_settings(env_file, check_files=dry_run is None and not plan)
        target = settings.base_url if dry_run is None else ""
        check = _checked(files, day, registry, rooms, sheet, encoding, header_row, waivers)
    except (LoadError, WorkbenchError) as exc:
        if not plan:
            reports.nothing_sent(str(exc), target=target)
        fail(str(exc))
    if plan:
        _plan(check, settings, journal, skip_invalid, full, report)
        return
    try:
        if dry_run is not None:
            from workbench.flows import availability_dry_run as write_dry_run

            with console.status(f"Writing the requests into {dry_run}…"):
                done = write_dry_run(check, dry_run, skip_invalid=skip_invalid, reading=settings.los_reading)
            console.print(f"[green]Wrote {count(len(done.requests), 'request')}[/] with {count(done.messages, 'message')} "
                          f"for {count(done.cells, 'value')} into [bold]{escape(str(done.directory))}[/] (see manifest.csv)"
                          + (f"; {count(done.skipped_rows, 'value')} with errors skipped" if done.skipped_rows else ""))
            reports.nothing_sent(f"a dry run: {count(len(done.requests), 'request')} written to `{done.directory}`, "
                                 "not sent", check)
            return
        from workbench.flows import push_availability

        result = push_availability(check, settings, journal=journal, skip_invalid=skip_invalid, full=full,
                                   command="push availability " + " ".join(str(f) for f in files), lock_wait=wait)
    except BlockedByErrors as exc:
        console.print(f"[red]Nothing {'written' if dry_run is not None else 'sent'}:[/] {escape(str(exc))}")
        reports.nothing_sent(str(exc), check, target)
        raise typer.Exit(1) from None
    except writers.PushInterrupted as exc:  # Ctrl-C / SIGTERM: what was sent is in the journal, the reports say it
        # (looked up only when an exception gets this far: a dry run imports no push driver)
        reports.stopped(exc)
    except WorkbenchError as exc:
        reports.nothing_sent(str(exc), check, target)
        fail(str(exc))
    print_outcome(result)
    reports.write(result)
    raise typer.Exit(0 if result.ok else 1)


def _day(value: str | None):
    from expectations.rates import as_of_date

    try:
        return as_of_date(value) if value is not None else None
    except ValueError as exc:
        fail(f"--as-of: {exc}")


def _plan(check, settings, journal: Path, skip_invalid: bool, full: bool, report: list[Path] | None) -> None:
    """``push availability --plan``: what a push would do; nothing is sent, the journal is not written.
    Exit code 0, or 1 when errors would stop the push (without --skip-invalid)."""
    from workbench.errors import WorkbenchError
    from workbench.flows import plan_availability

    try:
        with console.status("Comparing with the last accepted values…"):
            result = plan_availability(check, settings, journal=journal, skip_invalid=skip_invalid, full=full)
    except WorkbenchError as exc:
        fail(str(exc))
    console.print(("[red]" if result.blocked else "[cyan]") + escape(result.headline()) + "[/]")
    if result.blocked:
        console.print(f"[red]A push stops here:[/] {escape(result.blocked)}")
    for r in result.series().query("added > 0 or changed > 0").head(10).itertuples(index=False):
        console.print(f"  {r.hotel_code} {escape(str(r.inv_type_code))}"
                      f"{' / ' + escape(str(r.rate_plan_code)) if r.rate_plan_code else ''} {r.restriction}: "
                      f"{r.added} added, {r.changed} changed, {r.unchanged} unchanged")
    write_each(report, lambda path: _write_plan(result, path), "plan report")
    raise typer.Exit(1 if result.blocked else 0)


def _write_plan(plan, path: Path) -> Path:
    """The plan as ``.csv`` / ``.xlsx`` (one row per value a push would send) or ``.html`` (its summary)."""
    if path.suffix.lower() == ".html":
        from workbench.reports.validation import REPORT_CLASS, REPORT_CSS

        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Availability plan</title>"
                        f"<style>{REPORT_CSS}</style></head><body><div class='{REPORT_CLASS}'>{plan._repr_html_()}"
                        "</div></body></html>", encoding="utf-8")
        return path
    from workbench.reports.tables import write_table

    return write_table(plan.changes(), path, sheet_name="Plan")
