"""The sandbox's Rooms API as published (issue 25): the unit types of the description's examples, the meta's
``show_inactive`` default, the defaults a unit is created with (the read gives every member of its objects), a
room type made through OTA_HotelInvNotif read as a unit with its rooms and beds and its bathrooms (so a partner can
move half way), and a bathroom sent back with its id kept."""

from __future__ import annotations

from typing import Any

import pytest

from tests.workbench.sandbox.test_modular_apis import ok
from workbench.sandbox import SandboxConfig
from workbench.sandbox.testing import InProcess

HOTEL = 1000004  # a property of the sample registry: 401 a double, 402 the family apartment (data/samples)


@pytest.fixture
def sb() -> Any:
    box = InProcess(SandboxConfig(password="pw"))
    yield box
    box.close()


def units(sb: Any) -> dict[int, dict]:
    return {u["unit_id"]: u for u in ok(sb.json("GET", f"/rooms-api/properties/{HOTEL}/units"))}


def test_the_meta_lists_inactive_types_by_default_marked_so(sb: Any) -> None:
    """[O] Rooms API 1.2 ``GET /rooms-api/meta``: ``show_inactive`` defaults to true."""
    meta = ok(sb.json("GET", "/rooms-api/meta"))
    assert {b["bed_type_id"]: b["is_active"] for b in meta["bed_types"]}[7] is False
    assert all(b["is_active"] for b in ok(sb.json("GET", "/rooms-api/meta?show_inactive=false"))["bed_types"])


@pytest.mark.parametrize("body", [
    # the description's examples MULTI_ROOM_UNIT_W_MINIMAL_REQUIRED_FIELDS (a one-bedroom Suite) and
    # SINGLE_ROOM_UNIT_W_SINGLE_BED_CONFIG (a Studio); names from the sandbox's meta
    {"configuration": {"unit_type_id": 5, "rooms": [{"type": "BEDROOM_SUBROOM", "bed_configurations": [
        {"beds": [{"bed_type_id": 3, "bed_count": 1}], "is_default_configuration": True}]}]}, "unit_name_id": 500},
    {"configuration": {"unit_type_id": 12, "rooms": [{"type": "GUEST_ROOM", "bed_configurations": [
        {"beds": [{"bed_type_id": 3, "bed_count": 1}], "is_default_configuration": True}]}]}, "unit_name_id": 1147},
])
def test_the_published_examples_unit_types_are_taken(sb: Any, body: dict) -> None:
    ok(sb.json("POST", f"/rooms-api/properties/{HOTEL}/units", body))


def test_a_unit_is_created_with_the_published_defaults(sb: Any) -> None:
    body = {"configuration": {"unit_type_id": 9, "rooms": [{"type": "GUEST_ROOM", "bed_configurations": [
        {"beds": [{"bed_type_id": 3, "bed_count": 1}], "is_default_configuration": True}]}]}, "unit_name_id": 255,
        "occupancy_details": {"max_guests": 2}}
    made = ok(sb.json("POST", f"/rooms-api/properties/{HOTEL}/units", body))["unit_id"]
    unit = units(sb)[made]
    assert (unit["number_of_units"], unit["smoking_policy"]) == (1, "SMOKING_AND_NONSMOKING")
    assert unit["occupancy_details"] == {"max_guests": 2, "max_adults": 1, "max_children": 0, "max_infants": 0,
                                         "max_infants_on_top": 0}
    assert unit["extra_beds_configuration"] == {"extra_beds": 0, "cribs": 0, "is_crib_and_extra_bed_allowed": False}
    ok(sb.json("PATCH", f"/rooms-api/properties/{HOTEL}/units/{made}", {"occupancy_details": {"max_guests": 3,
                                                                                             "max_adults": 3}}))
    assert units(sb)[made]["occupancy_details"]["max_infants"] == 0  # an object sent whole takes the defaults


def test_a_room_type_made_through_invnotif_reads_as_a_unit_with_its_rooms_and_beds(sb: Any) -> None:
    read = units(sb)
    assert read[402]["configuration"] == {"unit_type_id": 1, "rooms": [  # two bedrooms and a living room
        {"type": "BEDROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 6, "bed_count": 1}],
                                                            "is_default_configuration": True}]},
        {"type": "BEDROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 1, "bed_count": 2}],
                                                            "is_default_configuration": True}]},
        {"type": "LIVING_ROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 5, "bed_count": 1}],
                                                                "is_default_configuration": True}]}]}
    assert read[401]["configuration"]["rooms"] == [{"type": "GUEST_ROOM", "bed_configurations": [
        {"beds": [{"bed_type_id": 4, "bed_count": 1}], "is_default_configuration": True}]}]
    assert read[401]["occupancy_details"]["max_infants"] == 0
    baths = ok(sb.json("GET", f"/facilities-api/properties/{HOTEL}/rooms/402/bathrooms"))
    assert baths["hotel_bathroom_details"]["number_of_bathrooms"] == 2
    assert ok(sb.json("GET", f"/facilities-api/properties/{HOTEL}/rooms/401/bathrooms")) is None
    # its rooms sent back whole with one bed changed are taken: the move can go on through the Rooms API
    rooms = read[402]["configuration"]["rooms"]
    rooms[0]["bed_configurations"][0]["beds"][0]["bed_count"] = 2
    ok(sb.json("PATCH", f"/rooms-api/properties/{HOTEL}/units/402", {"configuration": read[402]["configuration"]}))
    assert units(sb)[402]["configuration"]["rooms"] == rooms


def test_a_bathroom_sent_back_with_its_id_keeps_it(sb: Any) -> None:
    made = ok(sb.json("POST", f"/rooms-api/properties/{HOTEL}/units", {
        "configuration": {"unit_type_id": 1, "rooms": [{"type": "BEDROOM_SUBROOM", "bed_configurations": [
            {"beds": [{"bed_type_id": 3, "bed_count": 1}], "is_default_configuration": True}]}]},
        "unit_name_id": 865}))["unit_id"]
    path = f"/facilities-api/properties/{HOTEL}/rooms/{made}/bathrooms"
    ok(sb.json("PUT", path, {"property_bathroom_details": {"bathrooms": [
        {"bathroom_type": "PRIVATE", "bathroom_location": "ENSUITE"}]}}))
    (first,) = ok(sb.json("GET", path))["property_bathroom_details"]["bathrooms"]
    ok(sb.json("PUT", path, {"property_bathroom_details": {"bathrooms": [
        first, {"bathroom_type": "PRIVATE", "bathroom_location": "NEXT_DOOR"}]}}))
    kept, added = ok(sb.json("GET", path))["property_bathroom_details"]["bathrooms"]
    assert kept["id"] == first["id"] and added["id"] != first["id"]
