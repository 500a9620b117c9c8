"""Transport benchmarks against the sandbox served over HTTPS by a separate process.

1. Sustained throughput under a scaled-down limit: 300 rate pushes at 75 per 6 s with 50 ms
   injected latency. Measured at the platform (arrival times in its request log): under a
   sliding window, call k may arrive once call k-75 is one window old, so the share of the
   limit used is ``window / mean(arrival[k] - arrival[k-75])``; plus the number of 429s
   (targets: >= 95% and zero) and the wall-clock time.
2. Client overhead per request: PlatformClient.send_many vs a plain httpx.AsyncClient loop
   (same body, headers, auth, concurrency) against the same server, limits out of the way.
3. Reading an answer: httpx's ``post()`` (reads ``.content``) vs what the client does since issue 22
   (``stream()`` + ``read_answer`` with the 64 MiB cap, inside ``asyncio.timeout``), both plain httpx
   loops against the same server: what streaming costs a small answer; and the same two paths over
   an in-process transport (no TLS, no server), where only the client's own work is left.

Run: ``.venv/bin/python benchmarks/bench_transport.py [--runs 3] [--quick]``
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import datetime as dt
import io
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

from workbench.config import Settings
from workbench.sandbox.testing import message, rate_request
from workbench.transport import PlatformClient, ssl_context
from workbench.transport.answer import read_answer

TODAY = "2026-12-01"


@contextmanager
def sandbox_process(*args: str):
    """``workbench sandbox serve`` in its own process; yields its client Settings."""
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-") as d:
        proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "sandbox", "serve", "--port", "0",
                                 "--state-dir", d, "--today", TODAY, *args],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            conn = Path(d) / "connection.env"
            deadline = time.monotonic() + 60
            while not conn.exists():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"sandbox did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
                time.sleep(0.05)
            time.sleep(0.3)
            yield Settings.from_file(conn)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=30)


def bodies(n: int) -> list[bytes]:
    start = dt.date(2027, 1, 1)
    return [rate_request(1000001, [message((start + dt.timedelta(days=i % 1500)).isoformat(),
                                           (start + dt.timedelta(days=i % 1500)).isoformat(), "101", "5001",
                                           {"AmountAfterTax": str(100 + i % 50), "CurrencyCode": "EUR"})])
            for i in range(n)]


def request_log(settings: Settings) -> list[dict[str, str]]:
    text = httpx.get(settings.base_url + "/_sandbox/requests.csv", verify=ssl_context(settings.ca_bundle)).text
    return list(csv.DictReader(io.StringIO(text)))


def throughput_run(n: int, limit: int, window: float, latency_ms: int) -> dict[str, float]:
    with sandbox_process("--limit-window", str(window), "--limits", f"OTA_HotelRateAmountNotif={limit}",
                         "--faults", f"latency={latency_ms}ms") as settings:
        items = [("OTA_HotelRateAmountNotif", b, i) for i, b in enumerate(bodies(n))]

        async def main():
            async with PlatformClient(settings) as client:
                t0 = time.perf_counter()
                results = await client.send_many(items)
                return results, time.perf_counter() - t0
        results, elapsed = asyncio.run(main())
        log = [r for r in request_log(settings) if r["endpoint"] == "OTA_HotelRateAmountNotif"]
    arrivals = sorted(dt.datetime.fromisoformat(r["time"]).timestamp() for r in log)
    # a sliding window lets call k in once call k-limit has left the window: the best possible gap
    # between them is exactly one window; the mean actual gap says how fully the quota is used
    reuse = statistics.mean(arrivals[k] - arrivals[k - limit] for k in range(limit, len(arrivals)))
    ideal_wall = (math.ceil(n / limit) - 1) * window
    return {"ok": sum(r.ok for r in results), "n429": sum(r["status"] == "429" for r in log),
            "share": window / reuse, "elapsed": elapsed, "calls": len(log), "ideal": ideal_wall}


async def _raw(settings: Settings, payloads: list[bytes], concurrency: int, streamed: bool = False
               ) -> tuple[float, float]:
    headers = {"Content-Type": "application/xml", "Accept-Version": "1.1"}
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(verify=ssl_context(settings.ca_bundle), limits=limits,
                                 auth=(settings.username, settings.password.reveal())) as client:
        url = settings.base_url + "/hotels/ota/OTA_HotelRateAmountNotif"
        queue = iter(payloads)

        async def worker():
            for body in queue:
                if streamed:
                    async with asyncio.timeout(120), client.stream("POST", url, content=body, headers=headers) as r:
                        answer = await read_answer(r, 64 << 20)
                else:
                    r = await client.post(url, content=body, headers=headers)
                    answer = r.content
                assert r.status_code == 200 and b"<Success/>" in answer

        t0, c0 = time.perf_counter(), time.process_time()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - t0, time.process_time() - c0


async def _client(settings: Settings, payloads: list[bytes], concurrency: int) -> tuple[float, float]:
    async with PlatformClient(settings, max_in_flight=concurrency) as client:
        t0, c0 = time.perf_counter(), time.process_time()
        results = await client.send_many([("OTA_HotelRateAmountNotif", b) for b in payloads])
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert all(r.ok and r.attempts == 1 for r in results)
    return elapsed, cpu


def overhead(n: int, concurrency: int, runs: int) -> dict[str, float]:
    big = "1000000"
    with sandbox_process("--limits", f"OTA_HotelRateAmountNotif={big},all={big}") as settings:
        payloads = bodies(n)
        asyncio.run(_raw(settings, payloads[:100], concurrency))  # warm up both paths
        asyncio.run(_client(settings, payloads[:100], concurrency))
        raw, ours = [], []
        for _ in range(runs):
            raw.append(asyncio.run(_raw(settings, payloads, concurrency)))
            ours.append(asyncio.run(_client(settings, payloads, concurrency)))
    r, o = statistics.median(x[0] for x in raw), statistics.median(x[0] for x in ours)
    rc, oc = statistics.median(x[1] for x in raw), statistics.median(x[1] for x in ours)
    return {"raw_ms": r / n * 1000, "client_ms": o / n * 1000, "overhead_ms": (o - r) / n * 1000, "ratio": o / r,
            "raw_cpu": rc / n * 1000, "client_cpu": oc / n * 1000, "cpu_ratio": oc / rc}


def reading(n: int, concurrency: int, runs: int) -> dict[str, float]:
    big = "1000000"
    with sandbox_process("--limits", f"OTA_HotelRateAmountNotif={big},all={big}") as settings:
        payloads = bodies(n)
        for streamed in (False, True):  # warm up both paths
            asyncio.run(_raw(settings, payloads[:100], concurrency, streamed))
        plain, streamed = [], []
        for _ in range(runs):
            plain.append(asyncio.run(_raw(settings, payloads, concurrency)))
            streamed.append(asyncio.run(_raw(settings, payloads, concurrency, streamed=True)))
    p, s = statistics.median(x[0] for x in plain), statistics.median(x[0] for x in streamed)
    pc, sc = statistics.median(x[1] for x in plain), statistics.median(x[1] for x in streamed)
    return {"plain_ms": p / n * 1000, "streamed_ms": s / n * 1000, "ratio": s / p,
            "plain_cpu": pc / n * 1000, "streamed_cpu": sc / n * 1000, "cpu_ratio": sc / pc}


class _OneAnswer(httpx.AsyncBaseTransport):
    """A success answer from memory, streamed as a network answer is (one chunk)."""

    body = rate_request(1000001, [])  # any small body; only its size matters here

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "application/xml"},
                              stream=httpx.ByteStream(self.body))


def reading_in_process(n: int, runs: int) -> dict[str, float]:
    """CPU microseconds per call of ``post()`` and of the streamed read, best of ``runs``."""
    async def loop(streamed: bool) -> float:
        async with httpx.AsyncClient(transport=_OneAnswer()) as client:
            c0 = time.process_time()
            for _ in range(n):
                if streamed:
                    async with asyncio.timeout(120), client.stream("POST", "https://x/y", content=b"<x/>") as r:
                        body = await read_answer(r, 64 << 20)
                else:
                    body = (await client.post("https://x/y", content=b"<x/>")).content
                assert body == _OneAnswer.body
                await asyncio.sleep(0)  # let the loop run once, as a real answer does (it drops cancelled timers)
            return (time.process_time() - c0) / n * 1e6
    plain = [asyncio.run(loop(False)) for _ in range(runs)]
    streamed = [asyncio.run(loop(True)) for _ in range(runs)]
    return {"plain_us": min(plain), "streamed_us": min(streamed)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="smaller runs (smoke test)")
    args = parser.parse_args()
    n, limit, window = (60, 15, 2.0) if args.quick else (300, 75, 6.0)
    runs = [throughput_run(n, limit, window, 50) for _ in range(args.runs)]
    share = statistics.median(r["share"] for r in runs)
    print(f"throughput: {n} requests at {limit} per {window:g} s, 50 ms latency, {args.runs} runs")
    for r in runs:
        print(f"  ok {r['ok']:.0f}/{n}, calls {r['calls']:.0f}, 429s {r['n429']:.0f}, sustained "
              f"{r['share']:.1%} of the limit, wall {r['elapsed']:.1f} s (at best {r['ideal']:.0f} s + the "
              "last window's calls)")
    print(f"  median sustained share of the limit: {share:.1%}; 429s in all runs: {sum(r['n429'] for r in runs):.0f}")
    ov = overhead(300 if args.quick else 2000, 8, max(3, args.runs))
    print(f"client overhead (8 in flight, median of {max(3, args.runs)}): raw httpx {ov['raw_ms']:.2f} ms/request, "
          f"PlatformClient {ov['client_ms']:.2f} ms/request, overhead {ov['overhead_ms']:+.3f} ms/request "
          f"(ratio {ov['ratio']:.2f})")
    print(f"client CPU per request: raw httpx {ov['raw_cpu']:.2f} ms, PlatformClient {ov['client_cpu']:.2f} ms "
          f"(ratio {ov['cpu_ratio']:.2f})")
    rd = reading(300 if args.quick else 2000, 8, max(3, args.runs))
    print(f"reading answers (8 in flight, median of {max(3, args.runs)}): post() {rd['plain_ms']:.2f} ms/request, "
          f"stream()+read_answer+deadline {rd['streamed_ms']:.2f} ms/request (ratio {rd['ratio']:.2f}); CPU "
          f"{rd['plain_cpu']:.3f} vs {rd['streamed_cpu']:.3f} ms/request (ratio {rd['cpu_ratio']:.2f})")
    ip = reading_in_process(5000 if args.quick else 20000, 5)
    print(f"reading in process (no TLS, no server; best of 5): post() {ip['plain_us']:.1f} us/call, "
          f"stream()+read_answer+deadline {ip['streamed_us']:.1f} us/call ({ip['streamed_us'] - ip['plain_us']:+.1f} us)")
    print(f"cpu count: {os.cpu_count()}")


if __name__ == "__main__":
    main()
