"""The rooms workbook (``loaders.read_rooms``: Rooms, SubRooms, Amenities) -> Rooms and Facilities API bodies.

Per property: the room types to create go in bulk (``POST /rooms-api/units``, at most 100 units of one
property a request, each with a ``correlation_id``: the partner's RoomID, else its Excel row); each existing
room type (InvCode) is a ``PATCH`` of the fields the sheet gives (its rooms, when given, replace the unit's
rooms as a whole); the non-bed amenities of a room become its room facilities through the Facilities meta's
RMA crosswalk (value 0 or ``remove``: MISSING), and its Bathroom sub-rooms its bathrooms (the homes and hostels
shape when the meta lists a bathroom configuration for the unit type, the hotel shape otherwise: private
bathrooms, their number). A room created in the same run is named in those two requests by its
``correlation_id`` (``Request.ids``): the driver fills in its room id from the bulk answer. Unit by unit:
:mod:`map_units`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from expectations.rooms import bed_types
from loaders.issues import combine, issues_from_records
from loaders.rooms import header_of, room_keys
from loaders.schemas import AMENITY_FIELDS, ROOM_TYPE_FIELDS, SUBROOM_FIELDS
from workbench.modular.building import Request, finish
from workbench.modular.cells import Cell, CellMap, issue
from workbench.modular.facilities_api import ROOM_FACILITY_LIST, BathroomDetails, RoomFacility
from workbench.modular.map_units import unit_body, unit_type_of
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms_api import BulkUnitsCreate, UnitPatch
from workbench.modular.rules import CODE_NOT_IN_META, META_NOT_READ
from workbench.modular.workbook import integer, text

__all__ = ["BULK_MAX", "CellOf", "ModularRooms", "build_modular_rooms", "cell_maker", "records_by_room"]

API, FACILITIES = "Rooms API", "Facilities API"
BULK_MAX = 100
_OTA = {f.name: f.ota for fs in (ROOM_TYPE_FIELDS, SUBROOM_FIELDS, AMENITY_FIELDS) for f in fs}


@dataclass(frozen=True)
class ModularRooms:
    requests: tuple[Request, ...]
    issues: pd.DataFrame


CellOf = Callable[[Mapping[str, Any], str], Cell]


def cell_maker(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame) -> CellOf:
    """``cell(row, column)``: the cell of a row of the three frames, named with the header its sheet used."""
    frames = {"Rooms": rooms, "SubRooms": subrooms, "Amenities": amenities}

    def cell(row: Mapping[str, Any], column: str) -> Cell:
        source, sheet = str(row.get("source") or ""), str(row.get("sheet") or "")
        frame = frames.get(sheet, rooms)
        header = header_of(frame, source, sheet, column, _OTA.get(column, column))
        value = row.get(column)
        return Cell(source, sheet, int(row.get("row") or 0), header, "" if value is None or pd.isna(value)
                    else str(value))
    return cell


def records_by_room(frame: pd.DataFrame, keys: pd.Series) -> dict[str, list[dict]]:
    """The rows of ``frame`` (dicts, in sheet order) by room key (``loaders.rooms.room_keys``)."""
    out: dict[str, list[dict]] = {}
    for key, row in zip(keys.tolist(), frame.to_dict("records"), strict=True):
        if key is not None and not pd.isna(key):
            out.setdefault(str(key), []).append(row)
    return out


def build_modular_rooms(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame,
                        meta: ModularMeta | None = None, *, categories: Mapping[int, int] | None = None
                        ) -> ModularRooms:
    """The units (bulk create, update), room facilities and bathrooms of the rooms workbook's properties.

    ``categories`` (by HotelCode): the property's category (the Property API's ``booking_property_category``), to
    check the unit types allowed for it.
    """
    meta = meta or ModularMeta()
    cell = cell_maker(rooms, subrooms, amenities)
    records: list[dict] = []
    subs = records_by_room(subrooms, room_keys(rooms, subrooms))
    amens = records_by_room(amenities, room_keys(rooms, amenities))
    by_hotel: dict[int, list[tuple[str, dict]]] = {}
    for key, room in zip(room_keys(rooms).tolist(), rooms.to_dict("records"), strict=True):
        hotel = integer(room.get("hotel_code"))
        if hotel is not None:
            by_hotel.setdefault(hotel, []).append((str(key), room))
    if meta.rooms is None and by_hotel:
        first = next(iter(by_hotel.values()))[0][1]
        records.append(issue(cell(first, "room_type"), META_NOT_READ, "the Rooms meta was not read, so room types and "
                                                                      "beds cannot be mapped: read GET /rooms-api/meta"))
        return ModularRooms((), combine([issues_from_records(records)]))
    requests: list[Request] = []
    for hotel, rows in by_hotel.items():
        requests += _hotel(hotel, rows, subs, amens, meta, (categories or {}).get(hotel), cell, records)
    return ModularRooms(tuple(requests), combine([issues_from_records(records)]))


def _hotel(hotel: int, rows: list[tuple[str, dict]], subs: dict[str, list[dict]], amens: dict[str, list[dict]],
           meta: ModularMeta, category: int | None, cell: Any, records: list[dict]) -> list[Request]:
    out: list[Request] = []
    new: list[tuple[dict, CellMap, dict]] = []
    for key, room in rows:
        inv = text(room.get("inv_code"))
        create = inv is None
        cells = CellMap(root=cell(room, "room_id" if create else "inv_code"))
        base = "units[0]." if create else ""
        body = unit_body(room, cell, subs.get(key, []), amens.get(key, []), meta, category, base, cells, records,
                         create=create)
        ref = text(room.get("room_id")) or f"row-{room.get('row')}"
        ids = {"correlation_id": ref} if create else {"unit_id": inv, "room_id": inv}
        if create and "configuration" not in body:
            pass  # its room type is not mapped: the issue says so, the unit is not built
        elif create:
            generated = "unit_name_id" not in body
            body |= {"property_id": hotel, "correlation_id": ref, "unit_name_source": "GENERATED" if generated
                     else "PROVIDED"}
            cells.at("units[0].correlation_id", cell(room, "room_id"))
            new.append((body, cells, room))
        elif body:
            payload = finish(UnitPatch, body, cells, records, api=API)
            if payload:
                out.append(Request(str(hotel), hotel, None, "unit.update", payload, cells, ids))
        out += _facilities(hotel, room, amens.get(key, []), subs.get(key, []), meta, cell, ids, records)
    for start in range(0, len(new), BULK_MAX):
        chunk = new[start:start + BULK_MAX]
        cells = CellMap(root=chunk[0][1].root)
        for i, (_, unit_cells, _) in enumerate(chunk):
            cells.merged(CellMap(cells={p.removeprefix("units[0]."): c for p, c in unit_cells.cells.items()}),
                         f"units[{i}].")
            cells.at(f"units[{i}]", unit_cells.root)
        payload = finish(BulkUnitsCreate, {"units": [b for b, _, _ in chunk]}, cells, records, api=API)
        if payload:
            out.append(Request(str(hotel), hotel, None, "units.bulk_create", payload, cells))
    return out


def _facilities(hotel: int, room: dict, amenities: list[dict], subrooms: list[dict], meta: ModularMeta, cell: Any,
                ids: Mapping[str, object], records: list[dict]) -> list[Request]:
    out: list[Request] = []
    beds = bed_types()
    own = [a for a in amenities if text(a.get("subroom")) is None and integer(a.get("amenity_code")) not in beds]
    if own:
        cells = CellMap(root=cell(room, "room_type"))
        items: list[dict] = []
        for a in own:
            code = integer(a.get("amenity_code"))
            fm = meta.room_facility_for_code(code) if code is not None else None
            if fm is None:
                records.append(issue(cell(a, "amenity_code"), CODE_NOT_IN_META if meta.facilities else META_NOT_READ,
                                     f"room amenity {code} is not one the Facilities meta maps "
                                     "(ota_room_amenity_type): check the code against GET /facilities-api/meta"))
                continue
            cells.at(f"{ROOM_FACILITY_LIST}[{len(items)}]", cell(a, "amenity_code"))
            cells.hint("room_facility_id", fm.room_facility_id, f"{ROOM_FACILITY_LIST}[{len(items)}]")
            items.append({"room_facility_id": fm.room_facility_id,
                          "state": "MISSING" if a.get("remove") or integer(a.get("value")) == 0 else "PRESENT"})
        payload = finish(list[RoomFacility], items, cells, records, api=FACILITIES, root=ROOM_FACILITY_LIST) \
            if items else None
        if payload:
            out.append(Request(str(hotel), hotel, None, "room_facilities.write", payload, cells, ids))
    baths = [s for s in subrooms if (text(s.get("subroom_type")) or "").casefold() == "bathroom" and not s.get("remove")]
    if baths:
        cells = CellMap(root=cell(baths[0], "subroom"))
        count = sum(max(integer(s.get("number")) or 1, 1) for s in baths)
        unit_type = unit_type_of(meta, room.get("room_type"))
        homes = meta.facilities is not None and unit_type is not None and any(
            c.unit_type_id == unit_type.unit_type_id for c in meta.facilities.bathroom_configurations)
        body: dict = ({"property_bathroom_details": {"bathrooms": [{"bathroom_type": "PRIVATE"}] * count}} if homes else
                      {"hotel_bathroom_details": {"private_bathroom_state": "PRESENT", "shared_bathroom_state": "MISSING",
                                                  "number_of_bathrooms": count}})
        cells.at("hotel_bathroom_details.number_of_bathrooms", cell(baths[0], "number"))
        payload = finish(BathroomDetails, body, cells, records, api=FACILITIES)
        if payload:
            out.append(Request(str(hotel), hotel, None, "bathrooms.write", payload, cells, ids))
    return out
