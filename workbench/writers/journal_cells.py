"""The rates part of the journal: the cells each rates request carries (``request_cells``) and the
price the platform accepted for each cell (``accepted``), read fast for deltas, plans and health.

Rates are the one kind with millions of items, so their state has typed tables of its own (a cell is
hotel, room, rate, night, guests; its value a price key) instead of the generic ``request_items`` /
``accepted_items`` of :mod:`workbench.writers.journal_items`; both sit behind the same send driver.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from workbench.writers.batches import RateRequest
    from workbench.writers.planned import Planned

CELLS_SCHEMA = """
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
RATES_OPERATION = "OTA_HotelRateAmountNotif"


def now_text() -> str:
    """Now, as the journal writes times (UTC, milliseconds)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def body_hash(body: bytes) -> str:
    """The SHA-256 of a request's body, as the journal and a dry-run folder's manifest keep it."""
    return hashlib.sha256(body).hexdigest()


def insert_request(db: sqlite3.Connection, run_id: int, target: str, p: Planned, now: str) -> int:
    """Inside the caller's transaction: one planned request of any kind but rates recorded ``pending``; its id."""
    cur = db.execute(
        "INSERT INTO requests(run_id, target, hotel_code, month, messages, cells, body, created, kind, "
        "operation, key, property, what, creates, sha256) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (run_id, target, int(p.hotel_code or 0), p.what, int(p.messages), int(p.items), p.body, now,
         p.kind, p.operation, p.key, p.property, p.what, p.creates, body_hash(p.body)))
    return int(cur.lastrowid or 0)

#: :meth:`Journal.accepted_summary`: the room-rates are enumerated by seeking the next key of the primary
#: key (a skip scan: one seek per room-rate, not one row per cell); each figure is then a seek or a
#: range of the same index.
_RR = "target = :t AND hotel_code = k.h AND inv_type_code = k.r AND rate_plan_code = k.p"
#: the amount of an accepted price: ``price`` holds the cell's price key (``AfterTax:15900e-2:2:EUR``, see
#: ``writers.deltas.cell_keys``) whose second part, the amount in minor units with its scale, reads as a number
AMOUNT_SQL = "CAST(substr(price, instr(price, ':') + 1) AS REAL)"
SUMMARY_SQL = f"""
WITH RECURSIVE k(h, r, p) AS MATERIALIZED (
  SELECT hotel_code, inv_type_code, rate_plan_code FROM accepted
   WHERE rowid = (SELECT rowid FROM accepted WHERE target = :t AND hotel_code >= :lo
                  ORDER BY hotel_code, inv_type_code, rate_plan_code LIMIT 1)
  UNION ALL
  SELECT a.hotel_code, a.inv_type_code, a.rate_plan_code FROM k JOIN accepted a ON a.rowid = COALESCE(
    (SELECT rowid FROM accepted WHERE target = :t AND hotel_code = k.h AND inv_type_code = k.r
       AND rate_plan_code > k.p ORDER BY rate_plan_code LIMIT 1),
    (SELECT rowid FROM accepted WHERE target = :t AND hotel_code = k.h AND inv_type_code > k.r
       ORDER BY inv_type_code, rate_plan_code LIMIT 1),
    (SELECT rowid FROM accepted WHERE target = :t AND hotel_code > k.h AND hotel_code <= :hi
       ORDER BY hotel_code, inv_type_code, rate_plan_code LIMIT 1))
), b AS MATERIALIZED (
  SELECT h, r, p,
    (SELECT MIN(date) FROM accepted WHERE {_RR}) AS first_night,
    (SELECT MAX(date) FROM accepted WHERE {_RR}) AS last_night,
    (SELECT date FROM accepted WHERE {_RR} AND {AMOUNT_SQL} > 0 ORDER BY date DESC LIMIT 1)
      AS bookable_until,
    (SELECT COUNT(*) FROM (SELECT DISTINCT date FROM accepted WHERE {_RR} AND date >= :as_of)) AS nights_ahead,
    (SELECT COUNT(*) FROM (SELECT 1 FROM accepted WHERE {_RR} AND date >= :as_of AND date <= :window_end
                           GROUP BY date HAVING MAX({AMOUNT_SQL}) <= 0)) AS closed_nights
  FROM k WHERE h <= :hi)
SELECT b.h AS hotel_code, b.r AS inv_type_code, b.p AS rate_plan_code, first_night, last_night, bookable_until,
  nights_ahead,
  (SELECT COUNT(*) FROM (SELECT DISTINCT date FROM accepted AS c WHERE c.target = :t AND c.hotel_code = b.h
     AND c.inv_type_code = b.r AND c.rate_plan_code = b.p AND c.date > MAX(:before, IFNULL(b.bookable_until, ''))))
    AS nights_after_bookable,
  closed_nights
FROM b
"""
HOTELS_SQL = """
WITH RECURSIVE k(h) AS (
  SELECT MIN(hotel_code) FROM accepted WHERE target = :t
  UNION ALL
  SELECT (SELECT MIN(hotel_code) FROM accepted WHERE target = :t AND hotel_code > k.h) FROM k WHERE k.h IS NOT NULL
) SELECT h FROM k WHERE h IS NOT NULL"""
SUMMARY_COLUMNS = {"hotel_code": "int64", "inv_type_code": "string", "rate_plan_code": "string",
                   "first_night": "string", "last_night": "string", "bookable_until": "string",
                   "nights_ahead": "int64", "nights_after_bookable": "int64", "closed_nights": "int64"}


def _hotels_where(target: str, hotels: Iterable[int] | None) -> tuple[str, list[object]]:
    """``AND hotel_code IN (...)`` for ``hotels`` (nothing for None; no row for an empty list) and the
    parameters, ``target`` first."""
    if hotels is None:
        return "", [target]
    hs = sorted({int(h) for h in hotels})
    return (f" AND hotel_code IN ({','.join('?' * len(hs))})" if hs else " AND 0"), [target, *hs]


class RateCells:
    """The rates tables of a :class:`~workbench.writers.journal.Journal` (a mixin: ``db``, ``path`` and
    ``_tx`` come from the journal)."""

    db: sqlite3.Connection
    path: Path

    _tx: Callable[[], AbstractContextManager[sqlite3.Connection]]

    def add_requests(self, run_id: int, target: str, requests: Sequence[RateRequest],
                     cells: Sequence[pd.DataFrame]) -> list[int]:
        """Record planned rates requests (status ``pending``) and their cells, before anything is sent."""
        ids = []
        now = now_text()
        with self._tx() as db:
            for req, c in zip(requests, cells, strict=True):
                cur = db.execute(
                    "INSERT INTO requests(run_id, target, hotel_code, month, messages, cells, body, created, kind, "
                    "operation, key, property, what, sha256) VALUES (?,?,?,?,?,?,?,?,'rates',?,?,?,?,?)",
                    (run_id, target, int(req.hotel_code), req.month, int(req.messages), int(req.cells), req.body, now,
                     RATES_OPERATION, req.key, str(req.hotel_code), req.month, body_hash(req.body)))
                rid = int(cur.lastrowid or 0)
                ids.append(rid)
                if "locator" not in c:
                    c = c.assign(locator=None)
                db.executemany(
                    "INSERT INTO request_cells(request_id, inv_type_code, rate_plan_code, date, guests, price, source, "
                    "sheet, row, col, locator) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    ((rid, *t) for t in c[["inv_type_code", "rate_plan_code", "date", "guests", "price", "source",
                                           "sheet", "row", "column", "locator"]].itertuples(index=False, name=None)))
        return ids

    @staticmethod
    def accept_cells(db: sqlite3.Connection, request_id: int, target: str, ruid: str | None, now: str) -> None:
        """A rates request succeeded: its cells become the accepted prices (inside the caller's transaction)."""
        db.execute(
            "INSERT INTO accepted(target, hotel_code, inv_type_code, rate_plan_code, date, guests, price, "
            "request_id, ruid, at) SELECT ?, r.hotel_code, c.inv_type_code, c.rate_plan_code, c.date, c.guests, "
            "c.price, r.request_id, ?, ? FROM request_cells c JOIN requests r USING (request_id) "
            "WHERE c.request_id=? AND true ON CONFLICT (target, hotel_code, inv_type_code, rate_plan_code, "
            "date, guests) DO UPDATE SET price=excluded.price, request_id=excluded.request_id, "
            "ruid=excluded.ruid, at=excluded.at",
            (target, ruid, now, request_id))

    def accepted(self, target: str, hotels: Iterable[int] | None = None) -> pd.DataFrame:
        """The accepted price of each cell for ``target`` (optionally only these hotels)."""
        sql = ("SELECT hotel_code, inv_type_code, rate_plan_code, date, guests, price FROM accepted "
               "WHERE target=?")
        where, params = _hotels_where(target, hotels)
        sql += where
        return pd.read_sql_query(sql, self.db, params=params)

    def targets(self) -> list[str]:
        """The targets (platform base URLs) that have accepted prices in this journal."""
        return [t for (t,) in self.db.execute("SELECT DISTINCT target FROM accepted ORDER BY target")]

    def accepted_nights(self, target: str, hotels: Iterable[int] | None = None, start: dt.date | None = None,
                        end: dt.date | None = None) -> pd.DataFrame:
        """One row per room-rate and night the platform accepted a price for, between ``start`` and
        ``end`` (inclusive): ``price`` is the night's highest accepted price over its guest counts, so
        a night is bookable when ``price > 0`` (the spec: 0 means not available)."""
        sql = (f"SELECT hotel_code, inv_type_code, rate_plan_code, date, MAX({AMOUNT_SQL}) AS price "
               "FROM accepted WHERE target=?")
        where, params = _hotels_where(target, hotels)
        sql += where
        for op, day in ((">=", start), ("<=", end)):
            if day is not None:
                sql += f" AND date {op} ?"
                params.append(day.isoformat())
        sql += " GROUP BY hotel_code, inv_type_code, rate_plan_code, date"
        frame = pd.read_sql_query(sql, self.db, params=params)
        return frame.astype({"hotel_code": "int64", "inv_type_code": "string", "rate_plan_code": "string",
                             "date": "datetime64[s]", "price": "float64"})

    def accepted_dates(self, target: str, ranges: pd.DataFrame) -> pd.DataFrame:
        """The nights with an accepted price (0 included) of each room-rate in ``ranges`` (``hotel_code,
        inv_type_code, rate_plan_code, start, end``), between its ``start`` and ``end``: one row per
        room-rate and night. Read as one text per room-rate and cut up with numpy (a Python row per
        night would be the slow part)."""
        cols = {"hotel_code": "int64", "inv_type_code": "string", "rate_plan_code": "string", "date": "datetime64[s]"}
        if ranges.empty:
            return pd.DataFrame({c: pd.Series(dtype=t) for c, t in cols.items()})
        params = [(int(h), str(r), str(p), pd.Timestamp(s).strftime("%Y-%m-%d"), pd.Timestamp(e).strftime("%Y-%m-%d"))
                  for h, r, p, s, e in ranges[["hotel_code", "inv_type_code", "rate_plan_code", "start", "end"]]
                  .itertuples(index=False, name=None)]
        sql = ("SELECT group_concat(date, '') FROM (SELECT DISTINCT date FROM accepted WHERE target=? AND "
               "hotel_code=? AND inv_type_code=? AND rate_plan_code=? AND date >= ? AND date <= ? ORDER BY date)")
        texts = [self.db.execute(sql, (target, *p)).fetchone()[0] or "" for p in params]
        counts = np.fromiter((len(t) // 10 for t in texts), dtype="int64", count=len(texts))
        raw = np.frombuffer("".join(texts).encode("ascii"), dtype="S10")
        keys = pd.DataFrame(params, columns=["hotel_code", "inv_type_code", "rate_plan_code", "start", "end"])
        out = keys.loc[keys.index.repeat(counts), ["hotel_code", "inv_type_code", "rate_plan_code"]]
        out["date"] = raw.astype("datetime64[D]").astype("datetime64[s]")
        return out.reset_index(drop=True).astype(cols)

    def accepted_hotels(self, target: str) -> list[int]:
        """The properties with accepted prices for ``target`` (one index seek each)."""
        return [int(h) for (h,) in self.db.execute(HOTELS_SQL, {"t": target})]

    def accepted_summary(self, target: str, as_of: dt.date, window: int = 90,
                         hotels: Iterable[int] | None = None, workers: int = 2) -> pd.DataFrame:
        """Per room-rate with accepted prices for ``target`` (optionally only these hotels), in one
        query that seeks the primary key instead of reading every cell:

        ``first_night`` / ``last_night`` (any price), ``bookable_until`` (the last night with a price
        > 0), ``nights_ahead`` (nights from ``as_of`` on with a price, 0 included),
        ``nights_after_bookable`` (of those, the ones after ``bookable_until``: all priced 0) and
        ``closed_nights`` (nights of the ``window`` nights from ``as_of`` on whose every price is 0).

        The query runs on ``workers`` connections at once, each over a contiguous share of the
        properties (SQLite releases the GIL while it works; WAL lets readers run side by side).
        """
        wanted = None if hotels is None else sorted({int(h) for h in hotels})
        all_hotels = self.accepted_hotels(target)
        if wanted is not None:
            keep = set(wanted)
            all_hotels = [h for h in all_hotels if h in keep]
        params = {"t": target, "as_of": as_of.isoformat(), "before": (as_of - dt.timedelta(days=1)).isoformat(),
                  "window_end": (as_of + dt.timedelta(days=window - 1)).isoformat()}
        n = max(1, min(workers, len(all_hotels)))
        chunks = [all_hotels[i * len(all_hotels) // n:(i + 1) * len(all_hotels) // n] for i in range(n)]
        chunks = [c for c in chunks if c]

        def run(chunk: list[int]) -> pd.DataFrame:
            db = self.db if len(chunks) == 1 else sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                                                   timeout=30)
            try:
                return pd.read_sql_query(SUMMARY_SQL, db, params={**params, "lo": chunk[0], "hi": chunk[-1]})
            finally:
                if db is not self.db:
                    db.close()

        if len(chunks) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(len(chunks)) as pool:
                parts = list(pool.map(run, chunks))
        else:
            parts = [run(c) for c in chunks]
        frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=SUMMARY_COLUMNS)
        if wanted is not None:
            frame = frame[frame["hotel_code"].isin(wanted)]
        return frame.astype(SUMMARY_COLUMNS).reset_index(drop=True)

    def request_cells(self, run_id: int) -> pd.DataFrame:
        return pd.read_sql_query(
            "SELECT c.*, r.hotel_code, r.month FROM request_cells c JOIN requests r USING (request_id) "
            "WHERE r.run_id=? ORDER BY c.request_id", self.db, params=(run_id,))

