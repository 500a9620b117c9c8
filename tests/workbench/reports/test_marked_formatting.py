"""The marked copy keeps the analyst's formatting, also when several files are copied into one
workbook: number formats (dates stay as written, not ``yyyy-mm-dd h:mm:ss``), freeze panes,
column widths, filters and hidden columns; and every report is written whole or not at all."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from workbench.flows.rates import check_rates
from workbench.paths import SAMPLES
from workbench.reports import ReportContext, write_report
from workbench.reports.output_files import inputs_overlap, same_file, whole_file


def _analysts_book(path: Path) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Rates"
    ws.append(["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"])
    for i in range(5):
        ws.append([1000001, "101", "5001", dt.datetime(2026, 12, 1 + i), 100 + i, "EUR"])
        ws.cell(row=ws.max_row, column=4).number_format = "dd/mm/yyyy"
        ws.cell(row=ws.max_row, column=5).number_format = "#,##0.00"
    ws.freeze_panes = "B2"
    ws.column_dimensions["A"].width = 30
    ws.auto_filter.ref = "A1:F6"
    ws.column_dimensions["F"].hidden = True
    wide = wb.create_sheet("Wide")
    wide.append(["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", dt.datetime(2026, 12, 1),
                 dt.datetime(2026, 12, 2)])
    for c in wide[1][4:]:
        c.number_format = "d mmm"
    wide.append([1000001, "101", "5001", "EUR", 100, -110])
    wide.freeze_panes = "E2"
    wb.save(path)
    return path


@pytest.mark.parametrize("with_csv", [False, True], ids=["one workbook", "workbook and a CSV"])
def test_the_marked_copy_keeps_the_formatting(tmp_path: Path, with_csv: bool) -> None:
    files = [_analysts_book(tmp_path / "mine.xlsx")]
    if with_csv:
        files.append(Path(shutil.copy(SAMPLES / "lisbon_seasons.csv", tmp_path / "lisbon.csv")))
    check = check_rates(files, as_of="2026-11-20")
    assert (check.issues["rule"] == "price_negative").any()  # a cell of the wide sheet is marked
    out = load_workbook(write_report(check.issues, tmp_path / "report.xlsx", ReportContext(files=check.files),
                                     rates=check.frame))
    rates, wide = (out["Rates"], out["Wide"]) if not with_csv else (out["mine Rates"], out["mine Wide"])
    assert rates["D2"].number_format == "dd/mm/yyyy" and rates["E2"].number_format == "#,##0.00"
    assert wide["E1"].number_format == "d mmm" and wide["E1"].value == dt.datetime(2026, 12, 1)
    assert (rates.freeze_panes, wide.freeze_panes) == ("B2", "E2")
    assert rates.column_dimensions["A"].width == 30
    assert rates.auto_filter.ref == "A1:F6"
    assert rates.column_dimensions["F"].hidden
    assert wide["F2"].fill.fgColor.rgb.endswith("FFC7CE")  # the negative price is marked


def test_a_report_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("the old report", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt), whole_file(target) as tmp:
        tmp.write_text("half of a new", encoding="utf-8")
        raise KeyboardInterrupt  # Ctrl-C while writing
    assert target.read_text(encoding="utf-8") == "the old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left


def test_every_report_format_goes_through_a_temporary_name(tmp_path: Path, monkeypatch) -> None:
    """Interrupted while writing, no format leaves a file at the target."""
    import workbench.reports.output_files as of

    check = check_rates(SAMPLES / "rates.xlsx", as_of="2026-12-01")
    real = of.os.replace

    def interrupted(src, dst):  # the bytes are written; the rename never happens
        raise KeyboardInterrupt

    monkeypatch.setattr(of.os, "replace", interrupted)
    for name in ("r.csv", "r.html", "r.xlsx"):
        with pytest.raises(KeyboardInterrupt):
            write_report(check.issues, tmp_path / name, ReportContext(files=check.files), rates=check.frame)
    monkeypatch.setattr(of.os, "replace", real)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("output", "clash"), [
    ("in.xlsx", True), ("./sub/../in.xlsx", True), ("link.xlsx", True), ("hard.xlsx", True),
    ("folder/report.csv", True), ("other.xlsx", False), ("report.html", False)])
def test_outputs_that_are_inputs(tmp_path: Path, monkeypatch, output: str, clash: bool) -> None:
    monkeypatch.chdir(tmp_path)
    Path("in.xlsx").write_bytes(b"x")
    Path("sub").mkdir()
    Path("folder").mkdir()
    Path("link.xlsx").symlink_to(tmp_path / "in.xlsx")
    Path("hard.xlsx").hardlink_to(tmp_path / "in.xlsx")
    found = inputs_overlap([output], ["in.xlsx", "folder"])
    assert bool(found) is clash
    assert same_file("in.xlsx", tmp_path / "in.xlsx")


def test_a_report_gets_the_permissions_a_plain_write_gives(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("x", encoding="utf-8")
    from workbench.reports.output_files import write_text_whole

    whole = write_text_whole(tmp_path / "report.html", "x")
    assert whole.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777


def test_a_report_follows_a_umask_changed_while_running(tmp_path: Path) -> None:
    from workbench.reports.output_files import write_text_whole

    for mask in (0o077, 0o022):
        old = os.umask(mask)
        try:
            plain = tmp_path / f"plain-{mask:o}.txt"
            plain.write_text("x", encoding="utf-8")
            whole = write_text_whole(tmp_path / f"whole-{mask:o}.txt", "x")
        finally:
            os.umask(old)
        assert whole.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777 == 0o666 & ~mask
