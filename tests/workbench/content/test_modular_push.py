"""The content workbook through the modular APIs against the sandbox (in process): the sample goes there and comes
back with ``fetch`` equal on every cell the APIs keep, and the fetched workbook pushed unchanged sends nothing;
safety: an edit of one contact keeps the others, an edit of one parking instance keeps the other instances and
every other facility, a workbook without the Fees sheet leaves the fees alone; a create is never sent twice (the
journal), a duplicate answer maps to the existing property; the dry-run folder goes through ``push requests``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest

from loaders.content_schema import PARTS, frames_from_rows
from loaders.issues import empty_issues
from tests.conftest import SAMPLES
from tests.workbench.modular.test_roundtrip import _kept
from workbench.config import Secret, Settings
from workbench.errors import BlockedByErrors
from workbench.flows.content import ContentCheck, check_content
from workbench.flows.content_modular import (
    check_content_modular,
    plan_content_modular,
    push_content_modular,
    send_modular_folder,
)
from workbench.flows.modular_fetch import fetch_content_modular, write_content_workbook
from workbench.modular.content import NOT_KEPT
from workbench.platform.lookups import LookupCache
from workbench.platform.modular import fetch_modular_meta
from workbench.sandbox import SandboxConfig
from workbench.sandbox.testing import InProcess
from workbench.transport import SyncPlatformClient
from workbench.writers.folder import read_requests

DAY = dt.date(2026, 12, 31)
HOTEL = 1000001  # a registry property of the sandbox
SAMPLE = SAMPLES / "content_modular.xlsx"


class Platform:
    """An in-process sandbox, the settings to reach it and a client over ASGI."""

    def __init__(self, tmp: Path, today: dt.date = DAY) -> None:
        self.sb = InProcess(SandboxConfig(password="pw", today=today))
        self.settings = Settings(base_url="https://127.0.0.1", username=self.sb.sandbox.username, password=Secret("pw"))
        self.client = SyncPlatformClient(self.settings, transport=httpx.ASGITransport(app=self.sb.app))
        self.journal, self.cache = tmp / "journal.sqlite", tmp / "lookups.json"

    def push(self, check: ContentCheck, **kw: Any) -> Any:
        return push_content_modular(check, self.settings, journal=self.journal, today=DAY, client=self.client,
                                    cache=self.cache, **kw)

    def get(self, path: str) -> Any:
        r = self.sb.json("GET", path)
        assert r.status_code == 200, r.text
        return r.json()["data"]

    def put(self, method: str, path: str, body: Any) -> None:
        r = self.sb.json(method, path, body)
        assert r.status_code == 200, r.text

    def calls(self, method: str | None = None) -> list[str]:
        return [r["endpoint"] for r in self.sb.requests() if method is None or r["method"] == method]

    def close(self) -> None:
        self.client.close()
        self.sb.close()


@pytest.fixture
def platform(tmp_path: Path) -> Any:
    p = Platform(tmp_path)
    yield p
    p.close()


def workbook(**sheets: list[dict]) -> ContentCheck:
    """A checked workbook (no issues) of rows keyed by column name, every row of property ``HOTEL``."""
    rows = {part: [{"hotel_code": HOTEL, **r} for r in rs] for part, rs in sheets.items()}
    return ContentCheck(frames_from_rows(rows), empty_issues(), [Path("content.xlsx")])


def person(kind: str, name: str, email: str) -> dict:
    given, surname = name.split(" ", 1)
    return {"profile_type": kind, "given_name": given, "surname": surname, "email": email, "phone": "+31205550100",
            "phone_tech_type": 1, "name_language": "en-gb"}


# --- the sample there and back ---------------------------------------------------------------------

def test_the_sample_goes_there_and_comes_back_equal_on_every_kept_cell(platform: Platform, tmp_path: Path) -> None:
    check = check_content_modular(SAMPLE, today=DAY)
    assert not len(check.errors), check.errors
    first = platform.push(check)
    assert first.ok, first.summary()
    assert sorted(first.created["custom_id"]) == ["BR-RJ-02", "BR-SP-01", "PORTO-01", "RTB-AMS-01"]
    assert platform.calls("POST").count("property.create") == 4
    ids = [1000004, *first.created["hotel_code"]]
    fetched = write_content_workbook(fetch_content_modular(platform.settings, ids, client=platform.client,
                                                           cache=platform.cache), tmp_path / "fetched.xlsx")
    back = check_content_modular(fetched, today=DAY)
    assert not len(back.errors), back.errors
    meta = fetch_modular_meta(platform.client, LookupCache(platform.cache), platform.settings.base_url)
    created, compared = set(first.created["custom_id"]), 0
    for part in PARTS:
        if "*" in NOT_KEPT.get(part, {}):
            continue
        sent = _kept(part, check.parts[part], meta, sent=True, created=created)
        assert _kept(part, back.parts[part], meta, sent=False, created=created) == sent, part
        compared += sum(len(r) - 1 for r in sent)
    assert compared > 300
    writes = len(platform.calls())
    again = platform.push(back)  # the fetched workbook, unchanged: nothing to send
    assert again.ok and len(again.requests) == 0 and len(again.unchanged) == 20
    assert [c for c in platform.calls()[writes:] if not c.endswith((".read", ".meta"))] == []
    with pytest.raises(FileExistsError):
        write_content_workbook({}, fetched)  # never over a workbook


def test_a_create_is_never_sent_twice_and_a_duplicate_maps_to_the_existing_property(platform: Platform,
                                                                                    tmp_path: Path) -> None:
    check = check_content_modular(SAMPLE, today=DAY)
    first = platform.push(check)
    porto = int(first.created.set_index("custom_id").loc["PORTO-01", "hotel_code"])
    again = platform.push(check, full=True)  # every request sent again, but no create: the journal knows them
    assert again.ok and "property.create" not in set(again.requests["operation"])
    assert platform.calls("POST").count("property.create") == 4
    other = Platform(tmp_path / "other")  # a journal that never saw the creates, the same platform
    other.sb.close()
    other.sb, other.client = platform.sb, platform.client
    other.journal = tmp_path / "journal2.sqlite"
    mapped = other.push(check)
    creates = mapped.requests[mapped.requests["operation"] == "property.create"]
    assert set(creates["outcome"]) == {"success"} and "not created twice" in " ".join(creates["note"])
    assert int(mapped.created.set_index("custom_id").loc["PORTO-01", "hotel_code"]) == porto
    assert len([p for p in platform.sb.table("properties") if p["CustomID"] == "PORTO-01"]) == 1


def test_a_blocked_workbook_sends_nothing(platform: Platform) -> None:
    check = check_content_modular(SAMPLES / "content.xlsx", today=DAY)  # the deliberate problems
    assert {"modular_floors_range", "modular_name_letters"} <= set(check.errors["rule"])
    with pytest.raises(BlockedByErrors):
        platform.push(check)
    assert platform.calls() == []


# --- safety: a PUT replaces a whole list ----------------------------------------------------------------

CONTACTS = f"/contacts-api/properties/{HOTEL}/contacts"


def test_an_edit_of_one_contact_keeps_the_others(platform: Platform) -> None:
    people = [person("general", "Ana Sousa", "ana@x.example"), person("invoices", "Rui Lopes", "rui@x.example"),
              person("reservations", "Eva Vries", "eva@x.example")]
    assert platform.push(workbook(Contacts=people)).ok
    before = {c["contact_profiles"][0]["type"]: c for c in platform.get(CONTACTS)["contacts"]}
    edited = platform.push(workbook(Contacts=[people[0], {**people[1], "email": "billing@x.example"}, people[2]]))
    assert edited.ok and list(edited.requests["api"]) == ["contacts"]
    after = {c["contact_profiles"][0]["type"]: c for c in platform.get(CONTACTS)["contacts"]}
    assert after["invoices"]["email"] == "billing@x.example"
    assert (after["general"], after["reservations"]) == (before["general"], before["reservations"])


def test_a_workbook_leaving_out_a_contact_type_is_refused_on_its_row_unless_replace(platform: Platform) -> None:
    people = [person("general", "Ana Sousa", "ana@x.example"), person("invoices", "Rui Lopes", "rui@x.example")]
    assert platform.push(workbook(Contacts=people)).ok
    only = workbook(Contacts=[{**people[1], "email": "billing@x.example"}])
    held = platform.push(only)
    assert not held.ok and list(held.requests["outcome"]) == ["not sent"]
    assert "contacts_drop_type" in set(held.issues["rule"])
    assert len(platform.get(CONTACTS)["contacts"]) == 2  # nothing was deleted
    assert platform.push(only, replace=True).ok
    assert [c["contact_profiles"][0]["type"] for c in platform.get(CONTACTS)["contacts"]] == ["invoices"]


FACILITIES = f"/facilities-api/properties/{HOTEL}"
GARAGE = {"parking_details": {"name": "Garage", "parking_location": "ON_SITE", "parking_access": "ONLY_GUESTS",
                              "parking_reservation": "NEEDED"},
          "payment_details": {"charge_mode": "PAID", "charge_details": {"price": 20.0, "frequency": "PER_DAY"}}}
STREET = {"parking_details": {"name": "Street", "parking_location": "NEARBY", "parking_access": "GENERAL_PUBLIC",
                              "parking_reservation": "NOT_POSSIBLE"}, "payment_details": {"charge_mode": "FREE"}}
WIFI = {"internet_details": {"area": "ENTIRE_PROPERTY", "type": "WIFI"}, "payment_details": {"charge_mode": "FREE"}}


def test_an_edit_of_one_parking_instance_keeps_the_others_and_every_other_facility(platform: Platform) -> None:
    platform.put("PUT", FACILITIES, [{"facility_id": 2, "state": "PRESENT", "instances": [GARAGE, STREET]},
                                     {"facility_id": 47, "state": "PRESENT", "instances": [WIFI]},
                                     {"facility_id": 9111, "state": "PRESENT",
                                      "instances": [{"meal_details": {"price": 12.0}}]}])
    before = {f["facility_id"]: f for f in platform.get(FACILITIES)}
    garage_fee = {"code": 5036, "amount": 25.0, "charge_frequency": 19, "type": "Exclusive", "parking_type": "on_site",
                  "parking_reservation": "needed", "parking_property": "private"}
    result = platform.push(workbook(Fees=[garage_fee]))
    assert result.ok, result.requests
    assert "facility_instance_kept" in set(result.issues["rule"])
    after = {f["facility_id"]: f for f in platform.get(FACILITIES)}
    garage, street = after[2]["instances"]
    assert garage["instance_id"] == before[2]["instances"][0]["instance_id"]
    assert garage["payment_details"]["charge_details"]["price"] == 25.0
    assert street == before[2]["instances"][1]  # the other instance: kept, same id
    assert (after[47], after[9111]) == (before[47], before[9111])  # every other facility: untouched


CHARGES = f"/charges-api/properties/{HOTEL}/charges"


def charge(kind: str, mode: str, value: float) -> dict:
    return {"charge_key": {"type": kind, "guest_origin": "ANY", "travel_purpose": "ANY"},
            "charge_periods": [{"applicable": {"from": "2026-01-01"},
                                "configuration": {"amount": {"mode": mode, "value": value}, "excluded": True}}]}


def test_a_workbook_without_the_fees_sheet_leaves_the_fees_alone(platform: Platform) -> None:
    platform.put("POST", CHARGES, {"property_charges": [charge("VAT", "PERCENTAGE", 6.0),
                                                        charge("CLEANINGFEE", "PER_STAY", 40.0)]})
    before = platform.get(CHARGES)
    nothing = platform.push(workbook(Contacts=[person("general", "Ana Sousa", "ana@x.example")]))
    assert nothing.ok and "charges" not in set(nothing.requests["api"])
    assert platform.get(CHARGES) == before
    taxes = platform.push(workbook(Taxes=[{"code": 36, "percent": 13.0, "type": "Inclusive"}]))
    assert taxes.ok and "charge_kept" in set(taxes.issues["rule"])
    after = {c["charge_key"]["type"]: c for c in platform.get(CHARGES)["property_charges"]}
    assert after["VAT"]["charge_periods"][0]["configuration"]["amount"]["value"] == 13.0
    assert after["CLEANINGFEE"] == before["property_charges"][1]  # the fee: sent back as it was


# --- plan, dry run, push requests -------------------------------------------------------------------------

def test_plan_sends_nothing_and_a_dry_run_folder_goes_through_push_requests(platform: Platform,
                                                                            tmp_path: Path) -> None:
    check = check_content_modular(SAMPLE, today=DAY)
    plan = plan_content_modular(check, platform.settings, journal=platform.journal, today=DAY,
                                client=platform.client, cache=platform.cache)
    assert set(plan.requests["outcome"]) == {"planned"} and len(plan.requests) == 20
    assert [c for c in platform.calls() if not c.endswith((".read", ".meta"))] == []
    folder = tmp_path / "requests"
    written = platform.push(check, dry_run=folder)
    assert written.dry_run == folder and len(list(folder.glob("*.json"))) == 20
    manifest = pd.read_csv(folder / "manifest.csv", dtype=str)
    assert set(manifest["kind"]) == {"modular"} and manifest["path"].str.contains("{property_id}", regex=False).sum() == 11
    result = send_modular_folder(read_requests(folder), platform.settings, platform.journal, client=platform.client)
    assert result.ok, result.requests[["property", "api", "outcome", "texts"]]
    assert len(result.created) == 4 and platform.calls("POST").count("property.create") == 4
    again = send_modular_folder(read_requests(folder), platform.settings, platform.journal, client=platform.client)
    assert again.ok and len(again.requests) == 0 and len(again.unchanged) == 20  # sent again: nothing to send
    assert platform.calls("POST").count("property.create") == 4


def test_before_the_sunset_an_overlay_of_a_property_changed_through_the_modular_apis_is_refused(
        tmp_path: Path) -> None:
    import warnings

    from workbench.flows.content_push import push_content

    before = dt.date(2026, 12, 1)
    platform = Platform(tmp_path, today=before)
    try:
        check = check_content_modular(SAMPLE, today=before)
        assert platform.push(check).ok
        ota = check_content(SAMPLE, today=before)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the sunset notice
            refused = push_content(ota, platform.settings, journal=platform.journal, today=before,
                                   client=platform.client)
            forced = push_content(ota, platform.settings, journal=platform.journal, today=before,
                                  client=platform.client, replace=True)
        assert list(refused.results["outcome"]) == ["not sent"] * 5  # no New either: the journal knows them
        assert set(refused.plan.issues["rule"]) == {"modular_overlay_refused"}
        assert forced.ok and set(forced.results["notif_type"]) == {"Overlay"}
        assert platform.calls().count("OTA_HotelDescriptiveContentNotif") == 5  # the forced ones only
    finally:
        platform.close()


def test_each_error_the_platform_answers_lands_on_the_analysts_cell(platform: Platform) -> None:
    import json

    from workbench.sandbox.platform.calls import Reply

    async def refuse(sb: Any, call: Any) -> Any:
        body = {"data": None, "warnings": [], "errors": [{"message": "Invalid value", "code": "320",
                                                          "description": "the mailbox does not exist",
                                                          "details": {"fields": ["contacts[1].email"]}}],
                "meta": {"ruid": "r-320"}}
        return Reply(400, json.dumps(body).encode(), "errors")

    platform.sb.sandbox.handlers["contacts.write"] = refuse
    people = [person("general", "Ana Sousa", "ana@x.example"), person("invoices", "Rui Lopes", "rui@nowhere.example")]
    result = platform.push(workbook(Contacts=people))
    assert not result.ok and list(result.requests["outcome"]) == ["rejected"]
    (found,) = result.issues[result.issues["rule"] == "platform_invalid_value"].to_dict("records")
    assert (found["sheet"], found["row"], found["column"]) == ("Contacts", 3, "Email")
    assert "the mailbox does not exist" in found["message"] and "correct this cell" in found["message"]
    cell = result.rows[(result.rows["row"] == 3) & (result.rows["column"] == "Email")]
    assert list(cell["severity"]) == ["error"] and list(cell["codes"]) == ["platform_invalid_value"]
