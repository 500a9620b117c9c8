"""The Property API in the sandbox (``/property-api/``): details, settings, status, description and meta.

Published behaviour (platform-now.md 3.1): ``POST /properties`` creates a property (the required fields, the
property name rules, ``target`` test|production) and answers ``data.property_id``; a duplicate (same name,
first address line and coordinates) is refused naming the existing property id (``details.property_id``: the
sandbox's reading, the published text says the error "gives the existing property id"); ``PATCH`` takes the
five fields the description still marks required and keeps the fields it does not send; ``GET`` adds
``property_id``, ``status``, ``url``. Settings: each group checked and answered separately (``{success}`` per
group, the children policies as ``child_policies``), a group sent replaces the stored group, read back with the
platform's read spellings (``pricing_type`` ``Standard``, integer French tax ids, ``rtb_eligible``). Status:
``OPEN``/``CLOSE``/``CHECK`` -> ``data.status``. Description: ``PUT``/``GET``/``DELETE``.

A property created here is a property of the account everywhere: its id is a HotelCode (the content store's id
space), so room types, rates and the other modular APIs take it. Errors answer HTTP 400 with integer codes.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from datetime import UTC, datetime
from typing import Any

from workbench.sandbox.platform import modular_rules as js
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.content_state import CLOSED, OPEN, ContentProperty
from workbench.sandbox.platform.endpoints import json_api
from workbench.sandbox.platform.modular_meta import PROPERTY_CATEGORIES, category_of
from workbench.sandbox.platform.modular_state import ModularStore

API = "property"
_P = "/property-api/properties/{property_id}"
CREATE = json_api("property.create", "POST", "/property-api/properties")
UPDATE = json_api("property.update", "PATCH", _P)
READ = json_api("property.read", "GET", _P)
META = json_api("property.meta", "GET", "/property-api/meta")
SETTINGS_WRITE = json_api("settings.write", "POST", f"{_P}/settings")
SETTINGS_READ = json_api("settings.read", "GET", f"{_P}/settings")
STATUS = json_api("status.write", "POST", f"{_P}/status")
DESCRIPTION_WRITE = json_api("description.write", "PUT", f"{_P}/description")
DESCRIPTION_READ = json_api("description.read", "GET", f"{_P}/description")
DESCRIPTION_DELETE = json_api("description.delete", "DELETE", f"{_P}/description")
RTB_COUNTRIES = frozenset({"FR", "AU", "US", "IT", "DE", "GB", "ES"})


def name_problem(name: object) -> str | None:
    """The Property API's name rule: 3..255 characters, no CJK ideographs, at least three letters one of them
    lower case, at most five digits, no punctuation, asterisks or symbols."""
    if not isinstance(name, str):
        return "property_name must be a text"
    if not 3 <= len(name) <= 255:
        return "property_name must have 3 to 255 characters"
    if any(0x4E00 <= ord(c) <= 0x9FFF for c in name):
        return "property_name may not contain CJK ideographs"
    letters = [c for c in name if c.isalpha()]
    if len(letters) < 3 or not any(c.islower() for c in letters):
        return "property_name needs at least three letters, one of them lower case"
    if sum(c.isdigit() for c in name) > 5:
        return "property_name may contain at most five digits"
    if any(unicodedata.category(c)[0] in "PS" for c in name):
        return "property_name may not contain punctuation, asterisks or symbols"
    return None


ADDRESS = js.Obj({"address_line": js.Text(1, 255), "city_name": js.TEXT, "country_code": js.Text(2, 2), "postal_code": js.TEXT,
               "display_address": js.BOOL}, ("address_line", "city_name", "country_code"))
DETAILS: dict[str, Any] = {
    "property_name": js.Rule(name_problem), "physical_address": ADDRESS,
    "position": js.Obj({"latitude": js.Num(-90, 90), "longitude": js.Num(-180, 180)}, ("latitude", "longitude")),
    "check_in": js.Obj({"from": js.HHMM, "until": js.HHMM}, ("from",)),
    "check_out": js.Obj({"from": js.HHMM, "until": js.HHMM}, ("until",)),
    "room_count": js.Num(0, whole=True),
    "translations": js.Arr(js.Obj({k: js.TEXT for k in ("language_code", "property_name", "address_line", "city_name")},
                            ("language_code", "property_name", "address_line", "city_name"))),
    "property_category": js.INT, "booking_property_category": js.INT, "primary_language": js.Text(2, 5),
    "languages_spoken": js.Arr(js.Text(2, 5)), "floor_count": js.Num(0, 200, whole=True),
    "provider_property_id": js.Text(1, 16), "currency_code": js.Text(3, 3),
    "stars": js.Text(pattern=re.compile(r"^(0|[1-4](\.5)?|5)$")),
}
REQUIRED = ("property_name", "physical_address", "position", "check_in", "room_count")
CREATE_BODY = js.Obj({**DETAILS, "legal_entity_id": js.INT, "target": js.Enum(("test", "production"))},
                  ("legal_entity_id", *REQUIRED, "target"))
UPDATE_BODY = js.Obj(DETAILS, REQUIRED)

_TOGGLE = {"enabled": js.BOOL, "start": js.HHMM, "end": js.HHMM}
SETTINGS_GROUPS: dict[str, Any] = {
    "property_settings": js.Obj({"require_cvc": js.BOOL, "require_booker_address": js.BOOL, "require_booker_phone_number": js.BOOL,
                              "allow_smoking": js.BOOL, "view_cc_details": js.BOOL, "curfew": js.Obj(_TOGGLE),
                              "age_restriction": js.Obj({"enabled": js.BOOL, "min": js.INT, "max": js.INT}),
                              "auto_replenish": js.BOOL, "replenish_closed_rooms": js.BOOL,
                              "long_stay": js.Obj({"enabled": js.BOOL, "max_length_of_stay": js.INT}),
                              "pricing_type": js.Enum(("STANDARD", "LOS", "OBP"))}),
    "pets": js.Obj({"pets_allowed": js.Enum(("PETS_NOT_ALLOWED", "PETS_ALLOWED", "PETS_ALLOWED_ON_REQUEST")),
                 "pets_price_type": js.Enum(("FREE", "CHARGES_MAY_APPLY"))}, ("pets_allowed",)),
    "damage_policy": js.Obj({"policy_type": js.Enum(("NONE", "HANDLED_BY_PROPERTY", "HANDLED_BY_BOOKING_COM")),
                          "amount": js.NUMBER, "currency": js.Text(3, 3), "damage_programme_terms_agreed": js.BOOL,
                          "collection_mode": js.TEXT, "collection_when": js.TEXT, "return_mode": js.TEXT,
                          "return_when": js.TEXT}, ("policy_type",)),
    "standard_phrases": js.Arr(js.Obj({"name": js.TEXT, "enabled": js.BOOL}, ("name", "enabled"))),
    "quiet_hours": js.Obj(_TOGGLE),
    "renovation": js.Obj({"enabled": js.BOOL, "start": js.TEXT, "end": js.TEXT}),
    "bed_linen_policy": js.Obj({"enabled": js.BOOL, "amount": js.NUMBER}),
    "accepted_payment_types": js.Obj({"codes": js.Arr(js.INT)}, ("codes",)),
    "french_tax_details": js.Obj({"declare_revenue": js.BOOL, "has_vat": js.BOOL, "registered_in_rcs": js.BOOL,
                               "category_id": js.ANY, "nature_id": js.ANY},
                              ("declare_revenue", "has_vat", "registered_in_rcs")),
    "cancellation_exceptions": js.Obj({"grace_period": js.Obj({"enabled": js.BOOL, "after_booking": js.Enum((
        "HOURS_1", "HOURS_4", "HOURS_24"))}), "advance_cancellation": js.Obj({"enabled": js.BOOL, "before_check_in": js.Enum((
            "WEEKS_4", "WEEKS_8", "WEEKS_12"))})}),
    "age_buckets": js.Arr(js.Obj({"min_age": js.Num(0, 17, whole=True), "max_age": js.Num(0, 17, whole=True)},
                           ("min_age", "max_age")), 1, 3),
    "children_policies": js.Obj({"allow_children": js.BOOL, "min_age": js.INT, "policy_rules": js.Arr(js.Obj({
        "rule_type": js.Enum(("EXISTING_BED", "EXTRA_BED", "CRIB", "EXTRA_BED_FOR_ADULT")), "from_age": js.INT,
        "to_age": js.INT, "price_type": js.Enum(("FIXED", "FREE", "ADULT_PERCENTAGE")),
        "price_mode": js.Enum(("PER_STAY", "PER_NIGHT")), "price": js.NUMBER}, ("rule_type",)))}),
    "booking_model": js.Obj({"type": js.Enum(("IB", "RTB"))}, ("type",)),
    "invoice_settings": js.Obj({k: js.TEXT for k in ("legal_name", "contact_person", "address", "country_code", "city",
                                               "postal_code")} | {"state": js.Text(0, 2), "notification_channel": js.Enum((
                                                   "POSTAL_MAIL", "EMAIL")), "brazil_tax_details": js.Obj({
                                                       "tax_payer_number_type": js.Enum(("CNPJ", "CPF")),
                                                       "tax_payer_number": js.TEXT, "city_hall_id": js.TEXT,
                                                       "email": js.TEXT})}),
    "land_registration_numbers": js.Arr(js.TEXT),
}
_ANSWERED_AS = {"children_policies": "child_policies"}  # the description's success map names it so


def _store(sb: PlatformState) -> ModularStore:
    return sb.own(ModularStore)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


def _category(body: dict[str, Any], p: js.Problems) -> None:
    if body.get("property_category") is None and body.get("booking_property_category") is None:
        p.add(321, "property_category", "give property_category (an OTA code) or booking_property_category")
    elif category_of(body.get("property_category"), body.get("booking_property_category")) is None:
        path: str = "booking_property_category" if body.get("booking_property_category") is not None \
            else "property_category"
        p.invalid(path, f"`{body.get(path)}` is not a property category of GET /property-api/meta")


def _duplicate(sb: PlatformState, body: dict[str, Any]) -> int | None:
    """A property created here with the same name, first address line and coordinates."""
    def same(d: dict[str, Any]) -> tuple[object, ...]:
        pos, address = d.get("position") or {}, d.get("physical_address") or {}
        return (str(d.get("property_name", "")).casefold(), str(address.get("address_line", "")).casefold(),
                round(float(pos.get("latitude", 0)), 4), round(float(pos.get("longitude", 0)), 4))
    wanted = same(body)
    for pid, _ in _store(sb).keys(API, prefix="details"):
        if same(_store(sb).get(API, pid, "details") or {}) == wanted:
            return pid
    return None


def _remember(sb: PlatformState, prop: ContentProperty, details: dict[str, Any], ruid: str) -> None:
    """Keep the facts the other stand-ins show of a property (``/_sandbox/properties.csv``) in the content store."""
    address, position = details.get("physical_address") or {}, details.get("position") or {}
    prop.name, prop.language = details.get("property_name"), details.get("primary_language")
    prop.currency = details.get("currency_code") or prop.currency
    prop.target = str(details.get("target") or prop.target or "").capitalize() or None
    prop.country, prop.city = address.get("country_code"), address.get("city_name")
    prop.latitude, prop.longitude = position.get("latitude"), position.get("longitude")
    prop.custom_id = details.get("provider_property_id") or prop.custom_id
    prop.ruid = ruid
    sb.content.save(prop)


async def create(sb: PlatformState, call: Call) -> Reply:
    body = call.json
    p = js.check(CREATE_BODY, body)
    if isinstance(body, dict) and not p:
        _category(body, p)
    if p:
        return js.reply(call, None, p)
    existing = _duplicate(sb, body)
    if existing is not None:
        p.add(js.NOT_PERMITTED, "property_name", f"a property with the same name, address and coordinates exists: "
              f"property {existing}", property_id=existing)
        return js.reply(call, None, p)
    pid = sb.content.next_hotel_code(sb.registry)
    details = copy.deepcopy(body)
    details.setdefault("currency_code", "EUR")
    details.setdefault("primary_language", "en-gb")
    _store(sb).put(API, pid, "details", details, call.ruid)
    _remember(sb, ContentProperty(pid, body.get("provider_property_id"), f"modular:{pid}", 1, CLOSED), details,
              call.ruid)
    return js.reply(call, {"property_id": pid})


def _details(sb: PlatformState, pid: int) -> dict[str, Any]:
    stored = _store(sb).get(API, pid, "details")
    if stored is not None:
        return stored
    reg = next((r for r in sb.registry.properties if r.hotel_code == pid), None)
    return {"property_name": reg.name, "currency_code": reg.currency,
            "physical_address": {"country_code": reg.country}} if reg is not None else {}


@js.for_property()
async def update(sb: PlatformState, call: Call, pid: int) -> Reply:
    body = call.json
    p = js.check(UPDATE_BODY, body)
    if isinstance(body, dict) and not p and (body.get("property_category") is not None
                                             or body.get("booking_property_category") is not None):
        _category(body, p)
    if p:
        return js.reply(call, None, p)
    details = {**_details(sb, pid), **copy.deepcopy(body)}  # the fields not sent are kept
    _store(sb).put(API, pid, "details", details, call.ruid)
    prop = sb.content.get(pid)
    if prop is not None:
        _remember(sb, prop, details, call.ruid)
    return js.reply(call, {"property_id": pid})


def _status(sb: PlatformState, pid: int) -> str:
    prop = sb.content.get(pid)
    return "CLOSED" if prop is not None and prop.status == CLOSED else "OPEN"


@js.for_property()
async def read(sb: PlatformState, call: Call, pid: int) -> Reply:
    details = _details(sb, pid)
    category = category_of(details.get("property_category"), details.get("booking_property_category"))
    extra = {"booking_property_category": category} if category is not None else {}
    return js.reply(call, {**details, **extra, "property_id": pid, "status": _status(sb, pid),
                        "url": f"https://sandbox.invalid/hotel/{pid}.html"})


async def meta(sb: PlatformState, call: Call) -> Reply:
    return js.reply(call, {"property_categories": PROPERTY_CATEGORIES})


@js.for_property()
async def settings_write(sb: PlatformState, call: Call, pid: int) -> Reply:
    body = call.json
    if not isinstance(body, dict):
        p = js.Problems()
        p.invalid(None, "the body must be a JSON object of settings groups")
        return js.reply(call, None, p)
    p = js.Problems()
    answered: dict[str, Any] = {}
    stored = _store(sb).get(API, pid, "settings") or {}
    for group, value in body.items():
        shape = SETTINGS_GROUPS.get(group)
        if shape is None:
            p.add(394, group, f"Unrecognized field \"{group}\"")
            continue
        found = js.check(shape, value, group)
        if group == "age_buckets" and not found and any(b["min_age"] > b["max_age"] for b in value):
            found.invalid(group, "min_age must not be above max_age")
        answered[_ANSWERED_AS.get(str(group), str(group))] = {"success": not found}
        p.errors += found.errors
        if not found:
            stored[group] = copy.deepcopy(value)
    _store(sb).put(API, pid, "settings", stored, call.ruid)
    return js.reply(call, answered, p, status=400 if p and not any(v["success"] for v in answered.values()) else 200)


@js.for_property()
async def settings_read(sb: PlatformState, call: Call, pid: int) -> Reply:
    out = copy.deepcopy(_store(sb).get(API, pid, "settings") or {})
    ps = out.get("property_settings") or {}
    if ps.get("pricing_type") == "STANDARD":  # the read spelling the description shows
        ps["pricing_type"] = "Standard"
    for key in ("category_id", "nature_id"):
        value = (out.get("french_tax_details") or {}).get(key)
        if isinstance(value, str) and value.isdigit():
            out["french_tax_details"][key] = int(value)
    if "booking_model" in out:
        country = (_details(sb, pid).get("physical_address") or {}).get("country_code")
        out["booking_model"]["rtb_eligible"] = str(country or "").upper() in RTB_COUNTRIES
    return js.reply(call, out)


STATUS_BODY = js.Obj({"operation": js.Enum(("CHECK", "OPEN", "CLOSE")), "reason": js.Obj({"type": js.TEXT, "description": js.TEXT})},
                  ("operation",))


@js.for_property()
async def status(sb: PlatformState, call: Call, pid: int) -> Reply:
    p = js.check(STATUS_BODY, call.json)
    if p:
        return js.reply(call, None, p)
    operation = call.json["operation"]
    prop = sb.content.get(pid)
    if operation != "CHECK":
        if prop is None:  # a registry property: it has a row from now on
            reg = next(r for r in sb.registry.properties if r.hotel_code == pid)
            prop = ContentProperty(pid, None, f"registry:{pid}", 1, OPEN, name=reg.name, currency=reg.currency,
                                   country=reg.country)
        prop.status = OPEN if operation == "OPEN" else CLOSED
        sb.content.save(prop)
    return js.reply(call, {"status": _status(sb, pid)})


DESCRIPTION_BODY = js.Obj({"text": js.Text(1), "language_code": js.Text(2, 5)}, ("text",))


@js.for_property()
async def description_write(sb: PlatformState, call: Call, pid: int) -> Reply:
    p = js.check(DESCRIPTION_BODY, call.json)
    if p:
        return js.reply(call, None, p)
    _store(sb).put(API, pid, "description", {"language_code": "en-gb", **call.json, "last_update": _now()}, call.ruid)
    return js.reply(call, {"success": True})


@js.for_property()
async def description_read(sb: PlatformState, call: Call, pid: int) -> Reply:
    return js.reply(call, _store(sb).get(API, pid, "description"))


@js.for_property()
async def description_delete(sb: PlatformState, call: Call, pid: int) -> Reply:
    _store(sb).delete(API, pid, "description")
    return js.reply(call, {"success": True})


FAMILY = Family("property_api", (CREATE, UPDATE, READ, META, SETTINGS_WRITE, SETTINGS_READ, STATUS, DESCRIPTION_WRITE,
                                 DESCRIPTION_READ, DESCRIPTION_DELETE), {
    CREATE.name: create, UPDATE.name: update, READ.name: read, META.name: meta, SETTINGS_WRITE.name: settings_write,
    SETTINGS_READ.name: settings_read, STATUS.name: status, DESCRIPTION_WRITE.name: description_write,
    DESCRIPTION_READ.name: description_read, DESCRIPTION_DELETE.name: description_delete})
