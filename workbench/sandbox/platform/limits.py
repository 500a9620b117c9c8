"""Sliding-window call limits, as the platform counts them: per endpoint and over all endpoints.

A call is admitted when every scope it falls in has had fewer than its limit of admitted calls
in the last ``window`` seconds. Refused calls (HTTP 429) are not counted.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Mapping

from workbench.sandbox.platform.endpoints import ALL
from workbench.transport.operations import (
    parse_limits,  # one parser for the client's and the sandbox's limits
)

__all__ = ["SlidingWindowLimits", "parse_limits"]


class SlidingWindowLimits:
    """Admit or refuse calls; ``limits`` maps scope names (endpoint names, ``all``) to calls per window,
    over ``defaults`` (the spec's table for the endpoints served: :func:`~workbench.sandbox.platform.endpoints.limits_of`)."""

    def __init__(self, limits: Mapping[str, int] | None = None, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, defaults: Mapping[str, int] | None = None) -> None:
        if window <= 0:
            raise ValueError("the limit window must be a positive number of seconds")
        self.limits = {**(defaults or {}), **(limits or {})}
        self.window = float(window)
        self._clock = clock
        self._seen: dict[tuple[str, str], deque[float]] = {}

    def _queue(self, account: str, scope: str, now: float) -> deque[float]:
        q = self._seen.setdefault((account, scope), deque())
        edge = now - self.window
        while q and q[0] <= edge:
            q.popleft()
        return q

    def admit(self, account: str, endpoint: str) -> float | None:
        """Count the call and return None, or refuse it and return seconds until one fits."""
        now = self._clock()
        scopes = [s for s in (ALL, endpoint) if s in self.limits]
        wait = 0.0
        for scope in scopes:
            q = self._queue(account, scope, now)
            if len(q) >= self.limits[scope]:
                wait = max(wait, q[len(q) - self.limits[scope]] + self.window - now)
        if wait > 0:
            return wait
        for scope in scopes:
            self._seen[(account, scope)].append(now)
        return None

    def usage(self, account: str, scope: str) -> int:
        """Calls counted for ``scope`` in the current window."""
        return len(self._queue(account, scope, self._clock()))


def retry_after_header(seconds: float, minimum: int = 1) -> str:
    """Whole seconds, rounded up, at least ``minimum`` (HTTP allows no fractions)."""
    return str(max(minimum, math.ceil(seconds)))
