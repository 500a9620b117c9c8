"""``workbench validate rates`` and ``workbench push rates``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer

from workbench.cli.console import console, fail, print_issues

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
           fx: Path | None, extra_registry=None):
    from loaders import LoadError, read_registry
    from workbench.flows.rates import check_rates

    try:
        with console.status("Reading and checking…"):
            reg = read_registry(registry) if registry else None
            if extra_registry is not None:
                reg = extra_registry if reg is None else reg.merge(extra_registry)
            return check_rates(files, sheet=sheet or None, registry=reg, as_of=_as_of(as_of), fx=fx)
    except LoadError as exc:
        fail(str(exc))
        raise


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
    _print_not_checked(check)
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
    full: Annotated[bool, typer.Option("--full", help="Send every price, not only what changed since the "
                                                      "platform last accepted it.")] = False,
    env_file: Annotated[Path | None, typer.Option(
        "--env-file", help="Settings file (e.g. a sandbox's connection.env); default: the environment and ./.env.",
        show_default=False)] = None,
    journal: Annotated[Path, typer.Option(help="The push journal (SQLite): outcomes, accepted prices, resume.")] =
        Path(".workbench/journal.sqlite"),
    report: Annotated[list[Path] | None, typer.Option(
        "--report", help="Write a push report: .csv, .xlsx (your sheets with refused rows marked) or .html. "
                         "May repeat.", show_default=False)] = None,
    fetch_registry: Annotated[bool, typer.Option(
        "--fetch-registry/--no-fetch-registry", help="Read rooms and rate plans from the platform (roomrates) "
                                                     "before checking.")] = True,
    sheet: SheetOpt = None,
    fx: FxOpt = None,
) -> None:
    """Send rates as OTA_HotelRateAmountNotif requests (one hotel and month each), or write them with --dry-run.

    Exit code 0: every request applied; 1: errors block the push or the platform refused or failed some
    requests; 2: the input or the settings cannot be used.
    """
    from workbench.errors import BlockedByErrors
    from workbench.flows.rates import dry_run as write_dry_run

    if dry_run is not None:
        spelling = load_settings(env_file).weekday_spelling
        check = _check(files, sheet, registry, as_of, fx)
        print_issues(check.issues, rows=len(check.frame), limit=10)
        _print_not_checked(check)
        try:
            written = write_dry_run(check, dry_run, skip_invalid=skip_invalid, spelling=spelling)
        except BlockedByErrors as exc:
            console.print(f"[red]Nothing written:[/] {exc}")
            raise typer.Exit(1) from None
        console.print(f"[green]Wrote {len(written.requests)} request(s)[/] with {written.messages:,} message(s) for "
                      f"{written.cells:,} price(s) into [bold]{written.directory}[/] (see manifest.csv)"
                      + (f"; {written.skipped_rows:,} price(s) with errors skipped" if written.skipped_rows else "")
                      + (f"; {written.repeated_rows:,} repeated price(s) not written (the first is)"
                         if written.repeated_rows else ""))
        return
    settings = load_settings(env_file)
    extra = None
    if fetch_registry:
        extra = _platform_registry(files, sheet, settings)
    check = _check(files, sheet, registry, as_of, fx, extra_registry=extra)
    print_issues(check.issues, rows=len(check.frame), limit=10)
    _print_not_checked(check)
    from workbench.flows.rates import push_rates

    try:
        result = push_rates(check, settings, journal=journal, skip_invalid=skip_invalid, full=full,
                            command="push rates " + " ".join(str(f) for f in files))
    except BlockedByErrors as exc:
        console.print(f"[red]Nothing sent:[/] {exc}")
        raise typer.Exit(1) from None
    except ValueError as exc:
        fail(str(exc))
    console.print(("[green]" if result.ok else "[red]") + result.summary() + "[/]")
    for r in result.requests[result.requests["outcome"] != "success"].head(10).itertuples():
        console.print(f"  [red]{r.hotel} {r.month}[/]: {r.outcome} {r.texts or r.error or ''} (ruid {r.ruid})")
    from workbench.reports.push import write_push_report

    for path in report or []:
        console.print(f"Report written: [bold]{write_push_report(result, path)}[/]")
    raise typer.Exit(0 if result.ok else 1)


def load_settings(env_file: Path | None):
    from workbench.config import Settings
    from workbench.errors import SettingsError

    try:
        if env_file is not None:
            if not env_file.is_file():
                fail(f"settings file `{env_file}` does not exist (a sandbox writes DIR/connection.env when it starts)")
            return Settings.from_file(env_file)
        return Settings.from_env()
    except SettingsError as exc:
        fail(str(exc))


def _platform_registry(files: list[Path], sheet: list[str] | None, settings):
    """Rooms and rate plans of the properties in ``files``, read from the platform (roomrates)."""
    from loaders import LoadError, read_rates
    from workbench.platform.registry import fetch_registry

    if not settings.base_url:
        return None
    try:
        frame, _ = read_rates(files, sheet=sheet or None)
    except LoadError as exc:
        fail(str(exc))
    hotels = sorted({int(h) for h in frame["hotel_code"].dropna().unique()})
    with console.status(f"Reading rooms and rate plans of {len(hotels)} properties from the platform…"):
        return fetch_registry(settings, hotels)
