"""The journal's state for every kind but rates: what each request would establish, what the platform
accepted, and what each create made.

- ``request_items``: per request, the items of state it would establish (``item``: a key such as
  ``1000001/Policies`` or ``1000001/101/Occupancy``; ``value``: that item's canonical content as JSON);
- ``request_rows``: the spreadsheet rows (and cells) each request carries, so answers trace back;
- ``accepted_items``: per target and kind, the last value of each item the platform accepted (a
  request's items become accepted when it succeeds; an item a later success leaves out stays);
- ``created``: per target and kind, the partner's reference of each thing a create was sent for
  (custom ID, RoomID) and the id the platform gave it (``created``), or ``unclear`` while no answer
  said whether it was made: a create is never sent twice for one reference.

Content kept these in ``content_properties`` / ``content_accepted`` before; a journal written then
is carried over when opened (:meth:`Items.carry_over`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager

import pandas as pd

from workbench.writers.journal_cells import now_text

ITEMS_SCHEMA = """
CREATE TABLE IF NOT EXISTS request_items (
    request_id INTEGER NOT NULL REFERENCES requests(request_id), item TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS request_items_request ON request_items(request_id);
CREATE TABLE IF NOT EXISTS request_rows (
    request_id INTEGER NOT NULL REFERENCES requests(request_id), source TEXT, sheet TEXT, row INTEGER, col TEXT,
    locator INTEGER, item TEXT);
CREATE INDEX IF NOT EXISTS request_rows_request ON request_rows(request_id);
CREATE TABLE IF NOT EXISTS accepted_items (
    target TEXT NOT NULL, kind TEXT NOT NULL, item TEXT NOT NULL, value TEXT NOT NULL, request_id INTEGER,
    ruid TEXT, at TEXT, PRIMARY KEY (target, kind, item));
CREATE TABLE IF NOT EXISTS created (
    target TEXT NOT NULL, kind TEXT NOT NULL, ref TEXT NOT NULL, created_id TEXT, status TEXT NOT NULL,
    request_id INTEGER, ruid TEXT, at TEXT, PRIMARY KEY (target, kind, ref));
CREATE TABLE IF NOT EXISTS content_properties (
    target TEXT NOT NULL, custom_id TEXT NOT NULL, hotel_code INTEGER, status TEXT NOT NULL, ruid TEXT, at TEXT,
    PRIMARY KEY (target, custom_id));
CREATE TABLE IF NOT EXISTS content_accepted (
    target TEXT NOT NULL, hotel_code INTEGER NOT NULL, part TEXT NOT NULL, content TEXT NOT NULL, ruid TEXT, at TEXT,
    PRIMARY KEY (target, hotel_code, part));
"""
CREATED, UNCLEAR = "created", "unclear"
ROW_FIELDS = ("source", "sheet", "row", "column", "locator", "item")


def dumps(value: object) -> str:
    """An item's value as the journal keeps it: JSON in the order given (a kind builds its values in a
    canonical order when it compares them as text)."""
    return json.dumps(value, ensure_ascii=False, default=str)


class Items:
    """The generic state tables of a :class:`~workbench.writers.journal.Journal` (a mixin)."""

    db: sqlite3.Connection
    _tx: Callable[[], AbstractContextManager[sqlite3.Connection]]

    # --- what requests carry --------------------------------------------------------------------------

    @staticmethod
    def add_items(db: sqlite3.Connection, request_id: int, items: Iterable[tuple[str, str]],
                  rows: pd.DataFrame | None) -> None:
        """Inside the caller's transaction: the items and source rows of a request just recorded."""
        db.executemany("INSERT INTO request_items(request_id, item, value) VALUES (?,?,?)",
                       ((request_id, str(k), str(v)) for k, v in items))
        if rows is not None and len(rows):
            frame = rows.reindex(columns=list(ROW_FIELDS))
            frame = frame.astype(object).where(frame.notna(), None)
            db.executemany("INSERT INTO request_rows(request_id, source, sheet, row, col, locator, item) "
                           "VALUES (?,?,?,?,?,?,?)",
                           ((request_id, s, h, None if r is None else int(r), c, None if lo is None else int(lo), i)
                            for s, h, r, c, lo, i in frame.itertuples(index=False, name=None)))

    @staticmethod
    def accept_items(db: sqlite3.Connection, request_id: int, target: str, kind: str, ruid: str | None, now: str,
                     items: Iterable[tuple[str, str]] | None = None) -> None:
        """Inside the caller's transaction: a request succeeded, its items (or ``items``, when the answer
        decides them, e.g. keyed by the id a create got) become the accepted state."""
        if items is None:
            items = [(str(k), str(v)) for k, v in db.execute(
                "SELECT item, value FROM request_items WHERE request_id=?", (request_id,))]
        db.executemany("INSERT INTO accepted_items(target, kind, item, value, request_id, ruid, at) VALUES "
                       "(?,?,?,?,?,?,?) ON CONFLICT (target, kind, item) DO UPDATE SET value=excluded.value, "
                       "request_id=excluded.request_id, ruid=excluded.ruid, at=excluded.at",
                       ((target, kind, k, v, request_id, ruid, now) for k, v in items))

    def request_rows(self, run_id: int) -> pd.DataFrame:
        """The source rows of every request of a run (``request_id, source, sheet, row, column, locator, item``)."""
        frame = pd.read_sql_query(
            "SELECT w.request_id, w.source, w.sheet, w.row, w.col AS \"column\", w.locator, w.item FROM request_rows w "
            "JOIN requests r USING (request_id) WHERE r.run_id=? ORDER BY w.rowid", self.db, params=(run_id,))
        return frame.astype({"row": "Int64", "locator": "Int64"})

    # --- accepted state ----------------------------------------------------------------------------------

    def accepted_items(self, target: str, kind: str, prefix: str | None = None) -> dict[str, str]:
        """``item -> value`` the platform accepted for ``target`` and ``kind`` (items starting with ``prefix``)."""
        sql = "SELECT item, value FROM accepted_items WHERE target=? AND kind=?"
        params: list[object] = [target, kind]
        if prefix:
            sql += " AND item >= ? AND item < ?"
            params += [prefix, prefix + "\U0010ffff"]
        return {str(k): str(v) for k, v in self.db.execute(sql, params)}

    def record_accepted(self, target: str, kind: str, items: Mapping[str, str], ruid: str | None) -> None:
        """Items the platform is known to hold (e.g. read back after a create), outside any request."""
        with self._tx() as db:
            self.accept_items(db, 0, target, kind, ruid, now_text(), list(items.items()))

    # --- creates -----------------------------------------------------------------------------------------

    def created_of(self, target: str, kind: str, ref: str) -> tuple[str, str | None, str | None] | None:
        """``(status, created_id, ruid)`` of the create sent for ``ref``: ``created`` with the id it got,
        ``unclear`` when no answer said (or the sender died while it was in flight); None: never sent."""
        row = self.db.execute("SELECT status, created_id, ruid FROM created WHERE target=? AND kind=? AND ref=?",
                              (target, kind, ref)).fetchone()
        if row is not None:
            return str(row[0]), None if row[1] is None else str(row[1]), row[2]
        lost = self.db.execute(  # journalled as sending, never answered (killed), never resolved
            "SELECT ruid FROM requests WHERE target=? AND kind=? AND creates=? AND status IN "
            "('sending','interrupted') ORDER BY request_id DESC LIMIT 1", (target, kind, ref)).fetchone()
        return (UNCLEAR, None, lost[0]) if lost is not None else None

    def record_created(self, target: str, kind: str, ref: str, created_id: str | None, ruid: str | None,
                       request_id: int | None = None, db: sqlite3.Connection | None = None) -> None:
        """The id a create got (``created``), or None: it may have been made (``unclear``)."""
        status = CREATED if created_id is not None else UNCLEAR
        args = (target, kind, ref, created_id, status, request_id, ruid, now_text())
        sql = ("INSERT INTO created(target, kind, ref, created_id, status, request_id, ruid, at) VALUES "
               "(?,?,?,?,?,?,?,?) ON CONFLICT (target, kind, ref) DO UPDATE SET created_id=excluded.created_id, "
               "status=excluded.status, request_id=excluded.request_id, ruid=excluded.ruid, at=excluded.at")
        if db is not None:
            db.execute(sql, args)
            return
        with self._tx() as tx:
            tx.execute(sql, args)

    def forget_created(self, target: str, kind: str, ref: str) -> None:
        """A create found not made (read back): it may be sent again."""
        with self._tx() as db:
            db.execute("DELETE FROM created WHERE target=? AND kind=? AND ref=?", (target, kind, ref))
            db.execute("UPDATE requests SET status='not made' WHERE target=? AND kind=? AND creates=? AND status IN "
                       "('sending','interrupted')", (target, kind, ref))

    def created_unfinished(self, target: str, kind: str) -> pd.DataFrame:
        """The creates made by runs that did not finish (killed, interrupted): what their files (a
        mapping written at the end of a push) could not record (``ref, created_id, ruid``)."""
        return pd.read_sql_query(
            "SELECT c.ref, c.created_id, c.ruid FROM created c JOIN requests r ON r.request_id = c.request_id "
            "JOIN runs u ON u.run_id = r.run_id WHERE c.target=? AND c.kind=? AND c.status='created' AND "
            "u.status NOT IN ('done', 'done_with_failures') ORDER BY c.ref", self.db, params=(target, kind))

    def created_table(self, target: str, kind: str) -> pd.DataFrame:
        return pd.read_sql_query("SELECT ref, created_id, status, ruid, at FROM created WHERE target=? AND kind=? "
                                 "ORDER BY ref", self.db, params=(target, kind))

    # --- property content (the content kind's names for the same tables) -----------------------------

    def content_property(self, target: str, custom_id: str) -> tuple[str, int | None, str | None] | None:
        """``(status, hotel_code, ruid)`` of the custom ID's ``New`` (``created`` with its HotelCode, or
        ``unclear``: no clear answer, the property may exist), or None when no New was sent for it."""
        found = self.created_of(target, "content", custom_id)
        if found is None:
            return None
        status, made, ruid = found
        return status, None if made is None else int(made), ruid

    def record_content_property(self, target: str, custom_id: str, hotel_code: int | None, ruid: str | None) -> None:
        """The HotelCode a ``New`` got (``created``), or None: the answer was unclear (``unclear``)."""
        self.record_created(target, "content", custom_id, None if hotel_code is None else str(int(hotel_code)), ruid)

    def content_properties(self, target: str) -> pd.DataFrame:
        frame = self.created_table(target, "content").rename(columns={"ref": "custom_id", "created_id": "hotel_code"})
        frame["hotel_code"] = pd.to_numeric(frame["hotel_code"]).astype("Int64")
        return frame[["custom_id", "hotel_code", "status", "ruid", "at"]]

    def accepted_content(self, target: str, hotel_code: int) -> dict[str, list[dict]]:
        """The last accepted rows of each part sent for the property (parts never sent are absent)."""
        prefix = f"{int(hotel_code)}/"
        return {k[len(prefix):]: json.loads(v) for k, v in self.accepted_items(target, "content", prefix).items()}

    def record_content(self, target: str, hotel_code: int, parts: dict[str, list[dict]], ruid: str | None) -> None:
        """What an accepted request carried, part by part (an empty list: the part is now empty)."""
        self.record_accepted(target, "content", {f"{int(hotel_code)}/{p}": dumps(rows) for p, rows in parts.items()},
                             ruid)

    def carry_over(self) -> None:
        """Copy what a journal written before the generic tables kept for content into them (once)."""
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO created(target, kind, ref, created_id, status, ruid, at) SELECT target, "
                       "'content', custom_id, CAST(hotel_code AS TEXT), status, ruid, at FROM content_properties")
            for target, hotel, part, content, ruid, at in db.execute(
                    "SELECT target, hotel_code, part, content, ruid, at FROM content_accepted").fetchall():
                db.execute("INSERT OR IGNORE INTO accepted_items(target, kind, item, value, request_id, ruid, at) "
                           "VALUES (?,?,?,?,0,?,?)", (target, "content", f"{int(hotel)}/{part}",
                                                      dumps(json.loads(content)), ruid, at))
            db.execute("DELETE FROM content_properties")
            db.execute("DELETE FROM content_accepted")


def item_rows(frame: pd.DataFrame, item: Sequence[str] | str | None = None) -> pd.DataFrame:
    """``frame``'s provenance (``source, sheet, row`` and, when present, ``column``) as request rows."""
    out = pd.DataFrame({c: frame[c].to_numpy() if c in frame else None for c in ("source", "sheet", "row", "column")})
    out["locator"] = None
    out["item"] = item if item is None or isinstance(item, str) else list(item)
    return out
