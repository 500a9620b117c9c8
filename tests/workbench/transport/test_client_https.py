"""PlatformClient against the sandbox served by uvicorn over real HTTPS on loopback."""

from __future__ import annotations

import asyncio
import csv
import datetime as dt
import io
import ssl
import threading

import httpx
import pandas as pd
import pytest

from workbench.platform.roomrates import fetch_roomrates
from workbench.sandbox import run_sandbox
from workbench.sandbox.testing import message, rate_request
from workbench.transport import Outcome, PlatformClient, RetryPolicy, SyncPlatformClient, ssl_context

TODAY = dt.date(2026, 12, 1)
FAST_RETRY = RetryPolicy(max_attempts=12, base_seconds=0.01, cap_seconds=0.2)


def day_request(day: dt.date, amount: str) -> bytes:
    return rate_request(1000001, [message(day.isoformat(), day.isoformat(), "101", "5001",
                                          {"AmountAfterTax": amount, "CurrencyCode": "EUR"})])


def get_csv(running, url: str) -> list[dict[str, str]]:
    text = httpx.get(url, verify=ssl_context(running.tls.ca_bundle)).text
    return list(csv.DictReader(io.StringIO(text)))


def push_all(settings, bodies, **options):
    async def main():
        async with PlatformClient(settings, **options) as client:
            return await client.send_many([("OTA_HotelRateAmountNotif", b, i) for i, b in enumerate(bodies)])
    return asyncio.run(main())


def test_push_over_https_and_ruids_match_the_request_log():
    with run_sandbox(today=TODAY) as sb:
        days = [dt.date(2027, 1, 1) + dt.timedelta(days=i) for i in range(5)]
        results = push_all(sb.settings, [day_request(d, f"1{i}0.25") for i, d in enumerate(days)])
        assert [r.outcome for r in results] == [Outcome.SUCCESS] * 5
        calendar = get_csv(sb, sb.rates_csv_url)
        assert [(c["Date"], c["Amount"]) for c in calendar] == [(d.isoformat(), f"1{i}0.25") for i, d in enumerate(days)]
        log = get_csv(sb, sb.requests_csv_url)
        assert sorted(r.ruid for r in results) == sorted(x["ruid"] for x in log)
        assert {x["host"] for x in log} == {sb.base_url.removeprefix("https://")}


@pytest.mark.parametrize("faults", [
    "5xx=0.08,429=0.04x2,drop=0.08,seed=11,retry_after=0",
    "5xx_after=0.07,drop_after=0.07,malformed=0.06,seed=5,retry_after=0",
])
def test_accepted_calendar_equals_intended_under_faults(faults):
    with run_sandbox(today=TODAY, faults=faults) as sb:
        days = [dt.date(2027, 2, 1) + dt.timedelta(days=i) for i in range(40)]
        intended = {d.isoformat(): str(100 + i) for i, d in enumerate(days)}
        results = push_all(sb.settings, [day_request(d, intended[d.isoformat()]) for d in days], retry=FAST_RETRY,
                           max_in_flight=8)
        assert all(r.ok for r in results), [r.summary() for r in results if not r.ok]
        calendar = {c["Date"]: c["Amount"] for c in get_csv(sb, sb.rates_csv_url)}
        assert calendar == intended
        log = get_csv(sb, sb.requests_csv_url)
        injected = [x for x in log if x["outcome"].startswith("fault:")]
        assert injected and sum(r.attempts for r in results) == len(log)
        assert any(r.attempts > 1 for r in results)


def test_limiter_keeps_zero_429_at_steady_state():
    with run_sandbox(today=TODAY, limits={"OTA_HotelRateAmountNotif": 12}, limit_window=1.0,
                     faults="latency=20ms") as sb:
        days = [dt.date(2027, 3, 1) + dt.timedelta(days=i) for i in range(36)]
        results = push_all(sb.settings, [day_request(d, "99") for d in days], max_in_flight=16)
        assert all(r.ok and r.attempts == 1 for r in results)
        log = get_csv(sb, sb.requests_csv_url)
        assert len(log) == 36 and {x["status"] for x in log} == {"200"}


def test_sandbox_limit_is_real_without_the_client_limiter():
    from workbench.transport import SlidingWindowLimiter
    with run_sandbox(today=TODAY, limits={"OTA_HotelRateAmountNotif": 5}, limit_window=30) as sb:
        results = push_all(sb.settings, [day_request(dt.date(2027, 4, 1), "1")] * 8,
                           limiter=SlidingWindowLimiter({}), retry=RetryPolicy(max_attempts=1))
        statuses = sorted(r.status for r in results)
        assert statuses == [200] * 5 + [429] * 3
        assert all(r.outcome is Outcome.FAILED for r in results if r.status == 429)


def test_wrong_password_is_fatal_and_stops_the_run():
    with run_sandbox(today=TODAY) as sb:
        from workbench.config import Secret
        settings = sb.settings.with_(password=Secret("wrong"), max_in_flight=2)
        results = push_all(settings, [day_request(dt.date(2027, 1, 1), "1")] * 20)
        assert 1 <= len(results) <= 2 and all(r.fatal and r.status == 401 for r in results)
        assert "401" in results[0].summary() and "wrong" not in results[0].summary()


def test_untrusted_certificate_is_fatal(tmp_path):
    import trustme
    other = trustme.CA()
    other.cert_pem.write_to_path(str(tmp_path / "other.pem"))
    with run_sandbox(today=TODAY) as sb:
        results = push_all(sb.settings.with_(ca_bundle=str(tmp_path / "other.pem")),
                           [day_request(dt.date(2027, 1, 1), "1")])
        assert results[0].fatal and results[0].attempts == 1 and "WORKBENCH_CA_BUNDLE" in results[0].error


def test_tls_12_is_the_minimum():
    assert ssl_context(None).minimum_version == ssl.TLSVersion.TLSv1_2


def test_pci_operations_go_to_the_secure_host():
    with run_sandbox(today=TODAY) as sb:
        async def main(settings):
            async with PlatformClient(settings) as client:
                return await client.send("reservations", b"<request/>")
        assert asyncio.run(main(sb.settings)).ok
        misrouted = asyncio.run(main(sb.settings.with_(secure_base_url=sb.base_url)))
        assert misrouted.status == 421 and misrouted.fatal and misrouted.errors[0].code == "MISUSE_WRONG_HOST"


def test_ambiguous_failure_of_a_non_idempotent_call_is_not_resent():
    with run_sandbox(today=TODAY, faults="drop_after=1") as sb:
        async def main():
            async with PlatformClient(sb.settings, retry=FAST_RETRY) as client:
                return await client.send("OTA_HotelRateAmountNotif", day_request(dt.date(2027, 1, 1), "5"),
                                         idempotent=False)
        result = asyncio.run(main())
        assert result.outcome is Outcome.FAILED and result.maybe_applied and result.attempts == 1
        assert len(get_csv(sb, sb.rates_csv_url)) == 1  # it was applied, the client could not know


def test_sync_facade_calls_back_in_the_callers_thread_and_reads_roomrates():
    with run_sandbox(today=TODAY) as sb:
        threads = []
        with SyncPlatformClient(sb.settings) as client:
            results = client.send_many([("OTA_HotelRateAmountNotif", day_request(dt.date(2027, 5, d), "7"), d)
                                        for d in range(1, 6)], on_result=lambda r: threads.append(
                                            threading.get_ident()))
            registry = fetch_roomrates(client, [1000001, 1000003, 424242])
        assert [r.context for r in results] == [1, 2, 3, 4, 5] and set(threads) == {threading.get_ident()}
        assert set(registry.rooms["inv_type_code"]) == {"101", "102", "301", "302"}
        assert len(registry.failed) == 1 and registry.failed[0].status == 200  # <error>…</error> in a 200
        assert registry.refused[["hotel_code", "text"]].values.tolist() == [
            [424242, "reading room rates hasn't been enabled for hotel 424242"]]
        child = registry.room_rates.set_index(["inv_type_code", "rate_plan_code"]).loc[("101", "5002")]
        assert child["is_child_rate"] == 1 and pd.isna(child["follows_price"])  # the platform does not say
        assert pd.isna(registry.properties.set_index("hotel_code").loc[1000003, "pricing_model"])
