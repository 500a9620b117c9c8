"""The sandbox's availability: the values ``OTA_HotelAvailNotif`` set and the bookings it is seeded with,
in tables of the shared database, read back by ``roomrateavailability`` and ``/_sandbox/availability.csv``.

A value is kept per property, room type, rate plan (``""``: the room type's own) and night; one never
set stays unset (blank in the CSV). Bookings (booked and cancelled rooms per room-rate and night) come
only from seeding (``workbench sandbox serve --seed-bookings FILE`` or ``POST /_sandbox/bookings``): the
sandbox holds no reservations.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import date, timedelta

from workbench.sandbox.platform.availability_rules import Change
from workbench.sandbox.platform.store import Store

#: ``GET /_sandbox/availability.csv``: room-type rows (blank RatePlanCode) hold RoomsToSell, Booked and the
#: room type's Closed; room-rate rows the room-rate's Closed and restrictions. Flags are 0/1.
CSV_COLUMNS = ("HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "Booked", "Closed",
               "ClosedToArrival", "ClosedToDeparture", "MinStayArrival", "MaxStayArrival", "MinStayThrough",
               "MaxStayThrough")
VALUES = CSV_COLUMNS[4:]
BOOKING_COLUMNS = ("HotelCode", "InvTypeCode", "RatePlanCode", "Date", "Booked", "Cancelled")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS availability (hotel INTEGER, room TEXT, rate TEXT, day TEXT, name TEXT, value INTEGER,
    ruid TEXT, PRIMARY KEY (hotel, room, rate, day, name));
CREATE TABLE IF NOT EXISTS bookings (hotel INTEGER, room TEXT, rate TEXT, day TEXT, booked INTEGER,
    cancelled INTEGER, PRIMARY KEY (hotel, room, rate, day));
"""


class AvailabilityStore:
    """The availability tables of one sandbox (reached with ``sb.own(AvailabilityStore)``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store.locked() as db:
            db.executescript(_SCHEMA)

    def apply(self, changes: Iterable[Change], ruid: str) -> int:
        rows = [(c.hotel, c.room, c.rate, c.day, c.column, c.value, ruid) for c in changes]
        with self.store.locked() as db:
            db.execute("BEGIN")
            db.executemany("INSERT OR REPLACE INTO availability VALUES (?,?,?,?,?,?,?)", rows)
            db.execute("COMMIT")
        return len(rows)

    def seed_bookings(self, text: str) -> int:
        """Set booked and cancelled rooms from CSV text (:data:`BOOKING_COLUMNS`; blank RatePlanCode: the
        room type's); raises ``ValueError`` naming the first line that cannot be read."""
        reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
        missing = [c for c in BOOKING_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"the bookings need the columns {', '.join(BOOKING_COLUMNS)}; missing: {', '.join(missing)}")
        rows = []
        for line, r in enumerate(reader, start=2):
            try:
                day = date.fromisoformat(r["Date"].strip()).isoformat()
                rows.append((int(r["HotelCode"]), r["InvTypeCode"].strip(), (r["RatePlanCode"] or "").strip(), day,
                             int(r["Booked"] or 0), int(r["Cancelled"] or 0)))
            except (ValueError, AttributeError):
                raise ValueError(f"bookings line {line}: {dict(r)} cannot be read (HotelCode and counts are whole "
                                 "numbers, Date is YYYY-MM-DD)") from None
        with self.store.locked() as db:
            db.execute("BEGIN")
            db.executemany("INSERT OR REPLACE INTO bookings VALUES (?,?,?,?,?,?)", rows)
            db.execute("COMMIT")
        return len(rows)

    def _values(self, hotel: int | None = None, first: str = "", last: str = "9999") -> dict[tuple, dict[str, int]]:
        args: list[object]
        """``(hotel, room, rate, day) -> {name: value}`` of the values set (and the room types' bookings as
        ``Booked``, the room-rates' as ``booked``/``cancelled``)."""
        where, args = "day BETWEEN ? AND ?", [first, last]
        if hotel is not None:
            where, args = where + " AND hotel = ?", [*args, hotel]
        with self.store.locked() as db:
            values = db.execute(f"SELECT hotel, room, rate, day, name, value FROM availability WHERE {where}",
                                args).fetchall()
            booked = db.execute(f"SELECT hotel, room, rate, day, booked, cancelled FROM bookings WHERE {where}",
                                args).fetchall()
        out: dict[tuple, dict[str, int]] = {}
        for h, room, rate, day, name, value in values:
            out.setdefault((h, room, rate, day), {})[name] = value
        for h, room, rate, day, b, c in booked:
            out.setdefault((h, room, rate, day), {}).update({"booked": b, "cancelled": c})
            total = out.setdefault((h, room, "", day), {})
            total["Booked"] = total.get("Booked", 0) + b
            total["Cancelled"] = total.get("Cancelled", 0) + c
        return out

    def csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(CSV_COLUMNS)
        for (h, room, rate, day), v in sorted(self._values().items()):
            shown = {k: v.get(k, "") for k in VALUES}
            if rate:
                if not any(k in v for k in VALUES[2:]):
                    continue  # a room-rate with bookings only: they count on its room type's row
                shown["RoomsToSell"] = shown["Booked"] = ""
            w.writerow([h, room, rate, day, *shown.values()])
        return out.getvalue()

    def nights(self, hotel: int, start: date, days: int, links: list[tuple[str, str]]) -> list[dict]:
        """For ``roomrateavailability``: per active room and night, the room type's rooms to sell, closed
        flag, booked and cancelled, and each active rate's ``closed``, ``booked``, ``cancelled``."""
        last = start + timedelta(days=days - 1)
        values = self._values(hotel, start.isoformat(), last.isoformat())
        rooms: dict[str, list[str]] = {}
        for room, rate in links:
            rooms.setdefault(room, []).append(rate)
        out = []
        for room, rates in sorted(rooms.items()):
            for i in range(days):
                day = (start + timedelta(days=i)).isoformat()
                own = values.get((hotel, room, "", day), {})
                out.append({"room": room, "day": day, "rooms_to_sell": own.get("RoomsToSell", 0),
                            "closed": own.get("Closed", 0), "booked": own.get("Booked", 0),
                            "cancelled": own.get("Cancelled", 0),
                            "rates": [{"id": rate, "closed": values.get((hotel, room, rate, day), {}).get("Closed", 0),
                                       "booked": values.get((hotel, room, rate, day), {}).get("booked", 0),
                                       "cancelled": values.get((hotel, room, rate, day), {}).get("cancelled", 0)}
                                      for rate in sorted(rates)]})
        return out
