"""Fault injection: the spec string, and what each fault does to a call."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from workbench.ota.response import ResponseParseError, parse_response
from workbench.sandbox import SandboxConfig
from workbench.sandbox.platform.faults import FaultInjector, FaultSpec
from workbench.sandbox.testing import InProcess, message, rate_request

BODY = rate_request(1000001, [message("2027-01-01", "2027-01-02", "101", "5001",
                                      {"AmountAfterTax": "129", "CurrencyCode": "EUR"})])


def test_parse_full_spec():
    spec = FaultSpec.parse("latency=20ms-80ms, 5xx=0.1,5xx_after=0.05,429=0.05x3,drop=0.02,drop_after=0.01,"
                           "malformed=0.02,retry_after=2,seed=7,ops=OTA_HotelRateAmountNotif|roomrates")
    assert spec.latency == (0.02, 0.08) and spec.burst_429 == 3 and spec.retry_after == 2 and spec.seed == 7
    assert spec.shares == {"5xx": 0.1, "5xx_after": 0.05, "429": 0.05, "drop": 0.02, "drop_after": 0.01,
                           "malformed": 0.02}
    assert spec.ops == {"OTA_HotelRateAmountNotif", "roomrates"} and spec.active
    assert not FaultSpec.parse("").active and FaultSpec.parse("latency=0.05").latency == (0.05, 0.05)
    assert FaultSpec.parse("retry_after=none").retry_after is None


@pytest.mark.parametrize("text,needle", [
    ("5xx", "key=value"), ("5xx=2", "outside"), ("5xx=abc", "share"), ("latency=fast", "duration"),
    ("latency=80ms-20ms", "backwards"), ("429=0.1x0", "burst"), ("seed=x", "whole number"),
    ("teapot=0.1", "unknown fault"), ("5xx=0.6,drop=0.6", "more than 1"),
])
def test_bad_specs_are_explained(text, needle):
    with pytest.raises(ValueError, match=needle):
        FaultSpec.parse(text)


def test_shares_are_drawn_as_configured():
    inj = FaultInjector("5xx=0.2,drop=0.1,seed=1")
    counts = Counter(inj.draw("op") for _ in range(20000))
    assert 0.18 < counts["5xx"] / 20000 < 0.22 and 0.08 < counts["drop"] / 20000 < 0.12
    assert FaultInjector("5xx=1,ops=roomrates").draw("other") is None


def test_429_comes_in_bursts():
    inj = FaultInjector("429=0.02x4,seed=2")
    draws = [inj.draw("op") for _ in range(5000)]
    runs, current = [], 0
    for d in draws:
        if d == "429":
            current += 1
        elif current:
            runs.append(current)
            current = 0
    assert runs and all(r % 4 == 0 for r in runs)  # back-to-back bursts join up


def test_same_seed_same_faults():
    a, b = FaultInjector("5xx=0.3,seed=3"), FaultInjector("5xx=0.3,seed=3")
    assert [a.draw("x") for _ in range(50)] == [b.draw("x") for _ in range(50)]


@pytest.fixture
def make():
    boxes = []

    def build(faults: str) -> InProcess:
        box = InProcess(SandboxConfig(today=dt.date(2026, 12, 1), password="pw", faults=faults))
        boxes.append(box)
        return box
    yield build
    for box in boxes:
        box.close()


def test_5xx_before_processing_changes_nothing(make):
    sb = make("5xx=1,retry_after=3")
    r = sb.push(BODY)
    assert r.status_code == 503 and r.headers["retry-after"] == "3" and parse_response(r.content).ruid
    assert sb.rates() == []


def test_5xx_after_processing_keeps_the_change(make):
    sb = make("5xx_after=1")
    assert sb.push(BODY).status_code == 500 and len(sb.rates()) == 2


def test_malformed_answer_is_unreadable_and_changes_nothing(make):
    sb = make("malformed=1")
    r = sb.push(BODY)
    assert r.status_code == 200
    with pytest.raises(ResponseParseError):
        parse_response(r.content)
    assert sb.rates() == []


def test_429_burst_then_normal(make):
    sb = make("429=1x3,retry_after=0")
    assert sb.push(BODY).status_code == 429
    sb.sandbox.faults.configure("")
    assert sb.push(BODY).status_code == 200


def test_faults_can_be_changed_at_runtime(make):
    sb = make("")
    r = sb.request("POST", "/_sandbox/faults", b"5xx=1")
    assert r.status_code == 200 and sb.push(BODY).status_code == 503
    assert sb.request("POST", "/_sandbox/faults", b"nonsense=1").status_code == 400
    sb.request("POST", "/_sandbox/faults", b"")
    assert sb.push(BODY).status_code == 200


def test_dropped_connection_in_process_raises_like_a_real_drop(make):
    import httpx
    sb = make("drop=1")
    with pytest.raises(httpx.RemoteProtocolError):
        sb.push(BODY)
    assert sb.rates() == [] and sb.requests()[0]["outcome"] == "fault:drop"
