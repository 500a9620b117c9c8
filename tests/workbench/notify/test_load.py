"""Load over HTTPS loopback: 11,000 deliveries (10,000 notifications + 10% repeats) from
concurrent senders, with the receiver - a separate process - killed with SIGKILL mid-load and
restarted while the senders retry. Every acknowledged notification must be stored, none twice."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from workbench.config import Secret
from workbench.notify import NotifyService
from workbench.sandbox.cns import CnsClient, CnsConfig, Delivery, notification
from workbench.transport.backoff import RetryPolicy

UNIQUE, REPEATS, SENDERS, KILL_AFTER = 10_000, 1_000, 6, 4_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(state: Path, port: int, log: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "workbench.notify", "serve", "--state-dir", str(state),
                             "--port", str(port)], stdout=log.open("ab"), stderr=subprocess.STDOUT)
    ca = state / "tls" / "ca.pem"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"receiver exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if ca.exists() and httpx.get(f"https://127.0.0.1:{port}/health", timeout=1,
                                         verify=ssl.create_default_context(cafile=str(ca))).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise TimeoutError(f"receiver did not start: {log.read_text()[-2000:]}")


def stored_uuids(db: Path) -> list[str]:
    conn = sqlite3.connect(db, timeout=30)
    try:
        return [r[0] for r in conn.execute("SELECT uuid FROM notify_notifications")]
    finally:
        conn.close()


@pytest.mark.slow
def test_every_acknowledged_notification_is_stored_once_across_a_kill_9(tmp_path: Path) -> None:
    state, log, port = tmp_path / "state", tmp_path / "receiver.log", free_port()
    with NotifyService(state) as svc:
        creds = svc.credentials.create("cns-load")
    rng = random.Random(5)
    unique = [notification("PAYOUT_UPDATE", {"n": i, "amount": f"{i}.00"}) for i in range(UNIQUE)]
    deliveries = unique + rng.sample(unique, REPEATS)
    rng.shuffle(deliveries)

    proc = start(state, port, log)
    config = CnsConfig(f"https://127.0.0.1:{port}/oauth/token", f"https://127.0.0.1:{port}/notifications",
                       creds.client_id, Secret(creds.secret), str(state / "tls" / "ca.pem"), timeout_seconds=10,
                       retry=RetryPolicy(max_attempts=60, base_seconds=0.05, cap_seconds=0.5))
    acked: set[str] = set()
    lock = threading.Lock()
    results: list[Delivery] = []

    def on_result(d: Delivery) -> None:
        if d.delivered:
            with lock:
                acked.add(d.uuid)

    async def send() -> None:
        async with CnsClient(config, concurrency=SENDERS) as cns:
            results.extend(await cns.deliver_many(deliveries, SENDERS, on_result))

    sender = threading.Thread(target=asyncio.run, args=(send(),))
    sender.start(); T0 = time.monotonic()
    try:
        deadline = time.monotonic() + 120
        while len(acked) < KILL_AFTER and sender.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        print("kill at", time.monotonic() - T0, len(acked)); os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        with lock:
            acked_at_kill = set(acked)
        # the dead receiver's database: everything acknowledged so far is there (WAL recovered on open)
        assert acked_at_kill <= set(stored_uuids(state / "notify.db"))
        time.sleep(0.5)  # senders see refused connections and back off
        proc = start(state, port, log); print("restarted", time.monotonic() - T0, len(acked))
        sender.join(180); print("done", time.monotonic() - T0)
        assert not sender.is_alive(), "senders did not finish"
    finally:
        proc.terminate()
        proc.wait(10)

    assert len(results) == UNIQUE + REPEATS
    assert all(r.delivered for r in results), [r for r in results if not r.delivered][:3]
    assert KILL_AFTER <= len(acked_at_kill) < UNIQUE
    assert any(r.attempts > 1 for r in results)  # the kill really interrupted deliveries
    statuses = [r.response["status"] for r in results]
    assert statuses.count("accepted") + statuses.count("duplicate") == UNIQUE + REPEATS
    assert UNIQUE - SENDERS <= statuses.count("accepted") <= UNIQUE  # an ack lost in the kill comes back as duplicate
    uuids = stored_uuids(state / "notify.db")
    assert len(uuids) == len(set(uuids)) == UNIQUE
    assert set(uuids) == {e["metadata"]["uuid"] for e in unique}
