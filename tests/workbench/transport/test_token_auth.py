"""Token authentication against an exchange and a platform mounted in-process (the real sandbox process over
HTTPS is ``tests/workbench/sandbox/test_token_exchange.py``): the answer's shapes, one token per account
shared through the cache, renewal before the end, the 30-an-hour budget, a 401 renewing once."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path

import httpx
import jwt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.config import Secret, Settings
from workbench.transport import (
    ConfigurationError,
    Outcome,
    PlatformClient,
    SendItem,
    TokenAuth,
    TokenBudgetExhausted,
    TokenCache,
    TokenRefused,
    TokenSource,
    TokenUnavailable,
)
from workbench.transport.token_auth import read_exchange_answer
from workbench.transport.token_cache import BUDGET, CachedToken, CacheState

AUTH_URL = "https://auth.test/token-based-authentication/exchange"
NS = 'xmlns="http://www.opentravel.org/OTA/2003/05"'
T0 = 1_800_000_000.0
KEY = "an HMAC key of at least 32 bytes long"  # the client never verifies it


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


class Platform:
    """An exchange (``POST .../exchange``: JSON in, ``{"jwt", "ruid"}`` out) and a rates endpoint that takes
    only the tokens it issued and has not revoked."""

    def __init__(self, clock: Clock, lifetime: int = 3600, status: int = 200) -> None:
        self.clock, self.lifetime, self.status = clock, lifetime, status
        self.exchanges: list[dict] = []
        self.calls: list[str] = []
        self.revoked: set[str] = set()
        self.refuse_all = False

    def issue(self) -> str:
        iat = int(self.clock())
        return jwt.encode({"sub": "c1", "iat": iat, "exp": iat + self.lifetime, "n": len(self.exchanges)}, KEY,
                          algorithm="HS256")

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/exchange"):
            self.exchanges.append(json.loads(request.content))
            answer = {"jwt": self.issue(), "ruid": "r"} if self.status == 200 else {"message": "bad client"}
            return httpx.Response(self.status, json=answer)
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        self.calls.append(token)
        ok = bool(token) and token not in self.revoked and not self.refuse_all
        return rates_answer(200 if ok else 401, "<Success/>" if ok else '<Errors><Error ShortText="expired"/></Errors>')


def rates_answer(status: int, inner: str) -> httpx.Response:
    return httpx.Response(status, content=f"<OTA_HotelRateAmountNotifRS {NS}>{inner}</OTA_HotelRateAmountNotifRS>"
                                          .encode(), headers={"Content-Type": "application/xml"})


def settings(tmp_path: Path, **changes: object) -> Settings:
    return Settings(base_url="https://platform.test", auth_url=AUTH_URL, client_id="c1",
                    client_secret=Secret("the-secret"), token_cache=str(tmp_path / "tokens")).with_(**changes)


def source(tmp_path: Path, platform: Platform, clock: Clock, **changes: object) -> TokenSource:
    s = settings(tmp_path, **changes)
    cache = TokenCache(s.auth_url, s.client_id, s.token_cache, clock=clock)
    return TokenSource(s.connection, transport=httpx.MockTransport(platform), cache=cache, clock=clock)


@pytest.mark.parametrize(("answer", "lifetime"), [
    ({"jwt": jwt.encode({"iat": 100, "exp": 3700}, KEY, algorithm="HS256"), "ruid": "r"}, 3600),
    ({"jwt": jwt.encode({"iat": 100, "exp": 400}, KEY, algorithm="HS256")}, 300),        # exp - iat, any clock
    ({"access_token": "opaque-token", "expires_in": 1800, "token_type": "Bearer"}, 1800),  # OAuth2 style
    ({"data": {"jwt": jwt.encode({"iat": 1, "exp": 61}, KEY, algorithm="HS256")}}, 60),   # in an envelope
    ({"access_token": "opaque-token"}, 3600),                                             # the platform's hour
])
def test_the_exchange_answer_gives_the_token_and_its_lifetime(answer: dict, lifetime: float) -> None:
    token = read_exchange_answer(json.dumps(answer).encode(), T0)
    assert token.value.reveal() == (answer.get("jwt") or answer.get("access_token") or answer["data"]["jwt"])
    assert (token.issued_at, token.lifetime) == (T0, lifetime)
    assert token.value.reveal() not in repr(token)


@pytest.mark.parametrize("body", [b"", b"[]", b'{"ruid": "r"}', b'{"jwt": ""}', b"<html/>"])
def test_an_answer_without_a_token_is_refused(body: bytes) -> None:
    with pytest.raises(ValueError):
        read_exchange_answer(body, T0)


@given(lifetime=st.floats(min_value=1, max_value=7200))
def test_renewal_comes_before_the_smaller_of_5_minutes_and_a_tenth_of_the_lifetime(lifetime: float) -> None:
    token = CachedToken(Secret("t"), T0, T0 + lifetime)
    assert token.renew_at == pytest.approx(T0 + lifetime - min(300.0, lifetime / 10))
    assert token.fresh(token.renew_at - 1e-3) and not token.fresh(token.renew_at)


@given(st.lists(st.floats(min_value=0, max_value=3 * 3600), max_size=80))
def test_the_budget_never_allows_a_31st_exchange_within_an_hour(times: list[float]) -> None:
    cache = TokenCache(AUTH_URL, "c", Path(os.environ.get("TMPDIR", "/tmp")) / "wb-budget-prop")
    done: list[float] = []
    for t in sorted(times):
        if cache.next_allowed(done, t) is None:
            done.append(t)
        else:
            assert cache.next_allowed(done, t) > t  # type: ignore[operator]
    assert all(sum(1 for u in done if s <= u < s + 3600) <= BUDGET for s in done)


def test_processes_of_one_account_share_one_token_and_renew_it_once(tmp_path: Path) -> None:
    clock = Clock()
    platform = Platform(clock, lifetime=3600)
    first, second = source(tmp_path, platform, clock), source(tmp_path, platform, clock)
    a = asyncio.run(first.token())
    assert asyncio.run(second.token()) == a and len(platform.exchanges) == 1  # the second read the cache
    assert platform.exchanges[0] == {"client_id": "c1", "client_secret": "the-secret"}
    clock.now += 3600 - 300 - 1  # still fresh: more than 5 minutes left
    assert asyncio.run(second.token()) == a and len(platform.exchanges) == 1
    clock.now += 2  # less than 5 minutes left: renewed once, by whichever process comes first
    b = asyncio.run(second.token())
    assert b != a and asyncio.run(first.token()) == b and len(platform.exchanges) == 2


def test_the_cache_file_is_private_and_a_damaged_one_is_ignored(tmp_path: Path) -> None:
    clock = Clock()
    platform = Platform(clock)
    src = source(tmp_path, platform, clock)
    asyncio.run(src.token())
    path = src.cache.path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert "the-secret" not in path.read_text()
    path.write_text("{not json")
    assert src.cache.read() == CacheState()


def test_the_31st_exchange_of_the_hour_is_never_attempted(tmp_path: Path) -> None:
    clock = Clock()
    platform = Platform(clock)
    for _ in range(BUDGET):  # each time a new process, and the token lost (the cache keeps the count)
        src = source(tmp_path, platform, clock)
        src.cache.write(CacheState(None, src.cache.read().exchanges))
        asyncio.run(src.token())
        clock.now += 60
    assert len(platform.exchanges) == BUDGET
    src = source(tmp_path, platform, clock)
    src.cache.write(CacheState(None, src.cache.read().exchanges))
    with pytest.raises(TokenBudgetExhausted) as err:
        asyncio.run(src.token())
    assert len(platform.exchanges) == BUDGET
    assert err.value.next_allowed.timestamp() == T0 + 3600
    assert "30 token exchanges of the last hour" in str(err.value) and "the-secret" not in str(err.value)
    clock.now = T0 + 3600 + 1  # the first one has aged out of the hour
    asyncio.run(src.token())
    assert len(platform.exchanges) == BUDGET + 1


def test_a_token_due_for_renewal_is_still_used_while_the_budget_is_spent(tmp_path: Path) -> None:
    clock = Clock()
    platform = Platform(clock, lifetime=3600)
    src = source(tmp_path, platform, clock)
    token = asyncio.run(src.token())
    src.cache.write(CacheState(src.cache.read().token, [T0 + i for i in range(BUDGET)]))
    clock.now = T0 + 3600 - 100  # due for renewal, not expired
    assert asyncio.run(src.token()) == token and len(platform.exchanges) == 1
    clock.now = T0 + 3600 - 1  # expired (within the safety margin): no token to send
    with pytest.raises(TokenBudgetExhausted):
        asyncio.run(src.token())


def test_a_401_renews_the_token_once_and_sends_the_call_once_more(tmp_path: Path) -> None:
    clock = Clock()
    platform = Platform(clock)
    s = settings(tmp_path)
    src = source(tmp_path, platform, clock)
    client = PlatformClient(s, auth=TokenAuth(src), transport=httpx.MockTransport(platform))

    async def main(n: int):
        async with client:
            return [await client.send("OTA_HotelRateAmountNotif", b"<x/>") for _ in range(n)]

    first = asyncio.run(main(1))[0]
    assert first.ok and len(platform.exchanges) == 1
    platform.revoked.add(platform.calls[-1])  # the platform drops the token before its end
    client = PlatformClient(s, auth=TokenAuth(src), transport=httpx.MockTransport(platform))
    results = asyncio.run(main(2))
    assert all(r.ok for r in results) and len(platform.exchanges) == 2
    assert len(platform.calls) == 4  # 1, then a 401 and its resend, then 1 with the renewed token

    refuses = Platform(clock)  # every token refused: one renewal, then the 401 stands
    refuses.refuse_all = True
    other = source(tmp_path / "other", refuses, clock)
    client = PlatformClient(s, auth=TokenAuth(other), transport=httpx.MockTransport(refuses))
    refused = asyncio.run(main(1))[0]
    assert refused.status == 401 and refused.fatal and len(refuses.calls) == 2 and len(refuses.exchanges) == 2


def test_the_exchange_refusing_the_account_names_the_settings_not_the_secret(tmp_path: Path) -> None:
    clock = Clock()
    src = source(tmp_path, Platform(clock, status=401), clock)
    with pytest.raises(TokenRefused, match="WORKBENCH_CLIENT_ID and WORKBENCH_CLIENT_SECRET") as err:
        asyncio.run(src.token())
    assert "the-secret" not in str(err.value) and "bad client" in str(err.value)
    down = source(tmp_path / "down", Platform(clock, status=503), clock)
    with pytest.raises(TokenUnavailable, match="HTTP 503"):
        asyncio.run(down.token())


def test_an_exchange_that_never_left_the_machine_does_not_count(tmp_path: Path) -> None:
    clock = Clock()
    s = settings(tmp_path)

    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    cache = TokenCache(s.auth_url, s.client_id, s.token_cache, clock=clock)
    src = TokenSource(s.connection, transport=httpx.MockTransport(refused), cache=cache, clock=clock)
    with pytest.raises(TokenUnavailable, match="could not reach the token exchange"):
        asyncio.run(src.token())
    assert cache.read().exchanges == []


def test_no_token_stops_a_run_and_the_items_taken_are_reported_not_sent(tmp_path: Path) -> None:
    clock = Clock()
    platform = Platform(clock)
    s = settings(tmp_path, max_in_flight=4)
    src = source(tmp_path, platform, clock)
    src.cache.write(CacheState(None, [T0 - 10 - i for i in range(BUDGET)]))  # the budget is spent
    client = PlatformClient(s, auth=TokenAuth(src), transport=httpx.MockTransport(platform))
    delivered: list[object] = []
    results: list = []

    async def main():
        async with client:
            return await client.send_many([SendItem("OTA_HotelRateAmountNotif", b"<x/>", i) for i in range(10)],
                                          on_result=lambda r: (delivered.append(r.context), results.append(r)))
    with pytest.raises(TokenBudgetExhausted, match=r"next is allowed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"):
        asyncio.run(main())
    assert platform.calls == [] and platform.exchanges == []
    assert 1 <= len(delivered) <= 4  # the items taken: each told it was not sent; the rest never taken
    assert all(r.outcome is Outcome.FAILED and r.attempts == 0 and r.status is None and "no token" in (r.error or "")
               for r in results)


@pytest.mark.parametrize(("changes", "needle"), [
    ({"client_id": ""}, "WORKBENCH_CLIENT_ID"),
    ({"client_secret": Secret("")}, "WORKBENCH_CLIENT_SECRET"),
    ({"auth_url": ""}, "WORKBENCH_AUTH_URL"),
    ({"auth_url": "http://auth.test/x"}, "must start with https://"),
])
def test_token_settings_problems_are_explained(tmp_path: Path, changes: dict, needle: str) -> None:
    with pytest.raises(ConfigurationError, match=needle):
        PlatformClient(settings(tmp_path, **changes))
