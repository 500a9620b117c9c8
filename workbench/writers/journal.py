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
  night, guests) and the request that set it;
- ``content_properties``: per target, the partner's custom ``ID`` of each property a content ``New``
  was sent for, and the HotelCode the platform gave it (NULL while the answer was unclear: the New
  may have created it), so a ``New`` is never sent twice for one custom ID;
- ``content_accepted``: per target, property and content part, the last content the platform
  accepted (the part's canonical rows as JSON), which an Overlay replaces.

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

import numpy as np
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
CREATE TABLE IF NOT EXISTS content_properties (
    target TEXT NOT NULL, custom_id TEXT NOT NULL, hotel_code INTEGER, status TEXT NOT NULL, ruid TEXT, at TEXT,
    PRIMARY KEY (target, custom_id));
CREATE TABLE IF NOT EXISTS content_accepted (
    target TEXT NOT NULL, hotel_code INTEGER NOT NULL, part TEXT NOT NULL, content TEXT NOT NULL, ruid TEXT, at TEXT,
    PRIMARY KEY (target, hotel_code, part));
"""
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
DEFAULT_JOURNAL = Path(".workbench") / "journal.sqlite"
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
        params: list[object] = [target]
        if hotels is not None:
            hs = sorted({int(h) for h in hotels})
            sql += f" AND hotel_code IN ({','.join('?' * len(hs))})" if hs else " AND 0"
            params += hs
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

    # --- property content (E4) --------------------------------------------------------------------

    def content_property(self, target: str, custom_id: str) -> tuple[str, int | None, str | None] | None:
        """``(status, hotel_code, ruid)`` of the custom ID's ``New`` (``created`` with its HotelCode, or
        ``unclear``: no clear answer, the property may exist), or None when no New was sent for it."""
        row = self.db.execute("SELECT status, hotel_code, ruid FROM content_properties WHERE target=? AND custom_id=?",
                              (target, custom_id)).fetchone()
        return None if row is None else (str(row[0]), None if row[1] is None else int(row[1]), row[2])

    def record_content_property(self, target: str, custom_id: str, hotel_code: int | None, ruid: str | None) -> None:
        """The HotelCode a ``New`` got (``created``), or None: the answer was unclear (``unclear``)."""
        status = "created" if hotel_code is not None else "unclear"
        with self._tx() as db:
            db.execute("INSERT INTO content_properties(target, custom_id, hotel_code, status, ruid, at) "
                       "VALUES (?,?,?,?,?,?) ON CONFLICT (target, custom_id) DO UPDATE SET hotel_code="
                       "excluded.hotel_code, status=excluded.status, ruid=excluded.ruid, at=excluded.at",
                       (target, custom_id, hotel_code, status, ruid, _now()))

    def content_properties(self, target: str) -> pd.DataFrame:
        return pd.read_sql_query("SELECT custom_id, hotel_code, status, ruid, at FROM content_properties "
                                 "WHERE target=? ORDER BY custom_id", self.db, params=(target,))

    def accepted_content(self, target: str, hotel_code: int) -> dict[str, list[dict]]:
        """The last accepted rows of each part sent for the property (parts never sent are absent)."""
        rows = self.db.execute("SELECT part, content FROM content_accepted WHERE target=? AND hotel_code=?",
                               (target, int(hotel_code))).fetchall()
        return {str(part): json.loads(content) for part, content in rows}

    def record_content(self, target: str, hotel_code: int, parts: dict[str, list[dict]], ruid: str | None) -> None:
        """What an accepted request carried, part by part (an empty list: the part is now empty)."""
        now = _now()
        with self._tx() as db:
            db.executemany("INSERT INTO content_accepted(target, hotel_code, part, content, ruid, at) VALUES "
                           "(?,?,?,?,?,?) ON CONFLICT (target, hotel_code, part) DO UPDATE SET content="
                           "excluded.content, ruid=excluded.ruid, at=excluded.at",
                           [(target, int(hotel_code), part, json.dumps(rows, ensure_ascii=False),
                             ruid, now) for part, rows in parts.items()])

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
