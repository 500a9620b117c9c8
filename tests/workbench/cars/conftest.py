"""Shared fixtures: the car-search sandbox in-process (ASGI) and settings that reach it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from workbench.cars import CarSearch, CarSearchClient
from workbench.config import Secret, Settings
from workbench.sandbox.cars import DemandSandbox, DemandSandboxConfig, create_demand_app
from workbench.transport.backoff import RetryPolicy

API_KEY = "test-key-0123456789abcdef"
AFFILIATE_ID = "1234567"
BASE_URL = "https://demand.test"
NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class SyncASGITransport(httpx.BaseTransport):
    """Run an ASGI app in-process for a synchronous httpx client (httpx ships only the async one)."""

    def __init__(self, app: Any) -> None:
        self._asgi = httpx.ASGITransport(app=app)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        async def run() -> httpx.Response:
            resp = await self._asgi.handle_async_request(request)
            content = await resp.aread()
            return httpx.Response(resp.status_code, headers=resp.headers, content=content)

        return asyncio.run(run())


class FakeClock:
    """A clock tests move by hand (and that a fake ``sleep`` advances)."""

    def __init__(self, start: datetime = NOW) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {"demand_base_url": BASE_URL, "affiliate_id": AFFILIATE_ID, "api_key": Secret(API_KEY)}
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def sandbox_http(make_sandbox: Callable[..., tuple[Any, DemandSandbox]]
                 ) -> Iterator[Callable[..., tuple[httpx.Client, DemandSandbox]]]:
    """A plain httpx client on a fresh in-process sandbox, sending the right credentials by default."""
    clients: list[httpx.Client] = []

    def make(**config: Any) -> tuple[httpx.Client, DemandSandbox]:
        app, sandbox = make_sandbox(**config)
        client = httpx.Client(transport=SyncASGITransport(app), base_url=BASE_URL,
                              headers={"Authorization": f"Bearer {API_KEY}", "X-Affiliate-Id": AFFILIATE_ID})
        clients.append(client)
        return client, sandbox

    yield make
    for c in clients:
        c.close()


@pytest.fixture
def make_settings() -> Callable[..., Settings]:
    """Settings that reach the in-process sandbox; keyword arguments override fields."""
    return settings


@pytest.fixture
def api_key() -> str:
    return API_KEY


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def trip(clock: FakeClock) -> dict[str, Any]:
    """A valid search in the sandbox's inventory, two weeks after the fake clock's now."""
    start = (clock.now + timedelta(days=14)).replace(tzinfo=None, hour=10, minute=0)
    return {"country": "nl", "languages": ("en-gb",), "pickup": start, "dropoff": start + timedelta(days=4),
            "pickup_location": "AMS"}


@pytest.fixture
def make_sandbox(clock: FakeClock) -> Callable[..., tuple[Any, DemandSandbox]]:
    def make(**config: Any) -> tuple[Any, DemandSandbox]:
        config.setdefault("clock", clock)
        app = create_demand_app(DemandSandboxConfig(api_key=API_KEY, affiliate_id=AFFILIATE_ID, **config))
        return app, app.state.sandbox

    return make


@pytest.fixture
def make_session(tmp_path: Path, clock: FakeClock, make_sandbox: Callable[..., Any]
                 ) -> Iterator[Callable[..., tuple[CarSearch, DemandSandbox]]]:
    """A CarSearch wired in-process to a fresh sandbox; sleeps are recorded, not slept."""
    opened: list[CarSearch] = []

    def make(sandbox_config: dict[str, Any] | None = None, **session: Any) -> tuple[CarSearch, DemandSandbox]:
        app, sandbox = make_sandbox(**(sandbox_config or {}))
        conf = session.pop("settings", settings())
        session.setdefault("cache_path", tmp_path / "static.sqlite")
        client = CarSearchClient.from_settings(conf, transport=SyncASGITransport(app), clock=clock,
                                               sleep=lambda s: clock.advance(s),
                                               retry=session.pop("retry", RetryPolicy(jitter=False)))
        cs = CarSearch(conf, client=client, clock=clock, **session)
        opened.append(cs)
        return cs, sandbox

    yield make
    for cs in opened:
        cs.client.close()


@pytest.fixture
def mock_client() -> Callable[..., tuple[CarSearchClient, list[httpx.Request], list[float]]]:
    """A client over ``httpx.MockTransport(handler)``; returns it, the requests seen and the sleeps."""

    def make(handler: Callable[[httpx.Request], httpx.Response], retry: RetryPolicy | None = None,
             **overrides: Any) -> tuple[CarSearchClient, list[httpx.Request], list[float]]:
        seen: list[httpx.Request] = []
        sleeps: list[float] = []

        def record(request: httpx.Request) -> httpx.Response:
            seen.append(request)
            return handler(request)

        client = CarSearchClient.from_settings(settings(**overrides), transport=httpx.MockTransport(record),
                                               retry=retry or RetryPolicy(max_attempts=3, jitter=False),
                                               sleep=sleeps.append)
        return client, seen, sleeps

    return make
