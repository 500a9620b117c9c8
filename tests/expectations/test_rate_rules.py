"""Every rate rule: a table of bad inputs, each with the rule, the cell and the wording expected."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from expectations import read_fx_table, validate_rates
from loaders import Registry, read_rates

AS_OF = dt.date(2026, 12, 1)
HEADER = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "NumberOfGuests", "AmountAfterTax", "CurrencyCode"]


def registry(pricing: str = "Standard", currency: str = "EUR") -> Registry:
    return Registry.from_frames(
        properties=pd.DataFrame({"hotel_code": [1], "currency_code": [currency], "pricing_model": [pricing]}),
        rooms=pd.DataFrame({"hotel_code": [1, 1], "inv_type_code": ["A", "B"], "max_adult_occupancy": [2, 3]}),
        room_rates=pd.DataFrame({
            "hotel_code": [1, 1, 1, 1, 1], "inv_type_code": ["A", "B", "A", "A", "B"],
            "rate_plan_code": ["R", "R", "C", "X", "Q"], "active": [True, True, True, False, True],
            "parent_rate_plan_code": [None, None, "R", None, None], "follows_price": [False, False, True, False, False],
            "read_only": [False, False, False, False, True]}))


GOOD = [1, "A", "R", "2027-01-01", "", "100", "EUR"]


def run(write_csv, bad_row, reg=None, rows=None, fx=None):
    rows = rows or [GOOD, bad_row]
    frame, load_issues = read_rates(write_csv([HEADER, *rows]))
    issues = validate_rates(frame, registry=reg, as_of=AS_OF, load_issues=load_issues, fx=fx)
    return issues[~issues["rule"].isin(["coverage", "not_checked"])]


CASES = [
    # id, bad row, registry?, rule, severity, column, value, message start
    ("negative", [1, "A", "R", "2027-01-02", "", "-5", "EUR"], False, "price_negative", "error", "AmountAfterTax", "-5",
     "a price cannot be negative: use 0 to make the room not bookable that night"),
    ("over cap", [1, "A", "R", "2027-01-02", "", "50000.01", "EUR"], False, "price_cap", "error", "AmountAfterTax",
     "50000.01", "50000.01 EUR is above the platform's cap of 50,000 EUR a night: check for an extra digit"),
    ("past", [1, "A", "R", "2026-11-29", "", "100", "EUR"], False, "date_window", "error", "Date", "2026-11-29",
     "2026-11-29 is before 2026-11-30, the earliest night the platform accepts (1 day before 2026-12-01 in CET)"),
    ("too far", [1, "A", "R", "2031-12-02", "", "100", "EUR"], False, "date_window", "error", "Date", "2031-12-02",
     "2031-12-02 is after 2031-12-01, the last night the platform accepts (5 years ahead)"),
    ("bad iso", [1, "A", "R", "2027-01-02", "", "100", "EUX"], False, "currency_code", "error", "CurrencyCode", "EUX",
     "`EUX` is not an ISO 4217 currency code in use"),
    ("other currency", [1, "A", "R", "2027-01-02", "", "100", "PLN"], True, "property_currency", "error",
     "CurrencyCode", "PLN", "the property's currency is EUR (registry), not PLN"),
    ("guests zero", [1, "A", "R", "2027-01-02", "0", "100", "EUR"], False, "guests_min", "error", "NumberOfGuests",
     "0", "NumberOfGuests must be at least 1"),
    ("inactive", [1, "A", "X", "2027-01-02", "", "100", "EUR"], True, "rate_not_active_for_room", "error",
     "RatePlanCode", "X", "RATE_NOT_ACTIVE_FOR_ROOM: rate plan X is not active for room A of property 1"),
    ("not mapped", [1, "B", "C", "2027-01-02", "", "100", "EUR"], True, "rate_not_active_for_room", "error",
     "RatePlanCode", "C", "RATE_NOT_ACTIVE_FOR_ROOM: rate plan C is not active for room B of property 1"),
    ("follows price", [1, "A", "C", "2027-01-02", "", "100", "EUR"], True, "child_rate_follows_price", "error",
     "RatePlanCode", "C", "rate plan C is a child rate of R and follows its price: the platform answers an error to "
                          "a price set on it; price rate plan R instead"),
    ("read only", [1, "B", "Q", "2027-01-02", "", "100", "EUR"], True, "read_only_rate", "error", "RatePlanCode", "Q",
     "rate plan Q is read-only for room B"),
    ("unknown room", [1, "Z", "R", "2027-01-02", "", "100", "EUR"], True, "unknown_room", "error", "InvTypeCode", "Z",
     "room type Z is not a room of property 1"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_each_rule_flags_the_bad_cell(write_csv, case) -> None:
    _, bad, with_registry, rule, severity, column, value, message = case
    issues = run(write_csv, bad, registry() if with_registry else None)
    issues = issues[issues["rule"] != "guests_all_or_none"]
    assert len(issues) == 1, issues.to_string()
    got = issues.iloc[0]
    assert (got.row, got.rule, got.severity, got.column, got.value) == (3, rule, severity, column, value)
    assert got.message.startswith(message), got.message


def test_zero_is_a_valid_price(write_csv) -> None:
    assert run(write_csv, [1, "A", "R", "2027-01-02", "", "0", "EUR"]).empty


def test_cap_is_in_euros_through_the_fx_table(write_csv) -> None:
    fx = read_fx_table()
    pln_cap = 50_000 * fx.units_per_eur["PLN"]
    ok = run(write_csv, [1, "A", "R", "2027-01-02", "", f"{pln_cap - 1:.2f}", "PLN"],
             rows=[[1, "A", "R", "2027-01-01", "", "100", "PLN"], [1, "A", "R", "2027-01-02", "", f"{pln_cap - 1:.2f}",
                                                                    "PLN"]])
    assert ok.empty
    over = run(write_csv, None, rows=[[1, "A", "R", "2027-01-01", "", f"{pln_cap + 1:.2f}", "PLN"]])
    assert over["rule"].tolist() == ["price_cap"]
    assert "(about 50,000 EUR at the FX table of" in over["message"].item()


def test_currency_missing_from_the_fx_table_is_a_warning(write_csv, tmp_path) -> None:
    table = tmp_path / "fx.csv"
    table.write_text("currency,units_per_eur,as_of\nEUR,1,2026-11-01\n")
    issues = run(write_csv, None, rows=[[1, "A", "R", "2027-01-01", "", "100", "CHF"]], fx=read_fx_table(table))
    assert issues[["rule", "severity"]].values.tolist() == [["price_cap_unchecked", "warning"]]


def test_yesterday_in_cet_is_accepted(write_csv) -> None:
    assert run(write_csv, [1, "A", "R", "2026-11-30", "", "100", "EUR"]).empty
    assert run(write_csv, [1, "A", "R", "2031-12-01", "", "100", "EUR"]).empty


def test_more_decimals_than_the_currency_has_is_a_warning(write_csv) -> None:
    issues = run(write_csv, None, rows=[[1, "A", "R", "2027-01-01", "", "9000.5", "JPY"]])
    assert issues[["rule", "severity", "message"]].values.tolist() == [
        ["currency_decimals", "warning", "JPY uses 0 decimals but 9000.5 has 1: round the price"]]


def test_one_currency_per_hotel_without_a_registry(write_csv) -> None:
    rows = [[1, "A", "R", f"2027-01-0{d}", "", "100", "EUR"] for d in range(1, 4)]
    rows.append([1, "A", "R", "2027-01-05", "", "100", "PLN"])
    issues = run(write_csv, None, rows=rows)
    assert issues[["row", "rule"]].values.tolist() == [[5, "property_currency"]]
    assert issues["message"].item().startswith("property 1 has prices in EUR and in PLN; a property has one currency")


def test_guests_rules_follow_the_pricing_model(write_csv) -> None:
    obp = registry("OBP")
    assert run(write_csv, None, obp, rows=[[1, "A", "R", "2027-01-01", "2", "100", "EUR"],
                                           [1, "B", "R", "2027-01-01", "3", "100", "EUR"]]).empty
    too_many = run(write_csv, None, obp, rows=[[1, "A", "R", "2027-01-01", "3", "100", "EUR"]])
    assert too_many[["rule", "value"]].values.tolist() == [["guests_max", "3"]]
    assert too_many["message"].item() == ("3 guests is more than room A's MaxAdultOccupancy of 2: lower NumberOfGuests "
                                          "or raise the room's occupancy first")
    standard = run(write_csv, None, registry("Standard"), rows=[[1, "A", "R", "2027-01-01", "1", "100", "EUR"]])
    assert standard["rule"].tolist() == ["guests_pricing_model"]
    missing = run(write_csv, None, obp, rows=[[1, "A", "R", "2027-01-01", "", "100", "EUR"]])
    assert missing[["rule", "severity"]].values.tolist() == [["guests_for_occupancy_pricing", "warning"]]


def test_guests_in_every_row_or_none(write_csv) -> None:
    rows = [[1, "A", "R", "2027-01-01", "1", "100", "EUR"], [1, "A", "R", "2027-01-02", "2", "100", "EUR"],
            [1, "A", "R", "2027-01-03", "", "100", "EUR"]]
    issues = run(write_csv, None, registry("OBP"), rows=rows)
    assert issues[["row", "rule", "severity"]].values.tolist() == [[4, "guests_all_or_none", "error"]]


def test_a_repeated_key_is_a_warning_on_the_later_rows_only(write_csv) -> None:
    rows = [GOOD, [1, "A", "R", "2027-01-02", "", "100", "EUR"], [1, "A", "R", "2027-01-01", "", "120", "EUR"],
            [1, "A", "R", "2027-01-01", "", "130", "EUR"]]
    issues = run(write_csv, None, rows=rows)
    assert issues[["row", "rule", "severity", "value"]].values.tolist() == [
        [4, "duplicate_key", "warning", "120"], [5, "duplicate_key", "warning", "130"]]
    assert issues["message"].iloc[0] == (
        "not sent: repeats row 2 (room A, rate R, night 2027-01-01; 100 there, 120 here): the platform applies only "
        "the first price of a night (WARN_DUPLICATE_DATES), so the first in file order is sent; delete one of the two")
    assert issues["message"].iloc[1].startswith("not sent: repeats row 2 ")


def test_same_night_with_different_guests_is_not_a_duplicate(write_csv) -> None:
    rows = [[1, "A", "R", "2027-01-01", "1", "100", "EUR"], [1, "A", "R", "2027-01-01", "2", "120", "EUR"]]
    assert run(write_csv, None, registry("OBP"), rows=rows).empty


def test_coverage_warning_counts_the_next_365_nights(write_csv) -> None:
    frame, _ = read_rates(write_csv([HEADER, GOOD]))
    issues = validate_rates(frame, registry=registry(), as_of=AS_OF)
    assert issues[["rule", "severity", "column", "value"]].values.tolist() == [
        ["coverage", "warning", "RatePlanCode", "R"]]  # the cell's own value; the count is in the message
    assert issues["message"].iloc[0].startswith("1 of the next 365 nights")
    year = pd.DataFrame({"date": pd.date_range("2026-12-01", periods=365)})
    full = pd.concat([frame] * 365, ignore_index=True)
    full["date"] = year["date"].to_numpy()
    full.attrs = frame.attrs
    assert validate_rates(full, registry=registry(), as_of=AS_OF).empty


def test_unknown_property_is_a_warning(write_csv) -> None:
    issues = run(write_csv, None, registry(), rows=[[2, "A", "R", "2027-01-01", "", "100", "EUR"]])
    assert issues[["rule", "severity"]].values.tolist() == [["unknown_property", "warning"]]


def test_clean_input_has_no_issues(write_csv) -> None:
    rows = [[1, "A", "R", f"2027-01-{d:02d}", "", "100", "EUR"] for d in range(1, 20)]
    assert run(write_csv, None, registry(), rows=rows).empty


def test_issues_frame_has_the_documented_columns(write_csv) -> None:
    issues = run(write_csv, [1, "A", "R", "2027-01-02", "", "-5", "EUR"])
    assert list(issues.columns) == ["source", "sheet", "row", "column", "value", "rule", "severity", "message"]
    assert set(issues["severity"]) <= {"error", "warning"}


def test_no_coverage_warning_for_a_room_rate_only_on_error_rows(write_csv) -> None:
    """A rate plan whose every row has an error is not a room-rate to warn about; its prices count nowhere."""
    bad = [1, "A", "ONLY-BAD", "2027-01-01", "", "-5", "EUR"]  # a negative price: an error
    frame, load = read_rates(write_csv([HEADER, GOOD, bad]))
    issues = validate_rates(frame, registry=registry(), as_of=AS_OF, load_issues=load)
    coverage = issues[issues["rule"] == "coverage"]
    assert coverage["value"].tolist() == ["R"]
    assert (issues["rule"] == "price_negative").any()
