"""The sandbox-only reads of what the modular APIs hold, served under ``/_sandbox/`` for tests and tools:
``units.csv`` (every unit, deleted ones marked), ``unit_rooms.csv`` (each unit's rooms and beds, one row per bed),
``room_facilities.csv`` and ``bathrooms.csv``, and ``/_sandbox/modular/{api}.json?property=ID`` (one property's
documents of an API as JSON)."""

from __future__ import annotations

import json
from typing import Any

from workbench.sandbox.platform.modular_state import ModularStore
from workbench.sandbox.platform.tables import csv_text
from workbench.sandbox.platform.unit_state import Units

UNITS_CSV_COLUMNS = ["HotelCode", "UnitId", "Active", "Deleted", "UnitTypeId", "UnitNameId", "UnitNameSource",
                     "PartnerReferenceName", "NumberOfUnits", "SmokingPolicy", "Size", "SizeUnit", "MaxGuests",
                     "MaxAdults", "MaxChildren", "MaxInfants", "MaxInfantsOnTop", "ExtraBeds", "Cribs",
                     "CribAndExtraBedAllowed"]
#: one row per bed; a room without beds has one row with the bed columns blank
UNIT_ROOMS_CSV_COLUMNS = ["HotelCode", "UnitId", "Room", "Type", "Configuration", "Default", "BedTypeId", "BedCount"]
ROOM_FACILITIES_CSV_COLUMNS = ["HotelCode", "RoomId", "RoomFacilityId", "State", "Instances"]
BATHROOMS_CSV_COLUMNS = ["HotelCode", "RoomId", "Group", "Bathroom", "BathroomId", "BathroomType", "Location",
                         "PrivateState", "SharedState", "NumberOfBathrooms", "Details"]


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    return value


def units_csv(units: Units) -> str:
    rows = []
    for (hotel, inv), rt in units.room_types.load().items():
        u = units.unit(rt)
        conf, occ = u.get("configuration") or {}, u.get("occupancy_details") or {}
        beds, size = u.get("extra_beds_configuration") or {}, u.get("size") or {}
        rows.append([hotel, u["unit_id"], int(rt.active), int(units.deleted(hotel, inv)), conf.get("unit_type_id"),
                     u.get("unit_name_id"), u.get("unit_name_source"), u.get("partner_reference_name"),
                     u.get("number_of_units"), u.get("smoking_policy"), size.get("value"), size.get("unit"),
                     occ.get("max_guests"), occ.get("max_adults"), occ.get("max_children"), occ.get("max_infants"),
                     occ.get("max_infants_on_top"), beds.get("extra_beds"), beds.get("cribs"),
                     beds.get("is_crib_and_extra_bed_allowed")])
    return csv_text(UNITS_CSV_COLUMNS, [[_cell(v) for v in r] for r in rows])


def unit_rooms_csv(units: Units) -> str:
    rows: list[list[Any]] = []
    for (hotel, _), rt in units.room_types.load().items():
        u = units.unit(rt)
        for n, room in enumerate((u.get("configuration") or {}).get("rooms") or [], start=1):
            configs = room.get("bed_configurations") or []
            if not configs:
                rows.append([hotel, u["unit_id"], n, room.get("type"), "", "", "", ""])
            for c, conf in enumerate(configs, start=1):
                for bed in conf.get("beds") or []:
                    rows.append([hotel, u["unit_id"], n, room.get("type"), c, conf.get("is_default_configuration"),
                                 bed.get("bed_type_id"), bed.get("bed_count")])
    return csv_text(UNIT_ROOMS_CSV_COLUMNS, [[_cell(v) for v in r] for r in rows])


def room_facilities_csv(docs: ModularStore) -> str:
    rows = []
    for hotel, key in docs.keys("facilities", prefix="room:"):
        for f in docs.get("facilities", hotel, key) or []:
            rows.append([hotel, key.split(":", 1)[1], f["room_facility_id"], f.get("state"),
                         json.dumps(f.get("room_facility_instances") or [], sort_keys=True)])
    return csv_text(ROOM_FACILITIES_CSV_COLUMNS, rows)


def bathrooms_csv(docs: ModularStore) -> str:
    rows: list[list[Any]] = []
    for hotel, key in docs.keys("facilities", prefix="bathrooms:"):
        room, body = key.split(":", 1)[1], docs.get("facilities", hotel, key) or {}
        hotel_group = body.get("hotel_bathroom_details")
        if hotel_group is not None:
            rows.append([hotel, room, "hotel", "", "", "", "", hotel_group.get("private_bathroom_state"),
                         hotel_group.get("shared_bathroom_state"), hotel_group.get("number_of_bathrooms"),
                         json.dumps(hotel_group.get("private_bathroom_details") or {}, sort_keys=True)])
        for n, b in enumerate((body.get("property_bathroom_details") or {}).get("bathrooms", []), start=1):
            rows.append([hotel, room, "property", n, b.get("id"), b.get("bathroom_type"), b.get("bathroom_location"),
                         "", "", "", json.dumps(b.get("hostel_bathroom_details") or {}, sort_keys=True)])
    return csv_text(BATHROOMS_CSV_COLUMNS, [[_cell(v) for v in r] for r in rows])


def modular_json(docs: ModularStore, units: Units, api: str, property_id: int) -> dict[str, Any]:
    """One property's documents of ``api`` (``rooms``: its units, deleted ones included)."""
    if api == "rooms":
        return {"units": units.units(property_id), "deleted_units": units.units(property_id, deleted=True)}
    return docs.dump(api, property_id)
