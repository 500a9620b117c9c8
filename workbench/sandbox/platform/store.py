"""The sandbox's state in SQLite: registry (properties, rooms, room-rate links), the accepted
rates calendar, the request log and the machine account. A file under ``--state-dir`` keeps it
across restarts (a state made by an older sandbox gains the columns added since); without one it
lives in memory. Families keep their own tables in the same database (:meth:`Store.locked`)."""

from __future__ import annotations

import csv
import io
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import astuple
from datetime import UTC, datetime
from pathlib import Path

from workbench.sandbox.platform.seed import Property, Registry, Room, RoomRate

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS properties (hotel_code INTEGER PRIMARY KEY, name TEXT, currency TEXT,
    pricing_model TEXT, country TEXT);
CREATE TABLE IF NOT EXISTS rooms (hotel_code INTEGER, inv_type_code TEXT, name TEXT, max_occupancy INTEGER,
    max_adults INTEGER, max_children INTEGER, PRIMARY KEY (hotel_code, inv_type_code));
CREATE TABLE IF NOT EXISTS room_rates (hotel_code INTEGER, inv_type_code TEXT, rate_plan_code TEXT,
    rate_name TEXT, active INTEGER, parent_rate_plan_code TEXT, follows_price INTEGER, read_only INTEGER,
    PRIMARY KEY (hotel_code, inv_type_code, rate_plan_code));
CREATE TABLE IF NOT EXISTS rates (hotel_code INTEGER, inv_type_code TEXT, rate_plan_code TEXT, date TEXT,
    guests INTEGER, amount TEXT, currency TEXT, amount_type TEXT, ruid TEXT, updated_at TEXT,
    PRIMARY KEY (hotel_code, inv_type_code, rate_plan_code, date, guests));
CREATE TABLE IF NOT EXISTS requests (id INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT, endpoint TEXT,
    status INTEGER, ruid TEXT, host TEXT, account TEXT, outcome TEXT, duration_ms REAL, method TEXT, path TEXT);
"""
#: Columns added to a table after its first release: a kept state gains them on start.
ADDED_COLUMNS = {"requests": ("method TEXT", "path TEXT")}

#: Columns of ``GET /_sandbox/rates.csv`` (the issue's contract).
RATES_CSV_COLUMNS = ("HotelCode", "InvTypeCode", "RatePlanCode", "Date", "NumberOfGuests", "Amount", "CurrencyCode")
#: Columns of ``GET /_sandbox/requests.csv``: ``method`` and ``path`` are the HTTP method and the path
#: called (the short form too, e.g. ``/ota/OTA_HotelInvNotif``), added last.
REQUESTS_CSV_COLUMNS = ("time", "endpoint", "status", "ruid", "host", "account", "outcome", "duration_ms",
                        "method", "path")

#: ``guests`` value stored when a price carries no NumberOfGuests.
NO_GUESTS = 0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _add_columns(db: sqlite3.Connection) -> None:
    """Give a state made by an older sandbox the columns added since (``ADDED_COLUMNS``)."""
    for table, columns in ADDED_COLUMNS.items():
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        for column in columns:
            if column.split()[0] not in have:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")


class Store:
    """Thread-safe access to the sandbox database (one connection, one lock)."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path else None
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path) if self.path else ":memory:", check_same_thread=False,
                                   isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            if self.path:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            _add_columns(self._db)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def locked(self) -> Iterator[sqlite3.Connection]:
        """The connection under the store's lock, for modules keeping their own tables
        (:mod:`workbench.sandbox.platform.room_state`). Autocommit: wrap writes in ``BEGIN``/``COMMIT``."""
        with self._lock:
            yield self._db

    # --- registry -------------------------------------------------------------------------------
    def seed(self, registry: Registry) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO properties VALUES (?,?,?,?,?)",
                                 [astuple(p) for p in registry.properties])
            self._db.executemany("INSERT OR REPLACE INTO rooms VALUES (?,?,?,?,?,?)", [astuple(r) for r in registry.rooms])
            self._db.executemany("INSERT OR REPLACE INTO room_rates VALUES (?,?,?,?,?,?,?,?)",
                                 [astuple(r) for r in registry.room_rates])
            self._db.execute("COMMIT")

    def properties(self) -> list[Property]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM properties ORDER BY hotel_code").fetchall()
        return [Property(*r) for r in rows]

    def registry(self) -> Registry:
        with self._lock:
            rooms = self._db.execute("SELECT * FROM rooms ORDER BY hotel_code, inv_type_code").fetchall()
            links = self._db.execute("SELECT * FROM room_rates ORDER BY hotel_code, inv_type_code, rate_plan_code").fetchall()
        return Registry(tuple(self.properties()), tuple(Room(*r) for r in rooms),
                        tuple(RoomRate(h, i, rp, n, bool(a), p, bool(f), bool(ro)) for h, i, rp, n, a, p, f, ro in links))

    # --- account --------------------------------------------------------------------------------
    def kept(self, key: str, make: Callable[[], str]) -> str:
        """A value made once (``make()``) and kept in the state: the token signing key, the client secret."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
            if row is None:
                row = (make(),)
                self._db.execute("INSERT INTO meta VALUES (?, ?)", (key, row[0]))
        return str(row[0])

    def account(self, username: str = "sandbox") -> tuple[str, str]:
        """The machine account (created once, with a random password, kept across restarts)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key='password'").fetchone()
            if row is None:
                row = (secrets.token_urlsafe(18),)
                self._db.execute("INSERT INTO meta VALUES ('password', ?)", row)
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('username', ?)", (username,))
            user = self._db.execute("SELECT value FROM meta WHERE key='username'").fetchone()
        return (user[0] if user else username), row[0]

    # --- rates ----------------------------------------------------------------------------------
    def write_rates(self, rows: Iterable[tuple[int, str, str, str, int, str, str, str]], ruid: str) -> int:
        """Upsert ``(hotel, room, rate, date, guests, amount, currency, amount_type)`` rows in one transaction."""
        stamp = _now()
        data = [(*r, ruid, stamp) for r in rows]
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO rates VALUES (?,?,?,?,?,?,?,?,?,?)", data)
            self._db.execute("COMMIT")
        return len(data)

    def rates(self) -> list[tuple[object, ...]]:
        with self._lock:
            return self._db.execute(
                "SELECT hotel_code, inv_type_code, rate_plan_code, date, guests, amount, currency FROM rates "
                "ORDER BY hotel_code, inv_type_code, rate_plan_code, date, guests").fetchall()

    def rates_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(RATES_CSV_COLUMNS)
        for h, room, rate, d, guests, amount, cur in self.rates():
            w.writerow((h, room, rate, d, "" if guests == NO_GUESTS else guests, amount, cur))
        return out.getvalue()

    # --- request log ----------------------------------------------------------------------------
    def log_request(self, endpoint: str, status: int, ruid: str, host: str, account: str, outcome: str,
                    duration_ms: float, method: str = "", path: str = "") -> None:
        with self._lock:
            self._db.execute("INSERT INTO requests (time, endpoint, status, ruid, host, account, outcome, duration_ms, "
                             "method, path) VALUES (?,?,?,?,?,?,?,?,?,?)",
                             (_now(), endpoint, status, ruid, host, account, outcome, round(duration_ms, 2), method,
                              path))

    def requests_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(REQUESTS_CSV_COLUMNS)
        with self._lock:
            rows = self._db.execute(f"SELECT {', '.join(REQUESTS_CSV_COLUMNS)} FROM requests ORDER BY id").fetchall()
        w.writerows(rows)
        return out.getvalue()
