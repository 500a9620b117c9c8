"""The CNS stand-in: token from client credentials, refresh before expiry, at-least-once
delivery with retries and backoff - against the real notification service and a flaky one."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from workbench.config import Secret, Settings
from workbench.notify import NotifyConfig, NotifyService, RequestToBookConfig, create_app
from workbench.sandbox.cns import CnsClient, CnsConfig, CnsError, notification
from workbench.serving import ensure_test_ca, serve_in_thread
from workbench.transport.backoff import RetryPolicy

FAST = RetryPolicy(max_attempts=5, base_seconds=0.01, cap_seconds=0.05)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[NotifyService, CnsConfig]]:
    service = NotifyService(tmp_path_factory.mktemp("cns"),
                            NotifyConfig(request_to_book=RequestToBookConfig(check_interval_seconds=0)))
    creds = service.credentials.create("cns-standin")
    tls = ensure_test_ca(service.state_dir)
    with serve_in_thread(create_app(service), tls) as server:
        yield service, CnsConfig(f"{server.url}/oauth/token", f"{server.url}/notifications", creds.client_id,
                                 Secret(creds.secret), str(tls.ca_bundle), retry=FAST)
    service.close()


def run(coro):  # noqa: ANN001, ANN201
    return asyncio.run(coro)


def test_delivers_with_one_token_and_repeats_are_acknowledged(live) -> None:  # noqa: ANN001
    service, config = live
    envs = [notification("PAYOUT_UPDATE", {"i": i}) for i in range(20)]

    async def go() -> tuple[list, int]:
        async with CnsClient(config, concurrency=4) as cns:
            out = await cns.deliver_many(envs + envs[:5], concurrency=4)
            return out, cns.tokens_fetched

    results, fetched = run(go())
    assert fetched == 1
    assert all(r.delivered and r.status_code == 200 for r in results)
    assert Counter(r.response["status"] for r in results) == {"accepted": 20, "duplicate": 5}
    stored = {r[1] for r in service.store.notification_rows()}
    assert {e["metadata"]["uuid"] for e in envs} <= stored


def test_token_is_refreshed_before_it_expires(live) -> None:  # noqa: ANN001
    _, config = live
    now = [1000.0]

    async def go() -> list[int]:
        async with CnsClient(config, clock=lambda: now[0]) as cns:
            counts = []
            await cns.deliver(notification("A", {}))
            counts.append(cns.tokens_fetched)
            now[0] += 3600 - 61  # still outside the 60 s margin
            await cns.deliver(notification("A", {}))
            counts.append(cns.tokens_fetched)
            now[0] += 2  # inside the margin: refreshed before expiry
            await cns.deliver(notification("A", {}))
            counts.append(cns.tokens_fetched)
            return counts

    assert run(go()) == [1, 1, 2]


def test_a_refused_token_is_replaced_once(live) -> None:  # noqa: ANN001
    _, config = live

    async def go():  # noqa: ANN202
        async with CnsClient(config) as cns:
            cns._token, cns._expires_at, cns._lifetime = "stale.token.value", 1e12, 3600.0
            return await cns.deliver(notification("A", {})), cns.tokens_fetched

    result, fetched = run(go())
    assert result.delivered and result.attempts == 2 and fetched == 1


def test_http_basic_client_authentication(live) -> None:  # noqa: ANN001
    _, config = live
    [result] = CnsClient.deliver_all(replace(config, basic_auth=True), [notification("A", {})])
    assert result.delivered


def test_wrong_secret_fails_without_retrying(live) -> None:  # noqa: ANN001
    _, config = live
    [result] = CnsClient.deliver_all(replace(config, client_secret=Secret("wrong")), [notification("A", {})])
    assert not result.delivered and "invalid_client" in result.error and result.attempts == 1


def test_a_400_is_final(live) -> None:  # noqa: ANN001
    _, config = live
    [result] = CnsClient.deliver_all(config, [{"metadata": {"type": "no uuid"}, "payload": {}}])
    assert not result.delivered and result.status_code == 400 and result.attempts == 1


class Flaky:
    """Token endpoint answering like the platform's own exchange ({"jwt", "ruid"}); the receiver
    fails each uuid a few times (503 with Retry-After, 500, or a stall past the timeout)."""

    def __init__(self, failures: list[str]) -> None:
        self.failures = failures
        self.seen: Counter[str] = Counter()
        self.token_calls = 0

    def app(self) -> Starlette:
        async def token(request: Request) -> JSONResponse:
            self.token_calls += 1
            return JSONResponse({"jwt": "opaque-token", "ruid": "r", "expires_in": 3600})

        async def notify(request: Request) -> JSONResponse:
            uuid = json.loads(await request.body())["metadata"]["uuid"]
            n = self.seen[uuid]
            self.seen[uuid] += 1
            if n < len(self.failures):
                kind = self.failures[n]
                if kind == "stall":
                    await asyncio.sleep(1.0)
                return JSONResponse({"error": kind}, 503 if kind == "503" else 500,
                                    headers={"Retry-After": "0"} if kind == "503" else None)
            return JSONResponse({"status": "accepted"})

        return Starlette(routes=[Route("/token", token, methods=["POST"]), Route("/n", notify, methods=["POST"])])


@pytest.mark.parametrize("failures", [["503"], ["500", "503"], ["stall"], ["500", "stall", "503"]])
def test_retries_5xx_and_timeouts_until_acknowledged(tmp_path, failures: list[str]) -> None:  # noqa: ANN001
    flaky = Flaky(failures)
    tls = ensure_test_ca(tmp_path)
    with serve_in_thread(flaky.app(), tls) as server:
        config = CnsConfig(f"{server.url}/token", f"{server.url}/n", "id", Secret("s"), str(tls.ca_bundle),
                           timeout_seconds=0.3, retry=FAST)
        results = CnsClient.deliver_all(config, [notification("A", {}) for _ in range(3)], concurrency=3)
    assert all(r.delivered and r.attempts == len(failures) + 1 for r in results)
    assert flaky.token_calls == 1


def test_gives_up_after_the_retry_budget(tmp_path) -> None:  # noqa: ANN001
    flaky = Flaky(["500"] * 10)
    tls = ensure_test_ca(tmp_path)
    with serve_in_thread(flaky.app(), tls) as server:
        config = CnsConfig(f"{server.url}/token", f"{server.url}/n", "id", Secret("s"), str(tls.ca_bundle),
                           retry=RetryPolicy(max_attempts=3, base_seconds=0.01, cap_seconds=0.02))
        [result] = CnsClient.deliver_all(config, [notification("A", {})])
    assert not result.delivered and result.attempts == 3 and result.status_code == 500


def test_unreachable_receiver_is_retried_then_reported(live) -> None:  # noqa: ANN001
    _, config = live
    dead = replace(config, notify_url="https://127.0.0.1:1/notifications",
                   retry=RetryPolicy(max_attempts=3, base_seconds=0.01, cap_seconds=0.02))
    [result] = CnsClient.deliver_all(dead, [notification("A", {})])
    assert not result.delivered and result.attempts == 3 and "connection failed" in result.error


def test_config_from_settings() -> None:
    settings = Settings.from_mapping({"WORKBENCH_NOTIFY_TOKEN_URL": "https://127.0.0.1:9/t",
                                      "WORKBENCH_NOTIFY_URL": "https://127.0.0.1:9/n",
                                      "WORKBENCH_NOTIFY_CLIENT_ID": "cns", "WORKBENCH_NOTIFY_CLIENT_SECRET": "s3"})
    config = CnsConfig.from_settings(settings)
    assert config.client_id == "cns" and config.client_secret.reveal() == "s3" and "s3" not in repr(config)
    with pytest.raises(CnsError, match="WORKBENCH_NOTIFY_CLIENT_SECRET"):
        CnsConfig.from_settings(Settings.from_mapping({}))


def test_notification_envelope_shape() -> None:
    env = notification("PAYOUT_UPDATE", {"a": 1})
    assert set(env) == {"metadata", "payload"}
    assert env["metadata"]["type"] == "PAYOUT_UPDATE" and env["metadata"]["payloadVersion"] == "1.0"
    assert len(env["metadata"]["uuid"]) == 36


def test_deliver_all_works_inside_a_running_event_loop(live) -> None:  # noqa: ANN001
    """As in Jupyter, where the cell already runs inside an event loop."""
    _, config = live

    async def cell() -> list:
        return CnsClient.deliver_all(config, [notification("A", {})])

    [result] = asyncio.run(cell())
    assert result.delivered
