"""``workbench push content --api modular``: the content workbook through the modular JSON APIs
(``workbench.flows.content_modular``): check (E4 and the rules new with the APIs), then send, plan or write a
dry-run folder, print each request, write the reports."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from workbench.cli.common import print_skipped
from workbench.cli.console import console, fail, print_issues, text, written

SHOWN = 40


def push_modular(files: list[Path], settings: Any, reports: Any, *, dry_run: Path | None, plan: bool, replace: bool,
                 fill: bool, journal: Path, today: dt.date | None, encoding: str | None,
                 header_row: int | None) -> None:
    """Run the modular push and exit with the command's code (0 done, 1 errors or not applied, 2 unusable)."""
    from loaders import LoadError
    from workbench.errors import WorkbenchError
    from workbench.flows import check_content_modular, plan_content_modular, push_content_modular

    try:
        with console.status("Reading and checking (the content rules and those of the modular APIs)…"):
            check = check_content_modular(files, settings=settings, today=today, encoding=encoding,
                                          header_row=header_row)
    except (LoadError, WorkbenchError) as exc:
        reports.nothing_sent(str(exc), target=settings.base_url)
        fail(str(exc))
    print_skipped(check.issues)
    print_issues(check.issues, limit=10)
    with refusals(reports, check, settings), \
            console.status("Planning…" if plan or dry_run is not None else "Sending through the modular APIs…"):
        if plan:
            result = plan_content_modular(check, settings, replace=replace, journal=journal, today=today)
        else:
            result = push_content_modular(check, settings, replace=replace, fill=fill, journal=journal,
                                          dry_run=dry_run, today=today)
    if len(result.issues):  # the mapping's (values refused, not sent, not yet sendable) and the platform's answers
        print_issues(result.issues, limit=10)
    print_requests(result)
    if plan or dry_run is not None:
        where = f" into [bold]{escape(str(dry_run))}[/] (with manifest.csv)" if dry_run is not None else ""
        console.print(f"[green]{len(result.requests)} request(s) planned[/]{where}; {len(result.unchanged)} "
                      "unchanged (not sent)")
        reports.nothing_sent("a dry run: nothing was sent" if dry_run is not None else "a plan: nothing was sent",
                             check, settings.base_url)
        raise typer.Exit(0 if result.ok else 1)
    reports.write(result)
    for path in result.filled:
        written(path, "Property ids filled into")
    raise typer.Exit(0 if result.ok else 1)


@contextmanager
def refusals(reports: Any, check: Any, settings: Any) -> Iterator[None]:
    """A push's refusals, said once for both APIs: errors in the workbook (exit 1, nothing sent), what cannot be
    used (exit 2); the ``--report`` files say why nothing was sent."""
    from workbench.errors import BlockedByErrors, WorkbenchError
    from workbench.writers import PushInterrupted

    try:
        yield
    except BlockedByErrors as exc:
        console.print(f"[red]Nothing sent:[/] {escape(str(exc))}")
        reports.nothing_sent(str(exc), check, settings.base_url)
        raise typer.Exit(1) from None
    except PushInterrupted as exc:  # Ctrl-C / SIGTERM: what was sent is in the journal, the reports say it
        reports.stopped(exc)
    except (WorkbenchError, ValueError, OSError) as exc:
        reports.nothing_sent(str(exc), check, settings.base_url)
        fail(str(exc))


def print_requests(result: Any, limit: int = SHOWN) -> None:
    """One line per request: property, API, operation, outcome and what the platform said."""
    console.print(("[green]" if result.ok else "[red]") + escape(result.summary()) + "[/]")
    for r in result.requests.head(limit).itertuples(index=False):
        colour = "green" if r.outcome in ("success", "planned", "written") else "red"
        said = text(r.texts) or text(r.note) or text(r.error)
        ruid = f" [ruid {text(r.ruid)}]" if text(r.ruid) else ""
        console.print(f"  [{colour}]{escape(text(r.property))} {escape(text(r.api))}[/] {escape(text(r.operation))}: "
                      f"{escape(text(r.outcome))} {escape(said)}{escape(ruid)}")
    if len(result.requests) > limit:
        console.print(f"  … and {len(result.requests) - limit} more (the push report)")
