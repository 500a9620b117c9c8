"""Content workbooks -> one canonical frame per part: headers, typing, keys, located issues."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from loaders import CONTENT_COLUMNS, CONTENT_PARTS, LoadError, read_content
from workbench.paths import SAMPLES


def test_sample_reads_every_part_with_canonical_columns_and_provenance() -> None:
    loaded = read_content(SAMPLES / "content.xlsx")
    assert list(loaded.parts) == list(CONTENT_PARTS)
    for part, frame in loaded.parts.items():
        assert list(frame.columns) == list(CONTENT_COLUMNS[part]), part
        assert list(frame.columns[:3]) == ["hotel_code", "custom_id", "property"]
    assert loaded.issues.empty
    prop = loaded.parts["Property"]
    assert prop["property"].tolist() == ["1000004", "PORTO-01", "BR-SP-01", "BR-RJ-02", "RTB-AMS-01"]
    assert (prop.iloc[0]["source"], prop.iloc[0]["sheet"], prop.iloc[0]["row"]) == ("content.xlsx", "Property", 2)
    assert str(prop["hotel_code"].dtype) == "Int64" and str(prop["latitude"].dtype) == "float64"
    invoice = loaded.parts["Invoice"]
    assert invoice["tax_number"].tolist() == ["11222333000181", "52998224724"]
    services = loaded.parts["Services"]
    assert services.iloc[0]["breakfast_items"] == ["5001", "5002"] and services.iloc[1]["features"] == []
    headers = prop.attrs["headers"][("content.xlsx", "Property")]
    assert headers["property_class_code"] == "HotelCategory" and headers["kind"] == "Property"


def test_absent_sheets_give_empty_frames_with_the_right_dtypes(write_xlsx) -> None:
    path = write_xlsx({"property": [["hotel code", "Hotel_Name"], [12, "Sea View Inn"]]}, name="c.xlsx")
    loaded = read_content(path)
    assert len(loaded.parts["Property"]) == 1 and loaded.parts["Property"].iloc[0]["hotel_name"] == "Sea View Inn"
    fees = loaded.parts["Fees"]
    assert fees.empty and dict(fees.dtypes.astype(str)) == {k: v for k, v in CONTENT_COLUMNS["Fees"].items()}


def test_cells_are_typed_and_tax_numbers_keep_leading_zeros(write_xlsx) -> None:
    path = write_xlsx({
        "Invoice": [["ID", "InvoiceTaxType", "InvoiceTaxNumber", "BirthDate"],
                    ["N1", "CPF", "012.345.678-90", dt.datetime(1980, 5, 17)]],
        "Property": [["ID", "CheckInTime", "CheckOutTime", "Latitude", "AcceptLongStay", "EmptyParts"],
                     ["N1", "14:00-22:00", dt.time(11, 0), "38,7077", "yes", "Fees; Taxes ;"]],
    }, name="c.xlsx")
    loaded = read_content(path)
    assert loaded.issues.empty, loaded.issues
    inv = loaded.parts["Invoice"].iloc[0]
    assert inv["tax_number"] == "01234567890" and inv["birth_date"] == pd.Timestamp("1980-05-17")
    prop = loaded.parts["Property"].iloc[0]
    assert (prop["check_in_time"], prop["check_out_time"]) == ("14:00-22:00", "11:00")
    assert prop["latitude"] == pytest.approx(38.7077) and prop["accept_long_stay"] == 1
    assert prop["empty_parts"] == ["Fees", "Taxes"] and pd.isna(prop["hotel_code"]) and prop["property"] == "N1"


BAD_CELLS = [
    # (sheet, header, value, rule, message)
    ("Property", "TotalNumberOfFloors", "six", "not_a_number", "`six` is not a whole number (TotalNumberOfFloors)"),
    ("Property", "HasCurfew", "maybe", "not_a_flag",
     "`maybe` is not a yes/no flag (HasCurfew): use 1 or 0 (or leave blank)"),
    ("Property", "Latitude", "38.7O", "not_a_number", "`38.7O` is not a number (letter O instead of zero?)"),
    ("Invoice", "InvoiceTaxNumber", "12A45678901", "not_a_number",
     "InvoiceTaxNumber is a number of digits only (`.`, `-` and `/` may separate them): remove the other characters"),
    ("Invoice", "BirthDate", "17/05/1980", "not_a_date",
     "`17/05/1980` is not a date this tool reads without guessing: write it as YYYY-MM-DD or format the cell as a date"),
    ("Property", "HotelCode", "0", "not_a_value", "HotelCode is the platform's property id: a whole number from 1"),
]


@pytest.mark.parametrize(("sheet", "header", "value", "rule", "message"), BAD_CELLS)
def test_unreadable_cells_are_issues_on_their_cell(write_xlsx, sheet, header, value, rule, message) -> None:
    key = [] if header == "HotelCode" else ["HotelCode"]
    path = write_xlsx({sheet: [[*key, header], [*([5] if key else []), value]]}, name="c.xlsx")
    loaded = read_content(path)
    issue = loaded.issues.iloc[0]
    assert (issue["sheet"], issue["row"], issue["column"], issue["rule"]) == (sheet, 2, header, rule)
    assert issue["message"] == message and issue["severity"] == "error"


def test_a_row_naming_no_property_is_an_error_and_a_sheet_without_key_is_refused(write_xlsx) -> None:
    path = write_xlsx({"Languages": [["HotelCode", "LanguageCode"], [None, "en"]]}, name="c.xlsx")
    issue = read_content(path).issues.iloc[0]
    assert issue["rule"] == "missing_value" and issue["column"] == "HotelCode"
    assert issue["message"].startswith("the row names no property: give its HotelCode")
    path = write_xlsx({"Languages": [["Hotel", "LanguageCode"], [1, "en"]]}, name="d.xlsx")
    with pytest.raises(LoadError, match=r"`d.xlsx` sheet `Languages` is missing required column: HotelCode"):
        read_content(path)


def test_unknown_sheets_are_warned_and_csv_files_are_parts_by_name(write_xlsx, write_csv) -> None:
    path = write_xlsx({"Property": [["HotelCode", "HotelName"], [1, "Inn One"]],
                       "Scratch": [["a", "b"], [1, 2]], "Notes": [["x"], ["y"]]}, name="c.xlsx")
    issues = read_content(path).issues
    assert issues["rule"].tolist() == ["sheet_ignored"] and issues.iloc[0]["sheet"] == "Scratch"
    csv = write_csv([["HotelCode", "PhoneNumber", "PostalCode"], [1, "+351213420000", "0100"]], name="contacts.csv")
    contacts = read_content(csv).parts["Contacts"]
    assert contacts.iloc[0]["postcode"] == "0100" and contacts.iloc[0]["sheet"] == ""
    other = write_csv([["HotelCode", "x"], [1, 2]], name="other.csv")
    with pytest.raises(LoadError, match="is not a content part"):
        read_content(other)


CANONICAL = [
    # (sheet, header, written, canonical): issue 22, an enumeration is written in the platform's own spelling
    ("Property", "PricingType", "standard ", "Standard"),
    ("Property", "BookingModel", " rtb", "RTB"),
    ("Property", "Target", "TEST", "Test"),
    ("Property", "HotelDescriptiveContentNotifType", "new", "New"),
    ("Property", "CurrencyCode", "mxn", "MXN"),
    ("Property", "LanguageCode", "PT_br", "pt-BR"),
    ("Contacts", "ContactProfileType", "physicallocation", "PhysicalLocation"),
    ("Contacts", "Gender", "female", "Female"),
    ("Contacts", "CountryName", "pt", "PT"),
    ("Contacts", "PostalCode", "1011 ab", "1011 AB"),
    ("Contacts", "Language", "EN", "en"),
    ("Policies", "PetsAllowedCode", "pets  allowed", "Pets Allowed"),
    ("Policies", "NoShowPenalty", "Total_Price", "total_price"),
    ("Policies", "AcceptedGuestType", "adultonly", "AdultOnly"),
    ("Fees", "Type", "exclusive ", "Exclusive"),
    ("Fees", "ParkingType", "ON_SITE", "on_site"),
    ("Fees", "InternetCoverage", "All_Rooms", "all_rooms"),
    ("Services", "Included", "TRUE", "true"),
    ("Attractions", "DistanceUnit", "Miles", "miles"),
    ("Transport", "StartCode", "lis", "LIS"),
    ("Invoice", "InvoiceTaxType", "cnpj", "CNPJ"),
    ("Phrases", "OptionName", "renovationfrom", "RenovationFrom"),
    ("Awards", "Provider", "star RATING", "Star rating"),
    ("Property", "PricingType", "Standart", "Standart"),  # no such value: left as written, for the rules to refuse
]


@pytest.mark.parametrize(("sheet", "header", "written", "canonical"), CANONICAL)
def test_enumerations_are_read_in_their_canonical_spelling(write_xlsx, sheet, header, written, canonical) -> None:
    loaded = read_content(write_xlsx({sheet: [["HotelCode", header], [1000001, written]]}, name="c.xlsx"))
    frame = loaded.parts[sheet]
    column = next(c for c, h in frame.attrs["headers"][("c.xlsx", sheet)].items() if h == header)
    assert frame[column].tolist() == [canonical] and loaded.issues.empty


def test_list_items_and_state_codes_are_canonical_too(write_xlsx) -> None:
    loaded = read_content(write_xlsx({
        "Restaurants": [["HotelCode", "RestaurantName", "Features", "Ambiances"],
                        [1000001, "Zee", "Buffet ; A LA CARTE", "Family/Kids Friendly"]],
        "Fees": [["HotelCode", "Code", "Amount", "Conditions"], [1000001, 5009, 25, "Guest_Smokes"]],
        "Contacts": [["HotelCode", "ContactProfileType", "CountryName", "StateCode"],
                     [1000001, "general", "pt", "11"], [1000001, "general", "BR", "br-sp"]]}, name="c.xlsx"))
    assert loaded.issues.empty, loaded.issues
    rest = loaded.parts["Restaurants"].iloc[0]
    assert rest["features"] == ["buffet", "a la carte"] and rest["ambiances"] == ["family/kids friendly"]
    assert loaded.parts["Fees"].iloc[0]["conditions"] == ["guest_smokes"]
    assert loaded.parts["Contacts"]["state_code"].tolist() == ["PT-11", "BR-SP"]


AMOUNTS = [
    # (the property's currency, the Fees Amount written, the amount read, the message, None when accepted)
    ("MXN", "30 EUR", None, "`30 EUR` is written in EUR, but the property's currency (CurrencyCode) is MXN: give "
                            "the amount in MXN, or correct the currency"),
    ("MXN", "30 MXN", 30.0, None),
    ("MXN", "$ 30", 30.0, None),  # `$` is any dollar, the peso among them
    ("EUR", "€ 12,50", 12.5, None),
    ("EUR", "£12", None, "`£12` is written in GBP, but the property's currency (CurrencyCode) is EUR: give the amount "
                         "in EUR, or correct the currency"),
    (None, "30 EUR", None, "`30 EUR` is written in EUR, but the property's currency is not given (CurrencyCode on the "
                           "Property sheet): the amount is sent as a number in the property's currency, so write it "
                           "without the currency, or give CurrencyCode"),
]


@pytest.mark.parametrize(("currency", "written", "amount", "message"), AMOUNTS)
def test_an_amount_written_with_a_currency_must_be_in_the_property_currency(write_xlsx, currency, written, amount,
                                                                             message) -> None:
    loaded = read_content(write_xlsx({"Property": [["HotelCode", "CurrencyCode"], [1000001, currency]],
                                      "Fees": [["HotelCode", "Code", "Amount"], [1000001, 7, written]]}, name="c.xlsx"))
    value = loaded.parts["Fees"].iloc[0]["amount"]
    if message is None:
        assert loaded.issues.empty and value == amount
        return
    assert pd.isna(value)
    assert loaded.issues[["sheet", "row", "column", "value", "rule", "message"]].values.tolist() == [
        ["Fees", 2, "Amount", written, "amount_currency", message]]


def test_a_route_price_is_checked_against_its_own_currency_and_a_percent_takes_no_currency(write_xlsx) -> None:
    loaded = read_content(write_xlsx({
        "Property": [["HotelCode", "CurrencyCode"], [1000001, "EUR"]],
        "Transport": [["HotelCode", "TransportType", "PriceAmount", "PriceCurrencyCode"], [1000001, 1, "USD 20", "USD"],
                      [1000001, 1, "20 EUR", "usd"]],
        "Taxes": [["HotelCode", "Code", "Percent"], [1000001, 36, "9 EUR"]]}, name="c.xlsx"))
    assert loaded.parts["Transport"]["price_amount"].tolist()[0] == 20.0
    assert loaded.issues[["sheet", "row", "rule"]].values.tolist() == [
        ["Taxes", 2, "not_a_number"], ["Transport", 3, "amount_currency"]]
    assert "the row's currency (PriceCurrencyCode) is USD" in loaded.issues["message"].iloc[1]
