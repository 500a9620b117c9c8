"""The plan of a push (issue 15): 1M cells against a 1M-cell accepted state, against a same-run
pandas merge reference. Target: <= 3 s, <= 1.5x the reference. Medians of interleaved runs.

The sheet: 2,700 room-rates (300 properties x 3 rooms x 3 rate plans) x 370 nights = 999,000
cells; the journal (SQLite, built once and cached) accepted all of them, 2% at another price,
plus 2,700 nights after the sheet's last (removed from the sheet). Figures:

- ``plan``: ``plan_rates`` without the validation (a checked frame with no issues): the journal's
  accepted cells read (``writers.accepted``), the cells compared, the delta compressed for the
  requests and messages, the send time, and the price-jump and outlier rules;
- ``plan_no_jumps``: the same with ``price_jumps=False``;
- ``compare``: the plan's comparison alone, both sides in memory (``diff_cells`` + ``count_messages``),
  the same work as ``ref_merge`` plus the counts per room-rate and the requests and messages;
- ``ref_deltas``: the reference: today's delta path as pandas does it, ``Journal.accepted``
  (``read_sql_query``) + ``cell_keys`` + ``DataFrame.merge`` (``writers.deltas.changed_mask``);
- ``ref_merge``: a bare in-memory ``merge`` of the two key frames (both already in memory, prices
  as text): the floor of a pandas join, with no read and no price keys to build.

    .venv/bin/python benchmarks/bench_plan.py [--runs 3]
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _rates_data import CACHE  # noqa: E402

from loaders import RATES_COLUMNS, Registry  # noqa: E402
from loaders.issues import empty_issues  # noqa: E402
from workbench.config import Settings  # noqa: E402
from workbench.flows.plan import plan_rates  # noqa: E402
from workbench.flows.rates import RatesCheck  # noqa: E402
from workbench.writers.accepted import read_accepted  # noqa: E402
from workbench.writers.deltas import cell_keys, changed_mask  # noqa: E402
from workbench.writers.journal import Journal  # noqa: E402
from workbench.writers.plan import count_messages, diff_cells  # noqa: E402

TARGET = "https://bench.test"
AS_OF = dt.date(2026, 12, 1)
NIGHTS = 370
CHANGED = 0.02
KEYS = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "guests"]


def sheet(seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    hotels = np.repeat(np.arange(2_000_001, 2_000_301), 9)
    rooms = np.tile(np.repeat(["101", "102", "103"], 3), 300)
    rates = np.tile(["5001", "5002", "5003"], 900)
    n_rr = len(hotels)
    nights = np.datetime64("2026-12-01") + np.arange(NIGHTS)
    base = rng.integers(8_000, 30_000, size=n_rr)
    weekend = np.isin((nights.astype(np.int64) + 3) % 7, (4, 5)) * 2_500
    minor = (base[:, None] + weekend[None, :]).ravel()
    n = n_rr * NIGHTS
    f = pd.DataFrame({
        "hotel_code": np.repeat(hotels, NIGHTS), "inv_type_code": np.repeat(rooms, NIGHTS),
        "rate_plan_code": np.repeat(rates, NIGHTS), "date": np.tile(nights, n_rr).astype("datetime64[ns]"),
        "number_of_guests": pd.array([None] * n, dtype="Int64"), "amount": minor / 100, "amount_minor": minor,
        "amount_scale": 2, "amount_type": "AfterTax", "decimal_places": pd.array([None] * n, dtype="Int64"),
        "currency_code": "EUR", "source": "bench.xlsx", "sheet": "Rates", "row": np.arange(2, n + 2),
        "amount_column": "AmountAfterTax"})
    return f.astype(RATES_COLUMNS)


def journal(frame: pd.DataFrame) -> Path:
    """The accepted state: every cell of ``frame``, 2% at another price, plus 2,700 later nights."""
    path = CACHE / f"plan_journal_{len(frame)}.sqlite"
    if path.exists():
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(11)
    keys = cell_keys(frame)
    moved = rng.choice(len(keys), size=int(len(keys) * CHANGED), replace=False)
    keys.loc[moved, "price"] = "AfterTax:12345e-2::EUR"
    later = keys.drop_duplicates(["hotel_code", "inv_type_code", "rate_plan_code"]).assign(date="2027-12-31")
    rows = pd.concat([keys, later], ignore_index=True)[[*KEYS, "price"]]
    tmp = path.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    with Journal(tmp) as j, j._tx() as db:
        db.executemany("INSERT INTO accepted(target, hotel_code, inv_type_code, rate_plan_code, date, guests, price) "
                       "VALUES (?,?,?,?,?,?,?)", ((TARGET, *t) for t in rows.itertuples(index=False, name=None)))
    tmp.replace(path)
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    frame = sheet()
    path = journal(frame)
    check = RatesCheck(frame, empty_issues(), Registry(), AS_OF)
    settings = Settings(base_url=TARGET)
    accepted_cells = read_accepted(path, TARGET)
    accepted_mem = accepted_cells.astype({"inv_type_code": object, "rate_plan_code": object, "price": object}).assign(
        date=lambda a: a["date"].dt.strftime("%Y-%m-%d"))
    sheet_keys = cell_keys(frame)[[*KEYS, "price"]]

    def plan() -> object:
        return plan_rates(check, settings, journal=path)

    def plan_no_jumps() -> object:
        return plan_rates(check, settings, journal=path, price_jumps=False)

    def compare() -> object:
        diff = diff_cells(frame, accepted_cells, since=AS_OF - dt.timedelta(days=1))
        return count_messages(frame[diff.send_mask])

    def ref_deltas() -> object:
        with Journal(path) as j:
            return changed_mask(frame, j, TARGET)

    def ref_merge() -> object:
        return sheet_keys.merge(accepted_mem, on=KEYS, how="outer", suffixes=("", "_accepted"), indicator=True)

    jobs = {"plan": plan, "plan_no_jumps": plan_no_jumps, "compare": compare, "ref_deltas": ref_deltas,
            "ref_merge": ref_merge}
    times: dict[str, list[float]] = {k: [] for k in jobs}
    cpu: dict[str, list[float]] = {k: [] for k in jobs}
    result = plan()
    for _ in range(args.runs):
        for name, job in jobs.items():  # interleaved: a slow moment of the machine hits every figure alike
            t, c = time.perf_counter(), time.process_time()
            job()
            times[name].append(time.perf_counter() - t)
            cpu[name].append(time.process_time() - c)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"sheet {len(frame):,} cells; accepted {len(accepted_mem):,} cells; {result.summary()}")  # type: ignore
    for name, t in med.items():
        print(f"{name:>14}: median {t:6.2f} s wall, {statistics.median(cpu[name]):6.2f} s CPU  "
              f"(runs: {', '.join(f'{x:.2f}' for x in times[name])})")
    print(f"plan / ref_deltas = {med['plan'] / med['ref_deltas']:.2f}x; plan / ref_merge = "
          f"{med['plan'] / med['ref_merge']:.2f}x; plan_no_jumps / ref_merge = "
          f"{med['plan_no_jumps'] / med['ref_merge']:.2f}x; compare / ref_merge = {med['compare'] / med['ref_merge']:.2f}x")


if __name__ == "__main__":
    main()
