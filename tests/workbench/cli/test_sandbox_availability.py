"""``workbench sandbox serve --seed-bookings FILE --los-reading R``: refused in one line when unusable, and
the bookings served back over HTTPS in /_sandbox/availability.csv."""

from __future__ import annotations

import csv
import io
import os
import signal
import ssl
import subprocess
import sys
import time

import httpx
import pytest
from typer.testing import CliRunner

from workbench.cli.sandbox import sandbox_app
from workbench.config import Settings

BOOKINGS = "HotelCode,InvTypeCode,RatePlanCode,Date,Booked,Cancelled\n1000001,101,5001,2027-01-05,2,1\n"


@pytest.mark.parametrize(("content", "args", "needle"), [
    ("HotelCode,Date\n1,2027-01-05\n", [], "missing: InvTypeCode, RatePlanCode, Booked, Cancelled"),
    ("HotelCode,InvTypeCode,RatePlanCode,Date,Booked,Cancelled\n1,101,,5 Jan,1,0\n", [], "bookings line 2"),
    (BOOKINGS, ["--los-reading", "departure"], "--los-reading `departure` is not one of stay_through, arrival"),
])
def test_unusable_bookings_or_reading_fail_in_one_line(tmp_path, content, args, needle) -> None:
    path = tmp_path / "bookings.csv"
    path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(sandbox_app, ["serve", "--seed-bookings", str(path), *args])
    assert result.exit_code == 2 and needle in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_seeded_bookings_are_served_back(tmp_path) -> None:
    path = tmp_path / "bookings.csv"
    path.write_text(BOOKINGS, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "sandbox", "serve", "--port", "0",
                             "--state-dir", str(tmp_path / "state"), "--today", "2026-12-01",
                             "--seed-bookings", str(path), "--los-reading", "arrival"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"})
    try:
        conn = tmp_path / "state" / "connection.env"
        deadline = time.monotonic() + 60
        while not conn.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert conn.exists(), proc.stdout.read() if proc.poll() is not None and proc.stdout else "no connection.env"
        settings = Settings.from_file(conn)
        rows: list[dict[str, str]] = []
        while time.monotonic() < deadline and not rows:
            try:
                answer = httpx.get(f"{settings.base_url}/_sandbox/availability.csv",
                                   verify=ssl.create_default_context(cafile=settings.ca_bundle))
                rows = list(csv.DictReader(io.StringIO(answer.text)))
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        assert [(r["InvTypeCode"], r["RatePlanCode"], r["Date"], r["Booked"]) for r in rows] == [
            ("101", "", "2027-01-05", "2")]
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    assert "availability" in out and "LOS reading arrival" in out
