"""Room types through the Rooms and Facilities APIs against the sandbox (issue 25): the round trip (fetch, edit a
bed count, a room facility and the number of units, push, fetch: the workbook as edited, one call per changed
part of a unit), a room type made through InvNotif moved half way, and the sandbox's request log."""

from __future__ import annotations

from pathlib import Path

from tests.workbench.flows.conftest import Platform
from tests.workbench.flows.room_workbooks import cells, edit
from workbench.flows.rooms_modular import check_rooms_modular, fetch_rooms_modular
from workbench.flows.rooms_modular_files import write_modular_rooms_workbook
from workbench.flows.rooms_modular_push import push_rooms_modular

HOTEL = 1000004
NEW = {"Rooms": [["HotelCode", "RoomID", "RoomType", "RoomTypeName", "Quantity", "MaxOccupancy", "MaxAdultOccupancy",
                  "MaxChildOccupancy", "MaxInfants"],
                 [HOTEL, 4101, "Apartment", "Garden Apartment", 3, 4, 4, 2, 1],
                 [HOTEL, 4102, "Double", "Patio Double", 10, 2, 2, 1, 1]],
       "SubRooms": [["HotelCode", "RoomID", "SubRoom", "RoomType", "Number"],
                    [HOTEL, 4101, "Bedroom 1", "Bedroom", None], [HOTEL, 4101, "Living room 1", "Living room", None],
                    [HOTEL, 4101, "Bathroom 1", "Bathroom", 1]],
       "Amenities": [["HotelCode", "RoomID", "SubRoom", "AmenityCode", "Value", "Configuration"],
                     [HOTEL, 4101, "Bedroom 1", 33, 1, None], [HOTEL, 4101, "Living room 1", 102, 1, None],
                     [HOTEL, 4101, None, 251, None, None], [HOTEL, 4102, None, 33, 1, 1],
                     [HOTEL, 4102, None, 2, None, None], [HOTEL, 4102, None, 92, None, None]]}


def fetch(platform: Platform, path: Path, tmp_path: Path) -> Path:
    read = fetch_rooms_modular(platform.settings, [HOTEL], client=platform.client, meta_cache=tmp_path / "meta.json")
    return write_modular_rooms_workbook(read, path)


def push(platform: Platform, book: Path, tmp_path: Path):
    return push_rooms_modular(check_rooms_modular(book), platform.settings, client=platform.client,
                              journal=tmp_path / "j.sqlite", mapping=tmp_path / "map.csv",
                              meta_cache=tmp_path / "meta.json")


def writes(platform: Platform, after: int) -> list[tuple[str, str]]:
    return [(r["method"], r["path"]) for r in platform.box.requests()[after:] if r["method"] not in ("GET", "")]


def test_the_round_trip_sends_one_call_per_changed_part_and_reads_back_as_edited(platform: Platform, tmp_path: Path,
                                                                                 write_xlsx) -> None:
    created = push(platform, write_xlsx(NEW, name="new.xlsx"), tmp_path)
    assert created.ok, created.requests
    ids = dict(zip(created.mapping["room_id"], created.mapping["inv_code"], strict=True))
    apartment, double = ids["4101"], ids["4102"]
    book = fetch(platform, tmp_path / "fetched.xlsx", tmp_path)
    start = len(platform.box.requests())
    assert push(platform, book, tmp_path).requests.empty and writes(platform, start) == []  # unchanged: nothing

    edit(book, "Amenities", {"InvCode": apartment, "SubRoom": "Bedroom 1", "AmenityCode": 33}, {"Value": 2})
    edit(book, "Amenities", {"InvCode": double, "AmenityCode": 92}, {"Value": 0})
    edit(book, "Rooms", {"InvCode": double}, {"Quantity": 12})
    result = push(platform, book, tmp_path)
    assert result.ok, result.requests
    assert sorted(writes(platform, start)) == sorted([
        ("PATCH", f"/rooms-api/properties/{HOTEL}/units/{apartment}"),
        ("PATCH", f"/rooms-api/properties/{HOTEL}/units/{double}"),
        ("PUT", f"/facilities-api/properties/{HOTEL}/rooms/{double}")])
    back = fetch(platform, tmp_path / "back.xlsx", tmp_path)
    for got, want in zip(cells(back), cells(book), strict=True):
        assert got.equals(want)
    units = {r["UnitId"]: r for r in platform.box.table("unit_rooms") if r["Type"] == "LIVING_ROOM_SUBROOM"}
    assert units[apartment]["BedTypeId"] == "5"  # the living room's sofa bed kept


def test_a_room_type_made_through_invnotif_moves_half_way(platform: Platform, tmp_path: Path) -> None:
    """The Family Apartment 402 (made through OTA_HotelInvNotif): its second bedroom's beds edited through the Rooms
    API; the first bedroom and the living room keep theirs, the InvNotif path still reads the room type."""
    book = fetch(platform, tmp_path / "fetched.xlsx", tmp_path)
    edit(book, "Amenities", {"InvCode": 402, "SubRoom": "Bedroom 2"}, {"Value": 1})
    start = len(platform.box.requests())
    result = push(platform, book, tmp_path)
    assert result.ok and writes(platform, start) == [("PATCH", f"/rooms-api/properties/{HOTEL}/units/402")]
    beds = [(r["Room"], r["Type"], r["BedTypeId"], r["BedCount"]) for r in platform.box.table("unit_rooms")
            if r["UnitId"] == "402"]
    assert beds == [("1", "BEDROOM_SUBROOM", "6", "1"), ("2", "BEDROOM_SUBROOM", "1", "1"),
                    ("3", "LIVING_ROOM_SUBROOM", "5", "1")]
    assert any(r["InvCode"] == "402" for r in platform.box.table("rooms"))
