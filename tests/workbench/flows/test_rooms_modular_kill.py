"""A ``workbench push rooms --api modular`` process killed with SIGKILL while its bulk creation is in flight, against
a ``workbench sandbox serve`` process over HTTPS: the same command again creates each unit exactly once (the lost
creation settled by reading the units back, never sent blindly again)."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest
from openpyxl import Workbook

from tests.workbench.flows.test_push_path import EXE, journal_rows, kill_when, serve  # noqa: F401 - the fixture
from workbench.config import Settings
from workbench.transport import SyncPlatformClient

HOTELS = (1000001, 1000004)
NEW = [[hotel, 7000 + n, "Double", f"Courtyard Double {n}", 2, 2, 0, 4] for n, hotel in enumerate(HOTELS * 4)]


def workbook(path: Path) -> Path:
    wb = Workbook()
    rooms = wb.active
    rooms.title = "Rooms"
    for row in [["HotelCode", "RoomID", "RoomType", "RoomTypeName", "MaxOccupancy", "MaxAdultOccupancy",
                 "MaxChildOccupancy", "Quantity"], *NEW]:
        rooms.append(row)
    beds = wb.create_sheet("Amenities")
    for row in [["HotelCode", "RoomID", "AmenityCode", "Value", "Configuration"],
                *[[r[0], r[1], 33, 1, 1] for r in NEW], *[[r[0], r[1], 92, None, None] for r in NEW]]:
        beds.append(row)
    wb.save(path)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("applied", [False, True], ids=["not-applied", "applied-answer-lost"])
def test_kill_9_during_a_bulk_creation_then_the_same_command_creates_each_unit_once(
        serve,  # noqa: F811 - test_push_path's fixture
        tmp_path: Path, applied: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed while the sandbox waits before handling the creation: it is not made. ``applied``: the platform made
    it all the same (the creation the journal holds, sent to the sandbox as the killed process sent it) and its
    answer is lost."""
    monkeypatch.chdir(tmp_path)  # the push processes keep what they cache (the meta) under their working folder
    sb = serve("--faults", "latency=1500ms,ops=units.bulk_create", "--provider-type", "Home")
    book = workbook(tmp_path / "units.xlsx")
    journal = tmp_path / "journal.sqlite"
    env = sb.env_file(tmp_path / "push.env", max_in_flight="1", provider_type="Home")
    cmd = [str(EXE), "push", "rooms", str(book), "--api", "modular", "--env-file", str(env), "--journal", str(journal),
           "--mapping", str(tmp_path / "map.csv")]
    in_flight = "SELECT count(*) FROM requests WHERE kind='units' AND operation='units.bulk_create' AND status='sending'"
    assert kill_when(cmd, journal, in_flight, 1) == 1
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT count(*) FROM requests WHERE operation='units.bulk_create' AND status='success'"
                          ).fetchone()[0] == 0, "the kill should land while the first creation is in flight"
    if applied:
        ((body,),) = journal_rows(journal, "SELECT body FROM requests WHERE operation='units.bulk_create' AND "
                                           "status='sending'")
        with SyncPlatformClient(Settings.from_file(env)) as client:
            assert client.send("units.bulk_create", bytes(body), method="POST", path="/rooms-api/units").ok
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert ("4 found created by an earlier push" in again.stdout) == applied, again.stdout
    units = sb.get_csv("units.csv")
    names = units[units["PartnerReferenceName"].str.startswith("Courtyard Double")]["PartnerReferenceName"]
    assert sorted(names) == sorted(r[3] for r in NEW), "each unit of the workbook, exactly once"
    mapping = (tmp_path / "map.csv").read_text()
    assert all(f",{r[1]}," in mapping for r in NEW)  # every RoomID mapped to its unit id
    facilities = sb.get_csv("room_facilities.csv")
    made = set(units.loc[names.index, "UnitId"])
    assert set(facilities.loc[facilities["RoomFacilityId"] == "38", "RoomId"]) == made  # their safes followed
    log = sb.get_csv("requests.csv")
    creations = log[(log["method"] == "POST") & (log["path"] == "/rooms-api/units") & (log["status"] == "200")]
    assert len(creations) <= len(HOTELS) + 1  # at most the one in flight at the kill was answered, never made twice
    third = subprocess.run(cmd, capture_output=True, text=True, timeout=300)  # nothing left to do
    assert third.returncode == 0 and "nothing to send" in third.stdout, third.stdout + third.stderr
