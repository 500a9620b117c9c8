"""The platform sandbox's state and the pipeline every platform call goes through:
Host -> auth (Basic; with ``auth="platform"`` a Bearer token too, Basic refused from 2026-01-01) ->
limits -> the platform's calendar (``auth="platform"``: 400 for a sunset operation or version,
warning headers for a deprecated one) -> faults -> Content-Encoding -> Content-Type -> body (XML or
JSON) -> Accept-Version -> the endpoint's handler. Each answer carries a ``ruid`` and is written to
the request log, with the method and the path called; so is each token exchange (endpoint
``token-exchange``).

The pipeline knows no operation: the endpoints and handlers come from the operation families the
app gives it (:mod:`workbench.sandbox.platform.families`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeVar, cast
from zoneinfo import ZoneInfo

from starlette.requests import Request
from starlette.responses import Response

from workbench.sandbox.platform.calls import Call, Family, Handler, PlatformState, Reply
from workbench.sandbox.platform.config import SandboxConfig, registry_asked, rooms_seed
from workbench.sandbox.platform.content_state import ContentStore
from workbench.sandbox.platform.dates import BEARER_CHALLENGE, calendar_headers, refuse_sunset_basic
from workbench.sandbox.platform.endpoints import GENERAL, JSON, PCI, Endpoint, limits_of
from workbench.sandbox.platform.faults import FaultInjector
from workbench.sandbox.platform.fx import read_fx_table
from workbench.sandbox.platform.issues import Misuse
from workbench.sandbox.platform.limits import SlidingWindowLimits, retry_after_header
from workbench.sandbox.platform.protocol import (
    check_basic_auth,
    check_content_type,
    decode_body,
    error_body,
    json_body,
    media_type,
    new_ruid,
    normalize_host,
    ota_body,
    parse_json_body,
    parse_xml_body,
)
from workbench.sandbox.platform.rate_rules import RateRules
from workbench.sandbox.platform.room_codes import default_room_codes
from workbench.sandbox.platform.room_state import RoomTypeStore
from workbench.sandbox.platform.seed import load_registry
from workbench.sandbox.platform.store import Store
from workbench.sandbox.platform.tokens import TokenIssuer, TokenProblem, new_key, new_secret
from workbench.transport.operations import EXCHANGE_PATH

CET = ZoneInfo("Europe/Amsterdam")
T = TypeVar("T")


@dataclass
class _Visit:
    """One platform call on its way through the pipeline: what the request log records."""

    endpoint: Endpoint
    request: Request
    ruid: str
    started: float
    host: str
    account: str = ""
    headers: dict[str, str] | None = None  # what the answer carries besides (the calendar's warnings)


class Sandbox:
    """State, rules, limits and faults behind the app (``app.state.sandbox``), serving the endpoints of
    ``families``; ``handlers`` (by endpoint name) replace or add to theirs."""

    def __init__(self, config: SandboxConfig, handlers: Mapping[str, Handler] | None = None, *,
                 families: Iterable[Family] = ()) -> None:
        self.config = config
        families = tuple(families)
        self.endpoints = _endpoints(families)
        self.handlers: dict[str, Handler] = {name: h for f in families for name, h in f.handlers.items()}
        self.handlers.update(handlers or {})
        db = Path(config.state_dir) / "sandbox.sqlite3" if config.state_dir else None
        self.store = Store(db)
        _seed(self.store, config)
        self.fx = read_fx_table(config.fx_path)
        self.registry = self.store.registry()
        self.rules = RateRules(self.registry, self.fx)
        self.room_types = RoomTypeStore(self.store)
        self.room_types.seed_if_new(self.registry, rooms_seed(config))
        self.room_codes = default_room_codes()
        self.content = ContentStore(self.store)
        self.limits = SlidingWindowLimits(config.limits, config.limit_window, defaults=limits_of(self.endpoints))
        self.faults = FaultInjector(config.faults)
        username, stored = self.store.account(config.username)
        self.accounts = {username: config.password or stored}
        self.tokens = TokenIssuer(self.store.kept("token_key", new_key), config.client_id,
                                  config.client_secret or self.store.kept("client_secret", new_secret),
                                  config.token_lifetime) if config.auth == "platform" else None
        self.hosts = {GENERAL: normalize_host(config.general_host), PCI: normalize_host(config.pci_host)}
        self._owned: dict[Callable[[Store], Any], Any] = {}

    def set_port(self, port: int) -> None:
        """Bind the host names to the port actually served (known only once listening)."""
        for key, name in ((GENERAL, self.config.general_host), (PCI, self.config.pci_host)):
            host = name.rsplit(":", 1)[0] if name.count(":") == 1 else name
            self.hosts[key] = normalize_host(f"{host}:{port}")

    @property
    def username(self) -> str:
        return next(iter(self.accounts))

    @property
    def password(self) -> str:
        return next(iter(self.accounts.values()))

    def today(self) -> date:
        return self.config.today or datetime.now(CET).date()

    def own(self, make: Callable[[Store], T]) -> T:
        """A family's own state object, ``make(self.store)`` on first use (see :class:`PlatformState`)."""
        if make not in self._owned:
            self._owned[make] = make(self.store)
        return cast(T, self._owned[make])

    # --- the pipeline -----------------------------------------------------------------------------
    async def handle(self, request: Request, endpoint: Endpoint) -> Response:
        visit = _Visit(endpoint, request, new_ruid(), time.perf_counter(), request.headers.get("host", ""))
        try:
            self._check_host(visit.host, endpoint)
            visit.account = self._authenticate(request.headers.get("authorization") or "")
            wait = self.limits.admit(visit.account, endpoint.name)
            if wait is not None:
                raise Misuse(429, "429", f"too many calls: the limit for {endpoint.name} is reached; retry later",
                             {"Retry-After": retry_after_header(wait)})
            if self.tokens is not None:  # the platform as it is today
                version = (request.headers.get("accept-version") or "").strip() if endpoint.versioned else ""
                visit.headers = calendar_headers(endpoint.name, version, self.config.provider_type, self.today())
            delay = self.faults.latency(endpoint.name)
            if delay:
                await asyncio.sleep(delay)
            fault = self.faults.draw(endpoint.name)
            if fault in ("drop", "5xx", "malformed", "429"):
                return await self._fault(visit, fault)
            call = self._call(visit, decode_body(await request.body(), request.headers.get("content-encoding")))
            reply = await self.handlers.get(endpoint.name, _not_implemented)(self, call)
            if fault in ("5xx_after", "drop_after"):
                return await self._fault(visit, fault)
        except Misuse as m:
            reply = Reply(m.status, error_body(endpoint, visit.ruid, m.code, m.text), _outcome(m.status))
            return self._respond(visit, reply, m.headers)
        return self._respond(visit, reply, visit.headers)

    def _authenticate(self, header: str) -> str:
        """The account calling: a Bearer token's client (``auth="platform"``), else the Basic credentials'."""
        if self.tokens is not None:
            if header[:7].lower() == "bearer ":
                try:
                    return self.tokens.account_of(header[7:].strip())
                except TokenProblem as exc:
                    raise Misuse(401, "401", str(exc), BEARER_CHALLENGE) from None
            if header[:6].lower() == "basic ":
                refuse_sunset_basic(self.today())
        return check_basic_auth(header, self.accounts)

    async def exchange(self, request: Request) -> Response:
        """``POST /token-based-authentication/exchange`` (``auth="platform"``), logged as ``token-exchange``."""
        assert self.tokens is not None
        started, ruid = time.perf_counter(), new_ruid()
        answer = self.tokens.exchange(await request.body(), ruid)
        outcome = {200: "success", 401: "unauthorized", 429: "rate_limited"}.get(answer.status, "rejected")
        self.store.log_request("token-exchange", answer.status, ruid, request.headers.get("host", ""), answer.client,
                               outcome, (time.perf_counter() - started) * 1000, request.method, EXCHANGE_PATH)
        return Response(answer.content(), status_code=answer.status, media_type="application/json",
                        headers=answer.headers)

    def _call(self, visit: _Visit, body: bytes) -> Call:
        """Content-Type, body and Accept-Version checked: what the handler gets."""
        endpoint, request = visit.endpoint, visit.request
        is_json = endpoint.fmt == JSON
        if endpoint.content_types:
            check_content_type(request.headers.get("content-type"), endpoint.content_types, body, endpoint.name,
                               "json" if is_json else "xml")
        root = None if is_json else parse_xml_body(body)
        data = parse_json_body(body) if is_json else None
        return Call(endpoint, visit.account, visit.ruid, body, root, self._version(request, endpoint),
                    request.method, request.url.path, {k: str(v) for k, v in request.path_params.items()},
                    dict(request.query_params), data)

    def _check_host(self, host: str, endpoint: Endpoint) -> None:
        if not host:
            raise Misuse(400, "MISUSE_HOST", "the request has no Host header")
        got = normalize_host(host)
        if got == self.hosts[endpoint.host]:
            return
        if got in self.hosts.values():
            other = "PCI host" if endpoint.host == GENERAL else "general host"
            raise Misuse(421, "MISUSE_WRONG_HOST", f"{endpoint.name} is not served by the {other} `{host}`; "
                         f"call it on `{self.hosts[endpoint.host]}`")
        raise Misuse(421, "MISUSE_UNKNOWN_HOST", f"`{host}` is not a host of this platform "
                     f"(general `{self.hosts[GENERAL]}`, PCI `{self.hosts[PCI]}`)")

    @staticmethod
    def _version(request: Request, endpoint: Endpoint) -> str:
        version = (request.headers.get("accept-version") or endpoint.versions[0]).strip()
        if endpoint.versioned and version not in endpoint.versions:
            raise Misuse(400, "UNSUPPORTED_VERSION", f"Accept-Version `{version}` is not supported; "
                         f"use {' or '.join(endpoint.versions)} (current, and the default)")
        return version

    async def _fault(self, visit: _Visit, fault: str) -> Response:
        endpoint, ruid = visit.endpoint, visit.ruid
        if fault in ("drop", "drop_after"):
            visit.ruid = ""
            self._log(visit, 0, f"fault:{fault}")
            await _drop_connection(visit.request)
            return Response(status_code=500)  # never reaches the client
        if fault == "malformed":
            if endpoint.fmt == JSON:
                body = json_body(ruid)
                cut = len(body) // 2
            else:
                body = ota_body(endpoint.name + "RS", ruid)
                cut = body.index(b"<Success") + 3 if b"<Success" in body else len(body) // 2
            return self._respond(visit, Reply(200, body[:cut], "fault:malformed"))
        status = {"5xx": 503, "5xx_after": 500, "429": 429}[fault]
        headers = {}
        if fault != "5xx_after" and self.faults.spec.retry_after is not None:
            headers["Retry-After"] = retry_after_header(self.faults.spec.retry_after, minimum=0)
        text = {503: "service unavailable, try again", 500: "internal error", 429: "too many calls"}[status]
        reply = Reply(status, error_body(endpoint, ruid, str(status), text), f"fault:{fault}")
        return self._respond(visit, reply, headers)

    def _respond(self, visit: _Visit, reply: Reply, headers: Mapping[str, str] | None = None) -> Response:
        self._log(visit, reply.status, reply.outcome)
        return Response(reply.body, status_code=reply.status, media_type=media_type(visit.endpoint),
                        headers=dict(headers or {}))

    def _log(self, visit: _Visit, status: int, outcome: str) -> None:
        self.store.log_request(visit.endpoint.name, status, visit.ruid, visit.host, visit.account, outcome,
                               (time.perf_counter() - visit.started) * 1000, visit.request.method,
                               visit.request.url.path)


def _endpoints(families: tuple[Family, ...]) -> tuple[Endpoint, ...]:
    """Every family's endpoints; two may not share a name, nor a method on the same path."""
    endpoints = tuple(e for f in families for e in f.endpoints)
    owner: dict[object, str] = {}
    for f in families:
        for e in f.endpoints:
            for key, what in ((e.name, f"endpoint `{e.name}`"), ((e.method, e.path), f"`{e.method} {e.path}`")):
                if key in owner:
                    raise ValueError(f"operation family `{f.name}` declares {what}, which family `{owner[key]}` "
                                     "already serves; give it another name or path")
                owner[key] = f.name
    return endpoints


def _seed(store: Store, config: SandboxConfig) -> None:
    """Seed a new state from the registry; a kept state must hold the registry asked for, if one was."""
    asked = registry_asked(config)
    if store.properties() and not asked:
        return
    registry = config.registry if config.registry is not None else load_registry(config.registry_path)
    if not store.properties():
        store.seed(registry)
        return
    held = store.registry()
    if (set(held.properties), set(held.rooms), set(held.room_rates)) != \
            (set(registry.properties), set(registry.rooms), set(registry.room_rates)):
        where = f"`{config.state_dir}`" if config.state_dir else "this state"
        raise ValueError(f"the sandbox state in {where} was seeded from another registry (properties "
                         f"{', '.join(str(p.hotel_code) for p in held.properties)}); give a new --state-dir for "
                         f"this registry, or delete `sandbox.sqlite3` there to start again from it")


def _outcome(status: int) -> str:
    return {401: "unauthorized", 429: "rate_limited", 421: "misuse", 415: "misuse"}.get(status, "rejected")


async def _not_implemented(sb: PlatformState, call: Call) -> Reply:
    return Reply(501, error_body(call.endpoint, call.ruid, "SANDBOX_NOT_IMPLEMENTED",
                                 f"{call.endpoint.name} is not implemented by the sandbox"), "not_implemented")


async def _drop_connection(request: Request) -> None:
    """Close the client's connection without an answer (uvicorn: abort the transport)."""
    raw_send = request.scope.get("sandbox.raw_send")
    cycle = getattr(raw_send, "__self__", None)
    transport = getattr(cycle, "transport", None)
    if transport is None:  # in-process (httpx.ASGITransport): what the client would see
        import httpx
        raise httpx.RemoteProtocolError("server disconnected without sending a response")
    transport.abort()
    for _ in range(50):
        if getattr(cycle, "disconnected", True):
            break
        await asyncio.sleep(0.002)
