"""Printing for people: one rich console, issue tables, and clean failures (exit 2, no traceback)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    import pandas as pd

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)  # paths stay copyable


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` as an error and exit with ``code`` (2: the input or setup cannot be used)."""
    err_console.print(f"[bold red]Error:[/] {message}")
    raise typer.Exit(code)


def print_issues(issues: pd.DataFrame, rows: int | None = None, limit: int = 20) -> None:
    n_err = int((issues["severity"] == "error").sum())
    n_warn = int((issues["severity"] == "warning").sum())
    head = f"{rows:,} price(s) read; " if rows is not None else ""
    colour = "red" if n_err else "green"
    console.print(f"{head}[{colour}]{n_err} error(s)[/], [yellow]{n_warn} warning(s)[/]")
    if issues.empty or limit <= 0:
        return
    import pandas as pd

    shown = pd.concat([issues[issues["severity"] == "error"], issues[issues["severity"] == "warning"]]).head(limit)
    for r in shown.itertuples(index=False):
        where = f"{r.source}{' ' + r.sheet if r.sheet else ''} row {r.row}"
        style = "red" if r.severity == "error" else "yellow"
        value = f" = {escape(str(r.value))}" if str(r.value) not in ("", "<NA>", "nan") else ""
        console.print(f"[{style}]{r.severity:7}[/] [bold]{escape(where)}[/], {escape(str(r.column))}{value}  "
                      f"[dim]{r.rule}[/]\n        {escape(str(r.message))}")
    if len(issues) > limit:
        console.print(f"… and {len(issues) - limit} more (write them all with --report issues.html/.xlsx/.csv)")
