"""Rooms and content reports have their own layout: by property and room type, by property and part;
no room-rate, rate or nights columns; the XLSX Issues sheet names each issue's property."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import html
from openpyxl import load_workbook

from workbench import check_content, check_rooms
from workbench.paths import SAMPLES
from workbench.reports import ReportContext, write_report


@pytest.fixture(scope="module")
def rooms():
    return check_rooms(SAMPLES / "rooms.xlsx")


@pytest.fixture(scope="module")
def content():
    return check_content(SAMPLES / "content.xlsx", today=__import__("datetime").date(2026, 12, 1))


def test_rooms_are_grouped_by_property_and_room_type(rooms, tmp_path: Path) -> None:
    page = html.fromstring(write_report(rooms.issues, tmp_path / "r.html",
                                        ReportContext(title="Rooms validation")).read_text(encoding="utf-8"))
    heads = [h.text_content() for h in page.iter("h2", "h3")]
    assert "Property 1000004" in heads and "Room type 4003" in heads
    assert "no one property" not in page.text_content().split("By property")[1].split("Property 1000004")[0]
    columns = {th.text_content() for t in page.find_class("lines") for th in t.iter("th")}
    assert columns == {"Severity", "Rule", "Where", "Column", "Value", "What to do"}  # no Room/Rate/Nights
    assert "consecutive nights" not in page.text_content()


def test_content_is_grouped_by_property_and_part(content, tmp_path: Path) -> None:
    page = html.fromstring(write_report(content.issues, tmp_path / "c.html",
                                        ReportContext(title="Content validation")).read_text(encoding="utf-8"))
    heads = [h.text_content() for h in page.iter("h2", "h3")]
    assert "Property PORTO-01 CASA DO RIO PORTO" in heads and "Part Fees" in heads


@pytest.mark.parametrize("which", ["rooms", "content"])
def test_the_issues_sheet_names_the_property(which: str, rooms, content, tmp_path: Path) -> None:
    check = rooms if which == "rooms" else content
    path = write_report(check.issues, tmp_path / f"{which}.xlsx",
                        ReportContext(title=f"{which.capitalize()} validation", files=check.files))
    sheet = load_workbook(path)["Issues"]
    head = [c.value for c in sheet[1]]
    assert "property" in head and "nights" not in head and "rate" not in head
    props = [r[head.index("property")] for r in sheet.iter_rows(min_row=2, values_only=True)]
    rows = [r[head.index("rows")] for r in sheet.iter_rows(min_row=2, values_only=True)]
    with_row = [p for p, r in zip(props, rows, strict=True) if r]
    assert with_row and sum(1 for p in with_row if p) >= 0.8 * len(with_row)
