"""Issue 14, the reading half: ``loaders.read_rates`` on the 1,000,000-row long-layout XLSX against
fastexcel reading the same file raw (``load_sheet(0).to_arrow()``), in the same run.

    cd /work/main && .venv/bin/python benchmarks/bench_read_rates.py [--runs 3] [--code DIR ...]

Each run is a fresh process per figure, timed inside it (no interpreter start): the raw read, then
``read_rates`` once per ``--code`` checkout (default: this one), so two versions of the loaders are
measured in the same session (e.g. ``--code /path/to/main --code .``). Medians of ``--runs``; CPU
time (the process's own, threads included) is the figure to trust on a shared machine. Each
``read_rates`` process also says where its time went: the sheet read (fastexcel and the text
columns), the first rows read from the sheet's XML, the header split, and the typing
(``loaders.rates._read_one``), by wrapping those functions in the process.

The workbook is generated once with ``benchmarks/_rates_data.py`` under ``$TMPDIR/workbench-bench``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

RAW_READ = """
import json, sys, time
import fastexcel
t0, c0 = time.perf_counter(), time.process_time()
table = fastexcel.read_excel(sys.argv[1]).load_sheet(0).to_arrow()
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "rows": table.num_rows}))
"""
READ_RATES = """
import json, sys, time
import loaders
from loaders import rates, sheets, workbooks, xlsx_xml
stages = {}
def timed(module, name, stage):
    inner = getattr(module, name)
    def wrapper(*args, **kwargs):
        c0 = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            stages[stage] = stages.get(stage, 0.0) + time.process_time() - c0
    setattr(module, name, wrapper)
timed(workbooks, "load_typed", "load_typed")
timed(workbooks, "as_text", "text columns (as_text)")
timed(xlsx_xml, "first_rows", "first rows (xlsx_xml)")
timed(sheets, "split_header", "header split")
timed(rates, "_read_one", "typing")
t0, c0 = time.perf_counter(), time.process_time()
frame, issues = loaders.read_rates(sys.argv[1])
stages = {"fastexcel (load_sheet, to_arrow_with_errors)": stages.pop("load_typed") - stages["text columns (as_text)"],
          **stages}
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "rows": len(frame),
                  "issues": len(issues), "stages": stages, "code": loaders.__file__}))
"""


def _run(script: str, xlsx: Path, code: Path | None) -> dict:
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code), env.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory() as cwd:  # no checkout on the path but the one given
        done = subprocess.run([sys.executable, "-c", script, str(xlsx)], capture_output=True, text=True, env=env,
                              cwd=cwd, check=False)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _listed(runs: list[dict]) -> str:
    return ", ".join(f"{r['cpu']:.2f}" for r in runs)


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--code", type=Path, action="append",
                        help="a checkout whose loaders run (repeatable; default: this one)")
    args = parser.parse_args()
    from _rates_data import cached_rates_xlsx  # generated once, cached

    xlsx = cached_rates_xlsx(args.rows)[0]
    codes = [c.resolve() for c in args.code] if args.code else [HERE.parent]
    raws: list[dict] = []
    reads: dict[Path, list[dict]] = {c: [] for c in codes}
    for _ in range(args.runs):  # interleaved, so a busy moment hits every figure alike
        raws.append(_run(RAW_READ, xlsx, None))
        for code in codes:
            reads[code].append(_run(READ_RATES, xlsx, code))
    raw_cpu, raw_wall = _median(raws, "cpu"), _median(raws, "wall")
    print(f"{xlsx.name}: fastexcel raw read {raw_cpu:.2f} s CPU / {raw_wall:.2f} s wall "
          f"(CPU runs {_listed(raws)})")
    for code, runs in reads.items():
        cpu, wall = _median(runs, "cpu"), _median(runs, "wall")
        stages = {k: statistics.median(r["stages"].get(k, 0.0) for r in runs) for k in runs[0]["stages"]}
        rest = statistics.median(r["cpu"] - sum(r["stages"].values()) for r in runs)
        print(f"read_rates [{code}]: {cpu:.2f} s CPU ({cpu / raw_cpu:.2f}x raw) / {wall:.2f} s wall "
              f"({wall / raw_wall:.2f}x raw); CPU runs {_listed(runs)}; "
              f"{runs[0]['rows']:,} rows, {runs[0]['issues']} issues")
        print("    stages (CPU, median): " + ", ".join(f"{k} {v:.2f} s" for k, v in stages.items())
              + f", rest {rest:.2f} s")


if __name__ == "__main__":
    main()
