"""``workbench validate content``: check property-content workbooks (spec E4).

(``workbench push content`` lives in ``workbench.cli.content_push``.)
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from workbench.cli.common import (
    EncodingOpt,
    EnvFileOpt,
    HeaderRowOpt,
    ReportOpt,
    load_settings,
    print_skipped,
    validate_app,
    write_reports,
)
from workbench.cli.console import check_paths, console, fail, print_issues
from workbench.cli.kinds import refuse_other_kind
from workbench.cli.paths import check_outputs

Files = Annotated[list[Path], typer.Argument(help="Content workbook(s) (sheets Property, Contacts, Policies, …) or "
                                                  "one CSV per part (property.csv, contacts.csv, …).",
                                             show_default=False)]


@validate_app.command("content")
def validate_content_cmd(
    files: Files, report: ReportOpt = None,
    show: Annotated[int, typer.Option(help="How many issues to print.")] = 20,
    env_file: EnvFileOpt = None,
    rtb_enabled: Annotated[bool, typer.Option(
        "--rtb-enabled", help="The provider has `content_api_rtb_enabled` (request to book through content).")]
        = False,
    today: Annotated[str | None, typer.Option(
        help="Check as of this date (YYYY-MM-DD, CET); default today.", show_default=False)] = None,
    encoding: EncodingOpt = None, header_row: HeaderRowOpt = None,
) -> None:
    """Check property content against every E4 rule, with the platform's lists when a platform is configured.

    Exit code 0: no errors; 1: errors found; 2: the input, settings or command line cannot be used.

    Examples:

      workbench validate content content.xlsx --report content-issues.html
    """
    from loaders import LoadError
    from workbench.errors import PlatformReadError, SettingsError
    from workbench.flows import check_content

    check_outputs({"files": files, "--env-file": env_file}, files={"--report": report})
    refuse_other_kind(files, "content", "validate")
    _check_reports(report)
    day = _date(today)
    settings = None
    try:
        settings = load_settings(env_file)
    except SettingsError as exc:
        if env_file is not None:
            fail(str(exc))
    try:
        with console.status("Reading and checking…"):
            check = check_content(files, settings=settings, today=day, rtb_enabled=rtb_enabled or None,
                                  encoding=encoding, header_row=header_row)
    except LoadError as exc:
        fail(str(exc))
    except PlatformReadError as exc:
        fail(f"the platform's lists could not be read: {exc} (check the settings, or run without --env-file)")
    print_skipped(check.issues)
    props = check.properties
    console.print(f"{len(props)} propert{'y' if len(props) == 1 else 'ies'} read ({int(props['new'].sum())} new); "
                  + ", ".join(f"{p} {len(f)}" for p, f in check.parts.items() if len(f)))
    for note in check.notes:
        console.print(f"[dim]{escape(note)}[/]")
    print_issues(check.issues, limit=show)
    _reports(check.issues, files, report, "Property content validation",
             extra={"as of": f"{day:%Y-%m-%d}"} if day else None)
    raise typer.Exit(0 if check.ok else 1)


def _date(text: str | None) -> dt.date | None:
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        fail(f"--today `{text}` is not a date: write it as YYYY-MM-DD")


def _check_reports(paths: list[Path] | None) -> None:
    from workbench.reports.validation import check_report_path

    check_paths(paths, check_report_path)


def _reports(issues, files: list[Path], paths: list[Path] | None, title: str, extra: dict[str, str] | None) -> None:
    write_reports(issues, files, paths, title, extra)
