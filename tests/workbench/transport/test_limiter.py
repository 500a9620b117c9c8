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


def run_requests(limits, window, keys, gaps, durations=()):
    durations = list(durations)
    vt = VirtualTime()
    lim = SlidingWindowLimiter(limits, window=window, margin=0.0, clock=vt.clock, sleep=vt.sleep)
    granted: list[tuple[str, float]] = []

    async def main():
        for key, gap in zip(keys, gaps, strict=True):
            vt.now += gap
            ticket = await lim.acquire(key)
            grant = vt.now
            vt.now += durations.pop(0) if durations else 0.0  # the answer comes back
            lim.release(ticket)
            granted.append((key, grant, vt.now))
    asyncio.run(main())
    return granted


def max_in_window(times, window):
    times = sorted(times)
    return max((sum(1 for u in times if t - window + 1e-9 < u <= t) for t in times), default=0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=80), st.integers(1, 8), st.integers(2, 12),
       st.data())
def test_every_window_stays_within_limits(keys, per_key, overall, data):
    gaps = data.draw(st.lists(st.floats(0, 0.3), min_size=len(keys), max_size=len(keys)))
    durations = data.draw(st.lists(st.floats(0, 0.5), min_size=len(keys), max_size=len(keys)))
    granted = run_requests({"a": per_key, "all": overall}, 1.0, keys, gaps, durations)
    assert len(granted) == len(keys)
    for calls, limit in (([g for g in granted if g[0] == "a"], per_key), (granted, overall)):
        # the platform counts a call somewhere between its grant and its answer: the call `limit`
        # places later must be granted a full window after the earlier one's answer
        for earlier, later in zip(calls, calls[limit:], strict=False):
            assert later[1] >= earlier[2] + 1.0 - 1e-9


def test_steady_state_runs_at_the_limit():
    granted = run_requests({"op": 10}, 2.0, ["op"] * 100, [0.0] * 100)
    times = [g for _, g, _ in granted]
    # 10 per 2 s with instant answers: the 100th call goes out after 9 windows (plus margins)
    assert times[-1] == 9 * 2.0 + 9 * 0.0 and max_in_window(times, 2.0) == 10


def test_a_slot_frees_one_window_after_the_answer():
    vt = VirtualTime()
    lim = SlidingWindowLimiter({"op": 1}, window=6, margin=0.1, clock=vt.clock, sleep=vt.sleep)

    async def main():
        first = await lim.acquire("op")
        vt.now += 0.8  # the answer took 0.8 s: the platform may have counted the call that late
        lim.release(first)
        second = await lim.acquire("op")
        return second
    second = asyncio.run(main())
    assert vt.now == 0.8 + 6 + 0.1 and second.waited == 6.1


def test_waits_for_an_answer_in_flight():
    lim = SlidingWindowLimiter({"op": 1}, window=0.01, margin=0.0)

    async def main():
        first = await lim.acquire("op")
        waiter = asyncio.create_task(lim.acquire("op"))
        await asyncio.sleep(0.05)
        assert not waiter.done()  # the first call has not answered: its slot is still held
        lim.release(first)
        second = await asyncio.wait_for(waiter, 5)
        lim.release(second)
        return lim.in_window("op")
    assert asyncio.run(main()) == 1


def test_block_holds_an_endpoint_after_429():
    vt = VirtualTime()
    lim = SlidingWindowLimiter({}, window=60, clock=vt.clock, sleep=vt.sleep)
    lim.block("op", 3)

    async def main():
        return (await lim.acquire("op")).waited
    assert asyncio.run(main()) == 3.0


def test_account_limits_override_the_spec():
    assert SPEC_LIMITS["OTA_HotelInvNotif"] == 75 and SPEC_LIMITS["all"] == 10000
    assert parse_limits("OTA_HotelRateAmountNotif=600, /ota/OTA_HotelInvNotif=50") == {
        "OTA_HotelRateAmountNotif": 600, "OTA_HotelInvNotif": 50}
