"""Fault injection for tests and demos, configured by one spec string.

Format: comma-separated ``key=value`` items, e.g.
``latency=50ms,5xx=0.1,429=0.05x3,drop=0.05,malformed=0.02,seed=7``.

==============  ===========================================================================
``latency``     added to every call: ``50ms``, ``0.05`` (seconds) or a range ``20ms-80ms``
``5xx``         share of calls answered 503 (with Retry-After) before anything is processed
``5xx_after``   share of calls processed (state changed) and then answered 500
``429``         share of calls that start a burst of 429s: ``0.05`` (one call) or ``0.05x3``
``drop``        share of calls whose connection is closed before anything is processed
``drop_after``  share of calls processed and then dropped (the client cannot know the outcome)
``malformed``   share of calls answered 200 with a truncated body, not processed
``retry_after`` seconds in Retry-After of injected 429/503 (default 1; ``none`` omits it)
``seed``        random seed, for repeatable runs
``ops``         restrict faults (and latency) to these operations: ``ops=roomrates|currencies``
``buildhotel``  content calls answered ``BuildHotel`` (property left Closed): ``buildhotel=2`` (the next
                two calls), ``buildhotel=H-7x3`` (the next three for custom ID or HotelCode ``H-7``),
                several joined by ``|``: ``buildhotel=H-7x2|1000001x1``
==============  ===========================================================================
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

KINDS = ("drop", "drop_after", "5xx", "5xx_after", "malformed", "429")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$")


def _seconds(text: str, key: str) -> float:
    m = _DURATION.match(text)
    if not m:
        raise ValueError(f"fault `{key}`: `{text}` is not a duration (e.g. `50ms` or `0.05`)")
    value = float(m.group(1))
    return value / 1000 if m.group(2) == "ms" else value


def _share(text: str, key: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"fault `{key}`: `{text}` is not a share between 0 and 1 (e.g. `0.1`)") from None
    if not 0 <= value <= 1:
        raise ValueError(f"fault `{key}`: share {value} is outside 0..1")
    return value


@dataclass(frozen=True)
class FaultSpec:
    """Parsed fault configuration; :meth:`parse` reads the string format above."""

    latency: tuple[float, float] = (0.0, 0.0)
    shares: dict[str, float] = field(default_factory=dict)
    burst_429: int = 1
    retry_after: float | None = 1.0
    seed: int | None = None
    ops: frozenset[str] = frozenset()
    text: str = ""
    build_hotel: tuple[tuple[str, int], ...] = ()  # (custom ID or HotelCode, or "*" for any; times)

    @classmethod
    def parse(cls, spec: str | None) -> FaultSpec:
        latency = (0.0, 0.0)
        shares: dict[str, float] = {}
        retry_after: float | None
        burst, retry_after, seed, ops = 1, 1.0, None, frozenset[str]()
        build_hotel: list[tuple[str, int]] = []
        for item in (spec or "").split(","):
            item = item.strip()
            if not item:
                continue
            key, sep, value = (s.strip() for s in item.partition("="))
            if not sep:
                raise ValueError(f"fault `{item}` is not `key=value` (known keys: latency, {', '.join(KINDS)}, "
                                 "retry_after, seed, ops)")
            if key == "latency":
                low, _, high = value.partition("-")
                lo = _seconds(low, key)
                latency = (lo, _seconds(high, key) if high else lo)
                if latency[1] < latency[0]:
                    raise ValueError(f"fault `latency`: range `{value}` runs backwards")
            elif key == "429":
                share, _, n = value.partition("x")
                shares[key] = _share(share, key)
                if n and (not n.isdigit() or int(n) < 1):
                    raise ValueError(f"fault `429`: burst length `{n}` is not a positive whole number")
                burst = int(n) if n else 1
            elif key in KINDS:
                shares[key] = _share(value, key)
            elif key == "retry_after":
                retry_after = None if value.lower() == "none" else _seconds(value, key)
            elif key == "seed":
                if not value.lstrip("-").isdigit():
                    raise ValueError(f"fault `seed`: `{value}` is not a whole number")
                seed = int(value)
            elif key == "ops":
                ops = frozenset(o.strip() for o in value.split("|") if o.strip())
            elif key == "buildhotel":
                build_hotel += [_build_hotel(v.strip()) for v in value.split("|") if v.strip()]
            else:
                raise ValueError(f"unknown fault `{key}` (known: latency, {', '.join(KINDS)}, retry_after, seed, ops, "
                                 "buildhotel)")
        if sum(shares.values()) > 1:
            raise ValueError(f"fault shares add up to {sum(shares.values()):g}, more than 1")
        return cls(latency, shares, burst, retry_after, seed, ops, spec or "", tuple(build_hotel))

    @property
    def active(self) -> bool:
        return self.latency[1] > 0 or any(v > 0 for v in self.shares.values()) or bool(self.build_hotel)


def _build_hotel(item: str) -> tuple[str, int]:
    """``3`` -> ("*", 3); ``H-7x2`` -> ("H-7", 2); ``H-7`` -> ("H-7", 1)."""
    if item.isdigit():
        count, key = int(item), "*"
    else:
        head, sep, tail = item.rpartition("x")
        key, count = (head, int(tail)) if sep and head and tail.isdigit() else (item, 1)
    if count < 1:
        raise ValueError(f"fault `buildhotel`: `{item}` asks for {count} times; give a positive number")
    return key, count


class FaultInjector:
    """Decides, call by call, which fault (if any) to inject."""

    def __init__(self, spec: FaultSpec | str | None = None) -> None:
        self.configure(spec)

    def configure(self, spec: FaultSpec | str | None) -> None:
        self.spec = spec if isinstance(spec, FaultSpec) else FaultSpec.parse(spec)
        self._rng = random.Random(self.spec.seed)
        self._burst_left = 0
        self._build_hotel_left = dict(self.spec.build_hotel)

    def applies(self, operation: str) -> bool:
        return not self.spec.ops or operation in self.spec.ops

    def latency(self, operation: str) -> float:
        lo, hi = self.spec.latency
        if hi <= 0 or not self.applies(operation):
            return 0.0
        return lo if hi == lo else self._rng.uniform(lo, hi)

    def draw(self, operation: str) -> str | None:
        """The fault for this call: one of ``KINDS`` or None."""
        if not self.applies(operation):
            return None
        if self._burst_left > 0:
            self._burst_left -= 1
            return "429"
        u = self._rng.random()
        edge = 0.0
        for kind in KINDS:
            edge += self.spec.shares.get(kind, 0.0)
            if u < edge:
                if kind == "429":
                    self._burst_left = self.spec.burst_429 - 1
                return kind
        return None

    def build_hotel(self, keys: tuple[str | None, ...]) -> bool:
        """Whether this content call (for these custom ID / HotelCode keys) gets ``BuildHotel``; each
        answer uses up one of the configured times (a named key before the any-property ``*``)."""
        for key in (*[k for k in keys if k], "*"):
            left = self._build_hotel_left.get(key, 0)
            if left > 0:
                self._build_hotel_left[key] = left - 1
                return True
        return False
