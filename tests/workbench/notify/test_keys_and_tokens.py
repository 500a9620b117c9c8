"""Signing keys (owner-only files, rotation, retention) and TokenService verification."""

from __future__ import annotations

import json
import stat

import jwt
import pytest

from workbench.notify.errors import InvalidToken
from workbench.notify.keys import KeyRing, thumbprint
from workbench.notify.tokens import TokenService, bearer_token


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_key_created_on_first_use_with_owner_only_permissions(tmp_path) -> None:  # noqa: ANN001
    ring = KeyRing(tmp_path / "keys")
    key = ring.signing_key()
    assert key.kid == thumbprint(key.public_key)
    pem = tmp_path / "keys" / f"{key.kid}.pem"
    assert stat.S_IMODE(pem.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "keys").stat().st_mode) == 0o700
    assert KeyRing(tmp_path / "keys").signing_key().kid == key.kid  # kept across restarts


def test_loose_permissions_are_tightened(tmp_path) -> None:  # noqa: ANN001
    key = KeyRing(tmp_path / "keys").signing_key()
    pem = tmp_path / "keys" / f"{key.kid}.pem"
    pem.chmod(0o644)
    assert KeyRing(tmp_path / "keys").signing_key().kid == key.kid
    assert stat.S_IMODE(pem.stat().st_mode) == 0o600


def test_rotation_keeps_old_key_until_its_tokens_expire(tmp_path) -> None:  # noqa: ANN001
    clock = Clock()
    ring = KeyRing(tmp_path / "keys", token_lifetime_seconds=3600, clock_skew_seconds=30, clock=clock)
    tokens = TokenService(ring, "iss", 3600, 30, clock)
    old = tokens.issue("cns").access_token
    old_kid = ring.signing_key().kid
    # PyJWT checks exp/iat against the real clock: keep the fake clock near it for decode
    clock.now = __import__("time").time()
    ring2 = KeyRing(tmp_path / "keys", token_lifetime_seconds=3600, clock_skew_seconds=30, clock=clock)
    new_key = ring2.rotate()  # another process rotates
    assert new_key.kid != old_kid
    assert ring.signing_key().kid == new_key.kid  # the first ring sees the rotation
    assert ring.verification_key(old_kid) is not None
    retired = next(k for k in ring.keys() if k.kid == old_kid)
    assert retired.retired_at == clock.now and retired.verify_until == clock.now + 3630
    clock.now += 3631
    assert ring.verification_key(old_kid) is None
    with pytest.raises(InvalidToken, match="unknown key"):
        TokenService(ring, "iss", 3600, 30, clock).verify(old)
    ring.rotate()  # pruning deletes the expired key's file
    assert not (tmp_path / "keys" / f"{old_kid}.pem").exists()
    assert old_kid not in {k["kid"] for k in ring.jwks()["keys"]}


def test_key_rotates_by_itself_when_too_old(tmp_path) -> None:  # noqa: ANN001
    clock = Clock()
    ring = KeyRing(tmp_path / "keys", max_age_days=30, clock=clock)
    first = ring.signing_key().kid
    clock.now += 29 * 86400
    assert ring.signing_key().kid == first
    clock.now += 2 * 86400
    assert ring.signing_key().kid != first
    index = json.loads((tmp_path / "keys" / "keys.json").read_text())
    assert [k["retired_at"] is None for k in index["keys"]] == [False, True]


def test_tokens_signed_by_the_previous_key_still_verify(tmp_path) -> None:  # noqa: ANN001
    ring = KeyRing(tmp_path / "keys")
    service = TokenService(ring, "workbench-notify")
    before = service.issue("cns").access_token
    ring.rotate()
    after = service.issue("cns").access_token
    assert jwt.get_unverified_header(before)["kid"] != jwt.get_unverified_header(after)["kid"]
    assert service.verify(before)["sub"] == service.verify(after)["sub"] == "cns"


@pytest.mark.parametrize("headers", [[], ["Basic abc"], ["Bearer"], ["Bearer  "], ["Bearer a", "Bearer a"],
                                     ["Token abc"]])
def test_bearer_header_parsing_refuses(headers: list[str]) -> None:
    with pytest.raises(InvalidToken):
        bearer_token(headers)


@pytest.mark.parametrize("header", ["Bearer abc", "bearer abc", "BEARER  abc "])
def test_bearer_header_parsing_accepts(header: str) -> None:
    assert bearer_token([header]) == "abc"


def test_issued_payload_holds_nothing_secret(tmp_path) -> None:  # noqa: ANN001
    service = TokenService(KeyRing(tmp_path / "keys"), "workbench-notify", lifetime_seconds=600)
    issued = service.issue("cns-1")
    assert set(issued.claims) == {"iss", "sub", "iat", "exp", "jti"}
    assert issued.expires_in == 600 and issued.claims["exp"] - issued.claims["iat"] == 600
