"""The Contacts API in the sandbox (``/contacts-api/properties/{property_id}/contacts``).

Published behaviour (platform-now.md 3.2; implementing-contacts-api-ga, troubleshooting-contacts-api): ``PUT``
replaces every contact of the property (a contact left out is deleted); ``GET`` reads them (``no_language_fallback``
0, the default: a contact person's missing language reads ``en-gb``; 1: null). Each contact has
``contact_profiles[{type}]``, ``contact_person{name, language_code, gender, job_title}``, ``email``, ``phones[]``
(``phone_tech_type`` 1 at most three times, 3 and 5 at most once; an ``extension`` only on type 1) and an
optional ``address``; a profile type may not repeat across the contacts; ``contract`` is answered ``450``.
Errors answer HTTP 400 with the codes as strings (as this description writes them).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from workbench.sandbox.platform import modular_rules as js
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import json_api
from workbench.sandbox.platform.modular_state import ModularStore

API = "contacts"
PATH = "/contacts-api/properties/{property_id}/contacts"
WRITE = json_api("contacts.write", "PUT", PATH)
READ = json_api("contacts.read", "GET", PATH)
TYPES = ("general", "contract", "reservations", "invoices", "availability", "site_content", "parity", "requests",
         "central_reservations")
PHONE = js.Obj({"phone_number": js.Text(4, 30), "phone_tech_type": js.Enum((1, 3, 5)), "extension": js.Text(1, 10)},
            ("phone_number", "phone_tech_type"))
CONTACT = js.Obj({
    "contact_profiles": js.Arr(js.Obj({"type": js.Enum(TYPES)}, ("type",)), 1),
    "contact_person": js.Obj({"name": js.Text(1, 255), "language_code": js.Text(2, 5), "gender": js.Enum(("male", "female")),
                           "job_title": js.TEXT}, ("name", "language_code")),
    "email": js.Text(3, 255),
    "phones": js.Arr(PHONE, 1),
    "address": js.Obj({"country_code": js.Text(2, 2), "language_code": js.Text(2, 5), "city_name": js.TEXT, "postal_code": js.TEXT,
                    "address_line": js.Text(1, 255)}, ("country_code", "language_code")),
}, ("contact_profiles", "contact_person", "email", "phones"))
BODY = js.Obj({"contacts": js.Arr(CONTACT)}, ("contacts",))
PHONE_LIMITS = {1: 3, 3: 1, 5: 1}


def _rules(contacts: list[dict[str, Any]], p: js.Problems) -> None:
    """What the shape cannot say: types across contacts, the phone counts, extensions, ``contract``."""
    seen: dict[str, int] = {}
    for i, contact in enumerate(contacts):
        for j, profile in enumerate(contact.get("contact_profiles") or []):
            kind, path = profile.get("type"), f"contacts[{i}].contact_profiles[{j}].type"
            if kind == "contract":
                p.add(js.UNABLE, path, "the contract contact type cannot be set through the Contacts API")
            elif kind in seen:
                p.add(js.INVALID, path, f"the profile type `{kind}` is given twice (contacts[{seen[kind]}] and "
                                     f"contacts[{i}]): one contact per type, General once")
            seen.setdefault(kind, i)
        phones = contact.get("phones") or []
        counts = Counter(ph.get("phone_tech_type") for ph in phones)
        for tech, limit in PHONE_LIMITS.items():
            if counts[tech] > limit:
                p.add(js.INVALID, f"contacts[{i}].phones", f"phone_tech_type {tech} at most {limit} time(s) per contact")
        for j, ph in enumerate(phones):
            if ph.get("extension") is not None and ph.get("phone_tech_type") != 1:
                p.add(js.INVALID, f"contacts[{i}].phones[{j}].extension", "an extension is only for phone_tech_type 1")


@js.for_property(text_codes=True)
async def write(sb: PlatformState, call: Call, pid: int) -> Reply:
    p = js.check(BODY, call.json)
    if not p:
        _rules(call.json["contacts"], p)
    if p:
        return js.reply(call, None, p, text_codes=True)
    sb.own(ModularStore).put(API, pid, "contacts", copy.deepcopy(call.json["contacts"]), call.ruid)
    return js.reply(call, {"success": True}, text_codes=True)


@js.for_property(text_codes=True)
async def read(sb: PlatformState, call: Call, pid: int) -> Reply:
    contacts = sb.own(ModularStore).get(API, pid, "contacts") or []
    if str(call.query.get("no_language_fallback", "0")) != "1":
        for c in contacts:
            person = c.get("contact_person") or {}
            if person.get("language_code") is None:
                person["language_code"] = "en-gb"
    return js.reply(call, {"contacts": contacts}, text_codes=True)


FAMILY = Family("contacts_api", (WRITE, READ), {WRITE.name: write, READ.name: read})
