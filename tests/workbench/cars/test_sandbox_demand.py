"""The car-search sandbox (workbench.sandbox.cars): auth, error bodies, pages, limits, determinism."""

from __future__ import annotations

import base64
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest


@pytest.fixture
def body(trip: dict[str, Any]) -> dict[str, Any]:
    from workbench.cars import SearchParams

    return SearchParams(**trip).to_body()


def errors(resp: Any) -> list[tuple[str, str]]:
    data = resp.json()
    assert set(data) == {"request_id", "errors"} and data["request_id"]
    return [(e["id"], e["message"]) for e in data["errors"]]


@pytest.mark.parametrize(("headers", "status", "error_id"), [
    ({"Authorization": ""}, 401, "missing_credentials"),
    ({"Authorization": "Basic aG90ZWw6czNjcmV0"}, 401, "legacy_credentials"),
    ({"Authorization": "Bearer wrong"}, 401, "invalid_api_key"),
    ({"Authorization": "Token test-key-0123456789abcdef"}, 401, "invalid_api_key"),
    ({"X-Affiliate-Id": ""}, 400, "missing_parameter"),
    ({"X-Affiliate-Id": "7654321"}, 403, "invalid_affiliate_id"),
])
def test_credentials_are_checked(sandbox_http: Any, body: dict[str, Any], headers: dict[str, str], status: int,
                                 error_id: str) -> None:
    http, _ = sandbox_http()
    resp = http.post("/3.1/search", json=body, headers=headers)
    assert resp.status_code == status and [e[0] for e in errors(resp)] == [error_id]


@pytest.mark.parametrize(("method", "path", "kwargs", "status", "error_id"), [
    ("POST", "/3.0/search", {"json": {}}, 404, "not_found"),
    ("POST", "/nowhere", {"json": {}}, 404, "not_found"),
    ("GET", "/3.1/search", {}, 405, "method_not_allowed"),
    ("POST", "/3.1/search", {"content": b"{}", "headers": {"Content-Type": "text/xml"}}, 400, "invalid_request"),
    ("POST", "/3.1/search", {"content": b"{nope", "headers": {"Content-Type": "application/json"}}, 400,
     "invalid_request"),
    ("POST", "/3.1/search", {"json": [1]}, 400, "invalid_request"),
    ("POST", "/3.1/search", {"json": {"page": "forged.0000"}}, 400, "invalid_parameter"),
])
def test_misuse_gets_the_error_body(sandbox_http: Any, method: str, path: str, kwargs: dict[str, Any], status: int,
                                    error_id: str) -> None:
    http, _ = sandbox_http()
    resp = http.request(method, path, **kwargs)
    assert resp.status_code == status and [e[0] for e in errors(resp)] == [error_id]


@pytest.mark.parametrize(("change", "expected"), [
    ({"booker": {}}, ("missing_parameter", "`booker.country` is required")),
    ({"booker": {"country": "nld"}}, ("invalid_parameter", "`booker.country` `nld` is not a two-letter country code")),
    ({"languages": []}, ("missing_parameter", "`languages` is required (one or more language tags)")),
    ({"languages": ["tlh"]}, ("invalid_parameter", "language `tlh` is not supported")),
    ({"languages": "en-gb"}, ("invalid_parameter", "`languages` must be an array of language tags")),
    ({"pickup": {"location": {"airport": "AMS"}}}, ("missing_parameter", "`pickup.datetime` is required")),
    ({"pickup": {"datetime": "2020-01-01T10:00:00", "location": {"airport": "AMS"}}},
     ("invalid_parameter", "`pickup.datetime` must be in the future")),
    ({"driver": {"age": 16}}, ("invalid_parameter", "`driver.age` `16` must be a whole number 18..99")),
    ({"currency": "XAU"}, ("invalid_parameter", "`currency` `XAU` is not supported here; one of EUR, USD, GBP, CHF, "
                                                "SEK, NOK, DKK, PLN, CZK, JPY")),
    ({"filters": {"transmission": "cvt"}}, ("invalid_parameter", "`filters.transmission` must be `automatic` or `manual`")),
    ({"pickup": {"datetime": "2026-06-01T10:00:00", "location": {"depot": 1}}},
     ("invalid_parameter", "`pickup.location.depot` `1` is not a known depot")),
])
def test_bad_input_is_named(sandbox_http: Any, body: dict[str, Any], change: dict[str, Any],
                            expected: tuple[str, str]) -> None:
    http, _ = sandbox_http()
    resp = http.post("/3.1/search", json={**body, **change})
    assert resp.status_code == 400 and expected in errors(resp)


def test_dropoff_before_pickup_is_refused(sandbox_http: Any, body: dict[str, Any]) -> None:
    http, _ = sandbox_http()
    body["dropoff"]["datetime"] = body["pickup"]["datetime"]
    assert errors(http.post("/3.1/search", json=body)) == [
        ("invalid_parameter", "`dropoff.datetime` must be after `pickup.datetime`")]


def test_pages_follow_by_token_and_amounts_mix_strings_and_numbers(sandbox_http: Any, body: dict[str, Any]) -> None:
    http, _ = sandbox_http(page_size=10)
    first = http.post("/3.1/search", json=body).json()
    token = first["metadata"]["next_page"]
    assert len(first["data"]) == 10 and token and first["metadata"]["total_results"] > 10
    second = http.post("/3.1/search", json={"page": token}).json()
    assert not {o["id"] for o in first["data"]} & {o["id"] for o in second["data"]}
    totals = [o["price"]["total"] for o in first["data"] + second["data"]]
    assert any(isinstance(t, str) for t in totals) and any(isinstance(t, float) for t in totals)
    assert all(Decimal(str(t)) > 0 for t in totals)
    raw, _, sig = token.rpartition(".")
    tampered = base64.urlsafe_b64encode(base64.urlsafe_b64decode(raw).replace(b'"o":10', b'"o":0')).decode()
    assert errors(http.post("/3.1/search", json={"page": f"{tampered}.{sig}"}))[0][0] == "invalid_parameter"


def test_inventory_is_deterministic_and_the_same_in_every_currency(sandbox_http: Any, body: dict[str, Any]) -> None:
    a, _ = sandbox_http(page_size=500)
    b, _ = sandbox_http(page_size=500)
    eur = a.post("/3.1/search", json=body).json()["data"]
    assert b.post("/3.1/search", json=body).json()["data"] == eur
    gbp = b.post("/3.1/search", json={**body, "currency": "GBP"}).json()["data"]
    assert sorted(o["id"] for o in gbp) == sorted(o["id"] for o in eur)
    assert {o["price"]["currency"] for o in gbp} == {"GBP"}


@pytest.mark.parametrize(("location", "found"), [
    ({"airport": "AMS"}, True), ({"coordinates": {"latitude": 52.30, "longitude": 4.75}}, True),
    ({"depot": 5001}, True), ({"airport": "XYZ"}, False), ({"coordinates": {"latitude": 0, "longitude": 0}}, False),
])
def test_locations(sandbox_http: Any, body: dict[str, Any], location: dict[str, Any], found: bool) -> None:
    http, _ = sandbox_http()
    body["pickup"]["location"] = body["dropoff"]["location"] = location
    data = http.post("/3.1/search", json=body).json()
    assert bool(data["data"]) is found
    assert (data["metadata"]["total_results"] > 0) is found


def test_rate_limit_answers_429_with_retry_after_until_the_minute_passes(sandbox_http: Any, clock: Any) -> None:
    http, _ = sandbox_http(rate_limit_per_minute=2)
    assert [http.post("/common/languages", json={}).status_code for _ in range(2)] == [200, 200]
    limited = http.post("/common/languages", json={})
    assert limited.status_code == 429 and limited.headers["Retry-After"] == "60"
    assert errors(limited)[0][0] == "too_many_requests"
    clock.advance(60)
    assert http.post("/common/languages", json={}).status_code == 200


def test_injected_faults_answer_once_each(sandbox_http: Any) -> None:
    http, sandbox = sandbox_http()
    sandbox.inject_faults(503, 502, retry_after=2)
    first = http.post("/common/languages", json={})
    assert first.status_code == 503 and first.headers["Retry-After"] == "2"
    assert http.post("/common/languages", json={}).status_code == 502
    assert http.post("/common/languages", json={}).status_code == 200
    assert [s for _, _, s in sandbox.log] == [503, 502, 200]


def test_static_lists_have_ids_and_paginate(sandbox_http: Any) -> None:
    http, sandbox = sandbox_http(static_page_size=3)
    first = http.post("/3.1/suppliers", json={}).json()
    assert [s["id"] for s in first["data"]] == [101, 102, 103]
    rest = http.post("/3.1/suppliers", json={"page": first["metadata"]["next_page"]}).json()
    assert rest["data"][0]["id"] == 104
    wrong = http.post("/3.1/depots", json={"page": first["metadata"]["next_page"]})
    assert errors(wrong)[0][0] == "invalid_parameter"
    depots = http.post("/3.1/depots", json={}).json()["data"]
    assert all({"id", "supplier", "name", "location"} <= set(d) for d in depots)
    assert http.post("/3.1/common/languages", json={}).json()["data"][0] == {"code": "en-gb", "name": "English (UK)"}


def test_a_later_clock_refuses_a_pickup_that_has_passed(sandbox_http: Any, body: dict[str, Any], clock: Any) -> None:
    http, _ = sandbox_http()
    assert http.post("/3.1/search", json=body).status_code == 200
    clock.advance(timedelta(days=30).total_seconds())
    assert ("invalid_parameter", "`pickup.datetime` must be in the future") in errors(
        http.post("/3.1/search", json=body))
