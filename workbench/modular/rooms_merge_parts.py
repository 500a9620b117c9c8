"""A unit's room facilities and bathrooms (Facilities API) from the read and the sheet's edits.

- Room facilities (``PUT /facilities-api/properties/{id}/rooms/{room}``): the sheet's non-bed amenities of the room
  (through the meta's ``ota_room_amenity_type`` crosswalk; Value 0 or ``remove``: MISSING) compared with the read.
  When one differs, the PUT carries the read's whole list with the sheet's states, each facility with the instances
  it has (linen, crib details): the description says a PUT replaces each facility it names, and a facility named
  with its instances and every other facility named as read are kept whatever the PUT replaces.
- Bathrooms (``PUT .../bathrooms``, replaced whole): the number of bathrooms the sheet's Bathroom sub-rooms give
  (their ``Number``, 1 when blank; Remove: none), compared with the read. When it differs, the read's bathrooms are
  kept (ids, locations, hostel details), the last ones dropped or private ones added; a room with none read takes
  the shape the meta gives its unit type (homes and hostels: a list; hotels: the private count).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from expectations.rooms import bed_types
from workbench.modular.building import Request, finish
from workbench.modular.cells import CellMap, issue
from workbench.modular.facilities_api import ROOM_FACILITY_LIST, BathroomDetails, RoomFacility
from workbench.modular.rules import CODE_NOT_IN_META, PART_NOT_WHOLE
from workbench.modular.workbook import integer, text

if TYPE_CHECKING:
    from workbench.modular.rooms_merge import UnitEdit

__all__ = ["bathroom_count", "bathrooms_request", "facilities_request"]

FACILITIES = "Facilities API"


def facilities_request(edit: UnitEdit) -> Request | None:
    """The room facilities PUT when the sheet changes one (None: nothing changes)."""
    beds = bed_types()
    own = [a for a in edit.amenities if text(a.get("subroom")) is None and integer(a.get("amenity_code")) not in beds]
    if not own:
        return None
    read = edit.answers.room_facilities.get(int(edit.inv))
    if not isinstance(read, list):
        edit.records.append(issue(edit.cell(own[0], "amenity_code"), PART_NOT_WHOLE,
                                  f"the room facilities of unit {edit.inv} were not read, so they cannot be changed "
                                  "safely: push again"))
        return None
    current = {f.get("room_facility_id"): f for f in read if isinstance(f, dict)}
    wanted: dict[int, tuple[str, dict]] = {}
    for a in own:
        code = int(a["amenity_code"])
        meta = edit.meta.room_facility_for_code(code)
        if meta is None:
            edit.records.append(issue(edit.cell(a, "amenity_code"), CODE_NOT_IN_META,
                                      f"room amenity {code} is not one the Facilities meta maps (ota_room_amenity_type):"
                                      " check the code against GET /facilities-api/meta"))
            continue
        wanted[meta.room_facility_id] = ("MISSING" if a.get("remove") or integer(a.get("value")) == 0 else "PRESENT",
                                         a)
    changed = {fid: w for fid, w in wanted.items() if (current.get(fid) or {}).get("state", "MISSING") != w[0]}
    if not changed:
        return None
    cells = CellMap(root=edit.root())
    payload: list[dict] = []
    for fid in [*current, *(f for f in changed if f not in current)]:
        entry = {k: v for k, v in (current.get(fid) or {"room_facility_id": fid}).items() if k != "room_facility_meta"}
        if fid in changed:
            state, row = changed[fid]
            entry["state"] = state
            if state == "MISSING":
                entry.pop("room_facility_instances", None)
            at = edit.cell(row, "amenity_code")
            cells.at(f"{ROOM_FACILITY_LIST}[{len(payload)}]", at)
            cells.hint("room_facility_id", fid, f"{ROOM_FACILITY_LIST}[{len(payload)}]")
            meta = edit.meta.room_facility(fid)
            edit.change("room facilities", meta.room_facility_name if meta and meta.room_facility_name else str(fid),
                        (current.get(fid) or {}).get("state"), state, at)
        payload.append(entry)
    body = finish(list[RoomFacility], payload, cells, edit.records, api=FACILITIES, root=ROOM_FACILITY_LIST)
    return Request(str(edit.hotel), edit.hotel, None, "room_facilities.write", body, cells,
                   {"room_id": edit.inv}) if body else None


def bathroom_count(details: object) -> int:
    """How many bathrooms a bathrooms read (``data``) gives: the hotel count, or the homes list's length."""
    if not isinstance(details, dict):
        return 0
    hotel = details.get("hotel_bathroom_details")
    if isinstance(hotel, dict):
        return int(hotel.get("number_of_bathrooms") or 0)
    homes = details.get("property_bathroom_details")
    return len(homes.get("bathrooms") or []) if isinstance(homes, dict) else 0


def bathrooms_request(edit: UnitEdit) -> Request | None:
    """The bathrooms PUT when the sheet's Bathroom sub-rooms give another number than the read (None: the same)."""
    rows = [s for s in edit.subrooms if (text(s.get("subroom_type")) or "").casefold() == "bathroom"]
    if not rows:
        return None
    wanted = sum(0 if s.get("remove") else (1 if integer(s.get("number")) is None else int(s["number"]))
                 for s in rows)
    at = edit.cell(rows[0], "number")
    if int(edit.inv) not in edit.answers.bathrooms:
        edit.records.append(issue(at, PART_NOT_WHOLE, f"the bathrooms of unit {edit.inv} were not read, so they "
                                                      "cannot be changed safely: push again"))
        return None
    got = edit.answers.bathrooms.get(int(edit.inv))
    read: dict[str, Any] = got if isinstance(got, dict) else {}
    before = bathroom_count(read)
    if wanted == before:
        return None
    body = _bathrooms(edit, read, wanted)
    cells = CellMap(root=at)
    for path in ("hotel_bathroom_details.number_of_bathrooms", "property_bathroom_details.bathrooms"):
        cells.at(path, at)
    edit.change("bathrooms", "number of bathrooms", before, wanted, at)
    payload = finish(BathroomDetails, body, cells, edit.records, api=FACILITIES)
    return Request(str(edit.hotel), edit.hotel, None, "bathrooms.write", payload, cells,
                   {"room_id": edit.inv}) if payload else None


def _private(edit: UnitEdit) -> dict:
    """A bathroom added to a homes or hostel room: private, at the first location the Facilities meta allows a
    private bathroom of the unit's type (none when it lists none: a dormitory bed takes no location)."""
    unit_type = (edit.unit.get("configuration") or {}).get("unit_type_id")
    configs = edit.meta.facilities.bathroom_configurations if edit.meta.facilities else []
    options = [o for c in configs if c.unit_type_id == unit_type for o in c.allowed_options or []
               if o.bathroom_type == "PRIVATE"]
    where = next((loc for o in options for loc in o.bathroom_locations or []), None)
    return {"bathroom_type": "PRIVATE", **({"bathroom_location": where} if where else {})}


def _bathrooms(edit: UnitEdit, read: dict[str, Any], wanted: int) -> dict:
    hotel = read.get("hotel_bathroom_details")
    homes = read.get("property_bathroom_details")
    if not isinstance(hotel, dict) and not isinstance(homes, dict):
        unit_type = (edit.unit.get("configuration") or {}).get("unit_type_id")
        configs = edit.meta.facilities.bathroom_configurations if edit.meta.facilities else []
        homes = {"bathrooms": []} if any(c.unit_type_id == unit_type for c in configs) else None
        hotel = None if homes is not None else {"private_bathroom_state": "MISSING",
                                                "shared_bathroom_state": "MISSING", "number_of_bathrooms": 0}
    if isinstance(homes, dict):
        kept = list(homes.get("bathrooms") or [])[:wanted]
        kept += [_private(edit)] * (wanted - len(kept))
        return {"property_bathroom_details": {**homes, "bathrooms": kept}}
    out = dict(hotel or {})
    out["number_of_bathrooms"] = wanted
    if wanted == 0:
        out["private_bathroom_state"] = out["shared_bathroom_state"] = "MISSING"
        out.pop("private_bathroom_details", None)
    elif out.get("private_bathroom_state") != "PRESENT" and out.get("shared_bathroom_state") != "PRESENT":
        out["private_bathroom_state"], out["shared_bathroom_state"] = "PRESENT", out.get("shared_bathroom_state",
                                                                                         "MISSING")
    return {"hotel_bathroom_details": out}
