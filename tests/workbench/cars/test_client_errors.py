"""Every error shape becomes a typed exception with request_id and each id/message; retries only where safe."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from workbench.cars import (
    ApiError,
    CarsAPIError,
    CarsAuthError,
    CarsClientError,
    CarsConnectionError,
    CarsRateLimitError,
    CarsResponseError,
    CarsServerError,
)
from workbench.transport.backoff import RetryPolicy

OK = {"request_id": "ok-1", "data": [], "metadata": {}}


def reply(status: int, body: Any = None, headers: dict[str, str] | None = None, text: str | None = None):
    def handler(request: httpx.Request) -> httpx.Response:
        if text is not None:
            return httpx.Response(status, text=text, headers=headers)
        return httpx.Response(status, json=body, headers=headers)

    return handler


def sequence(*responses: httpx.Response):
    it = iter(responses)
    return lambda request: next(it)


@pytest.mark.parametrize(("status", "body", "cls", "request_id", "errors"), [
    (400, {"request_id": "r-1", "errors": [{"id": "invalid_parameter", "message": "`pickup.datetime` is in the past"},
                                           {"id": "missing_parameter", "message": "`booker.country` is required"}]},
     CarsClientError, "r-1", [("invalid_parameter", "`pickup.datetime` is in the past"),
                             ("missing_parameter", "`booker.country` is required")]),
    (401, {"request_id": "r-2", "errors": [{"id": "invalid_api_key", "message": "the API key is not valid"}]},
     CarsAuthError, "r-2", [("invalid_api_key", "the API key is not valid")]),
    (403, {"request_id": "r-3", "errors": [{"id": "invalid_affiliate_id", "message": "no"}]},
     CarsAuthError, "r-3", [("invalid_affiliate_id", "no")]),
    (404, {"request_id": "r-4", "errors": [{"id": "not_found", "message": "no endpoint"}]},
     CarsClientError, "r-4", [("not_found", "no endpoint")]),
    (422, {"request_id": 77, "errors": [{"id": "invalid_parameter"}]},  # numeric id, message missing
     CarsClientError, "77", [("invalid_parameter", "")]),
    (400, {"errors": [{"message": "something off"}]},  # no request_id, no id
     CarsClientError, None, [("unknown", "something off")]),
    (400, {"request_id": "r-5", "errors": ["plain text error"]},
     CarsClientError, "r-5", [("unknown", "plain text error")]),
    (400, {"request_id": "r-6", "errors": {"id": "invalid_parameter", "message": "single object"}},
     CarsClientError, "r-6", [("invalid_parameter", "single object")]),
    (400, {"request_id": "r-7", "error": "bad_request", "message": "other service shape"},
     CarsClientError, "r-7", [("bad_request", "other service shape")]),
    (400, {"request_id": "r-8", "errors": []},
     CarsClientError, "r-8", [("http_400", "Bad Request")]),
    (409, ["not", "an", "object"], CarsClientError, None, [("http_409", "Conflict")]),
])
def test_error_bodies_become_typed_errors_with_every_detail(mock_client: Any, status: int, body: Any, cls: type,
                                                             request_id: str | None,
                                                             errors: list[tuple[str, str]]) -> None:
    client, seen, sleeps = mock_client(reply(status, body))
    with pytest.raises(CarsAPIError) as err:
        client.post("search", {"q": 1})
    exc = err.value
    assert type(exc) is cls
    assert exc.status == status and exc.request_id == request_id
    assert [(e.id, e.message) for e in exc.errors] == errors
    assert exc.ids == [e[0] for e in errors] and exc.messages == [e[1] for e in errors]
    assert exc.path == "/3.1/search" and exc.attempts == 1
    assert len(seen) == 1 and sleeps == []  # 4xx: never retried
    for eid, _ in errors:
        assert eid in str(exc)
    if request_id:
        assert request_id in str(exc)


def test_non_json_error_body_keeps_its_text_and_the_header_request_id(mock_client: Any) -> None:
    client, seen, _ = mock_client(reply(400, text="<html>Bad gateway config</html>", headers={"X-Request-Id": "h-1"}))
    with pytest.raises(CarsClientError) as err:
        client.post("search", {})
    assert err.value.request_id == "h-1"
    assert err.value.errors == [ApiError("http_400", "<html>Bad gateway config</html>")]


def test_5xx_is_retried_then_succeeds(mock_client: Any) -> None:
    client, seen, sleeps = mock_client(sequence(
        httpx.Response(503, json={"request_id": "a", "errors": [{"id": "unavailable", "message": "busy"}]}),
        httpx.Response(502, text="Bad Gateway"),
        httpx.Response(200, json=OK)))
    assert client.post("search", {}) == OK
    assert len(seen) == 3 and sleeps == [0.5, 1.0]
    assert client.stats.retries == 2 and client.stats.requests == 3


def test_5xx_after_every_retry_is_a_server_error_with_its_details(mock_client: Any) -> None:
    body = {"request_id": "r-500", "errors": [{"id": "internal_error", "message": "boom"}]}
    client, seen, sleeps = mock_client(reply(500, body))
    with pytest.raises(CarsServerError) as err:
        client.post("search", {})
    assert len(seen) == 3 and len(sleeps) == 2
    assert err.value.attempts == 3 and err.value.request_id == "r-500" and err.value.ids == ["internal_error"]
    assert "after 3 attempts" in str(err.value)


def test_429_waits_as_told_by_retry_after(mock_client: Any) -> None:
    client, seen, sleeps = mock_client(sequence(
        httpx.Response(429, json={"request_id": "t", "errors": [{"id": "too_many_requests", "message": "slow"}]},
                       headers={"Retry-After": "7"}),
        httpx.Response(200, json=OK)))
    assert client.post("search", {}) == OK
    assert sleeps == [7.0] and client.stats.rate_limited == 1


def test_429_after_every_retry_is_a_rate_limit_error(mock_client: Any) -> None:
    client, seen, sleeps = mock_client(reply(429, {"request_id": "t", "errors": [{"id": "too_many_requests",
                                                                                  "message": "slow down"}]}),
                                       retry=RetryPolicy(max_attempts=4, jitter=False))
    with pytest.raises(CarsRateLimitError) as err:
        client.post("search", {})
    assert len(seen) == 4 and err.value.attempts == 4 and err.value.messages == ["slow down"]


def test_connection_failures_are_retried_then_reported(mock_client: Any) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    client, seen, sleeps = mock_client(refuse)
    with pytest.raises(CarsConnectionError, match="after 3 attempt"):
        client.post("search", {})
    assert len(seen) == 3 and len(sleeps) == 2


@pytest.mark.parametrize(("response", "words"), [
    (httpx.Response(200, text="<html>maintenance</html>"), "is not JSON"),
    (httpx.Response(200, json=[1, 2]), "not an object"),
])
def test_unusable_success_bodies_are_response_errors(mock_client: Any, response: httpx.Response, words: str) -> None:
    client, _, _ = mock_client(lambda request: response)
    with pytest.raises(CarsResponseError, match=words):
        client.post("search", {})


def test_requests_carry_credentials_and_json_and_errors_never_show_the_key(mock_client: Any, api_key: str) -> None:
    client, seen, _ = mock_client(reply(401, {"request_id": "r", "errors": [{"id": "invalid_api_key", "message": "no"}]}))
    with pytest.raises(CarsAuthError) as err:
        client.post("search", {"booker": {"country": "nl"}})
    req = seen[0]
    assert req.method == "POST" and str(req.url) == "https://demand.test/3.1/search"
    assert req.headers["Authorization"] == f"Bearer {api_key}" and req.headers["X-Affiliate-Id"] == "1234567"
    assert req.headers["Content-Type"] == "application/json"
    assert json.loads(req.content) == {"booker": {"country": "nl"}}
    assert api_key not in str(err.value) and api_key not in repr(err.value.body) and api_key not in repr(client)


def test_amounts_keep_their_exact_decimal_value(mock_client: Any) -> None:
    from decimal import Decimal

    client, _, _ = mock_client(lambda r: httpx.Response(200, content=b'{"data": [{"price": {"total": 121.90}}]}'))
    assert client.post("search", {})["data"][0]["price"]["total"] == Decimal("121.90")
