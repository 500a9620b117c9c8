"""``--quiet``, ``--json`` and ``--verbose`` of the long commands, and the one JSON summary of ``--json``.

The printing helpers (:mod:`workbench.cli.console`, :class:`workbench.cli.common.PushReports`) record
what a command found as they print it (:func:`record`, :func:`report`, :func:`result`); with ``--json``
the human output goes to stderr and, when the command ends, stdout gets exactly one JSON object:

``{"command", "exit_code", "outcome", "counts", "reports", "run_id", "journal", "summary", "error"}``

(``counts``: errors and warnings found, rows read, requests by outcome; ``outcome``: ``done``,
``errors`` (1), ``unusable`` (2), ``crash`` (3) or ``stopped`` (130)). ``--quiet`` prints only
errors; ``--verbose`` prints each stage as a line with the seconds since the command started.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OUTCOMES = {0: "done", 1: "errors", 2: "unusable", 3: "crash", 130: "stopped"}


@dataclass
class Mode:
    """How the running command prints, and what it found so far."""

    quiet: bool = False
    json: bool = False
    verbose: bool = False
    started: float = field(default_factory=time.monotonic)
    fields: dict[str, Any] = field(default_factory=dict)


mode = Mode()


def start(quiet: bool = False, as_json: bool = False, verbose: bool = False) -> Mode:
    """A command begins: its printing mode, nothing found yet; the console follows the mode."""
    from workbench.cli.console import console

    global mode
    mode = Mode(quiet=quiet, json=as_json, verbose=verbose and not quiet)
    console.quiet = quiet
    console.file = sys.stderr if as_json else None  # type: ignore[assignment]  # None: sys.stdout then
    return mode


def end() -> None:
    """The command is over: the console prints to stdout again (commands run in one process, in tests)."""
    from workbench.cli.console import console

    console.quiet = False
    console.file = None  # type: ignore[assignment]


def record(**values: Any) -> None:
    """Figures the command found (``errors=3``, ``rows=1200``): counted in the JSON summary."""
    counts = mode.fields.setdefault("counts", {})
    counts.update({k: _plain(v) for k, v in values.items() if v is not None})


def report(path: str | Path) -> None:
    """A file the command wrote (a report, letters, a workbook)."""
    mode.fields.setdefault("reports", []).append(str(path))


def result(outcome: Any) -> None:
    """A push's result (any kind): its requests by outcome, its run and journal, its summary line."""
    counts = getattr(outcome, "counts", None)
    if isinstance(counts, dict):
        record(requests=sum(int(v) for v in counts.values()), **{f"requests_{k}": int(v) for k, v in counts.items()})
    for name in ("run_id", "journal"):
        value = getattr(outcome, name, None)
        if value is not None:
            mode.fields[name] = _plain(value)
    summary = getattr(outcome, "summary", None)
    if callable(summary):
        mode.fields["summary"] = str(summary())


def error(message: str) -> None:
    mode.fields.setdefault("error", message)


def stage(text: str) -> None:
    """With ``--verbose``: one line per stage, with the seconds since the command started."""
    if mode.verbose:
        from rich.markup import escape

        from workbench.cli.console import console

        console.print(f"[dim]{time.monotonic() - mode.started:7.1f}s[/] {escape(text)}")


def emit(command: str, code: int) -> None:
    """With ``--json``: the one JSON object on stdout."""
    if not mode.json:
        return
    body = {"command": command, "exit_code": code, "outcome": OUTCOMES.get(code, "unusable"),
            "counts": {}, "reports": [], "run_id": None, "journal": None, "summary": None, "error": None}
    body.update(mode.fields)
    sys.stdout.write(json.dumps(body, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()


def _plain(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return value
