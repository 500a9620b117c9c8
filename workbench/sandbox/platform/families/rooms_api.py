"""The Rooms API (beta) in the sandbox (``/rooms-api/``): units one by one (v1.2), in bulk (v1.3), deleted units, meta.

Published (platform-now.md 3.3): ``GET .../units`` the active units; ``POST`` creates one (``data.unit_id``);
``PATCH .../units/{unit_id}`` updates one: the fields sent replace the stored ones, ``configuration`` (so the
``rooms`` array) as a whole; ``DELETE`` one; ``GET .../deleted-units``. Bulk: ``POST /rooms-api/units`` creates
units of **one** property, each with a ``correlation_id`` unique in the request, answered back by it; any error
rejects the whole request (``data: null``, 320 on ``$.units[i]...``); ``PATCH`` and ``DELETE`` the same way, an
unknown unit ``450``. Rules: ``configuration{unit_type_id, rooms}`` and ``unit_name_id`` required to create
(a GENERATED name needs none); the unit type active and allowed for the property's category; a multi-room unit
has bedroom / living-room sub-rooms, at least one with beds, one bed configuration each; a single-room unit one
GUEST_ROOM; one default configuration per room; active bed types. ``max_children_that_pay_children_rate`` is
sunset. Units share the room types' store and ids (:mod:`workbench.sandbox.platform.unit_state`). The one-unit
endpoints write codes as strings (v1.2), the bulk ones as integers.
"""

from __future__ import annotations

from typing import Any

from workbench.sandbox.platform import modular_rules as js
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import json_api
from workbench.sandbox.platform.modular_meta import (
    BED_TYPES,
    PROPERTY_CATEGORIES,
    UNIT_CATEGORIES,
    UNIT_NAMES,
    UNIT_TYPES,
    bed_type,
    category_of,
    unit_type,
)
from workbench.sandbox.platform.modular_state import ModularStore
from workbench.sandbox.platform.unit_state import units_of

_U = "/rooms-api/properties/{property_id}/units"
UNITS = json_api("units.read", "GET", _U)
DELETED = json_api("units.deleted", "GET", "/rooms-api/properties/{property_id}/deleted-units")
CREATE = json_api("unit.create", "POST", _U)
UPDATE = json_api("unit.update", "PATCH", f"{_U}/{{unit_id}}")
DELETE = json_api("unit.delete", "DELETE", f"{_U}/{{unit_id}}")
BULK_CREATE = json_api("units.bulk_create", "POST", "/rooms-api/units")
BULK_UPDATE = json_api("units.bulk_update", "PATCH", "/rooms-api/units")
BULK_DELETE = json_api("units.bulk_delete", "DELETE", "/rooms-api/units")
META = json_api("rooms.meta", "GET", "/rooms-api/meta")
MAX_BULK = 100
ROOM_TYPES = ("BEDROOM_SUBROOM", "LIVING_ROOM_SUBROOM", "GUEST_ROOM")
ROOM = js.Obj({"type": js.Enum(ROOM_TYPES), "bed_configurations": js.Arr(js.Obj({
    "beds": js.Arr(js.Obj({"bed_type_id": js.INT, "bed_count": js.Num(1, 50, whole=True)}, ("bed_type_id", "bed_count")), 1),
    "is_default_configuration": js.BOOL}, ("beds",)))}, ("type",))
UNIT_FIELDS: dict[str, Any] = {
    "configuration": js.Obj({"unit_type_id": js.INT, "rooms": js.Arr(ROOM)}, ("unit_type_id", "rooms")),
    "unit_name_id": js.INT, "number_of_units": js.Num(0, 32000, whole=True),
    "smoking_policy": js.Enum(("SMOKING", "NONSMOKING", "SMOKING_AND_NONSMOKING")),
    "size": js.Obj({"value": js.Num(1, 9999.99), "unit": js.Enum(("SQM", "SQFT"))}, ("value", "unit")),
    "partner_reference_name": js.TEXT, "floor_numbers_located_on": js.Arr(js.Num(0, whole=True)),
    "occupancy_details": js.Obj({"max_guests": js.Num(1, 50, whole=True), "max_adults": js.Num(1, 50, whole=True),
                              "max_children": js.Num(0, 49, whole=True), "max_infants": js.Num(0, 49, whole=True),
                              "max_infants_on_top": js.Num(0, 49, whole=True)}),
    "extra_beds_configuration": js.Obj({"extra_beds": js.Num(0, 100, whole=True), "cribs": js.Num(0, 100, whole=True),
                                     "is_crib_and_extra_bed_allowed": js.BOOL}),
    "unit_name_source": js.Enum(("PROVIDED", "GENERATED")), "category_id": js.INT,
}
SUNSET = {"max_children_that_pay_children_rate": "sunset: no longer taken (platform-now.md C11)"}
UNIT_FIELDS |= {key: js.ANY for key in SUNSET}  # read, then refused by name (not as an unknown field)
CREATE_BODY = js.Obj(UNIT_FIELDS, ("configuration",))
PATCH_BODY = js.Obj(UNIT_FIELDS)
BULK_CREATE_BODY = js.Obj({"units": js.Arr(js.Obj({**UNIT_FIELDS, "property_id": js.INT, "correlation_id": js.TEXT},
                                         ("property_id", "correlation_id", "configuration")), 1, MAX_BULK)},
                       ("units",))
BULK_UPDATE_BODY = js.Obj({"units": js.Arr(js.Obj({**UNIT_FIELDS, "property_id": js.INT, "unit_id": js.INT},
                                         ("property_id", "unit_id")), 1, MAX_BULK)}, ("units",))
BULK_DELETE_BODY = js.Obj({"units": js.Arr(js.Obj({"property_id": js.INT, "unit_id": js.INT}, ("property_id", "unit_id")), 1,
                                     MAX_BULK)}, ("units",))


def _category(sb: PlatformState, pid: int) -> int | None:
    details = sb.own(ModularStore).get("property", pid, "details") or {}
    return category_of(details.get("property_category"), details.get("booking_property_category"))


def _name(unit: dict[str, Any]) -> str | None:
    return next((n["unit_name"] for n in UNIT_NAMES if n["unit_name_id"] == unit.get("unit_name_id")), None)


def _unit_rules(sb: PlatformState, pid: int, unit: dict[str, Any], base: str, p: js.Problems, *, creating: bool) -> None:
    """The rules the shape cannot say (see the module docstring); ``base`` prefixes the paths (``units[0]``)."""
    at = (lambda key: f"{base}.{key}" if base else key)  # noqa: E731 - a path helper
    for key, why in SUNSET.items():
        if key in unit:
            p.invalid(at(key), why)
    if creating and unit.get("unit_name_source") != "GENERATED" and unit.get("unit_name_id") is None:
        p.add(js.MISSING, at("unit_name_id"), "must not be null (or send unit_name_source GENERATED)")
    if unit.get("unit_name_id") is not None and _name(unit) is None:
        p.invalid(at("unit_name_id"), f"{unit['unit_name_id']} is not a unit name of GET /rooms-api/meta")
    config = unit.get("configuration")
    if not isinstance(config, dict):
        return
    kind = unit_type(config.get("unit_type_id"))
    category = _category(sb, pid)
    if kind is None or not kind["is_active"]:
        p.invalid(at("configuration.unit_type_id"), f"unit type {config.get('unit_type_id')} is not an active unit "
                  "type of GET /rooms-api/meta")
        return
    if category is not None and category not in kind["valid_property_categories"]:
        p.invalid(at("configuration.unit_type_id"), f"unit type {kind['unit_type_id']} ({kind['unit_type_name']}) is "
                  f"not allowed for the property's category {category}")
    rooms = config.get("rooms") or []
    types = [r.get("type") for r in rooms]
    if kind["is_multi_room"]:
        if not rooms or any(t == "GUEST_ROOM" for t in types) or not any(r.get("bed_configurations") for r in rooms):
            p.invalid(at("configuration.rooms"), "a multi-room unit has bedroom or living-room sub-rooms, at least "
                                                 "one of them with beds")
    elif types != ["GUEST_ROOM"]:
        p.invalid(at("configuration.rooms"), "a single-room unit has exactly one GUEST_ROOM")
    for i, room in enumerate(rooms):
        configs = room.get("bed_configurations") or []
        path = at(f"configuration.rooms[{i}].bed_configurations")
        if kind["is_multi_room"] and len(configs) > 1:
            p.invalid(path, "a room of a multi-room unit has exactly one bed configuration")
        if configs and sum(bool(c.get("is_default_configuration")) for c in configs) != 1:
            p.invalid(path, "a room has exactly one default bed configuration (is_default_configuration)")
        for j, c in enumerate(configs):
            for k, bed in enumerate(c.get("beds") or []):
                found = bed_type(bed.get("bed_type_id"))
                if found is None or not found["is_active"]:
                    p.invalid(f"{path}[{j}].beds[{k}].bed_type_id", f"bed type {bed.get('bed_type_id')} is not active")


@js.for_property(text_codes=True)
async def units(sb: PlatformState, call: Call, pid: int) -> Reply:
    return js.reply(call, sb.own(units_of).units(pid), text_codes=True)


@js.for_property(text_codes=True)
async def deleted(sb: PlatformState, call: Call, pid: int) -> Reply:
    return js.reply(call, sb.own(units_of).units(pid, deleted=True), text_codes=True)


@js.for_property(text_codes=True)
async def create(sb: PlatformState, call: Call, pid: int) -> Reply:
    p = js.check(CREATE_BODY, call.json)
    if not p:
        _unit_rules(sb, pid, call.json, "", p, creating=True)
    if p:
        return js.reply(call, None, p, text_codes=True)
    rt = sb.own(units_of).create(pid, call.json, _name(call.json), call.ruid)
    return js.reply(call, {"unit_id": int(rt.inv_code)}, text_codes=True)


def _unit(sb: PlatformState, call: Call) -> tuple[Any, Reply | None]:
    pid, refused = js.property_of(sb, call, text_codes=True)
    if refused:
        return None, refused
    assert pid is not None
    rt = sb.own(units_of).find(pid, js.path_id(call, "unit_id"))
    if rt is None:
        return None, js.refuse(call, js.UNABLE, "unit_id", f"unit {call.path_params.get('unit_id')} of property {pid} not "
                            "found", status=404, text_codes=True)
    return rt, None


async def update(sb: PlatformState, call: Call) -> Reply:
    rt, refused = _unit(sb, call)
    if refused:
        return refused
    p = js.check(PATCH_BODY, call.json)
    if not p:
        _unit_rules(sb, rt.hotel_code, call.json, "", p, creating=False)
    if p:
        return js.reply(call, None, p, text_codes=True)
    sb.own(units_of).update(rt, call.json, _name(call.json), call.ruid)
    return js.reply(call, None, text_codes=True)


async def delete(sb: PlatformState, call: Call) -> Reply:
    rt, refused = _unit(sb, call)
    if refused:
        return refused
    sb.own(units_of).delete(rt, call.ruid)
    return js.reply(call, None, text_codes=True)


def _bulk_property(sb: PlatformState, items: list[dict[str, Any]], p: js.Problems) -> int | None:
    pids = {u["property_id"] for u in items}
    if len(pids) > 1:
        p.invalid("units", "all units of a bulk request belong to one property")
        return None
    pid = pids.pop()
    if not js.property_known(sb, pid):
        p.invalid("units[0].property_id", f"property {pid} does not exist or is not connected to this account")
        return None
    return int(pid)


async def bulk_create(sb: PlatformState, call: Call) -> Reply:
    p = js.check(BULK_CREATE_BODY, call.json, "$")
    pid = None if p else _bulk_property(sb, call.json["units"], p)
    if pid is not None:
        seen: set[str] = set()
        for i, unit in enumerate(call.json["units"]):
            if unit["correlation_id"] in seen:
                p.invalid(f"$.units[{i}].correlation_id", "correlation_id is not unique")
            seen.add(unit["correlation_id"])
            _unit_rules(sb, pid, unit, f"$.units[{i}]", p, creating=True)
    if p or pid is None:
        return js.reply(call, None, p)
    made = []
    for unit in call.json["units"]:
        rt = sb.own(units_of).create(pid, unit, _name(unit), call.ruid)
        made.append({"unit_id": int(rt.inv_code), "correlation_id": unit["correlation_id"], "property_id": pid,
                     **{k: v for k, v in unit.items() if k not in ("property_id", "correlation_id")}})
    return js.reply(call, {"units": made})


def _bulk_units(sb: PlatformState, call: Call, shape: js.Obj) -> tuple[list[Any], js.Problems]:
    p = js.check(shape, call.json, "$")
    found: list[Any] = []
    pid = None if p else _bulk_property(sb, call.json["units"], p)
    if pid is not None:
        for i, unit in enumerate(call.json["units"]):
            rt = sb.own(units_of).find(pid, unit["unit_id"])
            if rt is None:
                p.add(js.UNABLE, f"$.units[{i}].unit_id", "unit not found")
            found.append(rt)
    return found, p


async def bulk_update(sb: PlatformState, call: Call) -> Reply:
    found, p = _bulk_units(sb, call, BULK_UPDATE_BODY)
    if not p:
        for i, (rt, unit) in enumerate(zip(found, call.json["units"], strict=True)):
            _unit_rules(sb, rt.hotel_code, unit, f"$.units[{i}]", p, creating=False)
    if p:
        return js.reply(call, None, p)
    for rt, unit in zip(found, call.json["units"], strict=True):
        sb.own(units_of).update(rt, unit, _name(unit), call.ruid)
    return js.reply(call, None)


async def bulk_delete(sb: PlatformState, call: Call) -> Reply:
    found, p = _bulk_units(sb, call, BULK_DELETE_BODY)
    if p:
        return js.reply(call, None, p)
    for rt in found:
        sb.own(units_of).delete(rt, call.ruid)
    return js.reply(call, None)


async def meta(sb: PlatformState, call: Call) -> Reply:
    show_inactive = str(call.query.get("show_inactive", "false")).lower() == "true"
    kinds = [u for u in UNIT_TYPES if show_inactive or u["is_active"]]
    beds = [b for b in BED_TYPES if show_inactive or b["is_active"]]
    return js.reply(call, {"language_code": str(call.query.get("language_code", "EN_GB")), "unit_types": kinds,
                        "unit_names": UNIT_NAMES, "bed_types": beds,
                        "property_categories": [{k: c[k] for k in ("code", "name", "code_ota") if k in c}
                                                for c in PROPERTY_CATEGORIES],
                        "unit_categories": UNIT_CATEGORIES})


FAMILY = Family("rooms_api", (UNITS, DELETED, CREATE, UPDATE, DELETE, BULK_CREATE, BULK_UPDATE, BULK_DELETE, META), {
    UNITS.name: units, DELETED.name: deleted, CREATE.name: create, UPDATE.name: update, DELETE.name: delete,
    BULK_CREATE.name: bulk_create, BULK_UPDATE.name: bulk_update, BULK_DELETE.name: bulk_delete, META.name: meta})
