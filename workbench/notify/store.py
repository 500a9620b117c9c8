"""Durable, de-duplicated storage of notifications, with group commit.

One writer thread owns the writing connection. Requests hand it operations and wait on a
future; the writer takes everything queued (up to ``max_batch``), runs it in ONE transaction,
commits, and only then resolves the futures - so each 2xx is sent after its notification is
committed, yet a burst of concurrent deliveries costs one fsync, not one each. A repeated
``metadata.uuid`` hits the unique key (``ON CONFLICT DO NOTHING``) and is reported as a duplicate.
If a batch fails, its operations are retried one by one so one bad row cannot fail the others.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import logging
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from workbench.notify.db import Database, is_connection_error
from workbench.notify.errors import StoreError

log = logging.getLogger(__name__)
_STOP = object()

ACCEPTED = "accepted"
DUPLICATE = "duplicate"
DUPLICATE_DIFFERENT = "duplicate_different_body"


@dataclass(frozen=True)
class Notification:
    """A notification as received: the parsed metadata columns and the raw body text."""

    uuid: str
    type: str | None
    payload_version: str | None
    received_at: float
    client_id: str | None
    body: str

    @property
    def body_sha256(self) -> str:
        return hashlib.sha256(self.body.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class DeadLetter:
    """A body that could not be used (no usable ``metadata.uuid``), kept for inspection."""

    received_at: float
    client_id: str | None
    reason: str
    content_type: str | None
    body: str


class _Op:
    __slots__ = ("future",)

    def __init__(self) -> None:
        self.future: cf.Future[Any] = cf.Future()

    def apply(self, db: Database, cur: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError


class _SaveNotification(_Op):
    __slots__ = ("n",)
    SQL = ("INSERT INTO notify_notifications (uuid, type, payload_version, received_at, client_id, body_sha256, body) "
           "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (uuid) DO NOTHING")

    def __init__(self, n: Notification) -> None:
        super().__init__()
        self.n = n

    def apply(self, db: Database, cur: Any) -> str:
        n = self.n
        sha = n.body_sha256
        cur.execute(db.sql(self.SQL), (n.uuid, n.type, n.payload_version, n.received_at, n.client_id, sha, n.body))
        if cur.rowcount == 1:
            return ACCEPTED
        cur.execute(db.sql("SELECT body_sha256 FROM notify_notifications WHERE uuid = ?"), (n.uuid,))
        row = cur.fetchone()
        return DUPLICATE if row is None or row[0] == sha else DUPLICATE_DIFFERENT


class _Execute(_Op):
    __slots__ = ("sql", "params")

    def __init__(self, sql: str, params: Sequence[Any]) -> None:
        super().__init__()
        self.sql, self.params = sql, tuple(params)

    def apply(self, db: Database, cur: Any) -> int:
        cur.execute(db.sql(self.sql), self.params)
        return int(cur.rowcount)


class NotifyStore:
    """The notifications, dead letters and alerts of one database, written by one thread."""

    def __init__(self, db: Database, max_batch: int = 256) -> None:
        self.db = db
        self.max_batch = max(1, max_batch)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.batches = 0
        self.largest_batch = 0
        self.last_error: tuple[float, str] | None = None        # time and reason of the last failed write
        self.last_saved: float | None = None                    # when a notification was last committed
        self.last_save_error: tuple[float, str] | None = None   # when and why one last failed

    # writing

    def save(self, notification: Notification) -> cf.Future[str]:
        """Queue ``notification``; the future gives ``"accepted"`` or ``"duplicate"`` once committed."""
        return self._submit(_SaveNotification(notification))

    def dead_letter(self, letter: DeadLetter) -> cf.Future[int]:
        return self.execute("INSERT INTO notify_dead_letters (received_at, client_id, reason, content_type, body) "
                            "VALUES (?, ?, ?, ?, ?)", (letter.received_at, letter.client_id, letter.reason,
                                                       letter.content_type, letter.body))

    def probe(self, now: float) -> cf.Future[int]:
        """A one-row write through the writer: it commits only when the store can accept notifications
        (disk not full, database writable and reachable)."""
        return self.execute("INSERT INTO notify_health (id, checked_at) VALUES (1, ?) "
                            "ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at", (now,))

    def execute(self, sql: str, params: Sequence[Any] = ()) -> cf.Future[int]:
        """Queue one statement for the writer; the future gives its row count after commit."""
        return self._submit(_Execute(sql, params))

    def _submit(self, op: _Op) -> cf.Future[Any]:
        if self._thread is None or not self._thread.is_alive():
            with self._start_lock:
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=self._run, name="notify-writer", daemon=True)
                    self._thread.start()
        self._queue.put(op)
        return op.future

    def close(self, timeout: float = 30.0) -> None:
        """Write what is queued, then stop the writer."""
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(timeout)
        self._thread = None
        self.db.close()

    def _run(self) -> None:
        conn: Any = None
        stop = False
        while not stop:
            first = self._queue.get()
            if first is _STOP:
                break
            batch = [first]
            while len(batch) < self.max_batch:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is _STOP:
                    stop = True
                    break
                batch.append(nxt)
            conn = self._write(conn, batch)
        if conn is not None:
            conn.close()

    def _write(self, conn: Any, batch: list[_Op]) -> Any:
        try:
            if conn is None:
                conn = self.db.connect()
            with self.db.transaction(conn) as cur:
                results = [op.apply(self.db, cur) for op in batch]
        except Exception as exc:  # noqa: BLE001 - reported through the futures
            if conn is not None and (is_connection_error(exc) or isinstance(exc, StoreError)):
                try:
                    conn.close()
                finally:
                    conn = None
            if len(batch) > 1:
                for op in batch:
                    conn = self._write(conn, [op])
                return conn
            log.error("could not store: %s", exc)
            self.last_error = (time.time(), str(exc) or type(exc).__name__)
            if isinstance(batch[0], _SaveNotification):
                self.last_save_error = self.last_error
            _resolve(batch[0].future, exc=exc if isinstance(exc, StoreError) else StoreError(str(exc)))
            return conn
        self.batches += 1
        if any(isinstance(op, _SaveNotification) for op in batch):
            self.last_saved = time.time()
        self.largest_batch = max(self.largest_batch, len(batch))
        for op, result in zip(batch, results, strict=True):
            _resolve(op.future, result)
        return conn

    def refusing(self, now: float, window: float) -> str | None:
        """Why notifications are being refused: the last one failed (within ``window`` s) and none was
        stored since; None when the store took the last one (or its failure is older than ``window``)."""
        failed = self.last_save_error
        if failed is None or now - failed[0] > window or (self.last_saved or 0.0) > failed[0]:
            return None
        return failed[1]

    # reading

    def count(self, table: str = "notify_notifications") -> int:
        if table not in {"notify_notifications", "notify_dead_letters", "notify_alerts"}:
            raise ValueError(f"unknown table `{table}`")
        return int(self.db.query(f"SELECT COUNT(*) FROM {table}")[0][0])

    def notification_rows(self, since: float | None = None, types: Sequence[str] | None = None,
                          limit: int | None = None) -> list[tuple[Any, ...]]:
        """(seq, uuid, type, payload_version, received_at, client_id, body) in arrival order."""
        sql = "SELECT seq, uuid, type, payload_version, received_at, client_id, body FROM notify_notifications"
        where, params = _filters(since, types)
        sql += where + " ORDER BY seq"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return self.db.query(sql, params)

    def dead_letter_rows(self) -> list[tuple[Any, ...]]:
        return self.db.query("SELECT seq, received_at, client_id, reason, content_type, body "
                             "FROM notify_dead_letters ORDER BY seq")

    def alert_rows(self) -> list[tuple[Any, ...]]:
        return self.db.query("SELECT seq, alert_key, kind, created_at, message, details FROM notify_alerts ORDER BY seq")


def _filters(since: float | None, types: Sequence[str] | None) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if since is not None:
        clauses.append("received_at >= ?")
        params.append(float(since))
    if types:
        clauses.append("type IN (" + ", ".join("?" for _ in types) + ")")
        params.extend(types)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _resolve(future: cf.Future[Any], result: Any = None, exc: BaseException | None = None) -> None:
    try:
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(result)
    except cf.InvalidStateError:  # the waiting request was cancelled; the write stands
        pass
