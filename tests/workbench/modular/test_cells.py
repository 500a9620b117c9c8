"""An answer's error path back to the analyst's cell: as written, by its parents, by the Facilities hints, else
the property's own cell; one issue per error and path."""

from __future__ import annotations

import pytest

from tests.workbench.modular.conftest import FIXTURES
from workbench.modular.cells import Cell, CellMap, issues_from_envelope, normalize_path
from workbench.modular.envelope import parse_envelope

ROOT = Cell("content.xlsx", "Property", 3, "ID", "PORTO-01")
POSTCODE = Cell("content.xlsx", "Contacts", 5, "PostalCode", "4050-387")
PARKING = Cell("content.xlsx", "Fees", 7, "ParkingType", "on_site")
NAME = Cell("content.xlsx", "Fees", 7, "Code", "5036")


@pytest.fixture
def cells() -> CellMap:
    m = CellMap(root=ROOT)
    m.at("physical_address.postal_code", POSTCODE)
    m.at("property_facility_list[1]", PARKING)
    m.at("property_facility_list[1].instances[0].parking_details.name", NAME)
    m.hint("facility_id", 2, "property_facility_list[1]")
    m.at("units[0]", Cell("rooms.xlsx", "Rooms", 2, "RoomType", "9"))
    return m


@pytest.mark.parametrize(("path", "details", "cell"), [
    ("physical_address.postal_code", None, POSTCODE),
    ("$.physical_address.postal_code", None, POSTCODE),
    ("  physical_address.postal_code ", None, POSTCODE),
    ("property_facility_list[1].instances[0].parking_details.name", None, NAME),
    ("property_facility_list[1].instances[0].parking_details.max_height_m", None, PARKING),
    ("property_facility_list[1].instances[3]", None, PARKING),
    ("instances.parking_colour", {"facility_id": 2, "instance_id": None}, PARKING),
    ("instances.parking_colour", {"facility_id": 99}, ROOT),
    ("$.units[0].configuration.rooms[0].bed_configurations[0].beds[0].bed_type_id", None,
     Cell("rooms.xlsx", "Rooms", 2, "RoomType", "9")),
    ("position.latitude", None, ROOT),
    ("", None, ROOT),
])
def test_each_path_lands_on_a_cell(cells: CellMap, path: str, details: dict | None, cell: Cell) -> None:
    assert cells.locate(path, details) == cell


def test_normalize_path() -> None:
    assert normalize_path("$.units[1].correlation_id") == "units[1].correlation_id"
    assert normalize_path("$units") == "units"


def test_merged_cells_take_a_prefix() -> None:
    inner = CellMap(cells={"name": NAME}, hints={"facility_id=2": "x"})
    outer = CellMap(root=ROOT)
    outer.merged(inner, "units[0].")
    assert outer.locate("units[0].name") == NAME and outer.hints == {"facility_id=2": "units[0].x"}


def test_issues_from_an_answer_each_on_its_cell(cells: CellMap) -> None:
    env = parse_envelope((FIXTURES / "facilities" / "property_error_missing_answer.json").read_bytes())
    (issue,) = issues_from_envelope(env, cells, "Facilities API")
    assert (issue["sheet"], issue["row"], issue["column"], issue["rule"], issue["severity"]) == \
        ("Fees", 7, "Code", "platform_invalid_value", "error")
    assert issue["message"] == ("the Facilities API answered 320 (Invalid value: must not be null) at "
                                "`property_facility_list[1].instances[0].parking_details.name`: correct this cell and "
                                "send again")


def test_refused_retry_and_warnings_say_what_to_do(cells: CellMap) -> None:
    env = parse_envelope({"errors": [{"code": "150", "message": "Changes are not permitted"},
                                     {"code": 448, "message": "System error"},
                                     {"code": 999, "message": "Odd", "details": {"fields": ["physical_address.postal_code"]}}],
                          "warnings": [{"code": 12, "message": "Rounded", "details": {"fields": ["physical_address"]}}],
                          "meta": {"ruid": "r-9"}})
    issues = issues_from_envelope(env, cells, "Contacts API")
    assert [(i["rule"], i["severity"], i["row"]) for i in issues] == [
        ("platform_not_permitted", "error", 3), ("platform_system_error", "error", 3),
        ("platform_error", "error", 5), ("platform_warning", "warning", 3)]
    assert "does not permit this change" in issues[0]["message"]
    assert issues[1]["message"].endswith("send again later (ruid r-9)")
    assert issues[3]["message"].endswith("(warning; ruid r-9)")
