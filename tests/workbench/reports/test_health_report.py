"""Health reports: HTML (a section and a timeline per property), XLSX and CSV."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from openpyxl import load_workbook

from tests.workbench.health.conftest import AS_OF, nights, write_journal
from tests.workbench.health.test_findings import STD, registry
from workbench import property_health, write_health_report


@pytest.fixture
def health(tmp_path: Path):
    cells = (nights("2026-12-05", "2027-01-20", skip=["2026-12-24"]) + nights("2027-01-21", "2027-01-31", 0)
             + nights("2026-12-01", "2027-12-31", hotel=2, room="201", rate="6001"))
    journal = write_journal(tmp_path / "journal.sqlite", cells)
    reg = registry(STD, ("102", "5001", True, None, False, False))
    return property_health(None, as_of=AS_OF, journal=journal, registry=reg, hotels=[1, 2])


def test_html_has_a_section_and_a_timeline_per_property(health, tmp_path: Path) -> None:
    text = write_health_report(health, tmp_path / "health.html").read_text(encoding="utf-8")
    assert text.count("<section>") == 2 and text.count("<svg") == 2
    assert text.index("<code>1</code>") < text.index("<code>2</code>")  # the property with problems first
    assert "Nothing found" in text  # property 2
    assert "Action needed" in text and "ending_soon" in text and "load prices after 2027-01-20" in text
    # the timeline draws the gap, the closed nights and the horizon's legend
    assert "unpriced (gap)" in text and "closed (price 0)" in text and "60-night horizon" in text


def test_xlsx_and_csv(health, tmp_path: Path) -> None:
    wb = load_workbook(write_health_report(health, tmp_path / "health.xlsx"))
    assert wb.sheetnames == ["Findings", "Properties", "RoomRates"]
    header = [c.value for c in wb["Findings"][1]]
    assert header[:8] == ["hotel_code", "hotel_name", "inv_type_code", "room_name", "rate_plan_code", "rate_name",
                          "finding", "severity"]
    assert wb["Findings"].max_row == len(health.findings) + 1
    csv = pd.read_csv(write_health_report(health, tmp_path / "health.csv"), encoding="utf-8-sig")
    assert csv["finding"].tolist() == health.findings["finding"].tolist()
    assert csv.loc[csv["finding"] == "gap", "from_date"].tolist() == ["2026-12-01", "2026-12-24"]


def test_an_unknown_extension_is_refused(health, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.csv, \.xlsx or \.html"):
        write_health_report(health, tmp_path / "health.pdf")
