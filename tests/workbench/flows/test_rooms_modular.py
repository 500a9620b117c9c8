"""Room types through the Rooms and Facilities APIs (issue 25), client side: the workbook fetched, edited and pushed
against a platform answering from the hand-written fixtures (``fixture_platform``, ``httpx.MockTransport``), with
the journal and the mapping file of a real push."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import httpx
import pytest

from tests.workbench.flows.fixture_platform import APARTMENT, DOUBLE, HOTEL, SETTINGS, FixturePlatform
from tests.workbench.flows.room_workbooks import cells, edit
from workbench.errors import BlockedByErrors
from workbench.flows.room_files import read_mapping
from workbench.flows.rooms_modular import (
    check_rooms_modular,
    default_api,
    fetch_rooms_modular,
    plan_rooms_modular,
)
from workbench.flows.rooms_modular_files import modular_dry_run, write_modular_rooms_workbook
from workbench.flows.rooms_modular_push import push_rooms_modular
from workbench.writers.journal import Journal


@pytest.fixture
def platform() -> FixturePlatform:
    return FixturePlatform()


def fetched(platform: FixturePlatform, path: Path) -> Path:
    with platform.client() as c:
        read = fetch_rooms_modular(SETTINGS, [HOTEL], client=c, meta_cache=path.parent / "meta.json")
        return write_modular_rooms_workbook(read, path)


def push(platform: FixturePlatform, book: Path, tmp_path: Path, **kw):
    with platform.client() as c:
        return push_rooms_modular(check_rooms_modular(book), SETTINGS, client=c, journal=tmp_path / "j.sqlite",
                                  mapping=tmp_path / "map.csv", meta_cache=tmp_path / "meta.json", **kw)


def test_the_fetched_workbook_pushed_unchanged_sends_nothing(platform: FixturePlatform, tmp_path: Path) -> None:
    result = push(platform, fetched(platform, tmp_path / "f.xlsx"), tmp_path)
    assert result.ok and result.requests.empty and platform.writes() == []


def test_fetch_edit_push_sends_one_call_per_changed_part_and_reads_back_as_edited(platform: FixturePlatform,
                                                                                  tmp_path: Path) -> None:
    book = fetched(platform, tmp_path / "f.xlsx")
    edit(book, "Amenities", {"InvCode": APARTMENT, "SubRoom": "Bedroom 1", "AmenityCode": 33}, {"Value": 2})
    edit(book, "Amenities", {"InvCode": APARTMENT, "AmenityCode": 166}, {"Value": 0})  # the cot goes
    edit(book, "Rooms", {"InvCode": DOUBLE}, {"Quantity": 22})
    result = push(platform, book, tmp_path)
    assert result.ok
    assert [(c.method, c.path) for c in platform.writes()] == [
        ("PATCH", f"/rooms-api/properties/{HOTEL}/units/{APARTMENT}"),
        ("PUT", f"/facilities-api/properties/{HOTEL}/rooms/{APARTMENT}"),
        ("PATCH", f"/rooms-api/properties/{HOTEL}/units/{DOUBLE}")]
    bed, facilities, quantity = (c.body for c in platform.writes())
    assert bed == {"configuration": {"unit_type_id": 1, "rooms": [
        {"type": "BEDROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 3, "bed_count": 2}],
                                                            "is_default_configuration": True}]},
        {"type": "LIVING_ROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 5, "bed_count": 1}],
                                                                "is_default_configuration": True}]}]}}
    assert facilities == [{"room_facility_id": 11, "state": "PRESENT", "room_facility_instances": []},
                          {"room_facility_id": 175, "state": "MISSING"}]
    assert quantity == {"number_of_units": 22}
    back = fetched(platform, tmp_path / "back.xlsx")
    for got, want in zip(cells(back), cells(book), strict=True):
        assert got.equals(want)


def test_new_units_are_created_in_one_bulk_request_then_get_their_facilities(platform: FixturePlatform,
                                                                             tmp_path: Path, write_xlsx) -> None:
    book = write_xlsx({
        "Rooms": [["HotelCode", "RoomID", "RoomType", "RoomTypeName", "Quantity"],
                  [HOTEL, 4101, "Apartment", "Garden Apartment", 2], [HOTEL, 4102, "Double", "Patio Double", 5]],
        "SubRooms": [["HotelCode", "RoomID", "SubRoom", "RoomType"], [HOTEL, 4101, "Bedroom 1", "Bedroom"]],
        "Amenities": [["HotelCode", "RoomID", "SubRoom", "AmenityCode", "Value", "Configuration"],
                      [HOTEL, 4101, "Bedroom 1", 33, 1, None], [HOTEL, 4102, None, 33, 1, 1],
                      [HOTEL, 4102, None, 92, None, None]]}, name="new.xlsx")
    result = push(platform, book, tmp_path)
    assert result.ok, result.requests
    (bulk, put) = platform.writes()
    assert (bulk.method, bulk.path, [u["correlation_id"] for u in bulk.body["units"]]) == (
        "POST", "/rooms-api/units", ["4101", "4102"])
    assert (put.method, put.path, put.body) == ("PUT", f"/facilities-api/properties/{HOTEL}/rooms/1048000104",
                                                [{"room_facility_id": 38, "state": "PRESENT"}])
    mapping = read_mapping(tmp_path / "map.csv")
    assert mapping[["room_id", "inv_code"]].values.tolist() == [["4101", "1048000103"], ["4102", "1048000104"]]
    again = push(platform, book, tmp_path)  # the mapping names them now: nothing to create, nothing changes
    assert again.ok and again.requests.empty and len(platform.writes()) == 2


def test_a_bulk_answer_lost_after_it_was_applied_is_settled_by_reading_the_units_back(platform: FixturePlatform,
                                                                                     tmp_path: Path,
                                                                                     write_xlsx) -> None:
    platform.lose_bulk_answer = True
    book = write_xlsx({"Rooms": [["HotelCode", "RoomID", "RoomType", "RoomTypeName"],
                                 [HOTEL, 4102, "Double", "Patio Double"]],
                       "Amenities": [["HotelCode", "RoomID", "AmenityCode", "Value"], [HOTEL, 4102, 33, 1]]},
                      name="new.xlsx")
    result = push(platform, book, tmp_path)
    assert result.ok
    assert sum(c.path == "/rooms-api/units" for c in platform.calls) == 1  # never created twice
    assert result.mapping[["room_id", "inv_code"]].values.tolist() == [["4102", "1048000103"]]
    assert "confirmed by reading" in result.requests["texts"].iloc[0]
    with Journal(tmp_path / "j.sqlite") as j:
        assert j.created_table(SETTINGS.base_url, "units")["created_id"].tolist() == ['{"4102": "1048000103"}']


def test_an_earlier_creation_left_unclear_is_settled_before_planning(platform: FixturePlatform, tmp_path: Path,
                                                                     write_xlsx) -> None:
    """A push killed while its bulk creation was in flight: the platform applied it; the same command finds the
    units by reading them back and creates nothing."""
    from workbench.writers.modular_rooms import planned_units

    book = write_xlsx({"Rooms": [["HotelCode", "RoomID", "RoomType", "RoomTypeName"],
                                 [HOTEL, 4102, "Double", "Patio Double"]],
                       "Amenities": [["HotelCode", "RoomID", "AmenityCode", "Value"], [HOTEL, 4102, 33, 1]]},
                      name="new.xlsx")
    with platform.client() as c:
        plan = plan_rooms_modular(check_rooms_modular(book), SETTINGS, client=c, meta_cache=tmp_path / "meta.json")
    (bulk,) = planned_units(plan.requests)
    with Journal(tmp_path / "j.sqlite") as j:  # the killed run: sending, never answered
        run = j.start_run(SETTINGS.base_url, kind="units")
        (rid,) = j.add_planned(run, SETTINGS.base_url, [bulk])
        j.mark_sending(rid)
    platform.handle(httpx.Request("POST", "https://platform.test/rooms-api/units", content=bulk.body))
    platform.calls.clear()
    result = push(platform, book, tmp_path)
    assert result.ok and all(c.path != "/rooms-api/units" for c in platform.calls)
    assert read_mapping(tmp_path / "map.csv")[["room_id", "inv_code"]].values.tolist() == [["4102", "1048000103"]]


@pytest.mark.parametrize(("provider", "now", "expected"), [
    ("Home", dt.datetime(2026, 12, 30, 22, 59, tzinfo=dt.UTC), "ota"),       # 23:59 on the 30th in CET
    ("Home", dt.datetime(2026, 12, 30, 23, 0, tzinfo=dt.UTC), "modular"),    # midnight of the 31st in CET
    ("home", dt.datetime(2027, 3, 1, 12, 0, tzinfo=dt.UTC), "modular"),
    ("Hotel", dt.datetime(2027, 3, 1, 12, 0, tzinfo=dt.UTC), "ota"),         # other types move when they choose
    ("", dt.datetime(2027, 3, 1, 12, 0, tzinfo=dt.UTC), "ota"),
])
def test_the_default_api_is_modular_for_a_home_provider_from_2026_12_31_in_cet(provider: str, now: dt.datetime,
                                                                                expected: str) -> None:
    assert default_api(SETTINGS.with_(provider_type=provider), now=now) == expected


def test_a_dry_run_writes_each_request_as_it_would_be_sent(platform: FixturePlatform, tmp_path: Path) -> None:
    book = fetched(platform, tmp_path / "f.xlsx")
    edit(book, "Rooms", {"InvCode": DOUBLE}, {"Quantity": 21})
    with platform.client() as c:
        plan = plan_rooms_modular(check_rooms_modular(book), SETTINGS, client=c, meta_cache=tmp_path / "meta.json")
    manifest = modular_dry_run(plan, tmp_path / "dry")
    assert manifest[["kind", "part", "method", "path"]].values.tolist() == [
        ["units", "unit", "PATCH", f"/rooms-api/properties/{HOTEL}/units/{DOUBLE}"]]
    (request,) = (tmp_path / "dry").glob("*.json")
    assert request.read_bytes() == b'{"number_of_units":21}' and platform.writes() == []
    changes = (tmp_path / "dry" / "changes.csv").read_text()
    assert "number of units,20,21" in changes


def test_errors_block_the_push_and_nothing_is_sent(platform: FixturePlatform, tmp_path: Path) -> None:
    book = fetched(platform, tmp_path / "f.xlsx")
    edit(book, "Rooms", {"InvCode": DOUBLE}, {"RoomType": "Igloo"})
    with pytest.raises(BlockedByErrors) as err:
        push(platform, book, tmp_path)
    assert err.value.issues is not None
    (issue,) = err.value.issues[err.value.issues["severity"] == "error"].itertuples()
    assert (issue.sheet, issue.column, issue.rule) == ("Rooms", "RoomType", "code_not_in_meta")
    assert "Double (9)" in issue.message and platform.writes() == []


def test_a_platform_error_lands_on_the_cell_behind_its_path(platform: FixturePlatform, tmp_path: Path) -> None:
    book = fetched(platform, tmp_path / "f.xlsx")
    edit(book, "Rooms", {"InvCode": DOUBLE}, {"Quantity": 21})
    refuse = platform.handle

    def handle(request):
        if request.method == "PATCH":
            return httpx.Response(400, json={"data": None, "warnings": [], "meta": {"ruid": "r"}, "errors": [
                {"message": "Invalid value", "code": "320", "details": {"fields": ["number_of_units"]}}]})
        return refuse(request)

    platform.handle = handle  # type: ignore[method-assign]
    result = push(platform, book, tmp_path)
    assert not result.ok
    (issue,) = result.platform_issues.itertuples()
    assert (issue.sheet, issue.column, issue.rule) == ("Rooms", "Quantity", "platform_invalid_value")
    rooms = check_rooms_modular(book).rooms
    assert issue.row == rooms.loc[rooms["inv_code"] == str(DOUBLE), "row"].iloc[0]
