"""Issue 12 benchmark (sandbox side): what the platform stand-in costs per content call.

    .venv/bin/python benchmarks/bench_sandbox_content.py [--runs 3] [--calls 500]

Figures, medians of ``--runs`` runs, interleaved run by run, in one process (in-process ASGI, the
whole pipeline: auth, limits, parse, rules, store, answer):
- ``content``: ``--calls`` ``OTA_HotelDescriptiveContentNotif`` New calls, each a full property
  (contacts, coordinates, policies, fees, taxes, services, restaurant, phrases, tax info) with its own
  custom ID; reference in the same run: as many one-night ``OTA_HotelRateAmountNotif`` calls.
- ``rules``: :func:`check_content` alone on the parsed bodies; reference: parsing them with lxml.
- the one-time build of the country outlines (first coordinates check of a process).
The request bodies are the hand-written ones of tests/workbench/sandbox/content_bodies.py.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT)]

TODAY = dt.date(2026, 12, 1)
LIMITS = {"all": 10**9, "OTA_HotelDescriptiveContentNotif": 10**9}


def bodies() -> object:
    spec = importlib.util.spec_from_file_location("content_bodies",
                                                  ROOT / "tests" / "workbench" / "sandbox" / "content_bodies.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()

    from lxml import etree

    from workbench.sandbox import SandboxConfig
    from workbench.sandbox.platform import country_facts
    from workbench.sandbox.platform.city_tax import CITY_TAX_CATEGORIES
    from workbench.sandbox.platform.content_rules import check_content, path_all
    from workbench.sandbox.testing import InProcess, message, rate_request

    b = bodies()
    content = [b.edit(b.NL, ('ID="NL-1"', f'ID="NL-{i}"')).encode() for i in range(args.calls)]
    rates = [rate_request(1000001, [message("2027-01-01", "2027-01-01", "101", "5001",
                                            {"AmountAfterTax": str(100 + i % 50), "CurrencyCode": "EUR"})])
             for i in range(args.calls)]

    outline_build, _ = timed(lambda: country_facts.countries_at(52.37, 4.89))
    hdcs = [path_all(etree.fromstring(c), "HotelDescriptiveContents/HotelDescriptiveContent")[0] for c in content]
    figures: dict[str, list[tuple[float, float]]] = {k: [] for k in ("content", "rates", "rules", "parse")}
    for _ in range(args.runs):
        box = InProcess(SandboxConfig(today=TODAY, password="pw", limits=LIMITS))
        try:
            def send_content(box: InProcess = box) -> None:
                for c in content:
                    assert b"<Success/>" in box.content(c).content

            def send_rates(box: InProcess = box) -> None:
                for r in rates:
                    assert b"<Success/>" in box.push(r).content
            figures["content"].append(timed(send_content))
            figures["rates"].append(timed(send_rates))
        finally:
            box.close()
        figures["rules"].append(timed(lambda: [check_content(h, notif_type="New", today=TODAY, rtb_enabled=False,
                                                             tax_categories=CITY_TAX_CATEGORIES) for h in hdcs]))
        figures["parse"].append(timed(lambda: [etree.fromstring(c) for c in content]))

    def med(key: str, i: int) -> float:
        return statistics.median(f[i] for f in figures[key])

    n = args.calls
    print(f"{n} calls, {args.runs} runs; country outlines built once in {outline_build:.2f} s")
    for key, ref in (("content", "rates"), ("rules", "parse")):
        print(f"{key:8} {med(key, 0):7.2f} s wall {med(key, 1):7.2f} s CPU ({med(key, 0) / n * 1000:6.2f} ms/call)   "
              f"reference {ref}: {med(ref, 0):6.2f} s wall {med(ref, 1):6.2f} s CPU   "
              f"ratio {med(key, 0) / med(ref, 0):5.1f}x wall {med(key, 1) / med(ref, 1):5.1f}x CPU")


if __name__ == "__main__":
    main()
