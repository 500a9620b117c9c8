"""``workbench validate availability`` as a person runs it: exit codes, what it prints, the reports."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from openpyxl import load_workbook

from workbench.paths import SAMPLES

SAMPLE = str(SAMPLES / "availability.xlsx")
FACTS = ["--registry", str(SAMPLES / "registry.xlsx"), "--rooms", str(SAMPLES / "platform_rooms.xlsx"),
         "--as-of", "2026-12-01"]


def test_the_sample_exits_1_naming_its_errors_and_writes_every_report(workbench, tmp_path) -> None:
    reports = [tmp_path / "issues.csv", tmp_path / "issues.html", tmp_path / "issues.xlsx"]
    done = workbench(["validate", "availability", SAMPLE, *FACTS, "--show", "3",
                      *[a for p in reports for a in ("--report", str(p))]])
    assert done.returncode == 1, done.stderr
    assert "11 errors, 7 warnings" in done.stdout
    assert "Skipped sheet Notes" in done.stdout and "Skipped sheet Old" in done.stdout
    assert "rooms_to_sell_range" in done.stdout and "Amsterdam row 272" in done.stdout
    csv = pd.read_csv(reports[0])
    assert (csv["rule"] == "min_above_max").sum() == 1 and set(csv["severity"]) == {"error", "warning"}
    html = reports[1].read_text(encoding="utf-8")
    assert "Availability validation" in html and "Property 1000005" in html
    marked = load_workbook(reports[2])
    assert "Issues" in marked.sheetnames and marked["Amsterdam"]["E272"].comment is not None


def test_a_clean_file_exits_0(workbench, write_csv) -> None:
    path = write_csv([["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "MinStayArrival"],
                      [1000001, "101", None, "2027-01-05", 3, None],
                      [1000001, "101", "5001", "2027-01-05", None, 2]], "clean.csv")
    done = workbench(["validate", "availability", str(path), *FACTS])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 values read" in done.stdout and "0 errors, 0 warnings" in done.stdout


def test_input_that_cannot_be_used_exits_2_in_one_line(workbench, tmp_path: Path) -> None:
    missing = workbench(["validate", "availability", str(tmp_path / "nope.xlsx")])
    assert missing.returncode == 2 and "does not exist" in missing.stderr and "Traceback" not in missing.stderr
    bad_date = workbench(["validate", "availability", SAMPLE, "--as-of", "2026-13-01"])
    assert bad_date.returncode == 2 and "is not a date" in bad_date.stderr
    bad_report = workbench(["validate", "availability", SAMPLE, "--report", str(tmp_path / "x.pdf")])
    assert bad_report.returncode == 2 and "use a name ending in .csv, .xlsx or .html" in bad_report.stderr
