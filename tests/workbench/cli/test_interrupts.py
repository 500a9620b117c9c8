"""Ctrl-C (SIGINT) and SIGTERM during `workbench push rates`, with real processes: a slow sandbox
(`workbench sandbox serve --faults latency=...`) and the push stopped half way. It exits 130 with one line
saying what was sent, the reports are written whole, the journal is consistent, and the same command
resumes without sending an accepted request twice (issue 26)."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from workbench.paths import SAMPLES

EXE = Path(sys.executable).with_name("workbench")
SUCCESS = "SELECT count(*) FROM requests WHERE run_id=1 AND status='success'"


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Path]:
    """A sandbox answering every call 1 s late (a push of the samples takes ~20 s: a signal after its third answer
    lands mid-push even on a loaded machine); the settings file of a push sending one call at a time."""
    state = tmp_path / "sandbox"
    proc = subprocess.Popen([str(EXE), "sandbox", "serve", "--port", "0", "--state-dir", str(state), "--faults",
                             "latency=1000ms"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 90
    while not (state / "connection.env").exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read() if proc.stdout else ""
        time.sleep(0.1)
    env = tmp_path / "push.env"
    env.write_text((state / "connection.env").read_text() + "WORKBENCH_MAX_IN_FLIGHT=1\n")
    yield env
    proc.send_signal(signal.SIGINT)
    try:
        proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def _count(journal: Path, sql: str) -> int:
    try:
        with sqlite3.connect(journal) as db:
            return int(db.execute(sql).fetchone()[0])
    except sqlite3.Error:
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_push_stopped_half_way_exits_130_writes_its_reports_and_resumes(sandbox: Path, tmp_path: Path,
                                                                           sig: signal.Signals) -> None:
    journal, html, csv = tmp_path / "journal.sqlite", tmp_path / "push.html", tmp_path / "push.csv"
    cmd = [str(EXE), "push", "rates", str(SAMPLES / "rates.xlsx"), str(SAMPLES / "lisbon_seasons.csv"),
           "--registry", str(SAMPLES / "registry.xlsx"), "--skip-invalid", "--env-file", str(sandbox),
           "--journal", str(journal), "--report", str(html), "--report", str(csv)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 180
    while _count(journal, SUCCESS) < 3:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, out + err
    assert "Traceback" not in err
    stopped = [line for line in err.splitlines() if line.startswith("stopped:")]
    assert len(stopped) == 1 and re.search(r"requests? (was|were) sent and (is|are) in the journal", stopped[0]), err
    assert "run the same command again to resume" in stopped[0]
    # the reports, whole: both of them, of what was sent
    assert html.read_text(encoding="utf-8").rstrip().endswith("</html>")
    report = pd.read_csv(csv, dtype=str)
    assert len(report) and "Push report written" in out
    # the journal: the run stopped, nothing left `sending`, what succeeded is recorded
    first = _count(journal, SUCCESS)
    assert first >= 3
    assert _count(journal, "SELECT count(*) FROM runs WHERE run_id=1 AND status='interrupted'") == 1
    assert _count(journal, "SELECT count(*) FROM requests WHERE run_id=1 AND status='sending'") == 0
    total = _count(journal, "SELECT count(*) FROM requests WHERE run_id=1")
    assert first < total, "the signal should land mid-push"
    # the same command resumes: nothing accepted is sent twice
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    with sqlite3.connect(journal) as db:
        done = {k for (k,) in db.execute("SELECT hotel_code || month FROM requests WHERE run_id=1 AND "
                                          "status='success'")}
        resent = {k for (k,) in db.execute("SELECT hotel_code || month FROM requests WHERE run_id=2")}
    assert not done & resent
    runs = subprocess.run([str(EXE), "runs", "--journal", str(journal), "--json"], capture_output=True, text=True)
    import json

    listed = json.loads(runs.stdout)
    assert [r["status"] for r in listed] == ["interrupted", "done"]
    assert str(html) in listed[0]["reports"] and str(csv) in listed[1]["reports"]


@pytest.mark.slow
def test_sigterm_before_anything_is_sent_says_nothing_was_sent(tmp_path: Path) -> None:
    """Stopped while reading: one line, exit 130, and no journal made."""
    env = tmp_path / "push.env"
    env.write_text("WORKBENCH_BASE_URL=https://127.0.0.1:9\n")
    cmd = [str(EXE), "push", "rates", str(SAMPLES / "rates.xlsx"), "--env-file", str(env), "--journal",
           str(tmp_path / "j.sqlite"), "--verbose"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    for line in proc.stdout:  # --verbose: a line per stage; stop it once it reads
        if "Reading" in line:
            break
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert err.strip().splitlines()[-1] == "stopped: nothing was sent"
    assert not (tmp_path / "j.sqlite").exists()


ROOMS = ["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "MaxOccupancy", "MaxAdultOccupancy",
         "MaxChildOccupancy", "Quantity", "NonSmoking", "SizeMeasurement", "SizeMeasurementUnit"]


@pytest.mark.slow
def test_push_rooms_stopped_by_sigterm_writes_what_was_sent(sandbox: Path, tmp_path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Rooms"
    for row in [ROOMS, *[[hotel, None, 9000 + n, 9, f"Garden Room {n}", 2, 2, 0, 3, 1, 20, "sqm"]
                         for n, hotel in enumerate([1000001, 1000002] * 6)]]:
        ws.append(row)
    wb.save(tmp_path / "rooms.xlsx")
    journal, html = tmp_path / "journal.sqlite", tmp_path / "push.html"
    cmd = [str(EXE), "push", "rooms", str(tmp_path / "rooms.xlsx"), "--env-file", str(sandbox), "--journal",
           str(journal), "--mapping", str(tmp_path / "map.csv"), "--report", str(html)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    deadline = time.monotonic() + 180
    while _count(journal, SUCCESS) < 3:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, out + err
    assert err.strip().splitlines()[-1].startswith("stopped: "), err
    page = html.read_text(encoding="utf-8")
    assert page.rstrip().endswith("</html>") and re.search(r"requests? (was|were) sent and (is|are) in the journal", page)
    assert _count(journal, "SELECT count(*) FROM runs WHERE run_id=1 AND status='interrupted'") == 1
