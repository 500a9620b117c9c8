"""The client limiter on a virtual clock: never more than the limit in any platform window."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.transport.limiter import SlidingWindowLimiter
from workbench.transport.operations import SPEC_LIMITS, parse_limits


class VirtualTime:
    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)


def run_requests(limits, window, keys, gaps):
    vt = VirtualTime()
    lim = SlidingWindowLimiter(limits, window=window, margin=0.0, clock=vt.clock, sleep=vt.sleep)
    granted: list[tuple[str, float]] = []

    async def main():
        for key, gap in zip(keys, gaps):
            vt.now += gap
            await lim.acquire(key)
            granted.append((key, vt.now))
    asyncio.run(main())
    return granted


def max_in_window(times, window):
    times = sorted(times)
    return max((sum(1 for u in times if t - window + 1e-9 < u <= t) for t in times), default=0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=80), st.integers(1, 8), st.integers(2, 12),
       st.data())
def test_every_window_stays_within_limits(keys, per_key, overall, data):
    gaps = data.draw(st.lists(st.floats(0, 0.3), min_size=len(keys), max_size=len(keys)))
    granted = run_requests({"a": per_key, "all": overall}, 1.0, keys, gaps)
    assert len(granted) == len(keys)
    assert max_in_window([t for k, t in granted if k == "a"], 1.0) <= per_key
    assert max_in_window([t for _, t in granted], 1.0) <= overall


def test_steady_state_runs_at_the_limit():
    granted = run_requests({"op": 10}, 2.0, ["op"] * 100, [0.0] * 100)
    times = [t for _, t in granted]
    # 10 per 2 s: the 100th call goes out after 9 full windows, not later
    assert times[-1] == 18.0 and max_in_window(times, 2.0) == 10


def test_margin_lengthens_the_counted_window():
    vt = VirtualTime()
    lim = SlidingWindowLimiter({"op": 1}, window=6, clock=vt.clock, sleep=vt.sleep)
    assert lim.span > 6

    async def main():
        await lim.acquire("op")
        await lim.acquire("op")
    asyncio.run(main())
    assert vt.now == lim.span


def test_block_holds_an_endpoint_after_429():
    vt = VirtualTime()
    lim = SlidingWindowLimiter({}, window=60, clock=vt.clock, sleep=vt.sleep)
    lim.block("op", 3)

    async def main():
        return await lim.acquire("op")
    assert asyncio.run(main()) == 3.0


def test_account_limits_override_the_spec():
    assert SPEC_LIMITS["OTA_HotelInvNotif"] == 75 and SPEC_LIMITS["all"] == 10000
    assert parse_limits("OTA_HotelRateAmountNotif=600, /ota/OTA_HotelInvNotif=50") == {
        "OTA_HotelRateAmountNotif": 600, "OTA_HotelInvNotif": 50}
