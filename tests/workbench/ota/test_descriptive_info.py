"""OTA_HotelDescriptiveInfoRS read in every shape the platform is known to send, from hand-written
fixtures of the documented shapes (tests/fixtures/descriptive_info/, each naming its source), never
from the sandbox: each fact lands in its column, and what a shape does not carry is *unknown*."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from lxml import etree

from workbench.ota.descriptive_info import FACTS, parse_descriptive_info
from workbench.ota.ns import OTA_NS
from workbench.ota.response import parse_response
from workbench.paths import SPEC_REFERENCE

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "descriptive_info"
ALL = sorted(FIXTURES.glob("*.xml"))
ROOM_EXTENSIONS = {"room_id", "size_measurement", "size_measurement_unit", "quantity"}


def read(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def room(state, inv: str) -> pd.Series:
    return state.rooms[state.rooms["inv_code"] == inv].iloc[0]


def unknown(state, inv: str) -> set[str]:
    return set(state.unknown_facts(int(room(state, inv)["hotel_code"]), inv))


def amenities(state, inv: str) -> list[tuple]:
    a = state.amenities[state.amenities["inv_code"] == inv]
    return [(s if isinstance(s, str) else "", int(c), None if pd.isna(v) else int(v), None if pd.isna(f) else int(f))
            for s, c, v, f in zip(a["subroom"], a["amenity_code"], a["value"], a["configuration"], strict=True)]


def test_there_is_a_fixture_for_each_documented_shape() -> None:
    assert {p.name for p in ALL} >= {"published.xml", "spec_e2_all_fields.xml", "ota2014b_schema.xml",
                                     "ota2003b_schema.xml", "e1_parts_echoed.xml"}


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_each_fixture_opens_with_a_comment_naming_where_its_shape_is_documented(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!-- Shape: ")
    comment = text[:text.index("-->")]
    assert any(source in comment for source in ("spec E1", "spec E2", "finding 3", "OpenTravel 2014B",
                                                "OpenTravel 2003B"))


@pytest.mark.parametrize("name,release", [("ota2014b_schema.xml", "OTA2014B"), ("ota2003b_schema.xml", "OTA2003B")])
def test_the_schema_fixtures_are_valid_against_their_ota_release(name: str, release: str) -> None:
    xsd = SPEC_REFERENCE / "ota-xsd" / release / "OTA_HotelDescriptiveInfoRS.xsd"
    if not xsd.exists():
        pytest.fail(f"the OTA schema is expected at {xsd} (shared/reference beside the repository)")
    schema = etree.XMLSchema(etree.parse(str(xsd)))
    assert schema.validate(etree.parse(str(FIXTURES / name))), schema.error_log.last_error


def test_the_published_answer_has_no_success_and_is_a_successful_read() -> None:
    """Finding 2: the published answer carries content, no <Success/>."""
    parsed = parse_response(read("published.xml"))
    assert not parsed.success and parsed.read_ok() and parsed.ruid


def test_published_guest_room_facts_land_in_their_columns() -> None:
    """Finding 3: RoomTypeName is the room TYPE, DescriptiveText the room's own name, @MaxOccupancy is kept."""
    state = parse_descriptive_info(read("published.xml"))
    r = room(state, "101")
    assert (r["hotel_code"], r["room_type"], r["room_name"], r["max_occupancy"]) == (
        1000001, "Double", "Standard Double Room", 2)
    assert (room(state, "102")["room_type"], room(state, "102")["room_name"]) == ("Suite", "Junior Suite")
    assert amenities(state, "101") == [("", 33, 1, None), ("", 2, None, None), ("", 123, None, None)]
    assert state.subrooms.empty


def test_what_the_published_answer_does_not_carry_is_unknown_not_empty() -> None:
    """Finding 4: no RoomID, size, units, sub-rooms; no Occupancy element, so adults and children are unknown too."""
    state = parse_descriptive_info(read("published.xml"))
    assert unknown(state, "101") == ROOM_EXTENSIONS | {
        "non_smoking", "max_adult_occupancy", "max_child_occupancy", "max_child_payable_occupancy",
        "maximum_additional_guests", "max_cribs", "max_rollaways", "subrooms"}
    assert state.rooms[sorted(ROOM_EXTENSIONS)].isna().all().all()
    assert state.unknown_facts(1000001, "999") == set(FACTS)  # a room not in the read: nothing known


def test_spec_e2_fields_with_the_other_attribute_names_and_both_configurations() -> None:
    state = parse_descriptive_info(read("spec_e2_all_fields.xml"))
    assert state.rooms["inv_code"].tolist() == ["101", "104"]  # 103 is inactive: left out
    r = room(state, "101")
    assert r[["room_type", "room_name", "non_smoking", "max_occupancy", "max_adult_occupancy", "max_child_occupancy",
              "max_child_payable_occupancy", "maximum_additional_guests", "max_cribs", "max_rollaways"]].tolist() == [
        "Double", "Standard Double Room", 1, 3, 2, 1, 1, 1, 1, 1]
    assert amenities(state, "101") == [("", 33, 1, 1), ("", 102, 1, 1), ("", 33, 1, 2), ("", 102, 2, 2),
                                       ("", 2, None, None)]  # finding 5: the same bed in both arrangements
    assert unknown(state, "101") == ROOM_EXTENSIONS | {"subrooms"}
    single = room(state, "104")
    assert pd.isna(single["non_smoking"]) and "non_smoking" not in unknown(state, "104")  # "Unknown": known unset
    assert pd.isna(single["max_child_occupancy"]) and "max_child_occupancy" not in unknown(state, "104")
    assert {"maximum_additional_guests", "max_child_payable_occupancy"} <= unknown(state, "104")


def test_the_ota_2014b_shape_occupancy_attributes_type_room_and_wrapped_amenities() -> None:
    state = parse_descriptive_info(read("ota2014b_schema.xml"))
    r = room(state, "401")
    assert r[["hotel_code", "room_type", "room_name", "max_occupancy", "max_adult_occupancy", "max_child_occupancy",
              "max_cribs", "max_rollaways"]].tolist() == [1000004, "Double", "Superior Double Room", 2, 2, 1, 1, 0]
    assert amenities(state, "401") == [("", 86, 1, None), ("", 92, None, None)]
    assert unknown(state, "401") == ROOM_EXTENSIONS | {"non_smoking", "max_child_payable_occupancy",
                                                       "maximum_additional_guests", "subrooms"}


def test_the_ota_2003b_shape_code_and_hotel_code_on_the_contents() -> None:
    state = parse_descriptive_info(read("ota2003b_schema.xml"))
    r = room(state, "301")
    assert r[["hotel_code", "room_type", "max_occupancy", "max_adult_occupancy", "max_rollaways"]].tolist() == [
        1000003, "Twin", 3, 3, 0]
    assert pd.isna(r["room_name"]) and {"room_name", "max_child_occupancy", "max_cribs"} <= unknown(state, "301")
    assert amenities(state, "301") == [("", 113, 2, None), ("", 251, None, None)]


def test_e1_parts_in_an_answer_are_used_and_then_known() -> None:
    state = parse_descriptive_info(read("e1_parts_echoed.xml"))
    r = room(state, "402")
    assert r[["room_id", "room_type", "room_name", "size_measurement", "size_measurement_unit", "quantity",
              "non_smoking"]].tolist() == ["42", "1", "Family Apartment", 70, "sqm", 2, 1]
    assert unknown(state, "402") == set()
    subs = state.subrooms[["subroom", "subroom_type", "max_guests", "number"]]
    assert subs.astype(object).where(subs.notna(), None).values.tolist() == [
        ["Bedroom 1", "Bedroom", 2, None], ["Bedroom 2", "Bedroom", 2, None], ["Living room 1", "Living room", 1, 1],
        ["Bathroom 1", "Bathroom", None, 2]]
    assert amenities(state, "402") == [("", 59, None, None), ("Bedroom 1", 58, 1, None), ("Bedroom 2", 113, 2, None),
                                       ("Living room 1", 102, 1, None)]


def _without_namespace(body: bytes) -> bytes:
    root = etree.fromstring(body)
    for el in root.iter(etree.Element):
        el.tag = etree.QName(el).localname
    etree.cleanup_namespaces(root)
    return etree.tostring(root)


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_namespace_or_none_and_success_or_none_read_the_same(path: Path) -> None:
    body = path.read_bytes()
    plain = _without_namespace(body)
    assert OTA_NS.encode() not in plain
    root = etree.fromstring(plain)
    for s in [e for e in root if e.tag == "Success"]:
        root.remove(s)
    for a, b in zip(parse_descriptive_info(body), parse_descriptive_info(etree.tostring(root)), strict=True):
        pd.testing.assert_frame_equal(a, b)
