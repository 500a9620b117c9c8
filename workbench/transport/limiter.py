"""Client-side sliding-window limiter: never more calls per endpoint, or over all endpoints,
than the platform allows in any window. Callers wait (first come, first served) instead of
collecting 429s.

The platform counts a call when it arrives, which is somewhere between the moment the call
was granted here and the moment its answer came back. So a granted call holds its slot until
one window (plus a small ``margin``) after its answer came back: however slow the handshake
or the platform, no platform window can then hold more calls than the limit. Callers must
:meth:`~SlidingWindowLimiter.release` each ticket when the answer (or the failure) is in.
"""

from __future__ import annotations

import asyncio
import heapq
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping

from workbench.transport.operations import ALL


def default_margin(window: float) -> float:
    return 0.02 + 0.002 * window


class Ticket:
    """A granted call: its slots in each scope, and how long the caller waited for it."""

    __slots__ = ("slots", "waited", "granted")

    def __init__(self, slots: list[list[float]], waited: float, granted: float) -> None:
        self.slots, self.waited, self.granted = slots, waited, granted


class SlidingWindowLimiter:
    """``limits`` maps an operation name (or ``all``) to calls allowed per ``window`` seconds."""

    def __init__(self, limits: Mapping[str, int], window: float = 60.0, margin: float | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        if window <= 0:
            raise ValueError("the rate-limit window must be a positive number of seconds")
        self.limits = dict(limits)
        self.window = float(window)
        self.margin = default_margin(window) if margin is None else margin
        self._clock, self._sleep = clock, sleep
        # per scope, in grant order: [frees_at, done]; frees_at is inf while the call is in flight
        self._slots: dict[str, deque[list[float]]] = {}
        self._blocked_until: dict[str, float] = {}
        self._lock: asyncio.Lock | None = None
        self._released: asyncio.Event | None = None

    @property
    def span(self) -> float:
        """How long after its answer a call keeps its slot."""
        return self.window + self.margin

    def _wait(self, scopes: list[str], now: float) -> float:
        """Seconds until a call fits every scope (``inf``: until an in-flight call answers)."""
        wait = 0.0
        for scope in scopes:
            q = self._slots.setdefault(scope, deque())
            while q and q[0][0] <= now:
                q.popleft()
            limit = self.limits.get(scope)
            if limit is not None and len(q) >= limit:
                active = [s[0] for s in q if s[0] > now]
                if len(active) >= limit:
                    wait = max(wait, heapq.nsmallest(len(active) - limit + 1, active)[-1] - now)
            wait = max(wait, self._blocked_until.get(scope, 0.0) - now)
        return wait

    async def acquire(self, key: str) -> Ticket:
        """Wait until a call to ``key`` fits every limit and take its slots."""
        if self._lock is None:
            self._lock = asyncio.Lock()
            self._released = asyncio.Event()
        scopes = [ALL, key] if key != ALL else [ALL]
        started = self._clock()
        async with self._lock:
            assert self._released is not None
            while True:
                self._released.clear()  # before looking: a release while we wait must wake us
                now = self._clock()
                wait = self._wait(scopes, now)
                if wait <= 0:
                    slots = [[math.inf, 0.0] for _ in scopes]
                    for scope, slot in zip(scopes, slots, strict=True):
                        self._slots[scope].append(slot)
                    return Ticket(slots, now - started, now)
                if math.isinf(wait):
                    await self._released.wait()
                else:
                    await self._sleep(wait)

    def release(self, ticket: Ticket) -> None:
        """The call's answer (or failure) is in: its slots free one window from now."""
        frees_at = self._clock() + self.span
        for slot in ticket.slots:
            slot[0], slot[1] = frees_at, 1.0
        if self._released is not None:
            self._released.set()

    def block(self, key: str, seconds: float) -> None:
        """Hold calls to ``key`` for ``seconds`` (after a 429 with Retry-After)."""
        until = self._clock() + max(0.0, seconds)
        self._blocked_until[key] = max(self._blocked_until.get(key, 0.0), until)

    def in_window(self, key: str) -> int:
        """Calls holding a slot of ``key`` now (in flight, or answered less than a window ago)."""
        now = self._clock()
        return sum(1 for s in self._slots.get(key, ()) if s[0] > now)
