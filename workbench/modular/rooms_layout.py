"""A unit's ``configuration.rooms`` from the read and the sheet's edits (the Rooms API replaces the rooms whole).

A multi-room unit's rooms are keyed as ``rooms_from_answers`` writes them (``Bedroom 1``, ``Living room 1``...,
numbered by type in the read's order): a room the sheet does not name is sent back as read; a bed row of a room
sets that bed type's count in the room's one bed configuration (0 or ``remove`` takes it away, a bed type not on
the sheet stays); a SubRooms row with Remove takes the room away; a key the read has not is a new room. A
single-room unit's Configuration 1 is its default bed configuration, 2 its alternative, merged the same way.

Rows the unit type leaves no place for (a bed of a multi-room unit outside its rooms, a bedroom of a single-room
unit: [O] Rooms API ``Room.type``) are ``unit_rooms_layout`` errors; a part the workbook cannot state whole (more
than one alternative bed configuration, a room with two configurations, members the model does not know) or that
the platform would refuse as read (an inactive unit or bed type elsewhere in the unit) is ``unit_part_not_whole``
on the edited cell: the rooms are sent whole, so nothing is sent rather than something lost.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from expectations.rooms import bed_types
from workbench.modular.cells import Cell, CellMap, issue
from workbench.modular.map_units import SUBROOMS, active_bed, unit_body
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms_api import UnitType
from workbench.modular.rules import MODULAR_VALUE_REFUSED, PART_NOT_WHOLE, ROOMS_LAYOUT
from workbench.modular.workbook import integer, text

if TYPE_CHECKING:
    from workbench.modular.rooms_merge import UnitEdit

__all__ = ["KIND_OF_ROOM", "bed_rows", "configuration_patch", "layout_issues", "room_keys_of"]

#: a room's ``type`` -> the SubRooms sheet's RoomType
KIND_OF_ROOM = {"BEDROOM_SUBROOM": "Bedroom", "LIVING_ROOM_SUBROOM": "Living room"}
_ROOM_KEYS, _CONFIG_KEYS, _BED_KEYS = {"type", "bed_configurations"}, {"beds", "is_default_configuration"}, \
    {"bed_type_id", "bed_count"}


def layout_issues(unit_type: UnitType, own_beds: list[tuple[dict, Cell]], subrooms: list[tuple[dict, Cell]]
                  ) -> list[dict]:
    """The rows a unit type leaves no place for, each on its cell: a multi-room unit's beds go under its rooms, a
    single-room unit has no bedrooms or living rooms."""
    name = unit_type.unit_type_name or f"unit type {unit_type.unit_type_id}"
    if unit_type.is_multi_room:
        return [issue(c, ROOMS_LAYOUT, f"a {name} is a multi-room unit: its beds belong to its bedrooms and living "
                                       "rooms; give the bed's SubRoom") for _, c in own_beds]
    return [issue(c, ROOMS_LAYOUT, f"a {name} is a single-room unit: it has no bedrooms or living rooms and its beds "
                                   "go on the room itself (blank SubRoom); remove the sub-room or change the RoomType")
            for row, c in subrooms if SUBROOMS.get((text(row.get("subroom_type")) or "").casefold())]


def room_keys_of(rooms: list[dict]) -> list[str]:
    """The keys ``rooms_from_answers`` gives a multi-room unit's rooms: ``Bedroom 1``, ``Living room 1``..."""
    counts: Counter[str] = Counter()
    keys = []
    for room in rooms:
        kind = KIND_OF_ROOM.get(str(room.get("type")), str(room.get("type")))
        counts[kind] += 1
        keys.append(f"{kind} {counts[kind]}")
    return keys


def bed_rows(meta: ModularMeta, rows: list[tuple[dict, Cell]], records: list[dict]) -> dict[int, tuple[int, Cell]]:
    """Bed rows -> ``bed_type_id -> (count, cell)`` (0: remove; rows of one bed type add up); a code no active bed
    type of the meta matches is an issue on its cell and left out."""
    out: dict[int, tuple[int, Cell]] = {}
    for row, c in rows:
        found = active_bed(meta, int(row["amenity_code"]), c, records)
        if found is None:
            continue
        count = 0 if row.get("remove") else (integer(row.get("value")) or 1)
        before = out.get(found.bed_type_id, (0, c))[0]
        out[found.bed_type_id] = (before + count, c)
    return out


def _merge_beds(beds: list[dict], edits: dict[int, tuple[int, Cell]]) -> list[dict]:
    merged = {b.get("bed_type_id"): b.get("bed_count") for b in beds}
    for bed, (count, _) in edits.items():
        if count:
            merged[bed] = count
        else:
            merged.pop(bed, None)
    return [{"bed_type_id": b, "bed_count": n} for b, n in merged.items()]


def _beds_text(meta: ModularMeta, config: dict | None) -> str | None:
    """A bed configuration for people: ``Double bed×2, Sofa bed×1``."""
    def name(bed_id: object) -> str:
        known = meta.bed_type(bed_id) if isinstance(bed_id, int) else None
        return known.bed_type_name if known is not None and known.bed_type_name else str(bed_id)

    beds = (config or {}).get("beds") or []
    return ", ".join(f"{name(b.get('bed_type_id'))}×{b.get('bed_count')}" for b in beds) or None


@dataclass
class _Keyed:
    key: str
    room: dict


def configuration_patch(edit: UnitEdit, cells: CellMap, new_type: int | None) -> dict | None:
    """``configuration`` when the sheet changes the unit's rooms or type (None: the rooms stay as read)."""
    read = edit.unit.get("configuration") or {}
    read_rooms: list[dict] = read.get("rooms") or []
    type_id = new_type if new_type is not None else read.get("unit_type_id")
    unit_type = edit.meta.unit_type(type_id) if isinstance(type_id, int) else None
    beds = bed_types()
    live = [a for a in edit.amenities if integer(a.get("amenity_code")) in beds]
    own = [(a, edit.cell(a, "amenity_code")) for a in live if text(a.get("subroom")) is None]
    subs = [s for s in edit.subrooms if SUBROOMS.get((text(s.get("subroom_type")) or "").casefold())]
    multi = unit_type.is_multi_room if unit_type is not None and unit_type.is_multi_room is not None else \
        any(r.get("type") != "GUEST_ROOM" for r in read_rooms)
    if unit_type is not None:
        edit.records += layout_issues(unit_type, [x for x in own if not x[0].get("remove")],
                                      [(s, edit.cell(s, "subroom")) for s in subs if not s.get("remove")])
    read_type = read.get("unit_type_id")
    old_type = edit.meta.unit_type(read_type) if isinstance(read_type, int) else None
    if new_type is not None and old_type is not None and bool(old_type.is_multi_room) != bool(multi):
        return _rebuilt(edit, cells, unit_type)
    edited = len(edit.edited)
    rooms = _multi(edit, cells, read_rooms, live, subs) if multi else _single(edit, cells, read_rooms, own)
    if rooms is None or (rooms == read_rooms and new_type is None):
        return None
    first = edit.edited[edited] if len(edit.edited) > edited else edit.edited[0] if edit.edited else edit.root()
    if not _whole(edit, rooms, read_rooms, unit_type, first):
        return None
    cells.at("configuration", cells.cells.get("configuration.unit_type_id") or first)
    return {"unit_type_id": type_id, "rooms": rooms}


def _rebuilt(edit: UnitEdit, cells: CellMap, unit_type: UnitType | None) -> dict | None:
    """A unit type of the other layout (single-room to multi-room, or back): the rooms as the sheet states them."""
    assert edit.row is not None  # a new unit type is a Rooms row's RoomType
    body = unit_body(edit.row, edit.cell, edit.subrooms, edit.amenities, edit.meta, edit.category, "", cells,
                     edit.records, create=True)
    configuration = body.get("configuration")
    if configuration is None or not configuration.get("rooms") or not any(
            r.get("bed_configurations") for r in configuration["rooms"]):
        edit.records.append(issue(edit.cell(edit.row, "room_type"), PART_NOT_WHOLE,
                                  f"changing the unit into a {unit_type.unit_type_name if unit_type else 'unit'} "
                                  "changes its layout (single-room and multi-room units have different rooms): state "
                                  "its rooms and beds on SubRooms and Amenities, they replace the unit's rooms"))
        return None
    return dict(configuration)


def _multi(edit: UnitEdit, cells: CellMap, read_rooms: list[dict], live: list[dict], subs: list[dict]
           ) -> list[dict] | None:
    keyed = [_Keyed(k, copy.deepcopy(r)) for k, r in zip(room_keys_of(read_rooms), read_rooms, strict=True)]
    where: dict[str, Cell] = {}
    for sub in subs:
        key, kind = text(sub.get("subroom")) or "", SUBROOMS[(text(sub.get("subroom_type")) or "").casefold()]
        c = edit.cell(sub, "subroom")
        hit = next((k for k in keyed if k.key.casefold() == key.casefold()), None)
        if sub.get("remove"):
            if hit is not None:
                keyed.remove(hit)
                edit.change("unit", f"room {key}", "there", "removed", c)
            continue
        if hit is None:
            for n in range(max(integer(sub.get("number")) or 1, 1)):
                keyed.append(_Keyed(key if n == 0 else f"{key} ({n + 1})", {"type": kind}))
            edit.change("unit", f"room {key}", None, KIND_OF_ROOM[kind], c)
        elif hit.room.get("type") != kind:
            edit.change("unit", f"room {key}", KIND_OF_ROOM.get(str(hit.room.get("type")), hit.room.get("type")),
                        KIND_OF_ROOM[kind], c)
            hit.room["type"] = kind
        where[key.casefold()] = c
    by_room: dict[str, list[tuple[dict, Cell]]] = {}
    for a in live:
        if text(a.get("subroom")) is not None:
            by_room.setdefault(str(text(a.get("subroom"))).casefold(), []).append((a, edit.cell(a, "amenity_code")))
    for key, rows in by_room.items():
        hit = next((k for k in keyed if k.key.casefold() == key), None)
        if hit is None:
            edit.records.append(issue(edit.cell(rows[0][0], "subroom"), "unknown_subroom",
                                      f"unit {edit.inv} has no room `{rows[0][0].get('subroom')}`: its rooms are "
                                      f"{', '.join(k.key for k in keyed) or 'none'}; name one of them, or add the room "
                                      "on SubRooms"))
            continue
        if any(integer(a.get("configuration")) == 2 for a, _ in rows):
            edit.records.append(issue(rows[0][1], MODULAR_VALUE_REFUSED, "a room of a multi-room unit has exactly one "
                                                                         "bed configuration: Configuration 2 is for "
                                                                         "single-room units only"))
            continue
        configs = hit.room.get("bed_configurations") or []
        if len(configs) > 1:
            edit.records.append(issue(rows[0][1], PART_NOT_WHOLE, f"room {hit.key} of unit {edit.inv} has {len(configs)} "
                                                                  "bed configurations on the platform and the workbook "
                                                                  "states one: change it in the extranet"))
            continue
        before = configs[0] if configs else None
        merged = _merge_beds((before or {}).get("beds") or [], bed_rows(edit.meta, rows, edit.records))
        after = {"beds": merged, "is_default_configuration": True} if merged else None
        if (after or None) != (before or None):
            edit.change("unit", f"{hit.key} beds", _beds_text(edit.meta, before), _beds_text(edit.meta, after),
                        rows[0][1])
            if after:
                hit.room["bed_configurations"] = [after]
            else:
                hit.room.pop("bed_configurations", None)
        where[hit.key.casefold()] = rows[0][1]
    for i, k in enumerate(keyed):
        if k.key.casefold() in where:
            cells.at(f"configuration.rooms[{i}]", where[k.key.casefold()])
    return [k.room for k in keyed]


def _single(edit: UnitEdit, cells: CellMap, read_rooms: list[dict], own: list[tuple[dict, Cell]]
            ) -> list[dict] | None:
    if not own:
        return copy.deepcopy(read_rooms)  # nothing of the room's beds on the sheet: its rooms stay as read
    rooms = copy.deepcopy(read_rooms) or [{"type": "GUEST_ROOM"}]
    guest = next((r for r in rooms if r.get("type") == "GUEST_ROOM"), rooms[0])
    configs = guest.get("bed_configurations") or []
    default = next((c for c in configs if c.get("is_default_configuration")), None)
    alternatives = [c for c in configs if c is not default]
    for number in (1, 2):
        rows = [(a, c) for a, c in own if (integer(a.get("configuration")) or 1) == number]
        if not rows:
            continue
        if number == 2 and len(alternatives) > 1:
            edit.records.append(issue(rows[0][1], PART_NOT_WHOLE, f"unit {edit.inv} has {len(alternatives)} "
                                                                  "alternative bed configurations on the platform and "
                                                                  "the workbook states one (Configuration 2): change "
                                                                  "them in the extranet"))
            return None
        before = default if number == 1 else (alternatives[0] if alternatives else None)
        merged = _merge_beds((before or {}).get("beds") or [], bed_rows(edit.meta, rows, edit.records))
        after = {"beds": merged, "is_default_configuration": number == 1} if merged else None
        if (after or None) == (before or None):
            continue
        edit.change("unit", f"beds (Configuration {number})", _beds_text(edit.meta, before),
                    _beds_text(edit.meta, after), rows[0][1])
        cells.at(f"configuration.rooms[0].bed_configurations[{0 if number == 1 else 1}]", rows[0][1])
        if number == 1:
            default = after
        elif alternatives:
            alternatives = ([after] if after else []) + alternatives[1:]
        elif after:
            alternatives = [after]
    kept = [c for c in [default, *alternatives] if c]
    if kept:
        guest["bed_configurations"] = kept
    else:
        guest.pop("bed_configurations", None)
    return rooms


def _whole(edit: UnitEdit, rooms: list[dict], read_rooms: list[dict], unit_type: UnitType | None, at: Cell) -> bool:
    """Whether the rooms can be sent whole: every member known to the model, the unit type and every bed type
    active in the meta (else ``unit_part_not_whole`` on the edited cell ``at``)."""
    problems = []
    for room in read_rooms:
        configs = room.get("bed_configurations") or []
        extra = set(room) - _ROOM_KEYS | {k for c in configs for k in set(c) - _CONFIG_KEYS} | {
            k for c in configs for b in c.get("beds") or [] for k in set(b) - _BED_KEYS}
        if extra:
            problems.append(f"the read's rooms carry {', '.join(sorted(extra))}, which the workbench cannot send back")
    if unit_type is None or unit_type.is_active is False:
        problems.append(f"unit type {edit.unit.get('configuration', {}).get('unit_type_id')} is "
                        f"{'not in' if unit_type is None else 'inactive in'} the Rooms meta")
    used = {b.get("bed_type_id") for r in rooms for c in r.get("bed_configurations") or [] for b in c.get("beds") or []}
    for bed in sorted(b for b in used if isinstance(b, int)):
        known = edit.meta.bed_type(bed)
        if known is None or known.is_active is False:
            problems.append(f"bed type {bed}{f' ({known.bed_type_name})' if known else ''} is "
                            f"{'not in' if known is None else 'inactive in'} the Rooms meta")
    if problems:
        edit.records.append(issue(at, PART_NOT_WHOLE, f"the Rooms API replaces a unit's rooms whole, and unit "
                                                      f"{edit.inv} cannot be sent whole: {'; '.join(problems)}; "
                                                      "change that in the extranet first, or leave its rooms as "
                                                      "they are"))
        return False
    return True
