"""Faults on our side: a damaged journal and a full disk under it end in one line naming the journal and
what to do (exit 2), never "a bug in the workbench" (exit 3); what the journal held, it still holds."""

from __future__ import annotations

import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.errors import WorkbenchError
from workbench.paths import SAMPLES
from workbench.sandbox import run_sandbox
from workbench.writers.journal import Journal, JournalError

EXE = Path(sys.executable).with_name("workbench")
PUSH = ["push", "rates", str(SAMPLES / "rates.xlsx"), "--as-of", "2026-12-01", "--skip-invalid",
        "--registry", str(SAMPLES / "registry.xlsx")]


@pytest.mark.parametrize("damage", [b"this is not a database at all" * 10, b"SQLite format 3\x00" + b"\x00" * 90])
def test_a_damaged_journal_is_one_line_naming_it(tmp_path: Path, damage: bytes) -> None:
    journal = tmp_path / "journal.sqlite"
    journal.write_bytes(damage)
    with pytest.raises(JournalError, match="journal.sqlite` cannot be read .* Move it aside"):
        Journal(journal)
    assert issubclass(JournalError, WorkbenchError)
    run = subprocess.run([str(EXE), *PUSH, "--plan", "--journal", str(journal)], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    assert run.returncode == 2, run.stdout + run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and str(journal) in lines[0] and "Move it aside" in lines[0], run.stderr
    assert "bug in the workbench" not in run.stderr and "Traceback" not in run.stderr


def _small_disk(limit: int):
    def apply() -> None:  # in the child: files may not grow past ``limit`` bytes (as on a full disk)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_full_disk_under_the_journal_is_one_line_and_the_journal_keeps_what_it_had(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    with run_sandbox(tmp_path / "sb") as sb:
        run = subprocess.run([str(EXE), *PUSH, "--env-file", str(sb.connection_file), "--journal", str(journal)],
                             capture_output=True, text=True, timeout=300, cwd=tmp_path,
                             preexec_fn=_small_disk(96 * 1024))
    assert run.returncode == 2, run.stdout + run.stderr
    line = run.stderr.strip().splitlines()[-1]
    assert ("is full" in line or "disk is full or failing" in line) and str(journal) in line, run.stderr
    assert "run the same command again" in line and "damaged" not in line
    assert "bug in the workbench" not in run.stderr and "Traceback" not in run.stderr
    with sqlite3.connect(journal) as db:  # consistent: what it recorded is readable
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.parametrize(("error", "says"), [
    (sqlite3.OperationalError("database or disk is full"), "is full"),
    (sqlite3.DatabaseError("file is not a database"), "Move it aside"),
    (sqlite3.DatabaseError("database disk image is malformed"), "Move it aside"),
    (sqlite3.OperationalError("database is locked"), "stayed locked"),
])
def test_each_sqlite_failure_says_what_to_do(error: sqlite3.Error, says: str) -> None:
    from workbench.writers.journal import journal_problem

    problem = journal_problem(Path("j.sqlite"), error)
    assert says in str(problem) and "`j.sqlite`" in str(problem)
