"""The sandbox answers room reads as the platform publishes them (no Success, the published GuestRoom, nothing
only the sandbox knows), deactivates and reactivates room types through OTA_HotelInvNotif's InvStatusType, and
keeps a bed stored in both arrangements as two facts."""

from __future__ import annotations

import datetime as dt

import pytest
from lxml import etree

from workbench.ota.ns import OTA_NS
from workbench.ota.response import parse_response
from workbench.sandbox import SandboxConfig
from workbench.sandbox.testing import InProcess, inv_notif_request, product

TODAY = dt.date(2026, 12, 1)
NS = {"o": OTA_NS}
GUEST_ROOM_ATTRIBUTES = {"ID", "Active", "MaxOccupancy", "RoomTypeName", "NonSmoking"}
GUEST_ROOM_CHILDREN = {"Amenity", "DescriptiveText", "Occupancy", "Quantities", "TPA_Extensions"}


@pytest.fixture
def sb():
    box = InProcess(SandboxConfig(today=TODAY, password="pw"))
    yield box
    box.close()


def answer(box: InProcess, *hotels: int) -> etree._Element:
    body = box.descriptive_info(*hotels).content
    return etree.fromstring(body.split(b"?>", 1)[1].split(b"<!--")[0])


def guest_rooms(box: InProcess, hotel: int) -> dict[str, etree._Element]:
    return {g.get("ID"): g for g in answer(box, hotel).iterfind(".//o:GuestRoom", NS)}


def test_descriptive_info_has_no_success_only_content(sb):
    """Finding 2: the published OTA_HotelDescriptiveInfoRS carries content, no <Success/>."""
    body = sb.descriptive_info(1000001).content
    root = answer(sb, 1000001)
    assert [etree.QName(c).localname for c in root] == ["HotelDescriptiveContents"]
    parsed = parse_response(body)
    assert not parsed.success and parsed.read_ok() and parsed.ruid and parsed.version == "1.006"


@pytest.mark.parametrize("hotel", [1000001, 1000002, 1000003, 1000004, 1000005])
def test_every_guest_room_has_the_published_shape_and_nothing_only_the_sandbox_knows(sb, hotel):
    """Findings 3 and 4: ID, Active, MaxOccupancy, RoomTypeName (the type), NonSmoking; Amenity directly under
    GuestRoom; DescriptiveText the room's own name; never RoomID, the type code, size, units or sub-rooms."""
    rooms = guest_rooms(sb, hotel)
    assert rooms
    stored = {r["InvCode"]: r for r in sb.table("rooms") if r["HotelCode"] == str(hotel)}
    for inv, gr in rooms.items():
        assert set(gr.attrib) <= GUEST_ROOM_ATTRIBUTES and {"ID", "Active", "RoomTypeName"} <= set(gr.attrib)
        assert {etree.QName(c).localname for c in gr} <= GUEST_ROOM_CHILDREN
        assert gr.find("o:Amenities", NS) is None and gr.find(".//o:SubRooms", NS) is None
        assert [etree.QName(c).localname for c in gr.iterfind("o:TPA_Extensions/*", NS)] in ([], ["Occupancy"])
        for a in gr.iterfind("o:Amenity", NS):
            assert set(a.attrib) <= {"RoomAmenityCode", "Quantity", "Configuration"} and "RoomAmenityCode" in a.attrib
        assert gr.findtext("o:DescriptiveText", namespaces=NS) == stored[inv]["RoomTypeName"]
        assert gr.get("MaxOccupancy") == stored[inv]["MaxOccupancy"]
        assert gr.get("RoomTypeName") != stored[inv]["RoomTypeName"]  # the type, not the name
        text = etree.tostring(gr).decode()
        for sandbox_only in ("RoomID", "SizeMeasurement", f'"{stored[inv]["RoomID"]}"'):
            assert sandbox_only not in text


def test_room_type_name_is_the_type_by_name(sb):
    rooms = guest_rooms(sb, 1000001)
    assert (rooms["101"].get("RoomTypeName"), rooms["101"].findtext("o:DescriptiveText", namespaces=NS)) == (
        "Double", "Standard Double Room")
    assert rooms["102"].get("RoomTypeName") == "Suite"


def _active(box: InProcess, hotel: int, inv: str) -> str:
    return next(r["Active"] for r in box.table("rooms") if r["HotelCode"] == str(hotel) and r["InvCode"] == inv)


@pytest.mark.parametrize("with_guest_room", [True, False], ids=["empty GuestRoom", "no GuestRoom"])
def test_inv_status_type_deactivates_and_reactivates(sb, with_guest_room):
    """Finding 9: SellableProduct@InvStatusType="Deactivated" takes the room type out of the read (it stays
    stored), "Active" brings it back; nothing else of it changes."""
    def status(value: str) -> bytes:
        body = inv_notif_request(1000001, [product("Overlay", 102, InvStatusType=value)])
        if not with_guest_room:
            root = etree.fromstring(body)
            for g in root.iter(f"{{{OTA_NS}}}GuestRoom"):
                g.getparent().remove(g)
            body = etree.tostring(root)
        return body

    before = {k: sb.table(k) for k in ("rooms", "subrooms", "amenities")}
    assert parse_response(sb.inv_notif(status("Deactivated")).content).success
    assert "102" not in guest_rooms(sb, 1000001) and _active(sb, 1000001, "102") == "0"
    assert sb.table("amenities") == before["amenities"] and sb.table("subrooms") == before["subrooms"]
    assert parse_response(sb.inv_notif(status("Active")).content).success
    assert "102" in guest_rooms(sb, 1000001)
    assert {k: sb.table(k) for k in ("rooms", "subrooms", "amenities")} == before


def test_a_status_change_can_come_with_parts_and_an_inactive_room_can_be_overlaid(sb):
    body = inv_notif_request(1000001, [product("Overlay", 102, name="Old Suite", InvStatusType="Deactivated")])
    assert parse_response(sb.inv_notif(body).content).success
    row = next(r for r in sb.table("rooms") if r["InvCode"] == "102")
    assert (row["Active"], row["RoomTypeName"]) == ("0", "Old Suite")
    body = inv_notif_request(1000001, [product(None, 102, InvStatusType="Active")])  # no InvNotifType: an Overlay
    assert parse_response(sb.inv_notif(body).content).success and _active(sb, 1000001, "102") == "1"


@pytest.mark.parametrize("products,code", [
    ([product("Overlay", 102, InvStatusType="Closed")], "INVALID_VALUE"),
    ([product("New", room={"RoomType": "9"}, InvStatusType="Deactivated")], "INVALID_VALUE"),
    ([product("Overlay", 999, InvStatusType="Deactivated")], "UNKNOWN_INV_CODE"),
], ids=["unknown status", "New deactivated", "unknown room"])
def test_bad_status_changes_are_refused_and_change_nothing(sb, products, code):
    before = sb.table("rooms")
    parsed = parse_response(sb.inv_notif(inv_notif_request(1000001, products)).content)
    assert code in parsed.error_codes and sb.table("rooms") == before


def test_the_same_bed_in_both_arrangements_is_two_stored_facts(sb):
    """Finding 5: the seeded suite 102 holds sofa bed 102 in arrangement 1 and 2; a bed-only Overlay that changes
    the one in arrangement 1 keeps the other, and the double bed 33 of arrangement 2."""
    def beds():
        return sorted((a["AmenityCode"], a["Quantity"], a["Configuration"]) for a in sb.table("amenities")
                      if a["InvCode"] == "102" and a["AmenityCode"] in {"33", "58", "102"})
    assert beds() == [("102", "1", "1"), ("102", "1", "2"), ("33", "1", "2"), ("58", "1", "1")]
    body = inv_notif_request(1000001, [product("Overlay", 102, amenities=[
        {"AmenityCode": "58", "Value": 1, "Configuration": 1}, {"AmenityCode": "102", "Value": 2, "Configuration": 1},
        {"AmenityCode": "33", "Value": 1, "Configuration": 2}, {"AmenityCode": "102", "Value": 1, "Configuration": 2}])])
    assert parse_response(sb.inv_notif(body).content).success
    assert beds() == [("102", "1", "2"), ("102", "2", "1"), ("33", "1", "2"), ("58", "1", "1")]
    read = [(a.get("RoomAmenityCode"), a.get("Configuration")) for a in
            guest_rooms(sb, 1000001)["102"].iterfind("o:Amenity", NS) if a.get("RoomAmenityCode") == "102"]
    assert sorted(read) == [("102", "1"), ("102", "2")]
