"""Static data (suppliers, depots, languages) cached on disk in SQLite with the time it was fetched.

A list is fetched again when its copy is older than ``max_age`` (a day by default, as the spec
asks) by the injectable ``clock``. Copies are kept per service (base URL + version), so the
sandbox's suppliers never mix with the real ones. If a refresh fails and an older copy exists,
the older copy is used and a warning says so: names a day old beat no names at all.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from workbench.cars.client import json_default
from workbench.cars.errors import CarsError

log = logging.getLogger(__name__)

KINDS = {"suppliers": "id", "depots": "id", "languages": "code"}  # list kind -> its id field
DEFAULT_MAX_AGE = timedelta(days=1)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS fetches (
    source TEXT NOT NULL, kind TEXT NOT NULL, fetched_at TEXT NOT NULL, count INTEGER NOT NULL,
    request_ids TEXT NOT NULL, PRIMARY KEY (source, kind));
CREATE TABLE IF NOT EXISTS records (
    source TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL,
    PRIMARY KEY (source, kind, id));
"""


@dataclass
class CachedList:
    """One static list as used: its records, when they were fetched, and how they were obtained."""

    kind: str
    records: list[dict[str, Any]]
    fetched_at: datetime
    fetched_now: bool  # True: fetched from the service during this call
    stale: bool = False  # True: older than max_age, kept because the refresh failed
    warnings: list[str] = field(default_factory=list)


class StaticCache:
    """SQLite file of static lists, each with its fetch time; see the module docstring."""

    def __init__(self, path: str | Path, *, max_age: timedelta = DEFAULT_MAX_AGE,
                 clock: Callable[[], datetime] | None = None) -> None:
        if max_age <= timedelta(0):
            raise ValueError(f"`max_age` must be positive, got {max_age}")
        self.path = Path(path)
        self.max_age = max_age
        self.clock = clock or (lambda: datetime.now(UTC))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._db() as db:
            db.executescript(_SCHEMA)

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30)
        try:
            with db:  # one transaction: a list is replaced whole or not at all
                yield db
        finally:
            db.close()

    def fetched_at(self, kind: str, source: str) -> datetime | None:
        """When ``kind`` was last fetched from ``source`` (UTC), or ``None`` if never."""
        with self._db() as db:
            row = db.execute("SELECT fetched_at FROM fetches WHERE source=? AND kind=?", (source, kind)).fetchone()
        return datetime.fromisoformat(row[0]) if row else None

    def is_fresh(self, kind: str, source: str) -> bool:
        when = self.fetched_at(kind, source)
        return when is not None and self._now() - when < self.max_age

    def records(self, kind: str, source: str) -> list[dict[str, Any]]:
        """The stored copy of ``kind`` (empty if none), in the order it was received."""
        with self._db() as db:
            rows = db.execute("SELECT payload FROM records WHERE source=? AND kind=? ORDER BY rowid",
                              (source, kind)).fetchall()
        return [json.loads(r[0], parse_float=Decimal) for r in rows]

    def store(self, kind: str, source: str, records: list[dict[str, Any]],
              request_ids: list[str | None] | None = None) -> list[str]:
        """Replace the stored copy of ``kind`` with ``records``, stamped now; warnings for unusable records."""
        id_field = _id_field(kind)
        warnings: list[str] = []
        rows: dict[str, str] = {}
        for i, rec in enumerate(records):
            rid = rec.get(id_field)
            if rid is None or str(rid) == "":
                warnings.append(f"{kind}: record {i + 1} has no `{id_field}` and was not cached")
                continue
            if str(rid) in rows:
                warnings.append(f"{kind}: `{id_field}` {rid} appears twice; the later record was kept")
            rows[str(rid)] = json.dumps(rec, default=json_default, ensure_ascii=False)
        with self._db() as db:
            db.execute("DELETE FROM records WHERE source=? AND kind=?", (source, kind))
            db.executemany("INSERT INTO records (source, kind, id, payload) VALUES (?, ?, ?, ?)",
                           [(source, kind, rid, payload) for rid, payload in rows.items()])
            db.execute("INSERT OR REPLACE INTO fetches VALUES (?, ?, ?, ?, ?)",
                       (source, kind, self._now().isoformat(), len(rows), json.dumps(request_ids or [])))
        return warnings

    def get(self, kind: str, source: str, fetch: Callable[[], tuple[list[dict[str, Any]], list[str | None]]], *,
            refresh: bool = False) -> CachedList:
        """The list ``kind``: the stored copy while fresh, else ``fetch()`` (records, request ids) stored anew."""
        _id_field(kind)
        when = self.fetched_at(kind, source)
        if not refresh and when is not None and self._now() - when < self.max_age:
            return CachedList(kind, self.records(kind, source), when, fetched_now=False)
        try:
            records, request_ids = fetch()
        except CarsError as exc:
            if when is None:
                raise
            age = self._now() - when
            msg = (f"could not refresh {kind} ({exc}); using the copy fetched {when.isoformat(timespec='minutes')} "
                   f"({age.total_seconds() / 3600:.1f} h old)")
            log.warning(msg)
            return CachedList(kind, self.records(kind, source), when, fetched_now=False, stale=True, warnings=[msg])
        warnings = self.store(kind, source, records, request_ids)
        when = self.fetched_at(kind, source)
        assert when is not None
        return CachedList(kind, self.records(kind, source), when, fetched_now=True, warnings=warnings)

    def _now(self) -> datetime:
        now = self.clock()
        return now if now.tzinfo else now.replace(tzinfo=UTC)


def _id_field(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown static list `{kind}`; one of {', '.join(KINDS)}")
    return KINDS[kind]
