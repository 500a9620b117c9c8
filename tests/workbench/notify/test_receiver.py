"""The receiver end to end over HTTPS, on SQLite and on PostgreSQL: concurrent senders,
repeats, unknown types and fields kept, store failures answered 503 so CNS retries."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import httpx
import pytest

from workbench.config import Secret
from workbench.notify import NotifyService, notifications_frame
from workbench.sandbox.cns import CnsClient, CnsConfig, notification
from workbench.transport.backoff import RetryPolicy


def test_concurrent_deliveries_with_repeats_are_stored_once(service: NotifyService, server, creds) -> None:  # noqa: ANN001
    config = CnsConfig(f"{server.url}/oauth/token", f"{server.url}/notifications", creds.client_id,
                       Secret(creds.secret), str(server.tls.ca_bundle))
    unique = [notification("PAYOUT_UPDATE", {"n": i}) for i in range(200)]
    results = CnsClient.deliver_all(config, unique + unique[:40] + unique[:20], concurrency=8)
    assert all(r.delivered for r in results)
    assert Counter(r.response["status"] for r in results) == {"accepted": 200, "duplicate": 60}
    frame = notifications_frame(service.store)
    assert len(frame) == 200 and frame["uuid"].is_unique
    assert set(frame["uuid"]) == {e["metadata"]["uuid"] for e in unique}


def test_unknown_types_and_fields_are_kept(service: NotifyService, http: httpx.Client, token: str) -> None:
    body = {"metadata": {"uuid": "k-1", "type": "SOMETHING_NEW", "payloadVersion": "7.3", "region": "eu"},
            "payload": {"deep": {"list": [1, {"x": None}]}}, "envelopeExtra": True}
    r = http.post("/notifications", content=json.dumps(body), headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 200
    row = notifications_frame(service.store).iloc[0]
    assert (row["type"], row["payload_version"], row["metadata_region"]) == ("SOMETHING_NEW", "7.3", "eu")
    assert json.loads(row["body"]) == body


def test_missing_type_and_version_are_accepted(service: NotifyService, http: httpx.Client, token: str) -> None:
    r = http.post("/notifications", json={"metadata": {"uuid": "bare"}}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    row = notifications_frame(service.store).iloc[0]
    assert row["type"] is None and row["payload"] == "null"


def test_store_failure_answers_503_and_cns_retries(service: NotifyService, server, creds,  # noqa: ANN001
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.notify.errors import StoreError

    real_save = service.store.save
    failures = {"left": 2}

    def flaky_save(n):  # noqa: ANN001, ANN202
        if failures["left"]:
            failures["left"] -= 1
            import concurrent.futures as cf
            f: cf.Future = cf.Future()
            f.set_exception(StoreError("disk full"))
            return f
        return real_save(n)

    monkeypatch.setattr(service.store, "save", flaky_save)
    config = CnsConfig(f"{server.url}/oauth/token", f"{server.url}/notifications", creds.client_id,
                       Secret(creds.secret), str(server.tls.ca_bundle),
                       retry=RetryPolicy(max_attempts=5, base_seconds=0.01, cap_seconds=1.0))

    async def go():  # noqa: ANN202
        async with CnsClient(config) as cns:
            return await cns.deliver(notification("A", {}))

    result = asyncio.run(go())
    assert result.delivered and result.attempts == 3
    assert service.metrics.get("notify_notifications_total", "outcome", "store_error") == 2
    assert service.store.count() == 1
