"""The store: committed before acknowledged, once per uuid, group commit, same code on
SQLite (WAL) and PostgreSQL."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.notify import NotifyService, StoreError
from workbench.notify.db import Database, redact_url
from workbench.notify.envelope import parse_envelope
from workbench.notify.store import (
    ACCEPTED,
    DUPLICATE,
    DUPLICATE_DIFFERENT,
    DeadLetter,
    Notification,
    NotifyStore,
)


def note(uuid: str, body: str | None = None, type_: str = "T") -> Notification:
    return Notification(uuid, type_, "1.0", time.time(), "cns", body or json.dumps({"metadata": {"uuid": uuid}}))


def test_once_per_uuid(service: NotifyService) -> None:
    store = service.store
    assert store.save(note("a")).result(10) == ACCEPTED
    assert store.save(note("a")).result(10) == DUPLICATE
    assert store.save(note("a", body='{"metadata": {"uuid": "a"}, "payload": 1}')).result(10) == DUPLICATE_DIFFERENT
    assert store.save(note("b")).result(10) == ACCEPTED
    assert [r[1] for r in store.notification_rows()] == ["a", "b"]
    assert store.notification_rows()[0][6] == json.dumps({"metadata": {"uuid": "a"}})  # first body kept


def test_concurrent_writers_group_commit_and_store_each_once(service: NotifyService) -> None:
    store = service.store
    results: list[str] = []
    lock = threading.Lock()

    def worker(offset: int) -> None:
        futures = [store.save(note(f"u{(offset + i) % 300}")) for i in range(150)]
        out = [f.result(30) for f in futures]
        with lock:
            results.extend(out)

    threads = [threading.Thread(target=worker, args=(k * 75,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 600
    assert results.count(ACCEPTED) == 300 == store.count()
    assert store.batches < 600 and store.largest_batch > 1  # commits were shared


def test_a_failing_statement_does_not_fail_its_batch_neighbours(service: NotifyService) -> None:
    store = service.store  # queued together, these usually share a batch; either way each stands alone
    futures = [store.save(note("ok-1")), store.execute("INSERT INTO no_such_table VALUES (1)"), store.save(note("ok-2"))]
    assert futures[0].result(10) == ACCEPTED and futures[2].result(10) == ACCEPTED
    with pytest.raises(StoreError):
        futures[1].result(10)
    assert store.count() == 2


def test_dead_letters_and_alert_rows(service: NotifyService) -> None:
    service.store.dead_letter(DeadLetter(time.time(), "cns", "no uuid", "application/json", "{}")).result(10)
    assert service.store.count("notify_dead_letters") == 1
    assert service.store.dead_letter_rows()[0][3] == "no uuid"
    with pytest.raises(ValueError):
        service.store.count("notify_clients; DROP TABLE x")


def test_filters_by_time_and_type(service: NotifyService) -> None:
    store = service.store
    for i, (t, at) in enumerate([("A", 100.0), ("B", 200.0), ("A", 300.0)]):
        store.save(Notification(f"f{i}", t, "1.0", at, "cns", "{}")).result(10)
    assert [r[1] for r in store.notification_rows(since=150)] == ["f1", "f2"]
    assert [r[1] for r in store.notification_rows(types=["A"])] == ["f0", "f2"]
    assert [r[1] for r in store.notification_rows(since=250, types=["A", "B"])] == ["f2"]


def test_a_closed_store_writes_again_when_used(service: NotifyService) -> None:
    service.store.save(note("before")).result(10)
    service.store.close()
    assert service.store.save(note("after")).result(10) == ACCEPTED
    assert service.store.count() == 2


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path) -> None:  # noqa: ANN001
    db = Database.open(tmp_path)
    conn = db.connect()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    conn.close()
    assert sqlite3.connect(tmp_path / "notify.db").execute("SELECT COUNT(*) FROM notify_notifications").fetchone() == (0,)


@pytest.mark.parametrize(("url", "message"), [("mysql://u@h/db", "not supported"), ("sqlite://", "names no file")])
def test_bad_database_urls(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Database(url)


def test_password_never_shown() -> None:
    assert redact_url("postgresql://u:s3cret@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert "s3cret" not in repr(Database("postgresql://u:s3cret@h/db"))


@pytest.mark.postgres
def test_unreachable_postgres_is_a_clear_store_error(pg_url: str) -> None:
    with pytest.raises(StoreError, match=r"cannot connect to PostgreSQL at `postgresql://\w+:\*\*\*@127.0.0.1:1/"):
        Database("postgresql://user:pw@127.0.0.1:1/none").connect()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=12)
uuids = st.text(st.characters(min_codepoint=32, exclude_categories=("Cs",)), min_size=1, max_size=40).filter(
    lambda s: s.strip() and "\x7f" not in s)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(uuid=uuids, type_=json_values, extra=json_values, payload=json_values, ascii_only=st.booleans())
def test_any_envelope_with_a_usable_uuid_round_trips_exactly(service: NotifyService, uuid: str, type_: object,
                                                             extra: object, payload: object, ascii_only: bool) -> None:
    """Unknown fields and types are kept: the stored body is byte-for-byte what was sent."""
    body = json.dumps({"metadata": {"uuid": uuid, "type": type_, "x-extra": extra}, "payload": payload,
                       "unknown": extra}, ensure_ascii=ascii_only)
    env = parse_envelope(body.encode())
    outcome = service.store.save(Notification(env.uuid, env.type, env.payload_version, 1.0, "c", env.text)).result(10)
    rows = [r for r in service.store.notification_rows() if r[1] == uuid]
    assert len(rows) == 1
    if outcome == ACCEPTED:
        assert rows[0][6] == body
        assert json.loads(rows[0][6]) == json.loads(body)


def test_store_can_be_opened_twice_on_one_database(service: NotifyService) -> None:
    other = NotifyStore(Database(service.db.url))
    service.store.save(note("shared")).result(10)
    assert other.count() == 1
    assert other.save(note("shared")).result(10) == DUPLICATE
    other.close()
