"""OAuth2 client credentials for the platform's notification service (spec, Authentication §2).

A client has an id and one or more secrets. Secrets are random UUID4 values generated here,
shown once, and stored only as a salted SHA-256 hash: a 122-bit random secret cannot be guessed,
so a slow password hash would add cost without adding protection. ``rotate`` adds a secret while
the old ones stay valid; ``retire`` ends the old ones (the spec recommends a yearly rotation);
``revoke`` cuts off a leaked one. Checks compare every live hash in constant time, also for unknown
clients. Every token minted is recorded (``jti``, the secret it was minted with, expiry), and the
receiver accepts only a recorded token whose secret is still live: a retired or revoked secret's
tokens are refused at once, not when they expire.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from workbench.notify.db import Database
from workbench.notify.errors import CredentialError

CLIENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$")
_DUMMY_HASH = "sha256$" + "00" * 16 + "$" + "00" * 32
TOKEN_RECORD_MARGIN_SECONDS = 300.0   # records are kept this long past expiry (clock skew with margin)


@dataclass(frozen=True)
class IssuedSecret:
    """A secret as shown once to the operator (``secret`` is never stored)."""

    client_id: str
    secret_id: str
    secret: str

    def __repr__(self) -> str:  # never print the secret by accident
        return f"IssuedSecret(client_id={self.client_id!r}, secret_id={self.secret_id!r}, secret='***')"


def hash_secret(secret: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.sha256(salt + secret.encode()).hexdigest()
    return f"sha256${salt.hex()}${digest}"


def check_secret(secret: str, stored: str) -> bool:
    try:
        scheme, salt_hex, digest = stored.split("$")
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    candidate = hashlib.sha256(salt + secret.encode()).hexdigest()
    return hmac.compare_digest(candidate, digest) and scheme == "sha256"


class Credentials:
    """Client ids and hashed secrets, kept in the store's database."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    def create(self, client_id: str | None = None, note: str = "") -> IssuedSecret:
        """A new client with its first secret; ``client_id`` defaults to ``cns-<random>``."""
        client_id = client_id or f"cns-{secrets.token_hex(6)}"
        if not CLIENT_ID.match(client_id):
            raise CredentialError(f"client id `{client_id}` is not valid: use 3-64 letters, digits, "
                                  "`.`, `_` or `-`, starting with a letter or digit")
        if self._exists(client_id):
            raise CredentialError(f"client `{client_id}` already exists; use `rotate` to add a secret")
        issued = self._new_secret(client_id)
        self.db.write([
            ("INSERT INTO notify_clients (client_id, created_at, note) VALUES (?, ?, ?)",
             (client_id, self.clock(), note)),
            ("INSERT INTO notify_client_secrets (secret_id, client_id, secret_hash, created_at) VALUES (?, ?, ?, ?)",
             (issued.secret_id, client_id, hash_secret(issued.secret), self.clock())),
        ])
        return issued

    def rotate(self, client_id: str) -> IssuedSecret:
        """Add a secret; the existing ones stay valid until :meth:`retire`."""
        self._require(client_id)
        issued = self._new_secret(client_id)
        self.db.write([("INSERT INTO notify_client_secrets (secret_id, client_id, secret_hash, created_at) "
                        "VALUES (?, ?, ?, ?)", (issued.secret_id, client_id, hash_secret(issued.secret), self.clock()))])
        return issued

    def retire(self, client_id: str, secret_id: str | None = None) -> list[str]:
        """Retire ``secret_id``, or every live secret but the newest; the retired ids. Tokens minted
        with a retired secret are refused from then on (the platform fetches a new one on the 401)."""
        self._require(client_id)
        live = self.db.query("SELECT secret_id FROM notify_client_secrets WHERE client_id = ? "
                             "AND retired_at IS NULL ORDER BY created_at DESC, secret_id", (client_id,))
        ids = [r[0] for r in live]
        if secret_id is not None:
            if secret_id not in ids:
                raise CredentialError(f"client `{client_id}` has no live secret `{secret_id}`; "
                                      f"live: {', '.join(ids) or 'none'}")
            targets = [secret_id]
        else:
            targets = ids[1:]
            if not targets:
                raise CredentialError(f"client `{client_id}` has only one live secret; `rotate` first")
        now = self.clock()
        self.db.write([("UPDATE notify_client_secrets SET retired_at = ? WHERE secret_id = ?", (now, t))
                       for t in targets])
        return targets

    def revoke(self, client_id: str, secret_id: str | None = None) -> list[str]:
        """Cut off ``secret_id`` (or, with None, every secret of the client) now: no new tokens, and
        tokens already minted with it are refused from the next request on. The ids revoked."""
        self._require(client_id)
        rows = self.db.query("SELECT secret_id, retired_at FROM notify_client_secrets WHERE client_id = ? "
                             "ORDER BY created_at, secret_id", (client_id,))
        ids = [r[0] for r in rows]
        if secret_id is not None and secret_id not in ids:
            raise CredentialError(f"client `{client_id}` has no secret `{secret_id}`; its secrets: "
                                  f"{', '.join(ids) or 'none'} (see `workbench notify credentials list`)")
        targets = [secret_id] if secret_id is not None else ids
        now = self.clock()
        self.db.write([("UPDATE notify_client_secrets SET retired_at = ? WHERE secret_id = ? AND retired_at IS NULL",
                        (now, t)) for t in targets])
        return targets

    def authenticate(self, client_id: str, secret: str) -> bool:
        """True when ``secret`` matches a live secret of ``client_id`` (constant-time compare)."""
        return self.matching_secret(client_id, secret) is not None

    def matching_secret(self, client_id: str, secret: str) -> str | None:
        """The id of the live secret of ``client_id`` that ``secret`` matches, else None (constant time)."""
        rows = self.db.query("SELECT secret_id, secret_hash FROM notify_client_secrets WHERE client_id = ? "
                             "AND retired_at IS NULL", (client_id,))
        candidates = [(r[0], r[1]) for r in rows] or [("", _DUMMY_HASH)]
        matched = None
        for secret_id, stored in candidates:  # no early exit: time does not tell which one matched
            if check_secret(secret, stored):
                matched = secret_id
        return matched if rows else None

    def record_token(self, claims: dict[str, Any], secret_id: str) -> None:
        """Remember a token minted with ``secret_id`` (and forget the records of expired ones)."""
        self.db.write([
            ("DELETE FROM notify_tokens WHERE expires_at < ?", (self.clock() - TOKEN_RECORD_MARGIN_SECONDS,)),
            ("INSERT INTO notify_tokens (jti, client_id, secret_id, issued_at, expires_at) VALUES (?, ?, ?, ?, ?)",
             (claims["jti"], claims["sub"], secret_id, float(claims["iat"]), float(claims["exp"]))),
        ])

    def token_is_live(self, claims: dict[str, Any]) -> bool:
        """Whether a (verified) token was minted here with a secret that is still live."""
        jti = claims.get("jti")
        return isinstance(jti, str) and bool(self.db.query(
            "SELECT 1 FROM notify_tokens t JOIN notify_client_secrets s ON s.secret_id = t.secret_id "
            "WHERE t.jti = ? AND t.client_id = ? AND s.client_id = t.client_id AND s.retired_at IS NULL",
            (jti, claims.get("sub"))))

    def frame(self) -> pd.DataFrame:
        """One row per secret: client_id, secret_id, created_at, retired_at, live (no hashes)."""
        rows = self.db.query("SELECT c.client_id, s.secret_id, s.created_at, s.retired_at FROM notify_clients c "
                             "JOIN notify_client_secrets s ON s.client_id = c.client_id "
                             "ORDER BY c.client_id, s.created_at")
        frame = pd.DataFrame(rows, columns=["client_id", "secret_id", "created_at", "retired_at"])
        for col in ("created_at", "retired_at"):
            frame[col] = pd.to_datetime(frame[col].astype("float64"), unit="s", utc=True)
        frame["live"] = frame["retired_at"].isna()
        return frame

    def _exists(self, client_id: str) -> bool:
        return bool(self.db.query("SELECT 1 FROM notify_clients WHERE client_id = ?", (client_id,)))

    def _require(self, client_id: str) -> None:
        if not self._exists(client_id):
            known = [r[0] for r in self.db.query("SELECT client_id FROM notify_clients ORDER BY client_id")]
            raise CredentialError(f"no client `{client_id}`; known clients: {', '.join(known) or 'none'} "
                                  "(create one with `workbench notify credentials create`)")

    @staticmethod
    def _new_secret(client_id: str) -> IssuedSecret:
        return IssuedSecret(client_id, f"s-{secrets.token_hex(4)}", str(uuid.uuid4()))
