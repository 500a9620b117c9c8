"""The push journal (SQLite): every request of every kind recorded before it is sent and its outcome
after, and the state the platform accepted, so a killed run resumes and a repeated push sends deltas.

Tables:

- ``runs``: one row per push (target, command, kind, start/end, counts);
- ``requests``: one row per request of any kind (``kind``: rates, rooms, content, ...): its
  ``operation``, ``key`` (its identity within the kind: ``1000001-2027-01``, ``1000001/101``), the
  ``property`` and ``what`` it is for people, body and its SHA-256, status (``pending`` -> ``sending``
  -> ``success`` / ``rejected`` / ``failed`` / ``unrecognised``; ``interrupted`` when a later run found
  it unfinished), HTTP status, ruid(s), attempts, errors and warnings (JSON); ``creates``: the
  partner's reference (custom ID, RoomID) when the request creates something, ``made`` the id it got;
- rates: ``request_cells`` (the cells each request carries, with the ``LocatorID`` of their message and
  their spreadsheet rows) and ``accepted`` (per target, the price the platform accepted for each cell):
  :mod:`workbench.writers.journal_cells`;
- availability: ``avail_cells`` and ``avail_accepted`` (the value accepted per room type or room-rate,
  restriction and night): :mod:`workbench.writers.journal_avail`;
- every other kind: ``request_items`` / ``request_rows`` / ``accepted_items`` / ``created``:
  :mod:`workbench.writers.journal_items`.

WAL mode, one transaction per step: a ``kill -9`` at any moment leaves a consistent journal. A journal
that cannot be used (damaged, truncated, on a full disk, not a journal) raises :class:`JournalError`
naming the file and what to do, never a bare SQLite error.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from workbench.config import DEFAULT_JOURNAL_PATH
from workbench.errors import TerminalError
from workbench.writers.journal_avail import AVAIL_KIND, AVAIL_SCHEMA, AvailCells
from workbench.writers.journal_cells import (
    AMOUNT_SQL,
    CELLS_SCHEMA,
    HOTELS_SQL,
    NO_GUESTS,
    SUMMARY_COLUMNS,
    SUMMARY_SQL,
    RateCells,
    body_hash,
    insert_request,
    now_text,
)
from workbench.writers.journal_items import ITEMS_SCHEMA, Items

if TYPE_CHECKING:
    from workbench.writers.planned import Planned

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
"""
#: columns later journals added, with their SQL type (added to a journal written before them)
ADDED_COLUMNS = {
    "runs": {"kind": "TEXT", "reports": "TEXT"},
    "requests": {"kind": "TEXT NOT NULL DEFAULT 'rates'", "operation": "TEXT", "key": "TEXT", "property": "TEXT",
                 "what": "TEXT", "creates": "TEXT", "made": "TEXT", "sha256": "TEXT", "ruids": "TEXT",
                 "note": "TEXT"},
    "request_cells": {"locator": "INTEGER"},
}
DEFAULT_JOURNAL = DEFAULT_JOURNAL_PATH
FINISHED = ("success", "partial", "rejected", "failed", "unrecognised")
#: a request the platform applied in part (availability: some messages refused): what it applied is accepted
PARTIAL = "partial"
__all__ = ["AMOUNT_SQL", "DEFAULT_JOURNAL", "FINISHED", "HOTELS_SQL", "PARTIAL", "Journal", "JournalError", "NO_GUESTS",
           "SUMMARY_COLUMNS", "SUMMARY_SQL", "body_hash", "open_journal"]


class JournalError(TerminalError):
    """The journal cannot be used (damaged, truncated, not a journal, or its disk is full); the message
    names the file and what to do. Nothing accepted was lost: what the journal held, it still holds."""


def journal_problem(path: Path, exc: sqlite3.Error) -> JournalError:
    """What to tell the analyst about a SQLite failure on the journal ``path``."""
    text = str(exc)
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    if "full" in text.casefold() or name == "SQLITE_FULL":
        return JournalError(f"the disk of the journal `{path}` is full ({text}): free some space and run the same "
                            "command again; what the journal recorded before is kept, and the push resumes where it "
                            "stopped")
    if name.startswith("SQLITE_IOERR") and name != "SQLITE_IOERR_SHORT_READ":
        return JournalError(f"the journal `{path}` could not be written ({text}, {name}: the disk is full or failing): "
                            "free some space or check the disk, then run the same command again; what the journal "
                            "recorded before is kept, and the push resumes where it stopped")
    if "locked" in text.casefold() or "busy" in text.casefold():
        return JournalError(f"the journal `{path}` stayed locked by another process for 30 s ({text}): let the other "
                            "command finish, then run this one again")
    return JournalError(f"the journal `{path}` cannot be read ({text}): it is damaged or is not a journal. Move it "
                        "aside (keep it for support), then push again: without a journal every price counts as new, so "
                        "the first push sends everything once (use --plan first to see it)")


class Journal(RateCells, AvailCells, Items):
    """One SQLite file; safe to open from several processes (WAL), one writer at a time."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"the folder of the journal `{self.path}` cannot be made ({exc}): give --journal a "
                               "path in a folder you can write") from None
        try:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA + CELLS_SCHEMA + AVAIL_SCHEMA + ITEMS_SCHEMA)
            for table, columns in ADDED_COLUMNS.items():
                have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
                for name, kind in columns.items():
                    if name not in have:  # a journal written before this column existed
                        self.db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
            self.db.execute("CREATE INDEX IF NOT EXISTS requests_creates ON requests(target, kind, creates)")
            if self.db.execute("SELECT 1 FROM content_properties UNION ALL SELECT 1 FROM content_accepted "
                               "LIMIT 1").fetchone():
                self.carry_over()
        except sqlite3.Error as exc:
            raise journal_problem(self.path, exc) from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- runs ---------------------------------------------------------------------------------------

    def start_run(self, target: str, command: str = "", kind: str = "rates") -> int:
        """Open a run; requests an earlier run left unfinished (killed) are marked ``interrupted``."""
        with self._tx() as db:
            db.execute("UPDATE requests SET status='interrupted', done=? WHERE target=? AND status IN "
                       "('pending','sending')", (now_text(), target))
            db.execute("UPDATE runs SET status='interrupted' WHERE target=? AND status='running'", (target,))
            cur = db.execute("INSERT INTO runs(target, command, started, kind) VALUES (?,?,?,?)",
                             (target, command, now_text(), kind))
            return int(cur.lastrowid or 0)

    def record_reports(self, run_id: int, paths: Sequence[str | Path]) -> None:
        """The reports a command wrote of run ``run_id`` (a JSON list of paths; ``workbench runs`` lists them)."""
        with self._tx() as db:
            db.execute("UPDATE runs SET reports=? WHERE run_id=?", (json.dumps([str(p) for p in paths]), run_id))

    def finish_run(self, run_id: int, status: str, **counts: int) -> None:
        sets = ", ".join(f"{k}=?" for k in counts)
        with self._tx() as db:
            db.execute(f"UPDATE runs SET status=?, finished=?{', ' + sets if sets else ''} WHERE run_id=?",
                       (status, now_text(), *counts.values(), run_id))

    # --- requests -----------------------------------------------------------------------------------

    def add_planned(self, run_id: int, target: str, planned: Sequence[Planned]) -> list[int]:
        """Record requests of any kind but rates (status ``pending``) with their items and rows, before
        anything is sent (rates: :meth:`add_requests`, with their cells)."""
        ids = []
        now = now_text()
        with self._tx() as db:
            for p in planned:
                rid = insert_request(db, run_id, target, p, now)
                ids.append(rid)
                self.add_items(db, rid, p.state, p.rows)
        return ids

    def mark_sending(self, request_id: int) -> None:
        """The request is about to go: from now on a kill leaves it ``interrupted`` (maybe applied)."""
        with self._tx() as db:
            db.execute("UPDATE requests SET status='sending', sent=? WHERE request_id=?", (now_text(), request_id))

    def record_result(self, request_id: int, target: str, *, status: str, http_status: int | None, ruid: str | None,
                      attempts: int, errors: Iterable[dict], warnings: Iterable[dict], error: str | None,
                      kind: str = "rates", ruids: Sequence[str] = (), made: str | None = None,
                      accept: Iterable[tuple[str, str]] | None = None, creates: str | None = None,
                      note: str | None = None) -> None:
        """The outcome of a request. On ``success`` its state becomes the accepted one: a rates request's
        cells, an availability request's values, another kind's items (``accept`` when the answer decides
        them); on ``partial`` (applied in part) only ``accept``, the items the answer says were applied. ``creates`` with ``made``
        (the id the platform gave) or without (no clear answer) records the create."""
        now = now_text()
        with self._tx() as db:
            db.execute("UPDATE requests SET status=?, http_status=?, ruid=?, attempts=?, errors=?, warnings=?, "
                       "error=?, done=?, made=?, ruids=?, note=? WHERE request_id=?",
                       (status, http_status, ruid, attempts, json.dumps(list(errors)), json.dumps(list(warnings)),
                        error, now, made, json.dumps(list(ruids)) if ruids else None, note, request_id))
            if creates is not None and (made is not None or status != "rejected"):
                self.record_created(target, kind, creates, made, ruid, request_id, db=db)
            if status == "success" or (status == PARTIAL and accept is not None):
                if kind == "rates":
                    self.accept_cells(db, request_id, target, ruid, now)
                elif kind == AVAIL_KIND:
                    self.accept_avail(db, request_id, target, ruid, now, accept)
                else:
                    self.accept_items(db, request_id, target, kind, ruid, now, accept)

    # --- reads --------------------------------------------------------------------------------------

    def requests(self, run_id: int | None = None) -> pd.DataFrame:
        sql = ("SELECT request_id, run_id, hotel_code, month, messages, cells, status, http_status, ruid, attempts, "
               "errors, warnings, error, created, sent, done, kind, operation, key, property, what, creates, made, "
               "sha256, ruids, note FROM requests")
        params: tuple[object, ...] = ()
        if run_id is not None:
            sql += " WHERE run_id=?"
            params = (run_id,)
        frame = pd.read_sql_query(sql + " ORDER BY request_id", self.db, params=params)
        for col in ("errors", "warnings", "ruids"):
            frame[col] = frame[col].map(lambda v: json.loads(v) if isinstance(v, str) else [])
        return frame

    def body(self, request_id: int) -> bytes:
        """The body a request was recorded with (what was, or would be, sent)."""
        row = self.db.execute("SELECT body FROM requests WHERE request_id=?", (request_id,)).fetchone()
        return bytes(row[0]) if row is not None else b""

    def accepted_requests(self, target: str, kind: str) -> list[tuple[int, str, str | None, bytes]]:
        """``(hotel_code, key, made, body)`` of every request of ``kind`` the platform accepted for ``target``,
        oldest first (what was sent and taken: e.g. the room facts the platform's read does not show)."""
        rows = self.db.execute("SELECT hotel_code, key, made, body FROM requests WHERE target=? AND kind=? AND "
                               "status='success' ORDER BY request_id", (target, kind)).fetchall()
        return [(int(h), str(k), None if m is None else str(m), bytes(b)) for h, k, m, b in rows]

    def runs(self) -> pd.DataFrame:
        return pd.read_sql_query("SELECT * FROM runs ORDER BY run_id", self.db)

    def _tx(self) -> _Tx:
        return _Tx(self.db, self.path)


class _Tx:
    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise journal_problem(self.path, exc) from None
        return self.db

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        except sqlite3.Error as failed:
            if exc_type is None:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise journal_problem(self.path, failed) from None
        if isinstance(exc, sqlite3.Error):
            raise journal_problem(self.path, exc) from exc


def open_journal(path: str | Path) -> closing[Journal]:
    return closing(Journal(path))
