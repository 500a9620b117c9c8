"""Services, Restaurants and the parking/internet fees to the Facilities API property facilities (through the meta
crosswalk; keeping the instances the sheet does not mention) and back."""

from __future__ import annotations

import pytest

from tests.workbench.modular.conftest import FIXTURES, build, data, one
from workbench.modular.base import read_answers
from workbench.modular.cells import issues_from_envelope
from workbench.modular.content import Current
from workbench.modular.envelope import parse_envelope
from workbench.modular.facilities_api import PropertyFacility
from workbench.modular.map_facilities import facilities_rows
from workbench.modular.meta import ModularMeta

KEY = {"hotel_code": 10480001}
CAIS = {**KEY, "restaurant_name": "Cais", "offer_breakfast": 1, "offer_dinner": 1, "cuisines": ["Portuguese", "Tex-Mex"],
        "features": ["buffet", "accepts reservations"], "ambiances": ["family/kids friendly"],
        "dietary_options": ["vegan", "gluten free"], "mon": 1, "tue": 1, "open_start": "07:00", "open_end": "10:30"}


def issues_of(built, sheet: str) -> list[tuple]:  # type: ignore[no-untyped-def]
    found = built.issues[built.issues["sheet"] == sheet]
    return [(i.row, i.column, i.rule, i.severity) for i in found.itertuples()]


def test_services_restaurants_and_fee_facilities_in_one_body(meta: ModularMeta) -> None:
    built = build({
        "Services": [{**KEY, "code": 173, "price": 12, "types": ["continental", "buffet"], "breakfast_items": ["bread"]},
                     {**KEY, "code": 228}, {**KEY, "code": 5032, "exists_code": 2},
                     {**KEY, "code": 262, "included": "true"}],
        "Restaurants": [CAIS, {**KEY, "restaurant_name": "Cais", "sat": 1, "sun": 1, "open_start": "08:00",
                               "open_end": "11:00"}],
        "Fees": [{**KEY, "code": 5036, "amount": 1500.0, "decimal_places": 2, "charge_frequency": 19,
                  "parking_type": "on_site", "parking_reservation": "needed", "parking_property": "private"},
                 {**KEY, "code": 5035, "amount": 0.0, "internet_type": "wired"}]}, meta)
    req = one(built, "facilities.write")
    week = [{"day_of_week": d, "from": {"hours": h, "minutes": 0}, "to": {"hours": e, "minutes": m}}
            for d, h, e, m in (("MONDAY", 7, 10, 30), ("TUESDAY", 7, 10, 30), ("SATURDAY", 8, 11, 0),
                               ("SUNDAY", 8, 11, 0))]
    assert req.payload == [
        {"facility_id": 9111, "state": "PRESENT", "instances": [{"meal_details": {
            "price": 12.0, "breakfast_types": ["CONTINENTAL", "BUFFET"], "breakfast_food_item_types": ["BREAD"]}}]},
        {"facility_id": 109, "state": "PRESENT"},
        {"facility_id": 110, "state": "MISSING"},
        {"facility_id": 500, "state": "PRESENT", "instances": [{"surcharge_details": {"surcharge_type": "FREE"}}]},
        {"facility_id": 3, "state": "PRESENT", "instances": [{
            "restaurant_details": {"name": "Cais", "open_for_meals_list": ["BREAKFAST", "DINNER"],
                                   "cuisines_list": ["PORTUGUESE", "TEXMEX"], "ambiances_list": ["FAMILY_KIDS_FRIENDLY"],
                                   "meal_types_list": ["VEGAN", "GLUTEN_FREE"], "is_buffet": True,
                                   "accept_reservations": True},
            "schedule_details": {"schedule": week}}]},
        {"facility_id": 2, "state": "PRESENT", "instances": [{
            "parking_details": {"name": "Parking 1", "parking_location": "ON_SITE", "parking_reservation": "NEEDED",
                                "parking_access": "ONLY_GUESTS"},
            "payment_details": {"charge_mode": "PAID", "charge_details": {"price": 15.0, "frequency": "PER_DAY"}}}]},
        {"facility_id": 47, "state": "PRESENT", "instances": [{
            "internet_details": {"type": "WIRED", "area": "ENTIRE_PROPERTY"}, "payment_details": {"charge_mode": "FREE"}}]}]
    assert [r.operation for r in built.requests] == ["facilities.write"]  # the facility fees are not charges
    assert built.issues.empty
    assert req.cells.locate("property_facility_list[4].instances[0].schedule_details.schedule[2].from")[2:4] == (3, "Start")


def test_the_answer_s_error_paths_land_on_their_cells(meta: ModularMeta) -> None:
    req = one(build({"Services": [{**KEY, "code": 228}],
                     "Fees": [{**KEY, "code": 5036, "amount": 0.0, "parking_type": "on_site",
                               "parking_reservation": "needed", "parking_property": "public"}]}, meta),
              "facilities.write")
    for name, column in (("property_error_missing_answer.json", "Code"),
                         ("property_error_unrecognised_answer.json", "ParkingType")):
        (issue,) = issues_from_envelope(parse_envelope((FIXTURES / "facilities" / name).read_bytes()), req.cells,
                                        "Facilities API")
        assert (issue["sheet"], issue["row"], issue["column"]) == ("Fees", 2, column)


@pytest.mark.parametrize(("sheets", "expected"), [
    ({"Services": [{**KEY, "code": 999}]}, [(2, "Code", "code_not_in_meta", "error")]),
    ({"Services": [{**KEY, "code": 173, "price": 0}]}, [(2, "Price", "modular_value_refused", "error")]),
    ({"Services": [{**KEY, "code": 173}]}, [(2, "Code", "modular_value_refused", "error")]),  # a meal needs its price
    ({"Services": [{**KEY, "code": 228, "price": 3}]}, [(2, "Price", "modular_not_sent", "warning")]),
    ({"Services": [{**KEY, "code": 173, "price": 9, "included": "true"}]},
     [(2, "Included", "modular_not_sent", "warning")]),
    ({"Services": [{**KEY, "code": 173, "price": 9, "types": ["1", "4"]}]},
     [(2, "Types", "modular_not_sent", "warning")]),
    ({"Services": [{**KEY, "code": 228, "features": ["24h"]}]}, [(2, "Features", "modular_not_sent", "warning")]),
    ({"Services": [{**KEY, "code": 228}, {**KEY, "code": 228}]}, [(3, "Code", "modular_not_sent", "warning")]),
])
def test_services_the_facilities_api_cannot_take(meta: ModularMeta, sheets: dict, expected: list) -> None:
    assert issues_of(build(sheets, meta), "Services") == expected


@pytest.mark.parametrize(("rows", "expected"), [
    ([{**CAIS, "cuisines": ["1"]}], [(2, "CuisineCodes", "modular_not_sent", "warning")]),
    ([{**CAIS, "features": ["live music"]}], [(2, "Features", "modular_not_sent", "warning")]),
    ([{**CAIS, "ambiances": ["loud"]}], [(2, "Ambiances", "modular_value_refused", "error")]),
    ([{**CAIS, "open_start": "25:00"}], [(2, "Start", "modular_value_refused", "error")]),
])
def test_restaurant_cells_the_api_cannot_take(meta: ModularMeta, rows: list, expected: list) -> None:
    assert issues_of(build({"Restaurants": rows}, meta), "Restaurants") == expected


@pytest.mark.parametrize(("fee", "expected"), [
    ({"parking_type": "on_site", "parking_property": "public"}, [(2, "ParkingReservation", "modular_value_refused")]),
    ({"parking_type": "on_site", "parking_reservation": "maybe", "parking_property": "public"},
     [(2, "ParkingReservation", "modular_value_refused")]),
    ({"parking_type": "on_site", "parking_reservation": "needed", "parking_property": "public", "amount": 5.0,
      "charge_frequency": 21}, [(2, "ChargeFrequency", "modular_not_sent")]),
    ({"internet_type": "satellite"}, [(2, "InternetType", "modular_value_refused")]),
])
def test_parking_and_internet_cells_the_api_cannot_take(meta: ModularMeta, fee: dict, expected: list) -> None:
    issues = issues_of(build({"Fees": [{**KEY, "code": 5036, "amount": 0.0, **fee}]}, meta), "Fees")
    assert [i[:3] for i in issues] == expected


def test_parking_none_is_a_missing_facility(meta: ModularMeta) -> None:
    req = one(build({"Fees": [{**KEY, "code": 5036, "parking_type": "none"}]}, meta), "facilities.write")
    assert req.payload == [{"facility_id": 2, "state": "MISSING"}]


def test_without_the_meta_no_service_can_be_mapped() -> None:
    built = build({"Services": [{**KEY, "code": 173, "price": 9}], "Restaurants": [CAIS]})
    assert issues_of(built, "Services") == [(2, "Code", "meta_not_read", "error")]
    assert [f["facility_id"] for f in one(built, "facilities.write").payload] == [3]  # published ids need no meta


def test_instances_the_sheet_does_not_mention_are_sent_back_unless_replace(meta: ModularMeta) -> None:
    current = {10480001: Current(facilities=data("facilities", "property_read_answer.json"))}
    sheets = {"Restaurants": [{**KEY, "restaurant_name": "Adega", "offer_lunch": 1},
                              {**KEY, "restaurant_name": "Cais", "offer_dinner": 1}],
              "Fees": [{**KEY, "code": 5036, "amount": 0.0, "parking_type": "location_nearby",
                        "parking_reservation": "not_needed", "parking_property": "public"}]}
    built = build(sheets, meta, current=current)
    body = {f["facility_id"]: f for f in one(built, "facilities.write").payload}
    adega, cais = body[3]["instances"]
    assert adega["instance_id"] == 5500201 and "instance_id" not in cais
    first, second = body[2]["instances"]
    assert first["instance_id"] == 5500101 and first["parking_details"]["name"] == "Garagem Norte"
    assert first["parking_details"]["parking_location"] == "NEARBY"  # the sheet's values, the platform's id and name
    assert second["instance_id"] == 5500102 and second["parking_details"]["name"] == "Rua do Vale"  # kept as read
    assert issues_of(built, "Fees") == [(2, "ParkingType", "facility_instance_kept", "warning")]
    replaced = {f["facility_id"]: f for f in one(build(sheets, meta, current=current, replace=True),
                                                 "facilities.write").payload}
    assert [i["instance_id"] for i in replaced[2]["instances"]] == [5500101]


def test_facilities_back_to_rows(meta: ModularMeta) -> None:
    rows = facilities_rows(read_answers(PropertyFacility, data("facilities", "property_read_answer.json")), meta,
                           {"hotel_code": 1})
    assert rows["Services"] == [{"hotel_code": 1, "code": 228, "exists_code": None},
                                {"hotel_code": 1, "code": 173, "exists_code": None, "price": None,
                                 "types": ["CONTINENTAL"], "breakfast_items": []}]
    assert [r["parking_type"] for r in rows["Fees"][:2]] == ["on_site", "location_nearby"]
    assert rows["Fees"][0]["amount"] == 15.0 and rows["Fees"][0]["charge_frequency"] == 19
    assert rows["Fees"][0]["code"] == 5036 and rows["Fees"][2]["internet_type"] == "wifi"
    (adega,) = rows["Restaurants"]
    assert (adega["restaurant_name"], adega["offer_lunch"], adega["fri"], adega["open_start"], adega["open_end"]) == \
        ("Adega", 1, 1, "19:00", "23:30")
    assert adega["features"] == ["a la carte", "accepts reservations", "outdoor seating"]
