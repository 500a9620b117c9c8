"""The right workbook, recognised: each kind told by its sheets and headers, the wrong one refused
with the command to use, Excel's lock files skipped, the workbench's own report sheets skipped."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from loaders import LoadError, read_rates, read_rooms, workbook_kind, wrong_kind_message
from loaders.folders import folder_files
from loaders.own_sheets import own_sheets
from workbench.errors import InputError
from workbench.paths import SAMPLES


def _book(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


AVAILABILITY = [["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End", "RoomsToSell", "Closed",
                 "ClosedToArrival", "ClosedToDeparture", "MinStayArrival", "MaxStayArrival", "MinStayThrough",
                 "MaxStayThrough"], [1000001, "101", "5001", "2026-12-01", "2026-12-31", 5, 0, 0, 0, 1, 7, 1, 7]]
WAIVERS = [["rule", "property", "room", "rate", "start", "end", "reason", "who", "expires"],
           ["price_jump", 1000001, "", "", "", "", "new year", "ana", "2027-01-31"]]
WIDE = [["Rates for December"], [], ["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode",
                                     dt.datetime(2026, 12, 1), dt.datetime(2026, 12, 2), dt.datetime(2026, 12, 3)],
        [1000001, "101", "5001", "EUR", 100, 100, 110]]


@pytest.mark.parametrize(("name", "kind"), [
    ("rates.xlsx", "rates"), ("lisbon_seasons.csv", "rates"), ("rooms.xlsx", "rooms"),
    ("availability.xlsx", "availability"), ("content_modular.xlsx", "content"),
    ("platform_rooms.xlsx", "rooms"), ("content.xlsx", "content"), ("registry.xlsx", "registry")])
def test_each_sample_is_its_kind(name: str, kind: str) -> None:
    assert workbook_kind(SAMPLES / name) == kind


@pytest.mark.parametrize(("sheets", "kind"), [
    ({"Availability": AVAILABILITY}, "availability"),
    ({"Waivers": WAIVERS}, "waivers"),
    ({"December": WIDE}, "rates"),  # a wide sheet below a title row
    ({"Notes": [["anything"]], "Sheet1": [["a", "b"], [1, 2]]}, None),  # nothing certain: read as asked
])
def test_kinds_by_headers(tmp_path: Path, sheets: dict, kind: str | None) -> None:
    assert workbook_kind(_book(tmp_path / "book.xlsx", sheets)) == kind


def test_a_csv_availability_file(tmp_path: Path) -> None:
    path = tmp_path / "avail.csv"
    path.write_text("\n".join(",".join(str(v) for v in row) for row in AVAILABILITY), encoding="utf-8")
    assert workbook_kind(path) == "availability"


@pytest.mark.parametrize(("found", "command", "text"), [
    ("content", "validate", "this is a content workbook: use `workbench validate content`"),
    ("rates", "push", "this is a rates workbook: use `workbench push rates`"),
    ("registry", "validate", "this is a registry workbook: give it with `--registry`"),
    ("availability", "validate", "this is an availability workbook: use `workbench validate availability`"),
])
def test_the_message_names_the_command(found: str, command: str, text: str) -> None:
    assert wrong_kind_message(found, command=command) == text


@pytest.mark.parametrize(("check", "name", "wanted"), [
    ("check_rooms", "content.xlsx", "check_content"), ("check_rooms", "registry.xlsx", "registry="),
    ("check_rates", "rooms.xlsx", "check_rooms"), ("check_content", "rates.xlsx", "check_rates"),
    ("check_availability", "rates.xlsx", "check_rates"), ("check_rates", "availability.xlsx", "check_availability")])
def test_the_python_checks_refuse_the_wrong_workbook(check: str, name: str, wanted: str) -> None:
    import workbench

    with pytest.raises(InputError) as err:
        getattr(workbench, check)(SAMPLES / name)
    assert f"`{name}` is a" in str(err.value) and wanted in str(err.value)


def test_check_rates_names_a_series_for_what_it_is() -> None:
    import pandas as pd

    from workbench import check_rates

    with pytest.raises(TypeError, match="not a Series: give `series.to_frame\\(\\)`"):
        check_rates(pd.Series([1.0, 2.0]))


def test_lock_files_are_skipped_in_a_glob_and_a_folder(tmp_path: Path) -> None:
    shutil.copy(SAMPLES / "rates.xlsx", tmp_path / "rates.xlsx")
    (tmp_path / "~$rates.xlsx").write_bytes(b"\x00" * 165)  # what Excel leaves while the workbook is open
    given = sorted(tmp_path.glob("*.xlsx"))
    assert len(given) == 2
    frame, _ = read_rates(given)
    alone, _ = read_rates(tmp_path / "rates.xlsx")
    assert len(frame) == len(alone)
    assert [source for _, source in folder_files(tmp_path).files] == ["rates.xlsx"]
    with pytest.raises(LoadError, match="lock file Excel keeps while `rates.xlsx` is open"):
        read_rates(tmp_path / "~$rates.xlsx")


def test_a_marked_report_can_be_checked_again(tmp_path: Path) -> None:
    from workbench import check_rates
    from workbench.reports import ReportContext, write_report

    source = shutil.copy(SAMPLES / "rates.xlsx", tmp_path / "rates.xlsx")
    first = check_rates(source, as_of="2026-12-01")
    marked = write_report(first.issues, tmp_path / "marked.xlsx", ReportContext(files=[Path(source)]),
                          rates=first.frame, waived=None)
    assert own_sheets(marked) == {"Issues"}
    again = check_rates(marked, as_of="2026-12-01")
    assert len(again.frame) == len(first.frame)
    skipped = again.issues[again.issues["rule"] == "report_sheets_skipped"]
    assert len(skipped) == 1 and "`Issues`" in skipped["message"].iloc[0]
    # its report in turn replaces the old Issues sheet instead of adding a second one
    twice = write_report(again.issues, tmp_path / "twice.xlsx", ReportContext(files=[marked]), rates=again.frame)
    assert load_workbook(twice).sheetnames == ["Issues", "Amsterdam", "Krakow", "Tokyo OBP"]


def test_a_report_written_before_the_marker_is_told_by_its_header(tmp_path: Path) -> None:
    path = _book(tmp_path / "old.xlsx", {"Issues": [["severity", "rule", "message", "go to cell"]],
                                         "Rooms": [["HotelCode", "InvCode", "RoomType"], [1000001, "101", 9]]})
    assert own_sheets(path) == {"Issues"}
    loaded = read_rooms(path)
    assert len(loaded.rooms) == 1
    assert (loaded.issues["rule"] == "report_sheets_skipped").sum() == 1


def test_an_opendocument_workbook(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("sheet_writers", Path(__file__).with_name("sheet_writers.py"))
    assert spec is not None and spec.loader is not None
    writers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(writers)
    path = writers.write_ods(tmp_path / "rooms.ods", {"Rooms": [["HotelCode", "InvCode", "RoomType"], [1, "101", 9]]})
    assert workbook_kind(path) == "rooms"
