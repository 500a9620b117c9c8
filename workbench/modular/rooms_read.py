"""Rooms API units (and their room facilities and bathrooms) -> the rooms workbook's Rooms, SubRooms, Amenities.

The reverse of :mod:`rooms` / :mod:`map_units`: a unit's type goes back to its BCRT code (by name), its rooms of a
multi-room unit to sub-rooms ``Bedroom 1``, ``Living room 1``..., its beds to the bed RMA codes (by name, else by
width), a single-room unit's bed configurations to its own bed amenities with Configuration 1 and 2, its room
facilities to RMA codes through the Facilities meta (MISSING: ``remove``), a hotel's bathrooms to one Bathroom
sub-room with their number. Not kept (docs/modular.md): the partner's RoomID (the platform keeps no correlation
id), MaximumAdditionalGuests, the sub-rooms' own keys, MaxGuests and PrivateBathroom.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from expectations.rooms import amenity_names, bed_types, room_type_names
from loaders.schemas import AMENITIES_COLUMNS, ROOMS_COLUMNS, SUBROOMS_COLUMNS
from workbench.modular.base import read_answer, read_answers
from workbench.modular.facilities_api import BathroomDetails, RoomFacility
from workbench.modular.map_units import SMOKING, bed_key, bed_widths
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms_api import Unit

__all__ = ["UnitAnswers", "rooms_from_answers"]

_SUBROOM = {"BEDROOM_SUBROOM": "Bedroom", "LIVING_ROOM_SUBROOM": "Living room"}


@dataclass(frozen=True)
class UnitAnswers:
    """One property's units (``GET .../units`` data) and, by unit id, its room facilities and bathrooms."""

    hotel_code: int
    units: object
    room_facilities: Mapping[int, object] = field(default_factory=dict)
    bathrooms: Mapping[int, object] = field(default_factory=dict)


def _bed_code(meta: ModularMeta, bed_type_id: int) -> int | None:
    bed = meta.bed_type(bed_type_id)
    if bed is None:
        return None
    names = amenity_names()
    codes = sorted(bed_types())
    by_name = next((c for c in codes if bed_key(names.get(c, "")) == bed_key(bed.bed_type_name or "")), None)
    if by_name is not None:
        return by_name
    return next((c for c in codes if (w := bed_widths().get(c)) and f"{w} cm" in (bed.bed_type_description or "")),
                None)


def _room_type(meta: ModularMeta, unit_type_id: int | None) -> str | None:
    kind = meta.unit_type(unit_type_id) if unit_type_id is not None else None
    if kind is None:
        return None
    code = next((c for c, n in room_type_names().items() if n.casefold() == (kind.unit_type_name or "").casefold()),
                None)
    return str(code) if code is not None else kind.unit_type_name


def _unit_rows(u: Unit, meta: ModularMeta, key: dict, out: dict[str, list[dict]]) -> None:
    occ, beds, size = u.occupancy_details, u.extra_beds_configuration, u.size
    name = meta.unit_name(u.unit_name_id) if u.unit_name_id is not None else None
    out["Rooms"].append({**key, "room_type": _room_type(meta, u.configuration.unit_type_id if u.configuration else None),
                         "room_name": u.partner_reference_name or (name.unit_name if name else None),
                         "quantity": u.number_of_units,
                         "non_smoking": {v: k for k, v in SMOKING.items()}.get(u.smoking_policy or ""),
                         "size_measurement": int(size.value) if size and size.value is not None else None,
                         "size_measurement_unit": (size.unit or "").lower() or None if size else None,
                         "max_occupancy": occ.max_guests if occ else None,
                         "max_adult_occupancy": occ.max_adults if occ else None,
                         "max_child_occupancy": occ.max_children if occ else None,
                         "max_infants": occ.max_infants if occ else None,
                         "max_infants_on_top": occ.max_infants_on_top if occ else None,
                         "max_cribs": beds.cribs if beds else None, "max_rollaways": beds.extra_beds if beds else None})
    rooms = u.configuration.rooms if u.configuration else []
    counts: dict[str, int] = {}
    for room in rooms or []:
        configs = room.bed_configurations or []
        if room.type == "GUEST_ROOM":
            for config in configs:
                number = 1 if config.is_default_configuration else 2
                out["Amenities"] += [{**key, "amenity_code": _bed_code(meta, b.bed_type_id), "value": b.bed_count,
                                      "configuration": number} for b in config.beds or []]
            continue
        kind = _SUBROOM.get(room.type or "", room.type or "")
        counts[kind] = counts.get(kind, 0) + 1
        subroom = f"{kind} {counts[kind]}"
        out["SubRooms"].append({**key, "subroom": subroom, "subroom_type": kind})
        for config in configs[:1]:
            out["Amenities"] += [{**key, "subroom": subroom, "amenity_code": _bed_code(meta, b.bed_type_id),
                                  "value": b.bed_count} for b in config.beds or []]


def rooms_from_answers(answers: Iterable[UnitAnswers], meta: ModularMeta | None = None, *,
                       source: str = "platform") -> dict[str, pd.DataFrame]:
    """The rooms workbook's frames (``Rooms``, ``SubRooms``, ``Amenities``, as ``loaders.read_rooms`` types them)."""
    meta = meta or ModularMeta()
    out: dict[str, list[dict]] = {"Rooms": [], "SubRooms": [], "Amenities": []}
    for a in answers:
        for u in read_answers(Unit, a.units):
            key = {"hotel_code": a.hotel_code, "inv_code": None if u.unit_id is None else str(u.unit_id)}
            _unit_rows(u, meta, key, out)
            for f in read_answers(RoomFacility, a.room_facilities.get(u.unit_id or 0)):
                fm = meta.room_facility(f.room_facility_id)
                code = (fm.ota_room_amenity_type or fm.booking_extended_legacy_code) if fm else None
                out["Amenities"].append({**key, "amenity_code": code, "remove": f.state == "MISSING"})
            baths = a.bathrooms.get(u.unit_id or 0)
            if baths:  # a room read without bathrooms (``{}``) has no Bathroom sub-room
                details = read_answer(BathroomDetails, baths)
                hotel = details.hotel_bathroom_details
                count = hotel.number_of_bathrooms if hotel else len(details.property_bathroom_details.bathrooms or []) \
                    if details.property_bathroom_details else 0
                out["SubRooms"].append({**key, "subroom": "Bathroom 1", "subroom_type": "Bathroom", "number": count})
    columns = {"Rooms": ROOMS_COLUMNS, "SubRooms": SUBROOMS_COLUMNS, "Amenities": AMENITIES_COLUMNS}
    return {sheet: _frame(rows, columns[sheet], source, sheet) for sheet, rows in out.items()}


def _frame(rows: list[dict], columns: Mapping[str, str], source: str, sheet: str) -> pd.DataFrame:
    data: dict[str, Any] = {c: [r.get(c) for r in rows] for c in columns}
    data["source"], data["sheet"] = [source] * len(rows), [sheet] * len(rows)
    data["row"] = list(range(2, len(rows) + 2))
    if "remove" in columns:
        data["remove"] = [bool(r.get("remove")) for r in rows]
    return pd.DataFrame({c: pd.Series(v, dtype=object) for c, v in data.items()}).astype(dict(columns))
