"""Every E1 rule as a table of bad inputs with the exact issue each one gives; clean input gives none."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from expectations import bed_types, room_type_name, validate_rooms
from loaders import read_rooms
from loaders.schemas import AMENITIES_COLUMNS, ROOMS_COLUMNS, SUBROOMS_COLUMNS, empty_frame
from workbench.paths import SAMPLES

ROOMS = ["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "MaxOccupancy", "MaxAdultOccupancy",
         "MaxChildOccupancy", "MaxChildPayableOccupancy", "MaximumAdditionalGuests", "MaxCribs", "MaxRollaways"]
SUBS = ["HotelCode", "InvCode", "RoomID", "SubRoom", "RoomType", "MaxGuests", "Number"]
AMEN = ["HotelCode", "InvCode", "RoomID", "SubRoom", "AmenityCode", "RoomAmenityCode", "Value", "Configuration"]
# a clean property: a double room (row 2) and a new apartment with two bedrooms (row 3)
BASE = {
    "Rooms": [ROOMS, [7, "A1", None, 9, "Double", 2, 2, 0, None, 1, 1, 1],
              [7, None, 70, "Apartment", "Flat", 4, 4, 2, 1, None, None, None]],
    "SubRooms": [SUBS, [7, None, 70, "Bedroom 1", "Bedroom", 2, None], [7, None, 70, "Bathroom 1", "Bathroom", None, 2]],
    "Amenities": [AMEN, [7, "A1", None, None, 86, None, 1, 1], [7, None, 70, "Bedroom 1", 113, None, 2, None],
                  [7, None, 70, None, 59, None, None, None]],
}


def _with(extra: dict[str, list[list[object]]]) -> dict[str, list[list[object]]]:
    return {k: [*rows, *extra.get(k, [])] for k, rows in BASE.items()}


def test_the_base_workbook_is_clean(write_xlsx) -> None:
    loaded = read_rooms(write_xlsx(BASE))
    assert validate_rooms(*loaded[:3], load_issues=loaded.issues).empty


CASES = [
    # (id, extra rows, (sheet, row, column, value, rule, severity, message))
    ("occupancy_total", {"Rooms": [[7, "A2", None, 9, "x", 4, 2, 1, None, None, None, None]]},
     ("Rooms", 4, "MaxOccupancy", "4", "occupancy_total", "error",
      "MaxOccupancy 4 is more than MaxAdultOccupancy 2 + MaxChildOccupancy 1: lower MaxOccupancy or allow more adults "
      "or children (OCCUPANCY_TOTAL)")),
    ("occupancy_children", {"Rooms": [[7, "A2", None, 9, "x", 2, 2, 2, None, None, None, None]]},
     ("Rooms", 4, "MaxChildOccupancy", "2", "occupancy_children", "error",
      "MaxChildOccupancy 2 must be lower than MaxOccupancy 2: a room cannot be filled with children only "
      "(OCCUPANCY_CHILDREN)")),
    ("child_payable", {"Rooms": [[7, "A2", None, 9, "x", 3, 3, 1, 2, None, None, None]]},
     ("Rooms", 4, "MaxChildPayableOccupancy", "2", "child_payable", "error",
      "MaxChildPayableOccupancy 2 is more than MaxChildOccupancy 1: lower it (further children are priced as adults) "
      "(CHILD_PAYABLE)")),
    ("room_type_required", {"Rooms": [[7, None, 71, None, "x", 2, 2, 0, None, None, None, None]]},
     ("Rooms", 4, "RoomType", "", "room_type_required", "error",
      "a room type to create (blank InvCode) needs a RoomType: a code or a name such as 9 or Double "
      "(ROOM_TYPE_REQUIRED)")),
    ("unknown_room_type", {"Rooms": [[7, "A2", None, "Igloo", "x", 2, 2, 0, None, None, None, None]]},
     ("Rooms", 4, "RoomType", "Igloo", "unknown_room_type", "warning",
      "`Igloo` is not a known room type code or name (data/codes/room_types.csv): check it, the platform may refuse "
      "it (UNKNOWN_ROOM_TYPE)")),
    ("not_bookable_no_kitchen", {"Rooms": [[7, None, 72, 1, "x", 2, 2, 0, None, None, None, None]]},
     ("Rooms", 4, "RoomType", "1", "not_bookable_no_kitchen", "warning",
      "a new Apartment without a kitchen or kitchenette (amenity 59 or 61) will not be bookable: add one on the "
      "Amenities sheet (NOT_BOOKABLE_NO_KITCHEN)")),
    ("kitchen_recommended", {"Rooms": [[7, None, 72, "Villa", "x", 2, 2, 0, None, None, None, None]]},
     ("Rooms", 4, "RoomType", "Villa", "kitchen_recommended", "warning",
      "a kitchen or kitchenette (amenity 59 or 61) is strongly recommended for a Villa: add one on the Amenities "
      "sheet (KITCHEN_RECOMMENDED)")),
    ("crib_extra_bed", {"Rooms": [[7, "A2", None, 9, "x", 2, 2, 0, None, 1, 2, 0]]},
     ("Rooms", 4, "MaxCribs", "2", "crib_extra_bed", "error",
      "MaxCribs 2 / MaxRollaways 0 exceed MaximumAdditionalGuests 1: cribs and extra beds hold the additional "
      "guests; to allow a crib or an extra bed but not both, set MaxCribs 1 and MaxRollaways 1 (CRIB_EXTRA_BED)")),
    ("duplicate_room", {"Rooms": [[7, "A1", None, 9, "x", 2, 2, 0, None, None, None, None]]},
     ("Rooms", 4, "InvCode", "A1", "duplicate_room", "error",
      "room 7:A1 is on the Rooms sheet more than once: keep one row per room type (DUPLICATE_ROOM)")),
    ("inv_code_required", {"Amenities": [[7, None, None, None, 2, None, None, None]]},
     ("Amenities", 5, "InvCode", "", "inv_code_required", "error",
      "the row names no room: give the room's InvCode (or the RoomID of a room on the Rooms sheet) "
      "(INV_CODE_REQUIRED)")),
    ("unknown_room", {"SubRooms": [[7, None, 99, "Bedroom 1", "Bedroom", 2, None]]},
     ("SubRooms", 4, "RoomID", "99", "unknown_room", "error",
      "RoomID 99 is not on the Rooms sheet: give the room's InvCode, or add the room (UNKNOWN_ROOM)")),
    ("subrooms_not_allowed", {"SubRooms": [[7, "A1", None, "Bedroom 1", "Bedroom", 2, None]]},
     ("SubRooms", 4, "SubRoom", "Bedroom 1", "subrooms_not_allowed", "error",
      "a Double cannot have sub-rooms: only an Apartment, Suite, Chalet, Bungalow, Holiday home, Villa or Mobile home "
      "can (or a room with ApartmentRoomCapacity above 0); remove the sub-room or change the room's RoomType "
      "(SUBROOMS_NOT_ALLOWED)")),
    ("number_not_allowed", {"SubRooms": [[7, None, 70, "Bedroom 2", "Bedroom", 2, 2]]},
     ("SubRooms", 4, "Number", "2", "number_not_allowed", "error",
      "Number is only for a Bathroom or a Living room: list each bedroom as its own sub-room (NUMBER_NOT_ALLOWED)")),
    ("duplicate_subroom", {"SubRooms": [[7, None, 70, "Bedroom 1", "Bedroom", 1, None]]},
     ("SubRooms", 4, "SubRoom", "Bedroom 1", "duplicate_subroom", "error",
      "sub-room `Bedroom 1` of room 7:RoomID=70 is given more than once: keep one row (DUPLICATE_SUBROOM)")),
    ("subroom_amenity_not_bed", {"Amenities": [[7, None, 70, "Bedroom 1", 69, None, 1, None]]},
     ("Amenities", 5, "AmenityCode", "69", "subroom_amenity_not_bed", "error",
      "amenity 69 (Minibar) is not a bed type: a sub-room's amenities are beds only; move it to the room's own "
      "amenities (blank SubRoom) (SUBROOM_AMENITY_NOT_BED)")),
    ("beds_under_subrooms", {"Amenities": [[7, None, 70, None, 58, None, 1, None]]},
     ("Amenities", 5, "AmenityCode", "58", "beds_under_subrooms", "error",
      "amenity 58 (Extra large Double) is a bed type and room 7:RoomID=70 has sub-rooms: its beds go under a "
      "sub-room (fill in SubRoom), never in the room's own amenities (BEDS_UNDER_SUBROOMS)")),
    ("configuration_not_bed", {"Amenities": [[7, "A1", None, None, 2, None, None, 1]]},
     ("Amenities", 5, "Configuration", "1", "configuration_not_allowed", "error",
      "Configuration is for bed types only and amenity 2 (Air conditioning) is not one: clear it "
      "(CONFIGURATION_NOT_ALLOWED)")),
    ("configuration_multi_room", {"Amenities": [[7, None, 70, "Bedroom 1", 33, None, 1, 2]]},
     ("Amenities", 5, "Configuration", "2", "configuration_not_allowed", "error",
      "Configuration is not available for rooms with sub-rooms (room 7:RoomID=70): clear it "
      "(CONFIGURATION_NOT_ALLOWED)")),
    ("amenity_code_mismatch", {"Amenities": [[7, "A1", None, None, 5, 6, None, None]]},
     ("Amenities", 5, "RoomAmenityCode", "6", "amenity_code_mismatch", "error",
      "RoomAmenityCode 6 and AmenityCode 5 differ: they name the same amenity, keep one of them "
      "(AMENITY_CODE_MISMATCH)")),
    ("unknown_amenity", {"Amenities": [[7, "A1", None, None, 9999, None, None, None]]},
     ("Amenities", 5, "AmenityCode", "9999", "unknown_amenity", "warning",
      "amenity code 9999 is not on the list of codes the platform is known to accept (data/codes/rma.csv): check it "
      "(UNKNOWN_AMENITY)")),
    ("unknown_subroom", {"Amenities": [[7, None, 70, "Bedroom 9", 33, None, 1, None]]},
     ("Amenities", 5, "SubRoom", "Bedroom 9", "unknown_subroom", "error",
      "sub-room `Bedroom 9` of room 7:RoomID=70 (a new room, or one whose sub-rooms the sheet lists in full) is not "
      "on the SubRooms sheet: add it there or correct the name (UNKNOWN_SUBROOM)")),
    ("duplicate_amenity", {"Amenities": [[7, "A1", None, None, 86, None, 2, 1]]},
     ("Amenities", 5, "AmenityCode", "86", "duplicate_amenity", "error",
      "amenity 86 (Large Double) of room 7:A1 with Configuration 1 is given more than once: keep one row (the same "
      "bed in the standard and the alternative arrangement is two rows, Configuration 1 and 2) (DUPLICATE_AMENITY)")),
]


@pytest.mark.parametrize(("extra", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_rule_gives_exactly_its_issue(write_xlsx, extra, expected) -> None:
    loaded = read_rooms(write_xlsx(_with(extra)))
    issues = validate_rooms(*loaded[:3], load_issues=loaded.issues)
    got = [tuple(r) for r in issues[["sheet", "row", "column", "value", "rule", "severity", "message"]]
           .astype(object).itertuples(index=False)]
    assert got == [expected]


def test_too_many_room_types_flags_the_rows_past_one_hundred(write_xlsx) -> None:
    rows = [ROOMS] + [[7, f"R{i}", None, 9, f"room {i}", 2, 2, 0, None, None, None, None] for i in range(102)]
    loaded = read_rooms(write_xlsx({"Rooms": rows}))
    issues = validate_rooms(*loaded[:3])
    assert issues["rule"].tolist() == ["too_many_room_types"] * 2
    assert issues["row"].tolist() == [102, 103]
    assert issues["message"].iloc[0] == ("property 7 has 102 room types on this sheet; the platform allows at most "
                                         "100: this row is beyond the limit (TOO_MANY_ROOM_TYPES)")


def test_the_same_bed_in_both_configurations_is_not_a_duplicate(write_xlsx) -> None:
    """Finding 5: a fetched workbook holding bed 86 in the standard (1) and the alternative (2) arrangement,
    and a blank Configuration beside them, is three facts, not duplicates."""
    extra = {"Amenities": [[7, "A1", None, None, 86, None, 1, 2], [7, "A1", None, None, 86, None, 3, None]]}
    loaded = read_rooms(write_xlsx(_with(extra)))
    assert validate_rooms(*loaded[:3], load_issues=loaded.issues).empty


ROOMS_ACTIVE = ["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "Active", "SubRoomCount"]


@pytest.mark.parametrize(("rooms", "subs", "expected"), [
    ([7, "A9", None, "Apartment", "Flat", None, 3], [[7, "A9", None, "Bedroom 1", "Bedroom", 2, None],
                                                     [7, "A9", None, "Bathroom 1", "Bathroom", None, 1]],
     ("Rooms", 2, "SubRoomCount", "3", "subroom_count_mismatch", "error",
      "SubRoomCount says room 7:A9 has 3 sub-rooms and the SubRooms sheet lists 2: the SubRooms part replaces every "
      "sub-room of the room with its beds, so list all of them (or correct SubRoomCount) (SUBROOM_COUNT_MISMATCH)")),
    ([7, None, 71, "Double", "New", 0, None], [],
     ("Rooms", 2, "Active", "0", "inactive_new_room", "error",
      "a room type to create cannot be deactivated (Active 0): leave `Active` blank or 1, create it, then push 0 "
      "with its InvCode (INACTIVE_NEW_ROOM)")),
    ([7, "A9", None, "Double", "Double", 7, None], [],
     ("Rooms", 2, "Active", "7", "not_a_value", "error", "`Active` is 1 (active) or 0 (deactivated)")),
], ids=["subroom_count_mismatch", "inactive_new_room", "active_not_0_or_1"])
def test_active_and_subroom_count_rules(write_xlsx, rooms, subs, expected) -> None:
    loaded = read_rooms(write_xlsx({"Rooms": [ROOMS_ACTIVE, rooms], "SubRooms": [SUBS, *subs]}))
    issues = validate_rooms(*loaded[:3], load_issues=loaded.issues)
    got = [tuple(r) for r in issues[["sheet", "row", "column", "value", "rule", "severity", "message"]]
           .astype(object).itertuples(index=False)]
    assert got == [expected]


def test_a_subroom_count_matching_the_sheet_is_clean(write_xlsx) -> None:
    loaded = read_rooms(write_xlsx({"Rooms": [ROOMS_ACTIVE, [7, "A9", None, "Apartment", "Flat", 1, 2]],
                                    "SubRooms": [SUBS, [7, "A9", None, "Bedroom 1", "Bedroom", 2, None],
                                                 [7, "A9", None, "Bathroom 1", "Bathroom", None, 1]],
                                    "Amenities": [AMEN, [7, "A9", None, "Bedroom 1", 33, None, 1, None]]}))
    assert validate_rooms(*loaded[:3], load_issues=loaded.issues).empty


def test_the_sample_workbook_has_its_documented_problems() -> None:
    loaded = read_rooms(SAMPLES / "rooms.xlsx")
    issues = validate_rooms(*loaded[:3], load_issues=loaded.issues)
    found = set(zip(issues["sheet"], issues["row"], issues["rule"], strict=True))
    assert found == {
        ("Rooms", 5, "occupancy_total"), ("Rooms", 6, "occupancy_children"), ("Rooms", 6, "child_payable"),
        ("Rooms", 7, "room_type_required"), ("Rooms", 8, "not_a_value"), ("Rooms", 8, "not_bookable_no_kitchen"),
        ("Rooms", 9, "unknown_room_type"), ("Rooms", 10, "crib_extra_bed"), ("Rooms", 11, "subroom_count_mismatch"),
        ("Rooms", 12, "inactive_new_room"), ("SubRooms", 6, "subrooms_not_allowed"),
        ("SubRooms", 7, "number_not_allowed"), ("Amenities", 12, "subroom_amenity_not_bed"),
        ("Amenities", 13, "beds_under_subrooms"), ("Amenities", 14, "configuration_not_allowed"),
        ("Amenities", 15, "amenity_code_mismatch"), ("Amenities", 16, "unknown_amenity"),
        ("Amenities", 17, "configuration_not_allowed"), ("Amenities", 18, "inv_code_required")}


def test_room_types_resolve_by_code_or_name() -> None:
    assert room_type_name("1") == "Apartment" == room_type_name(" apartment ")
    assert room_type_name("29") == room_type_name("holiday_home") == "Holiday home"
    assert room_type_name("Igloo") is None and room_type_name("99") is None
    assert bed_types() == {33, 58, 86, 102, 113, 200, 203, 249, 4001}


def _room(mo, ad, ch, pay) -> pd.DataFrame:
    frame = empty_frame(ROOMS_COLUMNS)
    frame.loc[0, ["hotel_code", "inv_code", "room_type", "max_occupancy", "max_adult_occupancy",
                  "max_child_occupancy", "max_child_payable_occupancy", "source", "sheet", "row"]] = \
        [1, "A", "9", mo, ad, ch, pay, "t", "Rooms", 2]
    return frame.astype(ROOMS_COLUMNS)


occ = st.one_of(st.none(), st.integers(0, 12))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mo=occ, ad=occ, ch=occ, pay=occ)
def test_occupancy_rules_hold_for_every_combination(mo, ad, ch, pay) -> None:
    issues = validate_rooms(_room(mo, ad, ch, pay), empty_frame(SUBROOMS_COLUMNS), empty_frame(AMENITIES_COLUMNS))
    rules = set(issues["rule"])
    known = lambda *v: all(x is not None for x in v)  # noqa: E731
    assert ("occupancy_total" in rules) == (known(mo, ad, ch) and mo > ad + ch)
    assert ("occupancy_children" in rules) == (known(mo, ch) and ch >= mo)
    assert ("child_payable" in rules) == (known(pay, ch) and pay > ch)
