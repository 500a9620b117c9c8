"""Rooms / SubRooms / Amenities sheets -> canonical frames: headers, typing, located issues."""

from __future__ import annotations

import pandas as pd
import pytest

from loaders import AMENITIES_COLUMNS, ROOMS_COLUMNS, SUBROOMS_COLUMNS, LoadError, read_rooms
from loaders.rooms import room_keys
from workbench.paths import SAMPLES

ROOMS = ["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "MaxOccupancy", "MaxAdultOccupancy",
         "MaxChildOccupancy", "NonSmoking", "SizeMeasurement", "SizeMeasurementUnit"]
AMEN = ["HotelCode", "InvCode", "RoomID", "SubRoom", "AmenityCode", "RoomAmenityCode", "Value", "Quantity",
        "Configuration"]
SUBS = ["HotelCode", "InvCode", "RoomID", "SubRoom", "RoomType", "MaxGuests", "Number", "PrivateBathroom"]


def test_sample_workbook_reads_into_the_canonical_frames() -> None:
    loaded = read_rooms(SAMPLES / "rooms.xlsx")
    assert list(loaded.rooms.columns) == list(ROOMS_COLUMNS)
    assert list(loaded.subrooms.columns) == list(SUBROOMS_COLUMNS)
    assert list(loaded.amenities.columns) == list(AMENITIES_COLUMNS)
    assert dict(loaded.rooms.dtypes.astype(str)) == {k: v if v != "string" else "string" for k, v in
                                                     ROOMS_COLUMNS.items()}
    assert (len(loaded.rooms), len(loaded.subrooms), len(loaded.amenities)) == (11, 6, 17)
    first = loaded.rooms.iloc[0]
    assert (first["source"], first["sheet"], first["row"]) == ("rooms.xlsx", "Rooms", 2)
    assert first["inv_code"] == "101" and pd.isna(loaded.rooms.iloc[1]["inv_code"])
    assert loaded.rooms.iloc[1]["room_id"] == "1003"
    removal = loaded.amenities[loaded.amenities["row"] == 5].iloc[0]
    assert removal["amenity_code"] == 3 and bool(removal["remove"]) and pd.isna(removal["value"])


def test_headers_match_ignoring_case_spaces_and_underscores(write_xlsx) -> None:
    path = write_xlsx({"Room types": [["hotel_code", "inv code", "room_type", "ROOM TYPE NAME", "max_occupancy"],
                                      [7, "A1", "Double", "Blue room", 2]],
                       "Room amenities": [["HOTEL CODE", "inv_code", "amenity_code", "value"], [7, "A1", 33, 1]]},
                      name="rooms.xlsx")
    loaded = read_rooms(path)
    assert loaded.rooms[["hotel_code", "inv_code", "room_type", "room_name", "max_occupancy"]].iloc[0].tolist() == \
        [7, "A1", "Double", "Blue room", 2]
    assert loaded.amenities[["amenity_code", "value"]].iloc[0].tolist() == [33, 1]
    assert loaded.issues.empty


def test_remove_marker_and_value_zero_both_remove(write_xlsx) -> None:
    path = write_xlsx({"Amenities": [AMEN, [7, "A1", None, None, 2, None, "remove", None, None],
                                     [7, "A1", None, None, 3, None, 0, None, None],
                                     [7, "A1", None, None, 4, None, None, 2, None]]})
    a = read_rooms(path).amenities
    assert a["remove"].tolist() == [True, True, False]
    assert a["value"].tolist()[1:] == [0, 2]


def test_csv_files_are_recognised_by_their_headers(write_csv) -> None:
    path = write_csv([["HotelCode", "RoomID", "SubRoom", "RoomType", "MaxGuests"], ["7", "12", "Bedroom 1",
                                                                                     "bed room", "2"]],
                     name="subrooms.csv")
    s = read_rooms(path).subrooms
    assert s[["room_id", "subroom", "subroom_type", "max_guests"]].iloc[0].tolist() == ["12", "Bedroom 1", "Bedroom", 2]
    assert s["sheet"].iloc[0] == ""


BAD_CELLS = [
    # (sheet, header, row values, column, value, rule, message)
    ("Rooms", ROOMS, [7, "A1", None, 9, "x", 2, 2, 0, 3, None, None], "NonSmoking", "3", "not_a_value",
     "`NonSmoking` is 1 (non-smoking), 0 (smoking allowed) or 2 (both)"),
    ("Rooms", ROOMS, [7, "A1", None, 9, "x", "two", 2, 0, 1, None, None], "MaxOccupancy", "two", "not_a_number",
     "`two` is not a whole number"),
    ("Rooms", ROOMS, [7, "A1", None, 9, "x", 2, 2, 0, 1, 20, "m"], "SizeMeasurementUnit", "m", "not_a_value",
     "write `sqm` (square metres, the default) or `sqft` (square feet)"),
    ("Rooms", ROOMS, [7, None, "R-12", 9, "x", 2, 2, 0, 1, None, None], "RoomID", "R-12", "not_a_number",
     "RoomID is the partner's own id of the room type: a whole number of up to 16 digits"),
    ("Rooms", ROOMS, [None, "A1", None, 9, "x", 2, 2, 0, 1, None, None], "HotelCode", "", "missing_value",
     "the property id (HotelCode) is blank: fill it in"),
    ("Rooms", ROOMS, [7, "A1", None, 9, "x", -1, 2, 0, 1, None, None], "MaxOccupancy", "-1", "not_a_value",
     "`MaxOccupancy` cannot be below 0"),
    ("SubRooms", SUBS, [7, "A1", None, "Bedroom 1", "Kitchen", 2, None, None], "RoomType", "Kitchen", "not_a_value",
     "a sub-room's RoomType is `Bedroom`, `Living room` or `Bathroom`"),
    ("SubRooms", SUBS, [7, "A1", None, None, "Bedroom", 2, None, None], "SubRoom", "", "missing_value",
     "the sub-room key is blank: name each sub-room within its room, e.g. `Bedroom 1`"),
    ("SubRooms", SUBS, [7, "A1", None, "Bedroom 1", "Bedroom", 2, None, 5], "PrivateBathroom", "5", "not_a_value",
     "`PrivateBathroom` is 1 (own bathroom) or 0"),
    ("Amenities", AMEN, [7, "A1", None, None, None, None, 1, None, None], "AmenityCode", "", "missing_value",
     "the amenity code is blank: give the RMA code (AmenityCode or RoomAmenityCode)"),
    ("Amenities", AMEN, [7, "A1", None, None, "kitchen", None, None, None, None], "AmenityCode", "kitchen",
     "not_a_number", "`kitchen` is not an amenity (RMA) code"),
    ("Amenities", AMEN, [7, "A1", None, None, 33, None, 1, 2, None], "Quantity", "2", "value_mismatch",
     "`Value` and `Quantity` mean the same count and differ here: keep one of them"),
    ("Amenities", AMEN, [7, "A1", None, None, 33, None, "lots", None, None], "Value", "lots", "not_a_number",
     "`lots` is not a count (or `remove`)"),
    ("Amenities", AMEN, [7, "A1", None, None, 33, None, 1, None, 3], "Configuration", "3", "not_a_value",
     "`Configuration` is 1 (standard arrangement) or 2 (alternative arrangement)"),
]


@pytest.mark.parametrize(("sheet", "header", "values", "column", "value", "rule", "message"), BAD_CELLS,
                         ids=[f"{c[0]}-{c[3]}-{c[5]}" for c in BAD_CELLS])
def test_a_bad_cell_is_an_issue_on_that_cell(write_xlsx, sheet, header, values, column, value, rule, message) -> None:
    path = write_xlsx({sheet: [header, values]})
    issues = read_rooms(path).issues
    assert len(issues) == 1, issues
    got = issues.iloc[0]
    assert (got["sheet"], got["row"], got["column"], got["value"], got["rule"], got["severity"], got["message"]) == \
        (sheet, 2, column, value, rule, "error", message)


@pytest.mark.parametrize(("sheets", "fragment"), [
    ({"Rooms": [["InvCode", "RoomType"], ["A1", 9]]}, "is missing required column: HotelCode"),
    ({"Rooms": [["HotelCode", "RoomType"], [7, 9]]}, "A room is referred to by `InvCode` or `RoomID`"),
    ({"Amenities": [["HotelCode", "InvCode", "Value"], [7, "A1", 1]]}, "AmenityCode (accepted names"),
    ({"SubRooms": [["HotelCode", "InvCode", "MaxGuests"], [7, "A1", 2]]}, "SubRoom (accepted names"),
    ({"Notes": [["anything"], ["else"]]}, "no Rooms, SubRooms or Amenities sheet found"),
])
def test_unusable_workbooks_raise_a_located_load_error(write_xlsx, sheets, fragment) -> None:
    with pytest.raises(LoadError) as err:
        read_rooms(write_xlsx(sheets))
    assert fragment in str(err.value)


def test_an_unrelated_sheet_beside_room_sheets_is_a_warning(write_xlsx) -> None:
    issues = read_rooms(write_xlsx({"Rooms": [ROOMS[:4], [7, "A1", None, 9]], "Budget": [["x"], ["y"]]})).issues
    assert issues[["sheet", "rule", "severity"]].values.tolist() == [["Budget", "sheet_ignored", "warning"]]


def test_a_note_sheet_for_people_is_skipped_quietly(write_xlsx) -> None:
    """`fetch rooms --out` writes an `About` sheet: reading the workbook back gives no warning for it."""
    loaded = read_rooms(write_xlsx({"Rooms": [ROOMS[:4], [7, "A1", None, 9]],
                                    "About": [["About this workbook"], ["RoomID is not in the platform's read"]]}))
    assert loaded.issues.empty and len(loaded.rooms) == 1


def test_room_keys_match_subrooms_and_amenities_by_invcode_or_roomid(write_xlsx) -> None:
    loaded = read_rooms(write_xlsx({
        "Rooms": [ROOMS[:4], [7, "A1", 11, 9], [7, None, 12, 1]],
        "Amenities": [AMEN[:5], [7, None, 11, None, 2], [7, "A1", None, None, 3], [7, None, 12, None, 59],
                      [7, "B9", None, None, 5], [8, None, 12, None, 6]]}))
    assert room_keys(loaded.rooms).tolist() == ["7:A1", "7:RoomID=12"]
    assert room_keys(loaded.rooms, loaded.amenities).tolist() == ["7:A1", "7:A1", "7:RoomID=12", "7:B9",
                                                                  "8:RoomID=12"]
