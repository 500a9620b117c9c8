"""Issue 26: a frame of services / facilities shows each facility's name beside its hotel amenity code, decided
by what the frame is (the content ``Services`` part), never by a column that happens to be called ``code``."""

from __future__ import annotations

import pandas as pd
import pytest

from expectations.hotel_amenities import facility_label, facility_name, facility_names, services_rows
from loaders import read_content
from tests.workbench.content.frames import frame
from tests.workbench.modular.conftest import data, fixture_meta
from workbench.modular.content import PropertyAnswers, content_from_answers

SERVICES = [["HotelCode", "Code", "Price", "CurrencyCode"], [1000001, 5, None, None], [1000001, 999999, None, None],
            [1000001, None, None, None], [1000001, 173, 12, "EUR"]]
FEES = [["HotelCode", "Code", "Amount", "CurrencyCode", "Type"], [1000001, 5, 10, "EUR", "Inclusive"]]
BLANKS = ("<NA>", "&lt;NA&gt;", ">nan<", ">None<", ">NaT<")


def test_the_code_list_is_transcribed_whole() -> None:
    names = facility_names()
    assert len(names) == 287 and names[5] == "Air conditioning" and names[173] == "Breakfast"
    assert facility_names() is names  # read once


@pytest.mark.parametrize(("code", "name", "label"), [
    (5, "Air conditioning", "5 Air conditioning"), ("5", "Air conditioning", "5 Air conditioning"),
    (5.0, "Air conditioning", "5 Air conditioning"), (999999, "", ""), (None, "", ""), (pd.NA, "", ""),
    (float("nan"), "", ""), ("air", "", ""), (5.5, "", ""),
])
def test_a_code_is_named_only_when_it_is_a_listed_code(code: object, name: str, label: str) -> None:
    assert facility_name(code) == name and facility_label(code) == label


@pytest.mark.parametrize("sheet", ["Services", "Service"])  # "Service" is a name the loader reads as the part
def test_a_services_sheet_shows_each_facility_beside_its_code(write_xlsx, sheet: str) -> None:
    parts = read_content(write_xlsx({sheet: SERVICES, "Fees": FEES}, name="content.xlsx")).parts
    named = parts["Services"].wb.named()
    cols = list(named.columns)
    assert cols.index("facility") == cols.index("code") + 1
    assert named["facility"].tolist() == ["Air conditioning", "", "", "Breakfast"]  # unknown, blank: no name
    page = parts["Services"].wb.show().to_html()
    assert "Air conditioning" in page and "Breakfast" in page
    for marker in BLANKS:
        assert marker not in page
    assert "facility" not in parts["Fees"].wb.named()  # Fees has a `code` too: a fee type, no facility


def test_a_services_csv_file_is_known_by_its_part_not_its_sheet(write_csv) -> None:
    path = write_csv(SERVICES[:2], name="services.csv")
    services = read_content(path).parts["Services"]
    assert services["sheet"].tolist() == [""]
    assert services.wb.named()["facility"].tolist() == ["Air conditioning"]


def test_a_frame_without_the_loaders_map_is_known_by_its_sheet_column() -> None:
    services = frame("Services", [{"hotel_code": 1000001, "code": 5}, {"hotel_code": 1000001, "code": 4242}])
    assert services.wb.named()["facility"].tolist() == ["Air conditioning", ""]
    mixed = pd.DataFrame({"sheet": ["Services", "Fees"], "code": [5, 5]})
    assert services_rows(mixed).tolist() == [True, False]
    assert mixed.wb.named()["facility"].tolist() == ["Air conditioning", ""]


@pytest.mark.parametrize("other", [
    pd.DataFrame({"code": [5, 173]}),                                     # a `code` and nothing saying what it is
    pd.DataFrame({"sheet": ["Fees", "Taxes"], "code": [5, 173]}),         # codes of other parts
    pd.DataFrame({"sheet": ["Services"], "value": ["5"]}),                # a Services row without its code column
])
def test_a_frame_of_anything_else_gets_no_facility_column(other: pd.DataFrame) -> None:
    assert list(other.wb.named().columns) == list(other.columns)


def test_services_read_back_from_the_facilities_api_carry_the_metas_names() -> None:
    meta = fixture_meta()
    answer = PropertyAnswers(facilities=data("facilities", "property_read_answer.json"),
                             key={"hotel_code": 1000004, "custom_id": None})
    services = content_from_answers([answer], meta)["Services"]
    named = services.wb.named().set_index("code")["facility"]
    assert named[228] == "Business centre"  # the meta's facility_name (the code list says "Business center")
    assert named[173] == "Breakfast"
