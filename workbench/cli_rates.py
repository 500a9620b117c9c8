"""``workbench validate rates`` and ``workbench push rates``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer

from workbench.console import console, fail, print_issues

validate_app = typer.Typer(help="Check spreadsheets against the platform's rules; nothing is sent.",
                           no_args_is_help=True)
push_app = typer.Typer(help="Send validated data to the platform (or write the requests with --dry-run).",
                       no_args_is_help=True)

Files = Annotated[list[Path], typer.Argument(help="CSV/Excel files (every sheet is read unless --sheet is given).",
                                             show_default=False)]
AsOf = Annotated[str | None, typer.Option("--as-of", help="Check dates as of this day (YYYY-MM-DD); default: "
                                                          "today in CET.", show_default=False)]
RegistryOpt = Annotated[list[Path] | None, typer.Option(
    "--registry", help="Property registry (properties, rooms, room-rates); may repeat.", show_default=False)]
SheetOpt = Annotated[list[str] | None, typer.Option("--sheet", help="Read only this sheet; may repeat.",
                                                    show_default=False)]
FxOpt = Annotated[Path | None, typer.Option("--fx", help="FX table (currency,units_per_eur[,as_of]) for the "
                                                         "50,000 EUR cap.", show_default=False)]


def _as_of(value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        fail(f"--as-of `{value}` is not a date: write it as YYYY-MM-DD")
        raise


def _check(files: list[Path], sheet: list[str] | None, registry: list[Path] | None, as_of: str | None,
           fx: Path | None):
    from loaders import LoadError
    from workbench.rates import check_rates

    try:
        with console.status("Reading and checking…"):
            return check_rates(files, sheet=sheet or None, registry=registry or None, as_of=_as_of(as_of), fx=fx)
    except LoadError as exc:
        fail(str(exc))
        raise


@validate_app.command("rates")
def validate_rates_cmd(
    files: Files,
    as_of: AsOf = None,
    registry: RegistryOpt = None,
    report: Annotated[list[Path] | None, typer.Option(
        "--report", help="Write a report; the extension picks the format: .csv, .xlsx (your sheets with the "
                         "failing cells marked) or .html. May repeat.", show_default=False)] = None,
    sheet: SheetOpt = None,
    fx: FxOpt = None,
    show: Annotated[int, typer.Option(help="How many issues to print.")] = 20,
) -> None:
    """Check rates files. Exit code 0: no errors; 1: errors found; 2: the input cannot be used."""
    from workbench.reports.validation import ReportContext, write_report

    check = _check(files, sheet, registry, as_of, fx)
    print_issues(check.issues, rows=len(check.frame), limit=show)
    ctx = ReportContext(title="Rates validation", files=check.files, as_of=check.as_of, rows_checked=len(check.frame))
    for path in report or []:
        try:
            written = write_report(check.issues, path, ctx)
        except (ValueError, OSError) as exc:
            fail(str(exc))
        console.print(f"Report written: [bold]{written}[/]")
    raise typer.Exit(0 if check.ok else 1)


@push_app.command("rates")
def push_rates_cmd(
    files: Files,
    dry_run: Annotated[Path | None, typer.Option(
        "--dry-run", help="Write the requests into this folder (one .xml each, plus manifest.csv) instead of "
                          "sending them.", show_default=False)] = None,
    as_of: AsOf = None,
    registry: RegistryOpt = None,
    skip_invalid: Annotated[bool, typer.Option("--skip-invalid", help="Send only the rows without errors.")] = False,
    sheet: SheetOpt = None,
    fx: FxOpt = None,
) -> None:
    """Turn rates files into OTA_HotelRateAmountNotif requests: one hotel and month per request."""
    from workbench.rates import BlockedByErrors, dry_run as write_dry_run

    check = _check(files, sheet, registry, as_of, fx)
    print_issues(check.issues, rows=len(check.frame), limit=10)
    if dry_run is None:
        fail("live pushes are not configured in this version: give --dry-run DIR to write the requests")
    try:
        result = write_dry_run(check, dry_run, skip_invalid=skip_invalid)
    except BlockedByErrors as exc:
        console.print(f"[red]Nothing written:[/] {exc}")
        raise typer.Exit(1) from None
    console.print(f"[green]Wrote {len(result.requests)} request(s)[/] with {result.messages:,} message(s) for "
                  f"{result.cells:,} price(s) into [bold]{result.directory}[/] (see manifest.csv)"
                  + (f"; {result.skipped_rows:,} price(s) with errors skipped" if result.skipped_rows else ""))
