"""``workbench validate content`` as a person runs it, and ``check_content`` behind it: exit codes,
the sample's deliberate problems (data/samples/README.md), reports marking the analyst's cells."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl import load_workbook
from typer.testing import CliRunner

from expectations import ContentLookups
from workbench import ContentCheck, check_content
from workbench.cli import app
from workbench.paths import SAMPLES

runner = CliRunner()
SAMPLE = str(SAMPLES / "content.xlsx")
#: the sample's deliberate problems (data/samples/README.md): 16 errors, 2 warnings besides `not_checked`; 4 of
#: the errors are rows the platform no longer takes (attractions and transport, sunset on 2023-06-30)
SAMPLE_ERRORS = ["postcode_country", "phone_extension", "phone_format", "fee_condition_required",
                 "birth_date_required", "tax_number_check_digits", "phrase_options_required", "floors_max",
                 "name_all_caps", "coordinates_country", "tax_category_not_allowed", "rtb_not_enabled",
                 *["sunset_element"] * 4]
SAMPLE_WARNINGS = ["policy_152_applied", "pricing_type_certification"]


def test_the_sample_has_exactly_its_listed_problems() -> None:
    check = check_content(SAMPLE, today=dt.date(2026, 12, 1))
    assert isinstance(check, ContentCheck) and not check.ok
    assert sorted(check.errors["rule"]) == sorted(SAMPLE_ERRORS)
    assert sorted(check.warnings["rule"]) == sorted([*SAMPLE_WARNINGS, "not_checked"])  # currencies: ISO 4217
    assert check.properties["new"].tolist() == [False, True, True, True, True]
    assert "no platform is configured" in check.notes[0]
    html = check._repr_html_()
    assert "Content check" in html and "coordinates_country" in html
    known = check_content(SAMPLE, today=dt.date(2026, 12, 1), rtb_enabled=True, lookups=ContentLookups(
        currencies=frozenset({"EUR", "BRL"}), countries=frozenset({"PT", "BR", "NL"})))
    assert "rtb_not_enabled" not in set(known.errors["rule"])
    assert known.warnings["rule"].tolist().count("not_checked") == 0


def test_validate_exit_1_with_errors_and_reports_mark_the_cells(tmp_path: Path) -> None:
    reports = [tmp_path / "c.csv", tmp_path / "c.xlsx", tmp_path / "c.html"]
    args = ["validate", "content", SAMPLE, "--today", "2026-12-01"]
    for r in reports:
        args += ["--report", str(r)]
    result = runner.invoke(app, args, env={"WORKBENCH_BASE_URL": "", "COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    assert "16 errors, 3 warnings" in result.output
    assert "5 properties read (4 new)" in result.output
    assert all(r.exists() and r.stat().st_size > 0 for r in reports)
    sheet = load_workbook(reports[1])["Contacts"]
    assert sheet["G2"].value == "11001" and sheet["G2"].fill.fgColor.rgb.endswith("FFC7CE")
    assert sheet["G2"].comment is not None and "postcode_country" in sheet["G2"].comment.text


def test_validate_exit_0_when_clean_and_2_when_unusable(write_xlsx, tmp_path: Path) -> None:
    clean = write_xlsx({"Property": [["HotelCode", "HotelName", "LanguageCode", "Target"],
                                     [1000004, "Lisbon Riverside Hotel", "en", "Test"]]}, name="c.xlsx")
    ok = runner.invoke(app, ["validate", "content", str(clean), "--today", "2026-12-01"],
                       env={"WORKBENCH_BASE_URL": ""})
    assert ok.exit_code == 0, ok.output
    assert "0 errors" in ok.output
    missing = runner.invoke(app, ["validate", "content", str(tmp_path / "none.xlsx")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    bad_day = runner.invoke(app, ["validate", "content", SAMPLE, "--today", "1st of May"])
    assert bad_day.exit_code == 2 and "YYYY-MM-DD" in bad_day.output
    bad_report = runner.invoke(app, ["validate", "content", SAMPLE, "--report", str(tmp_path / "r.pdf")])
    assert bad_report.exit_code == 2 and ".csv, .xlsx or .html" in bad_report.output
    no_part = write_xlsx({"Rooms": [["HotelCode", "InvCode"], [1, "A"]]}, name="rooms.xlsx")
    not_content = runner.invoke(app, ["validate", "content", str(no_part)])
    assert not_content.exit_code == 2 and "Traceback" not in not_content.output
