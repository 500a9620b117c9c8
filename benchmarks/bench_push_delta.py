"""Deltas: after changing 1% of the cells, how much does the next push send?

Pushes a year of prices for every room-rate of the sample properties to a sandbox over HTTPS,
changes 1% of the cells at random, pushes again, and reports the share of cells the second push
carried (counting every cell of the range messages the changes fall in) and the messages sent.
Target (issue 3): <= 2% of the cells. Median over seeds.

    .venv/bin/python benchmarks/bench_push_delta.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.flows.rates import (
    check_rates,  # noqa: E402
    push_rates,  # noqa: E402
)
from workbench.sandbox import run_sandbox  # noqa: E402

AS_OF = dt.date(2026, 12, 1)
ROOM_RATES = [(1000001, "101", "5001", "EUR"), (1000001, "102", "5001", "EUR"), (1000001, "101", "5003", "EUR"),
              (1000001, "101", "5004", "EUR"), (1000002, "201", "6001", "PLN"), (1000002, "202", "6001", "PLN"),
              (1000002, "201", "6002", "PLN"), (1000004, "401", "8001", "EUR"), (1000004, "402", "8001", "EUR")]


def calendar(rng: np.random.Generator) -> pd.DataFrame:
    rows = []
    for hotel, room, rate, cur in ROOM_RATES:
        base = rng.integers(80, 200)
        for day in pd.date_range("2027-01-01", "2027-12-31"):
            price = base + 25 * (day.weekday() in (4, 5)) + 30 * (day.month in (7, 8))
            rows.append([hotel, room, rate, day.date().isoformat(), f"{price:.2f}", cur])
    return pd.DataFrame(rows, columns=["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax",
                                       "CurrencyCode"])


def one(seed: int, workdir: Path) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    cal = calendar(rng)
    path = workdir / f"prices-{seed}.csv"
    cal.to_csv(path, index=False)
    with run_sandbox(workdir / f"sb-{seed}", today=AS_OF) as sb:
        journal = workdir / f"journal-{seed}.sqlite"
        t = time.perf_counter()
        first = push_rates(check_rates(path, as_of=AS_OF), sb.settings, journal=journal, progress=False)
        first_s = time.perf_counter() - t
        idx = rng.choice(len(cal), size=len(cal) // 100, replace=False)
        cal.loc[idx, "AmountAfterTax"] = (cal.loc[idx, "AmountAfterTax"].astype(float) + 5).map("{:.2f}".format)
        cal.to_csv(path, index=False)
        second = push_rates(check_rates(path, as_of=AS_OF), sb.settings, journal=journal, progress=False)
        assert first.ok and second.ok
    return {"cells": len(cal), "changed": len(idx), "sent_cells": int(second.requests["cells"].sum()),
            "sent_messages": int(second.requests["messages"].sum()), "first_messages": int(first.requests["messages"].sum()),
            "first_requests": len(first.requests), "second_requests": len(second.requests), "first_s": first_s}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        runs = [one(seed, Path(d)) for seed in range(args.seeds)]
    share = [r["sent_cells"] / r["cells"] for r in runs]
    print(f"cells per push: {runs[0]['cells']:,}; changed: {runs[0]['changed']:,} (1%)")
    print(f"first push: {statistics.median(r['first_requests'] for r in runs):.0f} requests, "
          f"{statistics.median(r['first_messages'] for r in runs):.0f} messages, "
          f"{statistics.median(r['first_s'] for r in runs):.2f} s")
    print(f"second push (median of {len(runs)} seeds): {statistics.median(r['second_requests'] for r in runs):.0f} "
          f"requests, {statistics.median(r['sent_messages'] for r in runs):.0f} messages, "
          f"{statistics.median(r['sent_cells'] for r in runs):.0f} cells = {100 * statistics.median(share):.2f}% "
          f"of the cells (max {100 * max(share):.2f}%); target <= 2%: "
          f"{'met' if max(share) <= 0.02 else 'NOT met'}")


if __name__ == "__main__":
    main()
