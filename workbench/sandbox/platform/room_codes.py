"""The code facts the room rules need: bed-type codes, known room amenity (RMA) codes, room type
(BCRT) codes and names, kitchens, and which room types may have sub-rooms.

Read from the project's ``data/codes/`` (``bed_types.csv``, ``rma.csv``, ``room_types.csv``); a
file missing there is read from the shared reference (``booking_bed_types.csv`` ...), and
failing that a small built-in list of the same facts is used (then no amenity code is
reported as unknown).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from workbench.paths import CODES, SPEC_REFERENCE

#: project file -> shared reference file holding the same facts
SOURCES = {
    "bed_types.csv": "booking_bed_types.csv",
    "rma.csv": "booking_rma.csv",
    "room_types.csv": "booking_room_types_bcrt.csv",
}
_BUILTIN_BEDS = frozenset({"33", "58", "86", "102", "113", "200", "203", "249", "4001"})
_BUILTIN_ROOM_TYPES = {"1": "Apartment", "4": "Quadruple", "5": "Suite", "7": "Triple", "8": "Twin", "9": "Double",
                       "10": "Single", "12": "Studio", "13": "Family", "24": "Twin/Double", "25": "Dormitory room",
                       "26": "Bed in Dormitory", "27": "Bungalow", "28": "Chalet", "29": "Holiday home", "31": "Villa",
                       "32": "Mobile home", "33": "Tent"}

#: RMA codes that count as a kitchen or kitchenette (59 Kitchen, 61 Kitchenette, 47 Full kitchen,
#: 5016 Kitchenette and 5045 Kitchen of the platform's extended list).
KITCHEN_CODES = frozenset({"59", "61", "47", "5016", "5045"})
#: Room type names that need a kitchen to become bookable, and those for which one is recommended (E1).
KITCHEN_REQUIRED = frozenset({"apartment", "aparthotel", "condominium"})
KITCHEN_RECOMMENDED = frozenset({"holiday home", "holiday park", "lodge", "villa"})
#: Room type names that may have sub-rooms (E1).
SUBROOM_TYPES = frozenset({"apartment", "suite", "chalet", "bungalow", "holiday home", "villa", "mobile home"})
#: Sub-room kinds, and those that may carry ``Number``.
SUBROOM_KINDS = ("Bedroom", "Living room", "Bathroom")
NUMBERED_SUBROOMS = frozenset({"Living room", "Bathroom"})


@dataclass(frozen=True)
class RoomCodes:
    bed_types: frozenset[str]
    known_amenities: frozenset[str] | None  # None: no list available, nothing is unknown
    room_types: dict[str, str]  # BCRT code -> name
    sources: tuple[str, ...]  # the files actually read

    def is_bed(self, code: str) -> bool:
        return code in self.bed_types

    def is_known(self, code: str) -> bool:
        return self.known_amenities is None or code in self.known_amenities or code in self.bed_types

    def room_type_name(self, value: str | None) -> str:
        """``"1"`` -> ``"Apartment"``; a name is returned as given (matched case-insensitively later)."""
        text = (value or "").strip()
        return self.room_types.get(text, text)


def _find(name: str, codes_dir: Path, reference_dir: Path) -> Path | None:
    for path in (codes_dir / name, reference_dir / SOURCES[name]):
        if path.is_file():
            return path
    return None


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return [{k.strip(): (v or "").strip() for k, v in row.items() if k} for row in csv.DictReader(f)]


def _is_bed(row: dict[str, str]) -> bool:
    return row.get("is_bed_type", "1") in ("1", "true", "True")


def load_room_codes(codes_dir: Path = CODES, reference_dir: Path = SPEC_REFERENCE / "codes") -> RoomCodes:
    """Read the three lists (see the module docstring for where from)."""
    used: list[str] = []
    beds = set(_BUILTIN_BEDS)
    path = _find("bed_types.csv", codes_dir, reference_dir)
    if path:
        beds = {r["code"] for r in _rows(path) if r.get("code") and _is_bed(r)}
        used.append(str(path))
    known: set[str] | None = None
    path = _find("rma.csv", codes_dir, reference_dir)
    if path:
        known = {r["code"] for r in _rows(path) if r.get("code")}
        used.append(str(path))
    room_types = dict(_BUILTIN_ROOM_TYPES)
    path = _find("room_types.csv", codes_dir, reference_dir)
    if path:
        room_types = {r["code"]: r["name"] for r in _rows(path) if r.get("code") and r.get("name")}
        used.append(str(path))
    return RoomCodes(frozenset(beds), frozenset(known) if known is not None else None, room_types, tuple(used))


@lru_cache(maxsize=1)
def default_room_codes() -> RoomCodes:
    return load_room_codes()
