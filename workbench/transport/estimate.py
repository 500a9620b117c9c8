"""How long a send takes at the configured limits, before anything is sent (a plan's figure).

The client's limiter lets at most ``limit`` calls of an operation (and of all operations) hold a
slot per window; a call keeps its slot one window (plus a small margin) after its answer. So
``n`` calls need at least ``ceil(n / limit) - 1`` full windows after the first batch; the first
batch itself takes as long as the platform takes to answer, which no plan can know.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from workbench.config import Settings
from workbench.transport.errors import ConfigurationError
from workbench.transport.limiter import default_margin
from workbench.transport.operations import ALL, SPEC_LIMITS, parse_limits
from workbench.wording import count


@dataclass(frozen=True)
class SendEstimate:
    """``calls`` of ``operation`` at ``limit`` calls per ``window`` seconds: ``seconds`` at least."""

    operation: str
    calls: int
    limit: int
    window: float
    seconds: float

    def text(self) -> str:
        """``at least 3 min (25,000 calls at 10,000 per 60 s)``; within one window, the answer times decide."""
        rate = f"{self.limit:,} per {self.window:g} s"
        if self.calls == 0:
            return "nothing to send"
        if self.seconds <= 0:
            return f"within one window ({count(self.calls, 'call')} at {rate}: as fast as the platform answers)"
        return f"at least {_duration(self.seconds)} ({count(self.calls, 'call')} at {rate})"


def send_estimate(settings: Settings, operation: str, calls: int) -> SendEstimate:
    """The least time ``calls`` calls of ``operation`` take at the spec's limits, overridden by
    ``Settings.rate_limits`` (the lower of the operation's own limit and the overall one)."""
    try:
        limits = {**SPEC_LIMITS, **parse_limits(settings.rate_limits)}
    except ValueError as exc:
        raise ConfigurationError(str(exc)) from None
    limit = min(v for v in (limits.get(operation), limits.get(ALL)) if v is not None)
    window = float(settings.rate_limit_window_seconds)
    batches = math.ceil(calls / limit) if calls else 0
    seconds = max(0, batches - 1) * (window + default_margin(window))
    return SendEstimate(operation, calls, limit, window, seconds)


def _duration(seconds: float) -> str:
    s = int(math.ceil(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    if h:
        return f"{h} h {m:02d} min"
    if m:
        return f"{m} min {sec:02d} s" if sec else f"{m} min"
    return f"{sec} s"
