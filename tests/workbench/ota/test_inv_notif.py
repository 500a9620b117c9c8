"""OTA_HotelInvNotifRQ / OTA_HotelDescriptiveInfo: valid against OTA 2014B (platform extensions removed,
as the reference README says), parts written only when given, removal with Value=0, tolerant reading."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from workbench.ota.descriptive_info import build_descriptive_info_request, parse_descriptive_info
from workbench.ota.inv_notif import (
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
])
def test_impossible_messages_cannot_be_built(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        RoomTypeMessage(**kwargs)


amenities = st.lists(st.builds(Amenity, st.integers(1, 999), st.one_of(st.none(), st.integers(0, 9)),
                               st.one_of(st.none(), st.sampled_from([1, 2]))), max_size=5).map(tuple)


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


def test_cross_refs_are_read_from_the_response() -> None:
    body = (b'<OTA_HotelInvNotifRS xmlns="http://www.opentravel.org/OTA/2003/05" Version="3.000"><Success/>'
            b'<InventoryCrossRefs><InventoryCrossRef RequestInvCode="4711" ResponseInvCode="1000004001"/>'
            b'</InventoryCrossRefs></OTA_HotelInvNotifRS>\n<!-- RUID: [abc] -->')
    assert [(c.request_inv_code, c.response_inv_code) for c in parse_cross_refs(body)] == [("4711", "1000004001")]


DESCRIPTIVE = b"""<OTA_HotelDescriptiveInfoRS Version="1.006"><Success/><HotelDescriptiveContents>
<HotelDescriptiveContent HotelCode="9"><FacilityInfo><GuestRooms>
 <GuestRoom ID="91" Active="1" RoomTypeName="Loft" NonSmoking="1" RoomID="5" RoomType="1" Quantity="2">
  <Amenities><Amenity AmenityCode="59" Value="1"/></Amenities><Amenity RoomAmenityCode="2"/>
  <Occupancy MaxOccupancy="4" MaxAdultOccupancy="4" MaxChildOccupancy="2"/>
  <Quantities MaximumAdditionalGuests="1" MaxCribs="1" MaxRollaways="1"/>
  <TPA_Extensions><Occupancy MaxChildPayableOccupancy="1"/><SubRooms>
   <SubRoom RoomType="Bedroom" MaxGuests="2"><Amenity RoomAmenityCode="33" Quantity="1" Configuration="1"/></SubRoom>
   <SubRoom RoomType="Bedroom" MaxGuests="2"><Amenity RoomAmenityCode="113" Quantity="2"/></SubRoom>
  </SubRooms></TPA_Extensions></GuestRoom>
 <GuestRoom ID="92" Active="0" RoomTypeName="Closed room"><DescriptiveText>Closed room</DescriptiveText></GuestRoom>
 <GuestRoom ID="93" NonSmoking="Unknown"><DescriptiveText>Annex</DescriptiveText><Room RoomType="9"/></GuestRoom>
</GuestRooms></FacilityInfo></HotelDescriptiveContent></HotelDescriptiveContents></OTA_HotelDescriptiveInfoRS>"""


def test_descriptive_info_reads_active_rooms_in_any_shape_the_platform_sends() -> None:
    state = parse_descriptive_info(DESCRIPTIVE)
    r = state.rooms
    assert r["inv_code"].tolist() == ["91", "93"]  # the inactive one is left out
    assert r.iloc[0][["hotel_code", "room_id", "room_type", "room_name", "max_occupancy", "max_child_payable_occupancy",
                      "quantity", "max_rollaways"]].tolist() == [9, "5", "1", "Loft", 4, 1, 2, 1]
    assert r.iloc[1]["room_name"] == "Annex" and r.iloc[1]["room_type"] == "9" and r["non_smoking"].isna().iloc[1]
    a = state.amenities
    assert list(zip(a["subroom"].fillna("-"), a["amenity_code"], a["value"].fillna(-1), a["configuration"].fillna(-1),
                    strict=True)) == [("-", 2, -1, -1), ("-", 59, 1, -1), ("Bedroom 1", 33, 1, 1),
                                      ("Bedroom 2", 113, 2, -1)]
    assert state.subrooms["subroom"].tolist() == ["Bedroom 1", "Bedroom 2"]
    assert set(r["source"]) == {"OTA_HotelDescriptiveInfo"} and r["row"].tolist() == [1, 3]
