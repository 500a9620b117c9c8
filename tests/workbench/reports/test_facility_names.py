"""Issue 26: the content report's line of an issue on a Services row names the facility (HTML: where it says
where; XLSX: a ``facility`` column of the Issues sheet); the CSV report keeps the data as it is, the bare code."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest
from lxml import html
from openpyxl import load_workbook

from workbench import check_content
from workbench.reports import ReportContext, write_report
from workbench.reports.validation import CSV_COLUMNS

PROPERTY = [["HotelCode", "HotelName"], [1000001, "Inn One"]]
# row 2: air conditioning with an ExistsCode the platform does not know; row 3: a code no list names, a negative
# price; row 4: a Fees-like code on the Services sheet is still a facility (173 Breakfast), priced below zero
SERVICES = [["HotelCode", "Code", "ExistsCode", "Price", "CurrencyCode"], [1000001, 5, 3, None, None],
            [1000001, 999999, None, -1, "EUR"], [1000001, 173, None, -2, "EUR"]]
FEES = [["HotelCode", "Code", "Amount", "CurrencyCode", "Type"], [1000001, 5, -10, "EUR", "Inclusive"]]
CONTEXT = ReportContext(title="Content validation")


@pytest.fixture
def check(write_xlsx):
    path = write_xlsx({"Property": PROPERTY, "Services": SERVICES, "Fees": FEES}, name="content.xlsx")
    return check_content(path, today=dt.date(2026, 12, 1))


def test_the_html_line_of_a_services_issue_names_its_facility(check, tmp_path: Path) -> None:
    page = html.fromstring(write_report(check.issues, tmp_path / "c.html", CONTEXT).read_text(encoding="utf-8"))
    lines = {tr.findall("td")[2].text_content(): tr.findall("td")[4].text_content()
             for t in page.find_class("lines") for tr in t.iter("tr") if tr.findall("td")}
    assert lines["content.xlsx · Services · row 2 · 5 Air conditioning"] == "3"  # the value stays the bare cell
    assert "content.xlsx · Services · row 4 · 173 Breakfast" in lines
    assert "content.xlsx · Services · row 3" in lines  # a code no list names: nothing made up
    fees = [w for w in lines if "Fees" in w]
    assert fees and not any("Air conditioning" in w for w in fees)  # a fee's code 5 is no facility


def test_the_xlsx_issues_sheet_has_the_facility_of_each_services_line(check, tmp_path: Path) -> None:
    ws = load_workbook(write_report(check.issues, tmp_path / "c.xlsx", CONTEXT))["Issues"]
    rows = list(ws.iter_rows(values_only=True))
    head = list(rows[0])
    assert head.index("facility") == head.index("rows") + 1
    by = {(r[head.index("part")], r[head.index("rows")], r[head.index("column")]): r[head.index("facility")]
          for r in rows[1:]}
    assert by[("Services", "2", "ExistsCode")] == "5 Air conditioning"
    assert by[("Services", "4", "Price")] == "173 Breakfast"
    assert not by[("Services", "3", "Price")]
    assert not any(v for (part, _, _), v in by.items() if part == "Fees")


def test_the_csv_report_keeps_the_bare_code(check, tmp_path: Path) -> None:
    path = write_report(check.issues, tmp_path / "c.csv", CONTEXT)
    text = path.read_text(encoding="utf-8-sig")
    with path.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == CSV_COLUMNS
    assert "Air conditioning" not in text and "Breakfast" not in text
    exists = next(r for r in rows if r["sheet"] == "Services" and r["column"] == "ExistsCode")
    assert (exists["row"], exists["value"]) == ("2", "3")
