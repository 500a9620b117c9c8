"""Room types end to end in the sandbox: New -> InventoryCrossRef -> DescriptiveInfo reads it back,
an Overlay built from the read state changes one fact only, inactive room types, 100 per
property, the Home deprecation, the 75/min limit, restarts and migrations, and real HTTPS."""

from __future__ import annotations

import datetime as dt
import sqlite3
import ssl

import httpx
import pytest
from lxml import etree
from typer.testing import CliRunner

from workbench.cli.sandbox import sandbox_app
from workbench.ota.ns import OTA_NS
from workbench.ota.response import parse_response
from workbench.sandbox import SandboxConfig
from workbench.sandbox.platform.families.rooms import deprecation
from workbench.sandbox.platform.room_codes import load_room_codes
from workbench.sandbox.platform.rooms_rules import MAX_ROOM_TYPES
from workbench.sandbox.platform.server import run_sandbox
from workbench.sandbox.testing import (
    DESCRIPTIVE_INFO_PATH,
    INV_NOTIF_PATH,
    InProcess,
    descriptive_info_request,
    inv_notif_request,
    product,
)

TODAY = dt.date(2026, 12, 1)
NS = {"o": OTA_NS}
FULL = product("New", room={"RoomID": 4711, "RoomType": "Apartment", "SizeMeasurement": 80,
                            "SizeMeasurementUnit": "sqm", "NonSmoking": 1, "Quantity": 3},
               name="Garden Apartment", occupancy={"MaxOccupancy": 6, "MaxAdultOccupancy": 4, "MaxChildOccupancy": 3},
               quantities={"MaximumAdditionalGuests": 1, "MaxCribs": 1, "MaxRollaways": 1},
               amenities=[{"AmenityCode": "59", "Value": 1}, {"RoomAmenityCode": "2"}], child_payable=2,
               sub_rooms=[{"attrs": {"RoomType": "Bedroom", "MaxGuests": 2, "PrivateBathroom": 1},
                           "amenities": [{"AmenityCode": "58", "Value": 1}]},
                          {"attrs": {"RoomType": "Bedroom", "MaxGuests": 2, "PrivateBathroom": 0},
                           "amenities": [{"AmenityCode": "113", "Value": 2}]},
                          {"attrs": {"RoomType": "Living room", "MaxGuests": 2, "Number": 1},
                           "amenities": [{"AmenityCode": "102", "Quantity": 1}]},
                          {"attrs": {"RoomType": "Bathroom", "Number": 2}}])


@pytest.fixture
def sb():
    box = InProcess(SandboxConfig(today=TODAY, password="pw"))
    yield box
    box.close()


def cross_refs(content: bytes) -> list[tuple[str, str]]:
    root = etree.fromstring(content.split(b"<!--")[0].split(b"?>", 1)[1])
    return [(r.get("RequestInvCode"), r.get("ResponseInvCode")) for r in root.iterfind(".//o:InventoryCrossRef", NS)]


def guest_rooms(content: bytes) -> dict[str, etree._Element]:
    root = etree.fromstring(content.split(b"<!--")[0].split(b"?>", 1)[1])
    return {g.get("ID"): g for g in root.iterfind(".//o:HotelDescriptiveContent/o:FacilityInfo/o:GuestRooms/"
                                                  "o:GuestRoom", NS)}


def as_dict(el: etree._Element) -> dict:
    """A GuestRoom as plain data (what a client would read)."""
    def attrs(e):
        return None if e is None else dict(e.attrib)
    tpa = el.find("o:TPA_Extensions", NS)
    return {
        "attrs": attrs(el), "name": el.findtext("o:DescriptiveText", namespaces=NS),
        "amenities": [attrs(a) for a in el.findall("o:Amenity", NS)],
        "occupancy": attrs(el.find("o:Occupancy", NS)), "quantities": attrs(el.find("o:Quantities", NS)),
        "payable": attrs(tpa.find("o:Occupancy", NS)) if tpa is not None else None,
        "sub_rooms": [(attrs(s), [attrs(a) for a in s.findall("o:Amenity", NS)])
                      for s in (tpa.iterfind("o:SubRooms/o:SubRoom", NS) if tpa is not None else [])],
    }


def test_new_returns_cross_refs_and_reads_back(sb):
    r = sb.inv_notif(inv_notif_request(1000004, [FULL, product("New", room={"RoomType": "9"}, name="Plain Double")]))
    parsed = parse_response(r.content)
    assert parsed.success and parsed.root == "OTA_HotelInvNotifRS" and parsed.ruid and not parsed.warnings
    refs = cross_refs(r.content)
    assert [req for req, _ in refs] == ["4711", "2"]  # RoomID, else the SellableProduct's position
    new_ids = [resp for _, resp in refs]
    assert len(set(new_ids)) == 2 and not {"401", "402"} & set(new_ids)
    rooms = guest_rooms(sb.descriptive_info(1000004).content)
    assert list(rooms) == ["401", "402", *new_ids]
    got = as_dict(rooms[new_ids[0]])
    assert got == {  # the published shape: RoomTypeName is the room type, DescriptiveText the room's name
        "attrs": {"ID": new_ids[0], "Active": "1", "MaxOccupancy": "6", "RoomTypeName": "Apartment",
                  "NonSmoking": "1"},
        "name": "Garden Apartment",
        "amenities": [{"RoomAmenityCode": "59", "Quantity": "1"}, {"RoomAmenityCode": "2"}],
        "occupancy": {"MaxOccupancy": "6", "MaxAdultOccupancy": "4", "MaxChildOccupancy": "3"},
        "quantities": {"MaximumAdditionalGuests": "1", "MaxCribs": "1", "MaxRollaways": "1"},
        "payable": {"MaxChildPayableOccupancy": "2"},
        "sub_rooms": [],  # only under /_sandbox/, as RoomID, the room type code, size and units
    }
    (stored,) = [r for r in sb.table("rooms") if r["InvCode"] == new_ids[0]]
    assert (stored["RoomID"], stored["RoomType"], stored["Quantity"], stored["SizeMeasurement"],
            stored["SizeMeasurementUnit"]) == ("4711", "Apartment", "3", "80", "sqm")
    assert [(s["RoomType"], s["MaxGuests"], s["Number"], s["PrivateBathroom"]) for s in sb.table("subrooms")
            if s["InvCode"] == new_ids[0]] == [("Bedroom", "2", "", "1"), ("Bedroom", "2", "", "0"),
                                               ("Living room", "2", "1", ""), ("Bathroom", "", "2", "")]
    assert [(a["SubRoom"], a["AmenityCode"], a["Quantity"]) for a in sb.table("amenities")
            if a["InvCode"] == new_ids[0] and a["SubRoom"]] == [("1", "58", "1"), ("2", "113", "2"), ("3", "102", "1")]
    plain = as_dict(rooms[new_ids[1]])
    assert plain["attrs"] == {"ID": new_ids[1], "Active": "1", "RoomTypeName": "Double", "NonSmoking": "Unknown"}
    assert plain["amenities"] == [] and plain["sub_rooms"] == [] and plain["name"] == "Plain Double"
    assert plain["occupancy"] is plain["quantities"] is plain["payable"] is None


def test_overlay_of_one_amenity_from_the_read_state_changes_only_that_fact(sb):
    """What the client's merge does: read, change one bed count, send the beds back."""
    before = {k: sb.table(k) for k in ("rooms", "subrooms", "amenities")}
    room = guest_rooms(sb.descriptive_info(1000001).content)["101"]
    beds = []
    for a in room.findall("o:Amenity", NS):
        if a.get("RoomAmenityCode") in ("33", "113"):
            beds.append({"AmenityCode": a.get("RoomAmenityCode"), "Value": a.get("Quantity"),
                         "Configuration": a.get("Configuration")})
    beds[1]["Value"] = "3"  # 113 twin beds: 2 -> 3
    parsed = parse_response(sb.inv_notif(inv_notif_request(1000001, [product("Overlay", 101, amenities=beds)])).content)
    assert parsed.success
    after = {k: sb.table(k) for k in ("rooms", "subrooms", "amenities")}
    assert after["rooms"] == before["rooms"] and after["subrooms"] == before["subrooms"]
    diff = [(b, a) for b, a in zip(before["amenities"], after["amenities"], strict=True) if a != b]
    assert diff == [({"HotelCode": "1000001", "InvCode": "101", "SubRoom": "", "AmenityCode": "113", "Quantity": "2",
                      "Configuration": "2"},
                     {"HotelCode": "1000001", "InvCode": "101", "SubRoom": "", "AmenityCode": "113", "Quantity": "3",
                      "Configuration": "2"})]


def test_seeded_apartment_has_sub_rooms_and_beds_only_there(sb):
    apartment = as_dict(guest_rooms(sb.descriptive_info(1000004, namespace=False).content)["402"])
    assert {a["RoomAmenityCode"] for a in apartment["amenities"]} == {"59", "2", "123"}
    assert apartment["sub_rooms"] == []  # the read does not carry them
    assert [s["RoomType"] for s in sb.table("subrooms") if s["InvCode"] == "402"] == [
        "Bedroom", "Bedroom", "Living room", "Bathroom"]
    assert {a["SubRoom"] for a in sb.table("amenities") if a["InvCode"] == "402" and a["AmenityCode"] in
            {"58", "113", "102"}} == {"1", "2", "3"}


def test_inactive_room_types_are_not_listed_but_stay_stored(sb):
    assert sb.sandbox.room_types.set_active(1000001, "102", False)
    r = sb.request("POST", "/_sandbox/rooms/1000004/401/active", b"0")
    assert r.status_code == 200 and r.json()["active"] is False
    assert sb.request("POST", "/_sandbox/rooms/1000004/999/active", b"0").status_code == 404
    assert sb.request("POST", "/_sandbox/rooms/1000004/401/active", b"no").status_code == 400
    assert list(guest_rooms(sb.descriptive_info(1000001, 1000004).content)) == ["101", "402"]
    assert {(r["InvCode"], r["Active"]) for r in sb.table("rooms")} >= {("102", "0"), ("401", "0")}
    assert parse_response(sb.inv_notif(inv_notif_request(1000001, [product("Overlay", 102, name="Old")])).content).success
    sb.sandbox.room_types.set_active(1000001, "102", True)
    assert "102" in guest_rooms(sb.descriptive_info(1000001).content)


@pytest.mark.parametrize("body,code", [
    (descriptive_info_request(4242), "UNKNOWN_HOTEL"),
    (b'<OTA_HotelDescriptiveInfoRQ Version="1.0"><HotelDescriptiveInfos><HotelDescriptiveInfo/>'
     b"</HotelDescriptiveInfos></OTA_HotelDescriptiveInfoRQ>", "MISSING_HOTEL_CODE"),
    (b'<OTA_HotelDescriptiveInfoRQ Version="1.0"/>', "INVALID_REQUEST"),
    (b"<Other/>", "INVALID_REQUEST"),
])
def test_descriptive_info_errors(sb, body, code):
    parsed = parse_response(sb.post(DESCRIPTIVE_INFO_PATH, body).content)
    assert parsed.error_codes == (code,) and parsed.version == "1.006"


def test_at_most_100_room_types_per_property(sb):
    news = [product("New", room={"RoomType": "9", "RoomID": n}, name=f"Room {n}") for n in range(MAX_ROOM_TYPES)]
    too_many = parse_response(sb.inv_notif(inv_notif_request(1000005, news)).content)  # 1 stored + 100
    assert too_many.error_codes == ("TOO_MANY_ROOM_TYPES",) and too_many.errors[0].record_id == "100"
    assert len(sb.table("rooms")) == 9
    r = sb.inv_notif(inv_notif_request(1000005, news[:-1]))
    assert parse_response(r.content).success and len(cross_refs(r.content)) == 99
    assert len({resp for _, resp in cross_refs(r.content)}) == 99
    before = sb.table("rooms")
    again = parse_response(sb.inv_notif(inv_notif_request(1000005, [news[0]])).content)
    assert again.error_codes == ("TOO_MANY_ROOM_TYPES",) and sb.table("rooms") == before
    assert parse_response(sb.inv_notif(inv_notif_request(1000005, [product("Overlay", 501, name="S")])).content).success


@pytest.mark.parametrize("provider,today,outcome", [
    ("Home", dt.date(2026, 12, 1), "warning"),
    ("home", dt.date(2026, 12, 30), "warning"),
    ("Home", dt.date(2026, 12, 31), "error"),
    ("Home", dt.date(2027, 3, 1), "error"),
    ("Hotel", dt.date(2027, 3, 1), "none"),
])
def test_deprecation_for_the_home_provider_type(provider, today, outcome):
    box = InProcess(SandboxConfig(today=today, password="pw", provider_type=provider))
    try:
        before = box.table("rooms")
        parsed = parse_response(box.inv_notif(inv_notif_request(1000001, [product("Overlay", 101, name="X")])).content)
        if outcome == "error":
            assert parsed.error_codes == ("DEPRECATED_OPERATION",) and box.table("rooms") == before
        else:
            assert parsed.success and room_name(box) == "X"
            assert parsed.warning_codes == (("DEPRECATED_OPERATION",) if outcome == "warning" else ())
        assert parse_response(box.descriptive_info(1000001).content).read_ok()  # reads are not deprecated
    finally:
        box.close()
    assert deprecation("Home", dt.date(2026, 12, 30))[1] is False and deprecation("Home", dt.date(2026, 12, 31))[1]


def room_name(box):
    return next(r["RoomTypeName"] for r in box.table("rooms") if r["InvCode"] == "101")


def test_inv_notif_limit_answers_429_scaled_down():
    box = InProcess(SandboxConfig(today=TODAY, password="pw", limits={"OTA_HotelInvNotif": 3,
                                                                      "OTA_HotelDescriptiveInfo": 4}, limit_window=30))
    try:
        body = inv_notif_request(1000001, [product("Overlay", 101, name="Y")])
        answers = [box.inv_notif(body) for _ in range(5)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
        assert 1 <= int(answers[3].headers["retry-after"]) <= 30 and parse_response(answers[4].content).ruid
        reads = [box.descriptive_info(1000001).status_code for _ in range(5)]
        assert reads == [200, 200, 200, 200, 429]  # its own budget
    finally:
        box.close()


def test_new_room_types_survive_a_restart_and_ids_are_not_reused(tmp_path):
    config = SandboxConfig(state_dir=tmp_path, today=TODAY)
    first = InProcess(config)
    created = cross_refs(first.inv_notif(inv_notif_request(1000002, [product("New", room={"RoomType": "9"})])).content)
    first.close()
    second = InProcess(config)
    try:
        assert created[0][1] in guest_rooms(second.descriptive_info(1000002).content)
        again = cross_refs(second.inv_notif(inv_notif_request(1000002, [product("New", room={"RoomType": "9"})])).content)
        assert again[0][1] != created[0][1]
    finally:
        second.close()


def test_an_older_state_without_room_tables_is_migrated(tmp_path):
    config = SandboxConfig(state_dir=tmp_path, today=TODAY)
    InProcess(config).close()
    db = sqlite3.connect(tmp_path / "sandbox.sqlite3")  # make it look like a state from before room types
    db.executescript("DROP TABLE room_types; DROP TABLE room_amenities; DROP TABLE room_sub_rooms; "
                     "DELETE FROM meta WHERE key='rooms_seeded'; "
                     "INSERT INTO rates VALUES (1000001,'101','5001','2027-01-01',0,'99','EUR','AfterTax','r','t');")
    db.commit()
    db.close()
    box = InProcess(config)
    try:
        assert len(box.table("rooms")) == 9 and box.rates()[0]["Amount"] == "99"
        assert "402" in guest_rooms(box.descriptive_info(1000004).content)
    finally:
        box.close()


def test_code_lists_prefer_the_project_then_the_reference_then_builtin(tmp_path):
    (tmp_path / "codes").mkdir()
    (tmp_path / "ref").mkdir()
    (tmp_path / "ref" / "booking_bed_types.csv").write_text("code,name,is_bed_type\n33,Double,1\n26,Cribs,0\n")
    (tmp_path / "codes" / "rma.csv").write_text("code,name,is_bed_type\n2,Air conditioning,0\n")
    codes = load_room_codes(tmp_path / "codes", tmp_path / "ref")
    assert codes.bed_types == {"33"} and codes.is_known("2") and codes.is_known("33") and not codes.is_known("9")
    assert codes.room_type_name("31") == "Villa"  # built in
    assert len(codes.sources) == 2
    empty = load_room_codes(tmp_path / "none", tmp_path / "none")
    assert empty.known_amenities is None and empty.is_known("12345") and "4001" in empty.bed_types


def test_provider_type_flag_must_not_be_empty():
    result = CliRunner().invoke(sandbox_app, ["serve", "--provider-type", " "])
    assert result.exit_code == 2 and "--provider-type" in result.output and "Traceback" not in result.output


def test_rooms_over_real_https():
    with run_sandbox(today=TODAY, provider_type="Home") as running:
        with httpx.Client(base_url=running.base_url, verify=ssl.create_default_context(cafile=str(running.tls.ca_bundle)),
                          auth=(running.sandbox.username, running.sandbox.password),
                          headers={"Content-Type": "text/xml"}) as client:
            r = client.post(INV_NOTIF_PATH, content=inv_notif_request(1000003, [FULL], namespace=False))
            parsed = parse_response(r.content)
            assert r.status_code == 200 and parsed.success and parsed.warning_codes == ("DEPRECATED_OPERATION",)
            (request_code, new_id), = cross_refs(r.content)
            assert request_code == "4711"
            read = client.post("/ota/OTA_HotelDescriptiveInfo", content=descriptive_info_request(1000003))
            assert parse_response(read.content).read_ok() and new_id in guest_rooms(read.content)
            rows = client.get(running.rooms_csv_url.removeprefix(running.base_url)).text
            assert f"1000003,{new_id},1,4711,Apartment,Garden Apartment" in rows
            assert "1000003," + new_id in client.get("/_sandbox/amenities.csv").text
