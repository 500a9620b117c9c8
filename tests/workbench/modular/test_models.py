"""The body models: the published request shapes are built exactly, the published answers (with fields added
later) are read, and what the descriptions refuse is refused when we build."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from tests.workbench.modular.conftest import data, load, with_unknown_fields
from workbench.modular.base import dump, read_answer
from workbench.modular.building import finish
from workbench.modular.cells import CellMap
from workbench.modular.endpoints import OPERATIONS
from workbench.modular.facilities_api import Instance
from workbench.modular.rooms_api import Unit

REQUESTS = [
    ("property", "create_request.json", "property.create"),
    ("property", "update_request.json", "property.update"),
    ("property", "status_request.json", "status.write"),
    ("property", "description_request.json", "description.write"),
    ("property", "settings_request.json", "settings.write"),
    ("contacts", "request.json", "contacts.write"),
    ("facilities", "property_request.json", "facilities.write"),
    ("facilities", "room_request.json", "room_facilities.write"),
    ("facilities", "bathrooms_hotel_request.json", "bathrooms.write"),
    ("facilities", "bathrooms_homes_request.json", "bathrooms.write"),
    ("facilities", "bathrooms_hostel_request.json", "bathrooms.write"),
    ("charges", "request.json", "charges.write"),
    ("rooms", "unit_create_request.json", "unit.create"),
    ("rooms", "unit_single_request.json", "unit.create"),
    ("rooms", "unit_patch_request.json", "unit.update"),
    ("rooms", "bulk_create_request.json", "units.bulk_create"),
    ("rooms", "bulk_update_request.json", "units.bulk_update"),
    ("rooms", "bulk_delete_request.json", "units.bulk_delete"),
]
ANSWERS = [
    ("property", "create_answer.json", "property.create"),
    ("property", "update_answer.json", "property.update"),
    ("property", "read_answer.json", "property.read"),
    ("property", "meta_answer.json", "property.meta"),
    ("property", "status_answer.json", "status.write"),
    ("property", "description_answer.json", "description.read"),
    ("property", "settings_read_answer.json", "settings.read"),
    ("contacts", "read_answer.json", "contacts.read"),
    ("facilities", "property_read_answer.json", "facilities.read"),
    ("facilities", "room_read_answer.json", "room_facilities.read"),
    ("facilities", "bathrooms_read_answer.json", "bathrooms.read"),
    ("facilities", "meta_answer.json", "facilities.meta"),
    ("charges", "read_answer.json", "charges.read"),
    ("charges", "meta_answer.json", "charges.meta"),
    ("rooms", "unit_create_answer.json", "unit.create"),
    ("rooms", "units_read_answer.json", "units.read"),
    ("rooms", "bulk_create_answer.json", "units.bulk_create"),
    ("rooms", "meta_answer.json", "rooms.meta"),
]


@pytest.mark.parametrize(("api", "name", "operation"), REQUESTS)
def test_the_published_request_shapes_are_built_exactly(api: str, name: str, operation: str) -> None:
    body = load(api, name)
    built = finish(OPERATIONS[operation].body, copy.deepcopy(body), CellMap(), issues := [], api=api)
    assert issues == []
    assert built == body


@pytest.mark.parametrize(("api", "name", "operation"), ANSWERS)
def test_the_published_answers_are_read_even_with_fields_added_later(api: str, name: str, operation: str) -> None:
    plain = OPERATIONS[operation].read(data(api, name))
    grown = OPERATIONS[operation].read(with_unknown_fields(data(api, name)))
    as_json = ([dump(x) for x in plain] if isinstance(plain, list) else dump(plain))
    assert as_json == ([dump(x) for x in grown] if isinstance(grown, list) else dump(grown))
    assert as_json  # something was read


def test_what_an_answer_reads() -> None:
    read = OPERATIONS["property.read"].read(data("property", "read_answer.json"))
    assert (read.property_id, read.status, read.check_in.from_, read.stars) == (10480001, "CLOSED", "15:00", "4.5")
    settings = OPERATIONS["settings.read"].read(data("property", "settings_read_answer.json"))
    assert settings.property_settings.pricing_type == "Standard"  # the read enum differs from the create one
    assert settings.children_policies.policy_rules[0].rule_type == "UNRECOGNIZED"
    assert settings.french_tax_details.category_id == 4 and settings.booking_model.rtb_eligible is False
    units = OPERATIONS["units.read"].read(data("rooms", "units_read_answer.json"))
    assert isinstance(units[0], Unit) and units[0].max_children_that_pay_children_rate == 2
    assert units[0].occupancy_details.max_infants_on_top == 1 and units[1].size is None
    facilities = OPERATIONS["facilities.read"].read(data("facilities", "property_read_answer.json"))
    assert facilities[4].property_facility_meta.ota_hotel_amenity_type == 173
    assert isinstance(facilities[1].instances[1], Instance) and facilities[1].instances[1].instance_id == 5500102
    meta = OPERATIONS["facilities.meta"].read(data("facilities", "meta_answer.json"))
    assert "AquariumDetails" in meta.property_facility_metas[-1].allowed_details_list  # a newer detail type
    created = OPERATIONS["units.bulk_create"].read(data("rooms", "bulk_create_answer.json"))
    assert [(u.correlation_id, u.unit_id) for u in created.units] == [("row-2", 1048000103), ("row-3", 1048000104)]


def test_an_answer_with_values_newer_than_the_models() -> None:
    unit = read_answer(Unit, {"unit_id": 1, "smoking_policy": "VAPING_ONLY", "number_of_units": 40000,
                              "configuration": {"unit_type_id": 9, "rooms": []}})
    assert unit.smoking_policy == "VAPING_ONLY" and unit.number_of_units == 40000


def _set(body: Any, path: tuple, value: Any) -> Any:
    body = copy.deepcopy(body)
    node = body
    for part in path[:-1]:
        node = node[part]
    if value is _DROP:
        del node[path[-1]]
    elif isinstance(node, list) and path[-1] == len(node):
        node.append(value)
    else:
        node[path[-1]] = value
    return body


_DROP = object()
# (fixture, operation, where, bad value, what the description says)
REFUSED = [
    ("property/create_request.json", "property.create", ("floor_count",), 201, "floor_count 0..200"),
    ("property/create_request.json", "property.create", ("provider_property_id",), "X" * 17, "<= 16 characters"),
    ("property/create_request.json", "property.create", ("target",), "Test", "test|production, lower case"),
    ("property/create_request.json", "property.create", ("stars",), "0.5", "halves from 1 only"),
    ("property/create_request.json", "property.create", ("stars",), "5.5", "at most 5"),
    ("property/create_request.json", "property.create", ("check_in", "from"), "14:15", "minutes 00 or 30"),
    ("property/create_request.json", "property.create", ("check_in", "from"), "24:00", "hours 00-23"),
    ("property/create_request.json", "property.create", ("position", "latitude"), 91, "latitude -90..90"),
    ("property/create_request.json", "property.create", ("property_name",), "Ab", "3..255 characters"),
    ("property/create_request.json", "property.create", ("legal_entity_id",), _DROP, "required on create"),
    ("property/create_request.json", "property.create", ("unknown_field",), 1, "an unknown field"),
    ("property/update_request.json", "property.update", ("target",), "test", "no target on update"),
    ("property/settings_request.json", "settings.write", ("age_buckets",), [{"min_age": 0, "max_age": 18}], "0..17"),
    ("property/settings_request.json", "settings.write", ("age_buckets",), [], "at least one bucket"),
    ("property/settings_request.json", "settings.write", ("age_buckets",),
     [{"min_age": 0, "max_age": 1}, {"min_age": 2, "max_age": 3}, {"min_age": 4, "max_age": 5},
      {"min_age": 6, "max_age": 7}], "at most three"),
    ("property/settings_request.json", "settings.write", ("quiet_hours", "start"), "22:10", ":00 or :30"),
    ("property/settings_request.json", "settings.write", ("renovation", "start"), "2027-13-01", "yyyy-mm-dd"),
    ("property/settings_request.json", "settings.write", ("pets", "pets_allowed"), "Pets Allowed", "the enum"),
    ("property/settings_request.json", "settings.write", ("standard_phrases", 0, "name"), "KeyCollection",
     "a listed phrase"),
    ("property/settings_request.json", "settings.write", ("invoice_settings", "state"), "SPX", "two characters"),
    ("property/settings_request.json", "settings.write", ("invoice_settings", "brazil_tax_details", "city_hall_id"),
     _DROP, "four details required"),
    ("contacts/request.json", "contacts.write", ("contacts", 0, "phones"),
     [{"phone_number": f"+35121923000{i}", "phone_tech_type": 1} for i in range(4)], "type 1 at most three times"),
    ("contacts/request.json", "contacts.write", ("contacts", 0, "phones"),
     [{"phone_number": f"+35191200011{i}", "phone_tech_type": 5} for i in range(2)], "type 5 at most once"),
    ("contacts/request.json", "contacts.write", ("contacts", 0, "phones", 2, "extension"), "12",
     "an extension only on type 1"),
    ("contacts/request.json", "contacts.write", ("contacts", 1, "contact_profiles", 0, "type"), "general",
     "General only once"),
    ("contacts/request.json", "contacts.write", ("contacts", 0, "phones"), [], "phones not empty"),
    ("contacts/request.json", "contacts.write", ("contacts", 0, "phones", 0, "phone_tech_type"), 2, "1, 3 or 5"),
    ("facilities/property_request.json", "facilities.write", (3, "instances", 1, "parking_details", "name"), _DROP,
     "a parking needs its name"),
    ("facilities/property_request.json", "facilities.write", (7, "instances", 0, "meal_details", "price"), 0.0,
     "a meal price from 0.1"),
    ("facilities/property_request.json", "facilities.write", (4, "instances", 0, "restaurant_details",
                                                              "cuisines_list"), ["KLINGON"], "a listed cuisine"),
    ("facilities/bathrooms_hotel_request.json", "bathrooms.write", ("hotel_bathroom_details", "number_of_bathrooms"),
     0, "0 only when both states are MISSING"),
    ("facilities/bathrooms_hostel_request.json", "bathrooms.write",
     ("property_bathroom_details", "bathrooms", 0, "hostel_bathroom_details", "bathroom_facilities", 0, "count"), 101,
     "count 1..100"),
    ("charges/request.json", "charges.write", ("property_charges", 0, "charge_periods", 0, "configuration", "amount",
                                               "base"), ["TAXES"], "one of the four bases"),
    ("charges/request.json", "charges.write", ("property_charges", 1, "charge_periods", 0, "configuration", "amount",
                                               "value"), _DROP, "a value unless INCALCULABLE"),
    ("charges/request.json", "charges.write", ("property_charges", 0, "charge_key", "guest_origin"), _DROP,
     "the key's three parts"),
    ("charges/request.json", "charges.write", ("room_charges", 0, "room_id"), 4294967296, "room_id <= 4294967295"),
    ("rooms/unit_create_request.json", "unit.create", ("occupancy_details", "max_guests"), 51, "1..50"),
    ("rooms/unit_create_request.json", "unit.create", ("occupancy_details", "max_children"), 50, "0..49"),
    ("rooms/unit_create_request.json", "unit.create", ("number_of_units",), 32001, "0..32000"),
    ("rooms/unit_create_request.json", "unit.create", ("size", "value"), 0.5, "1..9999.99"),
    ("rooms/unit_create_request.json", "unit.create", ("max_children_that_pay_children_rate",), 1,
     "sunset 2026-07-07: never built"),
    ("rooms/unit_create_request.json", "unit.create", ("configuration", "rooms", 0, "bed_configurations"),
     [{"beds": [{"bed_type_id": 3, "bed_count": 1}], "is_default_configuration": True},
      {"beds": [{"bed_type_id": 1, "bed_count": 2}], "is_default_configuration": False}],
     "one bed configuration per room of a multi-room unit"),
    ("rooms/unit_single_request.json", "unit.create", ("configuration", "rooms", 0, "bed_configurations", 1,
                                                       "is_default_configuration"), True, "one default"),
    ("rooms/unit_single_request.json", "unit.create", ("configuration", "rooms", 1), {"type": "LIVING_ROOM_SUBROOM"},
     "a single-room unit has one GUEST_ROOM only"),
    ("rooms/unit_create_request.json", "unit.create", ("configuration", "rooms", 0, "bed_configurations", 0, "beds", 1),
     {"bed_type_id": 3, "bed_count": 1}, "a bed type once per configuration"),
    ("rooms/bulk_create_request.json", "units.bulk_create", ("units", 1, "correlation_id"), "row-2",
     "correlation ids unique"),
    ("rooms/bulk_create_request.json", "units.bulk_create", ("units", 1, "property_id"), 10480002, "one property"),
    ("rooms/bulk_create_request.json", "units.bulk_create", ("units", 1, "unit_name_id"), 69,
     "no unit_name_id with GENERATED"),
]


@pytest.mark.parametrize(("fixture", "operation", "where", "bad", "why"), REFUSED,
                         ids=[r[-1] for r in REFUSED])
def test_what_the_descriptions_refuse_is_never_built(fixture: str, operation: str, where: tuple, bad: Any,
                                                      why: str) -> None:
    api, name = fixture.split("/")
    body = _set(load(api, name), where, bad)
    with pytest.raises(ValidationError):
        TypeAdapter(OPERATIONS[operation].body).validate_python(body)
