"""Room types, their amenities and sub-rooms as the sandbox stores them (SQLite tables next to
the rates calendar), seeded from the registry's ``Rooms`` plus ``data/samples/platform_rooms.xlsx``.

The tables are created on start when missing, and an older state directory (made before room
types existed) is seeded from the registry it already holds, so no state is lost.
"""

from __future__ import annotations

import copy
import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from openpyxl import load_workbook

from workbench.paths import SAMPLES
from workbench.sandbox.platform.seed import Registry
from workbench.sandbox.platform.store import Store

DEFAULT_PLATFORM_ROOMS = SAMPLES / "platform_rooms.xlsx"

SCHEMA = """
CREATE TABLE IF NOT EXISTS room_types (hotel_code INTEGER, inv_code TEXT, position INTEGER, active INTEGER,
    room_id TEXT, room_type TEXT, name TEXT, non_smoking TEXT, size_measurement INTEGER, size_unit TEXT,
    quantity INTEGER, max_occupancy INTEGER, max_adults INTEGER, max_children INTEGER, max_child_payable INTEGER,
    max_additional_guests INTEGER, max_cribs INTEGER, max_rollaways INTEGER, PRIMARY KEY (hotel_code, inv_code));
CREATE TABLE IF NOT EXISTS room_sub_rooms (hotel_code INTEGER, inv_code TEXT, sub_room INTEGER, room_type TEXT,
    max_guests INTEGER, number INTEGER, private_bathroom INTEGER, PRIMARY KEY (hotel_code, inv_code, sub_room));
CREATE TABLE IF NOT EXISTS room_amenities (hotel_code INTEGER, inv_code TEXT, sub_room INTEGER, position INTEGER,
    code TEXT, quantity INTEGER, configuration INTEGER, PRIMARY KEY (hotel_code, inv_code, sub_room, position));
"""

#: ``GET /_sandbox/rooms.csv`` columns (the Rooms sheet's names, plus HotelCode and Active).
ROOMS_CSV_COLUMNS = ("HotelCode", "InvCode", "Active", "RoomID", "RoomType", "RoomTypeName", "NonSmoking",
                     "SizeMeasurement", "SizeMeasurementUnit", "Quantity", "MaxOccupancy", "MaxAdultOccupancy",
                     "MaxChildOccupancy", "MaxChildPayableOccupancy", "MaximumAdditionalGuests", "MaxCribs",
                     "MaxRollaways")
#: ``GET /_sandbox/subrooms.csv``; ``SubRoom`` is the 1-based position of the sub-room in its room.
SUBROOMS_CSV_COLUMNS = ("HotelCode", "InvCode", "SubRoom", "RoomType", "MaxGuests", "Number", "PrivateBathroom")
#: ``GET /_sandbox/amenities.csv``; ``SubRoom`` is empty for the room's own amenities.
AMENITIES_CSV_COLUMNS = ("HotelCode", "InvCode", "SubRoom", "AmenityCode", "Quantity", "Configuration")
#: room attribute name -> RoomType field (the seed workbook and the CSV use the same names)
ROOM_FIELDS = {"RoomID": "room_id", "RoomType": "room_type", "RoomTypeName": "name", "NonSmoking": "non_smoking",
               "SizeMeasurement": "size_measurement", "SizeMeasurementUnit": "size_unit", "Quantity": "quantity",
               "MaxOccupancy": "max_occupancy", "MaxAdultOccupancy": "max_adults",
               "MaxChildOccupancy": "max_children", "MaxChildPayableOccupancy": "max_child_payable",
               "MaximumAdditionalGuests": "max_additional_guests", "MaxCribs": "max_cribs",
               "MaxRollaways": "max_rollaways"}
_TEXT_FIELDS = {"room_id", "room_type", "name", "non_smoking", "size_unit"}


@dataclass
class Amenity:
    code: str
    quantity: int | None = None  # None: present, no count given
    configuration: int | None = None


@dataclass
class SubRoom:
    room_type: str
    max_guests: int | None = None
    number: int | None = None
    private_bathroom: int | None = None
    amenities: list[Amenity] = field(default_factory=list)


@dataclass
class RoomType:
    hotel_code: int
    inv_code: str
    position: int = 0
    active: bool = True
    room_id: str | None = None
    room_type: str | None = None
    name: str | None = None
    non_smoking: str | None = None
    size_measurement: int | None = None
    size_unit: str | None = None
    quantity: int | None = None
    max_occupancy: int | None = None
    max_adults: int | None = None
    max_children: int | None = None
    max_child_payable: int | None = None
    max_additional_guests: int | None = None
    max_cribs: int | None = None
    max_rollaways: int | None = None
    amenities: list[Amenity] = field(default_factory=list)
    sub_rooms: list[SubRoom] = field(default_factory=list)

    def copy(self) -> RoomType:
        return copy.deepcopy(self)


_COLUMNS = ("hotel_code", "inv_code", "position", "active", *ROOM_FIELDS.values())


class RoomTypeStore:
    """Room types in the sandbox's SQLite store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store.locked() as db:
            db.executescript(SCHEMA)

    # --- seeding --------------------------------------------------------------------------------
    def seed_if_new(self, registry: Registry, workbook: Path | None = DEFAULT_PLATFORM_ROOMS) -> bool:
        """Seed room types once per state (also an older state without them); True when seeded now."""
        with self.store.locked() as db:
            if db.execute("SELECT 1 FROM meta WHERE key='rooms_seeded'").fetchone():
                return False
        rooms = {(r.hotel_code, r.inv_type_code): RoomType(r.hotel_code, r.inv_type_code, n, True, name=r.name,
                                                           max_occupancy=r.max_occupancy, max_adults=r.max_adults,
                                                           max_children=r.max_children)
                 for n, r in enumerate(registry.rooms, start=1)}
        if workbook is not None and Path(workbook).is_file():
            read_platform_rooms(Path(workbook), rooms)
        self.save(rooms.values())
        with self.store.locked() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('rooms_seeded', '1')")
        return True

    # --- reads ----------------------------------------------------------------------------------
    def load(self, hotel_code: int | None = None) -> dict[tuple[int, str], RoomType]:
        """Room types (of one property, or all) keyed by ``(hotel, inv_code)``, in creation order."""
        where, args = ("WHERE hotel_code=?", (hotel_code,)) if hotel_code is not None else ("", ())
        with self.store.locked() as db:
            rows = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM room_types {where} "
                              "ORDER BY hotel_code, position", args).fetchall()
            subs = db.execute(f"SELECT hotel_code, inv_code, sub_room, room_type, max_guests, number, private_bathroom "
                              f"FROM room_sub_rooms {where} ORDER BY hotel_code, inv_code, sub_room", args).fetchall()
            ams = db.execute(f"SELECT hotel_code, inv_code, sub_room, code, quantity, configuration FROM room_amenities "
                             f"{where} ORDER BY hotel_code, inv_code, sub_room, position", args).fetchall()
        out: dict[tuple[int, str], RoomType] = {}
        for row in rows:
            rt = RoomType(**dict(zip(_COLUMNS, row, strict=True)))
            rt.active = bool(rt.active)
            out[(rt.hotel_code, rt.inv_code)] = rt
        for h, inv, _n, kind, guests, number, private in subs:
            out[(h, inv)].sub_rooms.append(SubRoom(kind, guests, number, private))
        for h, inv, n, code, qty, conf in ams:
            rt = out[(h, inv)]
            (rt.amenities if n == 0 else rt.sub_rooms[n - 1].amenities).append(Amenity(code, qty, conf))
        return out

    # --- writes ---------------------------------------------------------------------------------
    def save(self, room_types: Iterable[RoomType]) -> None:
        """Write whole room types (replacing their stored rows) in one transaction."""
        with self.store.locked() as db:
            db.execute("BEGIN")
            try:
                for rt in room_types:
                    key = (rt.hotel_code, rt.inv_code)
                    db.execute("DELETE FROM room_sub_rooms WHERE hotel_code=? AND inv_code=?", key)
                    db.execute("DELETE FROM room_amenities WHERE hotel_code=? AND inv_code=?", key)
                    values = [getattr(rt, c) for c in _COLUMNS]
                    values[3] = int(rt.active)
                    db.execute(f"INSERT OR REPLACE INTO room_types VALUES ({','.join('?' * len(_COLUMNS))})", values)
                    amenities = [(0, a) for a in rt.amenities]
                    for n, s in enumerate(rt.sub_rooms, start=1):
                        db.execute("INSERT INTO room_sub_rooms VALUES (?,?,?,?,?,?,?)",
                                   (*key, n, s.room_type, s.max_guests, s.number, s.private_bathroom))
                        amenities += [(n, a) for a in s.amenities]
                    db.executemany("INSERT INTO room_amenities VALUES (?,?,?,?,?,?,?)",
                                   [(*key, n, i, a.code, a.quantity, a.configuration)
                                    for i, (n, a) in enumerate(amenities)])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def set_active(self, hotel_code: int, inv_code: str, active: bool) -> bool:
        """Activate or deactivate a room type (sandbox-only; the spec names no operation for it)."""
        with self.store.locked() as db:
            cur = db.execute("UPDATE room_types SET active=? WHERE hotel_code=? AND inv_code=?",
                             (int(active), hotel_code, inv_code))
        return cur.rowcount == 1

    def next_inv_codes(self, hotel_code: int, taken: set[str], count: int) -> list[str]:
        """Reserve ``count`` new room type ids for the property: ``<hotel><NNN>``, never reused."""
        key = f"inv_seq:{hotel_code}"
        with self.store.locked() as db:
            row = db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
            n = int(row[0]) if row else 0
            codes: list[str] = []
            while len(codes) < count:
                n += 1
                code = f"{hotel_code}{n:03d}"
                if code not in taken:
                    codes.append(code)
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, str(n)))
        return codes

    # --- CSV for tests and people ---------------------------------------------------------------
    def csv(self, kind: str) -> str:
        """``rooms``, ``subrooms`` or ``amenities`` as CSV (every stored room type, active or not)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        rooms = self.load().values()
        if kind == "rooms":
            w.writerow(ROOMS_CSV_COLUMNS)
            for rt in rooms:
                w.writerow([rt.hotel_code, rt.inv_code, int(rt.active),
                            *(_cell(getattr(rt, f)) for f in ROOM_FIELDS.values())])
        elif kind == "subrooms":
            w.writerow(SUBROOMS_CSV_COLUMNS)
            for rt in rooms:
                for n, s in enumerate(rt.sub_rooms, start=1):
                    w.writerow([rt.hotel_code, rt.inv_code, n, s.room_type, _cell(s.max_guests), _cell(s.number),
                                _cell(s.private_bathroom)])
        else:
            w.writerow(AMENITIES_CSV_COLUMNS)
            for rt in rooms:
                places = [("", rt.amenities)] + [(str(n), s.amenities) for n, s in enumerate(rt.sub_rooms, start=1)]
                for where, amenities in places:
                    for a in amenities:
                        w.writerow([rt.hotel_code, rt.inv_code, where, a.code, _cell(a.quantity),
                                    _cell(a.configuration)])
        return out.getvalue()


def _cell(value: object) -> str:
    return "" if value is None else str(value)


# --- the seed workbook --------------------------------------------------------------------------

def _sheet(wb: object, name: str, src: str) -> list[tuple[int, dict[str, object]]]:
    if name not in wb.sheetnames:  # type: ignore[attr-defined]
        return []
    rows = wb[name].iter_rows(values_only=True)  # type: ignore[index]
    header = [str(h).strip() if h is not None else "" for h in next(rows, ())]
    out = []
    for n, row in enumerate(rows, start=2):
        values = {h: v for h, v in zip(header, row, strict=False) if h and v not in (None, "")}
        if values:
            out.append((n, values))
    return out


def _int(values: dict[str, object], col: str, where: str) -> int | None:
    raw = values.get(col)
    if raw is None:
        return None
    try:
        number = float(str(raw).strip())
        if not number.is_integer():
            raise ValueError
        return int(number)
    except ValueError:
        raise ValueError(f"{where}, column `{col}`: `{raw}` is not a whole number") from None


def _text(values: dict[str, object], col: str) -> str | None:
    raw = values.get(col)
    if raw is None:
        return None
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    return str(raw).strip()


def read_platform_rooms(path: Path, rooms: dict[tuple[int, str], RoomType]) -> None:
    """Add ``RoomTypes``, ``SubRooms`` and ``Amenities`` facts to the registry's room types."""
    wb = load_workbook(path, read_only=True, data_only=True)
    src = path.name
    try:
        def room(values: dict[str, object], where: str) -> RoomType:
            key = (_int(values, "HotelCode", where), _text(values, "InvCode"))
            if key not in rooms:
                raise ValueError(f"{where}: room `{key[1]}` of hotel `{key[0]}` is not in the registry's `Rooms`")
            return rooms[key]

        for n, v in _sheet(wb, "RoomTypes", src):
            where = f"`{src}` sheet `RoomTypes` row {n}"
            rt = room(v, where)
            for col, attr in ROOM_FIELDS.items():
                if col in v:
                    setattr(rt, attr, _text(v, col) if attr in _TEXT_FIELDS else _int(v, col, where))
            if "Active" in v:
                rt.active = _int(v, "Active", where) == 1
        for n, v in _sheet(wb, "SubRooms", src):
            where = f"`{src}` sheet `SubRooms` row {n}"
            rt = room(v, where)
            if _int(v, "SubRoom", where) != len(rt.sub_rooms) + 1:
                raise ValueError(f"{where}, column `SubRoom`: number the sub-rooms of a room 1, 2, 3 ... in order")
            rt.sub_rooms.append(SubRoom(_text(v, "RoomType") or "", _int(v, "MaxGuests", where),
                                        _int(v, "Number", where), _int(v, "PrivateBathroom", where)))
        for n, v in _sheet(wb, "Amenities", src):
            where = f"`{src}` sheet `Amenities` row {n}"
            rt = room(v, where)
            sub = _int(v, "SubRoom", where)
            amenity = Amenity(_text(v, "RoomAmenityCode") or "", _int(v, "Quantity", where),
                              _int(v, "Configuration", where))
            if sub is None:
                rt.amenities.append(amenity)
            elif 1 <= sub <= len(rt.sub_rooms):
                rt.sub_rooms[sub - 1].amenities.append(amenity)
            else:
                raise ValueError(f"{where}, column `SubRoom`: room `{rt.inv_code}` has no sub-room {sub}")
    finally:
        wb.close()
