"""``workbench health``: what will stop guests booking, per property, found before the property
finds it; reports for analysts and letters for properties."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from workbench.cli.console import clip, console, fail


def health(
    hotel: Annotated[list[int] | None, typer.Option(
        "--hotel", help="Check this property; may repeat. Default: every property in the registry, the journal "
                        "and the sheets.", show_default=False)] = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="Check as of this night (YYYY-MM-DD); default: today in CET.", show_default=False)] = None,
    horizon: Annotated[int, typer.Option(
        "--horizon", help="Nights from the as-of night within which a room-rate running out of prices blocks "
                          "bookings soon.")] = 60,
    registry: Annotated[list[Path] | None, typer.Option(
        "--registry", help="Property registry (names, rooms, room-rates; stands in for the platform when it is not "
                           "read); may repeat.", show_default=False)] = None,
    journal: Annotated[Path, typer.Option(
        "--journal", help="The push journal: the prices the platform accepted.")] = Path(".workbench/journal.sqlite"),
    rates: Annotated[list[Path] | None, typer.Option(
        "--rates", help="Rates spreadsheets not pushed yet; may repeat.", show_default=False)] = None,
    report: Annotated[list[Path] | None, typer.Option(
        "--report", help="Write a report: .html (a section and a timeline per property), .xlsx or .csv. May repeat.",
        show_default=False)] = None,
    letters: Annotated[Path | None, typer.Option(
        "--letters", help="Write one message per property (<hotel>.md and <hotel>.html) into this folder.",
        show_default=False)] = None,
    env_file: Annotated[Path | None, typer.Option(
        "--env-file", help="Settings of the platform to read (e.g. a sandbox's connection.env); default: the "
                           "environment and ./.env. Without a platform the registry stands in for it.",
        show_default=False)] = None,
    show: Annotated[int, typer.Option(help="How many findings to print.")] = 20,
    availability: Annotated[bool, typer.Option(
        "--availability", help="Also read the platform's availability for the horizon (roomrateavailability): rooms "
                               "running out, priced nights nobody can book, availability ending before the prices.")
    ] = False,
    low_availability: Annotated[int, typer.Option(
        "--low-availability", min=0, help="With --availability: rooms left at or below which a night counts as "
                                          "low.")] = 1,
) -> None:
    """Find room-rates that cannot be booked, or soon cannot: never priced, unmapped, running out of prices
    within the horizon, gaps, less than a year ahead, closed nights, child or read-only rates priced, rooms
    that cannot be booked.

    Exit code 0: nothing blocks bookings within the horizon; 1: something does; 2: the input or the
    settings cannot be used.

    Examples:

      workbench health --registry registry.xlsx --report health.html
      workbench health --hotel 1000001 --env-file sandbox/connection.env --letters letters/
    """
    import datetime as dt

    from loaders import LoadError
    from workbench.cli.common import load_settings
    from workbench.cli.paths import check_outputs
    from workbench.errors import PlatformReadError, SettingsError
    from workbench.flows import property_health

    check_outputs({"--registry": registry, "--rates": rates, "--journal": journal, "--env-file": env_file},
                  files={"--report": report}, folders={"--letters": letters})
    day = None
    if as_of is not None:
        try:
            day = dt.date.fromisoformat(as_of)
        except ValueError:
            fail(f"--as-of `{as_of}` is not a date: write it as YYYY-MM-DD")
    if horizon < 1:
        fail(f"--horizon {horizon}: give at least 1 night")
    # a journal that does not exist (a fresh folder) is read as empty: the report says what that leaves unchecked
    try:
        settings = load_settings(env_file)
        with console.status("Reading the platform, the journal and the sheets…"):
            result = property_health(settings, hotels=hotel, as_of=day, horizon=horizon, registry=registry or None,
                                     journal=journal, rates=rates or None, availability=availability or None,
                                     low_availability=low_availability)
    except LoadError as exc:
        fail(str(exc))
    except (SettingsError, PlatformReadError, ValueError) as exc:
        fail(str(exc))
    _print(result, show)
    from workbench.reports.health import write_health_report, write_letters

    for path in report or []:
        try:
            console.print(f"Report written: [bold]{write_health_report(result, path)}[/]")
        except (ValueError, OSError) as exc:
            fail(str(exc))
    if letters is not None:
        written = write_letters(result, letters)
        console.print(f"Letters written: [bold]{len(written) // 2}[/] properties into [bold]{letters}[/]")
    raise typer.Exit(result.exit_code)


def _print(result, show: int) -> None:
    from rich.markup import escape

    f = result.findings
    counts = f["severity"].value_counts().to_dict()
    props = result.properties()
    colour = "green" if result.ok else "red"
    console.print(f"{len(props):,} properties, {len(result.room_rates):,} room-rates as of {result.as_of} (CET), "
                  f"horizon {result.horizon} nights: [{colour}]{counts.get('now', 0)} now, {counts.get('soon', 0)} "
                  f"soon[/], {counts.get('advice', 0)} advice")
    for note in result.notes:
        console.print(f"[yellow]note[/] {escape(note)}")
    styles = {"now": "red", "soon": "yellow", "advice": "dim"}
    for r in f.head(max(show, 0)).itertuples(index=False):
        rate = "" if r.rate_plan_code is None or str(r.rate_plan_code) in ("<NA>", "nan") else f" / {clip(r.rate_plan_code)}"
        console.print(f"[{styles[r.severity]}]{r.severity:6}[/] [bold]{r.hotel_code} {escape(clip(r.inv_type_code))}"
                      f"{escape(rate)}[/] [dim]{r.finding}[/]\n        {escape(clip(r.message, limit=2_000))}\n"
                      f"        fix: {escape(clip(r.fix, limit=2_000))}")
    if len(f) > show > 0:
        console.print(f"… and {len(f) - show} more (write them all with --report health.html/.xlsx/.csv)")
