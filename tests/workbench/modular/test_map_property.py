"""The Property sheet (with the PhysicalLocation contact, Languages and Awards) to the details body, the settings
cells to the settings groups, each value with its cell; and an answer's error back on that cell."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.workbench.modular.conftest import FIXTURES, build, one
from workbench.modular.cells import issues_from_envelope
from workbench.modular.envelope import parse_envelope
from workbench.modular.map_details import build_details, join_times, split_times
from workbench.modular.map_settings import build_settings
from workbench.modular.meta import ModularMeta
from workbench.modular.property_api import TIME
from workbench.modular.workbook import PropertyRows

KEY = {"custom_id": "QVV-0012"}
PROPERTY = {**KEY, "hotel_name": "Quinta do Vale Verde", "language_code": "PT-PT", "currency_code": "EUR",
            "target": "Test", "property_class_code": 20, "sellable_units": 12, "latitude": 38.7979,
            "longitude": -9.3878, "legal_entity_id": 9876543210, "check_in_time": "15:00-22:30",
            "check_out_time": "11:00", "total_floors": 3}
LOCATED = {**KEY, "profile_type": "PhysicalLocation", "address_language": "en", "address_line": "Estrada do Vale 12",
           "city": "Sintra", "postcode": "2710-405", "country": "pt", "hide_address": 0}


def test_a_new_property_is_created_with_every_detail(meta: ModularMeta) -> None:
    built = build({"Property": [PROPERTY], "Awards": [{**KEY, "provider": "Star rating", "rating": 4}],
                   "Contacts": [LOCATED, {**LOCATED, "address_language": "pt-pt", "address_hotel_name": "Quinta Vale Verde",
                                          "address_line": "Estrada do Vale, 12"}],
                   "Languages": [{**KEY, "language_code": "en-gb"}, {**KEY, "language_code": "pt-pt"}]}, meta)
    req = one(built, "property.create")
    assert req.payload == {
        "property_name": "Quinta do Vale Verde",
        "physical_address": {"address_line": "Estrada do Vale 12", "city_name": "Sintra", "country_code": "PT",
                             "postal_code": "2710-405", "display_address": True},
        "position": {"latitude": 38.7979, "longitude": -9.3878},
        "check_in": {"from": "15:00", "until": "22:30"}, "check_out": {"until": "11:00"}, "room_count": 12,
        "translations": [{"language_code": "pt-pt", "property_name": "Quinta Vale Verde",
                          "address_line": "Estrada do Vale, 12", "city_name": "Sintra"}],
        "property_category": 20, "primary_language": "pt-pt", "languages_spoken": ["en-gb", "pt-pt"],
        "floor_count": 3, "provider_property_id": "QVV-0012", "currency_code": "EUR", "stars": "4",
        "legal_entity_id": 9876543210, "target": "test"}
    assert (req.property, req.hotel_code, req.custom_id) == ("QVV-0012", None, "QVV-0012")
    assert req.cells.locate("stars")[1:4] == ("Awards", 2, "Rating")
    assert req.cells.locate("translations[0].property_name")[1:4] == ("Contacts", 3, "AddressHotelName")
    assert built.issues.empty


def test_an_existing_property_gets_the_full_detail_set_and_no_create_only_fields(meta: ModularMeta) -> None:
    prop = {**PROPERTY, "hotel_code": 10480001, "custom_id": None, "check_out_time": "07:00-11:00", "star_rating": 5}
    built = build({"Property": [prop], "Contacts": [{**LOCATED, "custom_id": None, "hotel_code": 10480001}]}, meta)
    req = one(built, "property.update")
    assert "target" not in req.payload and "legal_entity_id" not in req.payload and "provider_property_id" not in \
        req.payload
    assert req.payload["check_out"] == {"from": "07:00", "until": "11:00"} and req.payload["stars"] == "5"
    (warning,) = built.issues.itertuples()
    assert (warning.column, warning.rule, warning.severity) == ("LegalEntityID", "modular_not_sent", "warning")


def test_the_brief_s_example_error_lands_on_the_postcode_cell(meta: ModularMeta) -> None:
    req = one(build({"Property": [PROPERTY], "Contacts": [LOCATED]}, meta), "property.create")
    env = parse_envelope((FIXTURES / "property" / "details_error_answer.json").read_bytes())
    error, warning = issues_from_envelope(env, req.cells, "Property API")
    assert (error["sheet"], error["row"], error["column"], error["value"]) == ("Contacts", 2, "PostalCode", "2710-405")
    assert (warning["sheet"], warning["column"], warning["severity"]) == ("Property", "CurrencyCode", "warning")


@pytest.mark.parametrize(("cells", "column", "rule"), [
    ({"total_floors": 201}, "TotalNumberOfFloors", "modular_value_refused"),
    ({"check_in_time": "14:15"}, "CheckInTime", "modular_value_refused"),
    ({"check_in_time": None}, "CheckInTime", "modular_value_refused"),
    ({"target": "Staging"}, "Target", "modular_value_refused"),
    ({"latitude": 95.0}, "Latitude", "modular_value_refused"),
    ({"hotel_name": "Ab"}, "HotelName", "modular_value_refused"),
    ({"hotel_name": None}, "HotelName", "modular_value_refused"),
    ({"custom_id": "QVV-0012-LISBON-EAST"}, "ID", "modular_value_refused"),
    ({"property_class_code": 99}, "HotelCategory", "code_not_in_meta"),
])
def test_a_value_the_body_refuses_is_an_issue_on_its_cell(meta: ModularMeta, cells: dict, column: str,
                                                           rule: str) -> None:
    prop = {**PROPERTY, **cells}
    key = {"custom_id": prop["custom_id"]}
    built = build({"Property": [prop], "Contacts": [{**LOCATED, **key}]}, meta)
    assert [(i.sheet, i.row, i.column, i.rule, i.severity) for i in built.issues.itertuples()] == \
        [("Property", 2, column, rule, "error")]


def test_a_property_without_its_address_is_not_built() -> None:
    built = build({"Property": [PROPERTY]})
    assert not [r for r in built.requests if r.operation == "property.create"]
    (issue,) = built.issues.itertuples()
    assert issue.rule == "modular_value_refused" and "`physical_address` is required" in issue.message
    assert (issue.sheet, issue.column) == ("Property", "ID")  # no contact row: the property's own cell


SETTINGS = {**KEY, "no_cvc": 1, "view_cc_details": 0, "require_guest_address": 1, "require_guest_contact_number": 0,
            "has_age_restriction": 1, "age_restriction_min": 18, "age_restriction_max": 99, "has_curfew": 1,
            "curfew_start": "23:00", "curfew_end": "06:00", "accept_long_stay": 1, "max_length_of_stay": 90,
            "pricing_type": "Standard", "booking_model": "ib", "grace_hours": 0, "grace_weeks": 8,
            "tax_registered_in_vcs": 1, "tax_has_vat": 0, "tax_declares_revenue": 1, "tax_category": 4,
            "tax_nature_category": 2}


def test_settings_groups_from_every_sheet_that_feeds_them() -> None:
    built = build({
        "Property": [{**PROPERTY, **SETTINGS}],
        "Policies": [{**KEY, "pets_allowed": "Pets Allowed", "pets_non_refundable_fee": "free",
                      "accepted_guest_type": "ChildrenAllowed", "min_guest_age": 2}],
        "Payments": [{**KEY, "payment_type_code": 1}, {**KEY, "payment_type_code": 5}],
        "Invoice": [{**KEY, "tax_type": "cnpj", "tax_number": "11222333000181", "city_hall_id": "12345678",
                     "invoice_email": "nf@vale.example"}],
        "Phrases": [{**KEY, "phrase_name": "Renovation", "enabled": 1, "option_name": "RenovationFrom",
                     "option_value": "2027-01-10"},
                    {**KEY, "phrase_name": "Renovation", "enabled": 1, "option_name": "RenovationUntil",
                     "option_value": "2027-02-28"},
                    {**KEY, "phrase_name": "HotelChainBedLinen", "enabled": 1, "option_name": "HotelChainBedLinenAmount",
                     "option_value": "12.5"},
                    {**KEY, "phrase_name": "PayBeforeStay", "enabled": 0}],
        "Fees": [{**KEY, "code": 44, "amount": 10.0, "min_age": 0, "max_age": 5},
                 {**KEY, "code": 44, "amount": 20.0, "min_age": 6, "max_age": 12}]})
    assert one(built, "settings.write").payload == {
        "property_settings": {"require_cvc": False, "require_booker_address": True,
                              "require_booker_phone_number": False, "view_cc_details": False,
                              "age_restriction": {"enabled": True, "min": 18, "max": 99},
                              "curfew": {"enabled": True, "start": "23:00", "end": "06:00"},
                              "long_stay": {"enabled": True, "max_length_of_stay": 90}, "pricing_type": "STANDARD"},
        "booking_model": {"type": "IB"},
        "cancellation_exceptions": {"grace_period": {"enabled": False},
                                    "advance_cancellation": {"enabled": True, "before_check_in": "WEEKS_8"}},
        "french_tax_details": {"registered_in_rcs": True, "has_vat": False, "declare_revenue": True,
                               "category_id": "4", "nature_id": "2"},
        "pets": {"pets_allowed": "PETS_ALLOWED", "pets_price_type": "FREE"},
        "children_policies": {"allow_children": True, "min_age": 2},
        "renovation": {"enabled": True, "start": "2027-01-10", "end": "2027-02-28"},
        "bed_linen_policy": {"enabled": True, "amount": 12.5},
        "standard_phrases": [{"name": "PayBeforeStay", "enabled": False}],
        "accepted_payment_types": {"codes": [1, 5]},
        "invoice_settings": {"brazil_tax_details": {"tax_payer_number_type": "CNPJ",
                                                    "tax_payer_number": "11222333000181", "city_hall_id": "12345678",
                                                    "email": "nf@vale.example"}},
        "age_buckets": [{"min_age": 0, "max_age": 5}, {"min_age": 6, "max_age": 12}]}


@pytest.mark.parametrize(("sheets", "sheet", "column"), [
    ({"Property": [{**PROPERTY, "grace_hours": 2}]}, "Property", "HoursAfterBooking"),
    ({"Property": [{**PROPERTY, "grace_weeks": 6}]}, "Property", "WeeksBeforeCheckIn"),
    ({"Property": [{**PROPERTY, "pricing_type": "Dynamic"}]}, "Property", "PricingType"),
    ({"Property": [{**PROPERTY, "booking_model": "Instant"}]}, "Property", "BookingModel"),
    ({"Property": [PROPERTY], "Policies": [{**KEY, "pets_allowed": "Dogs only"}]}, "Policies", "PetsAllowedCode"),
    ({"Property": [PROPERTY], "Fees": [{**KEY, "code": 44, "amount": 1.0, "min_age": 0, "max_age": 18}]},
     "Fees", "MaxAge"),
    ({"Property": [PROPERTY], "Invoice": [{**KEY, "tax_type": "CNPJ", "tax_number": "11222333000181",
                                           "invoice_email": "nf@vale.example"}]}, "Invoice", "CityHallInfo"),
    ({"Property": [PROPERTY], "Phrases": [{**KEY, "phrase_name": "Renovation", "enabled": 1,
                                           "option_name": "RenovationFrom", "option_value": "10/01/2027"}]},
     "Phrases", "OptionValue"),
])
def test_a_settings_value_the_groups_refuse_is_an_issue_on_its_cell(sheets: dict, sheet: str, column: str) -> None:
    built = build({**sheets, "Contacts": [LOCATED]})
    refused = built.issues[built.issues["rule"] == "modular_value_refused"]
    assert list(zip(refused["sheet"], refused["column"], strict=True)) == [(sheet, column)]


def _rows(part: str, row: dict) -> dict:
    return {"hotel_code": None, "custom_id": None, **row, "source": "content.xlsx", "sheet": part, "row": 2,
            "part": part}


@given(st.text(max_size=40), st.text(max_size=12), st.text(max_size=12), st.text(max_size=8))
@settings(max_examples=300, deadline=None)
def test_any_cell_text_gives_a_body_or_an_issue_on_a_cell_never_an_exception(name: str, check_in: str, pets: str,
                                                                             phrase: str) -> None:
    p = PropertyRows("QVV-0012", {
        "Property": [_rows("Property", {**PROPERTY, "hotel_name": name or None, "check_in_time": check_in or None})],
        "Contacts": [_rows("Contacts", LOCATED)], "Phrases": [_rows("Phrases", {**KEY, "phrase_name": phrase or None,
                                                                                 "enabled": 1})],
        "Policies": [_rows("Policies", {**KEY, "pets_allowed": pets or None})]})
    issues: list[dict] = []
    details, groups = build_details(p, ModularMeta(), issues), build_settings(p, issues)
    assert details is not None or any(i["severity"] == "error" for i in issues)
    assert groups is not None or not pets or any(i["severity"] == "error" for i in issues)
    assert all(i["sheet"] in ("Property", "Policies", "Phrases", "Contacts") and i["row"] == 2 for i in issues)


@given(st.from_regex(TIME, fullmatch=True), st.one_of(st.none(), st.from_regex(TIME, fullmatch=True)))
def test_times_split_and_join_back(first: str, second: str | None) -> None:
    assert split_times(join_times(first, second)) == (first, second)
