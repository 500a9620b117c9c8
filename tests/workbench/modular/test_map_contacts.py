"""The Contacts sheet to the Contacts API (a PUT replaces them all) and back."""

from __future__ import annotations

import pytest

from tests.workbench.modular.conftest import FIXTURES, build, data, one
from workbench.modular.base import read_answer
from workbench.modular.cells import issues_from_envelope
from workbench.modular.contacts_api import Contacts
from workbench.modular.content import Current
from workbench.modular.envelope import parse_envelope
from workbench.modular.map_contacts import contacts_rows

KEY = {"hotel_code": 10480001}
PROP = {**KEY, "hotel_name": "Quinta do Vale Verde", "language_code": "pt-PT"}
GENERAL = {**KEY, "profile_type": "general", "given_name": "Rita", "surname": "Gomes Silva", "gender": "Female",
           "job_title": "general_manager", "email": "rita@vale.example", "phone": "+351219230001",
           "phone_tech_type": 1, "phone_extension": "21", "address_line": "Estrada do Vale 12", "city": "Sintra",
           "postcode": "2710-405", "country": "pt", "address_language": "PT"}


def test_rows_of_a_profile_type_form_one_contact() -> None:
    built = build({"Property": [PROP], "Contacts": [
        GENERAL, {**KEY, "profile_type": "general", "phone": "+351912000111", "phone_tech_type": 5},
        {**KEY, "profile_type": "Reservations", "given_name": "Nuno", "surname": "Reis", "name_language": "en-GB",
         "email": "reservas@vale.example", "phone": "+351219230003", "phone_tech_type": 1},
        {**KEY, "profile_type": "PhysicalLocation", "address_line": "Estrada do Vale 12", "city": "Sintra",
         "country": "PT"}]})
    req = one(built, "contacts.write")
    assert req.payload == {"contacts": [
        {"contact_profiles": [{"type": "general"}],
         "contact_person": {"name": "Rita Gomes Silva", "language_code": "pt-pt", "gender": "female",
                            "job_title": "general_manager"},
         "email": "rita@vale.example",
         "phones": [{"phone_number": "+351219230001", "phone_tech_type": 1, "extension": "21"},
                    {"phone_number": "+351912000111", "phone_tech_type": 5}],
         "address": {"country_code": "PT", "language_code": "pt", "city_name": "Sintra", "postal_code": "2710-405",
                     "address_line": "Estrada do Vale 12"}},
        {"contact_profiles": [{"type": "reservations"}],
         "contact_person": {"name": "Nuno Reis", "language_code": "en-gb"}, "email": "reservas@vale.example",
         "phones": [{"phone_number": "+351219230003", "phone_tech_type": 1}]}]}
    assert req.operation == "contacts.write" and req.hotel_code == 10480001
    assert req.cells.locate("contacts[0].phones[1].phone_number")[2:4] == (3, "PhoneNumber")
    assert req.cells.locate("contacts[0].contact_person.language_code")[1:4] == ("Property", 2, "LanguageCode")
    assert req.cells.locate("contacts[1].contact_person.language_code")[1:4] == ("Contacts", 4, "NameLanguage")
    assert built.issues[built.issues["sheet"] == "Contacts"].empty


def test_a_string_code_error_of_the_answer_lands_on_its_phone_cell() -> None:
    req = one(build({"Property": [PROP], "Contacts": [
        GENERAL, {**KEY, "profile_type": "invoices", "given_name": "Luis", "email": "c@vale.example",
                  "phone": "+351219230004", "phone_tech_type": 1}]}), "contacts.write")
    env = parse_envelope((FIXTURES / "contacts" / "error_answer.json").read_bytes())
    invalid, refused = issues_from_envelope(env, req.cells, "Contacts API")
    assert (invalid["row"], invalid["column"], invalid["value"], invalid["rule"]) == \
        (3, "PhoneNumber", "+351219230004", "platform_invalid_value")
    assert (refused["sheet"], refused["column"], refused["rule"]) == ("Property", "HotelCode", "platform_not_permitted")


@pytest.mark.parametrize(("rows", "column", "rule", "severity"), [
    ([{**GENERAL, "profile_type": "contract"}], "ContactProfileType", "contact_type_refused", "error"),
    ([{**GENERAL, "profile_type": "owner"}], "ContactProfileType", "modular_value_refused", "error"),
    ([{**GENERAL, "phone_tech_type": 5}], "PhoneNumber", "modular_value_refused", "error"),  # extension on a mobile
    ([{**GENERAL, "phone_tech_type": None}], "PhoneTechType", "modular_value_refused", "error"),
    ([{**GENERAL, "email": None}], "Email", "modular_value_refused", "error"),
    ([{**GENERAL, "given_name": None, "surname": None}], "GivenName", "modular_value_refused", "error"),
    ([{**GENERAL, "gender": "X"}], "Gender", "modular_value_refused", "error"),
    ([GENERAL, {**KEY, "profile_type": "general", "email": "other@vale.example"}], "Email", "modular_not_sent",
     "warning"),
    ([GENERAL, *({**KEY, "profile_type": "general", "phone": f"+35121923000{i}", "phone_tech_type": 1}
                 for i in range(3))], "ContactProfileType", "modular_value_refused", "error"),  # four voice lines
])
def test_what_the_contacts_api_refuses_is_an_issue_on_its_cell(rows: list[dict], column: str, rule: str,
                                                               severity: str) -> None:
    issues = build({"Property": [PROP], "Contacts": rows}).issues
    issues = issues[issues["sheet"] == "Contacts"]
    assert [(i.column, i.rule, i.severity) for i in issues.itertuples()] == [(column, rule, severity)]


def test_a_type_the_property_has_and_the_sheet_leaves_out_is_refused_unless_replace() -> None:
    current = {10480001: Current(contacts=data("contacts", "read_answer.json"))}  # general and invoices
    sheets = {"Property": [PROP], "Contacts": [GENERAL]}
    refused = build(sheets, current=current).issues
    refused = refused[refused["sheet"] == "Contacts"]
    assert [(i.row, i.column, i.rule) for i in refused.itertuples()] == [(2, "ContactProfileType", "contacts_drop_type")]
    assert "`invoices`" in refused["message"].iloc[0] and "--replace" in refused["message"].iloc[0]
    kept = build(sheets, current=current, replace=True).issues
    assert kept[kept["sheet"] == "Contacts"].empty


def test_contacts_back_to_rows() -> None:
    rows = contacts_rows(read_answer(Contacts, data("contacts", "read_answer.json")), {"hotel_code": 7})
    assert rows[0] | {} == {"hotel_code": 7, "profile_type": "general", "given_name": "Rita", "surname": "Gomes",
                            "name_language": "pt-pt", "gender": "Female", "job_title": "general_manager",
                            "email": "rita@valeverde.example", "address_language": "pt",
                            "address_line": "Estrada do Vale 12", "city": "Sintra", "postcode": "2710-405",
                            "country": "PT", "phone": "+351219230001", "phone_tech_type": 1, "phone_extension": "21"}
    assert rows[1]["profile_type"] == "invoices" and rows[1]["name_language"] is None
    several = read_answer(Contacts, {"contacts": [{"contact_profiles": [{"type": "parity"}, {"type": "requests"}],
                                                   "contact_person": {"name": "Ana"}, "email": "a@x.example",
                                                   "phones": [{"phone_number": "+1", "phone_tech_type": 1},
                                                              {"phone_number": "+2", "phone_tech_type": 3}]}]})
    got = [(r["profile_type"], r.get("email"), r["phone"]) for r in contacts_rows(several, {})]
    assert got == [("parity", "a@x.example", "+1"), ("parity", None, "+2"), ("requests", "a@x.example", "+1"),
                   ("requests", None, "+2")]
