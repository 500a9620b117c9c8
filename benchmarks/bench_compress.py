"""Issue 14: compression throughput, today's implementation against the vectorised one, same run.

    cd /work/main && .venv/bin/python benchmarks/bench_compress.py [--cells 1000000] [--runs 3] [--write]

For each calendar kind of ``_rates_data.CALENDARS`` (flat, weekday/weekend, seasonal, random noise,
gaps, event nights, occupancy-based...), ~``--cells`` canonical rows are compressed by the
reference (``workbench/writers/compress.py`` as of ``--reference``, read with ``git show`` into a
temporary module, so it is exactly that code) and by the current ``compress``, interleaved, each
``--runs`` times. Figures: medians of cells per second of wall clock and of process CPU time (the
"per core" figure: the work is single-threaded, and CPU time does not count the time other
processes held the core); messages of both (and whether they are the same messages), run-length
messages, and whether ``expand`` sets every night once. ``--write`` replaces the section
"Compression (issue 14)" of ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from _rates_data import CALENDARS, calendar  # noqa: E402

from workbench.writers.compress import Compressed, compress, expand  # noqa: E402

REFERENCE = "90f45ec"    # main when issue 14 started: the per-month Python weekly search
TARGET = 1_000_000       # cells per second per core
SECTION = "## Compression (issue 14)"


def reference_module(rev: str) -> ModuleType:
    """``workbench/writers/compress.py`` as of ``rev``, imported from a temporary file."""
    source = subprocess.run(["git", "show", f"{rev}:workbench/writers/compress.py"], cwd=HERE.parent,
                            capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "compress_reference.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("compress_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(fn: Callable[[], Compressed]) -> tuple[float, float, Compressed]:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, out


def message_keys(c: Compressed) -> pd.DataFrame:
    """The messages as comparable rows: series, start, end, mask and the prices they set, sorted."""
    p = c.prices
    text = pd.Series(["|".join(map(_text, t)) for t in p.drop(columns="vector").itertuples(index=False)])
    content = text.groupby(p["vector"].astype(int).to_numpy()).agg(";".join)
    m = c.messages
    out = pd.DataFrame({"hotel": m["hotel_code"].astype(int).to_numpy(), "room": m["inv_type_code"].astype(str),
                        "rate": m["rate_plan_code"].astype(str), "start": m["start"].to_numpy("datetime64[ns]"),
                        "end": m["end"].to_numpy("datetime64[ns]"), "mask": m["mask"].astype(int).to_numpy(),
                        "prices": content.reindex(m["vector"].astype(int).to_numpy()).to_numpy()})
    return out.sort_values(["hotel", "room", "rate", "start"]).reset_index(drop=True)


def _text(value: object) -> str:
    """One price attribute as text, alike whichever dtype held it (``1.0`` and ``1``; NaN and NA)."""
    if value is None or pd.isna(value):  # type: ignore[call-overload]
        return "-"
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def every_night_once(frame: pd.DataFrame, c: Compressed) -> bool:
    nights = expand(c.messages)
    key = ["hotel_code", "inv_type_code", "rate_plan_code", "date"]
    return not nights.duplicated(key).any() and len(nights) == len(frame.drop_duplicates(key))


def measure(kind: str, cells: int, runs: int, old: ModuleType) -> dict:
    frame = calendar(kind, cells)
    walls: dict[str, list[float]] = {"old": [], "new": []}
    cpus: dict[str, list[float]] = {"old": [], "new": []}
    results: dict[str, Compressed] = {}
    for _ in range(runs):
        for name, fn in (("old", lambda: old.compress(frame)), ("new", lambda: compress(frame))):
            wall, cpu, results[name] = timed(fn)
            walls[name].append(wall)
            cpus[name].append(cpu)
    rle = compress(frame, weekly=False)
    med = {f"{k}_{n}": statistics.median(v[n]) for k, v in (("wall", walls), ("cpu", cpus)) for n in ("old", "new")}
    return {"kind": kind, "cells": len(frame), **med, "walls": walls, "cpus": cpus,
            "messages_old": len(results["old"].messages), "messages_new": len(results["new"].messages),
            "messages_rle": len(rle.messages),
            "same_messages": message_keys(results["old"]).equals(message_keys(results["new"])),
            "every_night_once": every_night_once(frame, results["new"])}


def report(rows: list[dict], args: argparse.Namespace, load: str) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE.parent, capture_output=True,
                            text=True).stdout.strip()
    lines = [SECTION, "",
             f"Measured {time.strftime('%Y-%m-%d')} with `.venv/bin/python benchmarks/bench_compress.py --cells "
             f"{args.cells} --runs {args.runs}` (code {commit}; {platform.python_implementation()} "
             f"{platform.python_version()}; load average before the runs {load}: the machine's 2 cores were shared "
             "with other engineers' work, so wall clock is above CPU time). Reference: `workbench/writers/compress.py` "
             f"as of {args.reference} (today's per-month Python search), loaded with `git show` and run interleaved "
             f"with the new code, {args.runs} runs each; medians. Calendars: `benchmarks/_rates_data.py` (seeded). "
             "Cells/s per core = cells / process CPU time (single-threaded work).", "",
             "| calendar | cells | new: cells/s per core (CPU) | new: cells/s wall | today: cells/s per core | "
             "speed-up (CPU) | messages new / today / run-length | same messages | target >= 1,000,000/s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        per_core, wall, old = r["cells"] / r["cpu_new"], r["cells"] / r["wall_new"], r["cells"] / r["cpu_old"]
        verdict = "**met**" if per_core >= TARGET else "not met"
        lines.append(f"| {r['kind']} | {r['cells']:,} | **{per_core:,.0f}** | {wall:,.0f} | {old:,.0f} | "
                     f"{r['cpu_old'] / r['cpu_new']:.1f}x | {r['messages_new']:,} / {r['messages_old']:,} / "
                     f"{r['messages_rle']:,} | {r['same_messages']} | {verdict} |")
    worst = min(rows, key=lambda r: r["cells"] / r["cpu_new"])
    lines += ["",
              f"- Slowest calendar: {worst['kind']}, {worst['cells'] / worst['cpu_new']:,.0f} cells/s per core. "
              f"Messages never more than today's on any calendar: "
              f"{all(r['messages_new'] <= r['messages_old'] for r in rows)}; identical messages (same series, days, "
              f"weekday masks and prices): {all(r['same_messages'] for r in rows)}; never worse than run-length: "
              f"{all(r['messages_new'] <= r['messages_rle'] for r in rows)}; `expand` sets every input night exactly "
              f"once: {all(r['every_night_once'] for r in rows)}.",
              "- Runs (s, CPU new | CPU today): " + "; ".join(
                  f"{r['kind']} {[round(x, 2) for x in r['cpus']['new']]} | {[round(x, 1) for x in r['cpus']['old']]}"
                  for r in rows) + ".",
              "- How: the weekly search looks at every (series-month, price vector) seen twice at once, as a "
              "numpy array of month grids (`workbench/writers/month_plans.py`); a value's weekday messages "
              "depend only on where that value is, so the Python loop over months and values is gone, and so is "
              "any dependence on row order (messages in hotel, month, room, rate plan, start order; price "
              "vectors numbered by value). No numba: numpy alone meets the target, and the remaining time is "
              "mostly pandas' factorising of the key columns.", ""]
    return "\n".join(lines)


def write_section(text: str) -> None:
    path = HERE / "RESULTS.md"
    doc = path.read_text()
    start = doc.find(SECTION)
    if start < 0:
        doc = doc.rstrip("\n") + "\n\n" + text
    else:
        nxt = doc.find("\n## ", start + len(SECTION))
        doc = doc[:start] + text + ("\n" + doc[nxt + 1:] if nxt >= 0 else "")
    path.write_text(doc.rstrip("\n") + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cells", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--reference", default=REFERENCE, help="git revision of today's implementation")
    ap.add_argument("--only", default="", help="comma-separated calendar kinds (default: all)")
    ap.add_argument("--write", action="store_true", help="replace the section in benchmarks/RESULTS.md")
    args = ap.parse_args()
    old = reference_module(args.reference)
    load = open("/proc/loadavg").read().split()[0] if Path("/proc/loadavg").exists() else "?"
    rows = []
    for kind in [k for k in CALENDARS if not args.only or k in args.only.split(",")]:
        rows.append(measure(kind, args.cells, args.runs, old))
        r = rows[-1]
        print(f"{kind}: {r['cells'] / r['cpu_new']:,.0f} cells/s per core (wall {r['cells'] / r['wall_new']:,.0f}); "
              f"today {r['cells'] / r['cpu_old']:,.0f}; messages {r['messages_new']:,} / {r['messages_old']:,} "
              f"same={r['same_messages']}", flush=True)
    text = report(rows, args, load)
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
