"""The one token of a machine account, shared by every process of this user: a file per account
(auth URL + client id) in the user's cache folder, read and written under a file lock, with the
times of the account's last exchanges (the platform allows 30 an hour).

Every process and every Dask worker on the machine that calls with the same account, whatever its
working folder or journal, reads the same file: one exchange serves them all until the token is
due for renewal. The file is written whole and renamed into place (a process killed at any moment
leaves the old file or the new one), mode 600 in a folder of mode 700; the lock is the operating
system's (``filelock``), so a killed holder frees it. ``WORKBENCH_TOKEN_CACHE`` moves the folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from filelock import FileLock

from workbench.config import Secret

#: the platform's budget: at most this many token exchanges per account in any hour (docs/live-platform.md)
BUDGET = 30
BUDGET_WINDOW = 3600.0
#: a token is renewed when less than the smaller of this and a tenth of its lifetime remains
RENEW_AT_MOST = 300.0
#: a token is not sent when it has less than this left (it could expire on the way)
SAFETY = 5.0
APP = "connectivity-workbench"


def default_folder() -> Path:
    """``<the user's cache folder>/connectivity-workbench/tokens``."""
    import platformdirs

    return platformdirs.user_cache_path(APP) / "tokens"


@dataclass(frozen=True)
class CachedToken:
    """A token and when it was issued and expires (seconds since the epoch, this machine's clock)."""

    value: Secret
    issued_at: float
    expires_at: float

    @property
    def lifetime(self) -> float:
        return max(0.0, self.expires_at - self.issued_at)

    @property
    def renew_at(self) -> float:
        return self.expires_at - min(RENEW_AT_MOST, self.lifetime / 10)

    def fresh(self, now: float) -> bool:
        """Not yet due for renewal."""
        return now < self.renew_at

    def usable(self, now: float) -> bool:
        """Still valid long enough to be sent."""
        return now < self.expires_at - SAFETY


@dataclass
class CacheState:
    """What the file holds: the token (if any) and the times of the exchanges of the last hour."""

    token: CachedToken | None = None
    exchanges: list[float] = field(default_factory=list)


class TokenCache:
    """The cache file of one account; use :attr:`lock` around a read-decide-write."""

    def __init__(self, auth_url: str, client_id: str, folder: str | Path | None = None, *,
                 budget: int = BUDGET, window: float = BUDGET_WINDOW, lock_timeout: float = 120.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.folder = Path(folder).expanduser() if folder else default_folder()
        key = hashlib.sha256(f"{auth_url.rstrip('/')}\n{client_id}".encode()).hexdigest()[:32]
        self.path = self.folder / f"{key}.json"
        self.account = client_id
        self.budget, self.window, self.clock = budget, window, clock
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.lock = FileLock(self.folder / f"{key}.lock", timeout=lock_timeout, mode=0o600, thread_local=False)

    def read(self) -> CacheState:
        """The file's state (empty when there is no file yet, or it cannot be read)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            raw = data.get("token")
            token = CachedToken(Secret(str(raw["value"])), float(raw["issued_at"]), float(raw["expires_at"])) \
                if raw else None
            return CacheState(token, [float(t) for t in data.get("exchanges", [])])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return CacheState()

    def write(self, state: CacheState) -> None:
        """Replace the file (mode 600) with ``state``, keeping only the exchanges of the last window."""
        now = self.clock()
        token = state.token
        data = {"account": self.account,
                "token": {"value": token.value.reveal(), "issued_at": token.issued_at,
                          "expires_at": token.expires_at} if token else None,
                "exchanges": [t for t in state.exchanges if t > now - self.window]}
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    def next_allowed(self, exchanges: list[float], now: float) -> float | None:
        """When the next exchange is allowed (None: now), given the times of the past ones."""
        recent = sorted(t for t in exchanges if t > now - self.window)
        if len(recent) < self.budget:
            return None
        return recent[len(recent) - self.budget] + self.window
