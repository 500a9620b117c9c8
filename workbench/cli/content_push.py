"""``workbench push content``: send property content (spec E4), or write the requests with ``--dry-run``.

``--api ota`` sends one ``OTA_HotelDescriptiveContentNotif`` per property; ``--api modular`` sends each part to
its modular JSON API (``workbench.flows.content_modular``). The default is ``modular`` from the content
operation's sunset (2026-12-31, the platform's CET day; ``--today`` sets it) and ``ota`` before it.

(``workbench validate content`` lives in ``workbench.cli.content``.)
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from workbench.cli.common import (
    EncodingOpt,
    HeaderRowOpt,
    PushReports,
    load_settings,
    print_skipped,
    push_app,
)
from workbench.cli.console import check_paths, console, fail, print_issues, text, written
from workbench.cli.kinds import refuse_other_kind
from workbench.cli.paths import check_outputs

Files = Annotated[list[Path], typer.Argument(help="Content workbook(s) (sheets Property, Contacts, Policies, …) or "
                                                  "one CSV per part.", show_default=False)]
SHOWN_PARTS = 40


def load_check(files: list[Path], settings: Any, encoding: str | None, header_row: int | None) -> Any:
    """Read and check the workbook(s) (``workbench.flows.content.check_content``, with the platform's lists
    when the settings name a platform)."""
    from workbench.flows import check_content

    return check_content(files, settings=settings if settings is not None and settings.base_url else None,
                         encoding=encoding, header_row=header_row)


class _Reports(PushReports):
    """The push reports of ``--report`` (as for rates); nothing sent: the check's errors are the rows."""

    def nothing_sent(self, reason: str, check: Any = None, target: str = "") -> None:
        from workbench.reports.push import NothingSent

        if not self.paths:
            return
        rows = None
        if check is not None and len(check.issues):
            errors = check.issues[check.issues["severity"] == "error"]
            rows = errors.assign(request_id=None, hotel="", month="", nights=None, outcome="not sent (errors)",
                                 codes=errors["rule"], ruid="")
        self.write(NothingSent(reason, rows, list(check.files) if check is not None else [], target))


@push_app.command("content")
def push_content_cmd(
    files: Files,
    dry_run: Annotated[Path | None, typer.Option(
        "--dry-run", help="Write the requests (.xml), manifest.csv and parts.csv (per property, each part that "
                          "changes, before -> after) into this folder instead of sending.", show_default=False)]
        = None,
    replace: Annotated[bool, typer.Option(
        "--replace", help="Let an Overlay drop parts sent before that the sheet no longer has (an Overlay replaces "
                          "the stored content); without it, name such parts in EmptyParts.")] = False,
    fill: Annotated[bool, typer.Option(
        "--fill", help="Write the HotelCode of each property created into the workbook (every row naming it by "
                       "its ID).")] = False,
    report: Annotated[list[Path] | None, typer.Option(
        "--report", help="Write a push report: .csv, .xlsx (your sheets with the rows of refused properties "
                         "marked) or .html. Always written, also when nothing is sent. May repeat.",
        show_default=False)] = None,
    env_file: Annotated[Path | None, typer.Option(
        "--env-file", help="Settings file (e.g. a sandbox's connection.env); default: the environment and ./.env.",
        show_default=False)] = None,
    journal: Annotated[Path, typer.Option(help="The push journal (SQLite): custom ID -> HotelCode, the content "
                                               "accepted per property.")] = Path(".workbench/journal.sqlite"),
    encoding: EncodingOpt = None,
    header_row: HeaderRowOpt = None,
    full: Annotated[bool, typer.Option("--full", help="Send the properties whose content the platform already "
                                                      "accepted as it is too.")] = False,
    api: Annotated[str | None, typer.Option(
        "--api", help="`ota` (OTA_HotelDescriptiveContentNotif) or `modular` (the Property, Contacts, Facilities and "
                      "Charges APIs). Default: modular from 2026-12-31 (CET), ota before.", show_default=False)]
        = None,
    plan: Annotated[bool, typer.Option(
        "--plan", help="Say what would be sent (and what is held back, and why); send nothing, write nothing.")]
        = False,
    today: Annotated[str | None, typer.Option(
        "--today", help="The platform's date (YYYY-MM-DD, CET) for the default --api and the sunset; default "
                        "today.", show_default=False)] = None,
) -> None:
    """Create properties (New: no HotelCode) and update them (Overlay) with OTA_HotelDescriptiveContentNotif.

    With --api modular each part goes to its modular API instead (docs/content-push.md). The content operation is
    deprecated: a warning until 2026-12-31, refused from that day (CET), when modular becomes the default. Exit
    code 0: every property applied; 1: errors block the push, or a property was refused, failed or held back;
    2: the input, the settings or the command line cannot be used.

    Examples:

      workbench push content content.xlsx --dry-run content-requests/
      workbench push content content.xlsx --env-file sandbox/connection.env --report push.html
      workbench push content content.xlsx --api modular --plan --env-file sandbox/connection.env
    """
    from loaders import LoadError
    from workbench.errors import SettingsError, WorkbenchError
    from workbench.flows import push_content
    from workbench.reports.push import check_push_report_path

    check_outputs({"files": files, "--env-file": env_file}, files={"--report": report, "--journal": journal},
                  folders={"--dry-run": dry_run})
    refuse_other_kind(files, "content", "push")
    check_paths(report, check_push_report_path)
    if fill and (dry_run is not None or plan):
        fail("--fill writes the HotelCodes the platform gives new properties; a --dry-run or --plan sends nothing: "
             "use one")
    if plan and dry_run is not None:
        fail("--plan says what would be sent; --dry-run writes it into a folder: use one")
    day = _day(today)
    chosen = _api(api, day)
    reports = _Reports(report, journal)
    try:
        settings = load_settings(env_file)
    except SettingsError as exc:
        reports.nothing_sent(str(exc))
        fail(str(exc))
    if (dry_run is None or chosen == "modular") and not settings.base_url:
        reason = "no platform is configured: give --env-file (e.g. a sandbox's connection.env) or set WORKBENCH_BASE_URL"
        reports.nothing_sent(reason)
        fail(reason)
    if chosen == "modular":
        from workbench.cli.content_modular import push_modular

        push_modular(files, settings, reports, dry_run=dry_run, plan=plan, replace=replace, fill=fill,
                     journal=journal, today=day, encoding=encoding, header_row=header_row)
    try:
        with console.status("Reading and checking…"):
            check = load_check(files, settings, encoding, header_row)
    except (LoadError, WorkbenchError) as exc:
        reports.nothing_sent(str(exc), target=settings.base_url)
        fail(str(exc))
    print_skipped(check.issues)
    print_issues(check.issues, limit=10)
    from workbench.cli.content_modular import refusals

    with refusals(reports, check, settings):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with console.status("Sending…" if dry_run is None else "Planning…"):
                result = push_content(check, settings, replace=replace, fill=fill, journal=journal,
                                      dry_run=dry_run, today=day, full=full,
                                      command="push content " + " ".join(str(f) for f in files)) if not plan else None
        for w in caught:
            console.print(f"[yellow]Warning:[/] {escape(str(w.message))}")
    if result is None:  # --plan: the parts that would change, nothing sent
        from workbench.flows import preview_content

        preview = preview_content(check, settings, journal=journal, replace=replace)
        _print_parts(preview.parts)
        reports.nothing_sent("a plan: nothing was sent", check, settings.base_url)
        raise typer.Exit(0 if preview.ok else 1)
    _print_parts(result.plan.parts)
    if len(result.plan.issues):
        print_issues(result.plan.issues, limit=10)
    if dry_run is not None:
        console.print(f"[green]Wrote {len(result.plan.requests)} request(s)[/], manifest.csv and parts.csv into "
                      f"[bold]{escape(str(dry_run))}[/]")
        reports.nothing_sent(f"a dry run: the {len(result.plan.requests)} request(s) were written to `{dry_run}`, "
                             "not sent", check, settings.base_url)
        raise typer.Exit(0 if result.ok else 1)
    _print_result(result)
    reports.write(result)
    for path in result.filled:
        written(path, "HotelCodes filled into")
    raise typer.Exit(0 if result.ok else 1)


def _day(text_day: str | None) -> Any:
    """``--today`` as a date (None: the platform's CET day is taken where needed)."""
    import datetime as dt

    if text_day is None:
        return None
    try:
        return dt.date.fromisoformat(text_day.strip())
    except ValueError:
        fail(f"--today `{text_day}` is not a date: write it as YYYY-MM-DD")


def _api(api: str | None, day: Any) -> str:
    """The API to push through: the one given, else modular from the content operation's sunset (CET), ota before."""
    from workbench.flows import modular_default

    if api is None:
        return "modular" if modular_default(day) else "ota"
    chosen = api.strip().lower()
    if chosen not in ("ota", "modular"):
        fail(f"--api `{api}`: give `ota` (OTA_HotelDescriptiveContentNotif) or `modular` (the modular JSON APIs)")
    return chosen


def _print_parts(parts: Any, limit: int = SHOWN_PARTS) -> None:
    """Per property, each part that changes, before -> after."""
    changed = parts[parts["change"] != "unchanged"]
    for r in changed.head(limit).itertuples(index=False):
        colour = "red" if r.change.endswith("refused") else "yellow" if r.change.startswith(("dropped", "emptied")) \
            else "default"
        console.print(f"  {escape(text(r.property))} [bold]{escape(r.part)}[/] [{colour}]{escape(r.change)}[/]: "
                      f"{escape(text(r.before))} [bold]->[/] {escape(text(r.after))}")
    if len(changed) > limit:
        console.print(f"  … and {len(changed) - limit} more (parts.csv of --dry-run)")


def _print_result(result: Any) -> None:
    console.print(("[green]" if result.ok else "[red]") + escape(result.summary()) + "[/]")
    for r in result.results.itertuples(index=False):
        colour = "green" if r.outcome == "success" else "red"
        where = f" ({text(r.source)} {text(r.sheet)} row {text(r.row)})" if text(r.sheet) else ""
        ruids = f" [ruid {text(r.ruids)}]" if text(r.ruids) else ""
        console.print(f"  [{colour}]{escape(text(r.notif_type) or '-')} {escape(text(r.property))}[/]: "
                      f"{escape(text(r.outcome))} {escape(text(r.message))}{escape(where)}{escape(ruids)}")
        if text(r.warnings):
            console.print(f"    [yellow]warnings:[/] {escape(text(r.warnings))}")
