"""``workbench validate rooms``, ``workbench push rooms`` and ``workbench fetch rooms``."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Annotated

import typer

from workbench.cli.console import console, fail, print_issues
from workbench.cli.rates import load_settings, push_app, validate_app

fetch_app = typer.Typer(help="Read what the platform stores (room types, amenities) into frames and workbooks.",
                        no_args_is_help=True)

Files = Annotated[list[Path], typer.Argument(help="Workbook(s) or CSV files with Rooms / SubRooms / Amenities.",
                                             show_default=False)]
EnvFile = Annotated[Path | None, typer.Option(
    "--env-file", help="Settings file (e.g. a sandbox's connection.env); default: the environment and ./.env.",
    show_default=False)]
Report = Annotated[list[Path] | None, typer.Option(
    "--report", help="Write the issues: .csv, .xlsx (your sheets with the failing cells marked) or .html. May repeat.",
    show_default=False)]


def _check(files: list[Path]):
    from loaders import LoadError
    from workbench.flows.rooms import check_rooms

    try:
        with console.status("Reading and checking…"):
            return check_rooms(files)
    except LoadError as exc:
        fail(str(exc))


def _reports(issues, files: list[Path], paths: list[Path] | None, title: str) -> None:
    from workbench.reports.validation import ReportContext, write_report

    for path in paths or []:
        try:
            written = write_report(issues, path, ReportContext(title=title, files=files))
        except (ValueError, OSError) as exc:
            fail(str(exc))
        console.print(f"Report written: [bold]{written}[/]")


@validate_app.command("rooms")
def validate_rooms_cmd(files: Files, report: Report = None,
                       show: Annotated[int, typer.Option(help="How many issues to print.")] = 20) -> None:
    """Check room types, sub-rooms and amenities. Exit code 0: no errors; 1: errors; 2: unusable input."""
    check = _check(files)
    console.print(f"{len(check.rooms)} room type(s), {len(check.subrooms)} sub-room(s), "
                  f"{len(check.amenities)} amenity row(s) read")
    print_issues(check.issues, limit=show)
    _reports(check.issues, files, report, "Room types validation")
    raise typer.Exit(0 if check.ok else 1)


@push_app.command("rooms")
def push_rooms_cmd(
    file: Annotated[Path, typer.Argument(help="The workbook (Rooms / SubRooms / Amenities).", show_default=False)],
    dry_run: Annotated[Path | None, typer.Option(
        "--dry-run", help="Write the requests (.xml), manifest.csv and diff.csv into this folder instead of sending. "
                          "With settings, the platform's state is read first and merged.", show_default=False)] = None,
    env_file: EnvFile = None,
    mapping: Annotated[Path, typer.Option(help="Where the RoomID -> InvCode mapping of created room types is kept.")]
        = Path(".workbench/room_mapping.csv"),
    fill: Annotated[Path | None, typer.Option(
        "--fill", help="Also write a copy of the workbook with the new InvCodes filled in.", show_default=False)] = None,
    report: Report = None,
) -> None:
    """Create room types (blank InvCode) and overlay existing ones, merged with what the platform stores.

    Exit code 0: every request applied; 1: errors block the push or a request failed; 2: unusable input/settings.
    """
    from workbench.flows.rooms import (
        BlockedByErrors,
        OperationSunset,
        PlatformReadError,
        preview_rooms,
        push_rooms,
    )
    from workbench.flows.rooms import dry_run as write_dry_run

    check = _check([file])
    print_issues(check.issues, limit=10)
    if dry_run is not None:
        settings = load_settings(env_file)
        try:
            plan = preview_rooms(check, settings if settings.base_url else None, mapping=mapping)
        except (PlatformReadError, ValueError) as exc:
            fail(str(exc))
        if not settings.base_url:
            console.print("[yellow]No platform settings: the platform's state was not read, so only the parts the "
                          "sheet states whole (and removals) can be planned; the others are in the issues.[/]")
        manifest = write_dry_run(check, dry_run, plan)
        _print_parts(plan.parts)
        print_issues(plan.issues, limit=10)
        console.print(f"[green]Wrote {len(manifest)} request(s)[/], diff.csv ({len(plan.diff)} change(s)) and "
                      f"parts.csv ({len(plan.parts)} part(s) replaced) into [bold]{dry_run}[/]")
        _reports(plan.issues, [file], report, "Room types push plan")
        raise typer.Exit(0 if check.ok and plan.ok else 1)
    settings = load_settings(env_file)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = push_rooms(check, settings, mapping=mapping, workbook_copy=fill)
        for w in caught:
            console.print(f"[yellow]Warning:[/] {w.message}")
    except BlockedByErrors as exc:
        console.print(f"[red]Nothing sent:[/] {exc}")
        if exc.issues is not None:
            print_issues(exc.issues, limit=10)
        raise typer.Exit(1) from None
    except (OperationSunset, PlatformReadError, ValueError) as exc:
        fail(str(exc))
    console.print(("[green]" if result.ok else "[red]") + result.summary() + "[/]")
    for r in result.results.itertuples():
        colour = "green" if r.outcome == "success" else "red"
        console.print(f"  [{colour}]{r.notif_type} {r.hotel_code} {r.inv_code or r.room_id}[/] {r.room_name or ''}: "
                      f"{r.outcome} {r.message} (ruid {r.ruid})")
    console.print(f"Mapping: [bold]{mapping}[/]" + (f"; workbook with InvCodes: [bold]{fill}[/]" if fill else ""))
    raise typer.Exit(0 if result.ok else 1)


def _print_parts(parts, limit: int = 30) -> None:
    """Each part an Overlay or a New will replace, before -> after."""
    for r in parts.head(limit).itertuples():
        room = r.inv_code if isinstance(r.inv_code, str) else "new " + next(
            (str(x) for x in (r.room_id, r.room_name) if isinstance(x, str)), "")
        before = r.before if isinstance(r.before, str) else "(nothing)"
        console.print(f"  {r.hotel_code} [bold]{room}[/] {r.part} ({r.replaces}): {before} [bold]->[/] {r.after}",
                      markup=True, highlight=False)
    if len(parts) > limit:
        console.print(f"  ... and {len(parts) - limit} more (parts.csv)")


@fetch_app.command("rooms")
def fetch_rooms_cmd(
    hotel: Annotated[list[int], typer.Option("--hotel", help="Property id (HotelCode); may repeat.")],
    out: Annotated[Path | None, typer.Option("--out", help="Write Rooms / SubRooms / Amenities to this .xlsx.",
                                             show_default=False)] = None,
    env_file: EnvFile = None,
) -> None:
    """Read the active room types of properties (OTA_HotelDescriptiveInfo)."""
    from workbench.flows.room_files import not_in_read
    from workbench.flows.rooms import PlatformReadError, fetch_rooms, write_rooms_workbook
    from workbench.transport import ConfigurationError

    settings = load_settings(env_file)
    try:
        with console.status("Reading room types…"):
            state = fetch_rooms(settings, hotel)
    except (PlatformReadError, ConfigurationError) as exc:
        fail(str(exc))
    for r in state.rooms.itertuples():
        n = int(((state.amenities["hotel_code"] == r.hotel_code) & (state.amenities["inv_code"] == r.inv_code)).sum())
        console.print(f"{r.hotel_code} [bold]{r.inv_code}[/] {r.room_name or ''} (RoomType {r.room_type or '-'}): "
                      f"{n} amenities")
    missing = not_in_read(state)
    if missing:
        console.print("[yellow]Not in the platform's read (left blank, see the workbook's About sheet):[/] "
                      + ", ".join(missing))
    if out is not None:
        try:
            console.print(f"Written: [bold]{write_rooms_workbook(state, out)}[/]")
        except (ValueError, OSError) as exc:
            fail(str(exc))
