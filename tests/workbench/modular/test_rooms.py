"""The rooms workbook (Rooms, SubRooms, Amenities) to the Rooms API units (bulk create with correlation ids,
updates), room facilities and bathrooms, each value with its cell; and the units read back as the same sheets."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import pytest

from loaders import read_rooms
from tests.workbench.modular.conftest import FIXTURES, fixture_meta
from workbench.modular.building import Request
from workbench.modular.cells import issues_from_envelope
from workbench.modular.envelope import parse_envelope
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms import ModularRooms, build_modular_rooms
from workbench.modular.rooms_read import UnitAnswers, rooms_from_answers

ROOMS = ["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "Quantity", "NonSmoking", "SizeMeasurement",
         "SizeMeasurementUnit", "MaxOccupancy", "MaxAdultOccupancy", "MaxChildOccupancy", "MaxChildPayableOccupancy",
         "MaxCribs", "MaxRollaways", "MaximumAdditionalGuests"]
SUBS = ["HotelCode", "InvCode", "RoomID", "SubRoom", "RoomType", "Number"]
AMEN = ["HotelCode", "InvCode", "RoomID", "SubRoom", "AmenityCode", "Value", "Configuration"]
APARTMENT = [7, None, "42", "Apartment", "Garden Apartment", 3, 1, 92, "sqm", 5, 4, 2, None, 1, 1, 2]
DOUBLE = [7, None, "43", 9, "Double Room", 20, 2, 24, None, 2, 2, 1, None, 1, 0, None]
SUB_ROWS = [[7, None, "42", "Bedroom 1", "Bedroom", None], [7, None, "42", "Living room 1", "Living room", None],
            [7, None, "42", "Bathroom 1", "Bathroom", 2]]
AMEN_ROWS = [[7, None, "42", "Bedroom 1", 33, 1, None], [7, None, "42", "Living room 1", 102, 1, None],
             [7, None, "42", None, 2, None, None], [7, None, "43", None, 33, 1, 1],
             [7, None, "43", None, 113, 2, 2], [7, None, "43", None, 92, 0, None]]


@pytest.fixture
def rooms_of(write_xlsx: Callable[..., Path]) -> Callable[..., ModularRooms]:
    def make(rooms: list[list], subs: list[list] | None = None, amen: list[list] | None = None,
             meta: ModularMeta | None = None, **kw: object) -> ModularRooms:
        path = write_xlsx({"Rooms": [ROOMS, *rooms], "SubRooms": [SUBS, *(subs or [])],
                           "Amenities": [AMEN, *(amen or [])]}, name="rooms.xlsx")
        loaded = read_rooms(path)
        assert loaded.issues.empty
        return build_modular_rooms(loaded.rooms, loaded.subrooms, loaded.amenities,
                                   fixture_meta() if meta is None else meta, **kw)
    return make


def only(built: ModularRooms, operation: str) -> Request:
    (req,) = [r for r in built.requests if r.operation == operation]
    return req


def test_new_room_types_in_one_bulk_request_with_their_facilities_and_bathrooms(rooms_of: Callable[..., ModularRooms]
                                                                              ) -> None:
    built = rooms_of([APARTMENT, DOUBLE], SUB_ROWS, AMEN_ROWS, categories={7: 204})
    bulk = only(built, "units.bulk_create")
    assert bulk.payload == {"units": [
        {"configuration": {"unit_type_id": 1, "rooms": [
            {"type": "BEDROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 3, "bed_count": 1}],
                                                                "is_default_configuration": True}]},
            {"type": "LIVING_ROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 5, "bed_count": 1}],
                                                                    "is_default_configuration": True}]}]},
         "number_of_units": 3, "smoking_policy": "NONSMOKING", "size": {"value": 92.0, "unit": "SQM"},
         "partner_reference_name": "Garden Apartment",
         "occupancy_details": {"max_guests": 5, "max_adults": 4, "max_children": 2},
         "extra_beds_configuration": {"extra_beds": 1, "cribs": 1, "is_crib_and_extra_bed_allowed": True},
         "property_id": 7, "correlation_id": "42", "unit_name_source": "GENERATED"},
        {"configuration": {"unit_type_id": 9, "rooms": [{"type": "GUEST_ROOM", "bed_configurations": [
            {"beds": [{"bed_type_id": 3, "bed_count": 1}], "is_default_configuration": True},
            {"beds": [{"bed_type_id": 1, "bed_count": 2}], "is_default_configuration": False}]}]},
         "unit_name_id": 255, "number_of_units": 20, "smoking_policy": "SMOKING_AND_NONSMOKING",
         "size": {"value": 24.0, "unit": "SQM"}, "partner_reference_name": "Double Room",
         "occupancy_details": {"max_guests": 2, "max_adults": 2, "max_children": 1},
         "extra_beds_configuration": {"extra_beds": 0, "cribs": 1, "is_crib_and_extra_bed_allowed": False},
         "property_id": 7, "correlation_id": "43", "unit_name_source": "PROVIDED"}]}
    facilities = [r for r in built.requests if r.operation == "room_facilities.write"]
    assert [(dict(r.ids), r.payload) for r in facilities] == [
        ({"correlation_id": "42"}, [{"room_facility_id": 11, "state": "PRESENT"}]),
        ({"correlation_id": "43"}, [{"room_facility_id": 38, "state": "MISSING"}])]
    baths = only(built, "bathrooms.write")
    assert baths.payload == {"hotel_bathroom_details": {"private_bathroom_state": "PRESENT",
                                                        "shared_bathroom_state": "MISSING", "number_of_bathrooms": 2}}
    assert built.issues.empty
    env = parse_envelope((FIXTURES / "rooms" / "bulk_create_error_answer.json").read_bytes())
    bed, correlation = issues_from_envelope(env, bulk.cells, "Rooms API")
    assert (bed["sheet"], bed["row"], bed["column"]) == ("Amenities", 2, "AmenityCode")
    assert (correlation["sheet"], correlation["row"], correlation["column"]) == ("Rooms", 3, "RoomID")


def test_an_existing_room_type_is_patched_with_what_the_sheet_gives(rooms_of: Callable[..., ModularRooms]) -> None:
    built = rooms_of([[7, "1048000102", None, 9, "Deluxe Double Room", 6, 0] + [None] * 9])
    patch = only(built, "unit.update")
    assert dict(patch.ids) == {"unit_id": "1048000102", "room_id": "1048000102"}
    assert patch.payload == {"unit_name_id": 256, "partner_reference_name": "Deluxe Double Room",
                             "number_of_units": 6, "smoking_policy": "SMOKING"}  # no beds given: rooms left alone


@pytest.mark.parametrize(("rooms", "subs", "amen", "expected"), [
    ([[*APARTMENT[:12], 1, *APARTMENT[13:]]], SUB_ROWS, AMEN_ROWS[:2],
     [("Rooms", 2, "MaxChildPayableOccupancy", "modular_sunset")]),
    ([[*DOUBLE[:3], "Villa", *DOUBLE[4:]]], [], AMEN_ROWS[3:5], [("Rooms", 2, "RoomType", "code_not_in_meta")]),
    ([[*DOUBLE[:3], "Igloo", *DOUBLE[4:]]], [], AMEN_ROWS[3:5], [("Rooms", 2, "RoomType", "code_not_in_meta")]),
    ([[*DOUBLE[:3], None, *DOUBLE[4:]]], [], AMEN_ROWS[3:5], [("Rooms", 2, "RoomType", "code_not_in_meta")]),
    ([DOUBLE], [], [], [("Rooms", 2, "RoomType", "modular_value_refused")]),  # a single-room unit needs beds
    ([APARTMENT], SUB_ROWS, [[7, None, "42", "Bedroom 1", 33, 1, 2], AMEN_ROWS[1]],
     [("Amenities", 2, "AmenityCode", "modular_value_refused")]),  # Configuration 2 in a multi-room unit
    ([DOUBLE], [], [AMEN_ROWS[3], [7, None, "43", None, 4001, 1, None]],
     [("Amenities", 3, "AmenityCode", "code_not_in_meta")]),  # a bunk bed: no such bed type in this meta
    ([DOUBLE], [], [AMEN_ROWS[3], [7, None, "43", None, 9999, None, None]],
     [("Amenities", 3, "AmenityCode", "code_not_in_meta")]),
    ([[*DOUBLE[:5], 32001, *DOUBLE[6:]]], [], AMEN_ROWS[3:5], [("Rooms", 2, "Quantity", "modular_value_refused")]),
    ([[*DOUBLE[:9], 51, *DOUBLE[10:]]], [], AMEN_ROWS[3:5], [("Rooms", 2, "MaxOccupancy", "modular_value_refused")]),
])
def test_what_the_rooms_api_refuses_is_an_issue_on_its_cell(rooms_of: Callable[..., ModularRooms], rooms: list,
                                                            subs: list, amen: list, expected: list) -> None:
    issues = rooms_of(rooms, subs, amen, categories={7: 204}).issues
    assert [(i.sheet, i.row, i.column, i.rule) for i in issues.itertuples()] == expected


def test_the_allowed_unit_types_are_named_for_the_property_s_category(rooms_of: Callable[..., ModularRooms]) -> None:
    issues = rooms_of([[*DOUBLE[:3], "Igloo", *DOUBLE[4:]]], [], AMEN_ROWS[3:5], categories={7: 201}).issues
    assert issues["message"].iloc[0].endswith("are: Apartment (1)")


def test_a_hundred_units_a_request_and_no_meta_no_units(rooms_of: Callable[..., ModularRooms]) -> None:
    many = [[*DOUBLE[:2], f"{100 + i}", *DOUBLE[3:]] for i in range(101)]
    amen = [[7, None, f"{100 + i}", None, 33, 1, None] for i in range(101)]
    bulks = [r for r in rooms_of(many, [], amen).requests if r.operation == "units.bulk_create"]
    assert [len(r.payload["units"]) for r in bulks] == [100, 1]
    assert bulks[1].payload["units"][0]["correlation_id"] == "200"
    empty = rooms_of([DOUBLE], [], AMEN_ROWS[3:5], meta=ModularMeta())
    assert not empty.requests and list(empty.issues["rule"]) == ["meta_not_read"]


def test_units_there_and_back_on_every_cell_kept(rooms_of: Callable[..., ModularRooms]) -> None:
    meta = fixture_meta()
    built = rooms_of([APARTMENT, DOUBLE], SUB_ROWS, AMEN_ROWS, categories={7: 204})
    bulk = only(built, "units.bulk_create")
    units = []
    for i, unit in enumerate(copy.deepcopy(bulk.payload["units"])):
        unit.pop("correlation_id"), unit.pop("unit_name_source"), unit.pop("property_id")
        units.append({**unit, "unit_id": 1048000200 + i, "unit_name_fallback": "x", "added_later": 1})
    by_ref = {"42": 1048000200, "43": 1048000201}
    facilities = {by_ref[r.ids["correlation_id"]]: r.payload for r in built.requests
                  if r.operation == "room_facilities.write"}
    baths = {1048000200: only(built, "bathrooms.write").payload}
    back = rooms_from_answers([UnitAnswers(7, units, facilities, baths)], meta)
    rooms = back["Rooms"][["room_type", "room_name", "quantity", "non_smoking", "size_measurement",
                           "size_measurement_unit", "max_occupancy", "max_adult_occupancy", "max_child_occupancy",
                           "max_cribs", "max_rollaways"]]
    assert rooms.astype(object).where(rooms.notna(), None).values.tolist() == [
        ["1", "Garden Apartment", 3, 1, 92, "sqm", 5, 4, 2, 1, 1], ["9", "Double Room", 20, 2, 24, "sqm", 2, 2, 1, 1, 0]]
    subs = back["SubRooms"][["inv_code", "subroom", "subroom_type", "number"]].astype(object)
    assert subs.where(subs.notna(), None).values.tolist() == [
        ["1048000200", "Bedroom 1", "Bedroom", None], ["1048000200", "Living room 1", "Living room", None],
        ["1048000200", "Bathroom 1", "Bathroom", 2]]
    amen = back["Amenities"][["inv_code", "subroom", "amenity_code", "value", "configuration", "remove"]].astype(object)
    assert amen.where(amen.notna(), None).values.tolist() == [
        ["1048000200", "Bedroom 1", 33, 1, None, False], ["1048000200", "Living room 1", 102, 1, None, False],
        ["1048000200", None, 2, None, None, False],
        ["1048000201", None, 33, 1, 1, False], ["1048000201", None, 203, 2, 2, False],  # Twin (90-130 cm): Single
        ["1048000201", None, 92, None, None, True]]


def test_what_the_sample_rooms_workbook_cannot_send() -> None:
    from tests.conftest import SAMPLES

    loaded = read_rooms(SAMPLES / "rooms.xlsx")
    issues = build_modular_rooms(loaded.rooms, loaded.subrooms, loaded.amenities, fixture_meta(),
                                 categories={1000001: 204, 1000004: 201}).issues
    assert set(zip(issues["sheet"], issues["row"], issues["column"], issues["rule"], strict=True)) == {
        ("Rooms", 2, "MaxChildPayableOccupancy", "modular_sunset"), ("Rooms", 4, "MaxChildPayableOccupancy",
                                                                     "modular_sunset"),
        ("Rooms", 6, "MaxChildPayableOccupancy", "modular_sunset"),
        ("Rooms", 7, "RoomType", "code_not_in_meta"),  # no RoomType to create
        ("Rooms", 8, "RoomType", "modular_value_refused"),  # an apartment without its rooms
        ("Rooms", 9, "RoomType", "code_not_in_meta"),  # Igloo
        ("Rooms", 12, "RoomType", "modular_value_refused"),  # a new Double without beds
        ("Amenities", 9, "AmenityCode", "modular_value_refused"),  # Configuration 2 in a multi-room unit
        ("Amenities", 12, "AmenityCode", "modular_not_sent"),  # a minibar in a bedroom
        *{("Amenities", r, "AmenityCode", "code_not_in_meta") for r in (3, 5, 11, 14, 15, 16)},  # not in this meta
    }
