"""The sandbox as the platform is today (``auth="platform"``), in-process: the token exchange (RS256 JWTs with
sub, aud, iss, exp, iat; 30 an hour; logged), Bearer on every endpoint, Basic refused from 2026-01-01, and the
operation catalogue's sunsets (400) and deprecations (warning headers) by the sandbox's date. ``auth="spec"``
keeps the spec's Basic-only behaviour."""

from __future__ import annotations

import base64
import datetime as dt
import json
from collections.abc import Iterator

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from workbench.ota.response import parse_response
from workbench.sandbox import SandboxConfig
from workbench.sandbox.platform.tokens import AUDIENCE, ISSUER, TokenIssuer, new_key
from workbench.sandbox.testing import (
    DESCRIPTIVE_INFO_PATH,
    InProcess,
    descriptive_info_request,
    inv_notif_request,
    message,
    product,
    rate_request,
)

EXCHANGE = "/token-based-authentication/exchange"
GOOD = rate_request(1000001, [message("2027-01-01", "2027-01-02", "101", "5001",
                                      {"AmountAfterTax": "129", "CurrencyCode": "EUR"})])
JSON = {"Content-Type": "application/json"}
XML = {"Content-Type": "application/xml"}


@pytest.fixture
def box(request) -> Iterator[InProcess]:
    options = {"token_lifetime": 600, **getattr(request, "param", {})}
    sb = InProcess(SandboxConfig(password="pw", auth="platform", today=dt.date(2026, 12, 1), client_secret="cs",
                                 **options))
    try:
        yield sb
    finally:
        sb.close()


def exchange(box: InProcess, body: object = None) -> object:
    payload = json.dumps(body if body is not None else {"client_id": box.sandbox.config.client_id,
                                                        "client_secret": "cs"}).encode()
    return box.request("POST", EXCHANGE, payload, JSON, auth=None)


def bearer(token: str) -> dict[str, str]:
    return {**XML, "Authorization": f"Bearer {token}"}


def test_the_exchange_issues_an_rs256_jwt_and_logs_itself(box: InProcess) -> None:
    answer = exchange(box)
    assert answer.status_code == 200 and set(answer.json()) == {"jwt", "ruid"}
    token = answer.json()["jwt"]
    assert jwt.get_unverified_header(token)["alg"] == "RS256"
    claims = jwt.decode(token, options={"verify_signature": False})
    assert {k: claims[k] for k in ("sub", "aud", "iss")} == {"sub": "sandbox-api-token", "aud": AUDIENCE,
                                                             "iss": ISSUER}
    assert claims["exp"] - claims["iat"] == 600
    ok = box.request("POST", "/hotels/ota/OTA_HotelRateAmountNotif", GOOD, bearer(token), auth=None)
    assert ok.status_code == 200 and parse_response(ok.content).success
    log = box.requests()
    assert [(r["endpoint"], r["status"], r["account"]) for r in log] == [
        ("token-exchange", "200", "sandbox-api-token"), ("OTA_HotelRateAmountNotif", "200", "sandbox-api-token")]
    assert token not in json.dumps(log) and "cs" not in {r["account"] for r in log}


@pytest.mark.parametrize(("body", "status"), [
    ({"client_id": "sandbox-api-token", "client_secret": "wrong"}, 401),
    ({"client_id": "someone-else", "client_secret": "cs"}, 401),
    ({"client_id": "sandbox-api-token"}, 400),
    ([], 400),
])
def test_the_exchange_refuses_what_is_not_the_account(box: InProcess, body: object, status: int) -> None:
    answer = exchange(box, body)
    assert answer.status_code == status and "jwt" not in answer.json() and answer.json()["ruid"]


def test_at_most_30_exchanges_per_client_in_any_hour() -> None:
    now = [1_800_000_000.0]
    issuer = TokenIssuer(new_key(), "c", "s", clock=lambda: now[0])
    body = json.dumps({"client_id": "c", "client_secret": "s"}).encode()
    for n in range(30):
        assert issuer.exchange(body, f"r{n}").status == 200
        now[0] += 100
    refused = issuer.exchange(body, "r30")
    assert refused.status == 429 and refused.headers["Retry-After"] == str(3600 - 3000)
    now[0] = 1_800_000_000.0 + 3600  # the first one is an hour old: one more is allowed
    assert issuer.exchange(body, "r31").status == 200


def _forged(claims: dict) -> str:
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return jwt.encode(claims, other, algorithm="RS256")


def _claims(**changes: object) -> dict:
    now = int(dt.datetime.now(dt.UTC).timestamp())
    return {"sub": "sandbox-api-token", "aud": AUDIENCE, "iss": ISSUER, "iat": now, "exp": now + 600, **changes}


@pytest.mark.parametrize(("make", "said"), [
    (lambda box, token: _forged(_claims()), "not one this platform issued"),
    (lambda box, token: token[:-6], "not one this platform issued"),
    (lambda box, token: jwt.encode(_claims(), "s" * 32, algorithm="HS256"), "not one this platform issued"),
    (lambda box, token: "not-a-jwt", "not one this platform issued"),
])
def test_a_token_the_platform_did_not_issue_is_401(box: InProcess, make, said: str) -> None:
    token = make(box, exchange(box).json()["jwt"])
    answer = box.request("POST", "/hotels/ota/OTA_HotelRateAmountNotif", GOOD, bearer(token), auth=None)
    assert answer.status_code == 401 and said in parse_response(answer.content).errors[0].message
    assert answer.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize("box", [{"token_lifetime": 1}], indirect=True)
def test_an_expired_token_is_401_saying_so(box: InProcess) -> None:
    import time

    token = exchange(box).json()["jwt"]
    time.sleep(2.1)
    answer = box.request("POST", "/hotels/xml/roomrates", b"<request><hotel_id>1000001</hotel_id></request>",
                         {**bearer(token), "Content-Type": "application/xml"}, auth=None)
    assert answer.status_code == 401 and b"the token has expired" in answer.content


@pytest.mark.parametrize(("today", "ok"), [(dt.date(2025, 12, 31), True), (dt.date(2026, 1, 1), False)])
def test_basic_is_taken_until_its_sunset_and_refused_from_the_next_day(today: dt.date, ok: bool) -> None:
    box = InProcess(SandboxConfig(password="pw", auth="platform", today=today))
    try:
        answer = box.push(rate_request(1000001, [message("2026-01-02", "2026-01-03", "101", "5001",
                                                         {"AmountAfterTax": "99", "CurrencyCode": "EUR"})]))
    finally:
        box.close()
    if ok:
        assert answer.status_code == 200
    else:
        assert answer.status_code == 401
        assert "Basic authentication was sunset on 2025-12-31: use token-based authentication" in \
            parse_response(answer.content).errors[0].message


def test_spec_mode_is_basic_only() -> None:
    box = InProcess(SandboxConfig(password="pw", auth="spec", today=dt.date(2026, 12, 1)))
    try:
        assert box.push(GOOD).status_code == 200  # Basic, after 2025 too
        assert box.request("POST", EXCHANGE, b"{}", JSON, auth=None).status_code == 404
        token = base64.b64encode(b"x").decode()
        assert box.request("POST", "/hotels/ota/OTA_HotelRateAmountNotif", GOOD, bearer(token),
                           auth=None).status_code == 401
    finally:
        box.close()


@pytest.mark.parametrize(("today", "provider", "path", "body", "status", "code"), [
    (dt.date(2026, 12, 31), "Hotel", "/hotels/ota/OTA_HotelDescriptiveContentNotif", b"<x/>", 400, "OPERATION_SUNSET"),
    (dt.date(2026, 12, 31), "Hotel", "/hotels/ota/OTA_HotelSummaryNotif", b"<x/>", 400, "OPERATION_SUNSET"),
    (dt.date(2026, 12, 31), "Home", "/hotels/ota/OTA_HotelInvNotif",
     inv_notif_request(1000001, [product("Overlay", "101")]), 400, "OPERATION_SUNSET"),
    (dt.date(2026, 12, 31), "Home", DESCRIPTIVE_INFO_PATH, descriptive_info_request(1000001), 400,
     "OPERATION_SUNSET"),
    (dt.date(2026, 12, 31), "Hotel", DESCRIPTIVE_INFO_PATH, descriptive_info_request(1000001), 200, None),
    (dt.date(2026, 12, 1), "Hotel", "/hotels/xml/currencies", b"", 400, "OPERATION_SUNSET"),  # since 2025-09-22
])
def test_sunsets_by_the_sandbox_date(today, provider, path, body, status, code) -> None:
    box = InProcess(SandboxConfig(password="pw", auth="platform", today=today, provider_type=provider,
                                  client_secret="cs"))
    try:
        token = exchange(box).json()["jwt"]
        headers = bearer(token) if "/xml/" not in path else {**bearer(token),
                                                             "Content-Type": "application/x-www-form-urlencoded"}
        answer = box.request("POST", path, body, headers, auth=None)
    finally:
        box.close()
    assert answer.status_code == status, answer.text
    if code:
        assert parse_response(answer.content).errors[0].code == code and "sunset on" in answer.text
        assert answer.headers["sunset"].endswith("GMT")


def test_a_deprecated_operation_answers_with_warning_headers(box: InProcess) -> None:
    token = exchange(box).json()["jwt"]
    answer = box.request("POST", DESCRIPTIVE_INFO_PATH, descriptive_info_request(1000001), bearer(token), auth=None)
    assert answer.status_code == 200 and "warning" not in answer.headers  # Hotel: not deprecated for it
    content = box.request("POST", "/hotels/ota/OTA_HotelDescriptiveContentNotif", b"<x/>", bearer(token), auth=None)
    assert content.headers["warning"].startswith('299 - "OTA_HotelDescriptiveContentNotif is deprecated and is '
                                                 'sunset on 2026-12-31 (30 days left)')
    assert content.headers["deprecation"] == "@1735603200" and content.headers["sunset"] == \
        "Thu, 31 Dec 2026 00:00:00 GMT"


def test_a_sunset_version_answers_400(box: InProcess) -> None:
    token = exchange(box).json()["jwt"]
    answer = box.request("POST", "/hotels/ota/OTA_HotelRateAmountNotif", GOOD,
                         {**bearer(token), "Accept-Version": "1.0"}, auth=None)
    error = parse_response(answer.content).errors[0]
    assert answer.status_code == 400 and error.code == "UNSUPPORTED_VERSION"
    assert "OTA_HotelRateAmountNotif version 1.0 was sunset on 2024-02-14" in error.message
