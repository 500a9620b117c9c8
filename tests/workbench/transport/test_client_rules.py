"""PlatformClient against scripted answers, in-process: headers, retry rules, ruids, send_many."""

from __future__ import annotations

import asyncio
import gzip

import httpx
import pytest

from workbench.config import Secret, Settings
from workbench.transport import (
    ConfigurationError,
    Outcome,
    PlatformClient,
    RetryPolicy,
    SendItem,
    SlidingWindowLimiter,
)

NS = 'xmlns="http://www.opentravel.org/OTA/2003/05"'
SETTINGS = Settings(base_url="https://general.test", secure_base_url="https://secure.test:8443",
                    username="machine", password=Secret("s3cret"), accept_version="1.1")


def ota(inner: str, n: int, root: str = "OTA_HotelRateAmountNotifRS") -> bytes:
    return (f'<{root} {NS} Version="3.000">{inner}</{root}>'
            f"\n<!-- RUID: [ruid{n}==] -->").encode()


SUCCESS = (200, "<Success/>")
ERRORS = (200, '<Errors><Error Code="RATE_NOT_ACTIVE_FOR_ROOM" ShortText="inactive"/></Errors>')


class Script:
    """An ASGI app answering from a list: (status, inner XML[, headers]) or an exception to raise."""

    def __init__(self, steps):
        self.steps = list(steps)
        self.seen: list[tuple[dict[str, str], bytes, str]] = []

    async def __call__(self, scope, receive, send):
        body = b""
        while True:
            msg = await receive()
            body += msg.get("body", b"")
            if not msg.get("more_body"):
                break
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.seen.append((headers, body, scope["path"]))
        step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        if isinstance(step, Exception):
            raise step
        status, inner, *extra = step
        root = scope["path"].rsplit("/", 1)[-1] + "RS" if "/ota/" in scope["path"] else "ok"
        payload = inner if isinstance(inner, bytes) else ota(inner, len(self.seen), root)
        hdrs = [(b"content-type", b"application/xml"), *[(k.encode(), v.encode()) for k, v in
                                                        (extra[0] if extra else {}).items()]]
        await send({"type": "http.response.start", "status": status, "headers": hdrs})
        await send({"type": "http.response.body", "body": payload})


class Sleeps:
    def __init__(self):
        self.calls: list[float] = []
        self.now = 0.0

    async def __call__(self, seconds):
        self.calls.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)

    def clock(self):
        return self.now


def client_for(script, settings=SETTINGS, **kw):
    sleeps = Sleeps()
    limiter = SlidingWindowLimiter({}, clock=sleeps.clock, sleep=sleeps)
    client = PlatformClient(settings, transport=httpx.ASGITransport(app=script), sleep=sleeps, limiter=limiter,
                            retry=kw.pop("retry", RetryPolicy(base_seconds=0.01, jitter=False)), **kw)
    return client, sleeps


def run(coro):
    return asyncio.run(coro)


def send_once(steps, op="OTA_HotelRateAmountNotif", **kw):
    script = Script(steps)
    client, sleeps = client_for(script)

    async def main():
        async with client:
            return await client.send(op, b"<x/>", **kw)
    return run(main()), script, sleeps


def test_headers_and_hosts_per_operation():
    script = Script([SUCCESS])
    client, _ = client_for(script)

    async def main():
        async with client:
            await client.send("OTA_HotelRateAmountNotif", b"<a/>")
            await client.send("roomrates", b"<request/>")
            await client.send("reservations", b"<request/>")
    run(main())
    (h1, b1, p1), (h2, _, p2), (h3, _, p3) = script.seen
    assert (h1["host"], p1, h1["content-type"], h1["accept-version"]) == (
        "general.test", "/hotels/ota/OTA_HotelRateAmountNotif", "application/xml", "1.1")
    assert h1["authorization"].startswith("Basic ") and "content-encoding" not in h1 and b1 == b"<a/>"
    assert (h2["host"], p2, h2["content-type"]) == ("general.test", "/hotels/xml/roomrates",
                                                    "application/x-www-form-urlencoded")
    assert "accept-version" not in h2
    assert (h3["host"], p3) == ("secure.test:8443", "/hotels/xml/reservations")


def test_gzip_request_bodies():
    script = Script([SUCCESS])
    client, _ = client_for(script, gzip_requests=True)

    async def main():
        async with client:
            return await client.send("OTA_HotelRateAmountNotif", b"<big/>" * 100)
    assert run(main()).ok
    headers, body, _ = script.seen[0]
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == b"<big/>" * 100


@pytest.mark.parametrize("steps,op,outcome,attempts,maybe_applied,fatal", [
    ([SUCCESS], "OTA_HotelRateAmountNotif", Outcome.SUCCESS, 1, False, False),
    ([ERRORS], "OTA_HotelRateAmountNotif", Outcome.REJECTED, 1, False, False),  # data error in a 200
    ([(400, ERRORS[1])], "OTA_HotelRateAmountNotif", Outcome.REJECTED, 1, False, False),
    ([(404, b"<fault code='404' string='no'/>")], "roomrates", Outcome.REJECTED, 1, False, False),
    ([(401, '<Errors><Error ShortText="Authorization required"/></Errors>')], "OTA_HotelRateAmountNotif",
     Outcome.REJECTED, 1, False, True),
    ([(415, ERRORS[1])], "OTA_HotelRateAmountNotif", Outcome.REJECTED, 1, False, True),
    ([(421, ERRORS[1])], "OTA_HotelRateAmountNotif", Outcome.REJECTED, 1, False, True),
    ([(503, ""), (503, ""), SUCCESS], "OTA_HotelRateAmountNotif", Outcome.SUCCESS, 3, False, False),
    ([(503, "")], "OTA_HotelRateAmountNotif", Outcome.FAILED, 6, False, False),  # gives up after max_attempts
    ([(500, ""), SUCCESS], "OTA_HotelRateAmountNotif", Outcome.SUCCESS, 2, False, False),
    ([(502, "")], "OTA_HotelInvNotif", Outcome.FAILED, 1, True, False),  # may have created: not resent
    ([(503, ""), SUCCESS], "OTA_HotelInvNotif", Outcome.SUCCESS, 2, False, False),  # 503: not processed
    ([httpx.ReadError("reset"), SUCCESS], "OTA_HotelRateAmountNotif", Outcome.SUCCESS, 2, False, False),
    ([httpx.RemoteProtocolError("dropped")], "OTA_HotelInvNotif", Outcome.FAILED, 1, True, False),
    ([httpx.ConnectError("refused"), SUCCESS], "OTA_HotelInvNotif", Outcome.SUCCESS, 2, False, False),
    ([(200, b"<OTA_HotelRateAmountNotifRS><Succ"), SUCCESS], "OTA_HotelRateAmountNotif", Outcome.SUCCESS, 2,
     False, False),
    ([(200, b"<html>proxy</html>")], "OTA_HotelInvNotif", Outcome.UNRECOGNISED, 1, True, False),  # a proxy page
    # neither Success nor Errors: unrecognised, never success, not retried (200 is not a retriable status)
    ([(200, "")], "OTA_HotelRateAmountNotif", Outcome.UNRECOGNISED, 1, False, False),
    ([(200, "")], "OTA_HotelInvNotif", Outcome.UNRECOGNISED, 1, True, False),  # a New may have been applied
    # B.XML errors inside a 200 are failures, with their text (issue 10, finding 1)
    ([(200, b"<error>updating availability hasn't been enabled for hotel 1000001</error><!-- RUID: [r1] -->")],
     "OTA_HotelRateAmountNotif", Outcome.REJECTED, 1, False, False),
    ([(200, b'<reservations><fault code="401" string="Authorization Required"/></reservations>')],
     "reservations", Outcome.REJECTED, 1, False, True),
    # a read succeeds on its content: the published DescriptiveInfoRS has no <Success/> (finding 2)
    ([(200, b'<OTA_HotelDescriptiveInfoRS><HotelDescriptiveContents><HotelDescriptiveContent HotelCode="1"/>'
      b"</HotelDescriptiveContents></OTA_HotelDescriptiveInfoRS>")], "OTA_HotelDescriptiveInfo",
     Outcome.SUCCESS, 1, False, False),
    ([(200, b"<OTA_HotelDescriptiveInfoRS/>")], "OTA_HotelDescriptiveInfo", Outcome.UNRECOGNISED, 1, False, False),
    ([(200, b"<rooms/>")], "roomrates", Outcome.SUCCESS, 1, False, False),  # an empty list is an answer
    ([(200, b"<ok/>")], "roomrates", Outcome.UNRECOGNISED, 1, False, False),  # a write's answer to a read
    ([(501, "")], "OTA_HotelRateAmountNotif", Outcome.FAILED, 1, False, True),
])
def test_what_is_retried(steps, op, outcome, attempts, maybe_applied, fatal):
    result, script, _ = send_once(steps, op)
    assert (result.outcome, result.attempts, result.maybe_applied, result.fatal) == (
        outcome, attempts, maybe_applied, fatal), result.summary()
    assert len(script.seen) == attempts


def test_rejections_keep_codes_and_texts():
    result, _, _ = send_once([ERRORS])
    assert result.errors[0].code == "RATE_NOT_ACTIVE_FOR_ROOM" and result.status == 200
    assert "RATE_NOT_ACTIVE_FOR_ROOM" in result.summary()


def test_retry_after_is_honoured_and_every_ruid_kept():
    result, _, sleeps = send_once([(429, "", {"Retry-After": "7"}), (503, "", {"Retry-After": "2"}), SUCCESS])
    assert result.ok and result.attempts == 3
    assert 7 in sleeps.calls and 2 in sleeps.calls  # backoff waited at least Retry-After
    assert result.ruids == ("ruid1==", "ruid2==", "ruid3==") and result.ruid == "ruid3=="
    assert [a.status for a in result.history] == [429, 503, 200]


def test_send_many_order_callbacks_and_contexts():
    script = Script([SUCCESS])
    client, _ = client_for(script, max_in_flight=3)
    seen_sync, seen_async = [], []

    async def record(result):
        seen_async.append(result.context)

    async def main():
        async with client:
            a = await client.send_many([SendItem("OTA_HotelRateAmountNotif", b"<x/>", i) for i in range(10)],
                                       on_result=lambda r: seen_sync.append(r.context))
            b = await client.send_many([("roomrates", b"<request/>", f"h{i}") for i in range(4)], on_result=record)
            return a, b
    a, b = run(main())
    assert [r.context for r in a] == list(range(10)) and sorted(seen_sync) == list(range(10))
    assert [r.context for r in b] == ["h0", "h1", "h2", "h3"] and sorted(seen_async) == ["h0", "h1", "h2", "h3"]


def test_send_many_stops_on_a_settings_problem():
    script = Script([(401, '<Errors><Error ShortText="no"/></Errors>')])
    client, _ = client_for(script, max_in_flight=2)

    async def main():
        async with client:
            return await client.send_many([("OTA_HotelRateAmountNotif", b"<x/>", i) for i in range(20)])
    results = run(main())
    assert 1 <= len(results) <= 2 and all(r.fatal for r in results)


def test_a_failing_callback_stops_the_run():
    script = Script([SUCCESS])
    client, _ = client_for(script, max_in_flight=1)

    def boom(result):
        raise RuntimeError("journal is full")

    async def main():
        async with client:
            await client.send_many([("OTA_HotelRateAmountNotif", b"<x/>", i) for i in range(5)], on_result=boom)
    with pytest.raises(RuntimeError, match="journal"):
        run(main())
    assert len(script.seen) == 1


@pytest.mark.parametrize("changes,needle", [
    ({"base_url": ""}, "WORKBENCH_BASE_URL"),
    ({"base_url": "http://plain.test"}, "https://"),
    ({"username": ""}, "WORKBENCH_USERNAME"),
    ({"password": Secret("")}, "WORKBENCH_PASSWORD"),
    ({"ca_bundle": "/nonexistent/ca.pem"}, "WORKBENCH_CA_BUNDLE"),
    ({"rate_limits": "rates=many"}, "WORKBENCH_RATE_LIMITS"),
])
def test_settings_problems_are_explained(changes, needle):
    with pytest.raises(ConfigurationError, match=needle):
        PlatformClient(SETTINGS.with_(**changes))


def test_unknown_operation_is_explained():
    script = Script([SUCCESS])
    client, _ = client_for(script)
    with pytest.raises(ValueError, match="unknown operation `OTA_Nope`"):
        run(client.send("OTA_Nope", b""))


def test_custom_auth_replaces_basic():
    class Token(httpx.Auth):
        def auth_flow(self, request):
            request.headers["Authorization"] = "Bearer t0ken"
            yield request

    script = Script([SUCCESS])
    client = PlatformClient(SETTINGS.with_(username="", password=Secret("")), auth=Token(),
                            transport=httpx.ASGITransport(app=script))

    async def main():
        async with client:
            return await client.send("OTA_HotelRateAmountNotif", b"<x/>")
    assert run(main()).ok and script.seen[0][0]["authorization"] == "Bearer t0ken"
