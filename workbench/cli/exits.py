"""How every ``workbench`` command ends: its exit code, and never a traceback on the terminal.

====  ===========================================================================================
code  meaning
====  ===========================================================================================
0     done, nothing wrong
1     errors found: in the data, or the platform refused or failed some requests
2     the input, the settings or the command line cannot be used (typer's usage errors too)
3     an unexpected failure (a bug): one line says what failed and where the full trace was written
130   stopped by Ctrl-C or SIGTERM: one line says what was sent (``stopped: nothing was sent``, or how
      many requests are in the journal and that the same command resumes); the reports still say it
====  ===========================================================================================

:func:`run` wraps the whole command line once (``workbench.cli.main``), so no command has to
remember it. An exception the workbench raises on purpose (``WorkbenchError``: its message is
written for people) or a ``loaders.LoadError`` that a command did not handle is shown as one
line, exit 2; anything else is a crash: its trace goes to a log file, in
``WORKBENCH_LOG_DIR`` if set, else ``.workbench/logs/`` under the working folder, else (not
writable) the system's temporary folder.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, NoReturn

EXIT_OK, EXIT_ERRORS, EXIT_UNUSABLE, EXIT_CRASH, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
DEFAULT_LOG_DIR = Path(".workbench") / "logs"
_PACKAGES = ("workbench", "loaders", "expectations")
_URL_PASSWORD = re.compile(r"(://[^:/@\s]+):[^@/\s]+@")


def run(app: Any, args: list[str] | None = None, prog_name: str = "workbench") -> NoReturn:
    """Run the typer ``app`` and exit with one of the codes above."""
    argv = list(sys.argv[1:] if args is None else args)
    try:
        app(args=argv, prog_name=prog_name)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # noqa: BLE001 - the one place every failure ends up
        if for_people(exc):
            print(f"Error: {_one_line(str(exc)) or type(exc).__name__}", file=sys.stderr)
            sys.exit(EXIT_UNUSABLE)
        print(crash_line(exc, prog_name, argv, write_crash_log(exc, prog_name, argv)), file=sys.stderr)
        sys.exit(EXIT_CRASH)
    sys.exit(EXIT_OK)  # pragma: no cover - typer's standalone mode always exits


def for_people(exc: BaseException) -> bool:
    """Raised on purpose with a message for people: the workbench's own errors and LoadError."""
    from loaders.errors import LoadError
    from workbench.errors import WorkbenchError

    return isinstance(exc, (WorkbenchError, LoadError))


def log_dir() -> Path:
    """Where crash logs go: ``WORKBENCH_LOG_DIR``, else ``.workbench/logs`` (see the module doc)."""
    try:
        from workbench.config import Settings

        configured = Settings.from_env().log_dir
    except Exception:  # noqa: BLE001 - unreadable settings must not hide the crash being reported
        configured = ""
    return Path(configured).expanduser() if configured else DEFAULT_LOG_DIR


def write_crash_log(exc: BaseException, prog_name: str, argv: list[str]) -> Path | None:
    """Write the trace of ``exc`` with the command and versions; the file's absolute path (None: nowhere)."""
    now = dt.datetime.now(dt.UTC)
    name = f"crash-{now:%Y%m%d-%H%M%S}-{os.getpid()}.log"
    text = "\n".join([
        f"{prog_name} failed unexpectedly at {now:%Y-%m-%d %H:%M:%S} UTC",
        f"command: {command_line(prog_name, argv)}",
        f"working folder: {Path.cwd()}",
        f"python {platform.python_version()} on {platform.platform()}; workbench {version()}",
        "",
        "".join(traceback.format_exception(exc)),
    ])
    for folder in (log_dir(), Path(tempfile.gettempdir()) / "workbench-logs"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(text, encoding="utf-8")
            return path.absolute()
        except OSError:
            continue
    return None


def crash_line(exc: BaseException, prog_name: str, argv: list[str], log: Path | None) -> str:
    """One line: which command failed, with what, where in the code, and where the trace is."""
    command = " ".join([prog_name, *[a for a in argv[:2] if not a.startswith("-")]])
    what = type(exc).__name__ + (f": {_one_line(str(exc))}" if str(exc).strip() else "")
    where = _where(exc)
    trace = f"the full trace is in {log}" if log else "the trace could not be written to any log folder"
    return (f"Error: `{command}` failed unexpectedly ({what}{f', at {where}' if where else ''}). "
            f"This is a bug in the workbench, not a problem with your data; {trace} (attach it when you "
            "report it). Exit code 3.")


def command_line(prog_name: str, argv: list[str]) -> str:
    """The command as typed, with passwords in URLs replaced by ``***``."""
    return " ".join([prog_name, *(_URL_PASSWORD.sub(r"\1:***@", a) for a in argv)])


def _where(exc: BaseException) -> str:
    """``file:line`` of the innermost frame in the project's own code (else the innermost frame)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if any(f"{os.sep}{p}{os.sep}" in f.filename for p in _PACKAGES)]
    if not (ours or frames):
        return ""
    frame = (ours or frames)[-1]
    path = Path(frame.filename)
    parts = path.parts
    start = max((i for i, p in enumerate(parts) if p in _PACKAGES), default=len(parts) - 1)
    return f"{'/'.join(parts[start:])}:{frame.lineno} ({frame.name})"


def _one_line(text: str, limit: int = 200) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def version() -> str:
    """The installed version of the workbench (``workbench --version``)."""
    try:
        from importlib.metadata import version

        return version("connectivity-workbench")
    except Exception:  # noqa: BLE001 - not installed (e.g. run from a checkout)
        return "(not installed)"
