"""The one push path, end to end with real processes: a ``workbench sandbox serve`` process over HTTPS
and ``workbench push`` processes killed with SIGKILL half way, then the same command again; dry-run
folders of every kind sent with ``push requests DIR``."""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pandas as pd
import pytest
from openpyxl import Workbook

from workbench.cli.demo import fixed_content
from workbench.config import Secret, Settings

EXE = Path(sys.executable).with_name("workbench")
ROOMS = ["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "MaxOccupancy", "MaxAdultOccupancy",
         "MaxChildOccupancy", "Quantity", "NonSmoking", "SizeMeasurement", "SizeMeasurementUnit"]
NEW_ROOMS = [[hotel, None, 9000 + n, 9, f"Garden Room {n}", 2, 2, 0, 3, 1, 20, "sqm"]
             for n, hotel in enumerate([1000001, 1000002] * 6)]


class Served:
    """A ``workbench sandbox serve`` process and the settings it wrote."""

    def __init__(self, proc: subprocess.Popen[str], state: Path) -> None:
        self.proc, self.state = proc, state
        self.settings = Settings.from_file(state / "connection.env")

    def get_csv(self, name: str) -> pd.DataFrame:
        s = self.settings
        r = httpx.get(f"{s.base_url}/_sandbox/{name}", verify=s.ca_bundle, auth=(s.username, s.password.reveal()))
        r.raise_for_status()
        return pd.read_csv(io.BytesIO(r.content), dtype=str, keep_default_na=False)

    def env_file(self, path: Path, **extra: str) -> Path:
        path.write_text((self.state / "connection.env").read_text()
                        + "".join(f"WORKBENCH_{k.upper()}={v}\n" for k, v in extra.items()))
        return path


@pytest.fixture
def serve(tmp_path: Path) -> Iterator:
    procs: list[subprocess.Popen[str]] = []

    def start(*args: str) -> Served:
        state = tmp_path / f"sandbox{len(procs)}"
        proc = subprocess.Popen([str(EXE), "sandbox", "serve", "--port", "0", "--state-dir", str(state), *args],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        procs.append(proc)
        deadline = time.monotonic() + 90
        while not (state / "connection.env").exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read() if proc.stdout else ""
            time.sleep(0.1)
        served = Served(proc, state)
        while True:  # listening
            try:
                served.get_csv("requests.csv")
                return served
            except httpx.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.2)

    yield start
    for proc in procs:
        proc.send_signal(signal.SIGINT)
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def rooms_workbook(path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Rooms"
    for row in [ROOMS, *NEW_ROOMS]:
        ws.append(row)
    wb.save(path)
    return path


def journal_rows(journal: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(journal) as db:
        try:
            return db.execute(sql).fetchall()
        except sqlite3.OperationalError:  # not made yet
            return []


def kill_when(cmd: list[str], journal: Path, sql: str, at_least: int) -> int:
    """Run ``cmd``, SIGKILL it once ``sql`` counts ``at_least`` rows in the journal; the count then."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True, text=True)
    deadline = time.monotonic() + 180
    done = 0
    while time.monotonic() < deadline and proc.poll() is None:
        done = journal_rows(journal, sql)[0][0] if journal.exists() and journal_rows(journal, sql) else 0
        if done >= at_least:
            break
        time.sleep(0.02)
    assert proc.poll() is None, f"the push ended before the kill: {proc.communicate()[0]}"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    return done


@pytest.mark.slow
def test_kill_9_during_push_rooms_then_the_same_command_creates_each_room_type_once(serve, tmp_path: Path) -> None:
    sb = serve("--faults", "latency=600ms")
    book = rooms_workbook(tmp_path / "rooms.xlsx")
    journal = tmp_path / "journal.sqlite"
    env = sb.env_file(tmp_path / "push.env", max_in_flight="2")
    cmd = [str(EXE), "push", "rooms", str(book), "--env-file", str(env), "--journal", str(journal),
           "--mapping", str(tmp_path / "map.csv")]
    ok = "SELECT count(*) FROM requests WHERE kind='rooms' AND status='success'"
    assert kill_when(cmd, journal, ok, 3) >= 3
    first = {k for (k,) in journal_rows(journal, "SELECT key FROM requests WHERE run_id=1 AND status='success'")}
    assert 3 <= len(first) < len(NEW_ROOMS), "the kill should land mid-push"
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    resent = {k for (k,) in journal_rows(journal, "SELECT key FROM requests WHERE run_id=2")}
    assert not (first & resent), "a room type the journal saw created was sent again"
    rooms = sb.get_csv("rooms.csv")
    names = rooms[rooms["RoomTypeName"].str.startswith("Garden Room")]["RoomTypeName"]
    assert sorted(names) == sorted(r[4] for r in NEW_ROOMS), "each room type of the workbook, exactly once"
    log = sb.get_csv("requests.csv")
    news = log[log["endpoint"].str.contains("InvNotif") & (log["status"] == "200")]
    assert len(news) <= len(NEW_ROOMS) + 2  # at most the calls in flight at the kill were applied twice
    third = subprocess.run(cmd, capture_output=True, text=True, timeout=300)  # nothing left to do
    assert third.returncode == 0 and "0 requests" in third.stdout, third.stdout + third.stderr


@pytest.mark.slow
def test_kill_9_during_push_content_then_the_same_command_creates_each_property_once(serve, tmp_path: Path) -> None:
    sb = serve("--faults", "latency=900ms", "--rtb-enabled")
    book = fixed_content(tmp_path / "content.xlsx")
    journal = tmp_path / "journal.sqlite"
    env = sb.env_file(tmp_path / "push.env", max_in_flight="1", content_api_rtb_enabled="1")
    cmd = [str(EXE), "push", "content", str(book), "--env-file", str(env), "--journal", str(journal)]
    ok = "SELECT count(*) FROM requests WHERE kind='content' AND status='success'"
    assert kill_when(cmd, journal, ok, 1) >= 1
    total = journal_rows(journal, "SELECT count(*) FROM requests WHERE run_id=1")[0][0]
    first = {k for (k,) in journal_rows(journal, "SELECT property FROM requests WHERE run_id=1 AND status='success'")}
    assert 1 <= len(first) < total, "the kill should land mid-push"
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    resent = {k for (k,) in journal_rows(journal, "SELECT property FROM requests WHERE run_id=2")}
    assert not (first & resent), "a property the journal saw accepted was sent again"
    unclear = journal_rows(journal, "SELECT count(*) FROM requests WHERE run_id=1 AND status='interrupted' AND "
                                    "creates IS NOT NULL")[0][0]
    # a New in flight at the kill may have been made: held as unclear (exit 1), never created twice
    assert again.returncode == (1 if unclear else 0), again.stdout + again.stderr
    props = sb.get_csv("properties.csv")
    made = props[props["CustomID"] != ""]
    assert not made["CustomID"].duplicated().any(), "a property created twice"
    log = sb.get_csv("requests.csv")
    sent = log[log["endpoint"].str.contains("DescriptiveContentNotif")]
    assert len(sent) <= total + 1


def test_push_requests_sends_a_rooms_and_a_content_dry_run_folder(tmp_path: Path) -> None:
    from workbench.flows.content import check_content
    from workbench.flows.content_push import push_content
    from workbench.flows.folders import push_requests
    from workbench.flows.rooms import check_rooms, dry_run, preview_rooms
    from workbench.sandbox import run_sandbox

    with run_sandbox(tmp_path / "sb", rtb_enabled=True) as sb:
        settings = sb.settings.with_(content_api_rtb_enabled=True)
        check = check_rooms(rooms_workbook(tmp_path / "rooms.xlsx"))
        dry_run(check, tmp_path / "rooms-dry", preview_rooms(check, settings))
        journal = tmp_path / "journal.sqlite"
        rooms = push_requests(tmp_path / "rooms-dry", settings, journal=journal, progress=False)
        assert rooms.ok and len(rooms.requests) == len(NEW_ROOMS) and len(rooms.mapping) == len(NEW_ROOMS)
        again = push_requests(tmp_path / "rooms-dry", settings, journal=journal, progress=False)
        assert again.ok and set(again.requests["outcome"]) == {"success"}  # already made: never created twice
        assert again.results["message"].str.contains("created earlier").all()
        assert len(again.mapping) == len(NEW_ROOMS)  # found in the journal
        rooms_now = httpx.get(sb.rooms_csv_url, verify=str(sb.tls.ca_bundle),
                              auth=(settings.username, settings.password.reveal())).text
        assert sum(f"Garden Room {n}," in rooms_now for n in range(len(NEW_ROOMS))) == len(NEW_ROOMS)

        content = check_content(fixed_content(tmp_path / "content.xlsx"), settings=settings)
        push_content(content, settings, journal=journal, dry_run=tmp_path / "content-dry")
        (tmp_path / "content-dry" / "manifest.csv").read_text()
        pushed = push_requests(tmp_path / "content-dry", settings, journal=journal, progress=False)
        assert pushed.ok and len(pushed.results) == len(content.properties)
        assert set(pushed.results["outcome"]) == {"success"} and len(pushed.created) >= 1
        second = push_requests(tmp_path / "content-dry", settings, journal=journal, progress=False)
        assert second.results["outcome"].isin(["not sent"]).all() or second.results.empty


def test_an_edited_request_in_a_folder_is_refused(tmp_path: Path) -> None:
    from workbench.errors import InputError
    from workbench.flows.content import check_content
    from workbench.flows.content_push import push_content
    from workbench.flows.folders import push_requests

    settings = Settings(base_url="https://127.0.0.1:9", username="u", password=Secret("p"))  # never reached
    content = check_content(fixed_content(tmp_path / "content.xlsx"), rtb_enabled=True)
    push_content(content, settings, journal=tmp_path / "j.sqlite", dry_run=tmp_path / "dry")
    request = sorted((tmp_path / "dry").glob("*.xml"))[0]
    request.write_bytes(request.read_bytes().replace(b"</", b" </", 1))
    with pytest.raises(InputError, match="was changed after it was written"):
        push_requests(tmp_path / "dry", settings, journal=tmp_path / "j.sqlite", progress=False)


@pytest.mark.slow
def test_a_new_in_flight_at_a_kill_is_never_sent_again(serve, tmp_path: Path) -> None:
    """Issue 22: a content New whose sender died while it was in flight (journalled as being sent, its answer
    never seen) is not sent again: it is held and reported as unclear, with what to do."""
    sb = serve("--faults", "latency=4s", "--rtb-enabled")
    book = fixed_content(tmp_path / "content.xlsx")
    journal = tmp_path / "journal.sqlite"
    env = sb.env_file(tmp_path / "push.env", max_in_flight="1", content_api_rtb_enabled="1")
    cmd = [str(EXE), "push", "content", str(book), "--env-file", str(env), "--journal", str(journal)]
    in_flight = "SELECT count(*) FROM requests WHERE status='sending' AND creates IS NOT NULL"
    assert kill_when(cmd, journal, in_flight, 1) == 1
    (ref,) = journal_rows(journal, "SELECT creates FROM requests WHERE status='sending'")[0]
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 1, again.stdout + again.stderr  # the unclear one holds the push back
    assert f"`{ref}`" in again.stdout and "unclear" in again.stdout, again.stdout
    resent = journal_rows(journal, f"SELECT count(*) FROM requests WHERE run_id=2 AND creates='{ref}'")[0][0]
    assert resent == 0, "a New in flight at the kill was sent again"
    props = sb.get_csv("properties.csv")
    assert (props["CustomID"] == ref).sum() <= 1  # the request in flight made it, or (cut off) did not: never twice
    log = sb.get_csv("requests.csv")
    assert (log["endpoint"].str.contains("DescriptiveContentNotif")).sum() == 1


def test_an_edited_rates_request_is_refused_so_the_journal_records_what_is_sent(tmp_path: Path) -> None:
    """Issue 22: a hand-edited request of a rates folder was sent as written while the journal recorded the
    price of cells.parquet; the manifest's SHA-256 per request refuses it before anything is sent."""
    from workbench.errors import InputError
    from workbench.flows.folders import push_requests
    from workbench.flows.rates import check_rates, dry_run
    from workbench.paths import SAMPLES

    check = check_rates(SAMPLES / "lisbon_seasons.csv", as_of="2026-12-01")
    dry_run(check, tmp_path / "dry", skip_invalid=True)
    request = sorted((tmp_path / "dry").glob("*.xml"))[0]
    body = request.read_bytes()
    request.write_bytes(body.replace(b'Tax="', b'Tax="9', 1))  # a price edited by hand
    assert request.read_bytes() != body
    settings = Settings(base_url="https://127.0.0.1:9", username="u", password=Secret("p"))  # never reached
    with pytest.raises(InputError, match=f"`{request}` was changed after it was written"):
        push_requests(tmp_path / "dry", settings, journal=tmp_path / "j.sqlite", progress=False)
    assert not (tmp_path / "j.sqlite").exists()  # refused before anything was journalled
