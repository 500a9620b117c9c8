"""A token bucket per key, for limiting token requests per client (bounded memory)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable


class KeyedRateLimiter:
    """``per_minute`` requests per key on average, bursts of up to ``burst``; 0 disables it."""

    def __init__(self, per_minute: float, burst: int, max_keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1, burst)
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def acquire(self, key: str) -> float:
        """0 when allowed now (and counted), else the seconds to wait before trying again."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.pop(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                wait = 0.0
            else:
                self._buckets[key] = (tokens, now)
                wait = (1.0 - tokens) / self.rate
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
            return wait
