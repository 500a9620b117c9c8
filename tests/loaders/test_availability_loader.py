"""Reading availability: the three layouts, blank = leave as it is, sheets found by headers, cells that
cannot be read (on a key: the row; on a value: that value), and every written cell read once."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from loaders import AVAILABILITY_COLUMNS, RESTRICTIONS, LoadError, read_availability
from loaders.schemas import FLAG_RESTRICTIONS, RESTRICTION_HEADERS
from loaders.unread import unread_rows

LONG = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "Closed", "MinStayArrival"]


def _cells(frame: pd.DataFrame) -> set[tuple]:
    return {(int(r.hotel_code), r.inv_type_code, None if pd.isna(r.rate_plan_code) else r.rate_plan_code,
             r.date.date(), r.restriction, int(r.value)) for r in frame.itertuples()}


def test_long_layout_one_row_per_value_written_blank_leaves_it(write_xlsx) -> None:
    path = write_xlsx({"Winter": [LONG,
                                  [1000001, 101, None, dt.date(2027, 1, 1), 5, None, None],
                                  [1000001, "101", 5001, "2027-01-01", None, 1, 2],
                                  [1000001, "102", None, "2027-01-02", None, None, None]]}, "avail.xlsx")
    frame, issues = read_availability(path)
    assert issues.empty
    assert list(frame.columns) == list(AVAILABILITY_COLUMNS)
    assert frame.dtypes.astype(str).to_dict() == AVAILABILITY_COLUMNS
    assert _cells(frame) == {(1000001, "101", None, dt.date(2027, 1, 1), "rooms_to_sell", 5),
                             (1000001, "101", "5001", dt.date(2027, 1, 1), "closed", 1),
                             (1000001, "101", "5001", dt.date(2027, 1, 1), "min_stay_arrival", 2)}
    by = frame.set_index("restriction")
    assert by.loc["closed", "row"] == 3 and by.loc["closed", "value_column"] == "Closed"
    assert by.loc["rooms_to_sell", "sheet"] == "Winter" and by.loc["rooms_to_sell", "source"] == "avail.xlsx"
    assert frame.attrs["headers"][("avail.xlsx", "Winter")]["layout"] == "long"


def test_range_layout_sets_the_weekdays_flagged(write_csv) -> None:
    path = write_csv([["hotel_id", "room_id", "rate_id", "Start", "End", "Fri", "Sat", "CTA"],
                      [1, "A", "R", "2027-01-01", "2027-01-14", 1, 1, 1]], "weekends.csv")
    frame, issues = read_availability(path)
    assert issues.empty
    assert sorted(frame["date"].dt.strftime("%Y-%m-%d")) == ["2027-01-01", "2027-01-02", "2027-01-08", "2027-01-09"]
    assert set(frame["restriction"]) == {"closed_to_arrival"} and set(frame["value_column"]) == {"CTA"}


def test_wide_sheet_holds_the_restriction_it_is_named_after(write_xlsx) -> None:
    path = write_xlsx({"Min Stay Through": [["HotelCode", "InvTypeCode", "RatePlanCode", "2027-01-01", "2027-01-02"],
                                            [1, "A", "R", 2, None], [1, "B", "R", None, 3]]}, "wide.xlsx")
    frame, issues = read_availability(path)
    assert issues.empty
    assert _cells(frame) == {(1, "A", "R", dt.date(2027, 1, 1), "min_stay_through", 2),
                             (1, "B", "R", dt.date(2027, 1, 2), "min_stay_through", 3)}
    assert sorted(frame["value_column"]) == ["2027-01-01", "2027-01-02"]


def test_a_wide_csv_is_named_by_its_file(write_csv) -> None:
    frame, issues = read_availability(write_csv([["HotelCode", "InvTypeCode", "2027-01-01"], [1, "A", 4]],
                                                "rooms_to_sell.csv"))
    assert issues.empty and _cells(frame) == {(1, "A", None, dt.date(2027, 1, 1), "rooms_to_sell", 4)}


def test_sheets_that_are_not_availability_are_skipped_with_a_warning(write_xlsx, tmp_path) -> None:
    rates = [["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"],
             [1, "A", "R", "2027-01-01", 100, "EUR"]]
    wb = Workbook()
    wb.remove(wb.active)
    for title, rows in {"Avail": [LONG, [1, "A", None, "2027-01-01", 3, None, None]], "Prices": rates,
                        "Notes": [["just words"]], "Hidden": [LONG, [1, "A", None, "2027-01-01", 9, None, None]]}.items():
        ws = wb.create_sheet(title)
        for r in rows:
            ws.append(r)
    wb["Hidden"].sheet_state = "hidden"
    wb.save(tmp_path / "mixed.xlsx")
    frame, issues = read_availability(tmp_path / "mixed.xlsx")
    assert _cells(frame) == {(1, "A", None, dt.date(2027, 1, 1), "rooms_to_sell", 3)}
    assert sorted(zip(issues["sheet"], issues["rule"], strict=True)) == [
        ("Hidden", "hidden_sheet"), ("Notes", "sheet_ignored"), ("Prices", "sheet_ignored")]
    named, _ = read_availability(tmp_path / "mixed.xlsx", sheet="Hidden")
    assert named["value"].tolist() == [9]


@pytest.mark.parametrize(("rows", "message"), [
    ([["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax"], [1, "A", "R", "2027-01-01", 9]],
     "sets no value: give at least one of the columns `RoomsToSell`"),
    ([["HotelCode", "RatePlanCode", "Date", "RoomsToSell"], [1, "R", "2027-01-01", 3]],
     "missing required column: InvTypeCode"),
    ([["HotelCode", "InvTypeCode", "RoomsToSell"], [1, "A", 3]], "needs a `Date` column (long layout)"),
    ([["HotelCode", "InvTypeCode", "2027-01-01"], [1, "A", 3]], "names none of `RoomsToSell`"),
])
def test_a_file_that_cannot_be_read_says_what_it_lacks(write_csv, rows, message) -> None:
    with pytest.raises(LoadError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_availability(write_csv(rows, "avail.csv"))


def test_a_workbook_without_availability_sheets_lists_them(write_xlsx) -> None:
    path = write_xlsx({"Prices": [["HotelCode", "InvTypeCode", "Date", "AmountAfterTax"], [1, "A", "2027-01-01", 9]],
                       "Notes": [["words"]]}, "book.xlsx")
    with pytest.raises(LoadError, match=r"has no availability sheet.*`Prices` \(headers found: `HotelCode`"):
        read_availability(path)


@dataclass(frozen=True)
class BadCell:
    """A sheet row with one cell that cannot be used: the issue it must give, and what stays in the frame."""

    cells: dict[str, object]
    column: str
    rule: str
    message: str
    kept: set[str]  # the restrictions of the row still in the frame


BAD = [
    BadCell({"HotelCode": "x1"}, "HotelCode", "not_a_number", "`x1` is not a property id", set()),
    BadCell({"InvTypeCode": None}, "InvTypeCode", "missing_value", "the room type id (InvTypeCode) is blank", set()),
    BadCell({"RatePlanCode": True}, "RatePlanCode", "not_a_value", "is a yes/no value (TRUE/FALSE), not the rate", set()),
    BadCell({"Date": "31/01/2027"}, "Date", "not_a_date", "is not a date this tool reads", set()),
    BadCell({"RoomsToSell": "abc"}, "RoomsToSell", "not_a_number", "`abc` is not a number of rooms",
            {"closed", "min_stay_arrival"}),
    BadCell({"RoomsToSell": True}, "RoomsToSell", "not_a_number", "is a yes/no value (TRUE/FALSE), not a number",
            {"closed", "min_stay_arrival"}),
    BadCell({"MinStayArrival": 2.5}, "MinStayArrival", "not_a_number", "`2.5` is not a number of nights",
            {"rooms_to_sell", "closed"}),
    BadCell({"Closed": "maybe"}, "Closed", "not_a_flag", "`maybe` is not a yes/no flag",
            {"rooms_to_sell", "min_stay_arrival"}),
]


@pytest.mark.parametrize("bad", BAD, ids=[f"{b.column}-{b.rule}" for b in BAD])
def test_a_cell_that_cannot_be_read_is_an_issue_on_it(write_xlsx, bad) -> None:
    good = {"HotelCode": 1, "InvTypeCode": "A", "RatePlanCode": "R", "Date": "2027-01-01", "RoomsToSell": 3,
            "Closed": True, "MinStayArrival": 2}
    row = {**good, **bad.cells}
    frame, issues = read_availability(write_xlsx({"S": [LONG, [row[c] for c in LONG]]}, "bad.xlsx"))
    assert issues[["row", "column", "rule"]].values.tolist() == [[2, bad.column, bad.rule]]
    assert bad.message in issues["message"].iloc[0]
    assert set(frame["restriction"]) == bad.kept
    if not bad.kept:  # a key cell: the row is left out, its values kept aside for the rules
        assert set(unread_rows(frame)["restriction"]) == {"rooms_to_sell", "closed", "min_stay_arrival"}


def test_flags_read_excel_booleans_and_words(write_xlsx) -> None:
    rows = [[1, "A", "R", f"2027-01-0{i + 1}", None, flag, None] for i, flag in enumerate([True, False, "yes", "0"])]
    frame, issues = read_availability(write_xlsx({"S": [LONG, *rows]}))
    assert issues.empty and frame.sort_values("date")["value"].tolist() == [1, 0, 1, 0]


def test_an_excel_error_in_a_value_cell_loses_that_value_only(tmp_path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(LONG)
    ws.append([1, "A", "R", "2027-01-01", "=1/0", 1, 2])
    ws["E2"].value = "#DIV/0!"
    ws["E2"].data_type = "e"
    wb.save(tmp_path / "err.xlsx")
    frame, issues = read_availability(tmp_path / "err.xlsx")
    assert issues[["column", "rule"]].values.tolist() == [["RoomsToSell", "excel_error"]]
    assert set(frame["restriction"]) == {"closed", "min_stay_arrival"}


def test_header_row_and_csv_encoding_are_honoured(write_csv) -> None:
    path = write_csv([["Winter availability"], LONG, [1, "Chambre été", None, "2027-01-01", 3, None, None]],
                     "avail.csv", encoding="cp1252")
    frame, issues = read_availability(path, encoding="cp1252", header_row=2)
    assert issues.empty and frame["inv_type_code"].tolist() == ["Chambre été"] and frame["row"].tolist() == [3]


# --- every written cell read once, whatever is written where ---------------------------------------------

cell_keys = st.tuples(st.sampled_from(["A", "B"]), st.sampled_from([None, "R1", "R2"]), st.integers(0, 40))
values = st.one_of(st.none(), st.integers(0, 30))


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(cell_keys, st.fixed_dictionaries(
    {r: st.sampled_from([None, 0, 1]) if r in FLAG_RESTRICTIONS else values for r in RESTRICTIONS}),
    min_size=1, max_size=25))
def test_every_written_cell_becomes_one_row_of_the_frame(tmp_path_factory, grid) -> None:
    header = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", *RESTRICTION_HEADERS.values()]
    rows, expected = [header], set()
    for (room, rate, day), vals in grid.items():
        date = dt.date(2027, 1, 1) + dt.timedelta(days=day)
        rows.append([7, room, rate, date.isoformat(), *[vals[r] for r in RESTRICTIONS]])
        expected |= {(7, room, rate, date, r, v) for r, v in vals.items() if v is not None}
    path = tmp_path_factory.mktemp("avail") / "grid.csv"
    pd.DataFrame(rows[1:], columns=header).to_csv(path, index=False)
    frame, issues = read_availability(path)
    assert issues.empty
    assert _cells(frame) == expected and len(frame) == len(expected)


def test_a_formula_without_a_saved_value_is_not_taken_for_a_blank(tmp_path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(LONG)
    ws.append([1, "A", None, "2027-01-01", "=2+2", None, None])  # openpyxl saves no value: the reader sees a blank
    ws.append([1, "A", "R", "2027-01-01", None, 1, None])
    wb.save(tmp_path / "formula.xlsx")
    frame, issues = read_availability(tmp_path / "formula.xlsx")
    assert issues[["row", "column", "rule"]].values.tolist() == [[2, "RoomsToSell", "formula_no_value"]]
    assert frame["restriction"].tolist() == ["closed"]
