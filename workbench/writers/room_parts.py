"""One room type's Overlay, part by part, never a partial part.

An Overlay replaces each part it carries (``Room`` attributes, ``Occupancy``,
``TPA_Extensions/Occupancy``, ``Quantities``, the name, ``Amenities`` — beds and other amenities
separately, E1 rule 2 — and ``TPA_Extensions/SubRooms``). So a part is sent only when its
**whole** content is known: from the platform's read, or stated whole on the analyst's sheet.
The platform's read does not carry RoomID, the size, the number of units or the sub-rooms
(``PlatformRooms.unknown``); a part that needs one of those and whose sheet row leaves it blank is
not sent, and an issue on the analyst's cell names the part and what to fill in.

:class:`RoomContext` collects, for one room type, the fact-level ``diff`` rows, the part-level
``parts`` rows (each part that will be replaced, before → after) and the issues.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from workbench.ota import SUBROOMS_FACT
from workbench.writers.room_values import integer, same, text, value, wire

UNKNOWN = "(not in the platform's read)"
#: the warning of a part not sent because its content is unknown, for a room type an earlier push created
NOT_COMPARED = "part_not_compared"

ROOM_ATTRS = {"room_id": "RoomID", "room_type": "RoomType", "size_measurement": "SizeMeasurement",
              "size_measurement_unit": "SizeMeasurementUnit", "non_smoking": "NonSmoking", "quantity": "Quantity"}
OCCUPANCY = {"max_occupancy": "MaxOccupancy", "max_adult_occupancy": "MaxAdultOccupancy",
             "max_child_occupancy": "MaxChildOccupancy"}
CHILD_PAYABLE = {"max_child_payable_occupancy": "MaxChildPayableOccupancy"}
QUANTITIES = {"maximum_additional_guests": "MaximumAdditionalGuests", "max_cribs": "MaxCribs",
              "max_rollaways": "MaxRollaways"}
NAME = {"room_name": "RoomTypeName"}
#: part name (as in the parts frame and the request) -> its columns (the Rooms sheet's headers)
ATTRIBUTE_PARTS = {"Room": ROOM_ATTRS, "Occupancy": OCCUPANCY, "TPA_Extensions/Occupancy": CHILD_PAYABLE,
                   "Quantities": QUANTITIES, "Description": NAME}


@dataclass
class RoomContext:
    """What planning one room type produces besides its request."""

    hotel: int
    inv: str | None
    room_id: str | None
    room_name: str | None
    headers: dict
    read: bool                      # the platform's state was read (False: no settings)
    diffs: list[dict] = field(default_factory=list)
    parts: list[dict] = field(default_factory=list)
    issues: list[dict] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(i["severity"] == "error" for i in self.issues)

    @property
    def label(self) -> str:
        return f"room {self.inv}" if self.inv else f"the new room {self.room_id or self.room_name or ''}".rstrip()

    def diff(self, part: str, subroom: object, item: str, item_name: str, before: object, after: object,
             change: str) -> None:
        self.diffs.append({"hotel_code": self.hotel, "inv_code": self.inv, "room_id": self.room_id,
                           "room_name": self.room_name, "part": part, "subroom": value(subroom), "item": item,
                           "item_name": item_name, "before": None if before is None else str(before),
                           "after": None if after is None else str(after), "change": change})

    def part(self, part: str, replaces: str, before: str | None, after: str) -> None:
        self.parts.append({"hotel_code": self.hotel, "inv_code": self.inv, "room_id": self.room_id,
                           "room_name": self.room_name, "part": part, "replaces": replaces, "before": before,
                           "after": after})

    def header(self, row: pd.Series, column: str, fallback: str) -> str:
        return self.headers.get((row["source"], row["sheet"]), {}).get(column, fallback)

    def issue(self, row: pd.Series, column: str, fallback: str, rule: str, message: str,
              severity: str = "error") -> None:
        cell = value(row.get(column)) if column in row else None
        self.issues.append({"source": row["source"], "sheet": row["sheet"], "row": int(row["row"]),
                            "column": self.header(row, column, fallback), "value": "" if cell is None else str(cell),
                            "rule": rule, "severity": severity, "message": message})

    def why_unknown(self) -> str:
        return ("the platform's state was not read (give the platform's settings)" if not self.read else
                "the platform's read (OTA_HotelDescriptiveInfo) does not give them")


def _render(columns: dict[str, str], values: dict[str, object], unknown: set[str] | frozenset[str]) -> str:
    shown = []
    for c, ota in columns.items():
        if c in unknown:
            shown.append(f"{ota}=?")
        elif values.get(c) is not None:
            shown.append(f"{ota}={wire(values[c])}")
    return ", ".join(shown) or "(none)"


def attribute_part(ctx: RoomContext, part: str, row: pd.Series | None, cur: pd.Series | None,
                   unknown: frozenset[str], skipped: list[str] | None = None,
                   ours: bool = False) -> dict[str, str] | None:
    """The attributes to send for ``part`` (OTA names), or None when the part is not sent. With
    ``skipped`` (a row to create that is already on the platform), facts the read did not carry are
    not compared: their names are added to ``skipped`` and they are not sent. ``ours``: an earlier push
    created the room type (the mapping), so a part whose content is unknown is not sent with a warning
    (re-pushing the same workbook is not refused) rather than refused."""
    columns = ATTRIBUTE_PARTS[part]
    stated = {c: value(row[c]) for c in columns if row is not None and value(row[c]) is not None}
    if skipped is not None:
        skipped += [f"`{ctx.header(row, c, columns[c])}`" for c in stated if c in unknown and row is not None]
        stated = {c: v for c, v in stated.items() if c not in unknown}
    known = {c: (value(cur[c]) if cur is not None else None) for c in columns if c not in unknown}
    touched = [c for c in stated if c not in known or not same(c, stated[c], known[c])]
    if not touched:
        return None
    for c in touched:
        before = known.get(c) if c in known else UNKNOWN
        change = "set" if c not in known else "added" if known[c] is None else "changed"
        ctx.diff("room", None, columns[c], "", before, wire(stated[c]), change)
    missing = [c for c in columns if c not in stated and c not in known and c != "room_type"]
    if missing:
        assert row is not None  # something was stated
        names = ", ".join(f"`{ctx.header(row, c, columns[c])}`" for c in missing)
        whole = ", ".join(columns.values())
        if ours:
            ctx.issue(row, touched[0], columns[touched[0]], NOT_COMPARED,
                      f"`{ctx.header(row, touched[0], columns[touched[0]])}` of {ctx.label} is in the `{part}` part, "
                      f"which an Overlay replaces as a whole ({whole}); an earlier push created the room type, and "
                      f"{ctx.why_unknown()} for {names}, so the part cannot be compared and is not sent (the platform "
                      f"keeps what it has): to change it, fill in {names} on this row too", severity="warning")
            return None
        ctx.issue(row, touched[0], columns[touched[0]], "part_incomplete",
                  f"`{ctx.header(row, touched[0], columns[touched[0]])}` of {ctx.label} is in the `{part}` part, "
                  f"which an Overlay replaces as a whole ({whole}); {ctx.why_unknown()} for {names}, so sending "
                  f"the part would remove or change them: fill in {names} on this row (the values the room has), or "
                  "clear the change (PART_INCOMPLETE)")
        return None
    # a room type keeps its type when an Overlay's Room leaves RoomType out: it is sent only when stated
    desired = {c: stated[c] if c in stated else known.get(c) for c in columns
               if c != "room_type" or c in touched}
    ctx.part(part, "the whole part", _render(columns, known, unknown & set(columns)),
             _render(columns, desired, set()) + (" (RoomType kept)" if "room_type" in columns and "room_type" not in
                                                 touched else ""))
    return {columns[c] if part != "Description" else "Text": wire(v) for c, v in desired.items() if v is not None}


def status_part(ctx: RoomContext, row: pd.Series | None, in_read: bool) -> str | None:
    """``Deactivated`` / ``Active`` (SellableProduct@InvStatusType) when the sheet's ``Active`` changes it."""
    active = integer(row["active"]) if row is not None else None
    if active is None:
        return None
    if active == 0 and (in_read or not ctx.read):
        ctx.diff("room", None, "Active", "", "1" if in_read else UNKNOWN, "0", "changed" if in_read else "set")
        ctx.part("InvStatusType", "the room type's status", "Active" if in_read else UNKNOWN, "Deactivated")
        return "Deactivated"
    if active == 1 and not in_read:
        ctx.diff("room", None, "Active", "", "0" if ctx.read else UNKNOWN, "1", "changed" if ctx.read else "set")
        ctx.part("InvStatusType", "the room type's status", "Deactivated" if ctx.read else UNKNOWN, "Active")
        return "Active"
    return None


def subrooms_unknown_issue(ctx: RoomContext, rows: list[pd.Series], has_room_row: bool, ours: bool = False) -> None:
    """The SubRooms part cannot be sent: it replaces every sub-room (with its beds) and they are not known.
    ``ours`` (an earlier push created the room type): a warning, the part is not sent; else an error."""
    first = rows[0]
    column = next((c for c in ("max_guests", "number", "private_bathroom", "subroom_type", "amenity_code")
                   if c in first and value(first[c]) is not None), "subroom")
    fallback = {"max_guests": "MaxGuests", "number": "Number", "private_bathroom": "PrivateBathroom",
                "subroom_type": "RoomType", "amenity_code": "AmenityCode"}.get(column, "SubRoom")
    where = ("on its Rooms row" if has_room_row else f"on a Rooms row for InvCode {ctx.inv} (add one)")
    if ours:
        ctx.issue(first, column, fallback, NOT_COMPARED,
                  f"the sub-rooms of {ctx.label} (created by an earlier push) are not sent: the `SubRooms` part "
                  f"replaces every sub-room and their beds, and {ctx.why_unknown()} (sub-rooms are not in it), so the "
                  "sheet cannot be compared with them and the platform keeps what it has; to change them, list every "
                  "sub-room on the SubRooms sheet, their beds on the Amenities sheet, and their number in "
                  f"`SubRoomCount` {where}", severity="warning")
        return
    ctx.issue(first, column, fallback, "part_incomplete",
              f"changing sub-room `{text(first['subroom'])}` of {ctx.label} sends the `SubRooms` part, which replaces "
              f"every sub-room of the room and their beds, and {ctx.why_unknown()} (sub-rooms are not in it): list "
              "every sub-room of the room on the SubRooms sheet, their beds on the Amenities sheet, and their number "
              f"in `SubRoomCount` {where} (PART_INCOMPLETE)")


__all__ = ["ATTRIBUTE_PARTS", "NOT_COMPARED", "RoomContext", "SUBROOMS_FACT", "UNKNOWN", "attribute_part",
           "status_part", "subrooms_unknown_issue"]
