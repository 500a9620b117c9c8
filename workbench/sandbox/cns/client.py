"""A stand-in for the platform's notification service (CNS): the OAuth2 client that pushes.

It does what the spec says CNS does (Authentication §2, E6, Events): obtains an access token
from the partner's token endpoint with client credentials, refreshes it before it expires, and
POSTs each notification with ``Authorization: Bearer``. Delivery is at-least-once: 5xx, 429,
timeouts and connection failures are retried with backoff (``Retry-After`` honoured); a 401
fetches a new token and tries again once; other 4xx answers are final.

    from workbench.sandbox.cns import CnsClient, CnsConfig, notification
    config = CnsConfig.from_settings(Settings.from_file("state/notify.env", notify_client_id=..., ...))
    results = CnsClient.deliver_all(config, [notification("PAYOUT_UPDATE", {"amount": "12.00"})])
"""

from __future__ import annotations

import asyncio
import base64
import json
import ssl
import time
import uuid as uuidlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import httpx

from workbench.aio import run_blocking
from workbench.config import Secret, Settings
from workbench.transport.backoff import RETRIABLE_STATUS, RetryPolicy, parse_retry_after


class CnsError(Exception):
    """The stand-in could not get a token (bad credentials, token endpoint unreachable)."""


def notification(type_: str, payload: Any, uuid: str | None = None, payload_version: str = "1.0") -> dict[str, Any]:
    """A notification envelope: ``{metadata: {uuid, type, payloadVersion}, payload}``."""
    return {"metadata": {"uuid": uuid or str(uuidlib.uuid4()), "type": type_, "payloadVersion": payload_version},
            "payload": payload}


@dataclass(frozen=True)
class CnsConfig:
    """Where to get tokens and deliver, and as whom."""

    token_url: str
    notify_url: str
    client_id: str
    client_secret: Secret
    ca_bundle: str = ""
    refresh_margin_seconds: float = 60.0
    timeout_seconds: float = 10.0
    retry: RetryPolicy = field(default_factory=lambda: RetryPolicy(max_attempts=8, base_seconds=0.2, cap_seconds=5.0))
    basic_auth: bool = False        # send the client credentials with HTTP Basic instead of the form

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> CnsConfig:
        missing = [name for name in ("notify_token_url", "notify_url", "notify_client_id", "notify_client_secret")
                   if not getattr(settings, name)]
        if missing:
            raise CnsError("settings lack " + ", ".join(f"WORKBENCH_{m.upper()}" for m in missing)
                           + " (see the service's notify.env and `workbench notify credentials create`)")
        return cls(settings.notify_token_url, settings.notify_url, settings.notify_client_id,
                   settings.notify_client_secret, settings.notify_ca_bundle, **overrides)


@dataclass(frozen=True)
class Delivery:
    """The outcome of delivering one notification."""

    uuid: str
    delivered: bool
    status_code: int | None       # the last HTTP status (None after a connection failure)
    attempts: int
    response: dict[str, Any] | None = None
    error: str = ""


class CnsClient:
    """Async client; use ``async with CnsClient(config) as cns: await cns.deliver(n)``."""

    def __init__(self, config: CnsConfig, concurrency: int = 8, clock: Callable[[], float] = time.monotonic,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.config = config
        self.clock = clock
        verify: ssl.SSLContext | bool = (ssl.create_default_context(cafile=config.ca_bundle)
                                         if config.ca_bundle else True)
        self._http = httpx.AsyncClient(verify=verify, timeout=config.timeout_seconds, transport=transport,
                                       limits=httpx.Limits(max_connections=max(1, concurrency),
                                                           max_keepalive_connections=max(1, concurrency)))
        self._token: str | None = None
        self._expires_at = 0.0
        self._lifetime = 0.0
        self._lock = asyncio.Lock()
        self.tokens_fetched = 0

    async def __aenter__(self) -> CnsClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # tokens

    def _fresh(self) -> bool:
        margin = min(self.config.refresh_margin_seconds, self._lifetime * 0.2)
        return self._token is not None and self.clock() < self._expires_at - margin

    async def token(self, replacing: str | None = None) -> str:
        """A valid access token, fetched again shortly before the current one expires.

        ``replacing`` names a token the receiver refused: a new one is fetched unless another
        task already replaced it.
        """
        async with self._lock:
            if self._token is not None and self._token != replacing and self._fresh():
                return self._token
            self._token, self._lifetime = await self._fetch_token()
            self._expires_at = self.clock() + self._lifetime
            self.tokens_fetched += 1
            return self._token

    async def _fetch_token(self) -> tuple[str, float]:
        cfg = self.config
        form = {"grant_type": "client_credentials"}
        headers = {}
        if cfg.basic_auth:
            raw = f"{_form_quote(cfg.client_id)}:{_form_quote(cfg.client_secret.reveal())}"
            headers["Authorization"] = "Basic " + base64.b64encode(raw.encode()).decode()
        else:
            form.update(client_id=cfg.client_id, client_secret=cfg.client_secret.reveal())
        attempt = 0
        while True:
            attempt += 1
            try:
                r = await self._http.post(cfg.token_url, data=form, headers=headers)
            except httpx.TransportError as exc:
                if not cfg.retry.should_retry(attempt):
                    raise CnsError(f"token endpoint `{cfg.token_url}` unreachable: {exc!r}") from None
                await asyncio.sleep(cfg.retry.delay(attempt))
                continue
            if r.status_code == 200:
                data = r.json()
                token = data.get("access_token") or data.get("jwt")  # the platform's own exchange says "jwt"
                if not isinstance(token, str) or not token:
                    raise CnsError(f"token endpoint answered without an access token: {sorted(data)}")
                return token, float(data.get("expires_in") or _jwt_lifetime(token))
            if r.status_code in RETRIABLE_STATUS and cfg.retry.should_retry(attempt):
                await asyncio.sleep(cfg.retry.delay(attempt, parse_retry_after(r.headers.get("retry-after"))))
                continue
            raise CnsError(f"token endpoint refused the client `{cfg.client_id}`: HTTP {r.status_code} "
                           f"{_error_text(r)}")

    # delivery

    async def deliver(self, envelope: dict[str, Any]) -> Delivery:
        """POST one notification until it is acknowledged (2xx) or the retry budget is spent."""
        cfg = self.config
        body = json.dumps(envelope, separators=(",", ":")).encode()
        uuid = str((envelope.get("metadata") or {}).get("uuid", ""))
        attempt, renewed, status = 0, False, None
        while True:
            attempt += 1
            try:
                token = await self.token()
                r = await self._http.post(cfg.notify_url, content=body, headers={
                    "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            except CnsError as exc:
                return Delivery(uuid, False, status, attempt, error=str(exc))
            except httpx.TransportError as exc:
                status = None
                if not cfg.retry.should_retry(attempt):
                    return Delivery(uuid, False, None, attempt, error=f"connection failed: {exc!r}")
                await asyncio.sleep(cfg.retry.delay(attempt))
                continue
            status = r.status_code
            if 200 <= status < 300:
                return Delivery(uuid, True, status, attempt, _json(r))
            if status == 401 and not renewed:
                renewed = True
                try:
                    await self.token(replacing=token)
                except CnsError as exc:
                    return Delivery(uuid, False, status, attempt, error=str(exc))
                continue
            if status in RETRIABLE_STATUS and cfg.retry.should_retry(attempt):
                await asyncio.sleep(cfg.retry.delay(attempt, parse_retry_after(r.headers.get("retry-after"))))
                continue
            return Delivery(uuid, False, status, attempt, _json(r), error=f"HTTP {status} {_error_text(r)}")

    async def deliver_many(self, envelopes: Iterable[dict[str, Any]], concurrency: int = 8,
                           on_result: Callable[[Delivery], None] | None = None) -> list[Delivery]:
        """Deliver with up to ``concurrency`` in flight; results in input order."""
        items = list(envelopes)
        results: list[Delivery | None] = [None] * len(items)
        cursor = iter(range(len(items)))

        async def worker() -> None:
            for i in cursor:
                results[i] = await self.deliver(items[i])
                if on_result is not None:
                    on_result(results[i])  # type: ignore[arg-type]

        await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, len(items) or 1)))))
        return [r for r in results if r is not None]

    @classmethod
    def deliver_all(cls, config: CnsConfig, envelopes: Iterable[dict[str, Any]], concurrency: int = 8) -> list[Delivery]:
        """Blocking helper: deliver ``envelopes`` and return the outcomes.

        Works inside Jupyter too: when this thread already runs an event loop, the deliveries
        run on their own loop in a worker thread.
        """
        async def run() -> list[Delivery]:
            async with cls(config, concurrency=concurrency) as client:
                return await client.deliver_many(envelopes, concurrency)
        return run_blocking(run)


def _jwt_lifetime(token: str) -> float:
    """Seconds until ``exp`` read (unverified) from a JWT; one hour if unreadable."""
    try:
        part = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
        return max(0.0, float(claims["exp"]) - time.time())
    except (IndexError, ValueError, KeyError, TypeError):
        return 3600.0


def _form_quote(text: str) -> str:
    from urllib.parse import quote_plus
    return quote_plus(text)


def _json(r: httpx.Response) -> dict[str, Any] | None:
    try:
        data = r.json()
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _error_text(r: httpx.Response) -> str:
    data = _json(r) or {}
    return " ".join(str(data[k]) for k in ("error", "error_description") if k in data) or r.text[:200]
