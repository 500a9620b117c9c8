"""``workbench push availability`` killed with SIGKILL half way, against a real ``workbench sandbox serve``
process over HTTPS on loopback, then the same command again: nothing the journal saw accepted is sent again,
and the sandbox ends up holding exactly what the workbook says (``/_sandbox/availability.csv``)."""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import ssl
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import httpx
import pandas as pd
import pytest

from tests.workbench.writers.test_avail_push import SAMPLES, held, intent, year_availability
from workbench.config import Settings

EXE = Path(sys.executable).with_name("workbench")


class Served:
    """A ``workbench sandbox serve`` process and the settings that reach it."""

    def __init__(self, state: Path, *options: str) -> None:
        self.state = state
        self.proc = subprocess.Popen([str(EXE), "sandbox", "serve", "--port", "0", "--state-dir", str(state),
                                      "--today", "2026-12-01", *options],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        conn = state / "connection.env"
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and self.proc.poll() is None:
            if conn.exists() and self._up(conn):
                break
            time.sleep(0.1)
        assert self.proc.poll() is None and conn.exists(), "the sandbox did not start"
        self.connection = conn

    @staticmethod
    def _up(conn: Path) -> bool:
        try:
            s = Settings.from_file(conn)
            return httpx.get(f"{s.base_url}/_sandbox/health", verify=ssl.create_default_context(cafile=str(s.ca_bundle)), timeout=2).status_code == 200
        except (httpx.HTTPError, ValueError, OSError):
            return False

    def get(self, path: str) -> str:
        s = Settings.from_file(self.connection)
        answer = httpx.get(f"{s.base_url}{path}", verify=ssl.create_default_context(cafile=str(s.ca_bundle)), timeout=30,
                           auth=(s.username, s.password.reveal()))
        answer.raise_for_status()
        return answer.text

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)


def _accepted_requests(journal: Path) -> int:
    """Requests the journal records as accepted so far (0 before the push has made its tables)."""
    if not journal.exists():
        return 0
    with closing(sqlite3.connect(journal)) as db:
        try:
            return int(db.execute("SELECT count(*) FROM requests WHERE status='success'").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


def _values_of(journal: Path, run_id: int, statuses: tuple[str, ...]) -> set[tuple]:
    marks = ",".join("?" * len(statuses))
    with sqlite3.connect(journal) as db:
        return set(db.execute(
            "SELECT r.hotel_code, c.inv_type_code, c.rate_plan_code, c.date, c.restriction, c.value FROM avail_cells c "
            f"JOIN requests r USING (request_id) WHERE r.run_id=? AND r.status IN ({marks})", (run_id, *statuses)))


@pytest.mark.slow
def test_kill_9_mid_push_availability_then_the_same_command_resumes(tmp_path: Path) -> None:
    wanted = year_availability(tmp_path / "avail.csv")
    journal = tmp_path / "journal.sqlite"
    sb = Served(tmp_path / "sb", "--faults", "latency=400ms,seed=2")
    try:
        env_file = tmp_path / "push.env"
        env_file.write_text(sb.connection.read_text() + "WORKBENCH_MAX_IN_FLIGHT=2\n")
        cmd = [str(EXE), "push", "availability", str(tmp_path / "avail.csv"), "--registry",
               str(SAMPLES / "registry.xlsx"), "--as-of", "2026-12-01", "--env-file", str(env_file),
               "--journal", str(journal)]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and _accepted_requests(journal) < 5:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        accepted_first = _values_of(journal, 1, ("success",))
        with sqlite3.connect(journal) as db:
            total = db.execute("SELECT count(*) FROM requests WHERE run_id=1").fetchone()[0]
            first_ok = db.execute("SELECT count(*) FROM requests WHERE run_id=1 AND status='success'").fetchone()[0]
        assert 5 <= first_ok < total == 24, "the kill should land mid-push"
        again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stdout + again.stderr
        resent = _values_of(journal, 2, ("success", "partial", "rejected", "failed", "pending", "sending"))
        assert resent and not (resent & accepted_first), "a value the journal recorded as accepted was sent again"
        assert accepted_first | resent == {(h, room, rate, day, _name(col), v)
                                           for (h, room, rate, day, col), v in intent(wanted).items()}
        assert held(sb.get("/_sandbox/availability.csv")) == intent(wanted)
        log = pd.read_csv(io.StringIO(sb.get("/_sandbox/requests.csv")))
        log = log[log["endpoint"].str.contains("AvailNotif") & (log["status"] == 200)]
        with sqlite3.connect(journal) as db:
            ruids = [r for (r,) in db.execute("SELECT ruid FROM requests WHERE status='success'")]
        counts = log["ruid"].value_counts()
        assert all(counts.get(r, 0) == 1 for r in ruids)  # every accepted request applied once, under its ruid
    finally:
        sb.stop()


def _name(column: str) -> str:
    from loaders.schemas import RESTRICTION_HEADERS

    return {v: k for k, v in RESTRICTION_HEADERS.items()}[column]
