"""``push rooms --api modular`` and ``fetch rooms --api modular``: the Rooms and Facilities APIs' side of the rooms
commands (``workbench.cli.rooms`` parses the command line and calls these; no command is registered here)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.markup import escape

from loaders.issues import combine
from workbench.cli.common import remember_reports
from workbench.cli.console import console, fail, print_issues, print_outcome, stop, text, written

Reports = Callable[..., None]


def settings_or_none(env_file: Path | None) -> Any:
    """The settings, or None when they cannot be read (the command then says why where it always has)."""
    from workbench.cli.common import load_settings
    from workbench.errors import SettingsError

    try:
        return load_settings(env_file)
    except SettingsError:
        return None


def api_of(given: str | None, settings: Any, today: dt.date | None) -> str:
    """``--api`` as given, else the default for the provider type and the day (CET; no settings: ``ota``)."""
    from workbench.flows import API_CHOICES, default_api

    if given is None:
        return default_api(settings, today) if settings is not None else "ota"
    api = given.strip().casefold()
    if api not in API_CHOICES:
        fail(f"--api `{given}`: give `ota` (OTA_HotelInvNotif) or `modular` (the Rooms and Facilities APIs)")
    return api


def check_modular(files: list[Path], on_fail: Callable[[str], None], encoding: str | None, header_row: int | None):
    """The workbook checked for the Rooms API; a file that cannot be used is one line (exit 2)."""
    from loaders import LoadError
    from workbench.flows import check_rooms_modular

    try:
        with console.status("Reading and checking…"):
            return check_rooms_modular(files, encoding=encoding, header_row=header_row)
    except LoadError as exc:
        on_fail(str(exc))
        fail(str(exc))


def _print_changes(changes, limit: int = 30) -> None:
    for r in changes.head(limit).itertuples():
        unit = text(r.inv_code) or "new"
        console.print(f"  {escape(text(r.hotel_code))} [bold]{escape(unit)}[/] {escape(text(r.room_name))}: "
                      f"{escape(text(r.part))} {escape(text(r.item))}: {escape(text(r.before))} [bold]->[/] "
                      f"{escape(text(r.after))}", highlight=False)
    if len(changes) > limit:
        console.print(f"  ... and {len(changes) - limit} more (changes.csv with --dry-run)")


def push_modular(files: list[Path], check: Any, settings: Any, *, dry_run: Path | None, plan_only: bool,
                 mapping: Path, fill: Path | None, report: list[Path] | None, journal: Path,
                 reports: Reports) -> NoReturn:
    """Plan (``--plan``), write (``--dry-run``) or send through the Rooms and Facilities APIs; exits."""
    from workbench.errors import BlockedByErrors, PlatformReadError, SettingsError, WorkbenchError
    from workbench.flows import modular_dry_run, plan_rooms_modular, push_rooms_modular
    from workbench.writers import PushInterrupted

    title = "Room types push plan (Rooms API)" if dry_run is not None or plan_only else "Room types push (Rooms API)"
    if not settings.base_url:
        fail("the Rooms API path reads the platform's units and meta to plan anything: give the settings "
             "(--env-file, e.g. a sandbox's connection.env)")
    if dry_run is not None or plan_only:
        try:
            with console.status("Reading the units and planning…"):
                plan = plan_rooms_modular(check, settings, mapping=mapping, journal=journal)
        except (PlatformReadError, SettingsError, ValueError) as exc:
            fail(str(exc))
        _print_changes(plan.changes)
        print_issues(plan.issues, limit=10)
        console.print(escape(plan.summary()))
        if dry_run is not None:
            manifest = modular_dry_run(plan, dry_run)
            console.print(f"[green]Wrote {len(manifest)} request(s)[/] and changes.csv ({len(plan.changes)} change(s)) "
                          f"into [bold]{escape(str(dry_run))}[/]")
        reports(combine([check.issues, plan.issues]), files, report, title, {"Result": "a plan: nothing was sent"})
        raise typer.Exit(0 if check.ok and plan.ok else 1)
    try:
        with console.status("Reading the units, then sending…"):
            result = push_rooms_modular(check, settings, mapping=mapping, workbook_copy=fill, journal=journal,
                                        command="push rooms --api modular " + " ".join(str(f) for f in files))
    except PushInterrupted as exc:  # Ctrl-C / SIGTERM: what was sent is in the journal, the report says it
        sent = exc.result
        reports(check.issues if sent is None else combine([check.issues, sent.platform_issues]), files, report, title,
                {"Result": str(exc)})
        stop(str(exc))
    except BlockedByErrors as exc:
        console.print(f"[red]Nothing sent:[/] {escape(str(exc))}")
        issues = check.issues
        if exc.issues is not None and exc.issues is not check.issues:
            print_issues(exc.issues, limit=10)
            issues = combine([check.issues, exc.issues])
        reports(issues, files, report, title, {"Result": f"nothing was sent: {exc}"})
        raise typer.Exit(1) from None
    except (WorkbenchError, ValueError) as exc:
        reports(check.issues, files, report, title, {"Result": f"nothing was sent: {exc}"})
        fail(str(exc))
    print_outcome(result)
    print_issues(result.platform_issues, limit=10)
    reports(combine([check.issues, result.platform_issues]), files, report, title, {"Result": result.summary()})
    for run_id in result.run_ids:
        remember_reports(journal, run_id, report)
    console.print(f"Mapping: [bold]{escape(str(mapping))}[/]"
                  + (f"; workbook with InvCodes: [bold]{escape(str(fill))}[/]" if fill else ""))
    raise typer.Exit(0 if result.ok else 1)


def fetch_modular(hotels: list[int], out: Path | None, settings: Any) -> None:
    """Read the units of properties (Rooms API) with their room facilities and bathrooms; write the workbook."""
    from workbench.errors import PlatformReadError
    from workbench.flows import fetch_rooms_modular, modular_rooms_frames, write_modular_rooms_workbook
    from workbench.transport import ConfigurationError

    try:
        with console.status("Reading units…"):
            read = fetch_rooms_modular(settings, hotels)
    except (PlatformReadError, ConfigurationError) as exc:
        fail(str(exc))
    frames = modular_rooms_frames(read)
    amenities = frames["Amenities"]
    for r in frames["Rooms"].itertuples(index=False):
        n = int(((amenities["HotelCode"] == r.HotelCode) & (amenities["InvCode"] == r.InvCode)).sum())
        console.print(f"{escape(text(r.HotelCode))} [bold]{escape(text(r.InvCode))}[/] {escape(text(r.RoomTypeName))} "
                      f"(RoomType {escape(text(r.RoomType, '—'))}): {n} beds and room facilities")
    for warning in read.warnings:
        console.print(f"[yellow]Warning:[/] {escape(warning)}")
    if out is not None:
        try:
            written(write_modular_rooms_workbook(read, out), "Written")
        except (ValueError, OSError) as exc:
            fail(f"cannot write `{out}`: {exc}")
