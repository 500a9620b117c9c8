"""``workbench runs``: the journal's last runs (when, command, kind, outcome, requests by outcome, the
reports written), as dlt's ``pipeline info`` shows a pipeline's last loads. The journal is only read: a
path where there is none is said, not created."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from workbench.cli.console import console, fail
from workbench.wording import count, platform_text

#: how each run's status reads for people
OUTCOMES = {"done": "done", "done_with_failures": "done, some requests not applied", "running": "running (or killed)",
            "interrupted": "stopped (Ctrl-C, SIGTERM or killed)"}


def runs(
    journal: Annotated[Path, typer.Option("--journal", help="The push journal (SQLite) to read.")]
        = Path(".workbench/journal.sqlite"),
    last: Annotated[int, typer.Option("--last", min=1, help="How many runs to list, the newest last.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print the runs as one JSON list on stdout.")] = False,
) -> None:
    """List the journal's last runs: when, the command, the kind, the outcome, the requests by outcome and
    the reports written.

    Examples:

      workbench runs
      workbench runs --journal runs/journal.sqlite --last 3 --json
    """
    found = read_runs(journal, last)
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False, default=str))
        return
    if not found:
        console.print(f"No runs in the journal `{escape(str(journal))}` yet.")
        return
    for r in found:
        counts = ", ".join(f"{n:,} {k}" for k, n in sorted(r["requests_by_outcome"].items())) or "no requests"
        reports = f"; reports: {', '.join(r['reports'])}" if r["reports"] else ""
        console.print(f"[bold]#{r['run_id']}[/] {escape(r['started'] or '')} [bold]{escape(r['command'] or '')}[/] "
                      f"({escape(r['kind'] or 'rates')}) to {escape(platform_text(r['target']))}: "
                      f"{escape(r['outcome'])}; {count(r['requests'], 'request')}: {escape(counts)}{escape(reports)}",
                      soft_wrap=True)


def read_runs(journal: Path, last: int = 10) -> list[dict[str, Any]]:
    """The last ``last`` runs of ``journal``, oldest first; exit 2 when it is not there or not a journal."""
    if not journal.is_file():
        fail(f"no journal at `{journal}`: nothing has been pushed with it yet (give the push's --journal)")
    try:
        with sqlite3.connect(f"file:{journal.absolute()}?mode=ro", uri=True) as db:
            db.row_factory = sqlite3.Row
            rows = [dict(r) for r in db.execute("SELECT * FROM runs ORDER BY run_id DESC LIMIT ?", (last,))]
            ids = [r["run_id"] for r in rows]
            marks = ",".join("?" * len(ids))
            counts = db.execute(f"SELECT run_id, status, count(*) FROM requests WHERE run_id IN ({marks}) "
                                "GROUP BY run_id, status", ids).fetchall() if ids else []
    except sqlite3.Error as exc:
        fail(f"`{journal}` cannot be read as a journal ({exc})")
    by_run: dict[int, dict[str, int]] = {}
    for run_id, status, n in counts:
        by_run.setdefault(run_id, {})[status] = n
    return [{"run_id": r["run_id"], "started": r.get("started"), "finished": r.get("finished"),
             "command": r.get("command"), "kind": r.get("kind") or "rates", "target": r.get("target"),
             "outcome": OUTCOMES.get(r.get("status") or "", r.get("status") or ""), "status": r.get("status"),
             "requests": sum(by_run.get(r["run_id"], {}).values()),
             "requests_by_outcome": by_run.get(r["run_id"], {}),
             "cells_total": r.get("cells_total"), "cells_changed": r.get("cells_changed"),
             "reports": json.loads(r["reports"]) if r.get("reports") else []}
            for r in reversed(rows)]
