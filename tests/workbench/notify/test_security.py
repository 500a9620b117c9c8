"""Bad tokens and bad requests at POST /notifications: each refused, nothing stored.

Served over HTTPS on loopback by uvicorn; the tokens are forged the ways attackers forge them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import ssl
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from workbench.notify import NotifyConfig, NotifyService, ReceiverConfig, RequestToBookConfig, create_app
from workbench.serving import ensure_test_ca, serve_in_thread

MAX_BODY = 4096
ISSUER = "workbench-notify"


@dataclass
class Ctx:
    service: NotifyService
    http: httpx.Client
    token: str
    private_key: rsa.RSAPrivateKey
    kid: str


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ctx]:
    config = NotifyConfig(receiver=ReceiverConfig(max_body_bytes=MAX_BODY),
                          request_to_book=RequestToBookConfig(check_interval_seconds=0))
    service = NotifyService(tmp_path_factory.mktemp("security"), config)
    creds = service.credentials.create("cns-sec")
    tls = ensure_test_ca(service.state_dir)
    with serve_in_thread(create_app(service), tls) as server, httpx.Client(
            verify=ssl.create_default_context(cafile=str(tls.ca_bundle)), base_url=server.url, timeout=10) as http:
        r = http.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": creds.client_id,
                                            "client_secret": creds.secret})
        key = service.keyring.signing_key()
        yield Ctx(service, http, r.json()["access_token"], key.private_key, key.kid)
    service.close()


def b64(data: bytes | dict) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode() if isinstance(data, dict) else data
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def claims(**changes: object) -> dict:
    now = int(time.time())
    base = {"iss": ISSUER, "sub": "cns-sec", "iat": now, "exp": now + 3600}
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


def signed(c: Ctx, payload: dict | None = None, headers: dict | None = None, key: object = None,
           alg: str = "RS256") -> str:
    return jwt.encode(payload or claims(), key or c.private_key, algorithm=alg,
                      headers={"kid": c.kid, "typ": "JWT", **(headers or {})})


def hs256_with_public_key(c: Ctx) -> str:
    pem = c.private_key.public_key().public_bytes(serialization.Encoding.PEM,
                                                  serialization.PublicFormat.SubjectPublicKeyInfo)
    signing_input = f"{b64({'alg': 'HS256', 'typ': 'JWT', 'kid': c.kid})}.{b64(claims())}"
    sig = hmac.new(pem, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64(sig)}"


def tampered(c: Ctx) -> str:
    head, _, sig = c.token.split(".")
    return f"{head}.{b64(claims(sub='someone-else'))}.{sig}"


OTHER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
GOOD_BODY = json.dumps({"metadata": {"uuid": "never-stored", "type": "PAYOUT_UPDATE", "payloadVersion": "1.0"},
                        "payload": {}}).encode()
Build = Callable[[Ctx], tuple[list[tuple[str, str]], bytes]]


def bearer(make: Callable[[Ctx], str]) -> Build:
    return lambda c: ([("Authorization", f"Bearer {make(c)}"), ("Content-Type", "application/json")], GOOD_BODY)


CASES: list[tuple[str, Build, int]] = [
    ("no Authorization header", lambda c: ([("Content-Type", "application/json")], GOOD_BODY), 401),
    ("empty bearer", lambda c: ([("Authorization", "Bearer"), ("Content-Type", "application/json")], GOOD_BODY), 401),
    ("Basic scheme", lambda c: ([("Authorization", "Basic Y25zOnNlY3JldA=="),
                                 ("Content-Type", "application/json")], GOOD_BODY), 401),
    ("not a JWT", bearer(lambda c: "not-a-token"), 401),
    ("malformed header part", bearer(lambda c: "%%%.e30.sig"), 401),
    ("alg none", bearer(lambda c: jwt.encode(claims(), None, algorithm="none", headers={"kid": c.kid})), 401),
    ("alg none, signature kept", bearer(lambda c: f"{b64({'alg': 'none', 'typ': 'JWT', 'kid': c.kid})}."
                                                  f"{c.token.split('.')[1]}.{c.token.split('.')[2]}"), 401),
    ("HS256 signed with the public key", bearer(hs256_with_public_key), 401),
    ("RS512 (not allow-listed)", bearer(lambda c: signed(c, alg="RS512")), 401),
    ("expired", bearer(lambda c: signed(c, claims(iat=int(time.time()) - 7300, exp=int(time.time()) - 3700))), 401),
    ("not yet valid (iat in the future)", bearer(lambda c: signed(c, claims(iat=int(time.time()) + 600,
                                                                             exp=int(time.time()) + 4200))), 401),
    ("signed with another key", bearer(lambda c: signed(c, key=OTHER_KEY)), 401),
    ("tampered payload", bearer(tampered), 401),
    ("truncated signature", bearer(lambda c: c.token[:-8]), 401),
    ("wrong typ", bearer(lambda c: signed(c, headers={"typ": "at+jwt"})), 401),
    ("missing exp", bearer(lambda c: signed(c, claims(exp=None))), 401),
    ("missing iat", bearer(lambda c: signed(c, claims(iat=None))), 401),
    ("missing sub", bearer(lambda c: signed(c, claims(sub=None))), 401),
    ("wrong issuer", bearer(lambda c: signed(c, claims(iss="https://evil.example"))), 401),
    ("unknown kid", bearer(lambda c: signed(c, headers={"kid": "no-such-key"})), 401),
    ("jku header", bearer(lambda c: signed(c, headers={"jku": "https://127.0.0.1:1/jwks"})), 401),
    ("two Authorization headers", lambda c: ([("Authorization", f"Bearer {c.token}"),
                                              ("Authorization", f"Bearer {c.token}"),
                                              ("Content-Type", "application/json")], GOOD_BODY), 401),
    ("token longer than 8 KiB", bearer(lambda c: c.token + "A" * 9000), 401),
    ("valid token, text/plain body", lambda c: ([("Authorization", f"Bearer {c.token}"),
                                                 ("Content-Type", "text/plain")], GOOD_BODY), 415),
    ("valid token, form body", lambda c: ([("Authorization", f"Bearer {c.token}"),
                                           ("Content-Type", "application/x-www-form-urlencoded")], b"a=1"), 415),
    ("valid token, latin-1 charset", lambda c: ([("Authorization", f"Bearer {c.token}"),
                                                 ("Content-Type", "application/json; charset=latin-1")], GOOD_BODY),
     415),
    ("valid token, oversized body", lambda c: ([("Authorization", f"Bearer {c.token}"),
                                                ("Content-Type", "application/json")],
                                               json.dumps({"metadata": {"uuid": "big"},
                                                           "payload": "x" * MAX_BODY}).encode()), 413),
]


@pytest.mark.parametrize(("name", "build", "status"), CASES, ids=[c[0] for c in CASES])
def test_refused_and_nothing_stored(ctx: Ctx, name: str, build: Build, status: int) -> None:
    before = (ctx.service.store.count(), ctx.service.store.count("notify_dead_letters"))
    headers, body = build(ctx)
    r = ctx.http.post("/notifications", content=body, headers=httpx.Headers(headers))
    assert r.status_code == status, r.text
    if status == 401:
        assert r.headers["www-authenticate"].startswith("Bearer ")
        assert 'error="invalid_token"' in r.headers["www-authenticate"]
        assert r.json()["error"] == "invalid_token"
    assert r.json()["ruid"]
    assert (ctx.service.store.count(), ctx.service.store.count("notify_dead_letters")) == before


def test_the_table_is_at_least_fifteen_cases() -> None:
    assert len(CASES) >= 15 and len({c[0] for c in CASES}) == len(CASES)


def test_valid_token_is_accepted_and_stored_once(ctx: Ctx) -> None:
    body = json.dumps({"metadata": {"uuid": "ok-1", "type": "X"}, "payload": {}})
    headers = {"Authorization": f"Bearer {ctx.token}", "Content-Type": "application/json"}
    first = ctx.http.post("/notifications", content=body, headers=headers)
    again = ctx.http.post("/notifications", content=body, headers=headers)
    assert (first.status_code, first.json()["status"]) == (200, "accepted")
    assert (again.status_code, again.json()["status"]) == (200, "duplicate")
    assert [r[1] for r in ctx.service.store.notification_rows()].count("ok-1") == 1


BAD_BODIES = [
    ("not JSON", b"{metadata: 1}", "not valid JSON"),
    ("invalid UTF-8", b'{"metadata": {"uuid": "\xff\xfe"}}', "not UTF-8"),
    ("a JSON array", b'[{"metadata": {"uuid": "a"}}]', "must be a JSON object"),
    ("no metadata", b'{"payload": {}}', "`metadata` is missing"),
    ("metadata a string", b'{"metadata": "uuid"}', "must be an object"),
    ("no uuid", b'{"metadata": {"type": "X"}, "payload": {}}', "`metadata.uuid` is missing"),
    ("uuid a number", b'{"metadata": {"uuid": 42}}', "must be a string"),
    ("uuid empty", b'{"metadata": {"uuid": "  "}}', "is empty"),
    ("uuid with a NUL", b'{"metadata": {"uuid": "a\\u0000b"}}', "control characters"),
    ("uuid too long", json.dumps({"metadata": {"uuid": "u" * 300}}).encode(), "longer than"),
    ("NaN", b'{"metadata": {"uuid": "n"}, "payload": NaN}', "not valid JSON"),
    ("nested 65 deep", b'{"metadata": {"uuid": "d"}, "payload": ' + b"[" * 64 + b"]" * 64 + b"}", "levels deep"),
]


@pytest.mark.parametrize(("name", "body", "reason"), BAD_BODIES, ids=[b[0] for b in BAD_BODIES])
def test_unusable_body_is_400_and_dead_lettered(ctx: Ctx, name: str, body: bytes, reason: str) -> None:
    before_n, before_d = ctx.service.store.count(), ctx.service.store.count("notify_dead_letters")
    r = ctx.http.post("/notifications", content=body,
                      headers={"Authorization": f"Bearer {ctx.token}", "Content-Type": "application/json"})
    assert r.status_code == 400
    assert reason in r.json()["error_description"]
    assert ctx.service.store.count() == before_n
    assert ctx.service.store.count("notify_dead_letters") == before_d + 1
    letter = ctx.service.store.dead_letter_rows()[-1]
    assert letter[2] == "cns-sec" and reason in letter[3] and "\x00" not in letter[5]
