"""Access tokens: RS256 JWTs issued to authenticated clients and verified on every notification.

Issued header is exactly ``{"alg": "RS256", "typ": "JWT", "kid": ...}``; the payload holds
``iss``, ``sub`` (the client id), ``iat``, ``exp`` and a random ``jti`` - nothing secret
(spec, Authentication §3). Verification takes the algorithm from an allow-list, never from the
token (so ``none`` and HMAC-with-the-public-key forgeries fail), and checks ``typ``, ``kid``,
signature, ``iss``, ``exp`` and ``iat`` with a small clock skew.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jwt

from workbench.notify.errors import InvalidToken
from workbench.notify.keys import KeyRing

ALLOWED_ALGORITHMS = ("RS256",)
REFUSED_HEADERS = frozenset({"jku", "jwk", "x5u", "x5c", "crit"})
MAX_TOKEN_LENGTH = 8192


@dataclass(frozen=True)
class IssuedToken:
    access_token: str
    expires_in: int
    claims: dict[str, Any]


class TokenService:
    """Signs tokens with the ring's active key and verifies them against every live key."""

    def __init__(self, keyring: KeyRing, issuer: str, lifetime_seconds: int = 3600,
                 clock_skew_seconds: int = 30, clock: Callable[[], float] = time.time) -> None:
        self.keyring = keyring
        self.issuer = issuer
        self.lifetime_seconds = lifetime_seconds
        self.clock_skew_seconds = clock_skew_seconds
        self.clock = clock

    def issue(self, client_id: str) -> IssuedToken:
        key = self.keyring.signing_key()
        now = int(self.clock())
        claims = {"iss": self.issuer, "sub": client_id, "iat": now, "exp": now + self.lifetime_seconds,
                  "jti": secrets.token_urlsafe(12)}
        token = jwt.encode(claims, key.private_key, algorithm="RS256", headers={"kid": key.kid, "typ": "JWT"})
        return IssuedToken(token, self.lifetime_seconds, claims)

    def verify(self, token: str) -> dict[str, Any]:
        """The claims of a valid token; :class:`InvalidToken` (answer 401) for anything else."""
        if not token or len(token) > MAX_TOKEN_LENGTH or token.count(".") != 2:
            raise InvalidToken("malformed token")
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise InvalidToken("malformed token header") from None
        if header.get("alg") not in ALLOWED_ALGORITHMS:
            raise InvalidToken("token algorithm not allowed")
        if header.get("typ") != "JWT":
            raise InvalidToken("token type must be JWT")
        if REFUSED_HEADERS & set(header):
            raise InvalidToken("token header carries a refused parameter")
        kid = header.get("kid")
        public_key = self.keyring.verification_key(kid) if isinstance(kid, str) else None
        if public_key is None:
            raise InvalidToken("token signed with an unknown key")
        try:
            claims = jwt.decode(
                token, public_key, algorithms=list(ALLOWED_ALGORITHMS), issuer=self.issuer,
                leeway=self.clock_skew_seconds,
                options={"require": ["exp", "iat", "iss", "sub"], "verify_aud": False},
            )
        except jwt.ExpiredSignatureError:
            raise InvalidToken("token expired") from None
        except jwt.ImmatureSignatureError:
            raise InvalidToken("token not yet valid") from None
        except jwt.InvalidSignatureError:
            raise InvalidToken("token signature invalid") from None
        except jwt.MissingRequiredClaimError as exc:
            raise InvalidToken(f"token lacks the `{exc.claim}` claim") from None
        except jwt.InvalidIssuerError:
            raise InvalidToken("token issued by someone else") from None
        except jwt.PyJWTError:
            raise InvalidToken("token invalid") from None
        if not isinstance(claims.get("sub"), str) or not claims["sub"]:
            raise InvalidToken("token has no subject")
        return claims


def bearer_token(authorization: list[str]) -> str:
    """The token of exactly one ``Authorization: Bearer <token>`` header (RFC 6750 §2.1)."""
    if len(authorization) != 1:
        raise InvalidToken("missing bearer token" if not authorization else "more than one Authorization header")
    scheme, _, token = authorization[0].strip().partition(" ")
    if scheme.lower() != "bearer":
        raise InvalidToken("authorization scheme must be Bearer")
    token = token.strip()
    if not token:
        raise InvalidToken("empty bearer token")
    return token
