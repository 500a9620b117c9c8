"""Printing for people: one rich console, issue tables, push results, and clean failures (exit 2,
no traceback). Missing values print blank or as ``—``, never ``nan``/``None``/``NaT``; a value
from the data is cut to 200 characters, saying how long it was (:func:`clip`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from workbench.wording import count, platform_text

if TYPE_CHECKING:
    import pandas as pd



class _Console(Console):
    """rich's console; with ``--verbose`` each spinner's text is also a line (:func:`workbench.cli.summary.stage`)."""

    def status(self, status: Any, *args: Any, **kwargs: Any) -> Any:
        from workbench.cli import summary

        summary.stage(str(status))
        return super().status(status, *args, **kwargs)


console = _Console(highlight=False)
console.soft_wrap = not console.is_terminal  # a log or a pipe: whole lines, greppable, not cut at 80 columns
err_console = Console(stderr=True, highlight=False, soft_wrap=True)  # paths stay copyable


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` as an error and exit with ``code`` (2: the input or setup cannot be used)."""
    from workbench.cli import summary

    summary.error(message)
    err_console.print(f"[bold red]Error:[/] {escape(message)}")
    raise typer.Exit(code)


def stop(line: str) -> NoReturn:
    """A command stopped by Ctrl-C or SIGTERM: its one line (``stopped: ...``), exit 130."""
    from workbench.cli import summary

    summary.error(line)
    err_console.print(f"[yellow]{escape(line)}[/]")
    raise typer.Exit(130)


def text(value: object, blank: str = "") -> str:
    """``value`` for a line of output; ``blank`` when missing (see ``workbench.reports.text``)."""
    from workbench.reports.text import text as _text

    return _text(value, blank)


def clip(value: object, blank: str = "", limit: int = 200) -> str:
    """``value`` for a line of output, cut to ``limit`` characters: ``aaaa… (1,000,000 characters)``
    (a cell's million characters are not printed)."""
    from loaders.issues import cut

    return cut(text(value, blank), limit)


def check_paths(paths: Iterable[Path] | None, check: Callable[[Path], Any]) -> None:
    """Refuse (exit 2) an output path ``check`` rejects, before any work starts."""
    for path in paths or []:
        try:
            check(path)
        except ValueError as exc:
            fail(str(exc))


def written(path: Path, what: str = "Report written") -> None:
    from workbench.cli import summary

    summary.report(path)
    console.print(f"{what}: [bold]{escape(str(path))}[/]")


#: rules whose warning says the same paragraph once per property: one line for all of them, the list in the report
SUMMARISED = ("not_checked",)


def print_issues(issues: pd.DataFrame, rows: int | None = None, limit: int = 20) -> None:
    from workbench.cli import summary

    n_err = int((issues["severity"] == "error").sum())
    n_warn = int((issues["severity"] == "warning").sum())
    summary.record(rows=rows, errors=n_err, warnings=n_warn)
    head = f"{count(rows, 'price')} read; " if rows is not None else ""
    colour = "red" if n_err else "green"
    console.print(f"{head}[{colour}]{count(n_err, 'error')}[/], [yellow]{count(n_warn, 'warning')}[/]")
    if issues.empty or limit <= 0:
        return
    import pandas as pd

    same = issues["rule"].isin(SUMMARISED)
    for rule in SUMMARISED:
        many = int((issues["rule"] == rule).sum())
        if many > 1:
            console.print(f"[dim]{many:,} `{rule}` warnings, one per property, are not listed here one by one: "
                          "the report lists each (--report issues.html/.xlsx/.csv)[/]")
    issues = issues[~same] if int(same.sum()) > 1 else issues
    shown = pd.concat([issues[issues["severity"] == "error"], issues[issues["severity"] == "warning"]]).head(limit)
    for r in shown.itertuples(index=False):
        sheet, row, column = clip(r.sheet), text(r.row), clip(r.column)
        where = clip(r.source) + (f" {sheet}" if sheet else "") + (f" row {row}" if row else "")
        value = f" = {escape(clip(r.value))}" if text(r.value) else ""
        style = "red" if r.severity == "error" else "yellow"
        console.print(f"[{style}]{text(r.severity):7}[/] [bold]{escape(where)}[/]"
                      f"{', ' + escape(column) if column else ''}{value}  [dim]{escape(text(r.rule))}[/]\n"
                      f"        {escape(text(r.message))}")
    if len(issues) > limit:
        console.print(f"… and {len(issues) - limit} more (write them all with --report issues.html/.xlsx/.csv)")


def print_push_result(result: Any, limit: int = 10) -> None:
    """A rates push: its summary, then the requests that did not succeed (with their ruid when known)."""
    console.print(("[green]" if result.ok else "[red]") + escape(result.summary()) + "[/]")
    req = result.requests
    failing = req[req["outcome"] != "success"] if len(req) else req
    for r in failing.head(limit).itertuples(index=False):
        said = clip(r.texts) or clip(r.error) or "no details"
        console.print(f"  [red]{escape(text(r.hotel))} {escape(text(r.month))}[/]: {escape(text(r.outcome))}, "
                      f"{escape(said)} ({_answer(r.http_status, r.ruid)})")
    if len(failing) > limit:
        console.print(f"  … and {count(len(failing) - limit, 'more request')} (write them all with --report push.html)")
    not_sent = getattr(result, "not_sent", None)
    if not_sent is not None and len(not_sent):
        console.print(f"[yellow]{count(len(not_sent), 'row')} with errors not sent[/] (listed in the push report as "
                      "`not sent (errors)`)")


def print_outcome(result: Any, limit: int = 10) -> None:
    """A push of any kind (``workbench.writers.outcome.PushOutcome``): its summary, then what did not apply,
    each named by its kind's own columns (hotel and month, the room type, the property ...)."""
    from workbench.cli import summary

    summary.result(result)
    if hasattr(result, "cells_total"):  # rates say it their way
        print_push_result(result, limit)
        return
    console.print(("[green]" if result.ok else "[red]") + escape(result.summary()) + "[/]")
    req = result.requests
    failing = req[req["outcome"] != "success"] if len(req) else req
    for r in failing.head(limit).to_dict("records"):
        name = " ".join(text(r[k]) for k in result.kind.request_keys[:3] if text(r[k]))
        said = text(r["texts"]) or text(r["error"]) or "no details"
        console.print(f"  [red]{escape(name)}[/]: {escape(text(r['outcome']))}, {escape(said)} "
                      f"({_answer(r['http_status'], r['ruid'])})")
    if len(failing) > limit:
        console.print(f"  … and {len(failing) - limit} more (write them all with --report push.html)")


def print_plan(plan: Any, limit: int = 10) -> None:
    """A push's plan (nothing sent): its figures, the room-rates that change, the first ranges."""
    console.print(("[red]" if plan.blocked else "[cyan]") + escape(plan.headline()) + "[/]")
    if plan.blocked:
        console.print(f"[red]A push stops here:[/] {escape(plan.blocked)}")
    ranges = plan.ranges()
    for r in ranges.head(limit).itertuples(index=False):
        console.print(f"  {escape(text(r.hotel_code))} {escape(r.text)}")
    if len(ranges) > limit:
        console.print(f"  … and {count(len(ranges) - limit, 'more line')} (write them all with --report "
                      "plan.html/.xlsx/.csv)")
    if not plan.target:
        console.print(f"[yellow]Nothing to compare with: {platform_text(plan.target)}[/] (no WORKBENCH_BASE_URL and no accepted price in the "
                      "journal): every price counts as added")


def print_rooms_result(result: Any) -> None:
    """A room-type push: its summary, then one line per request."""
    from workbench.cli import summary

    summary.result(result)
    console.print(("[green]" if result.ok else "[red]") + escape(result.summary()) + "[/]")
    for r in result.results.itertuples(index=False):
        colour = "green" if r.outcome == "success" else "red"
        room = clip(r.inv_code) or clip(r.room_id) or "(new room type)"
        name = f" {clip(r.room_name)}" if text(r.room_name) else ""
        message = f" {clip(r.message)}" if text(r.message) else ""
        console.print(f"  [{colour}]{escape(text(r.notif_type))} {escape(text(r.hotel_code))} {escape(room)}[/]"
                      f"{escape(name)}: {escape(text(r.outcome))}{escape(message)} "
                      f"({_answer(getattr(r, 'http_status', None), r.ruid)})")


def _answer(status: object, ruid: object) -> str:
    """``ruid X`` when the platform answered with one; otherwise what is known about the answer."""
    if text(ruid):
        return f"ruid {text(ruid)}"
    if text(status):
        return f"HTTP {text(status)}, no ruid"
    return "no answer from the platform"
