"""RSA signing keys for the access tokens: created on first use, kept owner-only, rotated.

Layout of ``<state>/keys/``: one ``<kid>.pem`` private key per key (mode 0600) and
``keys.json`` naming the active key. After a rotation the old key signs nothing more but stays
for verification until every token it signed has expired (``verify_until``), then is deleted.
The key id is the RFC 7638 thumbprint of the public key. Processes that share a state
directory (the server and the CLI) see each other's rotations: the ring reloads when
``keys.json`` changes, and changes happen under a file lock.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import json
import logging
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

log = logging.getLogger(__name__)
INDEX = "keys.json"


@dataclass(frozen=True)
class SigningKey:
    """One RSA key pair and its life: ``retired_at`` is set once a newer key took over."""

    kid: str
    private_key: rsa.RSAPrivateKey
    created_at: float
    retired_at: float | None = None
    verify_until: float | None = None

    @property
    def public_key(self) -> rsa.RSAPublicKey:
        return self.private_key.public_key()

    def jwk(self) -> dict[str, str]:
        """The public half as a JSON Web Key (for ``/.well-known/jwks.json``)."""
        numbers = self.public_key.public_numbers()
        return {"kty": "RSA", "alg": "RS256", "use": "sig", "kid": self.kid,
                "n": _b64int(numbers.n), "e": _b64int(numbers.e)}


def thumbprint(public_key: rsa.RSAPublicKey) -> str:
    """RFC 7638 JWK thumbprint (SHA-256, base64url) of an RSA public key."""
    numbers = public_key.public_numbers()
    canonical = json.dumps({"e": _b64int(numbers.e), "kty": "RSA", "n": _b64int(numbers.n)},
                           separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()).rstrip(b"=").decode()


class KeyRing:
    """The signing key and the keys still valid for verification, kept in ``directory``."""

    def __init__(self, directory: str | Path, key_size: int = 2048, max_age_days: float = 90.0,
                 token_lifetime_seconds: int = 3600, clock_skew_seconds: int = 30,
                 clock: Callable[[], float] = time.time) -> None:
        self.directory = Path(directory)
        self.key_size = key_size
        self.max_age_seconds = max_age_days * 86400.0
        self.retention_seconds = float(token_lifetime_seconds + clock_skew_seconds)
        self.clock = clock
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int] | None = None
        self._keys: dict[str, SigningKey] = {}
        self._active: str | None = None

    # reading

    def signing_key(self) -> SigningKey:
        """The key that signs new tokens (created on first use, rotated when too old)."""
        self._reload()
        active = self._keys.get(self._active or "")
        if active is None or (self.max_age_seconds > 0 and self.clock() - active.created_at > self.max_age_seconds):
            with self._file_lock():
                self._stamp = None
                self._reload()
                active = self._keys.get(self._active or "")
                if active is None:
                    return self._rotate_locked()
                if self.max_age_seconds > 0 and self.clock() - active.created_at > self.max_age_seconds:
                    log.info("signing key %s is older than %.0f days: rotating", active.kid,
                             self.max_age_seconds / 86400)
                    return self._rotate_locked()
        return active

    def verification_key(self, kid: str) -> rsa.RSAPublicKey | None:
        """The public key for ``kid`` if tokens signed with it may still be valid."""
        self._reload()
        key = self._keys.get(kid)
        if key is None or (key.verify_until is not None and self.clock() > key.verify_until):
            return None
        return key.public_key

    def keys(self) -> list[SigningKey]:
        """Every key on disk, newest first."""
        self._reload()
        return sorted(self._keys.values(), key=lambda k: k.created_at, reverse=True)

    def jwks(self) -> dict[str, Any]:
        now = self.clock()
        return {"keys": [k.jwk() for k in self.keys() if k.verify_until is None or k.verify_until >= now]}

    # changing

    def rotate(self) -> SigningKey:
        """Make a new signing key; the previous one verifies for one more token lifetime."""
        with self._file_lock():
            self._stamp = None
            self._reload()
            return self._rotate_locked()

    def _rotate_locked(self) -> SigningKey:
        now = self.clock()
        private = rsa.generate_private_key(public_exponent=65537, key_size=self.key_size)
        kid = thumbprint(private.public_key())
        pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
        _write_private(self.directory / f"{kid}.pem", pem)
        entries = []
        for key in self._keys.values():
            if key.verify_until is not None and key.verify_until < now:
                (self.directory / f"{key.kid}.pem").unlink(missing_ok=True)
                continue
            retired = key.retired_at if key.retired_at is not None else now
            until = key.verify_until if key.verify_until is not None else now + self.retention_seconds
            entries.append({"kid": key.kid, "created_at": key.created_at, "retired_at": retired,
                            "verify_until": until})
        entries.append({"kid": kid, "created_at": now, "retired_at": None, "verify_until": None})
        tmp = self.directory / f".{INDEX}.tmp"
        tmp.write_text(json.dumps({"active": kid, "keys": entries}, indent=2))
        tmp.chmod(0o600)
        os.replace(tmp, self.directory / INDEX)
        self._stamp = None
        self._reload()
        log.info("new signing key %s", kid)
        return self._keys[kid]

    # internals

    @contextmanager
    def _file_lock(self) -> Iterator[None]:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.directory.chmod(0o700)
        with self._lock, os.fdopen(os.open(self.directory / ".lock", os.O_RDWR | os.O_CREAT, 0o600), "a+") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def _reload(self) -> None:
        index = self.directory / INDEX
        try:
            st = index.stat()
        except FileNotFoundError:
            self._keys, self._active, self._stamp = {}, None, None
            return
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)  # os.replace gives a new inode
        if stamp == self._stamp:
            return
        data = json.loads(index.read_text())
        keys: dict[str, SigningKey] = {}
        for entry in data.get("keys", []):
            path = self.directory / f"{entry['kid']}.pem"
            if not path.exists():
                continue
            if stat.S_IMODE(path.stat().st_mode) & 0o077:
                log.warning("private key `%s` was readable by others: setting mode 0600", path)
                path.chmod(0o600)
            private = serialization.load_pem_private_key(path.read_bytes(), password=None)
            assert isinstance(private, rsa.RSAPrivateKey)
            keys[entry["kid"]] = SigningKey(entry["kid"], private, float(entry["created_at"]),
                                            entry.get("retired_at"), entry.get("verify_until"))
        self._keys, self._active, self._stamp = keys, data.get("active"), stamp


def _write_private(path: Path, pem: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    path.chmod(0o600)


def _b64int(value: int) -> str:
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
