"""Taxes and Fees to the Charges API (through the meta's OTA fee/tax codes) and back; and what has no home."""

from __future__ import annotations

import pytest

from tests.workbench.modular.conftest import DAY, FIXTURES, build, data, one
from workbench.modular.base import read_answer
from workbench.modular.cells import issues_from_envelope
from workbench.modular.charges_api import Charges
from workbench.modular.envelope import parse_envelope
from workbench.modular.map_charges import charges_rows
from workbench.modular.meta import ModularMeta

KEY = {"custom_id": "QVV-0012"}


def period(amount: dict, excluded: bool) -> list[dict]:
    return [{"applicable": {"from": DAY.isoformat()}, "configuration": {"amount": amount, "excluded": excluded}}]


def test_taxes_and_fees_become_charges(meta: ModularMeta) -> None:
    built = build({
        "Taxes": [{**KEY, "code": 36, "percent": 600.0, "decimal_places": 2, "type": "Inclusive"},
                  {**KEY, "code": 3, "amount": 250.0, "decimal_places": 2, "type": "Exclusive", "charge_frequency": 20},
                  {**KEY, "code": 13, "amount": 4.0, "type": "Exclusive"}],
        "Fees": [{**KEY, "code": 5009, "amount": 40.0, "type": "Conditional", "charge_frequency": 12,
                  "inv_code": "1048000101"},
                 {**KEY, "code": 5007, "type": "Exclusive", "charge_frequency": 5000}]}, meta)
    key = {"guest_origin": "ANY", "travel_purpose": "ANY"}
    assert one(built, "charges.write").payload == {
        "property_charges": [
            {"charge_key": {"type": "VAT", **key},
             "charge_periods": period({"mode": "PERCENTAGE", "value": 6.0, "base": ["NET_ROOM_PRICE"]}, False)},
            {"charge_key": {"type": "CITYTAX", **key},
             "charge_periods": period({"mode": "PER_PERSON_PER_STAY", "value": 2.5}, True)},
            {"charge_key": {"type": "TAX", **key},
             "charge_periods": period({"mode": "PER_PERSON_PER_NIGHT", "value": 4.0}, True)},
            {"charge_key": {"type": "ELECTRICITYFEE", **key}, "charge_periods": period({"mode": "INCALCULABLE"}, True)}],
        "room_charges": [{"room_id": 1048000101, "charges": [
            {"charge_key": {"type": "CLEANINGFEE", **key}, "charge_periods": period({"mode": "PER_STAY", "value": 40.0},
                                                                                    True)}]}]}
    assert built.issues[built.issues["sheet"].isin(["Taxes", "Fees"])].empty


def test_an_answer_s_dollar_path_lands_on_its_cell(meta: ModularMeta) -> None:
    req = one(build({"Taxes": [{**KEY, "code": 36, "percent": 6.0, "type": "Inclusive"},
                               {**KEY, "code": 3, "amount": 2.0, "type": "Exclusive"}]}, meta), "charges.write")
    (issue,) = issues_from_envelope(parse_envelope((FIXTURES / "charges" / "error_answer.json").read_bytes()),
                                    req.cells, "Charges API")
    assert (issue["sheet"], issue["row"], issue["column"], issue["rule"]) == \
        ("Taxes", 3, "Amount", "platform_required_missing")


@pytest.mark.parametrize(("row", "expected"), [
    ({"code": 4242, "amount": 1.0, "type": "Exclusive"}, [(2, "Code", "code_not_in_meta", "error")]),
    ({"code": 36, "amount": 1.0, "type": "Exclusive"}, [(2, "ChargeFrequency", "modular_value_refused", "error")]),
    ({"code": 13, "amount": 1.0, "type": "Exclusive", "charge_frequency": 7}, [(2, "ChargeFrequency",
                                                                                "modular_value_refused", "error")]),
    ({"code": 13, "amount": 1.0}, [(2, "Type", "modular_value_refused", "error")]),
    ({"code": 13, "type": "Exclusive"}, [(2, "Amount", "modular_value_refused", "error")]),
])
def test_taxes_the_charges_api_cannot_take(meta: ModularMeta, row: dict, expected: list) -> None:
    issues = build({"Taxes": [{**KEY, **row}]}, meta).issues
    assert [(i.row, i.column, i.rule, i.severity) for i in issues.itertuples()] == expected


def test_a_charge_given_twice_and_a_conditional_fee(meta: ModularMeta) -> None:
    issues = build({"Fees": [{**KEY, "code": 5009, "amount": 40.0, "type": "Conditional",
                              "conditions": ["guest_smokes"]},
                             {**KEY, "code": 5009, "amount": 30.0, "type": "Exclusive"}]}, meta).issues
    assert [(i.row, i.column, i.rule) for i in issues.itertuples()] == [(2, "Conditions", "modular_not_sent"),
                                                                       (3, "Code", "modular_not_sent")]


def test_without_the_meta_no_charge_is_built() -> None:
    built = build({"Taxes": [{**KEY, "code": 36, "percent": 6.0, "type": "Inclusive"}]})
    assert not built.requests
    assert [(i.column, i.rule) for i in built.issues.itertuples()] == [("Code", "meta_not_read")]


def test_charges_back_to_rows(meta: ModularMeta) -> None:
    rows = charges_rows(read_answer(Charges, data("charges", "read_answer.json")), meta, {"hotel_code": 1})
    assert rows["Taxes"] == [{"hotel_code": 1, "code": 19, "inv_code": None, "percent": 6.0, "type": "Inclusive"}]
    assert rows["Fees"] == [
        {"hotel_code": 1, "code": None, "inv_code": None, "amount": 1.5, "charge_frequency": 12, "type": "Exclusive"},
        {"hotel_code": 1, "code": 5009, "inv_code": "1048000101", "amount": 35.0, "charge_frequency": 12,
         "type": "Exclusive"}]


def test_what_has_no_home_is_refused_or_reported_on_its_cells() -> None:
    built = build({"Property": [{**KEY, "exists_code": 1, "prevent_likely_cancelled": 1, "overwrite_future_fees": 0}],
                   "Attractions": [{**KEY, "attraction_name": "Palace", "distance": 2.0}],
                   "Transport": [{**KEY, "transport_type_code": 1, "journey_minutes": 30}],
                   "Policies": [{**KEY, "cancel_policy_code": 152, "total_guest_count": 4},
                                {**KEY, "guarantee_policy_code": 1}],
                   "Contacts": [{**KEY, "profile_type": "PhysicalLocation", "state_code": "PT-11",
                                 "address_hotel_name": "Quinta"}],
                   "Invoice": [{**KEY, "birth_date": "1980-01-01"}],
                   "Awards": [{**KEY, "provider": "Michelin", "rating": 1}]})
    got = {(i.sheet, i.column, i.rule, i.severity) for i in built.issues.itertuples()
           if i.rule != "modular_value_refused"}
    assert got == {
        ("Attractions", "AttractionName", "modular_sunset", "error"),
        ("Transport", "TransportType", "modular_sunset", "error"),
        ("Policies", "CancelPolicyCode", "not_yet_sendable", "warning"),
        ("Policies", "GuaranteePolicyCode", "not_yet_sendable", "warning"),
        ("Policies", "TotalGuestCount", "modular_not_sent", "warning"),
        ("Property", "ExistsCode", "modular_not_sent", "warning"),
        ("Property", "PreventLikelyToBeCancelledBookings", "modular_not_sent", "warning"),
        ("Property", "OverwriteFutureFees", "modular_not_sent", "warning"),
        ("Contacts", "StateCode", "modular_not_sent", "warning"),
        ("Contacts", "AddressHotelName", "modular_not_sent", "warning"),
        ("Invoice", "BirthDate", "modular_not_sent", "warning"),
        ("Awards", "Provider", "modular_not_sent", "warning")}
    sunset = built.issues[built.issues["rule"] == "modular_sunset"]["message"]
    assert sunset.str.contains("2023-06-30").all() and sunset.str.contains("deprecation-and-sunsetting").all()
