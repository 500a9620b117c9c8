"""OTA_HotelInvNotif rules of the sandbox (E1), in-process: every rule answered as an Error
(request rejected, nothing stored changes) or a Warning (applied), and the Overlay semantics."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.ota.response import parse_response
from workbench.sandbox import SandboxConfig
from workbench.sandbox.platform.room_codes import default_room_codes
from workbench.sandbox.platform.room_state import Amenity
from workbench.sandbox.platform.rooms_rules import merge_amenities
from workbench.sandbox.testing import InProcess, inv_notif_request, product

TODAY = dt.date(2026, 12, 1)
OCC = {"MaxOccupancy": 3, "MaxAdultOccupancy": 2, "MaxChildOccupancy": 1}


@pytest.fixture(scope="module")
def sb():
    box = InProcess(SandboxConfig(today=TODAY, password="pw"))
    yield box
    box.close()


def state(sb):
    return sb.table("rooms"), sb.table("subrooms"), sb.table("amenities")


def amenities_of(sb, hotel, inv, sub_room=""):
    return [(a["AmenityCode"], a["Quantity"], a["Configuration"]) for a in sb.table("amenities")
            if a["HotelCode"] == str(hotel) and a["InvCode"] == inv and a["SubRoom"] == sub_room]


def room_row(sb, hotel, inv):
    return next(r for r in sb.table("rooms") if r["HotelCode"] == str(hotel) and r["InvCode"] == inv)


def new_room(**kw):
    base = {"room": {"RoomID": 77, "RoomType": "9"}, "name": "New Double", "occupancy": OCC}
    return product("New", **{**base, **kw})


def bed(code, n=1, conf=None):
    return {"AmenityCode": code, "Value": n, "Configuration": conf}


def sub_bedroom(*beds, **attrs):
    return {"attrs": {"RoomType": "Bedroom", "MaxGuests": 2, **attrs}, "amenities": list(beds)}


BAD = [
    ("occupancy total", 1000001, [product("Overlay", 101, occupancy={**OCC, "MaxOccupancy": 4})], "OCCUPANCY_TOTAL"),
    ("occupancy total on New", 1000001, [new_room(occupancy={"MaxOccupancy": 6, "MaxAdultOccupancy": 2,
                                                             "MaxChildOccupancy": 1})], "OCCUPANCY_TOTAL"),
    ("children not below total", 1000001, [product("Overlay", 101, occupancy={**OCC, "MaxChildOccupancy": 3})],
     "OCCUPANCY_CHILDREN"),
    ("child payable missing", 1000001, [product("Overlay", 101, tpa_occupancy={})], "CHILD_PAYABLE"),
    ("child payable above children", 1000001, [product("Overlay", 101, child_payable=2)], "CHILD_PAYABLE"),
    ("New without Room", 1000001, [product("New", name="x", occupancy=OCC)], "ROOM_TYPE_REQUIRED"),
    ("New without RoomType", 1000001, [new_room(room={"RoomID": 5})], "ROOM_TYPE_REQUIRED"),
    ("Overlay without InvCode", 1000001, [product("Overlay", None, name="x")], "INV_CODE_REQUIRED"),
    ("Overlay of an unknown room", 1000001, [product("Overlay", 401, name="x")], "UNKNOWN_INV_CODE"),
    ("sub-rooms on a Double", 1000001, [product("Overlay", 101, sub_rooms=[sub_bedroom()])], "SUBROOMS_NOT_ALLOWED"),
    ("sub-rooms on a New Twin", 1000001, [new_room(room={"RoomType": "Twin"}, sub_rooms=[sub_bedroom()])],
     "SUBROOMS_NOT_ALLOWED"),
    ("Number on a Bedroom", 1000004, [product("Overlay", 402, sub_rooms=[sub_bedroom(bed("58"), Number=1)])],
     "NUMBER_NOT_ALLOWED"),
    ("non-bed in a sub-room", 1000004, [product("Overlay", 402, sub_rooms=[sub_bedroom(bed("2"))])],
     "SUBROOM_AMENITY_NOT_BED"),
    ("bed in a multi-bedroom room's own amenities", 1000004, [product("Overlay", 402, amenities=[bed("33")])],
     "BEDS_UNDER_SUBROOMS"),
    ("beds beside new sub-rooms", 1000001, [product("Overlay", 102, sub_rooms=[sub_bedroom(bed("58"))])],
     "BEDS_UNDER_SUBROOMS"),
    ("Configuration on a non-bed", 1000001, [product("Overlay", 101, amenities=[bed("2", 1, 1)])],
     "CONFIGURATION_NOT_ALLOWED"),
    ("Configuration in a sub-room", 1000004, [product("Overlay", 402, sub_rooms=[sub_bedroom(bed("58", 1, 1))])],
     "CONFIGURATION_NOT_ALLOWED"),
    ("codes differ", 1000001, [product("Overlay", 101, amenities=[{"RoomAmenityCode": "2", "AmenityCode": "3"}])],
     "AMENITY_CODE_MISMATCH"),
    ("no code", 1000001, [product("Overlay", 101, amenities=[{"Value": 1}])], "AMENITY_CODE_REQUIRED"),
    ("Value and Quantity differ", 1000001, [product("Overlay", 101, amenities=[{"AmenityCode": "33", "Value": 1,
                                                                               "Quantity": 2}])],
     "AMENITY_VALUE_MISMATCH"),
    ("same amenity twice", 1000001, [product("Overlay", 101, amenities=[bed("2"), bed("2")])], "DUPLICATE_AMENITY"),
    ("cribs above additional guests", 1000001, [product("Overlay", 101, quantities={
        "MaximumAdditionalGuests": 1, "MaxCribs": 2, "MaxRollaways": 0})], "CRIB_EXTRA_BED"),
    ("extra beds above additional guests", 1000001, [product("Overlay", 101, quantities={
        "MaximumAdditionalGuests": 0, "MaxRollaways": 1})], "CRIB_EXTRA_BED"),
    ("occupancy not a number", 1000001, [product("Overlay", 101, occupancy={**OCC, "MaxOccupancy": "three"})],
     "INVALID_VALUE"),
    ("negative Value", 1000001, [product("Overlay", 101, amenities=[bed("2", -1)])], "INVALID_VALUE"),
    ("NonSmoking 3", 1000001, [product("Overlay", 101, room={"NonSmoking": 3})], "INVALID_VALUE"),
    ("size unit m2", 1000001, [product("Overlay", 101, room={"SizeMeasurement": 20, "SizeMeasurementUnit": "m2"})],
     "INVALID_VALUE"),
    ("Configuration 3", 1000001, [product("Overlay", 101, amenities=[bed("33", 1, 3)])], "INVALID_VALUE"),
    ("sub-room kind Kitchen", 1000004, [product("Overlay", 402, sub_rooms=[{"attrs": {"RoomType": "Kitchen"}}])],
     "INVALID_SUBROOM_TYPE"),
    ("InvNotifType Delete", 1000001, [product("Delete", 101, name="x")], "INVALID_INV_NOTIF_TYPE"),
    ("unknown hotel", 999, [product("Overlay", 101, name="x")], "UNKNOWN_HOTEL"),
    ("no hotel", None, [product("Overlay", 101, name="x")], "MISSING_HOTEL_CODE"),
    ("one bad product rejects the good one too", 1000001,
     [product("Overlay", 101, name="Renamed"), new_room(), product("Overlay", 102, occupancy={**OCC, "MaxOccupancy": 9})],
     "OCCUPANCY_TOTAL"),
]


@pytest.mark.parametrize("hotel,products,code", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
@pytest.mark.parametrize("namespace", [True, False], ids=["ns", "no-ns"])
def test_bad_requests_are_rejected_and_change_nothing(sb, hotel, products, code, namespace):
    before = state(sb)
    r = sb.inv_notif(inv_notif_request(hotel, products, namespace=namespace))
    parsed = parse_response(r.content)
    assert r.status_code == 200 and not parsed.success and code in parsed.error_codes and parsed.ruid
    assert not parsed.warnings
    assert state(sb) == before


@pytest.mark.parametrize("body,code", [
    (b'<OTA_HotelInvNotifRQ Version="1.0"><SellableProducts HotelCode="1000001"><SellableProduct '
     b'InvNotifType="Overlay" InvCode="101"/></SellableProducts></OTA_HotelInvNotifRQ>', "INVALID_REQUEST"),
    (b'<OTA_HotelInvNotifRQ Version="1.0"><SellableProducts HotelCode="1000001"/></OTA_HotelInvNotifRQ>',
     "INVALID_REQUEST"),
    (b'<OTA_HotelRateAmountNotifRQ Version="1.0"/>', "INVALID_REQUEST"),
    (b'<OTA_HotelInvNotifRQ><SellableProducts HotelCode="1000001"/><SellableProducts HotelCode="1000002"/>'
     b'</OTA_HotelInvNotifRQ>', "MULTIPLE_HOTELS"),
])
def test_malformed_requests_name_the_problem(sb, body, code):
    before = state(sb)
    parsed = parse_response(sb.inv_notif(body).content)
    assert parsed.error_codes == (code,) and state(sb) == before


def test_errors_point_at_the_sellable_product(sb):
    r = sb.inv_notif(inv_notif_request(1000001, [product("Overlay", 101, name="ok"),
                                                 product("Overlay", 102, child_payable=5)]))
    error = parse_response(r.content).errors[0]
    assert error.record_id == "2" and "hotel_id=1000001" in error.details and "room_id=102" in error.details


WARN = [
    ("unknown amenity code", 1000001, [product("Overlay", 101, amenities=[bed("2"), bed("123"), bed("50"),
                                                                          bed("99999")])], "UNKNOWN_AMENITY"),
    ("Apartment without kitchen (code)", 1000001, [new_room(room={"RoomType": "1"})], "NOT_BOOKABLE_NO_KITCHEN"),
    ("Apartment without kitchen (name)", 1000001, [new_room(room={"RoomType": "Apartment"})],
     "NOT_BOOKABLE_NO_KITCHEN"),
    ("Villa without kitchen", 1000001, [new_room(room={"RoomType": "31"})], "KITCHEN_RECOMMENDED"),
    ("InvCode on New", 1000001, [new_room(InvCode="55")], "INV_CODE_IGNORED"),
]


@pytest.mark.parametrize("hotel,products,code", [w[1:] for w in WARN], ids=[w[0] for w in WARN])
def test_warnings_accompany_success_and_are_applied(hotel, products, code):
    box = InProcess(SandboxConfig(today=TODAY, password="pw"))
    try:
        before = box.table("rooms")
        parsed = parse_response(box.inv_notif(inv_notif_request(hotel, products)).content)
        assert parsed.success and code in parsed.warning_codes and not parsed.errors
        assert box.table("rooms") != before or code == "UNKNOWN_AMENITY"
        if code == "UNKNOWN_AMENITY":
            assert ("99999", "1", "") in amenities_of(box, 1000001, "101")
    finally:
        box.close()


def test_kitchen_silences_the_apartment_warning(sb):
    body = inv_notif_request(1000001, [new_room(room={"RoomType": "1"}, amenities=[bed("61")])])
    parsed = parse_response(sb.inv_notif(body).content)
    assert parsed.success and not parsed.warnings


# --- overlay semantics ------------------------------------------------------------------------

@pytest.fixture
def fresh():
    box = InProcess(SandboxConfig(today=TODAY, password="pw"))
    yield box
    box.close()


def overlay(box, hotel, inv, **parts):
    parsed = parse_response(box.inv_notif(inv_notif_request(hotel, [product("Overlay", inv, **parts)])).content)
    assert parsed.success, parsed.errors
    return parsed


def test_bed_only_overlay_replaces_beds_and_keeps_other_amenities(fresh):
    overlay(fresh, 1000001, "101", amenities=[bed("58", 1)])
    assert amenities_of(fresh, 1000001, "101") == [("2", "", ""), ("123", "", ""), ("50", "", ""), ("58", "1", "")]


def test_non_bed_only_overlay_replaces_non_beds_and_keeps_beds(fresh):
    overlay(fresh, 1000001, "101", amenities=[{"RoomAmenityCode": "92"}])
    assert amenities_of(fresh, 1000001, "101") == [("33", "1", "1"), ("113", "2", "2"), ("92", "", "")]


def test_mixed_overlay_replaces_all_amenities(fresh):
    overlay(fresh, 1000001, "101", amenities=[bed("86"), {"AmenityCode": "2"}])
    assert amenities_of(fresh, 1000001, "101") == [("2", "", ""), ("86", "1", "")]


@pytest.mark.parametrize("removals,left", [
    ([bed("123", 0)], [("33", "1", "1"), ("113", "2", "2"), ("2", "", ""), ("50", "", "")]),
    ([bed("113", 0)], [("33", "1", "1"), ("2", "", ""), ("123", "", ""), ("50", "", "")]),
    ([bed("113", 0, 2), {"AmenityCode": "50", "Quantity": 0}], [("33", "1", "1"), ("2", "", ""), ("123", "", "")]),
    ([bed("113", 0, 1)], [("33", "1", "1"), ("113", "2", "2"), ("2", "", ""), ("123", "", ""), ("50", "", "")]),
])
def test_value_zero_removes_only_that_amenity(fresh, removals, left):
    before = fresh.table("rooms"), fresh.table("subrooms")
    overlay(fresh, 1000001, "101", amenities=removals)
    assert amenities_of(fresh, 1000001, "101") == left
    assert (fresh.table("rooms"), fresh.table("subrooms")) == before


def test_value_zero_next_to_additions_removes_within_the_replaced_kind(fresh):
    overlay(fresh, 1000001, "101", amenities=[bed("2"), bed("123", 0), bed("50")])
    assert amenities_of(fresh, 1000001, "101") == [("33", "1", "1"), ("113", "2", "2"), ("2", "1", ""), ("50", "1", "")]


def test_parts_absent_from_an_overlay_are_kept(fresh):
    before = {k: fresh.table(k) for k in ("rooms", "subrooms", "amenities")}
    overlay(fresh, 1000004, "402", occupancy={"MaxOccupancy": 4, "MaxAdultOccupancy": 4, "MaxChildOccupancy": 2})
    after = {k: fresh.table(k) for k in ("rooms", "subrooms", "amenities")}
    assert after["subrooms"] == before["subrooms"] and after["amenities"] == before["amenities"]
    changed = [(b, a) for b, a in zip(before["rooms"], after["rooms"], strict=True) if a != b]
    assert len(changed) == 1
    b, a = changed[0]
    assert {k for k in a if a[k] != b[k]} == {"MaxOccupancy"} and a["MaxOccupancy"] == "4"


def test_a_present_part_replaces_the_stored_part(fresh):
    overlay(fresh, 1000001, "101", room={"NonSmoking": 0}, quantities={"MaximumAdditionalGuests": 2})
    row = room_row(fresh, 1000001, "101")
    assert row["NonSmoking"] == "0" and row["RoomType"] == "9"  # RoomType is kept
    assert row["RoomID"] == row["SizeMeasurement"] == row["Quantity"] == ""  # the Room part was replaced
    assert (row["MaximumAdditionalGuests"], row["MaxCribs"], row["MaxRollaways"]) == ("2", "", "")
    overlay(fresh, 1000001, "101", name="Double Room Deluxe")
    assert room_row(fresh, 1000001, "101")["RoomTypeName"] == "Double Room Deluxe"


def test_sub_rooms_are_replaced_as_a_whole(fresh):
    overlay(fresh, 1000004, "402", sub_rooms=[sub_bedroom(bed("86"), PrivateBathroom=1),
                                              {"attrs": {"RoomType": "bathroom", "Number": 1}}])
    assert [(s["SubRoom"], s["RoomType"], s["Number"]) for s in fresh.table("subrooms")] == [
        ("1", "Bedroom", ""), ("2", "Bathroom", "1")]
    assert amenities_of(fresh, 1000004, "402", "1") == [("86", "1", "")]
    assert amenities_of(fresh, 1000004, "402", "2") == []
    assert [a[0] for a in amenities_of(fresh, 1000004, "402")] == ["59", "2", "123"]


def test_several_products_in_one_request_apply_in_order(fresh):
    body = inv_notif_request(1000001, [product("Overlay", 101, name="First"), product("Overlay", 101, name="Second"),
                                       product("Overlay", 102, child_payable=2)])
    assert parse_response(fresh.inv_notif(body).content).success
    assert room_row(fresh, 1000001, "101")["RoomTypeName"] == "Second"
    assert room_row(fresh, 1000001, "102")["MaxChildPayableOccupancy"] == "2"


BED_CODES = sorted(default_room_codes().bed_types)
OTHER_CODES = ["2", "13", "50", "59", "92", "123"]
amenity = st.builds(Amenity, st.sampled_from(BED_CODES + OTHER_CODES), st.integers(0, 3),
                    st.sampled_from([None, 1, 2]))


@given(st.lists(amenity, max_size=8, unique_by=lambda a: (a.code, a.configuration)),
       st.lists(amenity, min_size=1, max_size=6, unique_by=lambda a: (a.code, a.configuration)))
def test_merge_never_touches_the_kind_a_body_leaves_out(stored, body):
    codes = default_room_codes()
    stored = [a for a in stored if a.quantity]
    merged = merge_amenities(stored, body, codes)
    kinds = {codes.is_bed(a.code) for a in body}
    adds = [a for a in body if a.quantity]
    for kind in (True, False):
        if kind not in kinds:
            assert [a for a in merged if codes.is_bed(a.code) == kind] == [
                a for a in stored if codes.is_bed(a.code) == kind]
    if adds:  # the kinds the body touches become exactly what it sends (Value=0 ones removed)
        touched = sorted((a.code, a.configuration or 0) for a in merged if codes.is_bed(a.code) in kinds)
        assert touched == sorted((a.code, a.configuration or 0) for a in adds)
    else:  # removals only: exactly the removed ones go
        assert all(a in stored for a in merged)
        assert not any(a.code == r.code and r.configuration in (None, a.configuration) for a in merged for r in body)


def test_the_tutorial_form_without_inv_notif_type(fresh):
    """InvStatusType="Initial" and no InvNotifType creates; an InvCode without InvNotifType overlays."""
    body = inv_notif_request(1000002, [product(None, room={"RoomType": "Double", "RoomID": 9}, name="Tutorial",
                                               InvStatusType="Initial"),
                                       product(None, 201, name="Renamed")])
    r = fresh.inv_notif(body)
    assert parse_response(r.content).success and b'RequestInvCode="9"' in r.content
    assert room_row(fresh, 1000002, "201")["RoomTypeName"] == "Renamed"
    assert [x["RoomTypeName"] for x in fresh.table("rooms") if x["HotelCode"] == "1000002"][-1] == "Tutorial"
