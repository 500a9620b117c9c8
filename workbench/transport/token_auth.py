"""Token authentication (the platform's only scheme since 2026-01-01): a machine account of type
"API token" exchanges its client id and secret for a JWT valid about an hour, sent as
``Authorization: Bearer <jwt>`` on every call.

:class:`TokenSource` hands out the account's token: the one this process holds while it is fresh,
else the one in the shared cache (:mod:`workbench.transport.token_cache`) if another process
renewed it, else a new exchange, within the budget of 30 an hour (the 31st is never attempted:
:class:`~workbench.transport.errors.TokenBudgetExhausted`). :class:`TokenAuth` is the ``httpx.Auth``
that puts it on each call; a 401 renews it once and sends that call once more.

The exchange's bodies are not shown in the platform's published pages. What independent clients
do is sent and read here: ``POST`` JSON ``{"client_id", "client_secret"}``, answer ``{"jwt", "ruid"}``;
an OAuth2-style ``{"access_token", "expires_in"}`` answer is read too. The expiry is the JWT's
``exp`` claim (its lifetime, ``exp - iat``, counted from when the answer came, so a clock that is
off does not matter); the JWT is decoded **without verifying its signature**, only to read the
claims: the client cannot verify the platform's key, and does not need to (the platform does).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from collections.abc import AsyncGenerator, Callable, Generator, Mapping
from typing import Any

import httpx
import jwt

from workbench.config import Connection, Secret
from workbench.transport.errors import (
    ConfigurationError,
    TokenBudgetExhausted,
    TokenRefused,
    TokenUnavailable,
)
from workbench.transport.token_cache import BUDGET, CachedToken, CacheState, TokenCache

#: the platform says a token lives one hour; used when an answer says nothing of its expiry
DEFAULT_LIFETIME = 3600.0
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


def read_exchange_answer(body: bytes, received_at: float) -> CachedToken:
    """The token of an exchange's answer (``{"jwt"}`` or ``{"access_token", "expires_in"}``).

    Raises ``ValueError`` when the answer holds no token."""
    data = json.loads(body or b"null")
    if isinstance(data, dict) and isinstance(data.get("data"), dict):
        data = data["data"]
    if not isinstance(data, dict):
        raise ValueError("the answer is not a JSON object")
    raw = data.get("jwt") or data.get("access_token") or data.get("token")
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError("the answer has no `jwt` (nor `access_token`)")
    lifetime = _lifetime(raw, data.get("expires_in"))
    return CachedToken(Secret(raw.strip()), received_at, received_at + lifetime)


def _lifetime(raw: str, expires_in: object) -> float:
    try:
        claims = jwt.decode(raw, options={"verify_signature": False})
    except jwt.PyJWTError:
        claims = {}
    exp, iat = claims.get("exp"), claims.get("iat")
    if isinstance(exp, (int, float)) and isinstance(iat, (int, float)) and exp > iat:
        return float(exp - iat)
    if isinstance(exp, (int, float)):
        return max(0.0, float(exp) - time.time())
    try:
        return float(expires_in) if expires_in is not None else DEFAULT_LIFETIME  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return DEFAULT_LIFETIME


class TokenSource:
    """The token of the account ``connection`` names (``auth_url``, ``client_id``, ``client_secret``).

    ``verify`` is the client's TLS context; ``transport`` (tests: ``httpx.ASGITransport``) carries the
    exchange as it carries the calls; ``cache`` defaults to the shared file of the account."""

    def __init__(self, connection: Connection, *, verify: Any = True, transport: httpx.AsyncBaseTransport | None = None,
                 timeout: float = 60.0, headers: Mapping[str, str] | None = None, cache: TokenCache | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        missing = [name for name, value in (("WORKBENCH_AUTH_URL", connection.auth_url),
                                            ("WORKBENCH_CLIENT_ID", connection.client_id),
                                            ("WORKBENCH_CLIENT_SECRET", connection.client_secret)) if not value]
        if missing:
            raise ConfigurationError(f"set {', '.join(missing)}: token authentication needs a machine account of "
                                     "type API token (its client id and secret) and the URL of the token exchange "
                                     "(docs/live-platform.md); WORKBENCH_AUTH=basic uses a username and password")
        if not connection.auth_url.lower().startswith("https://"):
            raise ConfigurationError(f"WORKBENCH_AUTH_URL `{connection.auth_url}` must start with https://")
        self.url, self.client_id, self._secret = connection.auth_url, connection.client_id, connection.client_secret
        self.verify, self.transport, self.timeout = verify, transport, timeout
        self.headers = dict(headers or {})
        self.clock = clock
        self.cache = cache or TokenCache(self.url, self.client_id, connection.token_cache or None, clock=clock)
        self._held: CachedToken | None = None
        self._hold_until = 0.0  # a token past its renewal is kept until then when the budget is spent
        self._lock: asyncio.Lock | None = None

    def __repr__(self) -> str:
        return f"TokenSource(url={self.url!r}, client_id={self.client_id!r})"

    def _ready(self, stale: Secret | None) -> Secret | None:
        held, now = self._held, self.clock()
        if held is not None and held.value != stale and (held.fresh(now) or (now < self._hold_until
                                                                             and held.usable(now))):
            return held.value
        return None

    async def token(self, stale: Secret | None = None) -> Secret:
        """A token to send; ``stale``: one the platform just refused (never handed out again)."""
        ready = self._ready(stale)
        if ready is not None:
            return ready
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            ready = self._ready(stale)
            if ready is not None:
                return ready
            await asyncio.to_thread(self.cache.lock.acquire)
            try:
                return await self._under_lock(stale)
            finally:
                self.cache.lock.release()

    async def _under_lock(self, stale: Secret | None) -> Secret:
        state, now = self.cache.read(), self.clock()
        cached = state.token
        if cached is not None and cached.value != stale and cached.fresh(now):
            self._held = cached
            return cached.value
        wait = self.cache.next_allowed(state.exchanges, now)
        if wait is not None:
            if cached is not None and cached.value != stale and cached.usable(now):
                self._held, self._hold_until = cached, wait  # renewal waits for the budget
                return cached.value
            raise self._spent(wait)
        state.exchanges.append(now)
        self.cache.write(state)  # counted before it is sent: a lost answer still used the budget
        try:
            fresh = await self._exchange()
        except _NotSent as exc:
            state.exchanges.remove(now)
            self.cache.write(state)
            raise TokenUnavailable(f"could not reach the token exchange `{self.url}` ({exc}): try again later, or "
                                   "check WORKBENCH_AUTH_URL (and WORKBENCH_CA_BUNDLE)") from None
        self.cache.write(CacheState(fresh, state.exchanges))
        self._held = fresh
        return fresh.value

    def _spent(self, wait: float) -> TokenBudgetExhausted:
        at = dt.datetime.fromtimestamp(wait, dt.UTC)
        return TokenBudgetExhausted(
            f"no token: machine account `{self.client_id}` made its {BUDGET} token exchanges of the last hour (the "
            f"platform's limit); the next is allowed at {at:%Y-%m-%d %H:%M:%S} UTC: run the command again then "
            "(nothing more was sent; the journal says what went)", at)

    async def _exchange(self) -> CachedToken:
        body = {"client_id": self.client_id, "client_secret": self._secret.reveal()}
        client = httpx.AsyncClient(verify=self.verify, transport=self.transport, timeout=self.timeout,
                                   headers=self.headers, follow_redirects=False)
        try:
            response = await client.post(self.url, json=body, headers={"Accept": "application/json"})
        except _NOT_SENT as exc:
            raise _NotSent(" ".join(str(exc).split())[:160] or type(exc).__name__) from None
        except httpx.TransportError as exc:
            raise TokenUnavailable(f"the token exchange `{self.url}` did not answer ({type(exc).__name__}): try "
                                   "again later") from None
        finally:
            if self.transport is None:  # a transport given by the caller stays open for its client
                await client.aclose()
        return self._answer(response, self.clock())

    def _answer(self, response: httpx.Response, received_at: float) -> CachedToken:
        status = response.status_code
        if status == 429:
            raise self._spent(received_at + float(response.headers.get("retry-after", "60") or 60))
        if status in (400, 401, 403):
            raise TokenRefused(f"the token exchange `{self.url}` refused machine account `{self.client_id}` (HTTP "
                               f"{status}{_said(response)}): check WORKBENCH_CLIENT_ID and WORKBENCH_CLIENT_SECRET "
                               "(a machine account of type API token)")
        if status != 200:
            raise TokenUnavailable(f"the token exchange `{self.url}` answered HTTP {status}{_said(response)}: try "
                                   "again later")
        try:
            return read_exchange_answer(response.content, received_at)
        except ValueError as exc:
            raise TokenUnavailable(f"the token exchange `{self.url}` answered something unreadable ({exc}); "
                                   "docs/live-platform.md says what is expected") from None


class _NotSent(Exception):
    """The exchange did not leave this machine (connection refused): it does not count."""


def _said(response: httpx.Response) -> str:
    """What an error answer says (its ``message``/``error``), short, never the body as such."""
    try:
        data = response.json()
    except ValueError:
        return ""
    text = next((str(data[k]) for k in ("message", "error_description", "error") if isinstance(data, dict)
                 and data.get(k)), "")
    text = " ".join(text.split())[:160]
    return f": {text}" if text else ""


class TokenAuth(httpx.Auth):
    """``Authorization: Bearer <token>`` on every call; a 401 renews the token once and sends the call again."""

    def __init__(self, source: TokenSource) -> None:
        self.source = source

    def __repr__(self) -> str:
        return f"TokenAuth({self.source!r})"

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        token = await self.source.token()
        request.headers["Authorization"] = f"Bearer {token.reveal()}"
        response = yield request
        if response.status_code == 401:
            renewed = await self.source.token(stale=token)
            request.headers["Authorization"] = f"Bearer {renewed.reveal()}"
            yield request

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        raise RuntimeError("TokenAuth renews tokens asynchronously: use it with httpx.AsyncClient (PlatformClient, "
                           "or SyncPlatformClient from blocking code)")
