"""``workbench validate availability``: check availability and restriction workbooks; nothing is sent.

(Pushing, planning, fetching and reconciling availability go through the one push path.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from workbench.cli.common import (
    AsOf,
    EncodingOpt,
    HeaderRowOpt,
    RegistryOpt,
    ReportOpt,
    SheetOpt,
    WaiversOpt,
    print_skipped,
    validate_app,
)
from workbench.cli.console import check_paths, console, fail, print_issues, written
from workbench.cli.kinds import refuse_other_kind
from workbench.cli.paths import check_outputs
from workbench.cli.signals import finishing

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
    from expectations.rates import as_of_date

    try:
        day = as_of_date(as_of) if as_of is not None else None
    except ValueError as exc:
        fail(f"--as-of: {exc}")
    try:
        with console.status("Reading and checking…"):
            from workbench.flows.availability import check_availability

            check = check_availability(files, sheet=sheet or None, registry=registry or None, rooms=rooms or None,
                                       as_of=day, encoding=encoding, header_row=header_row)
        if waivers is not None:
            check = check.waive(waivers)
            if len(check.waived):
                console.print(f"[dim]{len(check.waived):,} warning(s) waived by {escape(waivers.name)}: listed "
                              "apart in the reports, counted nowhere[/]")
    except LoadError as exc:
        fail(str(exc))
    print_skipped(check.issues)
    console.print(f"{len(check.frame):,} value(s) read (rooms to sell and restrictions, one per room or room-rate "
                  "and night)")
    print_issues(check.issues, limit=show)
    missing = check.not_checked()
    if len(missing):
        rules = sorted({r for rs in missing["rules"] for r in rs})
        console.print(f"[yellow]Not fully checked[/] ({len(missing)} propert{'y' if len(missing) == 1 else 'ies'}): "
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
