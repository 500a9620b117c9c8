"""The availability part of the journal: the values each ``OTA_HotelAvailNotif`` request carries
(``avail_cells``) and the value the platform accepted for each room type (room-rate), restriction and
night (``avail_accepted``), read fast for deltas, plans and reconciling.

A push of a year of availability is about a million values, so their state has typed tables of its
own, as rates keep theirs (:mod:`workbench.writers.journal_cells`), instead of the generic
``request_items`` / ``accepted_items`` (measured in ``benchmarks/bench_availability.py``: recording,
accepting and reading back a million values took several times as long through the generic tables,
whose item keys are texts built per value). ``rate_plan_code`` is ``''`` for a room type's own values.
An answer that refuses some messages of a request (partial success) accepts only the values of the
others: :meth:`AvailCells.accept_avail` with the items the kind names.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, closing
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from workbench.writers.journal_cells import insert_request, now_text

if TYPE_CHECKING:
    from workbench.writers.planned import Planned

AVAIL_SCHEMA = """
CREATE TABLE IF NOT EXISTS avail_cells (
    request_id INTEGER NOT NULL REFERENCES requests(request_id), inv_type_code TEXT NOT NULL,
    rate_plan_code TEXT NOT NULL, date TEXT NOT NULL, restriction TEXT NOT NULL, value INTEGER NOT NULL,
    source TEXT, sheet TEXT, row INTEGER, col TEXT, locator INTEGER);
CREATE INDEX IF NOT EXISTS avail_cells_request ON avail_cells(request_id);
CREATE TABLE IF NOT EXISTS avail_accepted (
    target TEXT NOT NULL, hotel_code INTEGER NOT NULL, inv_type_code TEXT NOT NULL, rate_plan_code TEXT NOT NULL,
    restriction TEXT NOT NULL, date TEXT NOT NULL, value INTEGER NOT NULL, request_id INTEGER, ruid TEXT, at TEXT,
    PRIMARY KEY (target, hotel_code, inv_type_code, rate_plan_code, restriction, date)) WITHOUT ROWID;
"""
AVAIL_KIND = "availability"
AVAIL_OPERATION = "OTA_HotelAvailNotif"
#: what the journal keeps of each value a request carries (``Planned.rows`` of an availability request)
CELL_FIELDS = ["inv_type_code", "rate_plan_code", "date", "restriction", "value", "source", "sheet", "row", "column",
               "locator"]
#: :func:`read_accepted_availability`: one row per value accepted
ACCEPTED_AVAIL_COLUMNS = {"hotel_code": "int64", "inv_type_code": "category", "rate_plan_code": "category",
                          "restriction": "category", "date": "datetime64[s]", "value": "int64"}
_KEY_SQL = "r.hotel_code || '/' || c.inv_type_code || '/' || c.rate_plan_code || '/' || c.date || '/' || c.restriction"
_ACCEPT_SQL = (
    "INSERT INTO avail_accepted(target, hotel_code, inv_type_code, rate_plan_code, restriction, date, value, "
    "request_id, ruid, at) SELECT ?, r.hotel_code, c.inv_type_code, c.rate_plan_code, c.restriction, c.date, c.value, "
    "r.request_id, ?, ? FROM avail_cells c JOIN requests r USING (request_id) WHERE c.request_id=? {only} AND true "
    "ON CONFLICT (target, hotel_code, inv_type_code, rate_plan_code, restriction, date) DO UPDATE SET "
    "value=excluded.value, request_id=excluded.request_id, ruid=excluded.ruid, at=excluded.at")
#: one row per series (room type or room-rate and restriction): its nights (10 characters each) and values
_SERIES_SQL = ("SELECT hotel_code, inv_type_code, rate_plan_code, restriction, count(*), group_concat(date, ''), "
               "group_concat(value, ',') FROM avail_accepted WHERE target = ?{where} "
               "GROUP BY hotel_code, inv_type_code, rate_plan_code, restriction")


class AvailCells:
    """The availability tables of a :class:`~workbench.writers.journal.Journal` (a mixin)."""

    db: sqlite3.Connection
    path: Path
    _tx: Callable[[], AbstractContextManager[sqlite3.Connection]]

    def add_avail_requests(self, run_id: int, target: str, planned: Sequence[Planned]) -> list[int]:
        """Record availability requests (``pending``) and the values each carries, before anything is sent."""
        ids = []
        now = now_text()
        with self._tx() as db:
            for p in planned:
                rid = insert_request(db, run_id, target, p, now)
                ids.append(rid)
                if p.rows is not None and len(p.rows):
                    columns = [p.rows[c].tolist() for c in CELL_FIELDS]  # whole columns, not a Python row each
                    db.executemany(
                        "INSERT INTO avail_cells(request_id, inv_type_code, rate_plan_code, date, restriction, value, "
                        "source, sheet, row, col, locator) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                        ((rid, *t) for t in zip(*columns, strict=True)))
        return ids

    @staticmethod
    def accept_avail(db: sqlite3.Connection, request_id: int, target: str, ruid: str | None, now: str,
                     items: Iterable[tuple[str, str]] | None = None) -> None:
        """Inside the caller's transaction: the request's values become the accepted ones - all of them, or
        only ``items`` (``<hotel>/<room>/<rate>/<YYYY-MM-DD>/<restriction>``: the messages an answer applied)."""
        if items is None:
            db.execute(_ACCEPT_SQL.format(only=""), (target, ruid, now, request_id))
            return
        db.execute("CREATE TEMP TABLE IF NOT EXISTS avail_take (item TEXT PRIMARY KEY)")
        db.execute("DELETE FROM avail_take")
        db.executemany("INSERT OR IGNORE INTO avail_take(item) VALUES (?)", ((str(k),) for k, _ in items))
        db.execute(_ACCEPT_SQL.format(only=f"AND {_KEY_SQL} IN (SELECT item FROM avail_take)"),
                   (target, ruid, now, request_id))
        db.execute("DELETE FROM avail_take")

    def avail_cells(self, run_id: int) -> pd.DataFrame:
        """The values every availability request of a run carries, with its hotel and month."""
        return pd.read_sql_query(
            "SELECT c.*, r.hotel_code, r.month FROM avail_cells c JOIN requests r USING (request_id) "
            "WHERE r.run_id=? ORDER BY c.request_id, c.rowid", self.db, params=(run_id,))

    def avail_targets(self) -> list[str]:
        """The targets (platform base URLs) with accepted availability in this journal."""
        return [t for (t,) in self.db.execute("SELECT DISTINCT target FROM avail_accepted ORDER BY target")]


def empty_accepted_availability() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in ACCEPTED_AVAIL_COLUMNS.items()})


def read_accepted_availability(path: str | Path, target: str, hotels: Iterable[int] | None = None) -> pd.DataFrame:
    """Every value of ``target`` the journal at ``path`` says the platform accepted (optionally only these
    properties): ``hotel_code, inv_type_code, rate_plan_code ('' for a room type's own), restriction, date,
    value``. Read one row per series and cut up with numpy (a Python row per value would be the slow
    part); the file is opened read-only, and a journal that does not exist holds nothing."""
    if not Path(path).is_file():
        return empty_accepted_availability()
    with closing(sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True, timeout=30)) as db:
        if db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='avail_accepted'").fetchone() is None:
            return empty_accepted_availability()
        where = ""
        params: list[object] = [target]
        if hotels is not None:
            hs = sorted({int(h) for h in hotels})
            if not hs:
                return empty_accepted_availability()
            where, params = f" AND hotel_code IN ({','.join('?' * len(hs))})", [target, *hs]
        rows = db.execute(_SERIES_SQL.format(where=where), params).fetchall()
    if not rows:
        return empty_accepted_availability()
    counts = np.fromiter((r[4] for r in rows), dtype=np.int64, count=len(rows))
    take = np.repeat(np.arange(len(rows)), counts)
    dates = np.frombuffer("".join(r[5] for r in rows).encode("ascii"), dtype="S10").astype("datetime64[D]")
    values = np.array(",".join(r[6] for r in rows).split(","), dtype=np.int64)
    return pd.DataFrame({
        "hotel_code": np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))[take],
        "inv_type_code": _repeated([r[1] for r in rows], take), "rate_plan_code": _repeated([r[2] for r in rows], take),
        "restriction": _repeated([r[3] for r in rows], take), "date": dates.astype("datetime64[s]"), "value": values})


def _repeated(values: list[str], take: np.ndarray) -> pd.Categorical:
    codes, uniques = pd.factorize(np.asarray(values, dtype=object))
    return pd.Categorical.from_codes(codes[take], categories=pd.Index(uniques, dtype=object))


__all__ = ["ACCEPTED_AVAIL_COLUMNS", "AVAIL_KIND", "AVAIL_SCHEMA", "AvailCells", "CELL_FIELDS",
           "empty_accepted_availability", "read_accepted_availability"]
