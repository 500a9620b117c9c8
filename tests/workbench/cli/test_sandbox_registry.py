"""``workbench sandbox serve --registry FILE``: the sandbox holds your properties, its rooms come from
your registry (or a ``--rooms FILE`` you name), and it never reads a file you did not pass."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openpyxl import Workbook

from workbench.config import Settings
from workbench.paths import SAMPLES
from workbench.platform.registry import fetch_registry
from workbench.sandbox import SandboxConfig, create_app
from workbench.sandbox.platform.config import rooms_seed
from workbench.sandbox.platform.room_state import DEFAULT_PLATFORM_ROOMS
from workbench.sandbox.platform.seed import Property, Registry, Room, RoomRate

ROOT = Path(__file__).resolve().parents[3]
MINE = Registry((Property(2000001, "Hotel Mine", "EUR", "Standard", "NL"),),
                (Room(2000001, "11", "Canal Double", 2, 2, 0),),
                (RoomRate(2000001, "11", "77", "Flexible", True, None, False, False),))


def write_registry_csvs(folder: Path, rooms: list[list[object]] | None = None) -> list[Path]:
    """Your registry as three CSV files, with the headers `validate --registry` reads."""
    folder.mkdir(parents=True, exist_ok=True)
    tables = {
        "properties.csv": [["HotelCode", "HotelName", "CurrencyCode", "PricingModel", "CountryCode"],
                           [2000001, "Hotel Mine", "EUR", "Standard", "NL"]],
        "rooms.csv": rooms or [["HotelCode", "InvTypeCode", "RoomName", "MaxOccupancy", "MaxAdultOccupancy",
                                "MaxChildOccupancy"], [2000001, "11", "Canal Double", 2, 2, 0]],
        "room_rates.csv": [["HotelCode", "InvTypeCode", "RatePlanCode", "RateName", "Active", "FollowsPrice",
                            "ReadOnly"], [2000001, "11", "77", "Flexible", 1, 0, 0]],
    }
    for name, rows in tables.items():
        with open(folder / name, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(rows)
    return [folder / name for name in tables]


def write_room_facts(path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "RoomTypes"
    ws.append(["HotelCode", "InvCode", "RoomID", "RoomType", "NonSmoking", "Quantity"])
    ws.append([2000001, "11", "4711", "9", 1, 3])
    ws = wb.create_sheet("SubRooms")
    ws.append(["HotelCode", "InvCode", "SubRoom", "RoomType", "MaxGuests", "Number", "PrivateBathroom"])
    ws = wb.create_sheet("Amenities")
    ws.append(["HotelCode", "InvCode", "SubRoom", "RoomAmenityCode", "Quantity", "Configuration"])
    ws.append([2000001, "11", None, "33", 1, None])
    wb.save(path)
    return path


def serve(args: list[str], cwd: Path) -> tuple[subprocess.Popen[str], Path]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "sandbox", "serve", "--port", "0",
                             "--state-dir", "state", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    return proc, cwd / "state" / "connection.env"


def finish(proc: subprocess.Popen[str]) -> str:
    """The output of a serve that ends by itself (it refused to start)."""
    try:
        return proc.communicate(timeout=120)[0]
    finally:
        if proc.poll() is None:
            proc.kill()


def stop(proc: subprocess.Popen[str]) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    return proc.communicate(timeout=30)[0]


def test_serve_with_your_registry_holds_your_properties_and_rooms(tmp_path: Path) -> None:
    files = write_registry_csvs(tmp_path / "registry")
    facts = write_room_facts(tmp_path / "facts.xlsx")
    args = [a for f in files for a in ("--registry", str(f))] + ["--rooms", str(facts), "--today", "2026-12-01"]
    proc, conn = serve(args, tmp_path)
    try:
        deadline = time.monotonic() + 90
        while not conn.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert conn.exists(), stop(proc)
        settings = Settings.from_file(conn)
        registry = fetch_registry(settings, [2000001])
        assert registry.rooms[["hotel_code", "inv_type_code"]].astype(str).values.tolist() == [["2000001", "11"]]
        assert registry.room_rates["rate_plan_code"].tolist() == ["77"]
        import ssl

        import httpx

        ctx = ssl.create_default_context(cafile=settings.ca_bundle)
        rooms = httpx.get(f"{settings.base_url}/_sandbox/rooms.csv", verify=ctx).text
        amenities = httpx.get(f"{settings.base_url}/_sandbox/amenities.csv", verify=ctx).text
    finally:
        out = stop(proc)
    assert "2000001,11,1,4711,9,Canal Double" in rooms and "1000001" not in rooms  # no sample property
    assert "2000001,11,,33,1," in amenities
    assert "properties    1: 2000001 Hotel Mine (your registry)" in out


@pytest.mark.parametrize(("args", "needle"), [
    (["--registry", "nowhere.xlsx"], "nowhere.xlsx"),
    (["--rooms", "nowhere.xlsx"], "--rooms `nowhere.xlsx` does not exist"),
])
def test_a_file_you_named_that_cannot_be_used_is_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    proc, _ = serve(args, tmp_path)
    out = finish(proc)
    assert proc.returncode == 2 and needle in out and "Traceback" not in out, out


def test_every_missing_fact_the_sandbox_needs_is_named_at_once(tmp_path: Path) -> None:
    files = write_registry_csvs(tmp_path / "registry", rooms=[
        ["HotelCode", "InvTypeCode", "RoomName", "MaxOccupancy"], [2000001, "11", "Canal Double", ""],
        [2000001, "12", "Canal Single", 1]])
    proc, _ = serve([a for f in files for a in ("--registry", str(f))], tmp_path)
    out = " ".join(finish(proc).split())
    assert proc.returncode == 2, out
    for fact in ("room 11 of property 2000001: MaxOccupancy", "room 11 of property 2000001: MaxAdultOccupancy",
                 "room 12 of property 2000001: MaxAdultOccupancy", "room 12 of property 2000001: MaxChildOccupancy"):
        assert fact in out


def test_a_kept_state_seeded_from_another_registry_is_refused(tmp_path: Path) -> None:
    create_app(SandboxConfig(state_dir=tmp_path)).state.sandbox.store.close()  # seeded from the sample
    with pytest.raises(ValueError, match="was seeded from another registry .*1000001"):
        create_app(SandboxConfig(state_dir=tmp_path, registry=MINE))
    again = create_app(SandboxConfig(state_dir=tmp_path, registry_path=SAMPLES / "registry.xlsx"))
    assert again.state.sandbox.registry.properties[0].hotel_code == 1000001  # the same registry: kept as is
    again.state.sandbox.store.close()


def test_the_sample_room_facts_are_read_only_with_the_sample_registry(tmp_path: Path) -> None:
    assert rooms_seed(SandboxConfig()) == DEFAULT_PLATFORM_ROOMS
    assert rooms_seed(SandboxConfig(registry=MINE)) is None
    assert rooms_seed(SandboxConfig(registry_path=tmp_path / "mine.xlsx")) is None
    named = Path(str(DEFAULT_PLATFORM_ROOMS))  # named by you: read, whatever the registry
    assert rooms_seed(SandboxConfig(registry=MINE, platform_rooms_path=named)) == named
    sandbox = create_app(SandboxConfig(registry=MINE)).state.sandbox  # in memory; would fail on the sample rooms
    assert "2000001,11,1,,,Canal Double" in sandbox.room_types.csv("rooms")
