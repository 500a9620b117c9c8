"""Exit codes of the command line, decided once in ``workbench.cli.main``: 0 done, 1 errors found,
2 unusable input (typer's usage errors too), 3 an unexpected failure - one line on the terminal,
the trace in a log file, never a traceback."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from workbench.paths import SAMPLES

RATES = str(SAMPLES / "rates.xlsx")

# Run the real entry point with one function replaced, as a bug would break it (`check_loaded`: the checks the
# CLI runs on what it read).
FORCED = """
import sys
import {module} as target
def broken(*args, **kwargs):
    raise {error}
target.{name} = broken
from {entry} import main
sys.argv = ["workbench", *sys.argv[1:]]
main()
"""


def forced(name: str, error: str = 'RuntimeError("boom: the check broke")', module: str = "workbench.flows.rates",
           entry: str = "workbench.cli") -> str:
    return FORCED.format(module=module, name=name, error=error, entry=entry)


def log_named_in(line: str) -> Path:
    match = re.search(r"the full trace is in (\S+\.log)", line)
    assert match, line
    return Path(match.group(1))


def test_an_unexpected_failure_exits_3_with_one_line_and_the_trace_in_a_log(workbench, tmp_path: Path) -> None:
    run = workbench(["validate", "rates", RATES], cwd=tmp_path, code=forced("check_loaded"))
    assert run.returncode == 3, run.stdout + run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    line = lines[0]
    assert "`workbench validate rates` failed unexpectedly" in line and "RuntimeError: boom: the check broke" in line
    assert "workbench/flows/rates.py" in line  # where it failed, in the project's own code (the flow the CLI calls)
    log = log_named_in(line)
    assert log.is_absolute() and log.parent == tmp_path / ".workbench" / "logs"
    trace = log.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in trace and "boom: the check broke" in trace
    assert f"command: workbench validate rates {RATES}" in trace


def test_the_log_goes_to_WORKBENCH_LOG_DIR_else_the_temporary_folder(workbench, tmp_path: Path) -> None:
    logs = tmp_path / "my-logs"
    run = workbench(["validate", "rates", RATES], cwd=tmp_path, code=forced("check_loaded"),
                    env={"WORKBENCH_LOG_DIR": str(logs)})
    assert run.returncode == 3 and log_named_in(run.stderr).parent == logs
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    run = workbench(["validate", "rates", RATES], cwd=tmp_path, code=forced("check_loaded"),
                    env={"WORKBENCH_LOG_DIR": str(blocked / "logs")})
    assert run.returncode == 3
    log = log_named_in(run.stderr)
    assert log.is_file() and log.parent == (Path(tempfile.gettempdir()) / "workbench-logs").absolute()


def test_a_crash_log_never_holds_a_password_from_the_command_line(workbench, tmp_path: Path) -> None:
    run = workbench(["notify", "list", "--database-url", "postgresql://partner:s3cret-pw@127.0.0.1:1/db"],
                    cwd=tmp_path, code=forced("NotifyService", module="workbench.notify.service"))
    assert run.returncode == 3, run.stderr
    trace = log_named_in(run.stderr).read_text(encoding="utf-8")
    assert "postgresql://partner:***@127.0.0.1:1/db" in trace
    assert "s3cret-pw" not in trace + run.stderr + run.stdout


def test_python_m_workbench_notify_ends_the_same_way(workbench, tmp_path: Path) -> None:
    run = workbench(["list", "--state-dir", str(tmp_path / "s")], cwd=tmp_path,
                    code=forced("NotifyService", module="workbench.notify.service", entry="workbench.cli.notify"))
    assert run.returncode == 3 and "`workbench notify list` failed unexpectedly" in run.stderr
    missing = workbench(["list", "--state-dir", str(tmp_path / "nowhere")], cwd=tmp_path, module="workbench.notify")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_an_error_raised_for_people_is_one_line_exit_2_and_no_log(workbench, tmp_path: Path) -> None:
    error = 'SettingsError("setting `WORKBENCH_TIMEOUT_SECONDS` = `soon` is not a number")'
    code = "from workbench.errors import SettingsError\n" + forced("check_loaded", error=error)
    run = workbench(["validate", "rates", RATES], cwd=tmp_path, code=code)
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip() == "Error: setting `WORKBENCH_TIMEOUT_SECONDS` = `soon` is not a number"
    assert not (tmp_path / ".workbench").exists()


def test_ctrl_c_is_130_without_a_trace(workbench, tmp_path: Path) -> None:
    run = workbench(["validate", "rates", RATES], cwd=tmp_path, code=forced("check_loaded", error="KeyboardInterrupt"))
    assert run.returncode == 130 and "Traceback" not in run.stderr


def test_usage_errors_keep_typers_exit_2(workbench, tmp_path: Path) -> None:
    run = workbench(["validate", "rates", RATES, "--no-such-flag"], cwd=tmp_path)
    assert run.returncode == 2 and "No such option" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize(("args", "code", "needle"), [
    (["validate", "rates", RATES, "--as-of", "2026-12-01", "--registry", str(SAMPLES / "registry.xlsx")], 1,
     "9 errors"),
    (["validate", "rates", "nowhere.xlsx"], 2, "does not exist"),
    (["sandbox", "serve", "--registry", "nowhere.xlsx", "--port", "0"], 2, "nowhere.xlsx"),
])
def test_exit_codes_of_the_commands(workbench, tmp_path: Path, args: list[str], code: int, needle: str) -> None:
    run = workbench(args, cwd=tmp_path)
    output = run.stdout + run.stderr
    assert run.returncode == code, output
    assert needle in output and "Traceback" not in output
    if code == 2:
        assert len(run.stderr.strip().splitlines()) == 1, run.stderr


@pytest.mark.parametrize(("args", "name"), [
    (["validate", "rates", "nowhere.xlsx", "--report", "issues.pdf"], "issues.pdf"),
    (["push", "rates", "nowhere.xlsx", "--report", "push.txt"], "push.txt"),
    (["push", "rates", "nowhere.xlsx", "--dry-run", "out", "--report", "push.doc"], "push.doc"),
    (["validate", "rooms", "nowhere.xlsx", "--report", "rooms.json"], "rooms.json"),
    (["push", "rooms", "nowhere.xlsx", "--report", "rooms.txt"], "rooms.txt"),
    (["push", "rooms", "nowhere.xlsx", "--fill", "copy.csv"], "copy.csv"),
    (["fetch", "rooms", "--hotel", "1", "--out", "rooms.csv", "--env-file", "nowhere.env"], "rooms.csv"),
    (["notify", "list", "--out", "inbox.pdf", "--state-dir", "nowhere"], "inbox.pdf"),
])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(workbench, tmp_path: Path, args: list[str],
                                                                    name: str) -> None:
    """Exit 2 naming the output; the input (which does not exist either) is not even read."""
    run = workbench(args, cwd=tmp_path)
    assert run.returncode == 2, run.stdout + run.stderr
    assert name in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "nowhere" not in run.stdout + run.stderr and "Traceback" not in run.stdout + run.stderr
    assert not list(tmp_path.iterdir())  # nothing written, not even a folder
