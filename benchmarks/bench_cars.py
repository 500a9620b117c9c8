"""Car search throughput: results/s through pagination, and the client's cost per page against a raw
httpx loop measured in the same run, against the sandbox over HTTPS on loopback.

    .venv/bin/python benchmarks/bench_cars.py [--results 2000] [--page-size 100] [--runs 7]

The sandbox runs in its own process (so its CPU does not compete for this process's GIL) and keeps
each search's inventory in memory after the first call, so the server side is the same for every
variant. Variants, interleaved run by run, medians reported:

- raw httpx:      POST, ``json.loads``, follow ``metadata.next_page`` — the floor any client pays.
- client.collect: ``CarSearchClient`` — retries wrapper, Decimal-exact JSON, dedupe, loop guard.
- session.search: ``CarSearch.search`` — parameter checks, cached languages/static data, typed
  frame with names joined (what ``search_cars`` and the CLI do).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import socket
import ssl
import statistics
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from workbench.cars import CarSearch, CarSearchClient, SearchParams
from workbench.config import Secret, Settings
from workbench.sandbox.cars import DemandSandboxConfig, create_demand_app
from workbench.serving import bind, ensure_test_ca, serve_forever

KEY, AID = "bench-key-0123456789abcdefghij", "7777777"


def _serve(state: str, results: int, page_size: int, nodelay: bool, port_out: Any) -> None:
    tls = ensure_test_ca(state)
    config = DemandSandboxConfig(api_key=KEY, affiliate_id=AID, page_size=page_size, static_page_size=100,
                                 results_range=(results, results))
    sock = bind(0)
    if nodelay:  # without it every HTTPS answer stalls ~40 ms on a delayed ACK (see RESULTS.md)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    port_out.put(sock.getsockname()[1])
    serve_forever(create_demand_app(config), sock, tls)


def raw_loop(url: str, ctx: ssl.SSLContext, body: dict[str, Any]) -> tuple[int, int]:
    headers = {"Authorization": f"Bearer {KEY}", "X-Affiliate-Id": AID}
    records, pages = [], 0
    with httpx.Client(verify=ctx) as http:
        request: dict[str, Any] | None = body
        while request is not None:
            answer = json.loads(http.post(url, json=request, headers=headers).content)
            pages += 1
            records += answer["data"]
            token = answer["metadata"].get("next_page")
            request = {"page": token} if token else None
    return len(records), pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=int, default=2000)
    parser.add_argument("--page-size", type=int, default=100)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--serving-default", action="store_true",
                        help="serve as workbench.serving.bind() leaves the socket (no TCP_NODELAY)")
    args = parser.parse_args()

    state = tempfile.mkdtemp(prefix="bench-cars-")
    tls = ensure_test_ca(state)
    ports: Any = mp.get_context("spawn").Queue()
    server = mp.get_context("spawn").Process(target=_serve, args=(state, args.results, args.page_size, not args.serving_default, ports),
                                             daemon=True)
    server.start()
    try:
        port = ports.get(timeout=60)
        base = f"https://127.0.0.1:{port}"
        settings = Settings(demand_base_url=base, affiliate_id=AID, api_key=Secret(KEY),
                            demand_ca_bundle=str(tls.ca_bundle))
        ctx = ssl.create_default_context(cafile=str(tls.ca_bundle))
        pickup = (datetime.now() + timedelta(days=30)).replace(hour=10, minute=0, second=0, microsecond=0)
        params = SearchParams(country="nl", languages=("en-gb",), pickup=pickup, dropoff=pickup + timedelta(days=7),
                              pickup_location="AMS")
        body = params.to_body()
        _wait_until_up(base, ctx)
        cache = Path(state) / "static.sqlite"
        times: dict[str, list[float]] = {"raw httpx loop": [], "client.collect": [], "session.search": []}
        counts: dict[str, tuple[int, int]] = {}
        for run in range(args.runs + 1):  # run 0 warms the server's inventory and the static cache
            t = time.perf_counter()
            counts["raw httpx loop"] = raw_loop(f"{base}/3.1/search", ctx, body)
            raw = time.perf_counter() - t
            with CarSearchClient.from_settings(settings) as client:
                t = time.perf_counter()
                paged = client.collect("search", body)
                collected = time.perf_counter() - t
            counts["client.collect"] = (len(paged.records), len(paged.pages))
            with CarSearch(settings, cache_path=cache) as session:
                t = time.perf_counter()
                result = session.search(params)
                searched = time.perf_counter() - t
            counts["session.search"] = (len(result.frame), result.pages)
            if run:
                times["raw httpx loop"].append(raw)
                times["client.collect"].append(collected)
                times["session.search"].append(searched)
    finally:
        server.terminate()
        server.join(timeout=10)

    ref = statistics.median(times["raw httpx loop"])
    print(f"{args.results} results, {args.page_size} per page, median of {args.runs} runs, "
          f"TCP_NODELAY {'off' if args.serving_default else 'on'}\n")
    print("| variant | results | pages | median s | results/s | ms per page | vs raw | overhead per page |")
    print("|---|---|---|---|---|---|---|---|")
    for name, samples in times.items():
        med = statistics.median(samples)
        n, pages = counts[name]
        over = (med - ref) / pages * 1000
        print(f"| {name} | {n} | {pages} | {med:.3f} | {n / med:,.0f} | {med / pages * 1000:.1f} | "
              f"{med / ref:.2f}x | {over:+.1f} ms |")


def _wait_until_up(base: str, ctx: ssl.SSLContext) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.post(f"{base}/common/languages", verify=ctx, json={},
                       headers={"Authorization": f"Bearer {KEY}", "X-Affiliate-Id": AID})
            return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


if __name__ == "__main__":
    main()
