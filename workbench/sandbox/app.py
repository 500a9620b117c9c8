"""The platform sandbox as a Starlette app: :func:`create_app` (mount in-process with
``httpx.ASGITransport``, or serve over HTTPS with :mod:`workbench.sandbox.server`).

Every platform call goes through the same pipeline: Host -> Basic auth -> limits -> faults ->
Content-Encoding -> Content-Type -> XML -> Accept-Version -> handler. Each answer carries a
``ruid`` and is written to the request log.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from lxml import etree
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from workbench.ota.ns import UnsafeXMLError, XMLSyntaxError, parse_xml
from workbench.sandbox import content, lookups, rooms
from workbench.sandbox.content_state import PARTS, ContentStore
from workbench.sandbox.endpoints import BY_NAME, ENDPOINTS, GENERAL, PCI, Endpoint, routes_for
from workbench.sandbox.faults import FaultInjector
from workbench.sandbox.fx import DEFAULT_FX_FILE, read_fx_table
from workbench.sandbox.limits import SlidingWindowLimits, retry_after_header
from workbench.sandbox.protocol import (
    Misuse,
    bxml_body,
    bxml_error,
    bxml_fault,
    check_basic_auth,
    check_content_type,
    decode_body,
    new_ruid,
    normalize_host,
    ota_body,
)
from workbench.sandbox.rates import DEFAULT_VERSION, SUPPORTED_VERSIONS, Issue, RateRules
from workbench.sandbox.room_codes import default_room_codes
from workbench.sandbox.room_state import DEFAULT_PLATFORM_ROOMS, RoomTypeStore
from workbench.sandbox.seed import DEFAULT_REGISTRY, Registry, load_registry
from workbench.sandbox.store import Store

CET = ZoneInfo("Europe/Amsterdam")
XML_MEDIA = "application/xml"
#: The element each B.XML operation answers with; a fault comes inside it, as the platform sends
#: ``<reservations><fault code="401" string="Authorization Required"/></reservations>``.
BXML_ROOTS = {"roomrates": "rooms", "currencies": "currencies", "countries": "countries",
              "citytaxcategory": "citytaxcategories", "reservations": "reservations",
              "reservationssummary": "reservations"}


@dataclass
class SandboxConfig:
    """How a sandbox behaves. ``limits`` (calls per ``limit_window`` seconds) override the
    spec's table by endpoint name or ``all``; ``today`` pins the CET date of the rate window and of
    the ``OTA_HotelInvNotif`` sunset; ``provider_type`` is the machine account's provider type
    (``Home`` sees ``OTA_HotelInvNotif`` deprecated); ``platform_rooms_path`` adds amenities, beds
    and sub-rooms to the seeded room types (None: none); ``rtb_enabled`` is the provider setting
    ``content_api_rtb_enabled`` (content may create request-to-book properties).

    A new state is seeded from ``registry`` (properties, rooms, room-rates already read, e.g. by
    ``workbench sandbox serve --registry``) or else the workbook at ``registry_path``. The sample
    room facts (the default ``platform_rooms_path``) are read only with the sample registry: a
    sandbox of your own properties never reads a file you did not name."""

    state_dir: Path | None = None
    registry: Registry | None = None
    registry_path: Path = DEFAULT_REGISTRY
    fx_path: Path = DEFAULT_FX_FILE
    limits: dict[str, int] = field(default_factory=dict)
    limit_window: float = 60.0
    faults: str = ""
    today: date | None = None
    general_host: str = "127.0.0.1"
    pci_host: str = "localhost"
    username: str = "sandbox"
    password: str | None = None  # None: generated once and kept in the state
    provider_type: str = "Hotel"
    platform_rooms_path: Path | None = DEFAULT_PLATFORM_ROOMS
    rtb_enabled: bool = False  # the provider setting content_api_rtb_enabled (BookingModel RTB on New)


@dataclass
class Call:
    """What a handler gets: the checked request."""

    endpoint: Endpoint
    account: str
    ruid: str
    body: bytes
    root: etree._Element | None
    version: str


@dataclass
class Reply:
    status: int
    body: bytes
    outcome: str


Handler = Callable[["Sandbox", Call], Awaitable[Reply]]


class Sandbox:
    """State, rules, limits and faults behind the app (``app.state.sandbox``)."""

    def __init__(self, config: SandboxConfig, handlers: Mapping[str, Handler] | None = None) -> None:
        self.config = config
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
        self.limits = SlidingWindowLimits(config.limits, config.limit_window)
        self.faults = FaultInjector(config.faults)
        username, stored = self.store.account(config.username)
        self.accounts = {username: config.password or stored}
        self.handlers: dict[str, Handler] = {**BUILTIN_HANDLERS, **(handlers or {})}
        self.hosts = {GENERAL: normalize_host(config.general_host), PCI: normalize_host(config.pci_host)}

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

    # --- the pipeline -----------------------------------------------------------------------------
    async def handle(self, request: Request, endpoint: Endpoint) -> Response:
        started = time.perf_counter()
        ruid = new_ruid()
        host = request.headers.get("host", "")
        account = ""
        try:
            self._check_host(host, endpoint)
            account = check_basic_auth(request.headers.get("authorization"), self.accounts)
            wait = self.limits.admit(account, endpoint.name)
            if wait is not None:
                raise Misuse(429, "429", f"too many calls: the limit for {endpoint.name} is reached; retry later",
                             {"Retry-After": retry_after_header(wait)})
            delay = self.faults.latency(endpoint.name)
            if delay:
                await asyncio.sleep(delay)
            fault = self.faults.draw(endpoint.name)
            if fault in ("drop", "5xx", "malformed", "429"):
                return await self._fault(request, endpoint, fault, ruid, host, account, started)
            body = decode_body(await request.body(), request.headers.get("content-encoding"))
            check_content_type(request.headers.get("content-type"), endpoint.content_types, body, endpoint.name)
            root = self._parse(body)
            version = self._version(request, endpoint)
            reply = await self.handlers.get(endpoint.name, _not_implemented)(
                self, Call(endpoint, account, ruid, body, root, version))
            if fault in ("5xx_after", "drop_after"):
                return await self._fault(request, endpoint, fault, ruid, host, account, started)
        except Misuse as m:
            reply = Reply(m.status, self._error_body(endpoint, ruid, m.code, m.text), _outcome(m.status))
            return self._respond(reply, endpoint, ruid, host, account, started, m.headers)
        return self._respond(reply, endpoint, ruid, host, account, started)

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
    def _parse(body: bytes) -> etree._Element | None:
        if not body.strip():
            return None
        try:
            return parse_xml(body)
        except UnsafeXMLError as exc:
            raise Misuse(400, "INVALID_XML", str(exc)) from None
        except XMLSyntaxError as exc:
            where = f" (line {exc.line})" if exc.line else ""
            raise Misuse(400, "INVALID_XML", f"the body is {exc}{where}") from None
        except UnicodeDecodeError:
            raise Misuse(400, "INVALID_XML", "the body is not UTF-8") from None

    @staticmethod
    def _version(request: Request, endpoint: Endpoint) -> str:
        version = (request.headers.get("accept-version") or DEFAULT_VERSION).strip()
        if endpoint.versioned and version not in SUPPORTED_VERSIONS:
            raise Misuse(400, "UNSUPPORTED_VERSION", f"Accept-Version `{version}` is not supported; "
                         f"use {' or '.join(SUPPORTED_VERSIONS)} (current, and the default)")
        return version

    def _error_body(self, endpoint: Endpoint, ruid: str, code: str, text: str) -> bytes:
        if endpoint.fmt == "bxml":
            return bxml_fault(code, text, ruid, root=BXML_ROOTS.get(endpoint.name))
        return ota_body(endpoint.name + "RS", ruid, errors=[Issue(code, text)])

    async def _fault(self, request: Request, endpoint: Endpoint, fault: str, ruid: str, host: str, account: str,
                     started: float) -> Response:
        if fault in ("drop", "drop_after"):
            self._log(endpoint, 0, "", host, account, f"fault:{fault}", started)
            await _drop_connection(request)
            return Response(status_code=500)  # never reaches the client
        if fault == "malformed":
            body = ota_body(endpoint.name + "RS", ruid)
            reply = Reply(200, body[: body.index(b"<Success") + 3 if b"<Success" in body else len(body) // 2],
                          "fault:malformed")
            return self._respond(reply, endpoint, ruid, host, account, started)
        status = {"5xx": 503, "5xx_after": 500, "429": 429}[fault]
        headers = {}
        if fault != "5xx_after" and self.faults.spec.retry_after is not None:
            headers["Retry-After"] = retry_after_header(self.faults.spec.retry_after, minimum=0)
        text = {503: "service unavailable, try again", 500: "internal error", 429: "too many calls"}[status]
        reply = Reply(status, self._error_body(endpoint, ruid, str(status), text), f"fault:{fault}")
        return self._respond(reply, endpoint, ruid, host, account, started, headers)

    def _respond(self, reply: Reply, endpoint: Endpoint, ruid: str, host: str, account: str, started: float,
                 headers: Mapping[str, str] | None = None) -> Response:
        self._log(endpoint, reply.status, ruid, host, account, reply.outcome, started)
        return Response(reply.body, status_code=reply.status, media_type=XML_MEDIA, headers=dict(headers or {}))

    def _log(self, endpoint: Endpoint, status: int, ruid: str, host: str, account: str, outcome: str,
             started: float) -> None:
        self.store.log_request(endpoint.name, status, ruid, host, account, outcome,
                               (time.perf_counter() - started) * 1000)


def _seed(store: Store, config: SandboxConfig) -> None:
    """Seed a new state from the registry; a kept state must hold the registry asked for, if one was."""
    asked = config.registry is not None or Path(config.registry_path) != DEFAULT_REGISTRY
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


def rooms_seed(config: SandboxConfig) -> Path | None:
    """The room facts to seed room types with: the sample's only with the sample registry (the default
    ``platform_rooms_path`` object), else what was named (None: the registry's rooms alone)."""
    path = config.platform_rooms_path
    sample_registry = config.registry is None and Path(config.registry_path) == DEFAULT_REGISTRY
    if path is DEFAULT_PLATFORM_ROOMS and not sample_registry:
        return None
    return path


def _outcome(status: int) -> str:
    return {401: "unauthorized", 429: "rate_limited", 421: "misuse", 415: "misuse"}.get(status, "rejected")


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


# --- handlers -----------------------------------------------------------------------------------

async def _rate_amount(sb: Sandbox, call: Call) -> Reply:
    rs = call.endpoint.name + "RS"
    if call.root is None:
        return Reply(400, ota_body(rs, call.ruid, errors=[Issue("INVALID_REQUEST", "empty body")]), "rejected")
    outcome = sb.rules.check(call.root, sb.today())
    if outcome.errors:
        return Reply(200, ota_body(rs, call.ruid, errors=outcome.errors), "errors")
    sb.store.write_rates(outcome.cells, call.ruid)
    return Reply(200, ota_body(rs, call.ruid, warnings=outcome.warnings), "warnings" if outcome.warnings else "success")


async def _roomrates(sb: Sandbox, call: Call) -> Reply:
    try:
        root = lookups.roomrates(sb.registry, lookups.requested_hotel(call.root))
    except lookups.LookupError_ as exc:  # the platform answers these in a 200: <error>text</error>
        return Reply(200, bxml_error(exc.text, call.ruid), "errors")
    return Reply(200, bxml_body(root, call.ruid), "success")


def _static(render: Callable[[], bytes]) -> Handler:
    async def handler(sb: Sandbox, call: Call) -> Reply:
        return Reply(200, bxml_body(etree.fromstring(render()), call.ruid), "success")
    return handler


async def _reservations(sb: Sandbox, call: Call) -> Reply:
    return Reply(200, bxml_body(etree.Element("reservations"), call.ruid), "success")


async def _res_notif(sb: Sandbox, call: Call) -> Reply:
    return Reply(200, ota_body(call.endpoint.name + "RS", call.ruid), "success")


async def _not_implemented(sb: Sandbox, call: Call) -> Reply:
    return Reply(501, sb._error_body(call.endpoint, call.ruid, "SANDBOX_NOT_IMPLEMENTED",
                                     f"{call.endpoint.name} is not implemented by the sandbox"), "not_implemented")


BUILTIN_HANDLERS: dict[str, Handler] = {
    "OTA_HotelRateAmountNotif": _rate_amount,
    "OTA_HotelInvNotif": rooms.inv_notif,
    "OTA_HotelDescriptiveInfo": rooms.descriptive_info,
    "roomrates": _roomrates,
    "currencies": _static(lookups.currencies),
    "countries": _static(lookups.countries),
    "citytaxcategory": content.citytaxcategory,
    "OTA_HotelDescriptiveContentNotif": content.content_notif,
    "reservations": _reservations,
    "OTA_HotelResNotif": _res_notif,
}


# --- the app ------------------------------------------------------------------------------------

class _KeepRawSend:
    """Outermost ASGI layer: remembers the server's own ``send`` so a fault can drop the connection."""

    def __init__(self, app: Starlette) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            scope["sandbox.raw_send"] = send
        await self.app(scope, receive, send)


def create_app(config: SandboxConfig | None = None, handlers: Mapping[str, Handler] | None = None) -> _KeepRawSend:
    """The sandbox ASGI app; ``app.state.sandbox`` is its :class:`Sandbox`."""
    config = config or SandboxConfig()
    sandbox = Sandbox(config, handlers)

    def platform_route(endpoint: Endpoint) -> list[Route]:
        async def endpoint_view(request: Request) -> Response:
            return await sandbox.handle(request, endpoint)
        return [Route(path, endpoint_view, methods=["POST"], name=f"{endpoint.name}{i}")
                for i, path in enumerate(routes_for(endpoint))]

    async def rates_csv(request: Request) -> Response:
        return PlainTextResponse(sandbox.store.rates_csv(), media_type="text/csv; charset=utf-8")

    async def requests_csv(request: Request) -> Response:
        return PlainTextResponse(sandbox.store.requests_csv(), media_type="text/csv; charset=utf-8")

    def registry_csv(render: Callable[..., str]) -> Callable[[Request], Awaitable[Response]]:
        async def view(request: Request) -> Response:  # facts the platform keeps to itself: for tests only
            return PlainTextResponse(render(sandbox.registry), media_type="text/csv; charset=utf-8")
        return view

    def room_csv(kind: str) -> Callable[[Request], Awaitable[Response]]:
        async def view(request: Request) -> Response:
            return PlainTextResponse(sandbox.room_types.csv(kind), media_type="text/csv; charset=utf-8")
        return view

    async def set_room_active(request: Request) -> Response:
        text = (await request.body()).decode("utf-8", "replace").strip()
        hotel, inv = request.path_params["hotel"], request.path_params["inv"]
        if text not in ("0", "1"):
            return JSONResponse({"error": "send `0` (deactivate) or `1` (activate) as the body", "ruid": new_ruid()},
                                status_code=400)
        if not sandbox.room_types.set_active(hotel, inv, text == "1"):
            return JSONResponse({"error": f"no room type `{inv}` at hotel `{hotel}`", "ruid": new_ruid()},
                                status_code=404)
        return JSONResponse({"hotel_code": hotel, "inv_code": inv, "active": text == "1", "ruid": new_ruid()})

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "hosts": sandbox.hosts, "today": sandbox.today().isoformat(),
                             "limits": sandbox.limits.limits, "limit_window": sandbox.limits.window,
                             "faults": sandbox.faults.spec.text, "rtb_enabled": sandbox.config.rtb_enabled,
                             "ruid": new_ruid()})

    async def set_faults(request: Request) -> Response:
        text = (await request.body()).decode("utf-8", "replace").strip()
        try:
            sandbox.faults.configure(text)
        except ValueError as exc:
            return JSONResponse({"error": str(exc), "ruid": new_ruid()}, status_code=400)
        return JSONResponse({"faults": text, "ruid": new_ruid()})

    async def not_found(request: Request, exc: Exception) -> Response:
        body = bxml_fault("404", f"no endpoint `{request.url.path}` (known: "
                          f"{', '.join(e.path for e in ENDPOINTS)})", new_ruid())
        return Response(body, status_code=404, media_type=XML_MEDIA)

    routes = [r for e in ENDPOINTS for r in platform_route(e)]
    routes += [Route(f"/_sandbox/{kind}.csv", room_csv(kind)) for kind in ("rooms", "subrooms", "amenities")]
    routes += [Route("/_sandbox/rooms/{hotel:int}/{inv}/active", set_room_active, methods=["POST"])]
    async def properties_csv(request: Request) -> Response:  # registry and content properties, with status
        return PlainTextResponse(sandbox.content.properties_csv(sandbox.registry), media_type="text/csv; charset=utf-8")

    async def content_csv(request: Request) -> Response:
        part = request.path_params["part"]
        if part not in PARTS:
            return JSONResponse({"error": f"no content part `{part}` (known: {', '.join(PARTS)})", "ruid": new_ruid()},
                                status_code=404)
        return PlainTextResponse(sandbox.content.part_csv(part), media_type="text/csv; charset=utf-8")

    routes += [Route("/_sandbox/properties.csv", properties_csv), Route("/_sandbox/content/{part}.csv", content_csv),
               Route("/_sandbox/room_rates.csv", registry_csv(lookups.room_rates_csv))]
    routes += [Route("/_sandbox/rates.csv", rates_csv), Route("/_sandbox/requests.csv", requests_csv),
               Route("/_sandbox/health", health), Route("/_sandbox/faults", set_faults, methods=["POST"])]
    app = Starlette(routes=routes, exception_handlers={404: not_found})
    app.state.sandbox = sandbox
    return _KeepRawSend(app)


def temporary_state_dir() -> Path:
    """A fresh directory for a sandbox that should not outlive the process's temp area."""
    return Path(tempfile.mkdtemp(prefix="workbench-sandbox-"))


__all__ = ["BY_NAME", "Call", "Handler", "Reply", "Sandbox", "SandboxConfig", "create_app", "temporary_state_dir"]
