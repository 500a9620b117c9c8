"""Issue 10, room types: against the sandbox answering as the platform publishes (in-process), a fetched workbook
edited by an analyst never loses a stored fact: a part is sent only whole, else the room is refused with an
issue on the analyst's cell; a bed stored in both arrangements is two facts; Active 0/1 (de)activates."""

from __future__ import annotations

import pandas as pd
import pytest

from workbench.flows.rooms import BlockedByErrors, check_rooms, fetch_rooms, preview_rooms, push_rooms

# the Family Apartment 402 of Lisbon as the analyst's own records hold it (data/samples/_generate_platform_rooms.py)
APARTMENT_SUBROOMS = [("Bedroom 1", "Bedroom", 2, None, 1), ("Bedroom 2", "Bedroom", 2, None, 0),
                      ("Living room 1", "Living room", 1, 1, None), ("Bathroom 1", "Bathroom", None, 2, None)]
APARTMENT_BEDS = [("Bedroom 1", 58, 1), ("Bedroom 2", 113, 2), ("Living room 1", 102, 1)]


def _changed(before: list[dict], after: list[dict]) -> tuple[list[dict], list[dict]]:
    return [r for r in before if r not in after], [r for r in after if r not in before]


def _blocked(check, platform) -> pd.DataFrame:
    with pytest.raises(BlockedByErrors) as err:
        push_rooms(check, platform.settings, client=platform.client)
    assert err.value.issues is not None
    return err.value.issues[err.value.issues["severity"] == "error"]


def test_a_fetched_workbook_pushed_unchanged_sends_nothing(platform, tmp_path) -> None:
    path = platform.fetch_workbook([1000001, 1000004], tmp_path / "f.xlsx")
    check = check_rooms(path)
    assert check.ok, check.issues
    plan = preview_rooms(check, platform.settings, client=platform.client)
    assert plan.ok and plan.requests == [] and plan.diff.empty and plan.parts.empty


def test_changing_one_subroom_is_refused_when_the_read_has_no_subrooms(platform, tmp_path, sheets) -> None:
    """Finding 4: SubRooms holding one sub-room would wipe the three others and all their beds."""
    before = platform.tables()
    path = platform.fetch_workbook([1000004], tmp_path / "f.xlsx")
    (n,) = sheets.append_rows(path, "SubRooms", [{"HotelCode": 1000004, "InvCode": "402", "SubRoom": "Bedroom 1",
                                                  "RoomType": "Bedroom", "MaxGuests": 3}])
    issues = _blocked(check_rooms(path), platform)
    (issue,) = issues.itertuples()
    assert (issue.sheet, issue.row, issue.column, issue.value, issue.rule) == (
        "SubRooms", n, "MaxGuests", "3", "part_incomplete")
    assert "replaces every sub-room of the room and their beds" in issue.message
    assert "`SubRoomCount` on its Rooms row" in issue.message
    assert platform.tables() == before


def test_listing_every_subroom_changes_one_and_keeps_the_others_and_their_beds(platform, tmp_path, sheets) -> None:
    before = platform.tables()
    path = platform.fetch_workbook([1000004], tmp_path / "f.xlsx")
    sheets.set_cells(path, "Rooms", sheets.row_of(path, "Rooms", InvCode="402"), {"SubRoomCount": 4})
    sheets.append_rows(path, "SubRooms", [
        {"HotelCode": 1000004, "InvCode": "402", "SubRoom": key, "RoomType": kind,
         "MaxGuests": 3 if key == "Bedroom 1" else guests, "Number": number, "PrivateBathroom": private}
        for key, kind, guests, number, private in APARTMENT_SUBROOMS])
    sheets.append_rows(path, "Amenities", [{"HotelCode": 1000004, "InvCode": "402", "SubRoom": key, "AmenityCode": code,
                                            "Value": n} for key, code, n in APARTMENT_BEDS])
    check = check_rooms(path)
    assert check.ok, check.issues
    plan = preview_rooms(check, platform.settings, client=platform.client)
    (part,) = plan.parts.itertuples()
    assert (part.inv_code, part.part, part.before) == ("402", "SubRooms", "(not in the platform's read)")
    assert part.after.startswith("Bedroom 1: Bedroom, MaxGuests=3, PrivateBathroom=1, beds 58×1; Bedroom 2")
    result = push_rooms(check, platform.settings, client=platform.client)
    assert result.ok and result.results["parts"].tolist() == ["SubRooms"]
    after = platform.tables()
    assert after["rooms"] == before["rooms"] and after["amenities"] == before["amenities"]
    gone, added = _changed(before["subrooms"], after["subrooms"])
    assert [(r["SubRoom"], r["MaxGuests"]) for r in gone] == [("1", "2")]
    assert [(r["SubRoom"], r["MaxGuests"]) for r in added] == [("1", "3")]


def test_a_bedroom_listed_without_beds_is_refused(platform, tmp_path, sheets) -> None:
    path = platform.fetch_workbook([1000004], tmp_path / "f.xlsx")
    sheets.set_cells(path, "Rooms", sheets.row_of(path, "Rooms", InvCode="402"), {"SubRoomCount": 4})
    rows = sheets.append_rows(path, "SubRooms", [
        {"HotelCode": 1000004, "InvCode": "402", "SubRoom": key, "RoomType": kind, "MaxGuests": guests,
         "Number": number} for key, kind, guests, number, _ in APARTMENT_SUBROOMS])
    sheets.append_rows(path, "Amenities", [{"HotelCode": 1000004, "InvCode": "402", "SubRoom": "Bedroom 1",
                                            "AmenityCode": 58, "Value": 1}])
    issues = _blocked(check_rooms(path), platform)
    assert [(i.sheet, i.row, i.rule) for i in issues.itertuples()] == [("SubRooms", rows[1], "subroom_without_beds")]


def test_a_room_attribute_with_unknown_neighbours_is_refused_until_the_part_is_whole(platform, tmp_path,
                                                                                     sheets) -> None:
    """Finding 4: a Room Overlay with blank cells would clear RoomID, size and units the read does not show."""
    before = platform.tables()
    path = platform.fetch_workbook([1000004], tmp_path / "f.xlsx")
    n = sheets.row_of(path, "Rooms", InvCode="401")
    sheets.set_cells(path, "Rooms", n, {"NonSmoking": 0})
    (issue,) = _blocked(check_rooms(path), platform).itertuples()
    assert (issue.sheet, issue.row, issue.column, issue.value, issue.rule) == ("Rooms", n, "NonSmoking", "0",
                                                                               "part_incomplete")
    assert "fill in `RoomID`, `SizeMeasurement`, `SizeMeasurementUnit`, `Quantity` on this row" in issue.message
    assert platform.tables() == before
    sheets.set_cells(path, "Rooms", n, {"RoomID": 41, "SizeMeasurement": 21, "SizeMeasurementUnit": "sqm",
                                        "Quantity": 6})
    result = push_rooms(check_rooms(path), platform.settings, client=platform.client)
    assert result.ok and result.results["parts"].tolist() == ["Room"]
    gone, added = _changed(before["rooms"], platform.tables()["rooms"])
    assert {k: (gone[0][k], added[0][k]) for k in gone[0] if gone[0][k] != added[0][k]} == {
        "NonSmoking": ("1", "0"), "SizeMeasurement": ("20", "21")}


def test_occupancy_is_sent_whole_from_the_read(platform, tmp_path, sheets) -> None:
    before = platform.tables()
    path = platform.fetch_workbook([1000001], tmp_path / "f.xlsx")
    sheets.set_cells(path, "Rooms", sheets.row_of(path, "Rooms", InvCode="101"), {"MaxOccupancy": 2})
    plan = preview_rooms(check_rooms(path), platform.settings, client=platform.client)
    assert plan.parts[["part", "before", "after"]].values.tolist() == [
        ["Occupancy", "MaxOccupancy=3, MaxAdultOccupancy=2, MaxChildOccupancy=1",
         "MaxOccupancy=2, MaxAdultOccupancy=2, MaxChildOccupancy=1"]]
    assert push_rooms(check_rooms(path), platform.settings, client=platform.client).ok
    gone, added = _changed(before["rooms"], platform.tables()["rooms"])
    assert [(r["InvCode"], r["MaxOccupancy"], r["MaxAdultOccupancy"], r["MaxChildOccupancy"]) for r in added] == [
        ("101", "2", "2", "1")] and len(gone) == 1


def test_a_bed_in_both_arrangements_validates_and_changing_one_keeps_the_other(platform, tmp_path, sheets) -> None:
    """Finding 5: suite 102 holds sofa bed 102 in arrangement 1 and 2 (and double bed 33 in 2); the fetched
    workbook is not a duplicate, and changing the sofa bed of arrangement 1 touches nothing else."""
    before = platform.tables()
    path = platform.fetch_workbook([1000001], tmp_path / "f.xlsx")
    check = check_rooms(path)
    assert check.ok, check.issues
    n = sheets.row_of(path, "Amenities", InvCode="102", AmenityCode=102, Configuration=1)
    sheets.set_cells(path, "Amenities", n, {"Value": 2})
    result = push_rooms(check_rooms(path), platform.settings, client=platform.client)
    assert result.ok and result.plan.parts["part"].tolist() == ["Amenities (beds)"]
    after = platform.tables()
    assert after["rooms"] == before["rooms"] and after["subrooms"] == before["subrooms"]
    gone, added = _changed(before["amenities"], after["amenities"])
    key = ("HotelCode", "InvCode", "SubRoom", "AmenityCode", "Quantity", "Configuration")
    assert [tuple(r[k] for k in key) for r in gone] == [("1000001", "102", "", "102", "1", "1")]
    assert [tuple(r[k] for k in key) for r in added] == [("1000001", "102", "", "102", "2", "1")]


def test_a_row_without_configuration_for_a_bed_stored_in_both_is_ambiguous(platform, tmp_path, sheets) -> None:
    path = platform.fetch_workbook([1000001], tmp_path / "f.xlsx")
    (n,) = sheets.append_rows(path, "Amenities", [{"HotelCode": 1000001, "InvCode": "102", "AmenityCode": 102,
                                                   "Value": 3}])
    n0 = sheets.row_of(path, "Amenities", InvCode="102", AmenityCode=102, Configuration=1)
    sheets.set_cells(path, "Amenities", n0, {"HotelCode": None, "InvCode": None, "AmenityCode": None, "Value": None,
                                             "Configuration": None})
    n1 = sheets.row_of(path, "Amenities", InvCode="102", AmenityCode=102, Configuration=2)
    sheets.set_cells(path, "Amenities", n1, {"HotelCode": None, "InvCode": None, "AmenityCode": None, "Value": None,
                                             "Configuration": None})
    (issue,) = _blocked(check_rooms(path), platform).itertuples()
    assert (issue.row, issue.column, issue.rule) == (n, "Configuration", "configuration_ambiguous")


def test_active_zero_deactivates_and_one_reactivates(platform, tmp_path, sheets) -> None:
    """Finding 9: the Rooms sheet's Active column, sent as SellableProduct@InvStatusType."""
    before = platform.tables()
    path = platform.fetch_workbook([1000001], tmp_path / "f.xlsx")
    n = sheets.row_of(path, "Rooms", InvCode="102")
    sheets.set_cells(path, "Rooms", n, {"Active": 0})
    result = push_rooms(check_rooms(path), platform.settings, client=platform.client)
    assert result.ok and result.results["parts"].tolist() == ["InvStatusType"]
    assert list(fetch_rooms(platform.settings, [1000001], client=platform.client).rooms["inv_code"]) == ["101"]
    assert [r["Active"] for r in platform.tables()["rooms"] if r["InvCode"] == "102"] == ["0"]
    again = push_rooms(check_rooms(path), platform.settings, client=platform.client)  # already inactive: a warning
    assert again.results.empty and again.plan.issues["rule"].tolist() == ["already_inactive"]
    sheets.set_cells(path, "Rooms", n, {"Active": 1})
    back = push_rooms(check_rooms(path), platform.settings, client=platform.client)
    assert back.ok and back.plan.parts[["part", "before", "after"]].values.tolist() == [
        ["InvStatusType", "Deactivated", "Active"]]
    assert list(fetch_rooms(platform.settings, [1000001], client=platform.client).rooms["inv_code"]) == ["101", "102"]
    assert platform.tables() == before


def test_reactivating_sends_the_status_only_and_the_next_push_compares_the_rest(platform, tmp_path) -> None:
    """An inactive room type is not in the read: its facts cannot be merged, so the row's other cells wait for
    the next push (a warning says so); then they are compared with the read like any other."""
    platform.box.sandbox.room_types.set_active(1000001, "102", False)
    path = tmp_path / "r.xlsx"
    pd.DataFrame([{"HotelCode": 1000001, "InvCode": "102", "Active": 1, "MaxCribs": 2}]).to_excel(
        path, sheet_name="Rooms", index=False)
    first = push_rooms(check_rooms(path), platform.settings, client=platform.client)
    assert first.ok and first.results["parts"].tolist() == ["InvStatusType"]
    (warning,) = first.plan.issues.itertuples()
    assert (warning.rule, warning.severity) == ("not_compared", "warning")
    assert "`MaxCribs` cannot be compared" in warning.message and "push the workbook again" in warning.message
    second = push_rooms(check_rooms(path), platform.settings, client=platform.client)
    assert second.ok and second.results["parts"].tolist() == ["Quantities"] and second.plan.issues.empty
    row = next(r for r in platform.tables()["rooms"] if r["InvCode"] == "102")
    assert (row["Active"], row["MaximumAdditionalGuests"], row["MaxCribs"], row["MaxRollaways"]) == ("1", "2", "2",
                                                                                                    "1")
