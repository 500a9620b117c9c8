"""The sandbox's token exchange and the check of the Bearer token on every call (docs/sandbox.md,
"Authentication"), as the platform's authentication pages describe them.

``POST /token-based-authentication/exchange`` takes JSON ``{"client_id", "client_secret"}`` and answers
``{"jwt", "ruid"}`` (the shape independent clients read: the platform's pages do not show the bodies).
The JWT is RS256, with ``sub`` (the client id), ``aud``, ``iss``, ``iat`` and ``exp`` (``iat`` + the
token lifetime), signed with a key made once per state and kept with it. At most 30 exchanges per
client in any hour: the 31st gets HTTP 429 with ``Retry-After``. A platform endpoint takes
``Authorization: Bearer <jwt>`` of a token it issued and that has not expired; anything else is 401.
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

ISSUER = "urn://connectivity-modern-auth/v1"
AUDIENCE = "urn://connectivity-sandbox/platform"
#: the platform's budget: exchanges per client in any hour
BUDGET, WINDOW = 30, 3600.0
DEFAULT_LIFETIME = 3600.0


def new_key() -> str:
    """A new RSA signing key, as PEM text (kept in the state)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def new_secret() -> str:
    return secrets.token_urlsafe(24)


class TokenProblem(Exception):
    """A Bearer token the sandbox does not take; the message says why (for the 401)."""


@dataclass(frozen=True)
class Exchanged:
    """The exchange's answer: HTTP status, JSON body, headers, and the client it was for ('' unknown)."""

    status: int
    body: dict
    headers: dict[str, str] = field(default_factory=dict)
    client: str = ""

    def content(self) -> bytes:
        return json.dumps(self.body).encode()


class TokenIssuer:
    """Issues and checks the sandbox's tokens for its one machine account of type API token."""

    def __init__(self, key_pem: str, client_id: str, client_secret: str, lifetime: float = DEFAULT_LIFETIME,
                 clock: Callable[[], float] = time.time) -> None:
        key = serialization.load_pem_private_key(key_pem.encode(), password=None)
        if not isinstance(key, rsa.RSAPrivateKey):
            raise ValueError("the sandbox's token key is not an RSA key")
        self._key, self._public = key, key.public_key()
        self.client_id, self.secret = client_id, client_secret
        self.lifetime, self.clock = lifetime, clock
        self._recent: dict[str, deque[float]] = {}

    def exchange(self, body: bytes, ruid: str) -> Exchanged:
        try:
            data = json.loads(body or b"null")
        except ValueError:
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("client_id"), str) \
                or not isinstance(data.get("client_secret"), str):
            return Exchanged(400, {"message": 'send JSON {"client_id": …, "client_secret": …}', "ruid": ruid})
        client = data["client_id"]
        if client != self.client_id or not secrets.compare_digest(data["client_secret"].encode(),
                                                                 self.secret.encode()):
            return Exchanged(401, {"message": "invalid client credentials", "ruid": ruid}, client=client)
        now = self.clock()
        recent = self._recent.setdefault(client, deque())
        while recent and recent[0] <= now - WINDOW:
            recent.popleft()
        if len(recent) >= BUDGET:
            wait = recent[0] + WINDOW - now
            return Exchanged(429, {"message": f"at most {BUDGET} tokens per hour for this account", "ruid": ruid},
                             {"Retry-After": str(max(1, math.ceil(wait)))}, client)
        recent.append(now)
        iat = int(now)
        claims = {"sub": client, "aud": AUDIENCE, "iss": ISSUER, "iat": iat, "exp": iat + int(self.lifetime),
                  "jti": secrets.token_hex(8)}
        return Exchanged(200, {"jwt": jwt.encode(claims, self._key, algorithm="RS256"), "ruid": ruid}, client=client)

    def account_of(self, token: str) -> str:
        """The client a token was issued to; :class:`TokenProblem` when it is not one the sandbox takes."""
        try:
            claims = jwt.decode(token, self._public, algorithms=["RS256"], audience=AUDIENCE, issuer=ISSUER,
                                options={"require": ["sub", "aud", "iss", "iat", "exp"]}, leeway=0)
        except jwt.ExpiredSignatureError:
            raise TokenProblem("the token has expired: exchange the client id and secret for a new one") from None
        except jwt.PyJWTError as exc:
            raise TokenProblem(f"the token is not one this platform issued ({type(exc).__name__})") from None
        return str(claims["sub"])
