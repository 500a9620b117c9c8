"""The files and checks around the Rooms API flow: the workbook ``fetch rooms --api modular`` writes (the three
sheets as the analyst edits them and an About sheet saying what the APIs do not give), the ``--dry-run`` folder,
the issues of units to create (their rooms' layout, a creation left unclear), and one issue per cell."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from loaders.issues import combine, empty_issues, issues_from_records
from loaders.rooms import room_keys
from workbench.flows.room_files import AMENITIES_SHEET, ROOMS_SHEET, SUBROOMS_SHEET, PathLike
from workbench.modular.cells import issue
from workbench.modular.map_units import unit_type_of
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms import cell_maker, records_by_room
from workbench.modular.rooms_layout import layout_issues
from workbench.modular.rooms_read import rooms_from_answers
from workbench.modular.workbook import integer, text
from workbench.platform import ModularRoomsRead
from workbench.writers import bulk_units, write_requests

if TYPE_CHECKING:
    from workbench.flows.rooms_modular import ModularRoomsPlan
    from workbench.writers import Planned

__all__ = ["UNCLEAR_RULE", "Held", "held_issues", "modular_dry_run", "modular_rooms_frames", "new_unit_issues",
           "not_kept", "without_checked", "write_modular_rooms_workbook"]

UNCLEAR_RULE = "unit_create_unclear"
_HEADERS = {**ROOMS_SHEET, "max_infants": "MaxInfants", "max_infants_on_top": "MaxInfantsOnTop"}
#: the Rooms sheet's columns the APIs give back, in the order a fetched workbook shows them
ROOMS_COLUMNS = {k: _HEADERS[k] for k in (
    "hotel_code", "inv_code", "room_type", "room_name", "max_occupancy", "max_adult_occupancy", "max_child_occupancy",
    "max_infants", "max_infants_on_top", "quantity", "non_smoking", "size_measurement", "size_measurement_unit",
    "max_cribs", "max_rollaways")}
SUBROOMS_COLUMNS = {k: SUBROOMS_SHEET[k] for k in ("hotel_code", "inv_code", "subroom", "subroom_type", "number")}
AMENITIES_COLUMNS = {k: v for k, v in AMENITIES_SHEET.items() if k != "room_id"}
#: what the Rooms and Facilities APIs do not give back, for the About sheet and the docs
NOT_KEPT = ("RoomID: the platform keeps no correlation id (the mapping file keeps RoomID -> InvCode)",
            "MaximumAdditionalGuests: only whether a crib and an extra bed are allowed together is kept",
            "MaxChildPayableOccupancy: sunset on 2026-07-07",
            "a sub-room's MaxGuests and PrivateBathroom, a room's other amenities than beds",
            "the floors a unit is on, bathroom locations and hostel bathroom details: kept as they are by a push",
            "room facilities without an OTA code in the Facilities meta: not listed, kept as they are by a push",
            "Active: a unit is deleted (not deactivated) through the Rooms API; the workbench does not delete")


def not_kept() -> tuple[str, ...]:
    return NOT_KEPT


def modular_rooms_frames(read: ModularRoomsRead) -> dict[str, pd.DataFrame]:
    """The units read as the three sheets an analyst edits (headers as ``read_rooms`` reads them): a room facility
    the platform holds MISSING is Value 0; one without an OTA code is left out (a push keeps it)."""
    frames = rooms_from_answers(read.answers.values(), read.meta)
    amenities = frames["Amenities"]
    amenities = amenities[amenities["amenity_code"].notna()].copy()
    amenities["value"] = amenities["value"].mask(amenities["remove"].fillna(False), 0)
    out = {}
    for title, frame, columns in (("Rooms", frames["Rooms"], ROOMS_COLUMNS),
                                  ("SubRooms", frames["SubRooms"], SUBROOMS_COLUMNS),
                                  ("Amenities", amenities, AMENITIES_COLUMNS)):
        out[title] = frame[list(columns)].rename(columns=columns).reset_index(drop=True)
    return out


def write_modular_rooms_workbook(read: ModularRoomsRead, path: PathLike) -> Path:
    """Write Rooms / SubRooms / Amenities and an About sheet (``workbench fetch rooms --api modular --out``)."""
    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        raise ValueError(f"cannot write `{path.name}`: use a file name ending in .xlsx")
    path.parent.mkdir(parents=True, exist_ok=True)
    about = [["About this workbook"],
             ["Written by `workbench fetch rooms --api modular` from the Rooms API (GET .../units) and the Facilities "
              "API (room facilities, bathrooms). InvCode is the unit id. Edit the cells to change, and push with "
              "`workbench push rooms --api modular` (try `--plan` first): every part sent is the platform's, with "
              "your edits; a blank cell keeps what the platform holds."],
             ["A multi-room unit's rooms are `Bedroom 1`, `Living room 1`... (SubRooms), their beds on Amenities with "
              "SubRoom; a single-room unit's beds have Configuration 1 (default) or 2 (alternative). Value 0 removes a "
              "bed or a room facility; Remove 1 on SubRooms removes a room. The Bathroom sub-room's Number is the "
              "number of bathrooms."], [""], ["Not in this workbook:"], *[[f"- {line}"] for line in NOT_KEPT]]
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        for title, frame in modular_rooms_frames(read).items():
            frame.astype(object).where(frame.notna(), None).to_excel(writer, sheet_name=title, index=False)
            writer.sheets[title].freeze_panes = "A2"
        pd.DataFrame(about).to_excel(writer, sheet_name="About", index=False, header=False)
        writer.sheets["About"].column_dimensions["A"].width = 140
    return path


@dataclass(frozen=True)
class Held:
    """The Rooms rows of units an earlier creation may have made (``index``) and the issues saying so."""

    index: pd.Index
    issues: pd.DataFrame


def held_issues(rooms: pd.DataFrame, unclear: Sequence[Planned]) -> Held:
    """Rows to create whose ``correlation_id`` is in an earlier bulk creation still unclear: not created again."""
    if not unclear or rooms.empty:
        return Held(pd.Index([]), empty_issues())
    refs = {(int(p.hotel_code or 0), str(u.get("correlation_id"))): p for p in unclear for u in bulk_units(p.body)}
    cell = cell_maker(rooms, rooms.iloc[0:0], rooms.iloc[0:0])
    index, records = [], []
    for i, row in zip(rooms.index, rooms.to_dict("records"), strict=True):
        if not pd.isna(row.get("inv_code")) or pd.isna(row.get("hotel_code")):
            continue
        ref = text(row.get("room_id")) or f"row-{row.get('row')}"
        p = refs.get((int(row["hotel_code"]), ref))
        if p is not None:
            index.append(i)
            records.append(issue(cell(row, "room_id"), UNCLEAR_RULE,
                                 f"unclear: an earlier push sent the creation of this room type (correlation_id {ref}) "
                                 "and got no answer, and the property's units read back cannot tell whether it was "
                                 "made: it is not created again. Check the property's units and put the unit id in "
                                 "InvCode"))
    return Held(pd.Index(index), combine([issues_from_records(records)]))


def new_unit_issues(new: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame, meta: ModularMeta
                    ) -> pd.DataFrame:
    """The rows a unit to create leaves no place for (``unit_rooms_layout``): beds of a multi-room unit outside its
    rooms, bedrooms or living rooms of a single-room unit."""
    from expectations.rooms import bed_types

    cell = cell_maker(new, subrooms, amenities)
    subs = records_by_room(subrooms, room_keys(new, subrooms)) if len(subrooms) else {}
    amens = records_by_room(amenities, room_keys(new, amenities)) if len(amenities) else {}
    beds = bed_types()
    records: list[dict] = []
    for key, row in zip(room_keys(new), new.to_dict("records"), strict=True):
        kind = unit_type_of(meta, row.get("room_type"))
        if kind is None:
            continue
        own = [(a, cell(a, "amenity_code")) for a in amens.get(str(key), []) if text(a.get("subroom")) is None
               and integer(a.get("amenity_code")) in beds and not a.get("remove")]
        records += layout_issues(kind, own, [(s, cell(s, "subroom")) for s in subs.get(str(key), [])
                                             if not s.get("remove")])
    return combine([issues_from_records(records)])


def without_checked(issues: pd.DataFrame, checked: pd.DataFrame | None) -> pd.DataFrame:
    """``issues`` without those on a cell the check already holds an error on (one error per cell)."""
    if checked is None or checked.empty or issues.empty:
        return issues
    errors = checked[checked["severity"] == "error"]
    taken = set(zip(errors["source"], errors["sheet"], errors["row"], errors["column"], strict=True))
    keep = [(s, h, r, c) not in taken for s, h, r, c in zip(issues["source"], issues["sheet"], issues["row"],
                                                            issues["column"], strict=True)]
    return issues[keep].reset_index(drop=True)


def modular_dry_run(plan: ModularRoomsPlan, directory: PathLike) -> pd.DataFrame:
    """Write each request (``NNN-<hotel>-<part>-<unit>.json``, the body as it will be sent), ``manifest.csv`` (the
    method and path of each) and ``changes.csv`` (each item that changes, before -> after)."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()
    planned = plan.planned
    names = [f"{n:03d}-{p.hotel_code}-{p.extra['part'].replace(' ', '-')}-{p.extra['unit_id'] or 'new'}.json"
             for n, p in enumerate(planned, start=1)]
    own = pd.DataFrame([{**p.extra, "method": p.method, "path": p.path} for p in planned],
                       columns=["hotel_code", "part", "unit_id", "room_ids", "method", "path"])
    return write_requests(out, planned, names, own, tables={"changes.csv": plan.changes})
