"""The sandbox's modular JSON APIs (Property, Contacts, Facilities, Charges, Policies, Rooms) answering in the
published envelope and codes, with the published merge semantics: contacts replaced whole by PUT; facility
instances replaced per facility (an instance left out deleted, other facilities untouched); bathrooms replaced
whole; a unit's rooms array replaced whole by an update; units and room types one store and id space."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from workbench.sandbox import SandboxConfig
from workbench.sandbox.testing import InProcess, inv_notif_request, product

REGISTRY_HOTEL = 1000001  # a property of the sample registry
ADDRESS = {"address_line": "Rua do Vale 12", "city_name": "Sintra", "country_code": "PT"}
CREATE = {"property_name": "Quinta do Vale Verde", "physical_address": ADDRESS,
          "position": {"latitude": 38.7979, "longitude": -9.3878}, "check_in": {"from": "15:00"}, "room_count": 4,
          "property_category": 20, "legal_entity_id": 77, "target": "test", "provider_property_id": "QVV-1"}
PARKING = {"parking_details": {"name": "Garage", "parking_location": "ON_SITE", "parking_access": "ONLY_GUESTS",
                               "parking_reservation": "NEEDED"}, "payment_details": {"charge_mode": "PAID"}}
STREET = {"parking_details": {"name": "Street", "parking_location": "NEARBY", "parking_access": "GENERAL_PUBLIC",
                              "parking_reservation": "NOT_POSSIBLE"}, "payment_details": {"charge_mode": "FREE"}}
WIFI = {"internet_details": {"area": "ENTIRE_PROPERTY", "type": "WIFI"}, "payment_details": {"charge_mode": "FREE"}}
DOUBLE = {"configuration": {"unit_type_id": 9, "rooms": [{"type": "GUEST_ROOM", "bed_configurations": [
    {"beds": [{"bed_type_id": 3, "bed_count": 1}], "is_default_configuration": True}]}]}, "unit_name_id": 255,
    "number_of_units": 3, "occupancy_details": {"max_guests": 2, "max_adults": 2}}
APARTMENT = {"configuration": {"unit_type_id": 1, "rooms": [
    {"type": "BEDROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 3, "bed_count": 1}],
                                                        "is_default_configuration": True}]},
    {"type": "LIVING_ROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 5, "bed_count": 1}],
                                                            "is_default_configuration": True}]}]},
    "unit_name_id": 865}


@pytest.fixture
def sb() -> Any:
    box = InProcess(SandboxConfig(password="pw"))
    yield box
    box.close()


def ok(r: Any) -> Any:
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["errors"] == [] and body["meta"]["ruid"]
    return body["data"]


def errors(r: Any, status: int = 400) -> list[tuple[Any, list[str]]]:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["data"] is None and body["meta"]["ruid"]
    return [(e["code"], e.get("details", {}).get("fields", [])) for e in body["errors"]]


def created(sb: Any, **changes: Any) -> int:
    return ok(sb.json("POST", "/property-api/properties", {**CREATE, **changes}))["property_id"]


def table(sb: Any, name: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(sb.request("GET", f"/_sandbox/{name}.csv").text)))


# --- Property API ------------------------------------------------------------------------------------

def test_a_created_property_is_read_back_and_is_a_property_of_the_account(sb: Any) -> None:
    pid = created(sb)
    got = ok(sb.json("GET", f"/property-api/properties/{pid}"))
    assert got["property_id"] == pid and got["status"] == "CLOSED" and got["url"]
    assert got["property_name"] == "Quinta do Vale Verde" and got["booking_property_category"] == 204
    assert any(p["HotelCode"] == str(pid) and p["CustomID"] == "QVV-1" for p in table(sb, "properties"))
    r = sb.inv_notif(inv_notif_request(pid, [product("New", room={"RoomType": "9", "Quantity": "2"},
                                                     name="Garden Double")]))
    assert r.status_code == 200 and b"<Success" in r.content  # room types can be added to it


@pytest.mark.parametrize(("change", "expected"), [
    ({"property_name": None}, [(321, ["property_name"])]),
    ({"target": "staging"}, [(320, ["target"])]),
    ({"colour": "green"}, [(394, ["colour"])]),
    ({"property_name": "HOTEL"}, [(320, ["property_name"])]),  # no lower case letter
    ({"property_name": "Hotel 123456"}, [(320, ["property_name"])]),  # six digits
    ({"property_name": "Hotel *Star*"}, [(320, ["property_name"])]),
    ({"property_name": "Hotel 東京"}, [(320, ["property_name"])]),
    ({"check_in": {"from": "15:15"}}, [(320, ["check_in.from"])]),  # :00 or :30
    ({"floor_count": 201}, [(320, ["floor_count"])]),
    ({"stars": "4.7"}, [(320, ["stars"])]),
    ({"provider_property_id": "X" * 17}, [(320, ["provider_property_id"])]),
    ({"property_category": 999}, [(320, ["property_category"])]),
])
def test_a_create_is_refused_on_the_field_the_rules_name(sb: Any, change: dict, expected: list) -> None:
    body = {k: v for k, v in {**CREATE, **change}.items() if v is not None}
    assert errors(sb.json("POST", "/property-api/properties", body)) == expected


def test_a_duplicate_create_is_refused_naming_the_existing_property(sb: Any) -> None:
    pid = created(sb)
    r = sb.json("POST", "/property-api/properties", {**CREATE, "provider_property_id": "OTHER"})
    assert errors(r) == [(150, ["property_name"])]
    assert r.json()["errors"][0]["details"]["property_id"] == pid


def test_a_patch_keeps_what_it_does_not_send(sb: Any) -> None:
    pid = created(sb, floor_count=3, stars="4.5")
    patch = {k: CREATE[k] for k in ("property_name", "physical_address", "position", "check_in", "room_count")}
    ok(sb.json("PATCH", f"/property-api/properties/{pid}", {**patch, "room_count": 9}))
    got = ok(sb.json("GET", f"/property-api/properties/{pid}"))
    assert (got["room_count"], got["floor_count"], got["stars"]) == (9, 3, "4.5")
    assert errors(sb.json("PATCH", f"/property-api/properties/{pid}", {"room_count": 3}))[0] == (
        321, ["property_name"])


def test_an_unknown_property_is_refused_in_the_envelope(sb: Any) -> None:
    assert errors(sb.json("GET", "/property-api/properties/42"), 404) == [(320, ["property_id"])]
    assert errors(sb.json("GET", "/contacts-api/properties/42/contacts"), 404) == [("320", ["property_id"])]


def test_settings_groups_are_answered_one_by_one_and_read_with_the_platform_spellings(sb: Any) -> None:
    r = sb.json("POST", f"/property-api/properties/{REGISTRY_HOTEL}/settings", {
        "property_settings": {"pricing_type": "STANDARD"}, "pets": {"pets_allowed": "MAYBE"},
        "children_policies": {"allow_children": True}, "booking_model": {"type": "IB"},
        "french_tax_details": {"declare_revenue": True, "has_vat": False, "registered_in_rcs": True,
                               "category_id": "4"}})
    body = r.json()
    assert r.status_code == 200 and body["data"]["pets"] == {"success": False}
    assert body["data"]["child_policies"] == {"success": True} and "children_policies" not in body["data"]
    assert [(e["code"], e["details"]["fields"]) for e in body["errors"]] == [(320, ["pets.pets_allowed"])]
    got = ok(sb.json("GET", f"/property-api/properties/{REGISTRY_HOTEL}/settings"))
    assert "pets" not in got and got["property_settings"]["pricing_type"] == "Standard"
    assert got["french_tax_details"]["category_id"] == 4 and got["booking_model"]["rtb_eligible"] is False


def test_status_and_description(sb: Any) -> None:
    pid = created(sb)
    assert ok(sb.json("POST", f"/property-api/properties/{pid}/status", {"operation": "OPEN"})) == {"status": "OPEN"}
    assert ok(sb.json("POST", f"/property-api/properties/{pid}/status", {"operation": "CHECK"})) == {"status": "OPEN"}
    ok(sb.json("PUT", f"/property-api/properties/{pid}/description", {"text": "By the river", "language_code": "en"}))
    assert ok(sb.json("GET", f"/property-api/properties/{pid}/description"))["text"] == "By the river"
    ok(sb.json("DELETE", f"/property-api/properties/{pid}/description"))
    assert ok(sb.json("GET", f"/property-api/properties/{pid}/description")) is None


# --- Contacts API ------------------------------------------------------------------------------------

def contact(kind: str, name: str, **extra: Any) -> dict[str, Any]:
    return {"contact_profiles": [{"type": kind}], "contact_person": {"name": name, "language_code": "en-gb"},
            "email": f"{kind}@example.com", "phones": [{"phone_number": "+351210000000", "phone_tech_type": 1}],
            **extra}


def test_a_put_replaces_every_contact(sb: Any) -> None:
    path = f"/contacts-api/properties/{REGISTRY_HOTEL}/contacts"
    ok(sb.json("PUT", path, {"contacts": [contact("general", "Ana Sousa"), contact("invoices", "Rui Lopes")]}))
    ok(sb.json("PUT", path, {"contacts": [contact("general", "Ana Costa")]}))
    got = ok(sb.json("GET", path))["contacts"]
    assert [(c["contact_profiles"][0]["type"], c["contact_person"]["name"]) for c in got] == [("general", "Ana Costa")]


@pytest.mark.parametrize(("contacts", "expected"), [
    ([contact("contract", "X Y")], [("450", ["contacts[0].contact_profiles[0].type"])]),
    ([contact("general", "A B"), contact("general", "C D")], [("320", ["contacts[1].contact_profiles[0].type"])]),
    ([contact("general", "A B", phones=[{"phone_number": "+351210000000", "phone_tech_type": 5, "extension": "2"}])],
     [("320", ["contacts[0].phones[0].extension"])]),
    ([contact("general", "A B", phones=[{"phone_number": f"+35121000000{i}", "phone_tech_type": 1}
                                        for i in range(4)])], [("320", ["contacts[0].phones"])]),
    ([{**contact("general", "A B"), "email": None}], [("321", ["contacts[0].email"])]),
    ([contact("general", "A B", fax="1")], [("394", ["contacts[0].fax"])]),
])
def test_contacts_errors_are_text_codes_on_their_paths(sb: Any, contacts: list, expected: list) -> None:
    path = f"/contacts-api/properties/{REGISTRY_HOTEL}/contacts"
    contacts = [{k: v for k, v in c.items() if v is not None} for c in contacts]
    assert errors(sb.json("PUT", path, {"contacts": contacts})) == expected


# --- Facilities API ----------------------------------------------------------------------------------

def test_a_put_replaces_the_instances_of_the_facilities_it_names_only(sb: Any) -> None:
    path = f"/facilities-api/properties/{REGISTRY_HOTEL}"
    ok(sb.json("PUT", path, [{"facility_id": 2, "state": "PRESENT", "instances": [PARKING, STREET]},
                             {"facility_id": 47, "state": "PRESENT", "instances": [WIFI]},
                             {"facility_id": 109, "state": "PRESENT"}]))
    before = {f["facility_id"]: f for f in ok(sb.json("GET", path))}
    garage = next(i for i in before[2]["instances"] if i["parking_details"]["name"] == "Garage")
    changed = {**garage, "payment_details": {"charge_mode": "FREE"}}
    ok(sb.json("PUT", path, [{"facility_id": 2, "state": "PRESENT", "instances": [changed]}]))
    after = {f["facility_id"]: f for f in ok(sb.json("GET", path))}
    assert after[2]["instances"] == [changed]  # the street parking, left out, is deleted; the garage keeps its id
    assert after[47] == before[47] and after[109] == before[109]  # facilities not named are left alone
    ok(sb.json("PUT", path, [{"facility_id": 47, "state": "MISSING"}]))
    assert {f["facility_id"] for f in ok(sb.json("GET", path))} == {2, 109}


@pytest.mark.parametrize(("body", "expected"), [
    ([{"facility_id": 2, "state": "PRESENT"}], [(320, ["property_facility_list[0].instances"])]),
    ([{"facility_id": 2, "state": "PRESENT", "instances": [{"parking_details": PARKING["parking_details"]}]}],
     [(321, ["property_facility_list[0].instances[0].payment_details"])]),
    ([{"facility_id": 2, "state": "PRESENT", "instances": [{**PARKING, "instance_id": 99}]}],
     [(320, ["property_facility_list[0].instances[0].instance_id"])]),
    ([{"facility_id": 2, "state": "PRESENT", "instances": [PARKING, PARKING]}],
     [(320, ["property_facility_list[0].instances[1].parking_details.name"])]),
    ([{"facility_id": 2, "state": "PRESENT", "instances": [{**PARKING, "parking_colour": {}}]}],
     [(320, ["property_facility_list[0].instances[0].parking_colour"])]),
    ([{"facility_id": 12345, "state": "PRESENT"}], [(320, ["property_facility_list[0].facility_id"])]),
])
def test_facility_errors_name_the_path_and_the_facility(sb: Any, body: list, expected: list) -> None:
    r = sb.json("PUT", f"/facilities-api/properties/{REGISTRY_HOTEL}", body)
    assert errors(r) == expected
    details = r.json()["errors"][0]["details"]
    assert details["facility_id"] == body[0]["facility_id"]


def test_room_facilities_are_replaced_per_facility_and_bathrooms_whole(sb: Any) -> None:
    base = f"/facilities-api/properties/{REGISTRY_HOTEL}/rooms/101"
    ok(sb.json("PUT", base, [{"room_facility_id": 11, "state": "PRESENT"}, {"room_facility_id": 38,
                                                                             "state": "PRESENT"}]))
    ok(sb.json("PUT", base, [{"room_facility_id": 38, "state": "MISSING"}]))
    assert [f["room_facility_id"] for f in ok(sb.json("GET", base))] == [11]
    ok(sb.json("PUT", f"{base}/bathrooms", {"property_bathroom_details": {"bathrooms": [
        {"bathroom_type": "PRIVATE", "bathroom_location": "ENSUITE"}, {"bathroom_type": "SHARED"}]}}))
    ok(sb.json("PUT", f"{base}/bathrooms", {"hotel_bathroom_details": {
        "private_bathroom_state": "PRESENT", "shared_bathroom_state": "MISSING", "number_of_bathrooms": 1}}))
    got = ok(sb.json("GET", f"{base}/bathrooms"))
    assert "property_bathroom_details" not in got and got["hotel_bathroom_details"]["number_of_bathrooms"] == 1
    assert [r["Group"] for r in table(sb, "bathrooms")] == ["hotel"]
    assert [(r["RoomId"], r["RoomFacilityId"]) for r in table(sb, "room_facilities")] == [("101", "11")]
    assert errors(sb.json("PUT", f"{base}/bathrooms", {"hotel_bathroom_details": {
        "private_bathroom_state": "MISSING", "shared_bathroom_state": "MISSING", "number_of_bathrooms": 2}})) == [
        (320, ["hotel_bathroom_details.number_of_bathrooms"])]
    assert errors(sb.json("GET", f"/facilities-api/properties/{REGISTRY_HOTEL}/rooms/999"), 404) == [
        (320, ["room_id"])]


def test_meta_gives_the_crosswalks(sb: Any) -> None:
    facilities = ok(sb.json("GET", "/facilities-api/meta"))
    assert {f["facility_id"] for f in facilities["property_facility_metas"]} >= {2, 3, 47, 9111}
    assert any(r.get("ota_room_amenity_type") == 2 for r in facilities["room_facility_metas"])
    charges = ok(sb.json("GET", "/charges-api/meta"))
    assert next(c for c in charges if c["charge_type_id"] == "VAT")["ota_fee_tax_types"] == [19, 36]
    categories = ok(sb.json("GET", "/property-api/meta"))["property_categories"]
    assert next(c for c in categories if c["code_ota"] == 20)["code"] == 204
    rooms = ok(sb.json("GET", "/rooms-api/meta"))
    assert {"unit_types", "unit_names", "bed_types"} <= set(rooms)
    assert all(b["is_active"] for b in rooms["bed_types"])


# --- Charges API -------------------------------------------------------------------------------------

def charge(kind: str, mode: str, value: float | None) -> dict[str, Any]:
    amount = {"mode": mode, **({"value": value} if value is not None else {})}
    return {"charge_key": {"type": kind, "guest_origin": "ANY", "travel_purpose": "ANY"},
            "charge_periods": [{"applicable": {"from": "2026-12-01"}, "configuration": {"amount": amount}}]}


def test_charges_are_checked_against_the_meta_and_a_write_replaces_them(sb: Any) -> None:
    path = f"/charges-api/properties/{REGISTRY_HOTEL}/charges"
    ok(sb.json("POST", path, {"property_charges": [charge("VAT", "PERCENTAGE", 6.0),
                                                    charge("CLEANINGFEE", "PER_STAY", 40.0)]}))
    ok(sb.json("POST", path, {"property_charges": [charge("VAT", "PERCENTAGE", 13.0)]}))
    got = ok(sb.json("GET", path))["property_charges"]
    assert [(c["charge_key"]["type"], c["charge_periods"][0]["configuration"]["amount"]["value"]) for c in got] == [
        ("VAT", 13.0)]
    assert errors(sb.json("POST", path, {"property_charges": [charge("VAT", "PER_STAY", 3.0)]})) == [
        (320, ["property_charges[0].charge_periods[0].configuration.amount.mode"])]
    assert errors(sb.json("POST", path, {"property_charges": [charge("SNOWFEE", "PER_STAY", 3.0)]})) == [
        (320, ["property_charges[0].charge_key.type"])]
    assert errors(sb.json("POST", path, {"property_charges": []})) == [(321, ["property_charges"])]


def test_policies_at_most_seven_and_no_duplicate(sb: Any) -> None:
    path = f"/policy-api/properties/{REGISTRY_HOTEL}/policies"
    ids = [ok(sb.json("POST", path, {"cancel_penalty": n}))["policy_id"] for n in range(7)]
    assert len(set(ids)) == 7
    assert errors(sb.json("POST", path, {"cancel_penalty": 1})) == [(320, [])]
    assert errors(sb.json("POST", path, {"cancel_penalty": 99})) == [(320, [])]


# --- Rooms API ---------------------------------------------------------------------------------------

def test_a_room_type_made_by_inv_notif_is_a_unit_with_the_same_id(sb: Any) -> None:
    r = sb.inv_notif(inv_notif_request(REGISTRY_HOTEL, [product("New", room={"RoomType": "9", "Quantity": "5"},
                                                                name="Garden Double")]))
    inv = r.text.split('ResponseInvCode="')[1].split('"')[0]
    units = {u["unit_id"]: u for u in ok(sb.json("GET", f"/rooms-api/properties/{REGISTRY_HOTEL}/units"))}
    assert units[int(inv)]["number_of_units"] == 5
    assert units[int(inv)]["configuration"]["unit_type_id"] == 9


def test_a_unit_made_by_the_rooms_api_is_a_room_type_and_its_rooms_are_replaced_whole(sb: Any) -> None:
    pid = created(sb)
    unit = ok(sb.json("POST", f"/rooms-api/properties/{pid}/units", APARTMENT))["unit_id"]
    assert [(r["HotelCode"], r["InvCode"]) for r in table(sb, "rooms") if r["HotelCode"] == str(pid)] == [
        (str(pid), str(unit))]
    one_room = {"configuration": {"unit_type_id": 1, "rooms": [APARTMENT["configuration"]["rooms"][0]]}}
    ok(sb.json("PATCH", f"/rooms-api/properties/{pid}/units/{unit}", one_room))
    ok(sb.json("PATCH", f"/rooms-api/properties/{pid}/units/{unit}", {"number_of_units": 2}))
    (got,) = ok(sb.json("GET", f"/rooms-api/properties/{pid}/units"))
    assert got["configuration"] == one_room["configuration"] and got["number_of_units"] == 2
    assert [r["Type"] for r in table(sb, "unit_rooms") if r["UnitId"] == str(unit)] == ["BEDROOM_SUBROOM"]
    ok(sb.json("DELETE", f"/rooms-api/properties/{pid}/units/{unit}"))
    assert ok(sb.json("GET", f"/rooms-api/properties/{pid}/units")) == []
    assert [u["unit_id"] for u in ok(sb.json("GET", f"/rooms-api/properties/{pid}/deleted-units"))] == [unit]
    assert errors(sb.json("DELETE", f"/rooms-api/properties/{pid}/units/{unit}"), 404) == [("450", ["unit_id"])]


@pytest.mark.parametrize(("unit", "path"), [
    ({**DOUBLE, "configuration": {"unit_type_id": 31, "rooms": []}}, "configuration.unit_type_id"),  # inactive
    ({**DOUBLE, "configuration": {"unit_type_id": 9, "rooms": []}}, "configuration.rooms"),
    ({**APARTMENT, "configuration": {"unit_type_id": 1, "rooms": [{"type": "LIVING_ROOM_SUBROOM"}]}},
     "configuration.rooms"),
    ({**DOUBLE, "configuration": {"unit_type_id": 9, "rooms": [{"type": "GUEST_ROOM", "bed_configurations": [
        {"beds": [{"bed_type_id": 7, "bed_count": 1}], "is_default_configuration": True}]}]}},
     "configuration.rooms[0].bed_configurations[0].beds[0].bed_type_id"),
    ({**DOUBLE, "configuration": {"unit_type_id": 9, "rooms": [{"type": "GUEST_ROOM", "bed_configurations": [
        {"beds": [{"bed_type_id": 3, "bed_count": 1}]}]}]}}, "configuration.rooms[0].bed_configurations"),
    ({**DOUBLE, "max_children_that_pay_children_rate": 1}, "max_children_that_pay_children_rate"),
    ({**DOUBLE, "unit_name_id": 1}, "unit_name_id"),
])
def test_unit_rules(sb: Any, unit: dict, path: str) -> None:
    assert errors(sb.json("POST", f"/rooms-api/properties/{REGISTRY_HOTEL}/units", unit)) == [("320", [path])]


def test_a_unit_type_not_allowed_for_the_category_is_refused(sb: Any) -> None:
    pid = created(sb, property_category=3)  # an apartment: no dormitory beds
    dorm = {**DOUBLE, "configuration": {"unit_type_id": 26, "rooms": DOUBLE["configuration"]["rooms"]}}
    assert errors(sb.json("POST", f"/rooms-api/properties/{pid}/units", dorm)) == [("320",
                                                                                    ["configuration.unit_type_id"])]


def test_bulk_create_maps_each_unit_by_its_correlation_id_all_or_nothing(sb: Any) -> None:
    units = [{**DOUBLE, "property_id": REGISTRY_HOTEL, "correlation_id": "row-2"},
             {**APARTMENT, "property_id": REGISTRY_HOTEL, "correlation_id": "row-3"}]
    bad = [units[0], {**units[1], "correlation_id": "row-2"}]
    assert errors(sb.json("POST", "/rooms-api/units", {"units": bad})) == [(320, ["$.units[1].correlation_id"])]
    before = len(table(sb, "units"))
    made = ok(sb.json("POST", "/rooms-api/units", {"units": units}))["units"]
    assert [u["correlation_id"] for u in made] == ["row-2", "row-3"] and len(table(sb, "units")) == before + 2
    other = {**units[0], "property_id": 1000002, "correlation_id": "x"}
    assert errors(sb.json("POST", "/rooms-api/units", {"units": [units[0], other]})) == [(320, ["units"])]
    update = {"units": [{"property_id": REGISTRY_HOTEL, "unit_id": made[0]["unit_id"], "number_of_units": 7},
                        {"property_id": REGISTRY_HOTEL, "unit_id": 1, "number_of_units": 7}]}
    assert errors(sb.json("PATCH", "/rooms-api/units", update)) == [(450, ["$.units[1].unit_id"])]
    ok(sb.json("PATCH", "/rooms-api/units", {"units": update["units"][:1]}))
    ok(sb.request("DELETE", "/rooms-api/units", b'{"units": [{"property_id": %d, "unit_id": %d}]}' % (
        REGISTRY_HOTEL, made[1]["unit_id"]), {"Content-Type": "application/json"}))
    rows = {r["UnitId"]: r for r in table(sb, "units")}
    assert rows[str(made[0]["unit_id"])]["NumberOfUnits"] == "7" and rows[str(made[1]["unit_id"])]["Deleted"] == "1"


# --- tooling reads and the request log ---------------------------------------------------------------

def test_sandbox_reads_per_api_and_every_call_logged_with_method_and_path(sb: Any) -> None:
    pid = created(sb)
    ok(sb.json("PUT", f"/contacts-api/properties/{pid}/contacts", {"contacts": [contact("general", "Ana Sousa")]}))
    dump = sb.request("GET", f"/_sandbox/modular/contacts.json?property={pid}").json()
    assert dump["contacts"][0]["contact_person"]["name"] == "Ana Sousa"
    assert sb.request("GET", f"/_sandbox/modular/property.json?property={pid}").json()["details"]["room_count"] == 4
    assert sb.request("GET", "/_sandbox/modular/nothing.json?property=1").status_code == 404
    log = [(r["endpoint"], r["method"], r["path"], r["status"]) for r in sb.requests()]
    assert log == [("property.create", "POST", "/property-api/properties", "200"),
                   ("contacts.write", "PUT", f"/contacts-api/properties/{pid}/contacts", "200")]
