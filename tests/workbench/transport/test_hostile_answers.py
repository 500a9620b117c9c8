"""Issue 22: hostile answers end one call with a clear failed result, never the run (real HTTPS on loopback).

Each server here lies, inflates, trickles or refuses; the client must classify it like any other
failed answer: retried only when the call may be repeated (rate updates yes, InvNotif no).
"""

from __future__ import annotations

import asyncio
import ssl
import tracemalloc
import zlib

import pytest

from tests.workbench.transport.hostile_server import (
    Certificates,
    gzip_bomb,
    gzipped,
    plain,
    says_gzip_but_is_not,
    silent,
    success_body,
    trickle,
)
from workbench.config import Secret, Settings
from workbench.transport import ConfigurationError, Outcome, PlatformClient, RetryPolicy

RATES, INVENTORY = "OTA_HotelRateAmountNotif", "OTA_HotelInvNotif"  # idempotent / not
FAST = RetryPolicy(max_attempts=3, base_seconds=0.01, cap_seconds=0.05)
HTML = (b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><p>Your session expired.<br>"
        b"Sign in again</body></html>")


def send(settings: Settings, op: str = INVENTORY, retry: RetryPolicy = FAST, **kw):
    async def main():
        async with PlatformClient(settings, retry=retry) as client:
            return await client.send(op, b"<request/>", **kw)
    return asyncio.run(main())


def send_many(settings: Settings, n: int, op: str = RATES):
    async def main():
        async with PlatformClient(settings, retry=FAST, max_in_flight=1) as client:
            return await client.send_many([(op, b"<request/>", i) for i in range(n)])
    return asyncio.run(main())


@pytest.mark.parametrize("op,attempts,maybe_applied", [(RATES, 3, False), (INVENTORY, 1, True)])
def test_an_answer_that_says_gzip_but_is_not_is_a_failed_answer(serve, op, attempts, maybe_applied):
    server = serve(says_gzip_but_is_not())
    result = send(server.settings(), op)
    assert (result.outcome, result.status, result.error) == (Outcome.FAILED, 200, "answer says gzip but is not gzip")
    assert (result.attempts, result.maybe_applied, result.fatal) == (attempts, maybe_applied, False)
    assert server.requests == attempts and "answer says gzip but is not gzip" in result.summary()


INVENTORY_SUCCESS = success_body("/hotels/ota/OTA_HotelInvNotif")


@pytest.mark.parametrize("encoded", [
    gzipped(),
    plain(body=zlib.compress(INVENTORY_SUCCESS), Content_Encoding="deflate"),
    plain(body=zlib.compress(INVENTORY_SUCCESS)[2:-4], Content_Encoding="deflate"),  # raw deflate, as some send it
    plain(Content_Encoding="identity"),
], ids=["gzip", "deflate", "raw-deflate", "identity"])
def test_answers_in_the_encodings_asked_for_are_read(serve, encoded):
    server = serve(encoded)
    result = send(server.settings())
    assert result.ok and result.ruid == "hostile==", result.summary()
    assert server.last_headers["accept-encoding"] == "gzip, deflate"  # never br or zstd: those are refused


def test_an_encoding_not_asked_for_is_a_failed_answer(serve):
    server = serve(plain(Content_Encoding="br"))
    result = send(server.settings())
    assert result.outcome is Outcome.FAILED and result.maybe_applied
    assert result.error == "answer says br, which was not asked for (Accept-Encoding: gzip, deflate)"


def test_a_damaged_gzip_answer_is_a_failed_answer(serve):
    whole = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    data = whole.compress(INVENTORY_SUCCESS * 50) + whole.flush()
    server = serve(plain(body=data[:40] + bytes(b ^ 0x5A for b in data[40:]), Content_Encoding="gzip"))
    result = send(server.settings())
    assert result.outcome is Outcome.FAILED and result.error.startswith("answer's gzip data is damaged (")


def test_a_gzip_bomb_stops_at_the_default_cap(serve):
    server = serve(gzip_bomb(256 << 20))
    result = send(server.settings())
    assert (result.outcome, result.error) == (Outcome.FAILED, "answer larger than 64 MiB after decoding")
    assert result.maybe_applied and result.body == b""


def test_a_gzip_bomb_never_holds_more_than_the_cap(serve):
    server = serve(gzip_bomb(2 << 30))  # 2 GiB of zeros, about 2 MiB on the wire
    tracemalloc.start()
    try:
        result = send(server.settings(max_answer_bytes=16 << 20))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.error == "answer larger than 16 MiB after decoding"
    # the body kept (at most the cap, in a buffer that grows by an eighth), zlib's last output and the
    # server thread's own megabyte; reading the whole answer would take 2 GiB
    assert peak < (16 << 20) * 9 // 8 + (4 << 20), f"peak {peak / 2**20:.1f} MiB for a 16 MiB cap"


def test_a_declared_length_over_the_cap_is_refused_before_reading(serve):
    server = serve(plain(body=b"<ok/>" + b" " * 5000))
    result = send(server.settings(max_answer_bytes=1000), op="roomrates")
    assert result.error == "answer larger than 1,000 bytes after decoding"


@pytest.mark.parametrize("op,attempts,maybe_applied", [(RATES, 2, False), (INVENTORY, 1, True)])
def test_an_answer_trickling_a_byte_at_a_time_ends_at_the_deadline(serve, op, attempts, maybe_applied):
    # the whole answer would take about 15 s; httpx's read timeout (5 s) never fires between bytes
    server = serve(trickle(every=0.1))
    result = send(server.settings(timeout_seconds=5, request_deadline_seconds=1), op,
                  retry=RetryPolicy(max_attempts=2, base_seconds=0.01, cap_seconds=0.05))
    assert (result.outcome, result.status, result.error) == (Outcome.FAILED, 200, "answer not finished within 1 s")
    assert (result.attempts, result.maybe_applied) == (attempts, maybe_applied)


def test_a_server_that_never_answers_ends_at_the_deadline(serve):
    server = serve(silent())
    result = send(server.settings(timeout_seconds=30, request_deadline_seconds=0.5))
    assert (result.outcome, result.status, result.error) == (Outcome.FAILED, None, "answer not finished within 0.5 s")
    assert result.maybe_applied and result.attempts == 1


def test_the_deadline_is_derived_from_the_timeout_and_settings_are_checked():
    settings = Settings(base_url="https://platform.test", username="u", password=Secret("p"))
    assert PlatformClient(settings.with_(timeout_seconds=5)).deadline == 10
    assert PlatformClient(settings.with_(request_deadline_seconds=3)).deadline == 3
    assert PlatformClient(settings).max_answer_bytes == 64 << 20
    with pytest.raises(ConfigurationError, match="WORKBENCH_MAX_ANSWER_BYTES"):
        PlatformClient(settings.with_(max_answer_bytes=0))
    with pytest.raises(ConfigurationError, match="WORKBENCH_REQUEST_DEADLINE_SECONDS"):
        PlatformClient(settings.with_(request_deadline_seconds=-1))
    read = Settings.from_mapping({"WORKBENCH_MAX_ANSWER_BYTES": "1048576", "WORKBENCH_REQUEST_DEADLINE_SECONDS": "30"})
    assert (read.max_answer_bytes, read.request_deadline_seconds) == (1 << 20, 30.0)


def old_tls(certificates: Certificates) -> ssl.SSLContext:
    return certificates.server_context(maximum=ssl.TLSVersion.TLSv1_1)


@pytest.mark.parametrize("context,needle", [
    (lambda c, tmp: Certificates(tmp).server_context(), "certificate not trusted"),
    (lambda c, tmp: c.server_context("platform.example"), "the certificate is not for this host"),
    (lambda c, tmp: old_tls(c), "the server offers no TLS 1.2 or newer"),
], ids=["untrusted", "hostname-mismatch", "tls-1.1"])
def test_a_refused_tls_handshake_is_fatal_never_retried_and_stops_the_run(serve, certificates, tmp_path, context,
                                                                          needle):
    server = serve(plain(), context(certificates, tmp_path))
    result = send(server.settings(), RATES, retry=RetryPolicy(max_attempts=6, base_seconds=0.01, cap_seconds=0.05))
    assert (result.outcome, result.fatal, result.attempts) == (Outcome.FAILED, True, 1)
    assert result.error.startswith(f"TLS failed: {needle}")
    assert server.requests == 0
    assert len(send_many(server.settings(), 10)) == 1  # the run stops at the first fatal result


@pytest.mark.parametrize("page,what", [(HTML, "an HTML page"), (b"Service temporarily unavailable", "plain text"),
                                       (b"\x00\x00\x1f\x8b\x08garbage", "binary data")])
@pytest.mark.parametrize("op", [RATES, INVENTORY])
def test_a_page_that_is_not_the_platforms_answer_is_not_retried(serve, page, what, op):
    server = serve(plain(body=page, Content_Type="text/html"))
    result = send(server.settings(), op, retry=RetryPolicy(max_attempts=6, base_seconds=0.01, cap_seconds=0.05))
    assert (result.outcome, result.attempts, result.fatal) == (Outcome.UNRECOGNISED, 1, False)
    assert result.error.startswith(f"not an answer of the platform (HTTP 200, {what}): ")
    assert result.maybe_applied is (op == INVENTORY) and server.requests == 1


def test_a_status_that_says_retry_still_decides_when_its_body_is_hostile(serve):
    server = serve(plain(503, Content_Encoding="gzip", Retry_After="0"))
    result = send(server.settings(), INVENTORY)
    assert (result.outcome, result.attempts, result.maybe_applied) == (Outcome.FAILED, 3, False)
    assert result.error == "HTTP 503 (answer says gzip but is not gzip)"
    server = serve(plain(502, body=HTML, Content_Type="text/html"))
    result = send(server.settings(), RATES)
    assert (result.status, result.attempts) == (502, 3)  # a proxy's 502 page: the status says retry


def test_a_credentials_status_with_a_hostile_body_is_still_fatal(serve):
    server = serve(plain(401, Content_Encoding="gzip"))
    result = send(server.settings(), RATES)
    assert (result.outcome, result.fatal, result.attempts) == (Outcome.REJECTED, True, 1)
    assert result.error == "HTTP 401: answer says gzip but is not gzip"
