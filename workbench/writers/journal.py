"""The push journal (SQLite): every request recorded before it is sent and its outcome after,
and every cell the platform accepted, so a killed run resumes and a repeated push sends deltas.

Tables:

- ``runs``: one row per push (target, command, start/end, counts);
- ``requests``: one row per request: body, hotel, month, status (``pending`` -> ``sending`` ->
  ``success`` / ``rejected`` / ``failed``; ``interrupted`` when a later run found it unfinished),
  HTTP status, ruid, attempts, errors and warnings (JSON);
- ``request_cells``: the cells each request carries, the ``LocatorID`` of the message carrying
  each, and the spreadsheet rows they came from (an ``Error@RecordID`` names that message);
- ``accepted``: per target, the price the platform accepted for each cell (hotel, room, rate,
  night, guests) and the request that set it.

WAL mode, one transaction per step: a ``kill -9`` at any moment leaves a consistent journal.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from workbench.writers.batches import RateRequest

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT, target TEXT NOT NULL, command TEXT, started TEXT NOT NULL,
    finished TEXT, status TEXT NOT NULL DEFAULT 'running', cells_total INTEGER, cells_changed INTEGER,
    requests INTEGER);
CREATE TABLE IF NOT EXISTS requests (
    request_id INTEGER PRIMARY KEY AUTOINCREMENT, run_id INTEGER NOT NULL REFERENCES runs(run_id),
    target TEXT NOT NULL, hotel_code INTEGER NOT NULL, month TEXT NOT NULL, messages INTEGER, cells INTEGER,
    body BLOB NOT NULL, status TEXT NOT NULL DEFAULT 'pending', http_status INTEGER, ruid TEXT, attempts INTEGER,
    errors TEXT, warnings TEXT, error TEXT, created TEXT NOT NULL, sent TEXT, done TEXT);
CREATE INDEX IF NOT EXISTS requests_run ON requests(run_id);
CREATE TABLE IF NOT EXISTS request_cells (
    request_id INTEGER NOT NULL REFERENCES requests(request_id), inv_type_code TEXT NOT NULL,
    rate_plan_code TEXT NOT NULL, date TEXT NOT NULL, guests INTEGER NOT NULL, price TEXT NOT NULL,
    source TEXT, sheet TEXT, row INTEGER, col TEXT, locator INTEGER);
CREATE INDEX IF NOT EXISTS request_cells_request ON request_cells(request_id);
CREATE TABLE IF NOT EXISTS accepted (
    target TEXT NOT NULL, hotel_code INTEGER NOT NULL, inv_type_code TEXT NOT NULL, rate_plan_code TEXT NOT NULL,
    date TEXT NOT NULL, guests INTEGER NOT NULL, price TEXT NOT NULL, request_id INTEGER, ruid TEXT, at TEXT,
    PRIMARY KEY (target, hotel_code, inv_type_code, rate_plan_code, date, guests));
"""
NO_GUESTS = -1  # NumberOfGuests not sent (SQLite primary keys need a value)
FINISHED = ("success", "rejected", "failed", "unrecognised")


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


class Journal:
    """One SQLite file; safe to open from several processes (WAL), one writer at a time."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(request_cells)")}
        if "locator" not in columns:  # a journal written before messages carried a LocatorID
            self.db.execute("ALTER TABLE request_cells ADD COLUMN locator INTEGER")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- runs ---------------------------------------------------------------------------------------

    def start_run(self, target: str, command: str = "") -> int:
        """Open a run; requests an earlier run left unfinished (killed) are marked ``interrupted``."""
        with self._tx() as db:
            db.execute("UPDATE requests SET status='interrupted', done=? WHERE target=? AND status IN "
                       "('pending','sending')", (_now(), target))
            db.execute("UPDATE runs SET status='interrupted' WHERE target=? AND status='running'", (target,))
            cur = db.execute("INSERT INTO runs(target, command, started) VALUES (?,?,?)", (target, command, _now()))
            return int(cur.lastrowid)

    def finish_run(self, run_id: int, status: str, **counts: int) -> None:
        sets = ", ".join(f"{k}=?" for k in counts)
        with self._tx() as db:
            db.execute(f"UPDATE runs SET status=?, finished=?{', ' + sets if sets else ''} WHERE run_id=?",
                       (status, _now(), *counts.values(), run_id))

    # --- requests -----------------------------------------------------------------------------------

    def add_requests(self, run_id: int, target: str, requests: Sequence[RateRequest],
                     cells: Sequence[pd.DataFrame]) -> list[int]:
        """Record planned requests (status ``pending``) and their cells, before anything is sent."""
        ids = []
        now = _now()
        with self._tx() as db:
            for req, c in zip(requests, cells, strict=True):
                cur = db.execute(
                    "INSERT INTO requests(run_id, target, hotel_code, month, messages, cells, body, created) "
                    "VALUES (?,?,?,?,?,?,?,?)",
                    (run_id, target, int(req.hotel_code), req.month, int(req.messages), int(req.cells), req.body, now))
                rid = int(cur.lastrowid)
                ids.append(rid)
                if "locator" not in c:
                    c = c.assign(locator=None)
                db.executemany(
                    "INSERT INTO request_cells(request_id, inv_type_code, rate_plan_code, date, guests, price, source, "
                    "sheet, row, col, locator) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    ((rid, *t) for t in c[["inv_type_code", "rate_plan_code", "date", "guests", "price", "source",
                                           "sheet", "row", "column", "locator"]].itertuples(index=False, name=None)))
        return ids

    def mark_sending(self, request_id: int) -> None:
        with self._tx() as db:
            db.execute("UPDATE requests SET status='sending', sent=? WHERE request_id=?", (_now(), request_id))

    def record_result(self, request_id: int, target: str, *, status: str, http_status: int | None, ruid: str | None,
                      attempts: int, errors: Iterable[dict], warnings: Iterable[dict], error: str | None) -> None:
        """The outcome of a request; on ``success`` its cells become the accepted prices."""
        now = _now()
        with self._tx() as db:
            db.execute("UPDATE requests SET status=?, http_status=?, ruid=?, attempts=?, errors=?, warnings=?, "
                       "error=?, done=? WHERE request_id=?",
                       (status, http_status, ruid, attempts, json.dumps(list(errors)), json.dumps(list(warnings)),
                        error, now, request_id))
            if status == "success":
                db.execute(
                    "INSERT INTO accepted(target, hotel_code, inv_type_code, rate_plan_code, date, guests, price, "
                    "request_id, ruid, at) SELECT ?, r.hotel_code, c.inv_type_code, c.rate_plan_code, c.date, c.guests, "
                    "c.price, r.request_id, ?, ? FROM request_cells c JOIN requests r USING (request_id) "
                    "WHERE c.request_id=? AND true ON CONFLICT (target, hotel_code, inv_type_code, rate_plan_code, "
                    "date, guests) DO UPDATE SET price=excluded.price, request_id=excluded.request_id, "
                    "ruid=excluded.ruid, at=excluded.at",
                    (target, ruid, now, request_id))

    # --- reads --------------------------------------------------------------------------------------

    def accepted(self, target: str, hotels: Iterable[int] | None = None) -> pd.DataFrame:
        """The accepted price of each cell for ``target`` (optionally only these hotels)."""
        sql = ("SELECT hotel_code, inv_type_code, rate_plan_code, date, guests, price FROM accepted "
               "WHERE target=?")
        params: list[object] = [target]
        if hotels is not None:
            hs = sorted({int(h) for h in hotels})
            sql += f" AND hotel_code IN ({','.join('?' * len(hs))})" if hs else " AND 0"
            params += hs
        return pd.read_sql_query(sql, self.db, params=params)

    def requests(self, run_id: int | None = None) -> pd.DataFrame:
        sql = ("SELECT request_id, run_id, hotel_code, month, messages, cells, status, http_status, ruid, attempts, "
               "errors, warnings, error, created, sent, done FROM requests")
        params: tuple[object, ...] = ()
        if run_id is not None:
            sql += " WHERE run_id=?"
            params = (run_id,)
        frame = pd.read_sql_query(sql + " ORDER BY request_id", self.db, params=params)
        for col in ("errors", "warnings"):
            frame[col] = frame[col].map(lambda v: json.loads(v) if isinstance(v, str) else [])
        return frame

    def request_cells(self, run_id: int) -> pd.DataFrame:
        return pd.read_sql_query(
            "SELECT c.*, r.hotel_code, r.month FROM request_cells c JOIN requests r USING (request_id) "
            "WHERE r.run_id=? ORDER BY c.request_id", self.db, params=(run_id,))

    def runs(self) -> pd.DataFrame:
        return pd.read_sql_query("SELECT * FROM runs ORDER BY run_id", self.db)

    def _tx(self):
        return _Tx(self.db)


class _Tx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def open_journal(path: str | Path) -> closing[Journal]:
    return closing(Journal(path))
