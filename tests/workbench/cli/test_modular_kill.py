"""kill -9 during a push of 50 new properties through the modular APIs: a real ``workbench sandbox serve`` process
and a real ``workbench push content --api modular`` process over HTTPS on loopback; the same command run again
completes the push and creates no property twice (creates in flight at the kill are settled by sending them
again: the platform refuses the duplicate and names the property)."""

from __future__ import annotations

import csv
import io
import os
import signal
import sqlite3
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from openpyxl import Workbook

from workbench.config import Settings

N = 50
TODAY = "2026-12-31"


def workbook(path: Path) -> Path:
    """50 new properties (custom IDs ``MOD-01`` ...) in Lisbon, each with its language, address, General and
    invoices contacts."""
    wb = Workbook()
    prop = wb.active
    prop.title = "Property"
    prop.append(["ID", "HotelName", "LanguageCode", "CurrencyCode", "Target", "HotelCategory", "SellableUnits",
                 "Latitude", "Longitude", "LegalEntityID", "CheckInTime", "CheckOutTime"])
    languages = wb.create_sheet("Languages")
    languages.append(["ID", "LanguageCode"])
    contacts = wb.create_sheet("Contacts")
    contacts.append(["ID", "ContactProfileType", "Language", "AddressLine", "CityName", "PostalCode", "CountryName",
                     "GivenName", "SurName", "Email", "PhoneNumber", "PhoneTechType"])
    for i in range(1, N + 1):
        key = f"MOD-{i:02d}"
        name = f"Casa Alfama {chr(65 + (i - 1) // 26)}{chr(97 + (i - 1) % 26)}"
        prop.append([key, name, "pt", "EUR", "Test", 20, 10, round(38.70 + i / 1000, 4), round(-9.14 + i / 1000, 4),
                     7000, "15:00", "11:00"])
        contacts.append([key, "PhysicalLocation", "en", f"Rua da Alfandega {i}", "Lisboa", "1100-148", "PT"])
        languages.append([key, "pt"])
        for kind, given in (("general", "Ana"), ("invoices", "Rui")):
            contacts.append([key, kind, None, None, None, None, None, given, "Sousa", f"{given}{i}@alfama.example",
                             "+351213420000", 1])
    wb.save(path)
    return path


def serve(state: Path) -> subprocess.Popen:
    exe = Path(sys.executable).with_name("workbench")
    proc = subprocess.Popen([str(exe), "sandbox", "serve", "--port", "0", "--state-dir", str(state), "--today", TODAY,
                             "--faults", "latency=250ms,seed=3"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
    deadline = time.monotonic() + 90
    while not (state / "connection.env").exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert (state / "connection.env").exists(), "the sandbox did not start"
    return proc


def properties(state: Path) -> list[dict[str, str]]:
    settings = Settings.from_file(state / "connection.env")
    with httpx.Client(verify=ssl.create_default_context(cafile=str(settings.ca_bundle))) as client:
        answer = client.get(f"{settings.base_url}/_sandbox/properties.csv")
    answer.raise_for_status()
    return list(csv.DictReader(io.StringIO(answer.text)))


def created(journal: Path) -> int:
    if not journal.exists():
        return 0
    try:
        with sqlite3.connect(journal) as db:
            return int(db.execute("SELECT count(*) FROM created WHERE kind='modular' AND status='created'")
                       .fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_kill_9_during_a_modular_push_then_the_same_command_creates_no_property_twice(tmp_path: Path) -> None:
    book, journal, state = workbook(tmp_path / "fifty.xlsx"), tmp_path / "journal.sqlite", tmp_path / "sb"
    sandbox = serve(state)
    try:
        env_file = tmp_path / "push.env"
        env_file.write_text((state / "connection.env").read_text() + "WORKBENCH_MAX_IN_FLIGHT=4\n")
        cmd = [str(Path(sys.executable).with_name("workbench")), "push", "content", str(book), "--api", "modular",
               "--env-file", str(env_file), "--journal", str(journal), "--today", TODAY]
        push = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        deadline = time.monotonic() + 180
        while created(journal) < 5 and push.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(push.pid, signal.SIGKILL)
        push.wait(timeout=30)
        made = created(journal)
        assert 5 <= made < N, "the kill should land among the creates"
        again = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert again.returncode == 0, again.stdout + again.stderr
        ours = [p for p in properties(state) if p["CustomID"].startswith("MOD-")]
        assert sorted(p["CustomID"] for p in ours) == [f"MOD-{i:02d}" for i in range(1, N + 1)]  # each once
        assert created(journal) == N
        with sqlite3.connect(journal) as db:
            sent_twice = db.execute("SELECT creates, count(*) FROM requests WHERE operation='property.create' AND "
                                    "status='success' GROUP BY creates HAVING count(*) > 1").fetchall()
        assert sent_twice == []  # a create the journal saw answered is never sent again
        third = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert third.returncode == 0 and "nothing to send" in third.stdout, third.stdout
    finally:
        sandbox.send_signal(signal.SIGINT)
        try:
            sandbox.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(sandbox.pid, signal.SIGKILL)
