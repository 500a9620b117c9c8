"""Validation reports, read back with real readers (openpyxl, lxml.html, pandas)."""

from __future__ import annotations

import pandas as pd
import pytest
from lxml import html
from openpyxl import load_workbook

from workbench.flows.rates import check_rates
from workbench.paths import SAMPLES
from workbench.reports import ReportContext, write_report
from workbench.reports.issues_html import FILTER_JS


@pytest.fixture(scope="module")
def check():
    return check_rates([SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"], registry=SAMPLES / "registry.xlsx",
                       as_of="2026-12-01")


def test_csv_is_the_issues_frame(check, tmp_path) -> None:
    path = write_report(check.issues, tmp_path / "issues.csv", rates=check.frame)
    back = pd.read_csv(path, encoding="utf-8-sig", keep_default_na=False)
    assert list(back.columns) == ["source", "sheet", "row", "column", "value", "rule", "severity", "message",
                                  "waived", "waiver_reason", "waived_by", "waiver"]
    assert len(back) == len(check.issues)  # one row per issue, not per range
    assert set(back["waived"]) == {""}


def test_html_has_counts_by_rule_then_the_issues(check, tmp_path) -> None:
    path = write_report(check.issues, tmp_path / "issues.html",
                        ReportContext(files=check.files, as_of=check.as_of, rows_checked=len(check.frame)),
                        rates=check.frame)
    doc = html.fromstring(path.read_text(encoding="utf-8"))
    by_rule = doc.find_class("by-rule")[0]
    rules = {tr.findall("td")[1].text_content(): int(tr.findall("td")[2].text_content())
             for tr in by_rule.findall(".//tbody/tr")}
    assert rules == check.issues.groupby("rule").size().to_dict()
    listed = [tr for t in doc.find_class("lines") for tr in t.findall(".//tbody/tr")]
    assert sum(int(tr.findall("td")[6].text_content().replace(",", "")) for tr in listed) == len(check.issues)
    sections = {s.get("data-prop") for s in doc.xpath("//section[@data-prop]")}
    assert {"1000001", "1000002", "1000003", "1000004"} <= sections  # one section per property
    assert "Blocked" in doc.text_content() and "As of 2026-12-01" in doc.text_content()
    assert "12O.50" in doc.find_class("lines")[0].text_content()


def test_html_escapes_what_the_sheet_contains(tmp_path) -> None:
    issues = pd.DataFrame([{"source": "<b>x</b>.csv", "sheet": "", "row": 2, "column": "A", "value": "<script>",
                            "rule": "r", "severity": "error", "message": "m & m"}])
    text = write_report(issues, tmp_path / "i.html").read_text()
    assert "&lt;script&gt;" in text and "&lt;b&gt;x&lt;/b&gt;.csv" in text
    assert [s.text.strip() for s in html.fromstring(text).xpath("//script")] == [FILTER_JS.strip()]  # only ours


def test_xlsx_marks_the_failing_cells_in_the_analysts_sheets(check, tmp_path) -> None:
    path = write_report(check.issues, tmp_path / "issues.xlsx", ReportContext(files=check.files), rates=check.frame)
    wb = load_workbook(path)
    assert wb.sheetnames[0] == "Issues"
    ams = wb["rates Amsterdam"]
    cell = ams["E272"]  # AmountAfterTax of the row with `12O.50`
    assert cell.value == "12O.50"
    assert cell.fill.fgColor.rgb.endswith("FFC7CE")
    assert "not_a_number" in cell.comment.text
    krakow = wb["rates Krakow"]
    assert krakow["H1"].value.date().isoformat() == "2027-01-04" and "price_negative" in krakow["H4"].comment.text
    assert wb["rates Tokyo OBP"]["F127"].fill.fgColor.rgb.endswith("FFEB9C")  # a warning is yellow
    issues_sheet = wb["Issues"]
    header = [c.value for c in issues_sheet[1]]
    assert sum(r[header.index("issues")] for r in issues_sheet.iter_rows(min_row=2, values_only=True)) \
        == len(check.issues)  # one row per range line, every issue in one of them
    assert issues_sheet["A2"].value == "error" and issues_sheet["A2"].fill.fgColor.rgb.endswith("FFC7CE")
    go_to = issues_sheet[1][header.index("go to cell")].column_letter
    links = [c.hyperlink.location for c in issues_sheet[go_to][1:] if c.hyperlink]
    assert "'rates Amsterdam'!E272" in links


def test_xlsx_of_a_single_workbook_keeps_it_and_adds_issues(tmp_path) -> None:
    check = check_rates(SAMPLES / "rates.xlsx", registry=SAMPLES / "registry.xlsx", as_of="2026-12-01")
    path = write_report(check.issues, tmp_path / "marked.xlsx", ReportContext(files=check.files))
    wb = load_workbook(path)
    assert wb.sheetnames == ["Issues", "Amsterdam", "Krakow", "Tokyo OBP"]
    assert wb["Amsterdam"]["F278"].comment.text.startswith("ERROR property_currency")


def test_unknown_report_extension(check, tmp_path) -> None:
    with pytest.raises(ValueError, match="use a name ending in .csv, .xlsx or .html"):
        write_report(check.issues, tmp_path / "issues.pdf")


def test_validation_marks_land_on_the_named_column_below_title_rows(write_xlsx, tmp_path) -> None:
    import datetime as dt

    import pandas as pd
    from openpyxl import load_workbook

    from workbench.reports.validation import ReportContext, write_report

    book = write_xlsx({"Prices": [["Summer prices 2027"], [],
                                  ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax"],
                                  [1000001, "101", "5001", dt.date(2027, 6, 2), "12O"]]})
    issues = pd.DataFrame([{"source": book.name, "sheet": "Prices", "row": 4, "column": "AmountAfterTax",
                            "value": "12O", "rule": "not_a_number", "severity": "error", "message": "not a number"}])
    wb = load_workbook(write_report(issues, tmp_path / "v.xlsx", ReportContext(files=[book])))
    assert wb["Prices"]["E4"].comment is not None and wb["Prices"]["A4"].comment is None
