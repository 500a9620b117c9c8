"""Retry timing shared by every HTTP client in the project: exponential backoff with full
jitter, capped, and ``Retry-After`` honoured (seconds or an HTTP date)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

RETRIABLE_STATUS = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait: attempt ``n`` (1-based) waits up to ``base * 2**(n-1)``."""

    max_attempts: int = 6
    base_seconds: float = 0.5
    cap_seconds: float = 30.0
    jitter: bool = True

    def delay(self, attempt: int, retry_after: float | None = None, rng: random.Random | None = None) -> float:
        """Seconds to wait before the retry that follows failed ``attempt``."""
        ceiling = min(self.cap_seconds, self.base_seconds * (2 ** max(0, attempt - 1)))
        wait = (rng or random).uniform(0, ceiling) if self.jitter else ceiling
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.cap_seconds))
        return wait

    def should_retry(self, attempt: int) -> bool:
        return attempt < self.max_attempts


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """``Retry-After`` as seconds to wait; ``None`` when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
