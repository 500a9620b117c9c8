"""``fetch rooms`` and ``push rooms`` for a Home provider from 2026-12-31: the Rooms and Facilities APIs by default,
never OTA_HotelInvNotif or OTA_HotelDescriptiveInfo (the sandbox's request log says so); ``--plan`` shows the
changes and sends nothing; ``--dry-run`` writes the requests as they would be sent; ``--api`` refuses a value it
does not know (exit 2)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import ssl
from pathlib import Path

import httpx
import pytest
from openpyxl import load_workbook

from workbench.sandbox import run_sandbox

HOTEL = 1000004


def log(sb) -> list[dict[str, str]]:
    s = sb.settings
    r = httpx.get(sb.requests_csv_url, verify=ssl.create_default_context(cafile=str(sb.tls.ca_bundle)),
                  auth=(s.username, s.password.reveal()))
    return list(csv.DictReader(io.StringIO(r.text)))


def set_quantity(path: Path, inv: str, quantity: int) -> None:
    wb = load_workbook(path)
    ws = wb["Rooms"]
    head = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2):
        if str(row[head.index("InvCode")].value) == inv:
            row[head.index("Quantity")].value = quantity
    wb.save(path)


@pytest.mark.slow
def test_a_home_provider_on_2026_12_31_fetches_and_pushes_through_the_modular_apis(workbench, tmp_path: Path) -> None:
    with run_sandbox(tmp_path / "sb", today=dt.date(2026, 12, 31), provider_type="Home") as sb:
        env = tmp_path / "home.env"  # the machine account's provider type, as the partner's settings say it
        env.write_text(sb.connection_file.read_text() + "WORKBENCH_PROVIDER_TYPE=Home\n")
        common = ["--env-file", str(env), "--today", "2026-12-31"]
        fetched = tmp_path / "units.xlsx"
        run = workbench(["fetch", "rooms", "--hotel", str(HOTEL), "--out", str(fetched), *common], cwd=tmp_path)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "Family Apartment" in run.stdout and fetched.is_file()
        set_quantity(fetched, "401", 7)
        files = ["--journal", str(tmp_path / "j.sqlite"), "--mapping", str(tmp_path / "map.csv")]
        plan = workbench(["push", "rooms", str(fetched), "--plan", *common, *files], cwd=tmp_path)
        assert plan.returncode == 0 and "number of units: 6 -> 7" in plan.stdout, plan.stdout + plan.stderr
        dry = workbench(["push", "rooms", str(fetched), "--dry-run", str(tmp_path / "dry"), *common, *files],
                        cwd=tmp_path)
        assert dry.returncode == 0, dry.stdout + dry.stderr
        (request,) = sorted((tmp_path / "dry").glob("*.json"))
        assert json.loads(request.read_bytes()) == {"number_of_units": 7}
        manifest = (tmp_path / "dry" / "manifest.csv").read_text()
        assert f"PATCH,/rooms-api/properties/{HOTEL}/units/401" in manifest and ",units," in manifest
        before = len(log(sb))
        pushed = workbench(["push", "rooms", str(fetched), *common, *files], cwd=tmp_path)
        assert pushed.returncode == 0, pushed.stdout + pushed.stderr
        calls = log(sb)
        assert not [c for c in calls if "InvNotif" in c["endpoint"] or "DescriptiveInfo" in c["endpoint"]]
        assert [(c["method"], c["path"]) for c in calls[before:] if c["method"] != "GET"] == [
            ("PATCH", f"/rooms-api/properties/{HOTEL}/units/401")]
        assert ("GET", f"/rooms-api/properties/{HOTEL}/units") in {(c["method"], c["path"]) for c in calls}
        again = workbench(["push", "rooms", str(fetched), *common, *files], cwd=tmp_path)
        assert again.returncode == 0 and "nothing to send" in again.stdout, again.stdout


def test_an_api_the_command_does_not_know_is_one_line_and_exit_2(workbench, tmp_path: Path) -> None:
    run = workbench(["fetch", "rooms", "--hotel", "1", "--api", "soap"], cwd=tmp_path)
    assert run.returncode == 2 and "--api `soap`" in run.stdout + run.stderr and "Traceback" not in run.stderr
