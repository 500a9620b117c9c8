"""Scale (issue 14): a Parquet dataset of rates to XML requests on a 2-worker LocalCluster vs the
same pipeline in one process, and the peak memory of each worker at two sizes.

The dataset (written once, cached): hotels x 3 rooms x 3 rate plans x 365 nights, sorted by hotel,
files of 200 hotels, row groups of ~200,000 rows; weekday/weekend prices that change each month.
Both sides read it by partitions of ``--size`` hotels (``workbench.scale``): the reference runs
the partitions one after the other in one process (``run_partition``, no Dask), the cluster runs
them on ``--workers`` processes with one thread each. Times include reading, checking, compressing,
building and writing every request; not starting the processes and importing the code (Great
Expectations: ~5 s of CPU per process), which both sides do before the clock starts (the cluster's
start is reported beside).

    .venv/bin/python benchmarks/bench_scale.py --cells 1000000 4000000 [--runs 1] [--size 50]

Figures: wall clock and the ratio (reference / cluster); CPU time of the reference and of the busiest
worker (their ratio is the speed-up on cores nobody else uses: on a shared machine the wall clock
depends on the other processes); the peak RSS of the reference process and of
each worker process (ru_maxrss), and the load average before each run.

Every output folder is kept until the end of the script: on ext4, creating many files within
minutes of removing many costs seconds of kernel time per thousand files (it skips recently freed
inodes while looking for one), which would be charged to whichever side runs next.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CACHE = Path(os.environ.get("WORKBENCH_BENCH_CACHE", Path(tempfile.gettempdir()) / "workbench-bench"))
AS_OF = dt.date(2026, 12, 1)
NIGHTS = 365
SERIES_PER_HOTEL = 9            # 3 rooms x 3 rate plans
HOTELS_PER_FILE = 200
ROW_GROUP = 200_000


def dataset(cells: int) -> Path:
    """The cached dataset of about ``cells`` prices (written on first use)."""
    hotels = max(1, round(cells / (SERIES_PER_HOTEL * NIGHTS)))
    root = CACHE / f"scale_{hotels}h"
    if (root / "_done").exists():
        return root
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    rng = np.random.default_rng(14)
    nights = np.datetime64(AS_OF) + np.arange(NIGHTS)
    weekend = ((nights.astype("datetime64[D]").astype(np.int64) + 3) % 7) >= 4
    month = nights.astype("datetime64[M]").astype(np.int64)
    for first in range(0, hotels, HOTELS_PER_FILE):
        hs = np.arange(first, min(hotels, first + HOTELS_PER_FILE))
        n_series = len(hs) * SERIES_PER_HOTEL
        hotel = np.repeat(2_000_000 + hs, SERIES_PER_HOTEL * NIGHTS)
        room = np.tile(np.repeat(np.arange(3) + 101, 3 * NIGHTS), len(hs))
        plan = np.tile(np.repeat(np.tile(np.arange(3) + 501, 3), NIGHTS), len(hs))
        base = rng.integers(60, 300, size=(n_series, 1)) * 100
        uplift = rng.choice([0, 1000, 2500], size=(n_series, 1))
        monthly = rng.integers(0, 4, size=(n_series, 13)) * 500
        cents = base + uplift * weekend[None, :] + monthly[:, month - month[0]]
        table = pa.table({
            "HotelCode": pa.array(hotel, pa.int64()), "InvTypeCode": pa.array(room, pa.int32()),
            "RatePlanCode": pa.array(plan, pa.int32()), "Date": pa.array(np.tile(nights, n_series), pa.date32()),
            "AmountAfterTax": pa.array(cents.ravel() / 100, pa.float64()),
            "CurrencyCode": pa.array(np.full(len(hotel), "EUR"), pa.string()),
        })
        pq.write_table(table, root / f"part-{first // HOTELS_PER_FILE:05d}.parquet", row_group_size=ROW_GROUP)
    (root / "_done").write_text(str(hotels * SERIES_PER_HOTEL * NIGHTS))
    return root


def load() -> float:
    return os.getloadavg()[0]


def reference(root: Path, out: Path, size: int) -> dict:
    """The partitions one after the other in this process (no Dask)."""
    from workbench.memory import batch_process
    from workbench.scale.engine import make_job
    from workbench.scale.parquet import parquet_files, scan_hotels
    from workbench.scale.partitions import parquet_partitions
    from workbench.scale.pipeline import peak_rss, run_partition

    batch_process()  # as `push rates` and the cluster's workers run (workbench.memory)
    start = time.perf_counter()
    parts = parquet_partitions([scan_hotels(f) for f in parquet_files(str(root))], size)
    job = make_job(None, AS_OF, None, issues=str(out / "issues"), out=str(out), timestamp=dt.datetime.now(dt.UTC))
    cpu = time.process_time()
    results = [run_partition(p, job) for p in parts]
    return {"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu, "rows": sum(r.rows for r in results),
            "requests": sum(len(r.manifest) for r in results), "peak_rss": peak_rss(), "partitions": len(parts)}


def on_cluster(root: Path, out: Path, size: int, workers: int) -> dict:
    from workbench.scale import dry_run_on
    from workbench.scale.engine import cluster

    t0 = time.perf_counter()
    with cluster(workers=workers) as client:  # the LocalCluster the CLI starts
        client.run(importlib.import_module, "workbench.scale.pipeline")  # as the reference imports it before timing
        started = time.perf_counter() - t0
        start = time.perf_counter()
        run = dry_run_on(client, [str(root)], str(out), as_of=AS_OF, size=size, progress=False)
        seconds = time.perf_counter() - start
    cpu: dict[int, float] = {}
    busy: dict[int, float] = {}
    for p in run.parts:
        cpu[p.process] = cpu.get(p.process, 0.0) + p.cpu_seconds
        busy[p.process] = busy.get(p.process, 0.0) + p.seconds
    return {"seconds": seconds, "cluster_start": started, "rows": run.rows, "requests": len(run.manifest),
            "peak_rss_max": max(p.peak_rss for p in run.parts), "partitions": len(run.parts),
            "cpu": sum(cpu.values()), "cpu_busiest_worker": max(cpu.values()),
            "busy_share": min(busy.values()) / seconds}  # the least busy worker's time in partitions / the run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", type=int, nargs="+", default=[1_000_000, 4_000_000])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--size", type=int, default=50, help="hotels per partition")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reference-only", metavar="ROOT", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.reference_only:  # the reference in a fresh process, so its peak memory is its own
        print(json.dumps(reference(Path(args.reference_only), Path(args.out), args.size)))
        return
    work = Path(tempfile.mkdtemp(prefix="workbench-scale-"))
    try:
        measure(args, work)
    finally:  # only now: see the module's docstring
        shutil.rmtree(work, ignore_errors=True)


def measure(args: argparse.Namespace, work: Path) -> None:
    for cells in args.cells:
        root = dataset(cells)
        total = int((root / "_done").read_text())
        refs, runs = [], []
        for _ in range(args.runs):
            before = load()
            out = work / f"{cells}-{len(refs)}"
            done = subprocess.run([sys.executable, __file__, "--reference-only", str(root), "--size", str(args.size),
                                   "--out", str(out / "one")],
                                  capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
            refs.append({**json.loads(done.stdout.strip().splitlines()[-1]), "load": before})
            before = load()
            runs.append({**on_cluster(root, out / "cluster", args.size, args.workers), "load": before})
        ref_s = statistics.median(r["seconds"] for r in refs)
        run_s = statistics.median(r["seconds"] for r in runs)
        ref_cpu = statistics.median(r["cpu"] for r in refs)
        busiest = statistics.median(r["cpu_busiest_worker"] for r in runs)
        print(f"{total:,} cells ({refs[0]['partitions']} partitions of {args.size} hotels, {refs[0]['requests']:,} "
              f"requests): one process {ref_s:.1f} s (peak {refs[0]['peak_rss'] / 2**20:.0f} MiB, load "
              f"{refs[0]['load']:.1f}); {args.workers} workers {run_s:.1f} s (+{runs[0]['cluster_start']:.1f} s "
              f"to start it and import the code; peak per worker {max(r['peak_rss_max'] for r in runs) / 2**20:.0f} MiB, load "
              f"{runs[0]['load']:.1f}); speed-up {ref_s / run_s:.2f}x wall; CPU: one process {ref_cpu:.1f} s, the "
              f"busiest worker {busiest:.1f} s, so {ref_cpu / busiest:.2f}x on idle cores; {total / run_s:,.0f} "
              "cells/s on the cluster")
        print(pd.DataFrame([*({"side": "one process", **r} for r in refs), *({"side": "cluster", **r} for r in runs)])
              .to_string(index=False))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
