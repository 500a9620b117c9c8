"""The Policies API (beta) in the sandbox: ``POST /policy-api/properties/{property_id}/policies`` creates one
cancellation policy per call (platform-now.md 3.6).

Published: only cancellation policies, at most 7 per property, a duplicate combination refused, a stable policy
id returned. The request's serialisation is NOT SHOWN: the sandbox takes a JSON object and compares policies as
sent (the workbench sends none yet). Errors: HTTP 400, integer codes.
"""

from __future__ import annotations

import json

from workbench.sandbox.platform import modular_rules as js
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import json_api
from workbench.sandbox.platform.modular_state import ModularStore

API = "policies"
CREATE = json_api("policies.create", "POST", "/policy-api/properties/{property_id}/policies")
MAX_POLICIES = 7


@js.for_property()
async def create(sb: PlatformState, call: Call, pid: int) -> Reply:
    store = sb.own(ModularStore)
    p = js.Problems()
    if not isinstance(call.json, dict) or not call.json:
        p.invalid(None, "the body must be a JSON object describing one cancellation policy")
        return js.reply(call, None, p)
    held = store.get(API, pid, "policies") or []
    text = json.dumps(call.json, sort_keys=True)
    same = next((h["policy_id"] for h in held if json.dumps(h["policy"], sort_keys=True) == text), None)
    if same is not None:
        p.add(js.INVALID, None, f"the same policy exists: policy {same}", policy_id=same)
    elif len(held) >= MAX_POLICIES:
        p.invalid(None, f"a property has at most {MAX_POLICIES} cancellation policies")
    if p:
        return js.reply(call, None, p)
    policy_id = store.next_id("policy", 9_000_001)
    store.put(API, pid, "policies", [*held, {"policy_id": policy_id, "policy": call.json}], call.ruid)
    return js.reply(call, {"policy_id": policy_id})


FAMILY = Family("policy_api", (CREATE,), {CREATE.name: create})
