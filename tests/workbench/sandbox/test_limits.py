"""Sliding-window limits as the sandbox counts them."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.ota.response import parse_response
from workbench.sandbox import SandboxConfig
from workbench.sandbox.platform.families import DEFAULT_LIMITS
from workbench.sandbox.platform.limits import SlidingWindowLimits, parse_limits
from workbench.sandbox.testing import RATES_PATH, InProcess, message, rate_request


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_spec_limits_table():
    assert DEFAULT_LIMITS == {"all": 10000, "reservationssummary": 700, "OTA_HotelDescriptiveContentNotif": 75,
                              "OTA_HotelInvNotif": 75, "OTA_HotelProductNotif": 75, "OTA_HotelSummaryNotif": 75,
                              "OTA_HotelDescriptiveInfo": 100}


def test_window_slides_and_refusals_are_not_counted():
    clock = Clock()
    lim = SlidingWindowLimits({"op": 3}, window=6, clock=clock)
    assert [lim.admit("a", "op") for _ in range(3)] == [None, None, None]
    clock.now += 2
    wait = lim.admit("a", "op")
    assert wait == pytest.approx(4.0)
    assert lim.usage("a", "op") == 3  # the refused call was not counted
    assert lim.admit("b", "op") is None  # accounts are counted apart
    clock.now += 4.0001
    assert lim.admit("a", "op") is None


def test_overall_limit_spans_endpoints():
    clock = Clock()
    lim = SlidingWindowLimits({"all": 4, "x": 10}, window=60, clock=clock)
    assert [lim.admit("a", e) for e in ("x", "y", "x", "z")] == [None] * 4
    assert lim.admit("a", "y") is not None and lim.admit("a", "x") is not None


@given(st.lists(st.floats(min_value=0, max_value=0.5), min_size=1, max_size=120), st.integers(1, 10))
def test_no_window_ever_holds_more_than_the_limit(gaps, limit):
    clock = Clock()
    lim = SlidingWindowLimits({"op": limit}, window=2, clock=clock)
    admitted = []
    for gap in gaps:
        clock.now += gap
        if lim.admit("a", "op") is None:
            admitted.append(clock.now)
    for i, t in enumerate(admitted):
        assert sum(1 for u in admitted[: i + 1] if u > t - 2) <= limit


@pytest.mark.parametrize("text", ["op", "op=", "op=x", "op=0", "=5", "op=-1"])
def test_bad_limit_specs_are_explained(text):
    with pytest.raises(ValueError, match="NAME=CALLS"):
        parse_limits(text)


def test_parse_limits_accepts_paths():
    assert parse_limits("/ota/OTA_HotelInvNotif=5; all=9") == {"OTA_HotelInvNotif": 5, "all": 9}


def test_app_answers_429_with_retry_after_past_the_limit():
    sb = InProcess(SandboxConfig(today=dt.date(2026, 12, 1), password="pw",
                                 limits={"OTA_HotelRateAmountNotif": 3}, limit_window=30))
    try:
        body = rate_request(1000001, [message("2027-01-01", "2027-01-01", "101", "5001",
                                              {"AmountAfterTax": "1", "CurrencyCode": "EUR"})])
        answers = [sb.push(body) for _ in range(5)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
        assert 1 <= int(answers[3].headers["retry-after"]) <= 30
        assert parse_response(answers[3].content).ruid
        # other endpoints have their own budget
        r = sb.post("/hotels/xml/roomrates", b"<request><hotel_id>1000001</hotel_id></request>")
        assert r.status_code == 200
        assert [x["outcome"] for x in sb.requests()].count("rate_limited") == 2
    finally:
        sb.close()
    assert RATES_PATH
