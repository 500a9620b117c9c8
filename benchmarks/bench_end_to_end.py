"""Issue 14, end to end in one process: a 1,000,000-row XLSX to XML files
(``workbench push rates FILE --dry-run DIR``) against fastexcel reading the same file raw, in the
same run (target: <= 2.5x).

    cd /work/main && .venv/bin/python benchmarks/bench_end_to_end.py [--rows 1000000] [--runs 3] [--profile]

Each run is a fresh process: the command as a person types it (a new output folder each time),
then a process that only reads the sheet with fastexcel (``load_sheet(...).to_arrow()``, timed
inside the process: the raw read, no interpreter start). Wall clock and CPU time (the process's
own, threads included) are both given: on a shared machine the CPU time is what an idle core would
take. A third process times compression alone on the same rows (``workbench.writers.compress``),
for reference. ``--profile`` writes a pyinstrument profile of one run.

The output folders are removed only at the end: on ext4, creating thousands of files within minutes
of removing thousands costs seconds of kernel time (it skips recently freed inodes while looking for
one), which would be charged to the next run. Run it a few minutes after anything removed many files.

The workbook is generated once with ``benchmarks/_rates_data.py`` under ``$TMPDIR/workbench-bench``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

AS_OF = "2026-03-02"
RAW_READ = """
import json, sys, time
import fastexcel
t0, c0 = time.perf_counter(), time.process_time()
sheet = fastexcel.read_excel(sys.argv[1]).load_sheet(0)
table = sheet.to_arrow()
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "rows": table.num_rows}))
"""
COMPRESS_ONLY = """
import json, sys, time
from loaders import read_rates
from workbench.writers.compress import compress
frame, _ = read_rates(sys.argv[1])
t0, c0 = time.perf_counter(), time.process_time()
compressed = compress(frame)
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                  "messages": len(compressed.messages)}))
"""


def _python() -> str:
    return sys.executable


CODE = [HERE.parent]  # the checkout whose code runs (``--code``)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(CODE[0]), os.environ.get("PYTHONPATH", "")])}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _children_sys() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime


def end_to_end(xlsx: Path, out: Path, profile: Path | None = None) -> dict[str, float]:
    """One ``push rates --dry-run`` in a fresh process: wall and CPU seconds."""
    cmd = [_python(), "-m", "workbench.cli", "push", "rates", str(xlsx), "--dry-run", str(out), "--as-of", AS_OF]
    out.parent.mkdir(parents=True, exist_ok=True)
    if profile is not None:
        cmd = [_python(), "-m", "pyinstrument", "-r", "text", "-o", str(profile), *cmd[1:]]
    cpu0, sys0, t0 = _children_cpu(), _children_sys(), time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=out.parent)
    wall, cpu, kernel = time.perf_counter() - t0, _children_cpu() - cpu0, _children_sys() - sys0
    if done.returncode != 0:
        raise SystemExit(f"push rates --dry-run failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    files = sum(1 for _ in out.glob("*.xml"))
    return {"wall": wall, "cpu": cpu, "sys": kernel, "requests": files}


def in_process(script: str, xlsx: Path) -> dict[str, float]:
    done = subprocess.run([_python(), "-c", script, str(xlsx)], capture_output=True, text=True, env=_env(),
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def load_average() -> str:
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="also write a pyinstrument profile of one run")
    parser.add_argument("--out-root", type=Path, default=None,
                        help="where the output folders go (default: the temporary folder; e.g. /dev/shm to leave the "
                             "disk's file system out)")
    parser.add_argument("--code", type=Path, default=HERE.parent,
                        help="the checkout whose code runs (e.g. a worktree of the commit before), default: this one")
    args = parser.parse_args()
    CODE[0] = args.code.resolve()
    from _rates_data import cached_rates_xlsx

    xlsx, meta = cached_rates_xlsx(args.rows)
    print(f"{xlsx} ({xlsx.stat().st_size / 2**20:.1f} MiB, {meta['rows']:,} rows); code {CODE[0]}; "
          f"load average {load_average()}")
    work = Path(tempfile.mkdtemp(prefix="workbench-e2e-", dir=args.out_root))
    print(f"output folders under {work}")
    runs: list[dict[str, float]] = []
    raws: list[dict[str, float]] = []
    try:
        for i in range(args.runs):
            raws.append(in_process(RAW_READ, xlsx))
            runs.append(end_to_end(xlsx, work / f"out{i}"))  # kept until the end: see the docstring
            print(f"run {i + 1}: end to end {runs[-1]['wall']:.2f} s wall / {runs[-1]['cpu']:.2f} s CPU "
                  f"(kernel {runs[-1]['sys']:.2f} s) "
                  f"({runs[-1]['requests']:,} requests); fastexcel raw {raws[-1]['wall']:.2f} s wall / "
                  f"{raws[-1]['cpu']:.2f} s CPU; load average {load_average()}", flush=True)
        squeeze = [in_process(COMPRESS_ONLY, xlsx) for _ in range(args.runs)]
        if args.profile:
            profile = Path(tempfile.gettempdir()) / "workbench-e2e-profile.txt"
            end_to_end(xlsx, work / "profiled", profile)
            print(f"profile: {profile}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    med = {k: statistics.median(r[k] for r in runs) for k in ("wall", "cpu")}
    raw = {k: statistics.median(r[k] for r in raws) for k in ("wall", "cpu")}
    comp = {k: statistics.median(r[k] for r in squeeze) for k in ("wall", "cpu")}
    print()
    print(f"end to end (median of {args.runs}): {med['wall']:.2f} s wall, {med['cpu']:.2f} s CPU")
    print(f"fastexcel raw read (median, same run): {raw['wall']:.2f} s wall, {raw['cpu']:.2f} s CPU")
    print(f"ratio: {med['wall'] / raw['wall']:.2f}x wall, {med['cpu'] / raw['cpu']:.2f}x CPU (target <= 2.5x)")
    print(f"compression alone (median): {comp['wall']:.2f} s wall, {comp['cpu']:.2f} s CPU "
          f"({squeeze[0]['messages']:,} messages)")
    print("runs (s wall):", [round(r["wall"], 2) for r in runs], "raw:", [round(r["wall"], 2) for r in raws],
          "compress:", [round(r["wall"], 2) for r in squeeze])
    print("runs (s CPU):", [round(r["cpu"], 2) for r in runs], "raw:", [round(r["cpu"], 2) for r in raws],
          "compress:", [round(r["cpu"], 2) for r in squeeze])


if __name__ == "__main__":
    main()
