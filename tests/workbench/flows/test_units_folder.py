"""``push requests DIR`` of a ``push rooms --api modular --dry-run`` folder, against a ``workbench sandbox serve``
process over HTTPS: the bulk creations as written, each unit made once however often the folder is sent, and an
edited request refused."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pandas as pd
import pytest

from tests.workbench.flows.test_push_path import EXE, serve  # noqa: F401 - the fixture
from tests.workbench.flows.test_rooms_modular_kill import NEW, workbook


@pytest.mark.slow
def test_a_units_dry_run_folder_is_sent_by_push_requests_once(serve, tmp_path: Path,  # noqa: F811 - the fixture
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the meta the commands cache stays in this test's folder
    sb = serve("--provider-type", "Home")
    env = sb.env_file(tmp_path / "push.env", provider_type="Home")
    book = workbook(tmp_path / "units.xlsx")
    folder, journal = tmp_path / "dry", tmp_path / "journal.sqlite"
    common = ["--env-file", str(env), "--journal", str(journal)]
    dry = subprocess.run([str(EXE), "push", "rooms", str(book), "--api", "modular", "--dry-run", str(folder), *common],
                         capture_output=True, text=True, timeout=300)
    assert dry.returncode == 0, dry.stdout + dry.stderr
    manifest = pd.read_csv(folder / "manifest.csv", dtype=str, keep_default_na=False)
    assert set(manifest["kind"]) == {"units"} and set(manifest["operation"]) == {"units.bulk_create"}

    push = [str(EXE), "push", "requests", str(folder), *common]
    first = subprocess.run(push, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    units = sb.get_csv("units.csv")
    made = units[units["PartnerReferenceName"].str.startswith("Courtyard Double")]
    assert sorted(made["PartnerReferenceName"]) == sorted(r[3] for r in NEW)

    again = subprocess.run(push, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    units = sb.get_csv("units.csv")
    assert len(units[units["PartnerReferenceName"].str.startswith("Courtyard Double")]) == len(NEW), "made once"
    log = sb.get_csv("requests.csv")
    creations = log[(log["method"] == "POST") & (log["path"] == "/rooms-api/units") & (log["status"] == "200")]
    assert len(creations) == len(manifest), "each bulk creation sent once"

    edited = folder / str(manifest["file"].iloc[0])
    edited.write_bytes(edited.read_bytes().replace(b"Courtyard", b"Garden"))
    refused = subprocess.run(push, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "was changed after it was written" in refused.stdout + refused.stderr


def test_a_units_folder_s_updates_are_listed_not_sent_and_its_creation_is_sent(tmp_path: Path) -> None:
    """An update in the folder replaces a whole part built from the platform of the dry run: never sent from the
    folder (it could undo a change made since), listed with the way to send it; the creation beside it is sent."""
    import json

    from tests.workbench.flows.fixture_platform import HOTEL, SETTINGS, FixturePlatform
    from workbench.flows.rooms_modular_push import push_units_folder
    from workbench.writers import Planned, read_requests, write_requests

    create = json.dumps({"units": [{"property_id": HOTEL, "correlation_id": "A1",
                                    "partner_reference_name": "Garden Double"}]}).encode()
    update = json.dumps({"partner_reference_name": "Garden Double"}).encode()
    planned = [Planned("units", "units.bulk_create", f"{HOTEL}:A1", create, str(HOTEL), "create 1 unit",
                       hotel_code=HOTEL, items=1, creates=f"{HOTEL}:A1", idempotent=False, method="POST",
                       path="/rooms-api/units", extra={"hotel_code": HOTEL, "part": "create", "unit_id": "",
                                                       "room_ids": "A1"}),
               Planned("units", "unit.update", f"{HOTEL}/1048000102/unit", update, str(HOTEL), "unit of 1048000102",
                       hotel_code=HOTEL, items=1, state=[(f"{HOTEL}/1048000102/unit", update.decode())],
                       method="PATCH", path=f"/rooms-api/properties/{HOTEL}/units/1048000102",
                       extra={"hotel_code": HOTEL, "part": "unit", "unit_id": "1048000102", "room_ids": ""})]
    write_requests(tmp_path / "dry", planned, ["001-create.json", "002-update.json"],
                   pd.DataFrame([{**p.extra, "method": p.method, "path": p.path} for p in planned]))
    platform = FixturePlatform()
    with platform.client() as client:
        result = push_units_folder(read_requests(tmp_path / "dry"), SETTINGS, journal=tmp_path / "j.sqlite",
                                   client=client)
    assert [(c.method, c.path) for c in platform.writes()] == [("POST", "/rooms-api/units")]
    outcome = dict(zip(result.table["part"], result.table["outcome"], strict=True))
    assert outcome == {"create": "success", "unit": "not sent"}
    said = result.table.set_index("part").loc["unit", "texts"]
    assert "could undo a change made since" in said and "workbench push rooms FILE --api modular" in said
    assert list(result.mapping["room_id"]) == ["A1"]
