"""The Charges API in the sandbox (``/charges-api/``): a property's taxes and fees, and the meta of charge types.

Published (platform-now.md 3.5): the body is ``property_charges[]`` and ``room_charges[{room_id, charges[]}]``,
at least one charge across the two; a charge is ``charge_key{type, guest_origin, travel_purpose}`` and
``charge_periods[{applicable{from, to?}, configuration{amount{mode, value, base[]}, excluded, child_ages[]}}]``;
the type is a charge type of the meta (a discontinued one refused), the mode one of its allowed modes.
Whether keys left out of a write are deleted is NOT SHOWN: the sandbox takes the stricter reading, **a write
replaces the property's charges** (a key left out is gone), so a client that keeps what it does not mean to
change is safe under either. The write is ``POST`` (the mirror's method). Errors: HTTP 400, integer codes.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from workbench.sandbox.platform import modular_rules as js
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import json_api
from workbench.sandbox.platform.modular_meta import CHARGE_TYPES, charge_type
from workbench.sandbox.platform.modular_state import ModularStore

API = "charges"
PATH = "/charges-api/properties/{property_id}/charges"
WRITE = json_api("charges.write", "POST", PATH)
READ = json_api("charges.read", "GET", PATH)
META = json_api("charges.meta", "GET", "/charges-api/meta")
DATE = js.Text(pattern=re.compile(r"^\d{4}-\d{2}-\d{2}$"))
CHARGE = js.Obj({
    "charge_key": js.Obj({"type": js.TEXT, "guest_origin": js.Enum(("ANY", "DOMESTIC", "INTERNATIONAL")),
                       "travel_purpose": js.Enum(("ANY", "LEISURE", "BUSINESS"))}, ("type",)),
    "charge_periods": js.Arr(js.Obj({
        "applicable": js.Obj({"from": DATE, "to": DATE}, ("from",)),
        "configuration": js.Obj({"amount": js.Obj({"mode": js.TEXT, "value": js.NUMBER, "base": js.Arr(js.TEXT)}, ("mode",)),
                              "excluded": js.BOOL,
                              "child_ages": js.Arr(js.Obj({"multiplier": js.NUMBER, "lte": js.INT}, ("multiplier", "lte")))},
                             ("amount",))}, ("applicable", "configuration")), 1),
}, ("charge_key", "charge_periods"))
BODY = js.Obj({"property_charges": js.Arr(CHARGE), "room_charges": js.Arr(js.Obj({"room_id": js.INT, "charges": js.Arr(CHARGE, 1)},
                                                                      ("room_id", "charges")))})


def _key(charge: dict[str, Any]) -> tuple[str, str, str]:
    k = charge["charge_key"]
    return k["type"], k.get("guest_origin", "ANY"), k.get("travel_purpose", "ANY")


def _charges(charges: list[dict[str, Any]], base: str, p: js.Problems) -> None:
    seen: set[tuple[str, str, str]] = set()
    for i, charge in enumerate(charges):
        path = f"{base}[{i}]"
        meta = charge_type(charge["charge_key"]["type"])
        if meta is None or meta.get("discontinued"):
            why = "is discontinued: " + meta.get("discontinuation_notice", "") if meta else \
                "is not a charge type of GET /charges-api/meta"
            p.invalid(f"{path}.charge_key.type", f"`{charge['charge_key']['type']}` {why}")
            continue
        if _key(charge) in seen:
            p.invalid(f"{path}.charge_key", "the same charge key is given twice")
        seen.add(_key(charge))
        for j, period in enumerate(charge["charge_periods"]):
            amount = period["configuration"]["amount"]
            at = f"{path}.charge_periods[{j}].configuration.amount"
            if amount["mode"] not in meta["allowed_charge_modes"]:
                p.invalid(f"{at}.mode", f"`{amount['mode']}` is not a mode of {meta['charge_type_id']} (allowed: "
                          f"{', '.join(meta['allowed_charge_modes'])})")
            if amount["mode"] != "INCALCULABLE" and amount.get("value") is None:
                p.add(321, f"{at}.value", "must not be null")


@js.for_property()
async def write(sb: PlatformState, call: Call, pid: int) -> Reply:
    body = call.json
    p = js.check(BODY, body)
    if not p:
        rooms = {inv for _, inv in sb.room_types.load(pid)}
        if not body.get("property_charges") and not body.get("room_charges"):
            p.add(321, "property_charges", "a write must contain at least one charge")
        _charges(body.get("property_charges") or [], "property_charges", p)
        for i, room in enumerate(body.get("room_charges") or []):
            if str(room["room_id"]) not in rooms:
                p.invalid(f"room_charges[{i}].room_id", f"room {room['room_id']} is not a room of property {pid}")
            _charges(room["charges"], f"room_charges[{i}].charges", p)
    if p:
        return js.reply(call, None, p)
    stored = {"property_charges": copy.deepcopy(body.get("property_charges") or []),
              "room_charges": copy.deepcopy(body.get("room_charges") or [])}
    sb.own(ModularStore).put(API, pid, "charges", stored, call.ruid)
    return js.reply(call, None)


@js.for_property()
async def read(sb: PlatformState, call: Call, pid: int) -> Reply:
    stored = sb.own(ModularStore).get(API, pid, "charges")
    return js.reply(call, stored or {"property_charges": [], "room_charges": []})


async def meta(sb: PlatformState, call: Call) -> Reply:
    return js.reply(call, CHARGE_TYPES)


FAMILY = Family("charges_api", (WRITE, READ, META), {WRITE.name: write, READ.name: read, META.name: meta})
