"""One room type of the rooms workbook (Rooms, SubRooms, Amenities rows) <-> one Rooms API unit.

RoomType (a BCRT code or name) -> ``unit_type_id``: the meta's unit type of the same name (a published
crosswalk from the OTA room types is NOT SHOWN; the description's examples use ids equal to the BCRT codes).
RoomName -> ``unit_name_id`` when it is one of the meta's standard names, else the name is generated
(bulk ``unit_name_source: GENERATED``); the analyst's text is always ``partner_reference_name``. Quantity ->
``number_of_units``; NonSmoking 1/0/2 -> NONSMOKING/SMOKING/SMOKING_AND_NONSMOKING; SizeMeasurement (+unit) ->
``size``; MaxOccupancy, MaxAdultOccupancy, MaxChildOccupancy (now ages 3-17) and the optional MaxInfants,
MaxInfantsOnTop columns -> ``occupancy_details``; MaxRollaways / MaxCribs -> extra beds / cribs, both allowed
together when MaximumAdditionalGuests takes them both. Beds: the bed RMA codes -> the meta's bed types of the
same name (RMA 33 "Double (Bed)" -> "Double bed"), else of the same width in centimetres (RMA 113 "Twin (bed)",
90-130 cm -> "Single bed"); no crosswalk is published. A multi-room unit (the meta's ``is_multi_room``) takes
its Bedroom and Living room sub-rooms as rooms, each with exactly one bed configuration; a single-room unit one
GUEST_ROOM whose bed configurations are the room's Configuration 1 (default) and 2. MaxChildPayableOccupancy
was sunset on 2026-07-07: refused on its cell.
"""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from typing import Any

from expectations.reference import DATA
from expectations.rooms import amenity_names, bed_types, room_type_name
from workbench.modular.cells import Cell, CellMap, issue
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms_api import BedType, UnitType
from workbench.modular.rules import CODE_NOT_IN_META, MODULAR_VALUE_REFUSED, not_sent, sunset
from workbench.modular.workbook import integer, text

__all__ = ["SMOKING", "SUBROOMS", "active_bed", "active_bed_types", "allowed_unit_types", "bed_key", "bed_type_for_code", "bed_widths",
           "unit_body", "unit_type_of"]

SMOKING = {1: "NONSMOKING", 0: "SMOKING", 2: "SMOKING_AND_NONSMOKING"}
SUBROOMS = {"bedroom": "BEDROOM_SUBROOM", "living room": "LIVING_ROOM_SUBROOM"}
_CM = re.compile(r"(\d+\s*-\s*\d+)\s*cm")


def bed_key(name: str) -> str:
    """A bed name reduced for matching: ``Double (Bed)`` and ``Double bed`` -> ``double``."""
    squashed = re.sub(r"[\s()_\-/]+", "", name.casefold())
    return re.sub(r"beds?$", "", squashed) or squashed


def unit_type_of(meta: ModularMeta, value: object) -> UnitType | None:
    """The meta's unit type of a RoomType cell (a BCRT code or name), by name; a name of the meta's own (a unit type
    no BCRT name matches, as a fetched workbook writes it) is taken as it is."""
    name = room_type_name(value) or text(value)
    if name is None or meta.rooms is None:
        return None
    return next((t for t in meta.rooms.unit_types if (t.unit_type_name or "").casefold() == name.casefold()), None)


def allowed_unit_types(meta: ModularMeta, category: int | None) -> str:
    """The unit types open to a property of ``category`` (active, for that category), for a message."""
    types = [t for t in (meta.rooms.unit_types if meta.rooms else []) if t.is_active is not False
             and (category is None or category in t.valid_property_categories)]
    return ", ".join(f"{t.unit_type_name} ({t.unit_type_id})" for t in types) or "none"


@lru_cache(maxsize=1)
def bed_widths() -> dict[int, str]:
    """Bed RMA code -> its width in centimetres as ``data/codes/bed_types.csv`` gives it (``90-130``)."""
    with open(DATA / "codes" / "bed_types.csv", encoding="utf-8", newline="") as f:
        return {int(r["code"]): m[1] for r in csv.DictReader(f) if (m := _CM.search(r.get("width") or ""))}


def bed_type_for_code(meta: ModularMeta, code: int) -> BedType | None:
    """The meta's bed type of a bed RMA code: by name, else by its width in centimetres (Twin -> Single bed)."""
    name = amenity_names().get(code)
    if name is None or meta.rooms is None:
        return None
    found = next((b for b in meta.rooms.bed_types if bed_key(b.bed_type_name or "") == bed_key(name)), None)
    width = bed_widths().get(code)
    if found is None and width is not None:
        found = next((b for b in meta.rooms.bed_types if (m := _CM.search(b.bed_type_description or ""))
                      and m[1] == width), None)
    return found


def active_bed_types(meta: ModularMeta) -> str:
    """The active bed types of the meta, for a message: ``Single bed (1), Double bed (3)``."""
    return ", ".join(f"{b.bed_type_name} ({b.bed_type_id})" for b in (meta.rooms.bed_types if meta.rooms else [])
                     if b.is_active is not False)


def active_bed(meta: ModularMeta, code: int, cell: Cell, issues: list[dict]) -> BedType | None:
    """The active bed type of a bed RMA code; None, with a ``code_not_in_meta`` issue on ``cell``, when the meta has
    none or lists it inactive (read only)."""
    found = bed_type_for_code(meta, code)
    if found is not None and found.is_active is not False:
        return found
    what = "matches no bed type of the Rooms meta" if found is None else \
        f"is bed type {found.bed_type_name} ({found.bed_type_id}), which the Rooms meta lists inactive (read only)"
    issues.append(issue(cell, CODE_NOT_IN_META, f"bed code {code} ({amenity_names().get(code, '?')}) {what}; the "
                                                f"active ones are: {active_bed_types(meta)}"))
    return None


def _beds(meta: ModularMeta, rows: list[tuple[dict, Cell]], issues: list[dict], cells: CellMap,
          path: str) -> list[dict]:
    """The beds of a bed configuration (one per bed type, counts added up); ``path``: the configuration's."""
    beds: dict[int, int] = {}
    for row, cell in rows:
        found = active_bed(meta, int(row["amenity_code"]), cell, issues)
        if found is None:
            continue
        bed = found.bed_type_id
        if bed not in beds:
            cells.at(f"{path}.beds[{len(beds)}]", cell)
            cells.at(f"{path}.beds[{len(beds)}].bed_type_id", cell)
            cells.at(f"{path}.beds[{len(beds)}].bed_count", cell)
            beds[bed] = 0
        beds[bed] += integer(row.get("value")) or 1
    return [{"bed_type_id": b, "bed_count": n} for b, n in beds.items()]


def unit_body(room: dict, cells_of: Any, subrooms: list[dict], amenities: list[dict], meta: ModularMeta,
              category: int | None, base: str, cells: CellMap, issues: list[dict], *,
              create: bool) -> dict[str, Any]:
    """The unit of one Rooms row (``cells_of(row, column)`` names a cell); ``base`` prefixes its paths."""
    def at(key: str, row: dict, column: str) -> None:
        cells.at(f"{base}{key}", cells_of(row, column))

    body: dict[str, Any] = {}
    name = text(room.get("room_name"))
    if name:
        standard = meta.unit_name_for_text(name)
        if standard is not None:
            body["unit_name_id"] = standard.unit_name_id
        body["partner_reference_name"] = name
        at("unit_name_id", room, "room_name")
        at("partner_reference_name", room, "room_name")
    for key, column in (("number_of_units", "quantity"),):
        if integer(room.get(column)) is not None:
            body[key] = integer(room.get(column))
            at(key, room, column)
    smoking = integer(room.get("non_smoking"))
    if smoking is not None:
        body["smoking_policy"] = SMOKING.get(smoking, f"NonSmoking {smoking}")
        at("smoking_policy", room, "non_smoking")
    size = integer(room.get("size_measurement"))
    if size is not None:
        body["size"] = {"value": float(size), "unit": (text(room.get("size_measurement_unit")) or "sqm").upper()}
        at("size", room, "size_measurement")
        at("size.value", room, "size_measurement")
        at("size.unit", room, "size_measurement_unit")
    occupancy = {k: integer(room.get(c)) for k, c in (
        ("max_guests", "max_occupancy"), ("max_adults", "max_adult_occupancy"), ("max_children", "max_child_occupancy"),
        ("max_infants", "max_infants"), ("max_infants_on_top", "max_infants_on_top"))}
    if any(v is not None for v in occupancy.values()):
        body["occupancy_details"] = {k: v for k, v in occupancy.items() if v is not None}
        for key, column in (("max_guests", "max_occupancy"), ("max_adults", "max_adult_occupancy"),
                            ("max_children", "max_child_occupancy"), ("max_infants", "max_infants"),
                            ("max_infants_on_top", "max_infants_on_top")):
            at(f"occupancy_details.{key}", room, column)
    cribs, extra, more = (integer(room.get(c)) for c in ("max_cribs", "max_rollaways", "maximum_additional_guests"))
    if cribs is not None or extra is not None:
        both = bool(cribs and extra and more is not None and more >= cribs + extra)
        body["extra_beds_configuration"] = {"extra_beds": extra or 0, "cribs": cribs or 0,
                                            "is_crib_and_extra_bed_allowed": both}
        at("extra_beds_configuration.extra_beds", room, "max_rollaways")
        at("extra_beds_configuration.cribs", room, "max_cribs")
    if integer(room.get("max_child_payable_occupancy")) is not None:
        issues.append(sunset(cells_of(room, "max_child_payable_occupancy"),
                             "MaxChildPayableOccupancy (max_children_that_pay_children_rate)", "2026-07-07"))
    configuration = _configuration(room, cells_of, subrooms, amenities, meta, category, base, cells, issues,
                                   create=create)
    if configuration is not None:
        body["configuration"] = configuration
    return body


def _configuration(room: dict, cells_of: Any, subrooms: list[dict], amenities: list[dict], meta: ModularMeta,
                   category: int | None, base: str, cells: CellMap, issues: list[dict], *,
                   create: bool) -> dict | None:
    beds_codes = bed_types()
    live = [a for a in amenities if not a.get("remove")]
    own_beds = [a for a in live if text(a.get("subroom")) is None and integer(a.get("amenity_code")) in beds_codes]
    sub_beds = [a for a in live if text(a.get("subroom")) is not None and integer(a.get("amenity_code")) in beds_codes]
    for other in (a for a in live if text(a.get("subroom")) is not None and a not in sub_beds):
        issues.append(not_sent(cells_of(other, "amenity_code"), "a room of a unit has beds only; a sub-room's other "
                                                                "amenities have no field in the Rooms API"))
    if not create and not subrooms and not own_beds and not sub_beds:
        return None  # an existing unit whose rooms the sheet does not describe: they are left as they are
    type_cell = cells_of(room, "room_type")
    cells.at(f"{base}configuration", type_cell)
    cells.at(f"{base}configuration.unit_type_id", type_cell)
    unit_type = unit_type_of(meta, room.get("room_type"))
    if unit_type is None:
        given = text(room.get("room_type"))
        what = f"room type `{given}` matches no unit type of the Rooms meta" if given else \
            "a room type to create needs its RoomType"
        issues.append(issue(type_cell, CODE_NOT_IN_META, f"{what}; the unit types allowed for the property's category "
                                                         f"are: {allowed_unit_types(meta, category)}"))
        return None
    if unit_type.is_active is False or (category is not None and category not in unit_type.valid_property_categories):
        issues.append(issue(type_cell, CODE_NOT_IN_META, f"unit type {unit_type.unit_type_name} is not open to this "
                                                         "property (inactive, or not for its category); the allowed "
                                                         f"ones are: {allowed_unit_types(meta, category)}"))
        return None
    rooms: list[dict] = []
    if unit_type.is_multi_room:
        for sub in subrooms:
            kind = SUBROOMS.get((text(sub.get("subroom_type")) or "").casefold())
            if kind is None or sub.get("remove"):
                continue
            key = text(sub.get("subroom"))
            mine = [(a, cells_of(a, "amenity_code")) for a in sub_beds if text(a.get("subroom")) == key]
            if any(integer(a.get("configuration")) == 2 for a, _ in mine):
                issues.append(issue(mine[0][1], MODULAR_VALUE_REFUSED, "a room of a multi-room unit has exactly one "
                                                                       "bed configuration: Configuration 2 (alternative "
                                                                       "beds) is for single-room units only"))
            for _ in range(max(integer(sub.get("number")) or 1, 1)):
                path = f"{base}configuration.rooms[{len(rooms)}]"
                beds = _beds(meta, mine, issues, cells, f"{path}.bed_configurations[0]")
                cells.at(path, cells_of(sub, "subroom"))
                rooms.append({"type": kind, **({"bed_configurations": [{"beds": beds, "is_default_configuration": True}]}
                                               if beds else {})})
    else:
        configs: list[dict] = []
        for number in (1, 2):
            mine = [(a, cells_of(a, "amenity_code")) for a in own_beds if (integer(a.get("configuration")) or 1) == number]
            beds = _beds(meta, mine, issues, cells, f"{base}configuration.rooms[0].bed_configurations[{len(configs)}]")
            if beds:
                configs.append({"beds": beds, "is_default_configuration": number == 1})
        cells.at(f"{base}configuration.rooms[0]", type_cell)
        rooms.append({"type": "GUEST_ROOM", **({"bed_configurations": configs} if configs else {})})
    return {"unit_type_id": unit_type.unit_type_id, "rooms": rooms}
