"""The Starlette app: token endpoint, notification receiver, metrics, health and JWKS.

    POST /oauth/token              OAuth2 client credentials (RFC 6749 §4.4, errors §5.2)
    POST /notifications            Bearer-authenticated receiver; stores, then answers 200
    GET  /metrics                  Prometheus text format
    GET  /health                   JSON: can the store accept notifications now (a probe write), counts;
                                   503 when it cannot
    GET  /.well-known/jwks.json    public keys that verify current tokens
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import math
import os
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from urllib.parse import parse_qsl, unquote_plus

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from workbench.notify.envelope import BadEnvelope, parse_envelope, printable_body
from workbench.notify.errors import InvalidToken, StoreError
from workbench.notify.service import NotifyService
from workbench.notify.store import DUPLICATE_DIFFERENT, DeadLetter, Notification
from workbench.notify.tokens import bearer_token

log = logging.getLogger(__name__)
TOKEN_BODY_LIMIT = 8192
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
GONE = Response(status_code=408)  # never sent: the connection is already closed


HEALTH_PROBE_SECONDS = 5.0     # /health waits this long for its probe write
HEALTH_REUSE_SECONDS = 1.0     # a probe result answers the /health calls of the next second
HEALTH_REFUSING_SECONDS = 60.0  # a failed notification write counts this long (unless one is stored since)


class _TooLarge(Exception):
    pass


class _Gone(Exception):
    """The client went away (or was cut off by the body deadline) before the body arrived."""


def new_ruid() -> str:
    """A request id for every response (spec: quoted to support when reporting problems)."""
    return base64.b64encode(os.urandom(18)).decode()


async def _read_body(request: Request, limit: int) -> bytes:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise _TooLarge
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise _TooLarge
    except ClientDisconnect:
        raise _Gone from None
    return bytes(body)


def _media_type(request: Request) -> tuple[str, dict[str, str]]:
    raw = request.headers.get("content-type", "")
    kind, *params = raw.split(";")
    parsed = {}
    for p in params:
        name, _, value = p.partition("=")
        parsed[name.strip().lower()] = value.strip().strip('"').lower()
    return kind.strip().lower(), parsed


def create_app(service: NotifyService) -> Starlette:
    """The HTTP app of ``service`` (serve it with :mod:`workbench.serving`)."""
    cfg = service.config
    metrics = service.metrics

    def oauth_error(status: int, error: str, description: str, ruid: str,
                    headers: dict[str, str] | None = None) -> JSONResponse:
        metrics.inc("notify_token_requests_refused_total", "error", error)
        return JSONResponse({"error": error, "error_description": description, "ruid": ruid}, status,
                            headers={**NO_STORE, **(headers or {})})

    async def token(request: Request) -> Response:
        ruid = new_ruid()
        kind, _ = _media_type(request)
        if kind != "application/x-www-form-urlencoded":
            return oauth_error(400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded", ruid)
        try:
            body = await _read_body(request, TOKEN_BODY_LIMIT)
            pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=32)
        except _TooLarge:
            return oauth_error(400, "invalid_request", f"request body larger than {TOKEN_BODY_LIMIT} bytes", ruid)
        except _Gone:
            return GONE
        except (UnicodeDecodeError, ValueError):
            return oauth_error(400, "invalid_request", "request body is not valid form data", ruid)
        params: dict[str, str] = {}
        for name, value in pairs:
            if name in params:
                return oauth_error(400, "invalid_request", f"parameter `{name}` given more than once", ruid)
            params[name] = value
        grant = params.get("grant_type")
        if not grant:
            return oauth_error(400, "invalid_request", "missing `grant_type`", ruid)
        if grant != "client_credentials":
            return oauth_error(400, "unsupported_grant_type", "only `client_credentials` is supported", ruid)
        client_id, secret = params.get("client_id"), params.get("client_secret")
        auth = request.headers.getlist("authorization")
        if auth:
            scheme, _, blob = auth[0].partition(" ")
            if len(auth) != 1 or scheme.lower() != "basic":
                return await unauthorized_client("unsupported client authentication", ruid, "")
            if secret is not None:
                return oauth_error(400, "invalid_request", "client authenticated twice (Basic and form)", ruid)
            try:
                basic_id, sep, basic_secret = base64.b64decode(blob.strip(), validate=True).decode().partition(":")
            except (ValueError, UnicodeDecodeError):
                return await unauthorized_client("malformed Basic credentials", ruid, "")
            if not sep or (client_id is not None and client_id != unquote_plus(basic_id)):
                return await unauthorized_client("malformed Basic credentials", ruid, "")
            client_id, secret = unquote_plus(basic_id), unquote_plus(basic_secret)
        if not client_id or not secret:
            return await unauthorized_client("missing client credentials", ruid, client_id or "")
        host = request.client.host if request.client else "?"
        wait = service.limiter.acquire(f"{client_id}|{host}")
        if wait > 0:
            return oauth_error(429, "temporarily_unavailable", "too many token requests for this client",
                               ruid, {"Retry-After": str(math.ceil(wait))})
        secret_id = await run_in_threadpool(service.credentials.matching_secret, client_id, secret)
        if secret_id is None:
            return await unauthorized_client("unknown client or wrong secret", ruid, client_id)
        try:
            issued = await run_in_threadpool(service.issue_token, client_id, secret_id)
        except Exception as exc:  # noqa: BLE001 - the token could not be recorded: the client retries
            log.error("token not issued, the store failed: %s", exc)
            return oauth_error(503, "temporarily_unavailable", "storage unavailable; retry", ruid, {"Retry-After": "1"})
        metrics.inc("notify_tokens_issued_total")
        return JSONResponse({"access_token": issued.access_token, "token_type": "Bearer",
                             "expires_in": issued.expires_in, "ruid": ruid}, headers=NO_STORE)

    async def unauthorized_client(reason: str, ruid: str, client_id: str) -> JSONResponse:
        metrics.inc("notify_unauthorized_total", "endpoint", "token")
        log.info("token request refused (client `%s`): %s", client_id[:64], reason)
        service.alarm.record("/oauth/token", reason)
        return oauth_error(401, "invalid_client", reason, ruid, {"WWW-Authenticate": 'Basic realm="workbench-notify"'})

    async def notifications(request: Request) -> Response:
        ruid = new_ruid()
        try:  # signature and claims here; whether its secret is still live needs the database
            claims = service.tokens.verify(bearer_token(request.headers.getlist("authorization")))
            await run_in_threadpool(service.check_token_live, claims)
        except InvalidToken as exc:
            return refuse_token(exc, ruid)
        except Exception as exc:  # noqa: BLE001 - the database could not be read: CNS retries the 503
            return store_unavailable(ruid, exc)
        kind, params = _media_type(request)
        if kind != "application/json" or params.get("charset", "utf-8") not in ("utf-8", "utf8"):
            metrics.inc("notify_notifications_total", "outcome", "unsupported_media_type")
            return JSONResponse({"error": "unsupported_media_type",
                                 "error_description": "Content-Type must be application/json (UTF-8)",
                                 "ruid": ruid}, 415)
        try:
            body = await _read_body(request, cfg.receiver.max_body_bytes)
        except _Gone:
            return GONE
        except _TooLarge:
            metrics.inc("notify_notifications_total", "outcome", "too_large")
            return JSONResponse({"error": "payload_too_large", "error_description":
                                 f"body larger than {cfg.receiver.max_body_bytes} bytes", "ruid": ruid}, 413)
        now = service.clock()
        client = claims["sub"]
        try:
            env = parse_envelope(body)
        except BadEnvelope as exc:
            letter = DeadLetter(now, client, exc.reason, request.headers.get("content-type"), printable_body(body))
            try:
                await _wait(service.store.dead_letter(letter), cfg.receiver.write_timeout_seconds)
            except (StoreError, TimeoutError) as store_exc:
                return store_unavailable(ruid, store_exc)
            metrics.inc("notify_notifications_total", "outcome", "dead_lettered")
            log.warning("dead letter from `%s`: %s", client, exc.reason)
            return JSONResponse({"error": "invalid_notification", "error_description": exc.reason, "ruid": ruid}, 400)
        n = Notification(env.uuid, env.type, env.payload_version, now, client, env.text)
        try:
            outcome = await _wait(service.store.save(n), cfg.receiver.write_timeout_seconds)
        except (StoreError, TimeoutError) as exc:
            return store_unavailable(ruid, exc)
        if outcome == DUPLICATE_DIFFERENT:
            log.warning("notification `%s` repeated with a different body; the first one is kept", env.uuid)
            outcome = "duplicate"
        metrics.inc("notify_notifications_total", "outcome", outcome)
        return JSONResponse({"status": outcome, "uuid": env.uuid, "ruid": ruid})

    def refuse_token(exc: InvalidToken, ruid: str) -> JSONResponse:
        metrics.inc("notify_notifications_total", "outcome", "rejected")
        metrics.inc("notify_unauthorized_total", "endpoint", "notifications")
        log.info("notification refused: %s", exc.reason)
        service.alarm.record("/notifications", exc.reason)
        return JSONResponse({"error": "invalid_token", "error_description": exc.reason, "ruid": ruid}, 401,
                            headers={"WWW-Authenticate": f'Bearer realm="workbench-notify", error="invalid_token", '
                                                         f'error_description="{exc.reason}"'})

    def store_unavailable(ruid: str, exc: BaseException) -> JSONResponse:
        metrics.inc("notify_notifications_total", "outcome", "store_error")
        log.error("store unavailable: %s", exc or type(exc).__name__)
        return JSONResponse({"error": "temporarily_unavailable", "error_description": "storage unavailable; retry",
                             "ruid": ruid}, 503, headers={"Retry-After": "1"})

    async def metrics_endpoint(request: Request) -> Response:
        gauges = {"notify_open_connections": ("Open client connections.", float(metrics.open_connections))}
        try:
            stored = await run_in_threadpool(service.store.count)
            gauges["notify_stored_notifications"] = ("Notifications in the store.", float(stored))
        except Exception as exc:  # noqa: BLE001 - metrics must still answer
            log.error("metrics: database unavailable: %s", exc)
        return PlainTextResponse(metrics.prometheus(gauges), media_type="text/plain; version=0.0.4")

    probe = _StoreProbe(service)

    async def health(request: Request) -> Response:
        writable, why = await probe()
        refusing = service.store.refusing(time.time(), HEALTH_REFUSING_SECONDS)
        if writable and refusing:
            writable, why = False, f"notifications refused: {refusing}"
        status, database, stored = "ok", "ok" if writable else f"cannot write: {why}", None
        try:
            stored = await run_in_threadpool(service.store.count)
        except Exception as exc:  # noqa: BLE001
            status, database = "degraded", f"unavailable: {type(exc).__name__}"
        if not writable:
            status = "degraded"  # the name it always had for "not ok"; `accepting_notifications` says why
        key = service.keyring.keys()
        last_error = service.store.last_error
        return JSONResponse({"status": status, "accepting_notifications": writable, "database": database,
                             "dialect": service.db.dialect, "stored_notifications": stored,
                             "last_store_error": None if last_error is None else
                             {"at": _iso(last_error[0]), "reason": last_error[1]},
                             "counts": metrics.notifications(),
                             "unauthorized": {"token": metrics.get("notify_unauthorized_total", "endpoint", "token"),
                                              "notifications": metrics.get("notify_unauthorized_total", "endpoint",
                                                                           "notifications")},
                             "connections": {"open": metrics.open_connections,
                                             "closed": metrics.series("notify_connections_closed_total")},
                             "signing_key": key[0].kid if key else None,
                             "uptime_seconds": round(service.clock() - metrics.started_at, 1)},
                            200 if status == "ok" else 503, headers={"Cache-Control": "no-store"})

    async def jwks(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(service.keyring.jwks))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(service.keyring.signing_key)  # keys exist from the first start
        task = asyncio.create_task(_deadline_loop(service))
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await run_in_threadpool(service.store.close)

    return Starlette(routes=[
        Route("/oauth/token", token, methods=["POST"]),
        Route("/notifications", notifications, methods=["POST"]),
        Route("/metrics", metrics_endpoint, methods=["GET"]),
        Route("/health", health, methods=["GET"]),
        Route("/.well-known/jwks.json", jwks, methods=["GET"]),
    ], lifespan=lifespan)


class _StoreProbe:
    """Can the store commit now? A probe write, at most one a second, shared by concurrent ``/health`` calls."""

    def __init__(self, service: NotifyService) -> None:
        self.service = service
        self.task: asyncio.Future[tuple[bool, str]] | None = None
        self.started = 0.0

    async def __call__(self) -> tuple[bool, str]:
        now = asyncio.get_running_loop().time()
        if self.task is None or (self.task.done() and now - self.started > HEALTH_REUSE_SECONDS):
            self.task = asyncio.ensure_future(self._write())
            self.started = now
        return await asyncio.shield(self.task)

    async def _write(self) -> tuple[bool, str]:
        try:
            await _wait(self.service.store.probe(self.service.clock()), HEALTH_PROBE_SECONDS)
        except TimeoutError:
            return False, f"the store did not commit within {HEALTH_PROBE_SECONDS:g} s"
        except Exception as exc:  # noqa: BLE001 - any failure means: not accepting notifications
            return False, str(exc) or type(exc).__name__
        return True, ""


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


async def _wait(future: object, timeout: float) -> str:
    return await asyncio.wait_for(asyncio.wrap_future(future), timeout)  # type: ignore[arg-type]


async def _deadline_loop(service: NotifyService) -> None:
    interval = service.config.request_to_book.check_interval_seconds
    if interval <= 0:
        return
    while True:
        try:
            await run_in_threadpool(service.check_deadlines)
        except Exception:  # noqa: BLE001 - keep checking
            log.exception("request-to-book deadline check failed")
        await asyncio.sleep(interval)
