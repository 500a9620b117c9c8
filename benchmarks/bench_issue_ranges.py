"""Issues as ranges: the HTML validation report of 1,000,000 issues, its time and its size (issue 15).

A canonical rates frame of 400 properties x 10 room-rates x 365 nights (1.46M prices, seeded) and
1,000,000 issues on its cells, as a month of bad data makes them: a rule on every night of every
other month of a room-rate (runs of ~30 nights), another on the Fridays and Saturdays of the other
months (a weekly pattern), and a scatter of single nights (12% of the rest). Then, several times:

- measured: ``write_report(issues, "v.html", rates=frame)`` (locate each issue's room-rate and
  night, summarise as ranges, render the page), with the time of each step;
- reference, same run: ``write_report(issues, "v.csv")``, the CSV report of the same issues (the
  full list the page points at), and the page's size against the CSV's.

Target: the page under ~5 MB for 1M issues. Median of ``--runs`` runs (CPU and wall).

    .venv/bin/python benchmarks/bench_issue_ranges.py [--runs 3] [--issues 1000000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from expectations.located import locate_issues  # noqa: E402
from loaders import RATES_COLUMNS  # noqa: E402
from loaders.issues import ISSUE_DTYPES  # noqa: E402
from workbench.reports import ReportContext, write_report  # noqa: E402
from workbench.reports.issues_html import render_issues_html  # noqa: E402
from workbench.reports.ranges import issue_ranges  # noqa: E402

PROPERTIES, ROOM_RATES, NIGHTS = 400, 10, 365
FIRST = np.datetime64("2027-01-01", "D")
T = TypeVar("T")


def rates_frame() -> pd.DataFrame:
    n = PROPERTIES * ROOM_RATES * NIGHTS
    i = np.arange(n)
    series, night = i // NIGHTS, i % NIGHTS
    hotel = 1_000_000 + series // ROOM_RATES
    room = 101 + (series % ROOM_RATES) // 2
    rate = 5001 + series % 2
    frame = pd.DataFrame({
        "hotel_code": hotel, "inv_type_code": room.astype(str), "rate_plan_code": rate.astype(str),
        "date": (FIRST + night).astype("datetime64[ns]"), "number_of_guests": pd.NA, "amount": 100.0,
        "amount_minor": 100, "amount_scale": 0, "amount_type": "AfterTax", "decimal_places": pd.NA,
        "currency_code": "EUR", "source": "rates-" + (hotel // 100).astype(str) + ".xlsx",
        "sheet": hotel.astype(str), "row": 2 + (series % ROOM_RATES) * NIGHTS + night,
        "amount_column": "AmountAfterTax",
    })
    return frame.astype(RATES_COLUMNS)


def issues_on(frame: pd.DataFrame, n_issues: int) -> pd.DataFrame:
    rng = np.random.default_rng(15)
    night = (frame["date"].to_numpy("datetime64[D]") - FIRST).astype(np.int64)
    month = night // 30
    weekday = (frame["date"].dt.dayofweek).to_numpy()
    runs = month % 2 == 0
    weekends = (month % 2 == 1) & np.isin(weekday, (4, 5))
    scatter = ~runs & ~weekends & (rng.random(len(frame)) < 0.12)
    parts = []
    for mask, rule, severity, text in (
            (runs, "price_jump", "warning", "{v} EUR is 60% above the last accepted price"),
            (weekends, "price_cap", "error", "{v} EUR is above the platform's cap of 50,000 EUR a night"),
            (scatter, "duplicate_key", "warning", "not sent: repeats row {v}")):
        sub = frame[mask]
        value = (100 + np.arange(len(sub)) % 900).astype(str)
        parts.append(pd.DataFrame({"source": sub["source"].to_numpy(), "sheet": sub["sheet"].to_numpy(),
                                   "row": sub["row"].to_numpy(), "column": "AmountAfterTax", "value": value,
                                   "rule": rule, "severity": severity,
                                   "message": pd.Series(value).map(lambda v, t=text: t.format(v=v)).to_numpy()}))
    issues = pd.concat(parts, ignore_index=True).astype(ISSUE_DTYPES)
    return issues.sort_values(["source", "sheet", "row"], kind="stable").head(n_issues).reset_index(drop=True)


def timed(fn: Callable[[], T]) -> tuple[T, float, float]:
    """``fn()``, its wall-clock and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--issues", type=int, default=1_000_000)
    args = parser.parse_args()
    frame = rates_frame()
    issues = issues_on(frame, args.issues)
    print(f"{len(frame):,} prices, {len(issues):,} issues "
          f"({', '.join(f'{k} {v:,}' for k, v in issues['rule'].value_counts().items())})")
    ctx = ReportContext(title="Rates validation", rows_checked=len(frame))
    figures: dict[str, list[tuple[float, float]]] = {k: [] for k in ("html", "locate", "ranges", "render", "csv")}
    with tempfile.TemporaryDirectory() as tmp:
        html_path, csv_path = Path(tmp) / "v.html", Path(tmp) / "v.csv"
        for _ in range(args.runs):
            _, wall, cpu = timed(lambda: write_report(issues, html_path, ctx, rates=frame))
            figures["html"].append((wall, cpu))
            located, wall, cpu = timed(lambda: locate_issues(issues, frame))
            figures["locate"].append((wall, cpu))
            ranges, wall, cpu = timed(lambda: issue_ranges(issues, located))  # noqa: B023
            figures["ranges"].append((wall, cpu))
            _, wall, cpu = timed(lambda: render_issues_html(issues, ranges, ctx))  # noqa: B023
            figures["render"].append((wall, cpu))
            _, wall, cpu = timed(lambda: write_report(issues, csv_path, ctx))
            figures["csv"].append((wall, cpu))
        html_size, csv_size = html_path.stat().st_size, csv_path.stat().st_size
    print(f"{len(ranges.lines):,} range lines for {len(issues):,} issues "
          f"({len(issues) / max(1, len(ranges.lines)):.1f} issues a line)")
    for name, runs in figures.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(f"{name:7} wall median {statistics.median(walls):6.2f} s (runs {min(walls):.2f}-{max(walls):.2f}), "
              f"CPU median {statistics.median(cpus):6.2f} s")
    ratio = statistics.median(c for _, c in figures["html"]) / statistics.median(c for _, c in figures["csv"])
    print(f"HTML report {html_size / 1e6:.2f} MB (target < 5 MB); CSV report {csv_size / 1e6:.1f} MB "
          f"({html_size / csv_size:.3f}x its size); HTML CPU / CSV CPU = {ratio:.2f}x")


if __name__ == "__main__":
    main()
