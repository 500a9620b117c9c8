"""``workbench validate rooms``, ``workbench push rooms`` and ``workbench fetch rooms``."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from workbench.cli.common import (
    EncodingOpt,
    EnvFileOpt,
    HeaderRowOpt,
    ReportOpt,
    fetch_app,
    load_settings,
    print_skipped,
    push_app,
    remember_reports,
    validate_app,
    write_reports,
)
from workbench.cli.console import (
    check_paths,
    console,
    fail,
    print_issues,
    print_rooms_result,
    stop,
    text,
    written,
)
from workbench.cli.kinds import refuse_other_kind
from workbench.cli.paths import check_outputs

ISSUE_COLUMNS = ["source", "sheet", "row", "column", "value", "rule", "severity", "message"]

Files = Annotated[list[Path], typer.Argument(help="Workbook(s) or CSV files with Rooms / SubRooms / Amenities.",
                                             show_default=False)]


def _check(files: list[Path], on_fail=None, encoding: str | None = None, header_row: int | None = None):
    """The checked workbook; a file that cannot be used is one line (exit 2), after ``on_fail(message)``."""
    from loaders import LoadError
    from workbench.flows import check_rooms

    try:
        with console.status("Reading and checking…"):
            check = check_rooms(files, encoding=encoding, header_row=header_row)
    except LoadError as exc:
        if on_fail is not None:
            on_fail(str(exc))
        fail(str(exc))
    print_skipped(check.issues)
    return check


def _settings(env_file: Path | None):
    from workbench.errors import SettingsError

    try:
        return load_settings(env_file)
    except SettingsError as exc:
        fail(str(exc))


def _target(env_file: Path | None, on_fail) -> None:
    """The settings name a platform to send to; else one line (exit 2), after ``on_fail(message)``."""
    from workbench.errors import WorkbenchError
    from workbench.writers import target_of

    try:
        target_of(load_settings(env_file))
    except WorkbenchError as exc:
        on_fail(str(exc))
        fail(str(exc))


def _check_reports(paths: list[Path] | None) -> None:
    from workbench.reports.validation import check_report_path

    check_paths(paths, check_report_path)


def _reports(issues, files: list[Path], paths: list[Path] | None, title: str,
             extra: dict[str, str] | None = None) -> None:
    write_reports(issues, files, paths, title, extra)


def _concat(*frames):
    import pandas as pd

    used = [f for f in frames if f is not None and len(f)]
    return pd.concat(used, ignore_index=True) if used else frames[0]


def request_issues(result, file: Path):
    """The requests the platform refused or failed, as issues (for the push's report)."""
    import pandas as pd

    bad = result.results[result.results["outcome"] != "success"]
    rows = [{"source": file.name, "sheet": "Rooms", "row": pd.NA, "column": "InvCode",
             "value": text(r.inv_code) or text(r.room_id), "rule": text(r.outcome), "severity": "error",
             "message": f"{text(r.notif_type)} of {text(r.room_name) or 'the room type'} at {text(r.hotel_code)}: "
                        f"{text(r.message) or text(r.outcome)}" + (f" (ruid {text(r.ruid)})" if text(r.ruid) else "")}
            for r in bad.itertuples(index=False)]
    return pd.DataFrame(rows, columns=ISSUE_COLUMNS)


@validate_app.command("rooms")
def validate_rooms_cmd(files: Files, report: ReportOpt = None,
                       show: Annotated[int, typer.Option(help="How many issues to print.")] = 20,
                       encoding: EncodingOpt = None, header_row: HeaderRowOpt = None) -> None:
    """Check room types, sub-rooms and amenities. Exit code 0: no errors; 1: errors; 2: unusable input.

    Examples:

      workbench validate rooms rooms.xlsx --report rooms-issues.html
    """
    check_outputs({"files": files}, files={"--report": report})
    refuse_other_kind(files, "rooms", "validate")
    _check_reports(report)
    check = _check(files, encoding=encoding, header_row=header_row)
    console.print(f"{len(check.rooms)} room type(s), {len(check.subrooms)} sub-room(s), "
                  f"{len(check.amenities)} amenity row(s) read")
    print_issues(check.issues, limit=show)
    _reports(check.issues, files, report, "Room types validation")
    raise typer.Exit(0 if check.ok else 1)


ApiOpt = Annotated[str | None, typer.Option(
    "--api", help="`ota` (OTA_HotelInvNotif / OTA_HotelDescriptiveInfo) or `modular` (the Rooms and Facilities "
                  "APIs); default: modular for a Home provider (WORKBENCH_PROVIDER_TYPE) from 2026-12-31 in CET, ota "
                  "otherwise.", show_default=False)]
TodayOpt = Annotated[str | None, typer.Option(
    "--today", help="The day (YYYY-MM-DD, CET) the sunsets and the default --api are judged by; default: today.",
    show_default=False)]


def _today(value: str | None):
    import datetime as dt

    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        fail(f"--today `{value}` is not a date: write YYYY-MM-DD")


@push_app.command("rooms")
def push_rooms_cmd(
    files: Annotated[list[Path], typer.Argument(help="The workbook(s) (Rooms / SubRooms / Amenities).",
                                                metavar="FILE...", show_default=False)],
    dry_run: Annotated[Path | None, typer.Option(
        "--dry-run", help="Write the requests (.xml), manifest.csv and diff.csv into this folder instead of sending. "
                          "With settings, the platform's state is read first and merged.", show_default=False)] = None,
    env_file: EnvFileOpt = None,
    mapping: Annotated[Path, typer.Option(help="Where the RoomID -> InvCode mapping of created room types is kept.")]
        = Path(".workbench/room_mapping.csv"),
    fill: Annotated[Path | None, typer.Option(
        "--fill", help="Also write a copy of the workbook with the new InvCodes filled in.", show_default=False)] = None,
    report: ReportOpt = None,
    journal: Annotated[Path, typer.Option(help="The push journal (SQLite): every request and outcome, the parts the "
                                               "platform accepted, the room types created; resume.")]
        = Path(".workbench/journal.sqlite"),
    full: Annotated[bool, typer.Option("--full", help="Send the parts the journal says the platform already has "
                                                      "too.")] = False,
    api: ApiOpt = None,
    plan_only: Annotated[bool, typer.Option("--plan", help="Show what a push would change (read the platform, merge); "
                                                      "nothing is written or sent.")] = False,
    today: TodayOpt = None,
) -> None:
    """Create room types (blank InvCode) and overlay existing ones, merged with what the platform stores.

    Exit code 0: every request applied; 1: errors block the push or a request failed; 2: unusable input/settings.

    Examples:

      workbench push rooms rooms.xlsx --dry-run rooms-requests/
      workbench push rooms rooms.xlsx --env-file sandbox/connection.env --fill rooms-with-codes.xlsx
      workbench push rooms units.xlsx --api modular --plan --env-file sandbox/connection.env
    """
    file = files[0]
    if dry_run is not None and plan_only:
        fail("give --dry-run DIR or --plan, not both")
    day = _today(today)
    check_outputs({"files": files, "--env-file": env_file},
                  files={"--report": report, "--mapping": mapping, "--fill": fill, "--journal": journal},
                  folders={"--dry-run": dry_run})
    refuse_other_kind(files, "rooms", "push")
    from workbench.cli.rooms_modular import api_of, settings_or_none

    settings_now = settings_or_none(env_file)  # unreadable settings: the InvNotif path says so, as it always has
    if api_of(api, settings_now, day) == "modular":
        from workbench.cli.rooms_modular import check_modular, push_modular

        settings_now = _settings(env_file)
        _check_reports(report)
        if fill is not None and fill.suffix.lower() != ".xlsx":
            fail(f"--fill `{fill}`: the copy of the workbook is an Excel file; give a name ending in .xlsx")
        import pandas as pd

        check = check_modular(files, lambda why: _reports(pd.DataFrame(columns=ISSUE_COLUMNS), files, report,
                                                         "Room types push", {"Result": f"nothing was sent: {why}"}),
                              None, None)
        print_issues(check.issues, limit=10)
        push_modular(files, check, settings_now, dry_run=dry_run, plan_only=plan_only, mapping=mapping, fill=fill,
                     report=report, journal=journal, reports=_reports)
    from workbench.flows import (
        BlockedByErrors,
        OperationSunset,
        PlatformReadError,
        preview_rooms,
        push_rooms,
    )
    from workbench.flows import rooms_dry_run as write_dry_run

    _check_reports(report)
    if fill is not None and fill.suffix.lower() != ".xlsx":
        fail(f"--fill `{fill}`: the copy of the workbook is an Excel file; give a name ending in .xlsx")
    import pandas as pd

    title = "Room types push plan" if dry_run is not None else "Room types push"
    if dry_run is None and not plan_only:  # a push: its settings and its target before the workbook is read
        _target(env_file, lambda why: _reports(pd.DataFrame(columns=ISSUE_COLUMNS), files, report, title,
                                               {"Result": f"nothing was sent: {why}"}))
    check = _check(files, on_fail=lambda why: _reports(pd.DataFrame(columns=ISSUE_COLUMNS), files, report, title,
                                                       {"Result": f"nothing was sent: {why}"}))
    print_issues(check.issues, limit=10)
    if plan_only:
        try:
            with console.status("Planning the requests…"):
                preview = preview_rooms(check, settings_now if settings_now and settings_now.base_url else None,
                                        mapping=mapping)
        except (PlatformReadError, ValueError) as exc:
            fail(str(exc))
        _print_parts(preview.parts)
        print_issues(preview.issues, limit=10)
        _reports(preview.issues, files, report, title, {"Result": "a plan: nothing was sent"})
        raise typer.Exit(0 if check.ok and preview.ok else 1)
    if dry_run is not None:
        settings = _settings(env_file)
        try:
            with console.status("Planning the requests…"):
                plan = preview_rooms(check, settings if settings.base_url else None, mapping=mapping, journal=journal)
        except (PlatformReadError, ValueError) as exc:
            fail(str(exc))
        if not settings.base_url:
            console.print("[yellow]No platform settings: the platform's state was not read, so only the parts the "
                          "sheet states whole (and removals) can be planned; the others are in the issues.[/]")
        manifest = write_dry_run(check, dry_run, plan)
        _print_parts(plan.parts)
        print_issues(plan.issues, limit=10)
        console.print(f"[green]Wrote {len(manifest)} request(s)[/], diff.csv ({len(plan.diff)} change(s)) and "
                      f"parts.csv ({len(plan.parts)} part(s) replaced) into [bold]{escape(str(dry_run))}[/]")
        _reports(plan.issues, files, report, title, {"Result": "a dry run: nothing was sent"})
        raise typer.Exit(0 if check.ok and plan.ok else 1)
    from workbench.errors import SettingsError
    from workbench.writers import PushInterrupted

    try:
        settings = load_settings(env_file)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with console.status("Reading the platform's room types, then sending…"):
                result = push_rooms(check, settings, mapping=mapping, workbook_copy=fill, journal=journal, full=full,
                                    command="push rooms " + " ".join(str(f) for f in files), today=day)
        for w in caught:
            console.print(f"[yellow]Warning:[/] {escape(str(w.message))}")
    except BlockedByErrors as exc:
        console.print(f"[red]Nothing sent:[/] {escape(str(exc))}")
        issues = check.issues
        if exc.issues is not None and exc.issues is not check.issues:
            print_issues(exc.issues, limit=10)
            issues = _concat(check.issues, exc.issues)
        _reports(issues, files, report, title, {"Result": f"nothing was sent: {exc}"})
        raise typer.Exit(1) from None
    except PushInterrupted as exc:  # Ctrl-C / SIGTERM: what was sent is in the journal, the report says it
        sent = exc.result
        _reports(check.issues if sent is None else _concat(check.issues, request_issues(sent, file)), files, report,
                 title, {"Result": str(exc)})
        stop(str(exc))
    except (OperationSunset, PlatformReadError, SettingsError, ValueError) as exc:
        _reports(check.issues, files, report, title, {"Result": f"nothing was sent: {exc}"})
        fail(str(exc))
    print_rooms_result(result)
    _reports(_concat(check.issues, request_issues(result, file)), files, report, title,
             {"Result": result.summary()})
    remember_reports(journal, result.run_id, report)
    console.print(f"Mapping: [bold]{escape(str(mapping))}[/]"
                  + (f"; workbook with InvCodes: [bold]{escape(str(fill))}[/]" if fill else ""))
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
    env_file: EnvFileOpt = None,
    api: ApiOpt = None,
    today: TodayOpt = None,
) -> None:
    """Read the active room types of properties (OTA_HotelDescriptiveInfo, or the Rooms and Facilities APIs).

    Examples:

      workbench fetch rooms --hotel 1000001 --out rooms.xlsx --env-file sandbox/connection.env
      workbench fetch rooms --hotel 1000001 --out units.xlsx --api modular --env-file sandbox/connection.env
    """
    from workbench.cli.rooms_modular import api_of, fetch_modular
    from workbench.flows import PlatformReadError, fetch_rooms, not_in_read, write_rooms_workbook
    from workbench.transport import ConfigurationError

    check_outputs({"--env-file": env_file}, files={"--out": out})
    if out is not None and out.suffix.lower() != ".xlsx":
        fail(f"--out `{out}`: room types are written as an Excel workbook; give a name ending in .xlsx")
    settings = _settings(env_file)
    if api_of(api, settings, _today(today)) == "modular":
        fetch_modular(hotel, out, settings)
        return
    try:
        with console.status("Reading room types…"):
            state = fetch_rooms(settings, hotel)
    except (PlatformReadError, ConfigurationError) as exc:
        fail(str(exc))
    for r in state.rooms.itertuples():
        n = int(((state.amenities["hotel_code"] == r.hotel_code) & (state.amenities["inv_code"] == r.inv_code)).sum())
        console.print(f"{escape(text(r.hotel_code))} [bold]{escape(text(r.inv_code))}[/] "
                      f"{escape(text(r.room_name))} (RoomType {escape(text(r.room_type, '—'))}): {n} amenities")
    missing = not_in_read(state)
    if missing:
        console.print("[yellow]Not in the platform's read (left blank, see the workbook's About sheet):[/] "
                      + ", ".join(missing))
    if out is not None:
        try:
            written(write_rooms_workbook(state, out), "Written")
        except (ValueError, OSError) as exc:
            fail(f"cannot write `{out}`: {exc}")
