"""Units that exist (the sheet's InvCode is the unit id) updated from the rooms workbook: every part is built from
the platform's read merged with the analyst's edits, because the Rooms and Facilities APIs replace what they get.

- The unit (``PATCH .../units/{id}``): only the fields whose cell differs from the read. An object field
  (``size``, ``occupancy_details``, ``extra_beds_configuration``) is sent whole, the read's values beside the edited
  ones. ``configuration.rooms`` is replaced whole by the platform, so it is the read's rooms with the sheet's edits
  (:mod:`rooms_layout`).
- The room facilities (``PUT .../rooms/{id}``) and the bathrooms (``PUT .../rooms/{id}/bathrooms``, replaced whole):
  :mod:`rooms_merge_parts`.

A blank cell keeps the read's value; a cell equal to the read sends nothing, so the workbook ``fetch rooms --api
modular`` writes, pushed unchanged, sends nothing. A part the read gives in a shape the workbook cannot state whole
is refused on the edited cell (``unit_part_not_whole``), as a part the read cannot show is on the InvNotif path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from loaders.issues import combine, issues_from_records
from loaders.rooms import room_keys
from workbench.modular.building import Request, finish
from workbench.modular.cells import Cell, CellMap, issue
from workbench.modular.map_units import SMOKING, allowed_unit_types, unit_type_of
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms import API, CellOf, cell_maker, records_by_room
from workbench.modular.rooms_api import UnitPatch
from workbench.modular.rooms_read import UnitAnswers
from workbench.modular.rules import CODE_NOT_IN_META, UNIT_NOT_FOUND
from workbench.modular.workbook import integer, text

__all__ = ["BATHROOMS", "CHANGE_COLUMNS", "FACILITIES_PART", "UNIT", "RoomsUpdate", "UnitEdit", "find_unit",
           "update_units"]

UNIT, FACILITIES_PART, BATHROOMS = "unit", "room facilities", "bathrooms"
CHANGE_COLUMNS = ["hotel_code", "inv_code", "room_name", "part", "item", "before", "after", "source", "sheet", "row",
                  "column"]
#: Rooms sheet column -> ``occupancy_details`` member
OCCUPANCY = {"max_occupancy": "max_guests", "max_adult_occupancy": "max_adults",
             "max_child_occupancy": "max_children", "max_infants": "max_infants",
             "max_infants_on_top": "max_infants_on_top"}


@dataclass(frozen=True)
class RoomsUpdate:
    """The requests of the units that exist, the issues on the analyst's cells, and each change (``changes``:
    :data:`CHANGE_COLUMNS`, one row per item that changes: before and after)."""

    requests: tuple[Request, ...]
    issues: pd.DataFrame
    changes: pd.DataFrame


@dataclass
class UnitEdit:
    """One unit being merged: its read, the sheet's rows, what changes (issues and changes go to ``records``)."""

    hotel: int
    inv: str
    unit: dict[str, Any]
    answers: UnitAnswers
    row: dict | None
    subrooms: list[dict]
    amenities: list[dict]
    meta: ModularMeta
    cell: CellOf
    category: int | None
    records: list[dict]
    changes: list[dict]
    edited: list[Cell] = field(default_factory=list)

    @property
    def name(self) -> str:
        given = text((self.row or {}).get("room_name"))
        return given or self.unit.get("partner_reference_name") or unit_name_text(self.meta, self.unit) or self.inv

    def change(self, part: str, item: str, before: object, after: object, at: Cell) -> None:
        self.edited.append(at)
        self.changes.append({"hotel_code": self.hotel, "inv_code": self.inv, "room_name": self.name, "part": part,
                             "item": item, "before": _shown(before), "after": _shown(after), "source": at.source,
                             "sheet": at.sheet, "row": at.row, "column": at.column})

    def root(self) -> Cell:
        first = self.row or (self.subrooms + self.amenities)[0]
        return self.cell(first, "inv_code")


def _shown(value: object) -> str:
    if value is None:
        return "(nothing)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def unit_name_text(meta: ModularMeta, unit: Mapping[str, Any]) -> str | None:
    """The standard name of a unit's ``unit_name_id`` (the meta's text), if any."""
    uid = unit.get("unit_name_id")
    name = meta.unit_name(int(uid)) if isinstance(uid, int) else None
    return name.unit_name if name is not None else None


def find_unit(answers: UnitAnswers | None, inv: str) -> dict[str, Any] | None:
    """The read unit whose ``unit_id`` is the InvCode ``inv`` (the same id on the platform), or None."""
    if answers is None or not inv.isdigit():
        return None
    units = answers.units if isinstance(answers.units, list) else []
    return next((u for u in units if isinstance(u, dict) and str(u.get("unit_id")) == str(int(inv))), None)


def update_units(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame,
                 read: Mapping[int, UnitAnswers], meta: ModularMeta, *,
                 categories: Mapping[int, int] | None = None) -> RoomsUpdate:
    """The requests that bring each unit the sheet names by InvCode to what the sheet says (see the module)."""
    from workbench.modular.rooms_layout import configuration_patch
    from workbench.modular.rooms_merge_parts import bathrooms_request, facilities_request

    cell = cell_maker(rooms, subrooms, amenities)
    rows = records_by_room(rooms, room_keys(rooms))
    subs = records_by_room(subrooms, room_keys(rooms, subrooms)) if len(subrooms) else {}
    amens = records_by_room(amenities, room_keys(rooms, amenities)) if len(amenities) else {}
    records: list[dict] = []
    changes: list[dict] = []
    requests: list[Request] = []
    for key in dict.fromkeys([*rows, *subs, *amens]):
        hotel_text, _, inv = key.partition(":")
        row = rows[key][0] if key in rows else None
        inv = text((row or {}).get("inv_code")) or ("" if inv.startswith(("RoomID=", "row")) else inv)
        if not inv or not hotel_text.isdigit():
            continue
        hotel = int(hotel_text)
        edit_rows = subs.get(key, []), amens.get(key, [])
        unit = find_unit(read.get(hotel), inv)
        first = row or (edit_rows[0] + edit_rows[1])[0]
        if unit is None:
            records.append(issue(cell(first, "inv_code"), UNIT_NOT_FOUND,
                                 f"property {hotel} has no unit {inv} (GET /rooms-api/properties/{hotel}/units lists "
                                 f"{_ids(read.get(hotel))}): check the InvCode, or leave it blank to create the room "
                                 "type"))
            continue
        edit = UnitEdit(hotel, inv, unit, read[hotel], row, *edit_rows, meta, cell,
                        (categories or {}).get(hotel), records, changes)
        cells = CellMap(root=edit.root())
        patch = unit_fields(edit, cells)
        configuration = configuration_patch(edit, cells, patch.pop("unit_type_id", None))
        if configuration is not None:
            patch["configuration"] = configuration
        if patch:
            payload = finish(UnitPatch, patch, cells, records, api=API)
            if payload:
                requests.append(Request(str(hotel), hotel, None, "unit.update", payload, cells, {"unit_id": inv}))
        requests += [r for r in (facilities_request(edit), bathrooms_request(edit)) if r is not None]
    return RoomsUpdate(tuple(requests), combine([issues_from_records(records)]),
                       pd.DataFrame(changes, columns=CHANGE_COLUMNS))


def _ids(answers: UnitAnswers | None) -> str:
    units = answers.units if answers is not None and isinstance(answers.units, list) else []
    return ", ".join(str(u.get("unit_id")) for u in units if isinstance(u, dict)) or "no unit"


def unit_fields(edit: UnitEdit, cells: CellMap) -> dict[str, Any]:
    """The unit's own fields the Rooms row changes (objects whole, the read's values kept beside the edits), and
    ``unit_type_id`` when RoomType names another unit type (the caller sends it with the rooms)."""
    row, u = edit.row, edit.unit
    patch: dict[str, Any] = {}
    if row is None:
        return {}

    def at(path: str, column: str) -> Cell:
        c = edit.cell(row, column)
        cells.at(path, c)
        return c

    name = text(row.get("room_name"))
    shown = u.get("partner_reference_name") or unit_name_text(edit.meta, u)
    if name is not None and name != shown:
        patch["partner_reference_name"] = name
        standard = edit.meta.unit_name_for_text(name)
        if standard is not None and standard.unit_name_id != u.get("unit_name_id"):
            patch["unit_name_id"] = standard.unit_name_id
            at("unit_name_id", "room_name")
        edit.change(UNIT, "name", shown, name, at("partner_reference_name", "room_name"))
    quantity = integer(row.get("quantity"))
    if quantity is not None and quantity != u.get("number_of_units"):
        patch["number_of_units"] = quantity
        edit.change(UNIT, "number of units", u.get("number_of_units"), quantity, at("number_of_units", "quantity"))
    smoking = integer(row.get("non_smoking"))
    policy = SMOKING.get(smoking) if smoking is not None else None
    if policy is not None and policy != u.get("smoking_policy"):
        patch["smoking_policy"] = policy
        edit.change(UNIT, "smoking policy", u.get("smoking_policy"), policy, at("smoking_policy", "non_smoking"))
    _size(edit, row, patch, at)
    _object(edit, row, patch, at, "occupancy_details", OCCUPANCY,
            u.get("occupancy_details") or u.get("occupancy") or {})
    _extra_beds(edit, row, patch, at)
    given = text(row.get("room_type"))
    if given is not None:
        kind = unit_type_of(edit.meta, given)
        current = (u.get("configuration") or {}).get("unit_type_id")
        type_cell = at("configuration.unit_type_id", "room_type")
        if kind is None:
            edit.records.append(issue(type_cell, CODE_NOT_IN_META, f"room type `{given}` matches no unit type of the "
                                                                   "Rooms meta; the unit types allowed for the "
                                                                   "property's category are: "
                                                                   f"{allowed_unit_types(edit.meta, edit.category)}"))
        elif kind.unit_type_id != current:
            if kind.is_active is False or (edit.category is not None
                                           and edit.category not in kind.valid_property_categories):
                edit.records.append(issue(type_cell, CODE_NOT_IN_META, f"unit type {kind.unit_type_name} is not open "
                                                                       "to this property (inactive, or not for its "
                                                                       "category); the allowed ones are: "
                                                                       f"{allowed_unit_types(edit.meta, edit.category)}"))
            else:
                patch["unit_type_id"] = kind.unit_type_id
                old = edit.meta.unit_type(current) if isinstance(current, int) else None
                edit.change(UNIT, "unit type", old.unit_type_name if old else current, kind.unit_type_name, type_cell)
    return patch


def _size(edit: UnitEdit, row: dict, patch: dict, at: Any) -> None:
    """``size`` whole; a value read with decimals (92.5) equals the whole number the sheet shows (92)."""
    value, unit = integer(row.get("size_measurement")), text(row.get("size_measurement_unit"))
    read = edit.unit.get("size") or {}
    new_value = float(value) if value is not None else read.get("value")
    if new_value is None:
        return  # a unit of measure without a size: nothing to send
    new = {"value": new_value, "unit": (unit or read.get("unit") or "sqm").upper()}
    if read.get("value") is not None and int(read["value"]) == int(new_value) \
            and str(read.get("unit") or "").upper() == new["unit"]:
        return
    patch["size"] = new
    c = at("size", "size_measurement" if value is not None else "size_measurement_unit")
    at("size.value", "size_measurement")
    at("size.unit", "size_measurement_unit")
    edit.change(UNIT, "size", f"{_shown(read.get('value'))} {read.get('unit')}" if read else None,
                f"{_shown(new_value)} {new['unit']}", c)


def _object(edit: UnitEdit, row: dict, patch: dict, at: Any, name: str, members: Mapping[str, str],
            read: Mapping[str, Any]) -> dict | None:
    """``name`` whole: the read's members with the row's edits; set in ``patch`` when one changes."""
    merged = dict(read)
    for column, member in members.items():
        value = integer(row.get(column))
        if value is not None and value != read.get(member):
            merged[member] = value
            edit.change(UNIT, member.replace("_", " "), read.get(member), value, at(f"{name}.{member}", column))
    if merged != dict(read):
        patch[name] = merged
        return merged
    return None


def _extra_beds(edit: UnitEdit, row: dict, patch: dict, at: Any) -> None:
    read = edit.unit.get("extra_beds_configuration") or {}
    merged = _object(edit, row, patch, at, "extra_beds_configuration",
                     {"max_rollaways": "extra_beds", "max_cribs": "cribs"}, read) or dict(read)
    more = integer(row.get("maximum_additional_guests"))
    if more is None:
        return
    cribs, extra = merged.get("cribs") or 0, merged.get("extra_beds") or 0
    both = bool(cribs and extra and more >= cribs + extra)
    if both != bool(read.get("is_crib_and_extra_bed_allowed")):
        merged["is_crib_and_extra_bed_allowed"] = both
        patch["extra_beds_configuration"] = merged
        edit.change(UNIT, "crib and extra bed together", read.get("is_crib_and_extra_bed_allowed"), both,
                    at("extra_beds_configuration.is_crib_and_extra_bed_allowed", "maximum_additional_guests"))
