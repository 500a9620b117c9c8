"""Token requests are limited per client id and address (configurable; 0 turns it off)."""

from __future__ import annotations

import httpx
import pytest

from workbench.notify import NotifyConfig, NotifyService, RequestToBookConfig, TokenConfig
from workbench.notify.ratelimit import KeyedRateLimiter


@pytest.fixture
def database_url() -> None:
    return None


def form(creds) -> dict[str, str]:  # noqa: ANN001
    return {"grant_type": "client_credentials", "client_id": creds.client_id, "client_secret": creds.secret}


@pytest.fixture
def config() -> NotifyConfig:
    return NotifyConfig(tokens=TokenConfig(requests_per_minute=6, burst=3),
                        request_to_book=RequestToBookConfig(check_interval_seconds=0))


def test_token_requests_are_rate_limited_per_client(http: httpx.Client, creds, service: NotifyService) -> None:  # noqa: ANN001
    codes = [http.post("/oauth/token", data=form(creds)).status_code for _ in range(5)]
    assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
    r = http.post("/oauth/token", data=form(creds))
    assert r.json()["error"] == "temporarily_unavailable" and int(r.headers["retry-after"]) >= 1
    other = service.credentials.create("cns-other")
    assert http.post("/oauth/token", data=form(other)).status_code == 200  # another client is not held back




def test_bucket_refills_with_time() -> None:
    now = [0.0]
    limiter = KeyedRateLimiter(per_minute=60, burst=2, clock=lambda: now[0])
    assert [limiter.acquire("a") for _ in range(3)][:2] == [0.0, 0.0]
    assert limiter.acquire("a") == pytest.approx(1.0, abs=0.01)
    now[0] += 1.0
    assert limiter.acquire("a") == 0.0
    assert KeyedRateLimiter(per_minute=0, burst=1).acquire("x") == 0.0


def test_bucket_memory_is_bounded() -> None:
    limiter = KeyedRateLimiter(per_minute=60, burst=1, max_keys=10)
    for i in range(100):
        limiter.acquire(f"k{i}")
    assert len(limiter._buckets) == 10
