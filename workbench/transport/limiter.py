"""Client-side sliding-window limiter: never more calls per endpoint, or over all endpoints,
than the platform allows in any window. Callers wait (first come, first served) instead of
collecting 429s.

The window the client counts is a little longer than the platform's (``margin``), so the
small delay between a call leaving here and arriving there cannot push two windows' worth
of calls into one of the platform's windows.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping

from workbench.transport.operations import ALL


def default_margin(window: float) -> float:
    return 0.1 + 0.01 * window


class SlidingWindowLimiter:
    """``limits`` maps an operation name (or ``all``) to calls allowed per ``window`` seconds."""

    def __init__(self, limits: Mapping[str, int], window: float = 60.0, margin: float | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        if window <= 0:
            raise ValueError("the rate-limit window must be a positive number of seconds")
        self.limits = dict(limits)
        self.window = float(window)
        self.span = self.window + (default_margin(window) if margin is None else margin)
        self._clock, self._sleep = clock, sleep
        self._sent: dict[str, deque[float]] = {}
        self._blocked_until: dict[str, float] = {}
        self._lock: asyncio.Lock | None = None

    def _wait(self, scopes: list[str], now: float) -> float:
        wait = 0.0
        for scope in scopes:
            q = self._sent.setdefault(scope, deque())
            edge = now - self.span
            while q and q[0] <= edge:
                q.popleft()
            limit = self.limits.get(scope)
            if limit is not None and len(q) >= limit:
                wait = max(wait, q[len(q) - limit] + self.span - now)
            wait = max(wait, self._blocked_until.get(scope, 0.0) - now)
        return wait

    async def acquire(self, key: str) -> float:
        """Wait until a call to ``key`` fits every limit, count it, and return the seconds waited."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        scopes = [ALL, key] if key != ALL else [ALL]
        started = self._clock()
        async with self._lock:
            while True:
                now = self._clock()
                wait = self._wait(scopes, now)
                if wait <= 0:
                    for scope in scopes:
                        self._sent[scope].append(now)
                    return now - started
                await self._sleep(wait)

    def block(self, key: str, seconds: float) -> None:
        """Hold calls to ``key`` for ``seconds`` (after a 429 with Retry-After)."""
        until = self._clock() + max(0.0, seconds)
        self._blocked_until[key] = max(self._blocked_until.get(key, 0.0), until)

    def in_window(self, key: str) -> int:
        """Calls counted for ``key`` in the current window."""
        return len(self._sent.get(key, ()))
