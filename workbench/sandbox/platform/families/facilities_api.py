"""The Facilities API in the sandbox (``/facilities-api/``): property facilities, room facilities, bathrooms, meta.

Published merge semantics (platform-now.md 3.4, stated explicitly): a property ``PUT`` (an array of
``{facility_id, state, instances[]}``) leaves alone the facilities it does not name; for each facility it names,
the instances sent replace the stored ones: an instance with a known ``instance_id`` is kept under that id, one
without gets a new id, a stored instance left out is deleted; ``state: MISSING`` removes the facility. Each
instance carries the detail objects the meta allows, and those it requires (parking: ``parking_details`` and
``payment_details``); names are unique per facility. Room facilities (``.../rooms/{room_id}``): the same per
facility (assumed: NOT SHOWN). Bathrooms (``.../rooms/{room_id}/bathrooms``): a full replace, either
``hotel_bathroom_details`` (states and a count: 0 when both are MISSING, above 0 otherwise) or
``property_bathroom_details.bathrooms[0..20]`` (the location allowed for the room's unit type, the hostel rules).
Errors answer HTTP 400 with integer codes, the path and ``details.facility_id`` / ``instance_id``.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from workbench.sandbox.platform import modular_rules as js
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import json_api
from workbench.sandbox.platform.modular_meta import (
    BATHROOM_CONFIGURATIONS,
    PROPERTY_FACILITIES,
    ROOM_FACILITIES,
    details_key,
    facility,
    room_facility,
)
from workbench.sandbox.platform.modular_state import ModularStore

API = "facilities"
_F = "/facilities-api/properties/{property_id}"
WRITE = json_api("facilities.write", "PUT", _F)
READ = json_api("facilities.read", "GET", _F)
ROOM_WRITE = json_api("room_facilities.write", "PUT", f"{_F}/rooms/{{room_id}}")
ROOM_READ = json_api("room_facilities.read", "GET", f"{_F}/rooms/{{room_id}}")
BATH_WRITE = json_api("bathrooms.write", "PUT", f"{_F}/rooms/{{room_id}}/bathrooms")
BATH_READ = json_api("bathrooms.read", "GET", f"{_F}/rooms/{{room_id}}/bathrooms")
META = json_api("facilities.meta", "GET", "/facilities-api/meta")
STATE = js.Enum(("PRESENT", "MISSING"))
FLAG = js.Enum(("NOT_SPECIFIED", "PRESENT", "MISSING"))
_FLAGS = ("has_onsite_staff", "has_gated_parking", "has_security_cameras", "has_ev_charging_station",
          "has_accessible_parking_spots", "has_valet_service")
_TIME = js.Obj({"hours": js.Num(0, 23, whole=True), "minutes": js.Num(0, 59, whole=True)}, ("hours", "minutes"))
DAYS = ("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY")
#: the detail objects whose shape the sandbox checks (any other allowed one is taken as an object)
DETAILS: dict[str, js.Shape] = {
    "parking_details": js.Obj({"name": js.TEXT, "parking_type": js.TEXT, "parking_location": js.Enum(("ON_SITE", "NEARBY")),
                            "parking_access": js.Enum(("ONLY_GUESTS", "GENERAL_PUBLIC")),
                            "parking_reservation": js.Enum(("NEEDED", "NOT_NEEDED", "NOT_POSSIBLE")),
                            "max_height_m": js.NUMBER, **{f: FLAG for f in _FLAGS}},
                           ("name", "parking_location", "parking_access", "parking_reservation")),
    "payment_details": js.Obj({"charge_mode": js.Enum(("UNKNOWN_CHARGE_MODE", "FREE", "PAID", "CHARGES_MAY_APPLY")),
                            "charge_details": js.Obj({"price": js.NUMBER, "frequency": js.TEXT})}, ("charge_mode",)),
    "internet_details": js.Obj({"area": js.TEXT, "type": js.Enum(("NONE", "WIRED", "WIFI")), "wifi_info": js.ANY},
                            ("area", "type")),
    "meal_details": js.Obj({"price": js.Num(0.1), "breakfast_types": js.Arr(js.TEXT), "breakfast_food_item_types": js.Arr(js.TEXT)},
                        ("price",)),
    "schedule_details": js.Obj({"schedule": js.Arr(js.Obj({"day_of_week": js.Enum(DAYS), "from": _TIME, "to": _TIME},
                                                 ("day_of_week", "from", "to")))}, ("schedule",)),
    "surcharge_details": js.Obj({"surcharge_type": js.Enum(("FREE", "PAID", "DEFAULT"))}, ("surcharge_type",)),
    "on_site_details": js.Obj({"onsite_type": js.TEXT}, ("onsite_type",)),
}
NAMED = ("parking_details", "restaurant_details", "swimming_pool_details")


def _store(sb: PlatformState) -> ModularStore:
    return sb.own(ModularStore)


def _instances(meta: dict[str, Any], instances: list[Any], base: str, fid: int, known: set[int],
               p: js.Problems) -> None:
    allowed = {details_key(d) for d in meta.get("allowed_details_list", [])}
    required = [details_key(d) for d in meta.get("required_details_list", [])]
    names: dict[str, int] = {}
    for j, inst in enumerate(instances):
        path = f"{base}.instances[{j}]"
        if not isinstance(inst, dict):
            p.invalid(path, "an instance is a JSON object", facility_id=fid, instance_id=None)
            continue
        iid = inst.get("instance_id")
        for key, value in inst.items():
            if key == "instance_id":
                if iid not in known:
                    p.invalid(f"{path}.instance_id", f"facility {fid} has no instance {iid}: send the instance ids "
                              "a GET gives (or none, for a new instance)", facility_id=fid, instance_id=iid)
            elif key not in allowed:
                p.invalid(f"{path}.{key}", f"Unrecognized field \"{key}\" for facility {fid}", facility_id=fid,
                          instance_id=iid)
            elif key in DETAILS:
                found = js.check(DETAILS[key], value, f"{path}.{key}")
                for e in found.errors:
                    e.extra = {"facility_id": fid, "instance_id": iid}
                p.errors += found.errors
            elif not isinstance(value, dict):
                p.invalid(f"{path}.{key}", f"`{key}` is a JSON object", facility_id=fid, instance_id=iid)
        for key in required:
            if inst.get(key) is None:
                p.add(js.MISSING, f"{path}.{key}", "must not be null", facility_id=fid, instance_id=iid)
        for key in NAMED:
            name = (inst.get(key) or {}).get("name") if isinstance(inst.get(key), dict) else None
            if isinstance(name, str):
                if name.casefold() in names:
                    p.invalid(f"{path}.{key}.name", f"the name `{name}` is given to two instances of facility {fid}: "
                              "names are unique per facility", facility_id=fid, instance_id=iid)
                names[name.casefold()] = j


def _merge(stored: list[dict[str, Any]], body: list[dict[str, Any]], sb: PlatformState, members: tuple[str, str],
           ids: bool) -> list[dict[str, Any]]:
    """The stored facilities after a PUT: those named are replaced (instances by id), MISSING ones removed."""
    id_key, inst_key = members
    out = {f[id_key]: f for f in stored}
    for item in body:
        fid = item[id_key]
        if item.get("state") == "MISSING":
            out.pop(fid, None)
            continue
        instances = copy.deepcopy(item.get(inst_key) or [])
        if ids:
            for inst in instances:
                if inst.get("instance_id") is None:
                    inst["instance_id"] = _store(sb).next_id("instance", 5_000_001)
        out[fid] = {id_key: fid, "state": "PRESENT", inst_key: instances}
    return list(out.values())


def _known(body: list[dict[str, Any]], id_key: str, find: Callable[[object], dict[str, Any] | None], where: str,
           p: js.Problems) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``(path, item, meta)`` of each item whose id the meta knows; an unknown id is refused on its path."""
    out = []
    for i, item in enumerate(body):
        base, fid = f"{where}[{i}]", item[id_key]
        meta = find(fid)
        if meta is None:
            p.invalid(f"{base}.{id_key}", f"{fid} is not in GET /facilities-api/meta", **{id_key: fid})
        else:
            out.append((base, item, meta))
    return out


FACILITY_ITEM = js.Obj({"facility_id": js.INT, "state": STATE, "instances": js.Arr(js.ANY)}, ("facility_id", "state"))


@js.for_property()
async def write(sb: PlatformState, call: Call, pid: int) -> Reply:
    body = call.json
    p = js.check(js.Arr(FACILITY_ITEM), body, "property_facility_list")
    stored = _store(sb).get(API, pid, "property") or []
    known = {f["facility_id"]: {i.get("instance_id") for i in f.get("instances", [])} for f in stored}
    if not p:
        seen: set[int] = set()
        for base, item, meta in _known(body, "facility_id", facility, "property_facility_list", p):
            fid = item["facility_id"]
            if fid in seen:
                p.invalid(f"{base}.facility_id", f"facility {fid} is given twice", facility_id=fid)
            seen.add(fid)
            instances = item.get("instances") or []
            if item["state"] == "PRESENT" and meta["required_details_list"] and not instances:
                p.invalid(f"{base}.instances", f"instances are required for facility {fid}", facility_id=fid)
            _instances(meta, instances, base, fid, known.get(fid, set()), p)
    if p:
        return js.reply(call, None, p)
    _store(sb).put(API, pid, "property", _merge(stored, body, sb, ("facility_id", "instances"), True), call.ruid)
    return js.reply(call, {"success": True})


@js.for_property()
async def read(sb: PlatformState, call: Call, pid: int) -> Reply:
    out = copy.deepcopy(_store(sb).get(API, pid, "property") or [])
    if str(call.query.get("debugInfo", "")).lower() == "true":
        for f in out:
            f["property_facility_meta"] = facility(f["facility_id"])
    return js.reply(call, out)


def _for_room(handler: Callable[[PlatformState, Call, int, str], Awaitable[Reply]]
              ) -> Callable[[PlatformState, Call], Awaitable[Reply]]:
    """A handler of ``.../rooms/{room_id}...``: called with the property and the room once the room is known to be
    a room (unit) of the property, else the call is refused (404, code 320 on ``room_id``)."""
    @js.for_property()
    @functools.wraps(handler)
    async def checked(sb: PlatformState, call: Call, pid: int) -> Reply:
        room = str(js.path_id(call, "room_id") or call.path_params.get("room_id", ""))
        if not any(inv == room for _, inv in sb.room_types.load(pid)):
            return js.refuse(call, js.INVALID, "room_id", f"room {room} is not a room of property {pid}", status=404)
        return await handler(sb, call, pid, room)
    return checked


ROOM_ITEM = js.Obj({"room_facility_id": js.INT, "state": STATE, "room_facility_instances": js.Arr(js.ANY)},
                ("room_facility_id", "state"))


@_for_room
async def room_write(sb: PlatformState, call: Call, pid: int, room: str) -> Reply:
    body = call.json
    p = js.check(js.Arr(ROOM_ITEM), body, "room_facility_list")
    if not p:
        for base, item, meta in _known(body, "room_facility_id", room_facility, "room_facility_list", p):
            fid = item["room_facility_id"]
            allowed = {details_key(d) for d in meta["allowed_details_list"]}
            for j, inst in enumerate(item.get("room_facility_instances") or []):
                for key in (inst if isinstance(inst, dict) else {}):
                    if key not in allowed:
                        p.invalid(f"{base}.room_facility_instances[{j}].{key}",
                                  f"Unrecognized field \"{key}\" for room facility {fid}", room_facility_id=fid)
    if p:
        return js.reply(call, None, p)
    key = f"room:{room}"
    merged = _merge(_store(sb).get(API, pid, key) or [], body, sb, ("room_facility_id", "room_facility_instances"),
                    False)
    _store(sb).put(API, pid, key, merged, call.ruid)
    return js.reply(call, {"success": True})


@_for_room
async def room_read(sb: PlatformState, call: Call, pid: int, room: str) -> Reply:
    return js.reply(call, _store(sb).get(API, pid, f"room:{room}") or [])


HOTEL_BATHROOMS = js.Obj({"private_bathroom_state": STATE, "shared_bathroom_state": STATE,
                       "number_of_bathrooms": js.Num(0, 20, whole=True),
                       "private_bathroom_details": js.Obj({"type": js.TEXT, "location_type": js.TEXT, "location_other": js.TEXT})},
                      ("private_bathroom_state", "shared_bathroom_state", "number_of_bathrooms"))
BATHROOM = js.Obj({"id": js.INT, "bathroom_type": js.Enum(("PRIVATE", "SHARED")), "bathroom_location": js.TEXT,
                "hostel_bathroom_details": js.Obj({"gender": js.TEXT, "num_guests_with_access_type": js.TEXT,
                                                "bathroom_facilities": js.Arr(js.Obj({
                                                    "type": js.TEXT, "count": js.Num(1, 100, whole=True), "is_paid": js.BOOL},
                                                    ("type",)))})}, ("bathroom_type",))
BATHROOMS_BODY = js.Obj({"hotel_bathroom_details": HOTEL_BATHROOMS,
                      "property_bathroom_details": js.Obj({"bathrooms": js.Arr(BATHROOM, 0, 20)}, ("bathrooms",))})
COUNTED = ("SHOWER", "TOILET", "SINK", "BATH")


def _unit_type(sb: PlatformState, pid: int, room: str) -> int | None:
    unit = _store(sb).get("rooms", pid, f"unit:{room}")
    return ((unit or {}).get("configuration") or {}).get("unit_type_id")


def _bathroom_rules(body: dict[str, Any], unit_type: int | None, p: js.Problems) -> None:
    groups = [k for k in ("hotel_bathroom_details", "property_bathroom_details") if body.get(k) is not None]
    if len(groups) != 1:
        p.invalid(None, "send either hotel_bathroom_details or property_bathroom_details")
        return
    hotel = body.get("hotel_bathroom_details")
    if hotel is not None:
        none = hotel["private_bathroom_state"] == hotel["shared_bathroom_state"] == "MISSING"
        if none != (hotel["number_of_bathrooms"] == 0):
            p.invalid("hotel_bathroom_details.number_of_bathrooms", "number_of_bathrooms must be 0 when both states "
                      "are MISSING and above 0 otherwise")
        return
    config = next((c for c in BATHROOM_CONFIGURATIONS if c["unit_type_id"] == unit_type), None)
    bathrooms = body["property_bathroom_details"]["bathrooms"]
    for i, b in enumerate(bathrooms):
        path = f"property_bathroom_details.bathrooms[{i}]"
        hostel = b.get("hostel_bathroom_details") or {}
        if config is not None:
            option = next((o for o in config["allowed_options"] if o["bathroom_type"] == b["bathroom_type"]), None)
            locations = option["bathroom_locations"] if option else []
            location = b.get("bathroom_location")
            if option is None or (location is not None and location not in locations) or \
                    (location is None and locations):
                p.invalid(f"{path}.bathroom_location", f"`{location}` is not a location of a {b['bathroom_type']} "
                          f"bathroom of unit type {unit_type} (allowed: {', '.join(locations) or 'none'})")
        shared = b["bathroom_type"] == "SHARED"
        for key in ("gender", "num_guests_with_access_type"):
            if hostel and shared and hostel.get(key) is None:
                p.add(js.MISSING, f"{path}.hostel_bathroom_details.{key}", "required for a SHARED bathroom")
            if not shared and hostel.get(key) is not None:
                p.invalid(f"{path}.hostel_bathroom_details.{key}", "not allowed for a PRIVATE bathroom")
        for j, f in enumerate(hostel.get("bathroom_facilities") or []):
            if f.get("count") is not None and f.get("type") not in COUNTED:
                p.invalid(f"{path}.hostel_bathroom_details.bathroom_facilities[{j}].count",
                          f"count applies only to {', '.join(COUNTED)}")
    if config is not None and unit_type == 26:
        kinds = [b["bathroom_type"] for b in bathrooms]
        if kinds.count("PRIVATE") > 1 or kinds.count("SHARED") > 5:
            p.invalid("property_bathroom_details.bathrooms", "a hostel has at most 1 private and 5 shared bathrooms")


@_for_room
async def bath_write(sb: PlatformState, call: Call, pid: int, room: str) -> Reply:
    p = js.check(BATHROOMS_BODY, call.json)
    if not p:
        _bathroom_rules(call.json, _unit_type(sb, pid, room), p)
    if p:
        return js.reply(call, None, p)
    stored = copy.deepcopy(call.json)  # a full replace: what is not sent is gone
    for b in (stored.get("property_bathroom_details") or {}).get("bathrooms", []):
        b["id"] = _store(sb).next_id("bathroom", 77_001)
    _store(sb).put(API, pid, f"bathrooms:{room}", stored, call.ruid)
    return js.reply(call, {"success": True})


@_for_room
async def bath_read(sb: PlatformState, call: Call, pid: int, room: str) -> Reply:
    return js.reply(call, _store(sb).get(API, pid, f"bathrooms:{room}"))


async def meta(sb: PlatformState, call: Call) -> Reply:
    return js.reply(call, {"property_facility_metas": PROPERTY_FACILITIES, "room_facility_metas": ROOM_FACILITIES,
                        "bathroom_configurations": BATHROOM_CONFIGURATIONS})


FAMILY = Family("facilities_api", (WRITE, READ, ROOM_WRITE, ROOM_READ, BATH_WRITE, BATH_READ, META), {
    WRITE.name: write, READ.name: read, ROOM_WRITE.name: room_write, ROOM_READ.name: room_read,
    BATH_WRITE.name: bath_write, BATH_READ.name: bath_read, META.name: meta})
