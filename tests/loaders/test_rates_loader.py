"""Reading rates: the three layouts, header matching, values, provenance, and located errors."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest

from loaders import LoadError, read_rates
from loaders.schemas import RATES_COLUMNS

H = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]


def test_long_layout_types_and_provenance(write_xlsx) -> None:
    path = write_xlsx({"Summer": [H, [1001, "101", "RO", dt.date(2027, 1, 1), 99.99, "EUR"],
                                  [None] * 6,
                                  [1001, 101, "RO", "2027-01-02", "1.234,50", " eur "]]})
    frame, issues = read_rates(path)
    assert issues.empty
    assert list(frame.columns) == list(RATES_COLUMNS)
    assert frame.dtypes.astype(str).to_dict() == RATES_COLUMNS
    assert frame["row"].tolist() == [2, 4]  # the blank row 3 is skipped, numbering is Excel's
    assert frame["sheet"].tolist() == ["Summer", "Summer"]
    assert frame["source"].tolist() == ["rates.xlsx", "rates.xlsx"]
    assert frame["date"].tolist() == [pd.Timestamp("2027-01-01"), pd.Timestamp("2027-01-02")]
    assert frame["inv_type_code"].tolist() == ["101", "101"]
    assert frame["currency_code"].tolist() == ["EUR", "EUR"]
    assert frame[["amount_minor", "amount_scale"]].values.tolist() == [[9999, 2], [12345, 1]]
    assert frame["amount"].tolist() == [99.99, 1234.5]
    assert frame["amount_type"].tolist() == ["AfterTax", "AfterTax"]


def test_header_row_below_blank_rows_keeps_excel_row_numbers(write_xlsx) -> None:
    path = write_xlsx({"S": [[], [], H, [1001, "101", "RO", "2027-01-01", 10, "EUR"]]})
    frame, _ = read_rates(path)
    assert frame["row"].tolist() == [4]


@pytest.mark.parametrize("headers", [
    ["hotel_id", "room_id", "rate_plan_id", "date", "amount_after_tax", "currency"],
    ["HOTEL CODE", "Inv Type Code", "rate-plan-code", " date ", "Amount_After_Tax", "Currency Code"],
    ["hotelcode", "invtypecode", "rateplancode", "DATE", "amountaftertax", "currencycode"],
])
def test_headers_match_ignoring_case_spaces_and_underscores(write_csv, headers) -> None:
    path = write_csv([headers, [1001, "101", "RO", "2027-01-01", "10", "EUR"]])
    frame, issues = read_rates(path)
    assert issues.empty and len(frame) == 1
    assert frame.attrs["headers"][("rates.csv", "")]["hotel_code"] == headers[0]


def test_wide_layout_one_column_per_night(write_xlsx) -> None:
    d1, d2, d3 = dt.datetime(2027, 1, 1), dt.datetime(2027, 1, 2), dt.datetime(2027, 1, 3)
    path = write_xlsx({"Wide": [["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", "Notes", d1, d2, d3],
                                [1001, "101", "RO", "EUR", "x", 100, None, "120,50"]]})
    frame, issues = read_rates(path)
    assert issues.empty
    assert frame["date"].dt.strftime("%Y-%m-%d").tolist() == ["2027-01-01", "2027-01-03"]  # blank cell: no price
    assert frame["amount"].tolist() == [100.0, 120.5]
    assert frame["amount_column"].tolist() == ["2027-01-01", "2027-01-03"]
    assert frame["row"].tolist() == [2, 2]


def test_range_layout_applies_the_weekday_rules(write_csv) -> None:
    header = ["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
              "Sun", "AmountBeforeTax", "CurrencyCode"]
    week = ("2027-01-04", "2027-01-10")  # Monday .. Sunday
    path = write_csv([header,
                      [1, "A", "R", *week, "", "", "", "", "1", "1", "", "150", "EUR"],     # some true: only those
                      [1, "B", "R", *week, "0", "", "", "", "", "", "", "100", "EUR"],      # only falses: every day
                      [1, "C", "R", *week, "", "", "", "", "", "", "", "90", "EUR"],        # none: every day
                      [1, "D", "R", *week, "1", "0", "1", "0", "0", "0", "0", "80", "EUR"]])
    frame, issues = read_rates(path)
    assert issues.empty
    days = frame.groupby("inv_type_code")["date"].apply(lambda s: sorted(s.dt.day_name().str[:3]))
    assert days["A"] == ["Fri", "Sat"]
    assert len(days["B"]) == 7 and len(days["C"]) == 7
    assert days["D"] == ["Mon", "Wed"]
    assert set(frame["amount_type"]) == {"BeforeTax"}


def test_excel_serial_numbers_and_iso_text_are_dates(write_csv) -> None:
    path = write_csv([H, [1, "A", "R", "46388", "10", "EUR"], [1, "A", "R", "2027-01-02", "10", "EUR"]])
    frame, issues = read_rates(path)
    assert issues.empty
    assert frame["date"].tolist() == [pd.Timestamp("2027-01-01"), pd.Timestamp("2027-01-02")]


def test_decimal_places_scale_the_integer_amount(write_csv) -> None:
    path = write_csv([H + ["DecimalPlaces"], [1, "A", "R", "2027-01-01", "8550", "EUR", "2"]])
    frame, issues = read_rates(path)
    assert issues.empty
    assert frame.loc[0, ["amount_minor", "amount_scale", "decimal_places"]].tolist() == [855, 1, 2]
    assert frame.loc[0, "amount"] == 85.5


def test_blank_number_of_guests_means_none_and_several_files_concatenate(write_csv, write_xlsx) -> None:
    a = write_csv([H + ["NumberOfGuests"], [1, "A", "R", "2027-01-01", "10", "EUR", ""],
                   [1, "A", "R", "2027-01-02", "10", "EUR", "2"]], name="a.csv")
    b = write_xlsx({"S1": [H, [2, "B", "R", "2027-01-01", 5, "EUR"]], "S2": [H, [3, "C", "R", "2027-01-01", 6, "EUR"]]})
    frame, issues = read_rates([a, b])
    assert issues.empty
    assert frame["number_of_guests"].tolist()[:2] == [pd.NA, 2] or frame["number_of_guests"].isna().tolist()[:2] == [
        True, False]
    assert sorted(frame["sheet"].unique().tolist()) == ["", "S1", "S2"]
    only, _ = read_rates(b, sheet="S2")
    assert only["hotel_code"].tolist() == [3]


# --- a file that cannot be used: one clear error naming the file, what is missing and what is accepted ----

def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match=r"`.*nope.xlsx` does not exist"):
        read_rates(tmp_path / "nope.xlsx")


def test_missing_sheet_lists_the_sheets(write_xlsx) -> None:
    path = write_xlsx({"Summer": [H], "Winter": [H]})
    with pytest.raises(LoadError) as err:
        read_rates(path, sheet="Autumn")
    assert str(err.value) == "`rates.xlsx` has no sheet `Autumn`; its sheets are `Summer`, `Winter`."


def test_missing_required_columns_names_accepted_names(write_csv) -> None:
    path = write_csv([["HotelCode", "Date", "AmountAfterTax"], [1, "2027-01-01", "10"]])
    with pytest.raises(LoadError) as err:
        read_rates(path)
    msg = str(err.value)
    assert msg.startswith("`rates.csv` is missing required columns: InvTypeCode (accepted names: `InvTypeCode`, "
                          "`InvCode`, `room_id`")
    assert "RatePlanCode (accepted names:" in msg and "CurrencyCode (accepted names:" in msg
    assert "Headers found: `HotelCode`, `Date`, `AmountAfterTax`." in msg


def test_no_layout_recognised(write_csv) -> None:
    path = write_csv([["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", "Price"], [1, "A", "R", "EUR", 1]])
    with pytest.raises(LoadError, match="needs a `Date` column \\(long layout\\), `Start` and `End`"):
        read_rates(path)


def test_two_columns_meaning_the_same_field(write_csv) -> None:
    path = write_csv([H + ["hotel_id"], [1, "A", "R", "2027-01-01", "10", "EUR", 1]])
    with pytest.raises(LoadError, match="columns `HotelCode` and `hotel_id` both mean `HotelCode`"):
        read_rates(path)


def test_unreadable_workbook(tmp_path: Path) -> None:
    path = tmp_path / "broken.xlsx"
    path.write_bytes(b"this is not a zip file")
    with pytest.raises(LoadError, match="`broken.xlsx` cannot be read as a workbook"):
        read_rates(path)


def test_unsupported_extension(tmp_path: Path) -> None:
    path = tmp_path / "rates.pdf"
    path.write_bytes(b"%PDF")
    with pytest.raises(LoadError, match="not a spreadsheet this tool reads"):
        read_rates(path)


# --- a bad value in one cell: an issue on that cell, the other rows are kept --------------------------

BAD_CELLS = [
    # (column, bad value, rule, message)
    ("AmountAfterTax", "12O.50", "not_a_number", "`12O.50` is not a number (letter O instead of zero?)"),
    ("AmountAfterTax", "1,250", "not_a_number",
     "`1,250` is ambiguous (1,250 could be 1250 or 1.25): write it as a number without a thousands separator"),
    ("Date", "01/02/2027", "not_a_date", "`01/02/2027` is not a date this tool reads without guessing: write it as "
                                         "YYYY-MM-DD or format the cell as a date"),
    ("Date", "2027-02-30", "not_a_date", "`2027-02-30` is not a real calendar date"),
    ("HotelCode", "Aurora", "not_a_number", "`Aurora` is not a property id (a whole number)"),
    ("CurrencyCode", "Euro", "currency_code", "a currency is a three-letter ISO 4217 code such as EUR"),
    ("InvTypeCode", "", "missing_value", "the room type id (InvTypeCode) is blank: fill it in"),
]


@pytest.mark.parametrize(("column", "bad", "rule", "message"), BAD_CELLS, ids=[b[1] or b[0] for b in BAD_CELLS])
def test_bad_cell_is_an_issue_on_that_cell(write_csv, column, bad, rule, message) -> None:
    good = [1001, "101", "RO", "2027-01-01", "10", "EUR"]
    row = list(good)
    row[H.index(column)] = bad
    path = write_csv([H, good, row, good[:3] + ["2027-01-02"] + good[4:]])
    frame, issues = read_rates(path)
    assert frame["row"].tolist() == [2, 4]
    assert len(issues) == 1
    issue = issues.iloc[0]
    assert (issue.source, issue.sheet, issue.row, issue.column, issue.value, issue.rule, issue.severity) == (
        "rates.csv", "", 3, column, bad, rule, "error")
    assert issue.message == message


def test_both_amounts_or_none(write_csv) -> None:
    header = H + ["AmountBeforeTax"]
    path = write_csv([header, [1, "A", "R", "2027-01-01", "10", "EUR", "9"], [1, "A", "R", "2027-01-02", "", "EUR", ""]])
    frame, issues = read_rates(path)
    assert frame.empty
    assert issues[["row", "rule"]].values.tolist() == [[2, "one_amount"], [3, "missing_value"]]


def test_decimal_places_with_a_decimal_amount_is_an_issue(write_csv) -> None:
    path = write_csv([H + ["DecimalPlaces"], [1, "A", "R", "2027-01-01", "85.5", "EUR", "2"]])
    frame, issues = read_rates(path)
    assert frame.empty and issues["rule"].tolist() == ["decimal_places"]


def test_range_start_after_end(write_csv) -> None:
    path = write_csv([["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End", "AmountAfterTax", "CurrencyCode"],
                      [1, "A", "R", "2027-05-10", "2027-05-03", "10", "EUR"]])
    frame, issues = read_rates(path)
    assert frame.empty
    assert issues[["column", "rule", "message"]].values.tolist() == [
        ["Start", "date_order", "`Start` is after `End`: swap them (both nights are inclusive)"]]


def test_wide_bad_cell_points_at_the_night_column(write_xlsx) -> None:
    path = write_xlsx({"W": [["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", dt.datetime(2027, 1, 1),
                              dt.datetime(2027, 1, 2)], [1, "A", "R", "EUR", "abc", 10]]})
    frame, issues = read_rates(path)
    assert len(frame) == 1
    assert issues[["row", "column", "value"]].values.tolist() == [[2, "2027-01-01", "abc"]]


def test_sample_workbook_reads_every_sheet() -> None:
    from workbench.paths import SAMPLES

    frame, issues = read_rates([SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"])
    assert set(zip(frame["source"], frame["sheet"], strict=True)) == {
        ("rates.xlsx", "Amsterdam"), ("rates.xlsx", "Krakow"), ("rates.xlsx", "Tokyo OBP"), ("lisbon_seasons.csv", "")}
    assert set(issues["rule"]) == {"not_a_number", "date_order"}


def _fast_and_slow(path: Path, sheet: str, header_index: int, first_row: int):
    """The same sheet through the typed fast path and the all-text path."""
    import fastexcel

    from loaders.sheets import split_header
    from loaders.workbooks import load_text, load_typed

    reader = fastexcel.read_excel(str(path))
    typed = load_typed(reader, sheet, header_index, [], lambda _h: set())
    text = load_text(reader, sheet)
    assert typed is not None
    fast = split_header(path, sheet, typed.table, first_row=first_row + header_index, header_at=0)
    slow = split_header(path, sheet, text.table, first_row=first_row, header_at=header_index)
    return fast, slow


def test_fast_typed_read_equals_the_text_read(write_xlsx) -> None:
    """The typed fast path and the all-text path see the same cells (as Excel shows them)."""
    path = write_xlsx({"S": [[], H + [None, "Date"],
                             [1000001, "101", "RO", dt.datetime(2027, 1, 1), 0.1 + 0.2, "EUR", None, None],
                             [None] * 8,
                             [1000001, 101, "RO", dt.datetime(2027, 1, 2), 129.95000000000002, "EUR", None, None],
                             [1000001, "101", "RO", dt.datetime(2027, 1, 3), 12000, "JPY", None, None]]})
    fast, slow = _fast_and_slow(path, "S", 0, 2)
    assert fast.header == slow.header == H + ["", "Date"]
    assert fast.rows.tolist() == slow.rows.tolist() == [3, 5, 6]
    pd.testing.assert_frame_equal(fast.body, slow.body)
    assert fast.body[4].tolist() == ["0.3", "129.95", "12000"]


def test_a_typo_in_a_number_column_is_kept_by_reading_the_sheet_as_text(write_xlsx) -> None:
    rows = [H] + [[1, "A", "R", dt.datetime(2027, 1, 1) + dt.timedelta(days=i), 100.5, "EUR"] for i in range(50)]
    rows.append([1, "A", "R", dt.datetime(2027, 3, 1), "12O.50", "EUR"])
    path = write_xlsx({"S": rows})
    frame, issues = read_rates(path)
    assert len(frame) == 50
    assert issues[["row", "value", "rule"]].values.tolist() == [[52, "12O.50", "not_a_number"]]
    fast, slow = _fast_and_slow(path, "S", 0, 1)
    pd.testing.assert_frame_equal(fast.body, slow.body)
