"""The platform client: HTTPS (TLS 1.2+), token auth (Basic for the spec's scheme; any ``httpx.Auth``
can replace them: :func:`auth_for`),
the right host and headers per operation, optional gzip, a sliding-window limiter, retries
with backoff for 429/5xx/connection failures (never for data errors), bounded concurrency,
and every answer's ruid kept with its :class:`Result`.

    async with PlatformClient(settings) as client:
        result = await client.send("OTA_HotelRateAmountNotif", body, context=batch_id)
        results = await client.send_many(items, on_result=journal.record)
"""

from __future__ import annotations

import asyncio
import gzip
import inspect
import math
import random
import ssl
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx

from workbench.config import Settings
from workbench.ota import OTAResponse, ResponseParseError, extract_ruid, parse_response
from workbench.transport import verdicts as v
from workbench.transport.answer import ACCEPT_ENCODING, AnswerLimits, AnswerProblem, read_answer, too_slow
from workbench.transport.backoff import RetryPolicy, parse_retry_after
from workbench.transport.errors import ConfigurationError, TokenRefused, TokenUnavailable
from workbench.transport.json_answer import judge_json
from workbench.transport.limiter import SlidingWindowLimiter
from workbench.transport.operations import PCI, SPEC_LIMITS, Operation, operation, parse_limits
from workbench.transport.platform_date import UNDATED, Dated, check_accept_version, read_calendar
from workbench.transport.result import Attempt, Outcome, Result
from workbench.transport.tls import tls_failure
from workbench.transport.token_auth import TokenAuth, TokenSource

USER_AGENT = "connectivity-workbench/0.1"
#: Answers that mean the platform did not process the call: always safe to resend.
NOT_PROCESSED = frozenset({429, 503})
#: Server errors after which the call may or may not have been applied.
AMBIGUOUS_5XX = frozenset({500, 502, 504})
#: Answers that mean the settings are wrong; every other call would get the same.
FATAL_STATUS = frozenset({401, 403, 407, 415, 421, 501})
#: Codes of a B.XML ``<fault>`` inside a 2xx answer that mean every request would fail (credentials).
FAULT_FATAL = frozenset({"401", "403"})
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
_AMBIGUOUS = (httpx.ReadError, httpx.ReadTimeout, httpx.WriteError, httpx.WriteTimeout, httpx.RemoteProtocolError)


@dataclass(frozen=True)
class SendItem:
    """One request for :meth:`PlatformClient.send_many`."""

    operation: str | Operation
    body: bytes
    context: Any = None
    idempotent: bool | None = None
    method: str | None = None  # default: the operation's (POST for every XML operation)
    path: str | None = None    # default: the operation's path (a JSON API's path with its ids filled in)


OnResult = Callable[[Result], Any]


def ssl_context(ca_bundle: str | Path | None) -> ssl.SSLContext:
    """Verify the server against ``ca_bundle`` (or the system's CAs) and refuse anything below TLS 1.2."""
    if ca_bundle and not Path(ca_bundle).is_file():
        raise ConfigurationError(f"CA bundle `{ca_bundle}` does not exist (setting WORKBENCH_CA_BUNDLE)")
    ctx = ssl.create_default_context(cafile=str(ca_bundle) if ca_bundle else None)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    return ctx


def basic_auth(settings: Settings) -> httpx.Auth:
    """The machine account as HTTP Basic credentials (spec: Authentication 1)."""
    if not settings.username or not settings.password:
        raise ConfigurationError("set WORKBENCH_USERNAME and WORKBENCH_PASSWORD (the machine account), or use token "
                                 "authentication (WORKBENCH_AUTH=token: docs/live-platform.md)")
    return httpx.BasicAuth(settings.username, settings.password.reveal())


def auth_for(settings: Settings, *, verify: ssl.SSLContext | bool = True,
             transport: httpx.AsyncBaseTransport | None = None) -> httpx.Auth:
    """The scheme the settings choose (:attr:`~workbench.config.Connection.scheme`): the account's shared token
    (its exchange over the same TLS context and transport as the calls), or Basic credentials."""
    connection = settings.connection
    if connection.scheme == "basic":
        return basic_auth(settings)
    return TokenAuth(TokenSource(connection, verify=verify, transport=transport,
                                 timeout=settings.limits.timeout_seconds, headers={"User-Agent": USER_AGENT}))


def limiter_for(settings: Settings) -> SlidingWindowLimiter:
    """The spec's limits, overridden by the account-specific ``Settings.rate_limits``."""
    try:
        custom = parse_limits(settings.rate_limits)
    except ValueError as exc:
        raise ConfigurationError(str(exc)) from None
    return SlidingWindowLimiter({**SPEC_LIMITS, **custom}, window=settings.rate_limit_window_seconds)


class PlatformClient:
    """Async client for the platform (or the sandbox); use as ``async with``."""

    def __init__(self, settings: Settings, *, auth: httpx.Auth | None = None, retry: RetryPolicy | None = None,
                 limiter: SlidingWindowLimiter | None = None, transport: httpx.AsyncBaseTransport | None = None,
                 max_in_flight: int | None = None, gzip_requests: bool | None = None,
                 rng: random.Random | None = None,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.settings = settings
        self._sleep = sleep
        self.hosts = {"general": self._base(settings.base_url, "WORKBENCH_BASE_URL"),
                      PCI: self._base(settings.secure_base_url or settings.base_url, "WORKBENCH_SECURE_BASE_URL")}
        self.retry = retry or RetryPolicy()
        self.limiter = limiter or limiter_for(settings)
        self.max_in_flight = max(1, max_in_flight or settings.max_in_flight)
        self.gzip_requests = settings.gzip_requests if gzip_requests is None else gzip_requests
        self._rng = rng or random.Random()
        self._freed: asyncio.Event | None = None
        self._in_flight = 0
        self._latency: float | None = None  # moving average of call durations, seconds
        try:
            answers = AnswerLimits.from_settings(settings)
        except ValueError as exc:
            raise ConfigurationError(str(exc)) from None
        self.max_answer_bytes, self.deadline = answers.max_bytes, answers.deadline_seconds
        limits = httpx.Limits(max_connections=self.max_in_flight, max_keepalive_connections=self.max_in_flight)
        timeout = httpx.Timeout(settings.timeout_seconds, connect=min(10.0, settings.timeout_seconds))
        check_accept_version(settings.connection.accept_version)
        verify = ssl_context(settings.ca_bundle) if transport is None else True
        self._basic = auth is None and settings.connection.scheme == "basic"  # a 401 then says how to switch
        self._http = httpx.AsyncClient(
            auth=auth or auth_for(settings, verify=verify, transport=transport), transport=transport, limits=limits,
            timeout=timeout, verify=verify, headers={"User-Agent": USER_AGENT, "Accept-Encoding": ACCEPT_ENCODING},
            follow_redirects=False)

    @staticmethod
    def _base(url: str, setting: str) -> str:
        if not url:
            raise ConfigurationError(f"set {setting} (e.g. the sandbox's connection.env: "
                                     "`workbench sandbox serve --state-dir DIR`)")
        if not url.lower().startswith("https://"):
            raise ConfigurationError(f"{setting} `{url}` must start with https:// (the platform is HTTPS only)")
        return url.rstrip("/")

    async def __aenter__(self) -> PlatformClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def url(self, op: str | Operation, path: str | None = None) -> str:
        op = operation(op)
        return self.hosts[op.host] + (path or op.path)

    def headers(self, op: Operation) -> dict[str, str]:
        headers = {"Content-Type": op.content_type}
        if op.accept_version:
            headers["Accept-Version"] = self.settings.accept_version or "1.1"
        if self.gzip_requests:
            headers["Content-Encoding"] = "gzip"
        return headers

    # --- one request --------------------------------------------------------------------------------
    async def send(self, op: str | Operation, body: bytes, *, context: Any = None,
                   idempotent: bool | None = None, method: str | None = None, path: str | None = None) -> Result:
        """Send ``body`` to ``op``, retrying what may be retried; never raises for a per-request problem."""
        op = operation(op)
        idempotent = op.idempotent if idempotent is None else idempotent
        url, headers = self.url(op, path), self.headers(op)
        verb = (method or op.method).upper()
        if verb in ("GET", "DELETE") and op.json and not body:  # no body: nothing to type or compress
            headers = {k: v for k, v in headers.items() if k != "Content-Encoding"}
        payload = gzip.compress(body, compresslevel=5, mtime=0) if self.gzip_requests else body
        history: list[Attempt] = []
        started = time.perf_counter()
        waited = 0.0
        for number in range(1, self.retry.max_attempts + 1):
            await self._enter(op)
            try:
                ticket = await self.limiter.acquire(op.limit_key)
            except BaseException:
                self._leave(None)
                raise
            waited += ticket.waited
            t0 = time.perf_counter()
            dated = UNDATED
            try:
                call = await self._call(url, payload if verb != "GET" and (body or not op.json) else None, headers,
                                        verb)
            except httpx.TransportError as exc:
                self._leave(ticket, time.perf_counter() - t0)
                verdict, retry_after = self._transport_error(exc, idempotent), None
            except BaseException:
                self._leave(ticket)
                raise
            else:
                self._leave(ticket, time.perf_counter() - t0)
                verdict, dated = self._dated(self._answer(call, idempotent, op), call, op)
                retry_after = parse_retry_after(call.headers.get("retry-after"))
                if call.status == 429:
                    self.limiter.block(op.limit_key, retry_after if retry_after is not None
                                       else self.retry.delay(number, rng=self._rng))
            history.append(Attempt(number, verdict.status, verdict.ruid, verdict.error, time.perf_counter() - t0,
                                   waited))
            if not verdict.retry or not self.retry.should_retry(number):
                return dated.on(verdict.result(op.name, context, tuple(history), time.perf_counter() - started))
            waited = self.retry.delay(number, retry_after, rng=self._rng)
            await self._sleep(waited)
        raise AssertionError("unreachable: the retry loop always returns")

    # --- how many in flight ---------------------------------------------------------------------
    def target_in_flight(self, op: Operation) -> int:
        """Enough calls in flight to keep the quota busy at the latency seen, with headroom for the
        burst that opens each window, and no more: ``ceil(4 * calls_per_second * latency) + 4``,
        at most ``max_in_flight``. (More in flight than needed costs client CPU per call.)"""
        rates = [self.limiter.limits[s] / self.limiter.window for s in ("all", op.limit_key)
                 if s in self.limiter.limits]
        if not rates or self._latency is None:
            return min(self.max_in_flight, 8)
        return min(self.max_in_flight, math.ceil(4 * min(rates) * self._latency) + 4)

    async def _enter(self, op: Operation) -> None:
        if self._freed is None:
            self._freed = asyncio.Event()
        while self._in_flight >= self.target_in_flight(op):
            self._freed.clear()
            await self._freed.wait()
        self._in_flight += 1

    def _leave(self, ticket: Any, seconds: float | None = None) -> None:
        if ticket is not None:
            self.limiter.release(ticket)
        if seconds is not None:
            self._latency = seconds if self._latency is None else 0.8 * self._latency + 0.2 * seconds
        self._in_flight -= 1
        if self._freed is not None:
            self._freed.set()

    async def _call(self, url: str, payload: bytes | None, headers: dict[str, str], method: str = "POST") -> _Call:
        """One HTTP exchange within the deadline: status, headers and the decoded body, or what went
        wrong with the answer. Connection failures raise ``httpx.TransportError``."""
        call = _Call()
        deadline = asyncio.timeout(self.deadline)
        try:
            async with deadline:
                async with self._http.stream(method, url, content=payload, headers=headers) as response:
                    call.status, call.headers = response.status_code, response.headers
                    call.body = await read_answer(response, self.max_answer_bytes)
        except AnswerProblem as problem:
            call.problem = problem
        except TimeoutError:
            if not deadline.expired():
                raise
            call.problem = too_slow(self.deadline)
        return call

    def _answer(self, call: _Call, idempotent: bool, op: Operation) -> v.Verdict:
        status, body, problem = call.status, call.body, call.problem
        if problem is not None and (status is None or 200 <= status < 300):
            return v.verdict(problem.situation, idempotent, status=status, error=problem.text)
        assert status is not None  # an answer came: its status decides
        if op.json:  # a modular JSON API: its envelope (workbench.transport.json_answer)
            j = judge_json(status, body, idempotent)
            return v.Verdict(v.JSON_ANSWER, j.outcome, status, None, j.ruid, body, j.error, j.retry, j.maybe_applied,
                             j.fatal, j.envelope)
        ruid = extract_ruid(body)
        parsed: OTAResponse | None = None
        trouble = problem.text if problem is not None else None
        page = _page(body)
        if page:
            trouble = trouble or f"{page}: {_start(body)}"
        elif body.strip():
            try:
                parsed = parse_response(body)
            except ResponseParseError as exc:
                trouble = str(exc)
        if parsed is not None and parsed.ruid:
            ruid = parsed.ruid
        fields: dict[str, Any] = {"status": status, "response": parsed, "ruid": ruid, "body": body}
        if 200 <= status < 300:
            if page:
                return v.verdict(v.NOT_PLATFORM, idempotent, error=f"not an answer of the platform (HTTP {status}, "
                                 f"{page}): {_start(body)}", **fields)
            if parsed is None:  # damaged or empty body (cut in transit): a failed try
                return v.verdict(v.UNREADABLE, idempotent, error=f"unreadable answer (HTTP {status}): "
                                 f"{trouble or 'empty body'}; {_start(body)}", **fields)
            expected = op.name + "RS" if "/ota/" in op.path else None
            if expected and parsed.root != expected and not parsed.errors:
                trouble = f"expected <{expected}>, got <{parsed.root}>"
            if parsed.errors:
                credentials = any(n.code in FAULT_FATAL for n in parsed.errors)
                return v.verdict(v.REJECTED_CREDENTIALS if credentials else v.REJECTED, idempotent, **fields)
            if not trouble and (parsed.read_ok() if op.read else parsed.success):
                return v.verdict(v.SUCCESS, idempotent, **fields)
            what = trouble or ("no content and no Errors" if op.read else "neither Success nor Errors")
            return v.verdict(v.UNRECOGNISED, idempotent, error=f"unrecognised answer (HTTP {status}, {what}): "
                             f"{_start(body)}", **fields)
        said = f" ({problem.text})" if problem is not None else ""
        if status in NOT_PROCESSED:
            return v.verdict(v.NOT_PROCESSED, idempotent, error=f"HTTP {status}{said}", **fields)
        if status in AMBIGUOUS_5XX:
            return v.verdict(v.AMBIGUOUS_5XX, idempotent, error=f"HTTP {status}{said}", **fields)
        if status >= 500:
            return v.verdict(v.FATAL_5XX if status in FATAL_STATUS else v.OTHER_5XX, idempotent,
                             error=f"HTTP {status}{said}", **fields)
        text = parsed.errors[0].message if parsed is not None and parsed.errors else (trouble or f"HTTP {status}")
        return v.verdict(v.FATAL_STATUS if status in FATAL_STATUS else v.REJECTED_STATUS, idempotent,
                         error=f"HTTP {status}: {text}", **fields)

    def _dated(self, verdict: v.Verdict, call: _Call, op: Operation) -> tuple[v.Verdict, Dated]:
        """The platform's calendar in the answer (:mod:`workbench.transport.platform_date`): a deprecation
        header becomes a warning; a sunset's 400 says what to use instead and stops the run; a 401 to Basic
        credentials says how to switch."""
        error, dated = read_calendar(call.status or 0, verdict.error or f"HTTP {call.status}", call.headers,
                                     operation=op.name, version=self.headers(op).get("Accept-Version", ""),
                                     provider_type=self.settings.connection.provider_type, basic=self._basic)
        return (replace(verdict, error=error, fatal=True) if error else verdict), dated

    @staticmethod
    def _transport_error(exc: httpx.TransportError, idempotent: bool) -> v.Verdict:
        text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        refused = tls_failure(exc)
        if refused:
            return v.verdict(v.TLS, idempotent, error=f"{refused}: {text}")
        if isinstance(exc, _NOT_SENT):
            return v.verdict(v.NOT_SENT, idempotent, error=text)
        if isinstance(exc, _AMBIGUOUS):
            return v.verdict(v.NO_ANSWER, idempotent, error=text)
        return v.verdict(v.OTHER_FAILURE, idempotent, error=text)

    # --- many requests ------------------------------------------------------------------------------
    async def send_many(self, items: Iterable[SendItem | tuple[Any, ...]], on_result: OnResult | None = None, *,
                        stop_on_fatal: bool = True) -> list[Result]:
        """Send ``items`` with up to ``max_in_flight`` at once; ``on_result`` (sync or async) is
        called with each :class:`Result` as it arrives. Returns the results in input order.

        With ``stop_on_fatal`` a settings problem (401, wrong host, TLS...) stops taking new items;
        the ones not sent get no result. No token to be had (:class:`TokenUnavailable`, :class:`TokenRefused`)
        stops it too: the item that met it gets a ``failed`` result with no attempt (it was not sent), the
        calls in flight finish and are delivered, then the error is raised; so does the platform refusing
        Basic authentication as sunset (a :class:`ConfigurationError` saying how to switch).
        """
        source = iter(enumerate(items))
        results: dict[int, Result] = {}
        stop = asyncio.Event()
        deliver = asyncio.Lock()
        no_token: list[Exception] = []

        async def worker() -> None:
            for index, raw in source:
                item = raw if isinstance(raw, SendItem) else SendItem(*raw)
                try:
                    result = await self.send(item.operation, item.body, context=item.context,
                                             idempotent=item.idempotent, method=item.method, path=item.path)
                except (TokenUnavailable, TokenRefused) as exc:  # nothing of this item was sent: said so
                    no_token.append(exc)
                    stop.set()
                    result = Result(operation(item.operation).name, Outcome.FAILED, None, None, None, 0, (),
                                    item.context, error=str(exc), fatal=True)
                if result.extra.get("stop") is not None:  # e.g. the platform refusing Basic authentication
                    no_token.append(result.extra["stop"])
                results[index] = result
                if on_result is not None:
                    async with deliver:
                        value = on_result(result)
                        if inspect.isawaitable(value):
                            await value
                if result.fatal and stop_on_fatal:
                    stop.set()
                if stop.is_set():
                    return

        workers = [asyncio.create_task(worker()) for _ in range(self.max_in_flight)]
        try:
            await asyncio.gather(*workers)
        finally:
            for w in workers:
                w.cancel()
        if no_token:
            raise no_token[0]
        return [results[i] for i in sorted(results)]


@dataclass
class _Call:
    """What one exchange brought: the status and headers (once they came), the decoded body, or the
    problem that ended the reading of the answer."""

    status: int | None = None
    headers: httpx.Headers = field(default_factory=httpx.Headers)
    body: bytes = b""
    problem: AnswerProblem | None = None


__all__ = ["OnResult", "PlatformClient", "SendItem", "auth_for", "basic_auth", "limiter_for", "ssl_context"]


def _start(body: bytes, limit: int = 200) -> str:
    """The start of an answer's body, on one line, for a report."""
    text = " ".join(body[: limit * 2].decode("utf-8", "replace").split())
    return (text[:limit] + "…") if len(text) > limit else (text or "(empty body)")


def _page(body: bytes) -> str | None:
    """What the body is when it is neither XML nor JSON (so not the platform's answer), else None."""
    head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if not head or head.startswith((b"{", b"[")):
        return None
    if head.startswith((b"<!doctype html", b"<html")):
        return "an HTML page"
    if head.startswith(b"<"):
        return None
    text = head.decode("utf-8", "replace").rstrip("\ufffd")  # a character cut at byte 512 is not binary
    binary = "\ufffd" in text or any(ord(c) < 32 and c not in "\t\r\n" for c in text)
    return "binary data" if binary else "plain text"
