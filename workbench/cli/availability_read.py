"""``workbench fetch availability`` (what the platform holds, into a CSV or XLSX) and ``workbench reconcile
availability`` (that against what the journal says it accepted; ``--fix`` sends the accepted values again)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from workbench.cli.common import EnvFileOpt, JournalOpt, fetch_app, load_settings, reconcile_app
from workbench.cli.console import check_paths, clip, console, fail, print_outcome, written
from workbench.cli.paths import check_outputs

HotelOpt = Annotated[list[int], typer.Option("--hotel", help="Property id (HotelCode); may repeat.",
                                             show_default=False)]
FromOpt = Annotated[str | None, typer.Option(
    "--from", help="First night to read (YYYY-MM-DD); default: today in CET.", show_default=False)]
DaysOpt = Annotated[int, typer.Option("--days", min=1, max=5 * 366, help="Nights to read from the first (31 a call).")]


def _start(value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        fail(f"--from `{value}` is not a date: write it as YYYY-MM-DD")


def _table_path(path: Path) -> None:
    from workbench.reports.tables import check_table_path

    check_paths([path], check_table_path)


def _print_problems(held) -> None:
    for p in held.problems.head(10).itertuples(index=False):
        console.print(f"[red]{p.outcome}[/] property {p.hotel_code}, {p.days} night(s) from {p.start}: "
                      f"{escape(clip(p.text))}" + (f" (ruid {escape(str(p.ruid))})" if isinstance(p.ruid, str) else ""))


@fetch_app.command("availability")
def fetch_availability_cmd(
    hotel: HotelOpt,
    out: Annotated[Path, typer.Option("--out", help="Write the nights to this .csv or .xlsx: HotelCode, InvTypeCode, "
                                                    "RatePlanCode (blank: the room type), Date, RoomsToSell, Booked, "
                                                    "Cancelled, Closed.", show_default=False)],
    start: FromOpt = None,
    days: DaysOpt = 365,
    env_file: EnvFileOpt = None,
) -> None:
    """Read what the platform holds per room type, room-rate and night (roomrateavailability, 31 nights a call).

    Exit code 0: every read answered; 1: the platform refused or failed some reads (the others are written);
    2: the input or the settings cannot be used.

    Examples:

      workbench fetch availability --hotel 1000001 --out held.xlsx
      workbench fetch availability --hotel 1000001 --hotel 1000004 --from 2027-01-01 --days 90 --out held.csv
    """
    from workbench.errors import WorkbenchError
    from workbench.flows import fetch_availability

    check_outputs({"--env-file": env_file}, files={"--out": out})
    _table_path(out)
    first = _start(start)
    try:
        settings = load_settings(env_file)
        held = fetch_availability(settings, hotel, start=first, days=days)
    except WorkbenchError as exc:
        fail(str(exc))
    rooms = held.frame[held.frame["rate_plan_code"].isna()]
    console.print(f"{len(rooms):,} room-type night(s) and {len(held.frame) - len(rooms):,} room-rate night(s) of "
                  f"{len(set(hotel))} propert{'y' if len(set(hotel)) == 1 else 'ies'} read from {held.start:%Y-%m-%d}")
    _print_problems(held)
    try:
        from workbench.reports.tables import write_table

        written(write_table(held.table(), out, sheet_name="Availability"), "Written")
    except (ValueError, OSError) as exc:
        fail(f"cannot write `{out}`: {exc}")
    raise typer.Exit(0 if held.ok else 1)


@reconcile_app.command("availability")
def reconcile_availability_cmd(
    hotel: HotelOpt,
    journal: JournalOpt = Path(".workbench/journal.sqlite"),
    start: FromOpt = None,
    days: DaysOpt = 365,
    report: Annotated[list[Path] | None, typer.Option(
        "--report", help="Write each difference, located (night, value, what the platform holds, what was accepted, "
                         "the request and the cell it came from): .csv or .xlsx. May repeat.", show_default=False)] = None,
    fix: Annotated[bool, typer.Option(
        "--fix", help="Send the journal's accepted value of every night that changed on the platform or was lost, "
                      "again (the same journal); nights never sent are left to the workbook.")] = False,
    dry_run: Annotated[Path | None, typer.Option(
        "--dry-run", help="With --fix: write those requests into this folder instead of sending them "
                          "(`workbench push requests DIR` sends it).", show_default=False)] = None,
    env_file: EnvFileOpt = None,
) -> None:
    """Compare what the platform holds (rooms to sell, closed) with what the journal says it accepted.

    Exit code 0: no difference; 1: differences found (and, with --fix, sent again: 0 when every fix applied) or
    reads refused; 2: the input or the settings cannot be used.

    Examples:

      workbench reconcile availability --hotel 1000001 --report differences.xlsx
      workbench reconcile availability --hotel 1000001 --journal .workbench/journal.sqlite --fix
    """
    from workbench.errors import WorkbenchError
    from workbench.flows import reconcile_availability

    check_outputs({"--journal": journal, "--env-file": env_file}, files={"--report": report},
                  folders={"--dry-run": dry_run})
    for path in report or []:
        _table_path(path)
    if dry_run is not None and not fix:
        fail("--dry-run DIR goes with --fix: it writes the fixes instead of sending them")
    first = _start(start)
    if not Path(journal).is_file():
        fail(f"the journal `{journal}` does not exist: give the journal your pushes wrote (--journal)")
    try:
        settings = load_settings(env_file)
        rec = reconcile_availability(settings, hotel, journal=journal, start=first, days=days, fix=fix and dry_run is None,
                                     fix_dry_run=dry_run if fix else None, command="reconcile availability --fix")
    except WorkbenchError as exc:
        fail(str(exc))
    console.print(("[green]" if rec.ok else "[yellow]") + escape(rec.summary()) + "[/]")
    for d in rec.differences.head(10).itertuples(index=False):
        console.print(f"  [yellow]{d.difference}[/] {escape(clip(d.message))}")
    _print_problems(rec.platform)
    for path in report or []:
        try:
            from workbench.reports.tables import write_table

            written(write_table(rec.differences, path, sheet_name="Differences"))
        except (ValueError, OSError) as exc:
            fail(f"cannot write the report `{path}`: {exc}")
    if rec.fix is None:
        raise typer.Exit(0 if rec.ok else 1)
    if dry_run is not None:
        console.print(f"[green]Wrote {len(rec.fix)} request(s)[/] with the accepted values into "
                      f"[bold]{escape(str(dry_run))}[/] (send them with `workbench push requests {escape(str(dry_run))}`)")
        raise typer.Exit(1)
    print_outcome(rec.fix)
    never = int((rec.differences["difference"] == "never sent").sum()) if len(rec.differences) else 0
    raise typer.Exit(0 if rec.fix.ok and not never and rec.platform.ok else 1)
