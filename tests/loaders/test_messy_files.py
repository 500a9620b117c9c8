"""Files as people really have them: hidden sheets, title rows, booleans, formulas, merged cells,
huge numbers, currency marks, encodings, other sheets, empty files, and every problem of a row."""

from __future__ import annotations

import datetime as dt
import importlib.util
from pathlib import Path

import pandas as pd
import pytest

from expectations import validate_rates
from loaders import LoadError, read_rates, read_rooms
from loaders.unread import unread_rows


def _helper(name: str):  # noqa: ANN202 - a module
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SHEETS = _helper("sheet_writers")
ODS = SHEETS
H = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]
GOOD = [1001, "101", "RO", "2027-01-01", 99.5, "EUR"]
AS_OF = dt.date(2026, 12, 1)


def row(**changes: object) -> list[object]:
    out = dict(zip(H, GOOD, strict=True))
    out.update({k.replace("_", ""): v for k, v in changes.items()})
    return [out[h] for h in H]


workbook = SHEETS.write_xlsx


def rules(issues: pd.DataFrame) -> list[list[object]]:
    return issues[["sheet", "row", "column", "rule"]].values.tolist()


# --- data that must never be sent --------------------------------------------------------------------

@pytest.mark.parametrize("state", ["hidden", "veryHidden"])
def test_a_hidden_sheet_is_not_read_unless_named(tmp_path: Path, state: str) -> None:
    path = workbook(tmp_path / "r.xlsx", {"Rates": [H, GOOD], "OLD do not use": [H, row(Date="2027-01-02",
                                                                                         AmountAfterTax=1)]},
                    states={"OLD do not use": state})
    frame, issues = read_rates(path)
    assert frame["amount"].tolist() == [99.5]  # the hidden 1 EUR price is not read
    words = "very hidden" if state == "veryHidden" else "hidden"
    assert issues[["sheet", "rule", "severity", "value", "message"]].values.tolist() == [
        ["OLD do not use", "hidden_sheet", "warning", words,
         f"{words} sheet `OLD do not use` was not read (hidden sheets are never sent); to read it, name it with "
         "--sheet"]]
    named, notes = read_rates(path, sheet="OLD do not use")
    assert named["amount"].tolist() == [1.0] and notes.empty


def test_a_workbook_with_only_hidden_sheets_cannot_be_used(tmp_path: Path) -> None:
    path = workbook(tmp_path / "r.xlsx", {"Empty": [], "Old": [H, GOOD], "Older": [H, GOOD]},
                    states={"Old": "hidden", "Older": "veryHidden"})
    with pytest.raises(LoadError) as err:
        read_rates(path)
    assert str(err.value) == ("`r.xlsx` has no visible sheet with data; hidden sheets are not read: `Old`, `Older`. "
                              "To read one, name it with --sheet.")


@pytest.mark.parametrize(("cell", "column"), [
    (True, "AmountAfterTax"), (False, "AmountAfterTax"), ("TRUE", "AmountAfterTax"), ("false", "AmountAfterTax"),
    (True, "NumberOfGuests"), ("TRUE", "NumberOfGuests"), (True, "DecimalPlaces"), (True, "HotelCode"),
])
def test_a_boolean_is_never_a_number(tmp_path: Path, cell: object, column: str) -> None:
    header = [*H, "NumberOfGuests", "DecimalPlaces"]
    good = [*GOOD[:4], 9950, "EUR", 2, 2]
    bad = list(good)
    bad[header.index(column)] = cell
    bad[3] = "2027-01-02"
    path = workbook(tmp_path / "r.xlsx", {"S": [header, good, bad]})
    frame, issues = read_rates(path)
    assert frame["row"].tolist() == [2]
    assert rules(issues) == [["S", 3, column, "decimal_places" if column == "DecimalPlaces" else "not_a_number"]]
    assert "is a yes/no value (TRUE/FALSE), not" in issues["message"].iloc[0]
    assert issues["value"].iloc[0].casefold() == str(cell).casefold()


def test_a_boolean_far_below_the_first_thousand_rows_is_caught(tmp_path: Path) -> None:
    """fastexcel types a column from its first rows and coerces a later TRUE to 1.0."""
    rows = [H] + [row(Date=(dt.date(2027, 1, 1) + dt.timedelta(days=i)).isoformat(), AmountAfterTax=50 + i % 7)
                  for i in range(1500)]
    rows.append(row(Date="2031-01-01", AmountAfterTax=True))
    rows.append(row(Date="2031-01-02", AmountAfterTax=1))
    frame, issues = read_rates(workbook(tmp_path / "r.xlsx", {"S": rows}))
    assert len(frame) == 1501 and frame["amount"].iloc[-1] == 1.0
    assert rules(issues) == [["S", 1502, "AmountAfterTax", "not_a_number"]]


def test_a_formula_without_a_saved_value_has_its_own_message(tmp_path: Path) -> None:
    path = workbook(tmp_path / "r.xlsx", {"S": [H, row(AmountAfterTax="=10*2"), row(Date="2027-01-02"),
                                                 row(Date="2027-01-03", HotelCode="=A3")]})
    frame, issues = read_rates(path)
    assert frame["row"].tolist() == [3]
    assert issues[["row", "column", "value", "rule", "message"]].values.tolist() == [
        [2, "AmountAfterTax", "=10*2", "formula_no_value", "formula with no saved value: open and save the file in "
                                                            "Excel"],
        [4, "HotelCode", "=A3", "formula_no_value", "formula with no saved value: open and save the file in Excel"]]


def test_a_row_of_formulas_only_is_not_silently_skipped(tmp_path: Path) -> None:
    path = workbook(tmp_path / "r.xlsx", {"S": [H, GOOD, ["=A2", "=B2", "=C2", "=D2", "=E2*2", "=F2"]]})
    frame, issues = read_rates(path)
    assert len(frame) == 1
    assert set(issues["rule"]) == {"formula_no_value"} and set(issues["row"]) == {3} and len(issues) == 6


@pytest.mark.parametrize(("error", "column"), [("#DIV/0!", "AmountAfterTax"), ("#N/A", "NumberOfGuests"),
                                               ("#REF!", "Date")])
def test_an_excel_error_value_is_located(tmp_path: Path, error: str, column: str) -> None:
    header = [*H, "NumberOfGuests"]
    bad = [*row(Date="2027-01-02"), 2]
    bad[header.index(column)] = error
    path = workbook(tmp_path / "r.xlsx", {"S": [["Summer"], header, [*GOOD, 2], bad]})
    frame, issues = read_rates(path)
    assert frame["row"].tolist() == [3]
    assert issues[["row", "column", "value", "rule", "message"]].values.tolist() == [
        [4, column, error, "excel_error", f"the cell holds the Excel error `{error}`: correct the formula, or type the "
                                          "value"]]


def test_cells_of_a_merged_range_are_not_blank_values(tmp_path: Path) -> None:
    rows = [H, GOOD, row(HotelCode=None, Date="2027-01-02"), row(HotelCode=None, Date="2027-01-03")]
    path = workbook(tmp_path / "r.xlsx", {"S": rows}, merges={"S": ["A2:A4"]})
    frame, issues = read_rates(path)
    assert frame["row"].tolist() == [2]
    assert issues[["row", "column", "value", "rule"]].values.tolist() == [
        [3, "HotelCode", "A2:A4", "merged_cells"], [4, "HotelCode", "A2:A4", "merged_cells"]]
    assert issues["message"].iloc[0] == ("part of the merged cells `A2:A4`: only the first of them holds the value; "
                                         "unmerge the cells and fill in each row")


# --- no traceback ------------------------------------------------------------------------------------

HUGE = ["1e20", "9999999999999999999", "1e308", "12345678901234567890123"]


@pytest.mark.parametrize("text", HUGE)
def test_huge_numbers_in_a_csv_are_located_errors(write_csv, text: str) -> None:
    frame, issues = read_rates(write_csv([H, row(AmountAfterTax=text)]))
    assert frame.empty
    assert rules(issues) == [["", 2, "AmountAfterTax", "not_a_number"]]
    assert issues["message"].iloc[0].endswith("is beyond what the platform accepts (at most 50,000 EUR a night, or "
                                              "the equivalent): check for extra digits")


@pytest.mark.parametrize("value", [1e20, 9999999999999999999, 1e308, 12345678901234567890123])
def test_huge_numbers_in_a_workbook_long_and_wide(tmp_path: Path, value: float) -> None:
    wide = [["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", dt.datetime(2027, 1, 1),
             dt.datetime(2027, 1, 2)], [1001, "101", "RO", "EUR", value, 80]]
    path = workbook(tmp_path / "r.xlsx", {"Long": [H, row(AmountAfterTax=value), row(Date="2027-01-02")],
                                          "Wide": wide})
    frame, issues = read_rates(path)
    assert sorted(zip(frame["sheet"], frame["amount"], strict=True)) == [("Long", 99.5), ("Wide", 80.0)]
    assert rules(issues) == [["Long", 2, "AmountAfterTax", "not_a_number"], ["Wide", 2, "2027-01-01", "not_a_number"]]
    assert all("beyond what the platform accepts" in m for m in issues["message"])


@pytest.mark.parametrize(("cell", "message"), [
    ("9999999999999999999", "`9999999999999999999` is too large for a property id (a whole number)"),
    ("99999999999999999999999", "`99999999999999999999999` is too large for a property id (a whole number)"),
])
def test_huge_ids_are_located_errors(write_csv, cell: str, message: str) -> None:
    frame, issues = read_rates(write_csv([H, row(HotelCode=cell)]))
    assert frame.empty and issues["message"].tolist() == [message]


@pytest.mark.parametrize("night", ["9999-12-31", "1800-01-01", "150000"])
def test_nights_no_date_column_can_hold_are_located_errors(write_csv, night: str) -> None:
    frame, issues = read_rates(write_csv([H, row(Date=night)]))
    assert frame.empty and issues["rule"].tolist() == ["not_a_date"]
    assert "too far in the" in issues["message"].iloc[0]


# --- encodings -------------------------------------------------------------------------------------------

def _csv(tmp_path: Path, text: str, encoding: str, bom: bytes = b"") -> Path:
    path = tmp_path / "rates.csv"
    path.write_bytes(bom + text.encode(encoding))
    return path


TEXT = "HotelCode;InvTypeCode;RatePlanCode;Date;AmountAfterTax;CurrencyCode;Notiz\n" \
       "1001;Zimmer Größe;RO;2027-01-01;€ 99,50;EUR;Frühstück\n"


@pytest.mark.parametrize(("encoding", "bom"), [("utf-16", b""), ("utf-16-le", b""), ("utf-16-be", b""),
                                               ("utf-8", b"\xef\xbb\xbf"), ("utf-8", b""), ("cp1252", b"")])
def test_csv_encodings_are_detected(tmp_path: Path, encoding: str, bom: bytes) -> None:
    frame, issues = read_rates(_csv(tmp_path, TEXT, encoding, bom))
    assert issues.empty
    assert frame[["inv_type_code", "amount_minor", "amount_scale"]].values.tolist() == [["Zimmer Größe", 995, 1]]


def test_a_forced_encoding_is_used(tmp_path: Path) -> None:
    path = _csv(tmp_path, TEXT, "cp1252")
    frame, _ = read_rates(path, encoding="latin-1")  # Latin-1 has no €: the amount is not read
    assert frame.empty
    frame, issues = read_rates(path, encoding="cp1252")
    assert issues.empty and frame["inv_type_code"].tolist() == ["Zimmer Größe"]


@pytest.mark.parametrize(("written", "forced", "fragment"), [
    ("cp1252", "utf-16", "`rates.csv` is not UTF-16 text (byte 89, line 2 cannot be read); the file looks like "
                         "Windows-1252: try --encoding cp1252."),
    ("utf-16", "utf-8", "`rates.csv` is not UTF-8 text (byte 1, line 1 cannot be read); the file looks like "
                        "UTF-16: try --encoding utf-16."),
    ("utf-16", "cp1252", "`rates.csv` holds zero bytes when read as Windows-1252: the file looks like UTF-16 text: "
                         "try --encoding utf-16."),
    ("utf-8", "utf-16-le", "The file looks like UTF-8 text, not UTF-16 LE: try --encoding utf-8."),
])
def test_a_wrong_encoding_names_the_likely_one(tmp_path: Path, written: str, forced: str, fragment: str) -> None:
    with pytest.raises(LoadError) as err:
        read_rates(_csv(tmp_path, TEXT, written), encoding=forced)
    assert fragment in str(err.value)


def test_garbled_headers_name_the_encoding(tmp_path: Path) -> None:
    text = "Hötel;Zimmer;Rate\n1;2;3\n"
    with pytest.raises(LoadError) as err:
        read_rates(_csv(tmp_path, text, "utf-8"), encoding="cp1252")
    assert "The headers look garbled (`HÃ¶tel`): the file was read as Windows-1252; give its encoding with " \
           "--encoding (e.g. utf-8, utf-16, cp1252)." in str(err.value)


def test_an_unknown_encoding_name(write_csv) -> None:
    with pytest.raises(LoadError, match="`latin-9x` is not an encoding this tool knows"):
        read_rates(write_csv([H, GOOD]), encoding="latin-9x")


# --- title rows and headers --------------------------------------------------------------------------------

def test_the_header_row_is_found_below_title_rows(tmp_path: Path) -> None:
    rows = [["Price list summer 2027"], ["Hotel Aurora", None, "valid from 1 May"], [], H, GOOD,
            row(Date="2027-01-02")]
    frame, issues = read_rates(workbook(tmp_path / "r.xlsx", {"S": rows}))
    assert issues.empty and frame["row"].tolist() == [5, 6]


def test_the_header_row_is_found_in_a_csv_and_can_be_forced(write_csv) -> None:
    path = write_csv([["Price list"], ["Hotel", "Aurora"], H, GOOD])
    frame, issues = read_rates(path)
    assert issues.empty and frame["row"].tolist() == [4]
    forced, _ = read_rates(path, header_row=3)
    assert forced["row"].tolist() == [4]
    with pytest.raises(LoadError, match="`rates.csv` is missing required column"):
        read_rates(path, header_row=2)


def test_the_header_row_can_be_forced_in_a_workbook(tmp_path: Path) -> None:
    rows = [["Notes"]] * 25 + [H, GOOD]  # beyond the first 20 rows: not found by itself
    path = workbook(tmp_path / "r.xlsx", {"S": rows, "Lookup": [["code", "name"], ["RO", "Room only"]]})
    with pytest.raises(LoadError, match="`r.xlsx` has no rates sheet"):
        read_rates(path)
    frame, issues = read_rates(path, header_row=26)
    assert frame["row"].tolist() == [27]
    assert issues[["sheet", "rule"]].values.tolist() == [["Lookup", "sheet_ignored"]]  # row 26 of Lookup is blank
    with pytest.raises(LoadError, match=r"Sheets: `S` \(row 40 is blank\); `Lookup` \(row 40 is blank\)\."):
        read_rates(path, header_row=40)
    with pytest.raises(LoadError, match="row 40 is blank or past the end; --header-row must give the row"):
        read_rates(path, sheet="S", header_row=40)


@pytest.mark.parametrize(("rows", "merges", "fragment"), [
    ([["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "Price", None, "CurrencyCode"],
      [None, None, None, None, "after tax", "before tax", None], [1001, "101", "RO", "2027-01-01", 10, None, "EUR"]],
     ["E1:F1", "A1:A2"], "rows 1 and 2 both look like header rows (a header over two rows, or merged header cells): "
                         "keep one header row with one name per column"),
    ([[None, None, None, None, "Amount", None, None],
      ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AfterTax", "BeforeTax", "CurrencyCode"],
      [1001, "101", "RO", "2027-01-01", 10, None, "EUR"]],
     ["E1:F1"], "Row 1 above the header looks like part of it (a header over two rows, or merged header cells)"),
])
def test_a_header_over_two_rows_says_to_keep_one(tmp_path: Path, rows, merges, fragment: str) -> None:
    with pytest.raises(LoadError) as err:
        read_rates(workbook(tmp_path / "r.xlsx", {"S": rows}, merges={"S": merges}))
    assert fragment in str(err.value)


# --- other sheets, empty files ------------------------------------------------------------------------------

def test_a_sheet_that_is_not_a_rates_sheet_is_skipped_with_a_warning(tmp_path: Path) -> None:
    path = workbook(tmp_path / "r.xlsx", {"Rates": [H, GOOD], "Lookup": [["code", "name"], ["RO", "Room only"]],
                                          "Notes": [["Prices agreed with the owner on 3 May"]]})
    frame, issues = read_rates(path)
    assert len(frame) == 1
    assert issues[["sheet", "rule", "severity", "value"]].values.tolist() == [
        ["Lookup", "sheet_ignored", "warning", "not a rates sheet"], ["Notes", "sheet_ignored", "warning",
                                                                       "not a rates sheet"]]
    assert issues["message"].iloc[0] == (
        "sheet `Lookup` is not a rates sheet (no row within its first 20 names rates columns such as `HotelCode`, "
        "`InvTypeCode`, `RatePlanCode`; headers found: `code`, `name`) and was not read")
    with pytest.raises(LoadError, match="`r.xlsx` sheet `Lookup` is missing required column"):
        read_rates(path, sheet="Lookup")  # named: read, and its problem is an error


def test_a_workbook_without_a_rates_sheet_cannot_be_used(tmp_path: Path) -> None:
    path = workbook(tmp_path / "r.xlsx", {"Lookup": [["code", "name"], ["RO", "x"]], "Notes": [["hello"]]})
    with pytest.raises(LoadError) as err:
        read_rates(path)
    assert str(err.value).startswith("`r.xlsx` has no rates sheet: no sheet names rates columns")
    assert "Sheets: `Lookup` (headers found: `code`, `name`); `Notes` (headers found: `hello`)." in str(err.value)


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_headers_without_rows_are_a_warning(tmp_path: Path, write_csv, kind: str) -> None:
    path = write_csv([H]) if kind == "csv" else workbook(tmp_path / "rates.xlsx", {"Rates": [H]})
    frame, issues = read_rates(path)
    where = "`rates.csv`" if kind == "csv" else "`rates.xlsx` sheet `Rates`"
    assert frame.empty
    assert issues[["row", "rule", "severity", "message"]].values.tolist() == [
        [1, "no_prices", "warning", f"no prices in {where}: it has a header row but no rows below it"]]


# --- currency marks in amounts ---------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "currency", "minor", "scale"), [
    ("€ 99,50", "EUR", 995, 1), ("99.99 EUR", "EUR", 9999, 2), ("£99.50", "GBP", 995, 1), ("¥12,000", "JPY", 12000, 0),
    ("CHF 120.-", "CHF", 120, 0), ("-€ 5", "EUR", -5, 0), ("$1,250.00", "USD", 1250, 0), ("1.250,50 €", "EUR", 12505, 1),
    ("99,50 eur", "EUR", 995, 1), ("kr 450", "SEK", 450, 0),
])
def test_an_amount_with_the_rows_currency_is_read_exactly(write_csv, text: str, currency: str, minor: int,
                                                         scale: int) -> None:
    frame, issues = read_rates(write_csv([H, row(AmountAfterTax=text, CurrencyCode=currency)]))
    assert issues.empty
    assert frame[["amount_minor", "amount_scale"]].values.tolist() == [[minor, scale]]


@pytest.mark.parametrize(("text", "currency", "message"), [
    ("£99.50", "EUR", "`£99.50` is written in GBP, but the row's currency (CurrencyCode) is EUR: give the price in "
                      "EUR, or correct CurrencyCode"),
    ("99.99 USD", "CHF", "`99.99 USD` is written in USD, but the row's currency (CurrencyCode) is CHF: give the price "
                         "in CHF, or correct CurrencyCode"),
    ("¥12,000", "EUR", "`¥12,000` is written in one of CNY, JPY, but the row's currency (CurrencyCode) is EUR: give "
                       "the price in EUR, or correct CurrencyCode"),
    ("€ 99 USD", "USD", "`€ 99 USD` names two different currencies"),
])
def test_an_amount_in_another_currency_is_an_error_naming_both(write_csv, text: str, currency: str,
                                                               message: str) -> None:
    frame, issues = read_rates(write_csv([H, row(AmountAfterTax=text, CurrencyCode=currency)]))
    assert frame.empty
    assert issues[["column", "message"]].values.tolist() == [["AmountAfterTax", message]]


# --- every problem of a row -------------------------------------------------------------------------------

def test_every_unreadable_cell_of_a_row_is_reported(write_csv) -> None:
    path = write_csv([H + ["NumberOfGuests"], row(HotelCode="abc", Date="31/12/2027", AmountAfterTax="12O",
                                                  CurrencyCode="Euro") + ["two"]])
    frame, issues = read_rates(path)
    assert frame.empty
    assert sorted(issues["column"]) == ["AmountAfterTax", "CurrencyCode", "Date", "HotelCode", "NumberOfGuests"]


def test_a_bad_date_and_a_negative_price_are_both_reported(write_csv) -> None:
    frame, load_issues = read_rates(write_csv([H, GOOD, row(Date="31/12/2027", AmountAfterTax="-5")]))
    assert len(frame) == 1
    unread = unread_rows(frame)
    assert unread is not None and unread["row"].tolist() == [3] and unread["amount"].tolist() == [-5.0]
    issues = validate_rates(frame, as_of=AS_OF, load_issues=load_issues)
    found = issues[issues["row"] == 3][["column", "rule"]].values.tolist()
    assert found == [["AmountAfterTax", "price_negative"], ["Date", "not_a_date"]]


def test_unread_rows_of_a_range_keep_their_nights_for_the_rules(write_csv) -> None:
    header = ["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End", "Mon", "AmountAfterTax", "CurrencyCode"]
    path = write_csv([header, [1001, "101", "RO", "2020-01-01", "2020-01-05", "maybe", "90000", "EUR"]])
    frame, load_issues = read_rates(path)
    issues = validate_rates(frame, as_of=AS_OF, load_issues=load_issues)
    assert sorted(issues["rule"]) == ["date_window", "not_a_flag", "price_cap"]


# --- rooms -------------------------------------------------------------------------------------------------

def test_validate_rooms_on_a_rates_workbook_says_so(tmp_path: Path) -> None:
    path = workbook(tmp_path / "rates.xlsx", {"Amsterdam": [H, GOOD], "Krakow": [H, GOOD]})
    with pytest.raises(LoadError) as err:
        read_rooms(path)
    assert str(err.value) == (
        "`rates.xlsx` is not a rooms workbook: `Amsterdam`, `Krakow` look like rates (columns such as `RatePlanCode`, "
        "`Date`, `AmountAfterTax`); check rates with `workbench validate rates`. A rooms workbook has `Rooms`, "
        "`SubRooms` or `Amenities` sheets (see docs/rooms.md).")


def test_rooms_hidden_sheets_booleans_and_a_rates_sheet_beside_them(tmp_path: Path) -> None:
    path = workbook(tmp_path / "rooms.xlsx", {
        "Rooms": [["HotelCode", "InvCode", "RoomType", "MaxOccupancy", "Quantity"], [7, "A1", 1, True, 3]],
        "Old rooms": [["HotelCode", "InvCode", "RoomType"], [7, "A1", 9]],
        "Prices": [H, GOOD]}, states={"Old rooms": "hidden"})
    loaded = read_rooms(path)
    assert loaded.rooms["max_occupancy"].isna().tolist() == [True] and loaded.rooms["quantity"].tolist() == [3]
    assert loaded.issues[["sheet", "column", "rule", "severity"]].values.tolist() == [
        ["Old rooms", "", "hidden_sheet", "warning"], ["Prices", "", "sheet_ignored", "warning"],
        ["Rooms", "MaxOccupancy", "not_a_number", "error"]]


def test_rooms_headers_without_rows_are_a_warning(tmp_path: Path) -> None:
    loaded = read_rooms(workbook(tmp_path / "rooms.xlsx", {"Rooms": [["HotelCode", "InvCode", "RoomType"]]}))
    assert loaded.issues[["rule", "severity"]].values.tolist() == [["no_rows", "warning"]]


def test_ods_workbooks_read_like_excel(tmp_path: Path) -> None:
    """calamine reads ODS: hidden sheets, title rows and booleans behave the same."""
    path = ODS.write_ods(tmp_path / "r.ods", {"Rates": [["Summer"], H, GOOD, row(Date="2027-01-02", AmountAfterTax=True)],
                                          "Old": [H, GOOD]}, hidden=("Old",))
    frame, issues = read_rates(path)
    assert frame["row"].tolist() == [3]
    assert rules(issues) == [["Old", 1, "", "hidden_sheet"], ["Rates", 4, "AmountAfterTax", "not_a_number"]]


# --- fastexcel's own output, and numbers written as Excel shows them ------------------------------------

def test_fastexcel_log_lines_do_not_reach_the_console(tmp_path: Path) -> None:
    """A column fastexcel cannot type (all error values) makes it log "Could not determine dtype for
    column 6"; a person running the tool never sees it (a subprocess: pytest captures logging itself)."""
    import os
    import subprocess
    import sys

    path = workbook(tmp_path / "r.xlsx", {"S": [[*H, "Notes"], [*GOOD, "#N/A"], [*row(Date="2027-01-02"), "#DIV/0!"]]})
    code = f"from loaders import read_rates; f, i = read_rates({str(path)!r}); print(len(f), len(i))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert out.returncode == 0 and out.stdout.split() == ["2", "0"], out.stderr
    assert out.stderr == ""


def test_an_amount_read_as_text_is_written_as_excel_shows_it(tmp_path: Path) -> None:
    """fastexcel writes a number asked for as text with up to 9 decimals (123456789.123456806);
    the loader writes it with Excel's 15 significant digits, like a typed number."""
    frame, issues = read_rates(workbook(tmp_path / "r.xlsx", {"S": [H, row(AmountAfterTax=123456789.123456789),
                                                                     row(Date="2027-01-02", AmountAfterTax=0.1 + 0.2)]}))
    assert issues.empty
    assert frame[["amount_minor", "amount_scale"]].values.tolist() == [[123456789123457, 6], [3, 1]]


@pytest.mark.parametrize("column", ["InvTypeCode", "RatePlanCode"])
def test_a_boolean_is_not_a_room_or_rate_code(tmp_path: Path, column: str) -> None:
    bad = row(Date="2027-01-02")
    bad[H.index(column)] = True
    frame, issues = read_rates(workbook(tmp_path / "r.xlsx", {"S": [H, GOOD, bad]}))
    assert frame["row"].tolist() == [2]
    assert issues[["row", "column", "value", "rule"]].values.tolist() == [[3, column, "true", "not_a_value"]]
