"""The files of the room-type flow: the RoomID -> InvCode mapping, the workbook copy with the new
InvCodes, the workbook ``workbench fetch rooms --out`` writes (saying what the platform's read
does not give), and the ``--dry-run`` folder (requests, ``manifest.csv``, ``diff.csv``, ``parts.csv``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from loaders.issues import combine
from workbench.ota import PlatformRooms
from workbench.writers import RoomsPlan, planned_rooms, write_requests

if TYPE_CHECKING:
    from workbench.flows.rooms import RoomsCheck

PathLike = str | Path
MAPPING_COLUMNS = ["hotel_code", "room_id", "room_name", "inv_code", "how", "ruid"]


def read_mapping(path: PathLike | None) -> pd.DataFrame | None:
    """The RoomID -> InvCode mapping written by earlier pushes (None when there is none)."""
    if path is None or not Path(path).is_file():
        return None
    frame = pd.read_csv(path, dtype=str, keep_default_na=False).replace({"": None})
    missing = {"hotel_code", "room_id", "inv_code"} - set(frame.columns)
    if missing:
        raise ValueError(f"`{path}` is not a room mapping: it lacks the column(s) {', '.join(sorted(missing))}")
    return frame


def write_mapping(frame: pd.DataFrame, path: PathLike) -> Path:
    """Write (or update) the RoomID -> InvCode mapping CSV; the latest entry per room wins."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        old = pd.read_csv(path, dtype=str, keep_default_na=False).replace({"": None})
        frame = pd.concat([old, frame.astype(object)], ignore_index=True)
    frame = frame.astype({"hotel_code": "string", "room_id": "string", "inv_code": "string"})
    key = frame["hotel_code"] + ":" + frame["room_id"].fillna("name:" + frame["room_name"].astype("string"))
    frame = frame[~key.duplicated(keep="last")]
    frame[MAPPING_COLUMNS].to_csv(path, index=False)
    return path


def fill_inv_codes(check: RoomsCheck, mapping: pd.DataFrame, path: PathLike) -> Path:
    """A copy of the (single .xlsx) workbook with the new room types' InvCodes filled in."""
    from openpyxl import load_workbook

    excel = [f for f in check.files if f.suffix.lower() in (".xlsx", ".xlsm")]
    if len(excel) != 1:
        raise ValueError("the InvCode copy needs exactly one .xlsx workbook as input")
    wb = load_workbook(excel[0])
    by_id = {(str(m.hotel_code), str(m.room_id)): str(m.inv_code) for m in mapping.itertuples()
             if not pd.isna(m.room_id)}
    by_name = {(str(m.hotel_code), str(m.room_name).casefold()): str(m.inv_code) for m in mapping.itertuples()
               if not pd.isna(m.room_name)}
    headers = check.rooms.attrs.get("headers", {})
    for frame in (check.rooms, check.subrooms, check.amenities):
        for r in frame[frame["inv_code"].isna()].itertuples():
            inv = by_id.get((str(r.hotel_code), str(r.room_id)))
            if inv is None and frame is check.rooms and not pd.isna(r.room_name):
                inv = by_name.get((str(r.hotel_code), str(r.room_name).casefold()))
            if inv is None or r.sheet not in wb.sheetnames:
                continue
            ws = wb[r.sheet]
            col = _column_of(ws, headers.get((r.source, r.sheet), {}).get("inv_code"), int(r.row))
            ws.cell(row=int(r.row), column=col, value=inv)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    wb.save(out)
    return out


def keep_mapping(check: RoomsCheck, mapping: pd.DataFrame, path: PathLike | None, workbook_copy: PathLike | None
                 ) -> None:
    """After a push: the room types mapped into the mapping file (``path``) and, when asked, into a copy of the
    workbook with their InvCodes (``workbook_copy``)."""
    if path is not None:
        write_mapping(mapping, path)
    if workbook_copy is not None:
        fill_inv_codes(check, mapping, workbook_copy)


def _column_of(ws, header: str | None, data_row: int) -> int:
    """The column of ``header`` above ``data_row``; a new ``InvCode`` column when the sheet has none."""
    for row in ws.iter_rows(min_row=1, max_row=max(1, data_row - 1)):
        for cell in row:
            if header is not None and cell.value is not None and str(cell.value).strip() == header:
                return cell.column
    for row in ws.iter_rows(min_row=1, max_row=max(1, data_row - 1)):
        for cell in row:
            if cell.value is not None and str(cell.value).strip() == "InvCode":
                return cell.column
    first = next(r for r in ws.iter_rows(min_row=1, max_row=data_row) if any(c.value is not None for c in r))
    col = ws.max_column + 1
    ws.cell(row=first[0].row, column=col, value="InvCode")
    return col


ROOMS_SHEET = {"hotel_code": "HotelCode", "inv_code": "InvCode", "room_id": "RoomID", "room_type": "RoomType",
               "room_name": "RoomTypeName", "active": "Active", "max_occupancy": "MaxOccupancy",
               "max_adult_occupancy": "MaxAdultOccupancy", "max_child_occupancy": "MaxChildOccupancy",
               "max_child_payable_occupancy": "MaxChildPayableOccupancy", "quantity": "Quantity",
               "non_smoking": "NonSmoking", "size_measurement": "SizeMeasurement",
               "size_measurement_unit": "SizeMeasurementUnit", "maximum_additional_guests": "MaximumAdditionalGuests",
               "max_cribs": "MaxCribs", "max_rollaways": "MaxRollaways", "subroom_count": "SubRoomCount"}
SUBROOMS_SHEET = {"hotel_code": "HotelCode", "inv_code": "InvCode", "room_id": "RoomID", "subroom": "SubRoom",
                  "subroom_type": "RoomType", "max_guests": "MaxGuests", "number": "Number",
                  "private_bathroom": "PrivateBathroom"}
AMENITIES_SHEET = {"hotel_code": "HotelCode", "inv_code": "InvCode", "room_id": "RoomID", "subroom": "SubRoom",
                   "amenity_code": "AmenityCode", "value": "Value", "configuration": "Configuration"}
#: the part each fact of the Rooms sheet belongs to (an Overlay replaces a part as a whole)
_PART_OF = {"room_id": "Room", "room_type": "Room", "size_measurement": "Room", "size_measurement_unit": "Room",
            "non_smoking": "Room", "quantity": "Room", "room_name": "Description", "max_occupancy": "Occupancy",
            "max_adult_occupancy": "Occupancy", "max_child_occupancy": "Occupancy",
            "max_child_payable_occupancy": "TPA_Extensions/Occupancy", "maximum_additional_guests": "Quantities",
            "max_cribs": "Quantities", "max_rollaways": "Quantities"}
_PART_COLUMNS = {part: [ROOMS_SHEET[c] for c, p in _PART_OF.items() if p == part] for part in set(_PART_OF.values())}


def rooms_workbook_frames(state: PlatformRooms) -> dict[str, pd.DataFrame]:
    """The platform's state as the three sheets an analyst edits (headers as ``read_rooms`` reads them).
    A fact the read did not carry is blank (unknown); ``Active`` is 1 (the read lists active room
    types only); ``SubRoomCount`` is filled only when the read carried the room's sub-rooms."""
    rooms = state.rooms.copy()
    rooms["active"] = pd.array([1] * len(rooms), dtype="Int64")
    counts = state.subrooms.groupby(["hotel_code", "inv_code"]).size()
    unknown = state.unknown
    no_subrooms = set(zip(unknown.loc[unknown["fact"] == "subrooms", "hotel_code"],
                          unknown.loc[unknown["fact"] == "subrooms", "inv_code"], strict=True))
    rooms["subroom_count"] = pd.array([None if (h, i) in no_subrooms else int(counts.get((h, i), 0))
                                       for h, i in zip(rooms["hotel_code"], rooms["inv_code"], strict=True)],
                                      dtype="Int64")
    out = {}
    for title, frame, columns in (("Rooms", rooms, ROOMS_SHEET), ("SubRooms", state.subrooms, SUBROOMS_SHEET),
                                  ("Amenities", state.amenities, AMENITIES_SHEET)):
        out[title] = frame[list(columns)].rename(columns=columns).reset_index(drop=True)
    return out


def not_in_read(state: PlatformRooms) -> dict[str, int]:
    """Rooms sheet header -> how many room types the read left it unknown for (``SubRoomCount`` for
    the sub-rooms with their beds)."""
    facts = state.unknown["fact"].value_counts()
    out = {ROOMS_SHEET[f]: int(n) for f, n in facts.items() if f in ROOMS_SHEET}
    if "subrooms" in facts:
        out["SubRoomCount"] = int(facts["subrooms"])
    return out


def _about(state: PlatformRooms) -> list[list[str]]:
    missing = not_in_read(state)
    lines = [["About this workbook"],
             ["Written by `workbench fetch rooms` from the platform's OTA_HotelDescriptiveInfo answer (spec E2): the "
              "active room types, their own amenities, occupancy, cribs and extra beds, as the platform sends them."],
             ["A blank cell keeps what the platform stores. Edit the cells to change, and push with `workbench push "
              "rooms` (try `--dry-run` first: parts.csv shows each part that will be replaced)."],
             [""],
             ["What the platform's read does not send (those cells are blank because they are unknown, not empty):"]]
    for header, n in missing.items():
        if header == "SubRoomCount":
            lines.append([f"Sub-rooms and their beds ({n} room type(s)): the SubRooms sheet is empty for them. To "
                          "change a sub-room, list every sub-room of the room on SubRooms, their beds on Amenities "
                          "(with SubRoom), and their number in SubRoomCount on the Rooms row: the SubRooms part "
                          "replaces all sub-rooms of the room with their beds."])
        else:
            part = next(p for p, cols in _PART_COLUMNS.items() if header in cols)
            lines.append([f"{header} ({n} room type(s)): an Overlay replaces the `{part}` part as a whole "
                          f"({', '.join(_PART_COLUMNS[part])}); to change any of them, fill in all of them on the "
                          "row, with the values the room has."])
    if not missing:
        lines.append(["(nothing: this answer carried every fact)"])
    lines += [[""], ["Deactivate a room type with 0 in Active; a deactivated room type is not in the read any more, "
                     "and 1 in Active on a row with its InvCode reactivates it."]]
    return lines


def write_rooms_workbook(state: PlatformRooms, path: PathLike) -> Path:
    """Write Rooms / SubRooms / Amenities sheets and an About sheet (``workbench fetch rooms --out``);
    the headers of facts the read did not carry get a comment saying so."""
    from openpyxl.comments import Comment

    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        raise ValueError(f"cannot write `{path.name}`: use a file name ending in .xlsx")
    path.parent.mkdir(parents=True, exist_ok=True)
    missing = not_in_read(state)
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        for title, frame in rooms_workbook_frames(state).items():
            frame.astype(object).where(frame.notna(), None).to_excel(writer, sheet_name=title, index=False)
            ws = writer.sheets[title]
            ws.freeze_panes = "A2"
            if title != "Rooms":
                continue
            for cell in ws[1]:
                if cell.value in missing:
                    cell.comment = Comment(f"The platform's read does not send {cell.value} ({missing[cell.value]} "
                                           "room type(s)): blank means unknown. See the About sheet.", "workbench")
        pd.DataFrame(_about(state)).to_excel(writer, sheet_name="About", index=False, header=False)
        writer.sheets["About"].column_dimensions["A"].width = 140
    return path


def dry_run(check: RoomsCheck, directory: PathLike, plan: RoomsPlan) -> pd.DataFrame:
    """Write each planned request (``NNN-<hotel>-<type>-<room>.xml``), ``manifest.csv`` (the folder every
    kind writes: :mod:`workbench.writers.folder`), ``diff.csv`` (each fact that changes) and ``parts.csv``
    (each part that will be replaced, before -> after)."""
    from workbench.flows.room_results import room_rows

    names = []
    for n, req in enumerate(plan.requests, start=1):
        room = req.inv_code or f"new-{req.room_id or n}"
        names.append(f"{n:03d}-{req.hotel_code}-{req.notif_type.lower()}-{room}.xml")
    return write_requests(directory, planned_rooms(plan.requests, room_rows(check)), names, plan.summary(),
                          {"diff.csv": plan.diff, "parts.csv": plan.parts})


def all_issues(check: RoomsCheck, plan: RoomsPlan | None) -> pd.DataFrame:
    return combine([check.issues, plan.issues]) if plan is not None else check.issues
