"""The room-type rules through the Rooms and Facilities APIs (issue 25): the published range of every number, the
sunset column, what the APIs have no field for, and the E1 rules that still hold; and the InvNotif path's warning
that it cannot send infants."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from expectations import validate_rooms, validate_rooms_modular
from expectations.rooms_modular import KEPT_RULES, RANGES
from loaders import read_rooms

ROOMS = ["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "Quantity", "SizeMeasurement", "MaxOccupancy",
         "MaxAdultOccupancy", "MaxChildOccupancy", "MaxInfants", "MaxInfantsOnTop", "MaxCribs", "MaxRollaways",
         "MaxChildPayableOccupancy", "Active", "ApartmentRoomCapacity"]
SUBS = ["HotelCode", "InvCode", "RoomID", "SubRoom", "RoomType", "Number", "MaxGuests", "PrivateBathroom"]
AMEN = ["HotelCode", "InvCode", "RoomID", "SubRoom", "AmenityCode", "Value", "Configuration"]
DOUBLE = [7, "1048000102", None, 9, "Double", 20, 24, 2, 2, 1, 1, 0, 1, 0, None, None, None]
BASE = {"Rooms": [ROOMS, DOUBLE], "SubRooms": [SUBS, [7, "1048000102", None, "Bathroom 1", "Bathroom", 1, None, None]],
        "Amenities": [AMEN, [7, "1048000102", None, None, 33, 1, 1]]}


def issues(write_xlsx, rooms=None, subs=None, amen=None):
    path = write_xlsx({"Rooms": [ROOMS, *(rooms if rooms is not None else [DOUBLE])],
                       "SubRooms": [SUBS, *(subs if subs is not None else BASE["SubRooms"][1:])],
                       "Amenities": [AMEN, *(amen if amen is not None else BASE["Amenities"][1:])]}, name="rooms.xlsx")
    loaded = read_rooms(path)
    return validate_rooms_modular(*loaded[:3], load_issues=loaded.issues)


def test_the_base_is_clean(write_xlsx) -> None:
    assert issues(write_xlsx).empty


def _set(column: str, value: object) -> list:
    row = list(DOUBLE)
    row[ROOMS.index(column)] = value
    return row


@pytest.mark.parametrize(("rooms", "subs", "expected"), [
    ([_set("Quantity", 32001)], None, ("Rooms", "Quantity", "rooms_api_range", "error")),
    ([_set("SizeMeasurement", 10000)], None, ("Rooms", "SizeMeasurement", "rooms_api_range", "error")),
    ([_set("MaxAdultOccupancy", 51)], None, ("Rooms", "MaxAdultOccupancy", "rooms_api_range", "error")),
    ([_set("MaxInfants", 50)], None, ("Rooms", "MaxInfants", "rooms_api_range", "error")),
    ([_set("MaxInfantsOnTop", 50)], None, ("Rooms", "MaxInfantsOnTop", "rooms_api_range", "error")),
    ([_set("MaxCribs", 101)], None, ("Rooms", "MaxCribs", "rooms_api_range", "error")),
    (None, [[7, "1048000102", None, "Bathroom 1", "Bathroom", 21, None, None]],
     ("SubRooms", "Number", "rooms_api_range", "error")),
    ([_set("MaxChildPayableOccupancy", 1)], None, ("Rooms", "MaxChildPayableOccupancy", "modular_sunset", "error")),
    ([_set("Active", 0)], None, ("Rooms", "Active", "unit_delete_not_sent", "error")),
    ([_set("ApartmentRoomCapacity", 2)], None, ("Rooms", "ApartmentRoomCapacity", "modular_not_sent", "warning")),
    (None, [[7, "1048000102", None, "Bathroom 1", "Bathroom", 1, 2, None]],
     ("SubRooms", "MaxGuests", "modular_not_sent", "warning")),
    ([_set("MaxOccupancy", 4)], None, ("Rooms", "MaxOccupancy", "occupancy_total", "error")),  # an E1 rule kept
])
def test_each_rule_on_its_cell(write_xlsx, rooms, subs, expected) -> None:
    (issue,) = issues(write_xlsx, rooms, subs).itertuples()
    assert (issue.sheet, issue.column, issue.rule, issue.severity) == expected


def test_the_rules_of_the_invnotif_message_do_not_apply() -> None:
    """The BCRT list, the 100 room types, SubRoomCount and the child-payable rule are the InvNotif message's."""
    assert not KEPT_RULES & {"unknown_room_type", "too_many_room_types", "subroom_count_mismatch", "child_payable",
                             "subrooms_not_allowed", "unknown_amenity"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([r for r in RANGES if r.sheet == "Rooms"]), st.integers(-5, 40000))
def test_a_number_is_refused_exactly_outside_its_published_range(write_xlsx, rng, value: int) -> None:
    found = issues(write_xlsx, [_set(rng.header, value)])
    ranged = found[found["rule"] == "rooms_api_range"]
    inside = rng.low <= value <= rng.high
    assert ranged.empty == (inside or value < 0)  # below 0 the loader refuses the cell first
    if not inside and value >= 0:
        assert f"{rng.low} to {rng.high}" in ranged["message"].iloc[0]


def test_invnotif_cannot_send_infants_and_says_so(write_xlsx) -> None:
    path = write_xlsx(BASE, name="rooms.xlsx")
    loaded = read_rooms(path)
    assert loaded.rooms[["max_infants", "max_infants_on_top"]].iloc[0].tolist() == [1, 0]
    found = validate_rooms(*loaded[:3])
    (issue,) = found[found["rule"] == "infants_not_in_inv_notif"].itertuples()
    assert (issue.column, issue.value, issue.severity) == ("MaxInfants", "1", "warning")
    assert "--api modular" in issue.message


def test_a_bathroom_is_not_a_room_of_the_unit_for_the_bed_rules(write_xlsx) -> None:
    """A single-room unit with a Bathroom sub-room keeps its beds on the room itself (E1 would call it a room with
    sub-rooms once it may have them)."""
    suite = _set("RoomType", "Suite")
    assert issues(write_xlsx, [suite]).empty
