"""HTTP client of the car search service: one POST with retries, typed errors, paginated listings.

429, 5xx, connection failures and answers that cannot be read (larger than ``WORKBENCH_MAX_ANSWER_BYTES``
after decoding, not over within the deadline, a broken encoding: :mod:`workbench.transport.answer`) are
retried with :class:`workbench.transport.backoff.RetryPolicy` (``Retry-After`` honoured); other 4xx and a
refused TLS handshake are raised at once. A search is a read, so re-sending it after
an ambiguous failure is safe. Amounts keep their exact decimal value (JSON numbers are parsed as
``Decimal``). Headers are never logged.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import httpx

from workbench.cars.connection import DemandConnection, Endpoints
from workbench.cars.errors import (
    ApiError,
    CarsAPIError,
    CarsConnectionError,
    CarsResponseError,
    error_class_for,
)
from workbench.cars.pagination import DEFAULT_MAX_PAGES, Paged, collect
from workbench.cars.params import SearchParams
from workbench.config import Settings
from workbench.transport.answer import AnswerProblem, decoded_response, read_answer_sync
from workbench.transport.backoff import RETRIABLE_STATUS, RetryPolicy, parse_retry_after
from workbench.transport.tls import tls_failure
from workbench.wording import count

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class ClientStats:
    """What the client did: requests sent (attempts), retries, 429 answers seen."""

    requests: int = 0
    retries: int = 0
    rate_limited: int = 0


class CarSearchClient:
    """Talks to ``/{version}/search``, ``/common/languages`` and the static-data endpoints.

    Pass ``transport`` (e.g. ``httpx.MockTransport``) or a ready ``http`` client (e.g. Starlette's
    ``TestClient``) to test without a network; ``sleep`` and ``clock`` are injectable too.
    """

    def __init__(self, connection: DemandConnection, *, transport: httpx.BaseTransport | None = None,
                 http: httpx.Client | None = None, retry: RetryPolicy | None = None,
                 sleep: Callable[[float], None] = time.sleep, clock: Clock = utc_now) -> None:
        self.connection = connection
        self.retry = retry or RetryPolicy()
        self.sleep = sleep
        self.clock = clock
        self.stats = ClientStats()
        self._owns_http = http is None
        self._http = http or httpx.Client(transport=transport, verify=connection.verify,
                                          timeout=httpx.Timeout(connection.timeout_seconds))
        self._languages: list[str] | None = None

    @classmethod
    def from_settings(cls, settings: Settings, endpoints: Endpoints | None = None, **kwargs: Any) -> CarSearchClient:
        return cls(DemandConnection.from_settings(settings, endpoints), **kwargs)

    def __enter__(self) -> CarSearchClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __repr__(self) -> str:
        return f"CarSearchClient({self.connection.base_url!r}, version={self.connection.api_version!r})"

    # one request -----------------------------------------------------------------------------

    def post(self, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST ``body`` to ``endpoint`` (a name in :class:`Endpoints`); the parsed JSON answer."""
        url = self.connection.url(endpoint)
        path = httpx.URL(url).path
        content = json.dumps(body, separators=(",", ":"), default=json_default).encode()
        headers = {**self.connection.headers(), "Content-Type": "application/json"}
        attempt = 0
        while True:
            attempt += 1
            self.stats.requests += 1
            try:
                resp = self._exchange(url, content, headers)
            except (httpx.TransportError, AnswerProblem) as exc:
                what = exc.text if isinstance(exc, AnswerProblem) else f"{type(exc).__name__}: {exc}"
                refused = tls_failure(exc, "WORKBENCH_DEMAND_CA_BUNDLE", "WORKBENCH_DEMAND_BASE_URL")
                if not refused and self.retry.should_retry(attempt):  # a search is a read: safe to resend
                    self._wait(attempt, None, f"{what} on {path}")
                    continue
                if isinstance(exc, AnswerProblem):
                    raise CarsConnectionError(f"the answer from `{url}` could not be read after "
                                              f"{count(attempt, 'attempt')}: {what}") from None
                raise CarsConnectionError(f"could not reach the car search service at `{url}` after "
                                          f"{count(attempt, 'attempt')}: {refused + ': ' if refused else ''}{what}") from exc
            if resp.status_code == 429:
                self.stats.rate_limited += 1
            if resp.status_code in RETRIABLE_STATUS or resp.status_code >= 500:
                if self.retry.should_retry(attempt):
                    retry_after = parse_retry_after(resp.headers.get("Retry-After"))
                    self._wait(attempt, retry_after, f"HTTP {resp.status_code} on {path} "
                                                     f"(request_id {_request_id(resp)})")
                    continue
            if resp.status_code >= 400:
                raise api_error(resp, path=path, attempts=attempt)
            return _json_object(resp, path)

    def _exchange(self, url: str, content: bytes, headers: dict[str, str]) -> httpx.Response:
        """One POST, its answer read within the connection's limits (size after decoding, deadline)."""
        started = time.monotonic()
        with self._http.stream("POST", url, content=content, headers=headers) as streamed:
            limits = self.connection.answers
            body = read_answer_sync(streamed, limits.max_bytes, started=started, seconds=limits.deadline_seconds)
            return decoded_response(streamed, body)

    def _wait(self, attempt: int, retry_after: float | None, why: str) -> None:
        delay = self.retry.delay(attempt, retry_after)
        self.stats.retries += 1
        log.info("car search: %s; retry %d in %.2fs", why, attempt, delay)
        self.sleep(delay)

    # listings ------------------------------------------------------------------------------

    def collect(self, endpoint: str, body: dict[str, Any] | None = None, *, max_pages: int = DEFAULT_MAX_PAGES,
                progress: bool = False, what: str | None = None) -> Paged:
        """Every record of a paginated endpoint, each once (see :mod:`workbench.cars.pagination`)."""
        return collect(lambda b: self.post(endpoint, b), body or {}, what=what or endpoint,
                       max_pages=max_pages, progress=progress)

    def supported_languages(self, refresh: bool = False) -> list[str]:
        """Language codes from ``/common/languages`` (kept for the life of this client)."""
        if self._languages is None or refresh:
            self._languages = [str(r.get("code") or r.get("id")) for r in self.collect("languages").records
                               if r.get("code") or r.get("id")]
        return self._languages

    def search(self, params: SearchParams, *, supported_languages: Collection[str] | None = None,
               max_pages: int = DEFAULT_MAX_PAGES, progress: bool = False) -> Paged:
        """Check ``params`` (nothing is sent if they are wrong), then fetch every page of results."""
        params.check(self.clock())  # dates, codes, locations: no request at all when wrong
        if supported_languages is None:
            supported_languages = self.supported_languages()
        params.check(self.clock(), supported_languages)
        return self.collect("search", params.to_body(), max_pages=max_pages, progress=progress, what="car results")


def api_error(resp: httpx.Response, *, path: str = "", attempts: int = 1) -> CarsAPIError:
    """The typed exception for an error answer, with ``request_id`` and every ``id``/``message``."""
    body: object
    try:
        body = json.loads(resp.content, parse_float=Decimal)
    except ValueError:
        body = resp.text
    errors: list[ApiError] = []
    request_id = None
    if isinstance(body, dict):
        request_id = body.get("request_id")
        raw = body.get("errors")
        items = raw if isinstance(raw, list) else ([raw] if raw is not None else [])
        for item in items:
            if isinstance(item, dict):
                errors.append(ApiError(str(item.get("id") or item.get("code") or "unknown"),
                                       str(item.get("message") or item.get("description") or "")))
            else:
                errors.append(ApiError("unknown", str(item)))
        if not errors and (body.get("message") or body.get("error")):
            errors.append(ApiError(str(body.get("error") or f"http_{resp.status_code}"), str(body.get("message") or "")))
    if not errors:
        text = body.strip()[:200] if isinstance(body, str) else ""
        errors.append(ApiError(f"http_{resp.status_code}", text or resp.reason_phrase or "no body"))
    rid = request_id if request_id is not None else resp.headers.get("X-Request-Id")
    cls = error_class_for(resp.status_code)
    return cls(resp.status_code, None if rid is None else str(rid), errors, path=path, attempts=attempts, body=body)


def _request_id(resp: httpx.Response) -> str | None:
    try:
        body = resp.json()
    except ValueError:
        return resp.headers.get("X-Request-Id")
    return body.get("request_id") if isinstance(body, dict) else None


def _json_object(resp: httpx.Response, path: str) -> dict[str, Any]:
    try:
        body = json.loads(resp.content, parse_float=Decimal)
    except ValueError:
        snippet = resp.text.strip()[:120]
        raise CarsResponseError(f"the answer from `{path}` (HTTP {resp.status_code}) is not JSON: `{snippet}`") from None
    if not isinstance(body, dict):
        raise CarsResponseError(f"the answer from `{path}` is JSON but not an object")
    return body


def json_default(value: object) -> object:
    """JSON for what the client holds: ``Decimal`` as a number, date-times as ISO text."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot send {type(value).__name__} as JSON")
