"""POST /oauth/token: RFC 6749 client credentials, the JWT it issues, errors, rate limit."""

from __future__ import annotations

import base64
import time
from urllib.parse import quote_plus

import httpx
import jwt
import pytest

from workbench.notify import NotifyService


@pytest.fixture
def database_url() -> None:
    """SQLite only here: the PostgreSQL path is covered in test_store and test_receiver."""
    return None


def form(creds, **changes: str | None) -> dict[str, str]:  # noqa: ANN001
    data = {"grant_type": "client_credentials", "client_id": creds.client_id, "client_secret": creds.secret}
    data.update(changes)  # type: ignore[arg-type]
    return {k: v for k, v in data.items() if v is not None}


def test_issues_an_rs256_jwt_as_the_spec_says(http: httpx.Client, creds, service: NotifyService) -> None:  # noqa: ANN001
    r = http.post("/oauth/token", data=form(creds))
    assert r.status_code == 200
    assert r.headers["cache-control"] == "no-store"
    body = r.json()
    assert set(body) == {"access_token", "token_type", "expires_in", "ruid"}
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600 and body["ruid"]
    token = body["access_token"]
    assert token.count(".") == 2
    header = jwt.get_unverified_header(token)
    assert header == {"alg": "RS256", "typ": "JWT", "kid": service.keyring.signing_key().kid}
    public = service.keyring.signing_key().public_key
    claims = jwt.decode(token, public, algorithms=["RS256"], issuer="workbench-notify")
    assert set(claims) == {"iss", "sub", "iat", "exp", "jti"}
    assert claims["sub"] == creds.client_id and claims["exp"] - claims["iat"] == 3600
    assert abs(claims["iat"] - time.time()) < 60
    assert creds.secret not in token and creds.secret not in base64.urlsafe_b64decode(
        token.split(".")[1] + "==").decode()


def test_http_basic_client_authentication(http: httpx.Client, creds) -> None:  # noqa: ANN001
    basic = base64.b64encode(f"{quote_plus(creds.client_id)}:{quote_plus(creds.secret)}".encode()).decode()
    r = http.post("/oauth/token", data={"grant_type": "client_credentials"},
                  headers={"Authorization": f"Basic {basic}"})
    assert r.status_code == 200 and r.json()["access_token"]


BAD = [
    ("wrong secret", lambda c: {"data": form(c, client_secret="00000000-0000-4000-8000-000000000000")}, 401,
     "invalid_client"),
    ("unknown client", lambda c: {"data": form(c, client_id="nobody")}, 401, "invalid_client"),
    ("no secret", lambda c: {"data": form(c, client_secret=None)}, 401, "invalid_client"),
    ("no client id", lambda c: {"data": form(c, client_id=None)}, 401, "invalid_client"),
    ("empty secret", lambda c: {"data": form(c, client_secret="")}, 401, "invalid_client"),
    ("no grant_type", lambda c: {"data": form(c, grant_type=None)}, 400, "invalid_request"),
    ("password grant", lambda c: {"data": form(c, grant_type="password")}, 400, "unsupported_grant_type"),
    ("JSON body", lambda c: {"json": form(c)}, 400, "invalid_request"),
    ("parameter twice", lambda c: {"content": f"grant_type=client_credentials&client_id={c.client_id}"
                                              f"&client_secret={c.secret}&client_secret={c.secret}",
                                   "headers": {"Content-Type": "application/x-www-form-urlencoded"}},
     400, "invalid_request"),
    ("Basic and form secret", lambda c: {"data": form(c), "headers": {"Authorization": "Basic " + base64.b64encode(
        f"{c.client_id}:{c.secret}".encode()).decode()}}, 400, "invalid_request"),
    ("Basic garbage", lambda c: {"data": form(c, client_secret=None, client_id=None),
                                 "headers": {"Authorization": "Basic !!!"}}, 401, "invalid_client"),
    ("Bearer instead of Basic", lambda c: {"data": form(c, client_secret=None),
                                           "headers": {"Authorization": "Bearer x"}}, 401, "invalid_client"),
    ("body too large", lambda c: {"data": form(c, scope="x" * 9000)}, 400, "invalid_request"),
]


@pytest.mark.parametrize(("name", "request_kwargs", "status", "error"), BAD, ids=[b[0] for b in BAD])
def test_rfc6749_errors(http: httpx.Client, creds, service: NotifyService, name: str, request_kwargs,  # noqa: ANN001
                        status: int, error: str) -> None:
    r = http.post("/oauth/token", **request_kwargs(creds))
    assert r.status_code == status, r.text
    assert r.json()["error"] == error and r.json()["ruid"]
    assert "access_token" not in r.json()
    if status == 401:
        assert r.headers["www-authenticate"].startswith("Basic")
        assert service.metrics.get("notify_unauthorized_total", "endpoint", "token") == 1


def test_retired_secret_stops_working_rotated_one_works(http: httpx.Client, creds, service: NotifyService) -> None:  # noqa: ANN001
    new = service.credentials.rotate(creds.client_id)
    assert http.post("/oauth/token", data=form(creds)).status_code == 200  # old still valid
    assert http.post("/oauth/token", data=form(creds, client_secret=new.secret)).status_code == 200
    service.credentials.retire(creds.client_id)
    assert http.post("/oauth/token", data=form(creds)).status_code == 401
    assert http.post("/oauth/token", data=form(creds, client_secret=new.secret)).status_code == 200


def test_token_verifies_at_the_receiver_with_the_issued_key(http: httpx.Client, token: str) -> None:
    r = http.post("/notifications", json={"metadata": {"uuid": "t-1", "type": "X", "payloadVersion": "1.0"},
                                          "payload": {"k": 1}}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json()["status"] == "accepted"
