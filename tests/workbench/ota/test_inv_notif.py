"""OTA_HotelInvNotifRQ / OTA_HotelDescriptiveInfo: valid against OTA 2014B (platform extensions removed,
as the reference README says), parts written only when given, removal with Value=0, tolerant reading."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from workbench.ota.descriptive_info import build_descriptive_info_request
from workbench.ota.inv_notif import (
    ACTIVE,
    DEACTIVATED,
    NEW,
    OVERLAY,
    Amenity,
    RoomTypeMessage,
    SubRoom,
    build_inv_notif,
    parse_cross_refs,
    parse_inv_notif_request,
    without_platform_extensions,
)
from workbench.ota.ns import OTA_NS
from workbench.paths import SPEC_REFERENCE

XSD = SPEC_REFERENCE / "ota-xsd" / "OTA2014B"
NS = {"o": OTA_NS}

FULL_NEW = RoomTypeMessage(
    NEW, name="Garden Apartment", occupancy={"MaxOccupancy": 4, "MaxAdultOccupancy": 4, "MaxChildOccupancy": 2},
    child_payable=1, room={"RoomID": "4711", "RoomType": "Apartment", "SizeMeasurement": "80",
                           "SizeMeasurementUnit": "sqm", "NonSmoking": "2", "Quantity": "3"},
    quantities={"MaximumAdditionalGuests": 1, "MaxCribs": 1, "MaxRollaways": 1},
    amenities=(Amenity(59), Amenity(2)),
    subrooms=(SubRoom("Bedroom", 2, None, 1, (Amenity(33, 1),)), SubRoom("Bedroom", 2, None, 0, (Amenity(113, 2),)),
              SubRoom("Bathroom", None, 2), SubRoom("Living room", 1, 1, None, (Amenity(102, 1),))))
OVERLAY_BEDS = RoomTypeMessage(OVERLAY, "101", amenities=(Amenity(86, 1, 1), Amenity(113, 0)))


def _schema(name: str) -> etree.XMLSchema:
    if not (XSD / name).exists():
        pytest.fail(f"the OTA 2014B schema is expected at {XSD / name} (shared/reference beside the repository)")
    return etree.XMLSchema(etree.parse(str(XSD / name)))


@pytest.fixture(scope="module")
def inv_schema() -> etree.XMLSchema:
    return _schema("OTA_HotelInvNotifRQ.xsd")


@pytest.mark.parametrize("message", [FULL_NEW, OVERLAY_BEDS,
                                     RoomTypeMessage(OVERLAY, "7", name="Renamed"),
                                     RoomTypeMessage(NEW, room={"RoomType": "9"})], ids=["new", "overlay", "name", "min"])
def test_requests_validate_against_ota_2014b_without_platform_extensions(inv_schema, message) -> None:
    doc = without_platform_extensions(etree.fromstring(build_inv_notif(1000004, [message])))
    assert inv_schema.validate(doc), inv_schema.error_log.last_error


def test_the_platform_extensions_are_what_ota_2014b_lacks(inv_schema) -> None:
    """Documents the gap: TPA_Extensions and the platform's attributes fail the plain schema,
    and so do the platform's four-digit extended amenity codes (OTA_CodeType allows three digits)."""
    raw = etree.fromstring(build_inv_notif(1, [FULL_NEW]))
    assert not inv_schema.validate(raw)
    extended = without_platform_extensions(etree.fromstring(build_inv_notif(1, [
        RoomTypeMessage(OVERLAY, "7", amenities=(Amenity(4001, 1),))])))
    assert not inv_schema.validate(extended)
    assert "AmenityCode" in str(inv_schema.error_log.last_error) and "4001" in str(inv_schema.error_log.last_error)


def test_descriptive_info_request_validates(inv_schema) -> None:
    schema = _schema("OTA_HotelDescriptiveInfoRQ.xsd")
    assert schema.validate(etree.fromstring(build_descriptive_info_request(1000001))), schema.error_log.last_error


def test_guest_room_children_follow_the_schema_order_with_extensions_last() -> None:
    room = etree.fromstring(build_inv_notif(1, [FULL_NEW])).find(".//o:GuestRoom", NS)
    assert [etree.QName(c).localname for c in room] == ["Quantities", "Occupancy", "Room", "Amenities",
                                                        "Description", "TPA_Extensions"]
    tpa = room.find("o:TPA_Extensions", NS)
    assert tpa.find("o:Occupancy", NS).get("MaxChildPayableOccupancy") == "1"
    subs = tpa.findall("o:SubRooms/o:SubRoom", NS)
    assert [s.get("RoomType") for s in subs] == ["Bedroom", "Bedroom", "Bathroom", "Living room"]
    assert subs[2].get("Number") == "2" and subs[0].find("o:Amenities/o:Amenity", NS).attrib == \
        {"AmenityCode": "33", "Value": "1"}
    assert room.find("o:Description/o:Text", NS).text == "Garden Apartment"


def test_an_overlay_writes_only_its_parts_and_removes_with_value_zero() -> None:
    product = etree.fromstring(build_inv_notif(1, [OVERLAY_BEDS])).find(".//o:SellableProduct", NS)
    assert product.attrib == {"InvNotifType": "Overlay", "InvCode": "101"}
    room = product.find("o:GuestRoom", NS)
    assert [etree.QName(c).localname for c in room] == ["Amenities"]
    assert [a.attrib for a in room.iterfind("o:Amenities/o:Amenity", NS)] == [
        {"AmenityCode": "86", "Value": "1", "Configuration": "1"}, {"AmenityCode": "113", "Value": "0"}]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"notif_type": "Delta"}, "InvNotifType is New or Overlay, not `Delta`"),
    ({"notif_type": OVERLAY}, "an Overlay needs the room type's InvCode"),
    ({"notif_type": NEW, "room": {"RoomID": "5"}}, "a New room type needs Room@RoomType"),
    ({"notif_type": OVERLAY, "inv_code": "7", "status": "Closed"}, "InvStatusType is Initial, Active or Deactivated"),
    ({"notif_type": NEW, "room": {"RoomType": "9"}, "status": DEACTIVATED}, "only an existing room type"),
    ({"notif_type": OVERLAY, "inv_code": "7", "amenities": (Amenity(33, 1, 1), Amenity(33, 2, 1))},
     "amenity 33 with Configuration 1 is given twice"),
    ({"notif_type": OVERLAY, "inv_code": "7", "subrooms": (SubRoom("Bedroom", amenities=(Amenity(58), Amenity(58))),)},
     "amenity 58 is given twice"),
])
def test_impossible_messages_cannot_be_built(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        RoomTypeMessage(**kwargs)


amenities = st.lists(st.builds(Amenity, st.integers(1, 999), st.one_of(st.none(), st.integers(0, 9)),
                               st.one_of(st.none(), st.sampled_from([1, 2]))), max_size=5,
                     unique_by=lambda a: a.key).map(tuple)


@settings(max_examples=60, deadline=None)
@given(name=st.one_of(st.none(), st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), max_size=30)),
       own=st.one_of(st.none(), amenities),
       subs=st.one_of(st.none(), st.lists(st.builds(SubRoom, st.sampled_from(["Bedroom", "Living room", "Bathroom"]),
                                                    st.one_of(st.none(), st.integers(0, 6)),
                                                    st.one_of(st.none(), st.integers(1, 3)),
                                                    st.one_of(st.none(), st.integers(0, 1)), amenities),
                                          max_size=3).map(tuple)),
       payable=st.one_of(st.none(), st.integers(0, 5)))
def test_build_then_parse_is_the_identity(name, own, subs, payable) -> None:
    message = RoomTypeMessage(OVERLAY, "42", name=name, amenities=own or None, subrooms=subs, child_payable=payable)
    hotel, (back,) = parse_inv_notif_request(build_inv_notif(7, [message]))
    assert hotel == "7" and back == message


def test_the_same_bed_in_both_configurations_is_two_amenities() -> None:
    """Finding 5: (code, Configuration) identifies an amenity; both arrangements of bed 33 are written."""
    message = RoomTypeMessage(OVERLAY, "101", amenities=(Amenity(33, 1, 1), Amenity(33, 1, 2), Amenity(102, 2, 1)))
    room = etree.fromstring(build_inv_notif(1, [message])).find(".//o:GuestRoom", NS)
    assert [a.attrib for a in room.iterfind("o:Amenities/o:Amenity", NS)] == [
        {"AmenityCode": "33", "Value": "1", "Configuration": "1"}, {"AmenityCode": "33", "Value": "1",
                                                                    "Configuration": "2"},
        {"AmenityCode": "102", "Value": "2", "Configuration": "1"}]


@pytest.mark.parametrize("status", [DEACTIVATED, ACTIVE])
def test_deactivation_and_reactivation_are_sellable_product_status(inv_schema, status) -> None:
    """Finding 9: SellableProduct@InvStatusType (OTA SellableProductsType: Initial, Active, Deactivated), valid
    against OTA 2014B with an empty GuestRoom (E1: GuestRoom is required)."""
    body = build_inv_notif(1000001, [RoomTypeMessage(OVERLAY, "102", status=status)])
    root = etree.fromstring(body)
    product = root.find(".//o:SellableProduct", NS)
    assert product.attrib == {"InvNotifType": "Overlay", "InvCode": "102", "InvStatusType": status}
    assert [etree.QName(c).localname for c in product] == ["GuestRoom"] and len(product[0]) == 0
    assert inv_schema.validate(without_platform_extensions(root)), inv_schema.error_log.last_error
    assert parse_inv_notif_request(body)[1][0].status == status


def test_cross_refs_are_read_from_the_response() -> None:
    body = (b'<OTA_HotelInvNotifRS xmlns="http://www.opentravel.org/OTA/2003/05" Version="3.000"><Success/>'
            b'<InventoryCrossRefs><InventoryCrossRef RequestInvCode="4711" ResponseInvCode="1000004001"/>'
            b'</InventoryCrossRefs></OTA_HotelInvNotifRS>\n<!-- RUID: [abc] -->')
    assert [(c.request_inv_code, c.response_inv_code) for c in parse_cross_refs(body)] == [("4711", "1000004001")]
