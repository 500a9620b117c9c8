"""Load over HTTPS loopback: 11,000 deliveries (10,000 notifications + 10% repeats) from
concurrent senders (two processes), with the receiver - a separate process - killed with SIGKILL mid-load and
restarted while the senders retry. Every acknowledged notification must be stored, none twice."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import queue
import random
import signal
import socket
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from workbench.config import Secret
from workbench.notify import NotifyService
from workbench.sandbox.cns import CnsClient, CnsConfig, Delivery, notification
from workbench.transport.backoff import RetryPolicy

UNIQUE, REPEATS, PROCESSES, SENDERS, KILL_AFTER = 10_000, 1_000, 2, 6, 4_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stored_uuids(db: Path) -> list[str]:
    conn = sqlite3.connect(db, timeout=30)
    try:
        return [r[0] for r in conn.execute("SELECT uuid FROM notify_notifications")]
    finally:
        conn.close()


def sender(config: CnsConfig, deliveries: list[dict], concurrency: int, acks: Any) -> None:
    """One sender process: reports each acknowledged uuid at once, then every outcome."""
    def on_result(d: Delivery) -> None:
        if d.delivered:
            acks.put(("ack", d.uuid))

    async def send() -> list[Delivery]:
        async with CnsClient(config, concurrency=concurrency) as cns:
            return await cns.deliver_many(deliveries, concurrency, on_result)

    results = asyncio.run(send())
    acks.put(("done", [(r.uuid, r.delivered, r.attempts, (r.response or {}).get("status"), r.error)
                       for r in results]))


@pytest.mark.slow
def test_every_acknowledged_notification_is_stored_once_across_a_kill_9(tmp_path: Path,
                                                                       serve_process: Callable) -> None:
    state, port = tmp_path / "state", free_port()
    with NotifyService(state) as svc:
        creds = svc.credentials.create("cns-load")
    rng = random.Random(5)
    unique = [notification("PAYOUT_UPDATE", {"n": i, "amount": f"{i}.00"}) for i in range(UNIQUE)]
    deliveries = unique + rng.sample(unique, REPEATS)
    rng.shuffle(deliveries)  # a repeat may go to the other sender: the two copies can race

    proc = serve_process(state=state, port=port).proc
    config = CnsConfig(f"https://127.0.0.1:{port}/oauth/token", f"https://127.0.0.1:{port}/notifications",
                       creds.client_id, Secret(creds.secret), str(state / "tls" / "ca.pem"), timeout_seconds=10,
                       retry=RetryPolicy(max_attempts=60, base_seconds=0.05, cap_seconds=0.5))
    ctx = mp.get_context("spawn")
    acks = ctx.Queue()
    senders = [ctx.Process(target=sender, args=(config, deliveries[i::PROCESSES], SENDERS, acks))
               for i in range(PROCESSES)]
    acked: set[str] = set()
    results: list[tuple] = []
    done = 0

    def drain(until: Callable[[], bool], timeout: float) -> None:
        nonlocal done
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            try:
                kind, value = acks.get(timeout=0.5)
            except queue.Empty:
                continue
            if kind == "ack":
                acked.add(value)
            else:
                results.extend(value)
                done += 1

    for p in senders:
        p.start()
    try:
        drain(lambda: len(acked) >= KILL_AFTER, 120)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        acked_at_kill = set(acked)
        # the dead receiver's database: everything acknowledged so far is there (WAL recovered on open)
        assert acked_at_kill <= set(stored_uuids(state / "notify.db"))
        time.sleep(0.5)  # senders see refused connections and back off
        proc = serve_process(state=state, port=port).proc
        drain(lambda: done == PROCESSES, 180)
        assert done == PROCESSES, "senders did not finish"
    finally:
        for p in senders:
            p.join(10)
            if p.is_alive():
                p.kill()
        proc.terminate()
        proc.wait(10)

    assert len(results) == UNIQUE + REPEATS
    assert all(r[1] for r in results), [r for r in results if not r[1]][:3]
    assert KILL_AFTER <= len(acked_at_kill) < UNIQUE
    assert any(r[2] > 1 for r in results)  # the kill really interrupted deliveries
    statuses = [r[3] for r in results]
    assert statuses.count("accepted") + statuses.count("duplicate") == UNIQUE + REPEATS
    # an acknowledgement lost in the kill comes back as "duplicate" on the retry
    assert UNIQUE - PROCESSES * SENDERS <= statuses.count("accepted") <= UNIQUE
    uuids = stored_uuids(state / "notify.db")
    assert len(uuids) == len(set(uuids)) == UNIQUE
    assert set(uuids) == {e["metadata"]["uuid"] for e in unique}
