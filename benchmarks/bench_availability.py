"""Issue 23: availability from XLSX to request files, compression, messages, the journal, the read-back.

    cd /work/wt/availability-push && .venv/bin/python benchmarks/bench_availability.py [--cells 1000000] [--runs 3]
        [--write]

1. **XLSX -> request files** against fastexcel reading the same file raw, same run (target <= 2.5x): the command
   as a person types it (``workbench push availability FILE --registry REG --as-of D --skip-invalid --dry-run
   DIR``, a fresh process and a new folder each run) and, for the stages, a fresh process doing the same steps
   (the command's memory settings, ``workbench.memory.batch_process``; ``read_availability``; the checks with a
   registry, every rule running; ``availability_folder_plan`` compressing and building every request; the dry-run
   folder written by ``request_folder.write_folder``: one XML per request, manifest, cells.parquet); another fresh
   process only reads the sheet with fastexcel (``load_sheet(0).to_arrow()``). All timed over the whole process
   (interpreter start and imports included, as ``bench_end_to_end.py`` times rates) and inside it from the read
   on; the in-memory figure stops before the folder is written. The workbook is written by openpyxl's
   write-only mode, which leaves out the ``<dimension>`` Excel writes, so the bounds check scans its sheet
   before reading (``loaders.xlsx_bounds``); the same workbook with its dimension is measured too.
2. **Compression** (``compress_availability``) in cells per second of process CPU time (one core), on the
   workbook's values (target >= 1,000,000 cells/s).
3. **Messages against run-length** on every calendar kind (constant, weekday/weekend, Friday/Saturday,
   seasonal, random, gappy, one-off events), ~200,000 values each over rooms to sell and three restrictions
   (targets: never more than run-length; <= 0.3x on the weekday/weekend kinds).
4. **The read-back on paper**: 10,000 properties' year through ``roomrateavailability`` at the quota, and the
   CPU its answers take to read (a property's 31 nights in the sandbox's shape, parsed in a loop).
5. **The journal**: the typed tables against the generic ones for the same values (``_avail_journal.py``).

The workbook (two years of rooms to sell per room type, and Closed, ClosedToArrival and MinStayArrival per
room-rate, one row per room type and night and one per room-rate and night) is written once with openpyxl's
write-only mode under ``$TMPDIR/workbench-bench``. ``--write`` replaces the section of ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from _avail_journal import journal_figures  # noqa: E402

from loaders.schemas import AVAILABILITY_COLUMNS  # noqa: E402
from workbench.writers.avail_requests import compress_availability  # noqa: E402

CACHE = Path(tempfile.gettempdir()) / "workbench-bench"
AS_OF = "2026-12-01"
FIRST = dt.date(2026, 12, 1)
NIGHTS = 730
RATES_PER_ROOM = 2
ROOMS_PER_HOTEL = 4
SECTION = "## Availability: XLSX to requests, compression, messages (issue 23)"
TARGETS = {"xlsx": 2.5, "cells_per_s": 1_000_000, "weekday_weekend": 0.3}
RAW_READ = """
import json, sys, time
import fastexcel
t0, c0 = time.perf_counter(), time.process_time()
table = fastexcel.read_excel(sys.argv[1]).load_sheet(0).to_arrow()
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "rows": table.num_rows}))
"""
TO_REQUESTS = """
import json, sys, time
stages, last = {}, [time.process_time()]
def lap(name):
    now = time.process_time()
    stages[name], last[0] = now - last[0], now
from workbench.memory import batch_process
batch_process()  # as the command does
from loaders import read_availability, read_registry
from workbench.flows.availability import check_loaded_availability
from workbench.writers.avail_requests import availability_folder_plan
from workbench.writers.request_folder import write_folder
lap("imports")
t0, c0 = time.perf_counter(), time.process_time()
xlsx, registry, out = sys.argv[1], sys.argv[2], sys.argv[3]
reg = read_registry(registry)
loaded = read_availability(xlsx)
lap("read")
check = check_loaded_availability(loaded, [xlsx], registry=reg, as_of="2026-12-01")
valid = check.valid_frame()
lap("check")
requests, cells = availability_folder_plan(valid)
built = list(requests)
lap("compress and build")
memory = {"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}
written, manifest = write_folder(out, built, cells)
lap("write the folder")
print(json.dumps({"memory": memory, "wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                  "stages": stages, "values": len(check.frame), "errors": len(check.errors), "valid": len(valid),
                  "requests": len(written), "messages": int(manifest["messages"].sum())}))
"""


# --- the workbook ---------------------------------------------------------------------------------------

def _layout(cells: int) -> tuple[int, int]:
    """(hotels, room types) for about ``cells`` values: per room and night 1 + 3 x rates."""
    per_room = NIGHTS * (1 + 3 * RATES_PER_ROOM)
    rooms = max(1, round(cells / per_room))
    return max(1, rooms // ROOMS_PER_HOTEL), rooms


def cached_workbook(cells: int) -> tuple[Path, Path, dict]:
    """The availability workbook and its registry (written on first use) and what they hold."""
    hotels, rooms = _layout(cells)
    path, registry, meta_path = (CACHE / f"availability_{cells}.xlsx", CACHE / f"availability_{cells}_registry.xlsx",
                                 CACHE / f"availability_{cells}.json")
    if path.exists() and registry.exists() and meta_path.exists():
        return path, registry, json.loads(meta_path.read_text())
    CACHE.mkdir(parents=True, exist_ok=True)
    meta = _write_workbook(path.with_suffix(".tmp.xlsx"), rooms)
    path.with_suffix(".tmp.xlsx").replace(path)
    _write_registry(registry, rooms)
    meta_path.write_text(json.dumps(meta))
    return path, registry, meta


def _room(i: int) -> tuple[int, str]:
    return 2_000_000 + i // ROOMS_PER_HOTEL, str(10 + i % ROOMS_PER_HOTEL)


def _write_workbook(path: Path, rooms: int) -> dict:
    from openpyxl import Workbook

    rng = np.random.default_rng(23)
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Availability")
    ws.append(["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "Closed", "ClosedToArrival",
               "MinStayArrival"])
    nights = [FIRST + dt.timedelta(days=d) for d in range(NIGHTS)]
    values = rows = 0
    for i in range(rooms):
        hotel, room = _room(i)
        base = int(rng.integers(4, 20))
        dips = set(rng.choice(NIGHTS, size=NIGHTS // 20, replace=False).tolist())  # bookings taken that night
        for d, night in enumerate(nights):
            weekend = night.weekday() >= 4
            ws.append([hotel, room, None, night, max(0, base - 2 * weekend - (d in dips) - night.month % 3)])
            for r in range(RATES_PER_ROOM):
                ws.append([hotel, room, str(900 + r), night, None, int(night.month == 12 and night.day in (24, 31)),
                           int(night.weekday() == 6), 2 if weekend else 1 + r])
            rows += 1 + RATES_PER_ROOM
            values += 1 + 3 * RATES_PER_ROOM
    wb.save(path)
    return {"rows": rows, "values": values, "rooms": rooms, "hotels": len({_room(i)[0] for i in range(rooms)}),
            "nights": NIGHTS, "rates_per_room": RATES_PER_ROOM}


def _write_registry(path: Path, rooms: int) -> None:
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    props, room_sheet, rates = wb.create_sheet("Properties"), wb.create_sheet("Rooms"), wb.create_sheet("RoomRates")
    props.append(["HotelCode", "PricingModel"])
    room_sheet.append(["HotelCode", "InvTypeCode", "Quantity"])
    rates.append(["HotelCode", "InvTypeCode", "RatePlanCode", "Active"])
    for h in sorted({_room(i)[0] for i in range(rooms)}):
        props.append([h, "Standard"])
    for i in range(rooms):
        hotel, room = _room(i)
        room_sheet.append([hotel, room, 30])
        for r in range(RATES_PER_ROOM):
            rates.append([hotel, room, str(900 + r), 1])
    wb.save(path)


# --- timing -------------------------------------------------------------------------------------------

def _children() -> tuple[float, float]:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime, usage.ru_stime


def in_fresh_process(script: str, *args: str) -> dict:
    """Run ``script`` in a new interpreter: its own figures, plus the whole process's wall and CPU."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    cpu0, _ = _children()
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"benchmark process failed:\n{done.stdout}\n{done.stderr}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["process_wall"], out["process_cpu"] = time.perf_counter() - t0, _children()[0] - cpu0
    return out


def command(xlsx: Path, registry: Path, out: Path, tree: Path = HERE.parent) -> dict:
    """``workbench push availability XLSX --dry-run OUT`` in a fresh process, with the code of ``tree`` (this
    checkout, or ``--before``'s): its wall and CPU time (and of that, the kernel's)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cpu0, sys0 = _children()
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "workbench.cli", "push", "availability", str(xlsx), "--registry",
                           str(registry), "--as-of", AS_OF, "--skip-invalid", "--dry-run", str(out)],
                          capture_output=True, text=True, cwd=tree, env=env)
    if done.returncode != 0:
        raise SystemExit(f"the command failed:\n{done.stdout}\n{done.stderr}")
    cpu, kernel = _children()
    return {"process_wall": time.perf_counter() - t0, "process_cpu": cpu - cpu0, "process_sys": kernel - sys0}


def byte_compiled(tree: Path) -> None:
    """The workbench's own modules of ``tree`` byte-compiled, as Python's first run of them leaves them on any
    machine (pip compiles the installed libraries, so the raw read's are). This sandbox sets
    ``PYTHONDONTWRITEBYTECODE=1``, under which every run would parse and compile them again (~80 modules a
    command): measured apart, in ``RESULTS.md``."""
    import compileall

    for package in ("loaders", "expectations", "workbench"):
        compileall.compile_dir(str(tree / package), quiet=1)


def with_dimension(xlsx: Path, rows: int) -> Path:
    """A copy of the workbook with the ``<dimension>`` Excel writes (openpyxl's write-only mode leaves it out)."""
    import zipfile

    copy = xlsx.with_name(xlsx.stem + "_dimension.xlsx")
    if copy.exists():
        return copy
    with zipfile.ZipFile(xlsx) as src, zipfile.ZipFile(copy.with_suffix(".tmp"), "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"<sheetViews>", f'<dimension ref="A1:H{rows + 1}"/><sheetViews>'.encode(), 1)
            dst.writestr(info, data)
    copy.with_suffix(".tmp").replace(copy)
    return copy


def xlsx_to_requests(xlsx: Path, registry: Path, runs: int, rows: int, before: Path | None = None) -> dict:
    """Interleaved runs of the command, the staged path and the raw read, on the workbook and on its copy with a
    dimension (and the command with ``before``'s code, when given); medians."""
    load = load_average()  # before the runs
    outs = Path(tempfile.mkdtemp(prefix="workbench-avail-bench-"))
    dimensioned = with_dimension(xlsx, rows)
    paths, raws, commands, dim_raws, dim_commands, befores = [], [], [], [], [], []
    try:
        in_fresh_process(RAW_READ, str(xlsx))  # warm the page cache for both
        in_fresh_process(RAW_READ, str(dimensioned))
        for n in range(runs):
            raws.append(in_fresh_process(RAW_READ, str(xlsx)))
            commands.append(command(xlsx, registry, outs / f"command{n}"))
            if before is not None:
                befores.append(command(xlsx, registry, outs / f"before{n}", before))
            paths.append(in_fresh_process(TO_REQUESTS, str(xlsx), str(registry), str(outs / f"run{n}")))
            dim_raws.append(in_fresh_process(RAW_READ, str(dimensioned)))
            dim_commands.append(command(dimensioned, registry, outs / f"dimension{n}"))
    finally:  # removed at the end: removing thousands of files charges the next run on ext4
        shutil.rmtree(outs, ignore_errors=True)

    def med(rows: list[dict], key: str, sub: str | None = None) -> float:
        return statistics.median(r[sub][key] if sub else r[key] for r in rows)

    return {"runs": paths, "raws": raws, "commands": commands, "load": load, "befores": befores,
            "before_cpu": med(befores, "process_cpu") if befores else None,
            "before_wall": med(befores, "process_wall") if befores else None,
            "command_sys": med(commands, "process_sys"),
            "command_wall": med(commands, "process_wall"), "command_cpu": med(commands, "process_cpu"),
            "dim_command_cpu": med(dim_commands, "process_cpu"), "dim_command_wall": med(dim_commands, "process_wall"),
            "dim_raw_cpu": med(dim_raws, "process_cpu"), "dim_raw_wall": med(dim_raws, "process_wall"),
            "process_wall": med(paths, "process_wall"), "process_cpu": med(paths, "process_cpu"),
            "inside_wall": med(paths, "wall"), "inside_cpu": med(paths, "cpu"),
            "memory_wall": med(paths, "wall", "memory"), "memory_cpu": med(paths, "cpu", "memory"),
            "raw_process_wall": med(raws, "process_wall"), "raw_process_cpu": med(raws, "process_cpu"),
            "raw_wall": med(raws, "wall"), "raw_cpu": med(raws, "cpu")}


def compression(xlsx: Path, registry: Path, runs: int) -> dict:
    from loaders import read_availability, read_registry
    from workbench.flows.availability import check_loaded_availability

    check = check_loaded_availability(read_availability(xlsx), [xlsx], registry=read_registry(registry), as_of=AS_OF)
    valid = check.valid_frame()
    cpu, wall, weekly, rle = [], [], 0, 0
    for _ in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        weekly = len(compress_availability(valid).messages)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
    rle = len(compress_availability(valid, weekly=False).messages)
    return {"cells": len(valid), "cpu": statistics.median(cpu), "wall": statistics.median(wall),
            "cells_per_s": len(valid) / statistics.median(cpu), "messages": weekly, "run_length": rle}


# --- calendars of every kind ----------------------------------------------------------------------------

KINDS = ("constant", "weekday_weekend", "friday_saturday", "seasonal", "random", "gappy", "events")


def calendar(kind: str, cells: int, seed: int = 5) -> pd.DataFrame:
    """~``cells`` values of rooms to sell and three restrictions, valued by ``kind``, over a year."""
    rng = np.random.default_rng(seed)
    days = pd.date_range(FIRST, periods=365, freq="D")
    wd, month = days.day_of_week.to_numpy(), days.month.to_numpy()
    kinds = ("rooms_to_sell", "closed", "closed_to_arrival", "min_stay_arrival")
    n_series = max(1, cells // (365 * len(kinds)))
    parts = []
    for s in range(n_series):
        for k, restriction in enumerate(kinds):
            weekend = wd >= 4 if kind != "friday_saturday" else (wd == 4) | (wd == 5)
            low, high = (5 + s % 7, 2 + s % 3) if restriction == "rooms_to_sell" else \
                (0, 1) if restriction != "min_stay_arrival" else (1, 2)
            value = {"constant": np.full(365, low), "weekday_weekend": np.where(weekend, high, low) + month % 2 * (k == 0),
                     "friday_saturday": np.where(weekend, high, low),
                     "seasonal": np.where(weekend, high, low) + (days.day.to_numpy() > 15) * (k != 1),
                     "random": rng.integers(0, 4, 365),
                     "gappy": np.where(weekend, high, low), "events": np.where(weekend, high, low)}[kind].copy()
            keep = np.ones(365, dtype=bool)
            if kind == "gappy":
                keep = rng.random(365) > 0.15
            if kind == "events":
                spots = rng.choice(365, 12, replace=False)
                value[spots] = value[spots] + 1
            rate = None if restriction == "rooms_to_sell" else "900"
            parts.append(pd.DataFrame({"hotel_code": 3_000_000 + s // 4, "inv_type_code": str(10 + s % 4),
                                       "rate_plan_code": rate, "date": days[keep], "restriction": restriction,
                                       "value": value[keep], "source": "bench", "sheet": "", "row": 2,
                                       "value_column": restriction}))
    return pd.concat(parts, ignore_index=True).astype(AVAILABILITY_COLUMNS)


def messages_by_kind(cells: int) -> list[dict]:
    out = []
    for kind in KINDS:
        f = calendar(kind, cells)
        weekly, rle = compress_availability(f), compress_availability(f, weekly=False)
        out.append({"kind": kind, "cells": len(f), "messages": len(weekly.messages),
                    "run_length": len(rle.messages), "ratio": len(weekly.messages) / len(rle.messages)})
    return out


def on_paper(properties: int = 10_000, nights: int = 365, per_minute: int = 10_000) -> dict:
    calls = properties * -(-nights // 31)
    return {"properties": properties, "calls": calls, "per_minute": per_minute, "minutes": calls / per_minute}


def answer_parsing(repeat: int = 300) -> dict:
    """CPU to read one ``roomrateavailability`` answer: a property of 4 room types with 2 rates each, 31 nights,
    in the sandbox's shape, parsed ``repeat`` times into rows and then into the fetch frame."""
    from workbench.ota.room_rate_availability import fetch_frame, parse_room_rate_availability

    nights = pd.date_range(FIRST, periods=31).strftime("%Y-%m-%d")
    rooms = "".join(f'<room room_id="{10 + r}">' + "".join(
        f'<date value="{d}" rooms_to_sell="5" room_closed="0">' + "".join(
            f'<rate id="{900 + k}" booked="1" cancelled="0" closed="0" min_contracted_rooms="0"/>'
            for k in range(RATES_PER_ROOM)) + "</date>" for d in nights) + "</room>" for r in range(ROOMS_PER_HOTEL))
    body = f"<result>{rooms}</result><!-- RUID: [bench] -->".encode()
    c0 = time.process_time()
    rows = [row for _ in range(repeat) for row in parse_room_rate_availability(body, 2_000_000)]
    fetch_frame(rows)
    cpu = (time.process_time() - c0) / repeat
    return {"answer_bytes": len(body), "rows": len(rows) // repeat, "cpu_per_answer": cpu}


# --- report -----------------------------------------------------------------------------------------------

def section(meta: dict, e2e: dict, comp: dict, kinds: list[dict], paper: dict, parsing: dict, journal: dict,
            code: str) -> str:
    ratio = e2e["command_cpu"] / e2e["raw_process_cpu"]
    ratio_wall = e2e["command_wall"] / e2e["raw_process_wall"]
    ratio_proc_cpu = e2e["process_cpu"] / e2e["raw_process_cpu"]
    ratio_cpu = e2e["inside_cpu"] / e2e["raw_cpu"]
    ratio_mem_cpu = e2e["memory_cpu"] / e2e["raw_cpu"]
    ratio_dim = e2e["dim_command_cpu"] / e2e["dim_raw_cpu"]
    worst = max(k["ratio"] for k in kinds)
    weekdays = [k for k in kinds if k["kind"] in ("weekday_weekend", "friday_saturday")]
    run = e2e["runs"][-1]
    t, g = journal["typed"], journal["generic"]
    parse_minutes = paper["calls"] * parsing["cpu_per_answer"] / 60
    lines = [
        SECTION, "",
        f"Measured {dt.date.today()} with `.venv/bin/python benchmarks/bench_availability.py --cells "
        f"{meta['values']} --runs {len(e2e['runs'])}` (code {code}; CPython {platform.python_version()}; 2 cores "
        f"shared with other engineers' work, load average before the runs {e2e['load']}; output folders under "
        f"`{tempfile.gettempdir()}`; the workbench's modules byte-compiled first, as any first run leaves them). "
        "The workbook: "
        f"{meta['rows']:,} rows, {meta['values']:,} values ({meta['rooms']} room types of {meta['hotels']} properties "
        f"x {meta['nights']} nights: rooms to sell per room type, and Closed, ClosedToArrival, MinStayArrival for "
        f"each of {meta['rates_per_room']} rates), {Path(e2e.get('xlsx', '')).name}; checked with a registry (every "
        "rule runs). Medians; the sides interleaved, each run a fresh process. CPU time (the process's own, threads "
        "and kernel included: what an idle core would take) is the judged figure.", "",
        "| figure | measured (median) | reference (same run) | ratio | target | verdict |",
        "|---|---|---|---|---|---|",
        f"| **`workbench push availability FILE --dry-run DIR`**, whole process | {e2e['command_wall']:.2f} s wall, "
        f"{e2e['command_cpu']:.2f} s CPU | fastexcel raw read, whole process {e2e['raw_process_wall']:.2f} s wall, "
        f"{e2e['raw_process_cpu']:.2f} s CPU | wall {ratio_wall:.2f}x, **CPU {ratio:.2f}x** | <= {TARGETS['xlsx']}x | "
        f"**{'met' if ratio <= TARGETS['xlsx'] else 'not met'}** |",
        f"| the same steps in a script (stages below), whole process | {e2e['process_wall']:.2f} s wall, "
        f"{e2e['process_cpu']:.2f} s CPU | as above | CPU {ratio_proc_cpu:.2f}x | | |",
        f"| the same, inside the process from the read on | {e2e['inside_wall']:.2f} s wall, {e2e['inside_cpu']:.2f} s "
        f"CPU | fastexcel read {e2e['raw_wall']:.2f} s wall, {e2e['raw_cpu']:.2f} s CPU | CPU {ratio_cpu:.2f}x | | |",
        f"| XLSX -> requests in memory (no folder written), from the read on | {e2e['memory_wall']:.2f} s wall, "
        f"{e2e['memory_cpu']:.2f} s CPU | fastexcel read {e2e['raw_cpu']:.2f} s CPU | CPU {ratio_mem_cpu:.2f}x | | |",
        f"| the command on the same workbook with the `<dimension>` Excel writes (its extent trusted) | "
        f"{e2e['dim_command_wall']:.2f} s wall, {e2e['dim_command_cpu']:.2f} s CPU | its raw read {e2e['dim_raw_cpu']:.2f} s "
        f"CPU | **CPU {ratio_dim:.2f}x** | <= {TARGETS['xlsx']}x | {'met' if ratio_dim <= TARGETS['xlsx'] else 'not met'} |",
        f"| compression (`compress_availability`) | **{comp['cells_per_s']:,.0f} cells/s per core** ({comp['cells']:,} "
        f"cells in {comp['cpu']:.2f} s CPU) | | | >= {TARGETS['cells_per_s']:,} | "
        f"**{'met' if comp['cells_per_s'] >= TARGETS['cells_per_s'] else 'not met'}** |",
        f"| messages, worst calendar kind | {worst:.2f}x of run-length | | | <= 1x every kind | "
        f"**{'met' if worst <= 1 else 'not met'}** |",
        "| messages, weekday/weekend kinds | " + ", ".join(f"{k['kind']} {k['ratio']:.2f}x" for k in weekdays)
        + f" | | | <= {TARGETS['weekday_weekend']}x | **"
        + ("met" if all(k["ratio"] <= TARGETS["weekday_weekend"] for k in weekdays) else "not met") + "** |",
        "",
        f"- The run's work: {run['values']:,} values read, {run['errors']:,} errors, {run['valid']:,} sent to "
        f"{run['requests']:,} requests of {run['messages']:,} messages (the workbook's own: {comp['messages']:,} "
        f"messages against {comp['run_length']:,} run-length). Runs (s CPU, whole process): command "
        f"{[round(r['process_cpu'], 2) for r in e2e['commands']]}, raw read "
        f"{[round(r['process_cpu'], 2) for r in e2e['raws']]}.",
        "- Process CPU by stage of the script (median s): " + ", ".join(
            f"{name} {statistics.median(r['stages'][name] for r in e2e['runs']):.2f}" for name in run["stages"])
        + f"; the raw read's process {e2e['raw_process_cpu']:.2f} s, of which the read {e2e['raw_cpu']:.2f} s.",
        "- Messages by calendar kind (weekly / run-length): " + "; ".join(
            f"{k['kind']} {k['messages']:,}/{k['run_length']:,} = {k['ratio']:.2f}x ({k['cells']:,} values)"
            for k in kinds) + ". Weekly is never worse than run-length: "
        + str(all(k["messages"] <= k["run_length"] for k in kinds)) + ".",
        f"- The journal, {journal['values']:,} values recorded, accepted and compared again (CPU s; file size): typed "
        f"tables (what the workbench keeps) record {t['record']:.2f}, accept {t['accept']:.2f}, delta {t['delta']:.2f} "
        f"= **{t['total']:.2f} s**, {t['mb']} MB (planning the requests {t['plan']:.2f}); the generic item tables "
        f"record {g['record']:.2f}, accept {g['accept']:.2f}, delta {g['delta']:.2f} = **{g['total']:.2f} s**, "
        f"{g['mb']} MB (planning, with the item texts, {g['plan']:.2f}): the typed tables take "
        f"{(g['total'] + g['plan']) / (t['total'] + t['plan']):.1f}x less time and {g['mb'] / t['mb']:.1f}x less room.",
        f"- The read-back on paper: {paper['properties']:,} properties x 12 calls a year (`roomrateavailability`, 31 "
        f"nights a call) = {paper['calls']:,} calls; at the spec's default quota of {paper['per_minute']:,} calls a "
        f"minute (no per-endpoint limit is published for it) that is **{paper['minutes']:.0f} minutes**, if answers "
        "come fast enough: at 1 s an answer, 167 calls in flight keep the quota (`WORKBENCH_MAX_IN_FLIGHT`, default "
        f"64: about 26 minutes at 1 s an answer). Reading the answers: {parsing['cpu_per_answer'] * 1000:.1f} ms CPU "
        f"an answer ({parsing['rows']} rows, {parsing['answer_bytes']:,} bytes: 4 room types x 2 rates x 31 nights), "
        f"{parse_minutes:.1f} CPU minutes for the {paper['calls']:,} answers, against {paper['minutes']:.0f} minutes at "
        "the quota: " + ("the quota sets the pace." if parse_minutes < paper["minutes"] else
                         "reading the answers on one core is as slow as the quota: the read-back of 10,000 properties "
                         "needs both cores (or fewer room-rates per property) to keep up."),
        f"- Where the command's {e2e['command_cpu']:.2f} s CPU go: {e2e['command_sys']:.2f} s are kernel time (page "
        "faults of the ~600 MB the frames take at their peak, against ~250 MB for the raw read, and creating 1,176 "
        "files: ~0.04 s on a quiet file system, up to 0.3 s within minutes of thousands of files removed nearby, "
        f"ext4's `recently_deleted`); outside the script's stages from the read on "
        f"{e2e['command_cpu'] - e2e['inside_cpu']:.2f} s: the interpreter, the imports (pandas, numpy and pyarrow "
        "~0.25 s; typer, which checks options with pydantic, ~0.06 s; only the invoked command's module and only "
        "the names it uses), the settings and the exit. Inside the read: fastexcel's own read, the bounds scan of a "
        "sheet without `<dimension>` (its 113 MB of XML inflated by ISA-L, 0.06 s, and searched by RE2 for cells "
        "and rows without a position or past the bounds, ~0.12 s, for formulas and merged cells, ~0.01 s, and for "
        "boolean cells, ~0.03 s: each search of its own, RE2 skipping to where its thing can start), and the "
        "canonical frame; then the stages above. With the `<dimension>`, the extent is trusted and the sheet searched "
        "only for booleans, formulas and merged cells (~0.04 s, up to its first boolean cell): its number columns are "
        "read typed and there is no second pass for formulas.",
        *([f"- The same command with the code before this session's work on the figure ({e2e['before_code']}), "
           f"in the same runs: {e2e['before_cpu']:.2f} s CPU = {e2e['before_cpu'] / e2e['raw_process_cpu']:.2f}x the "
           f"raw read (runs {[round(r['process_cpu'], 2) for r in e2e['befores']]}): "
           f"{1 - e2e['command_cpu'] / e2e['before_cpu']:.0%} less CPU now."] if e2e.get("before_cpu") else []),
        "- What brought it here: 3.31x at a3660b1; 2.93x at 8bcc2d9 (2026-11-28, quiet machine, after `avail-speed`: "
        "the XML made by Arrow's string kernels, one canonical frame, blocks past 32 MiB kept in the heap, the push "
        "reports imported only with `--report`). Then, in this order: the number columns of a sheet the bounds scan "
        "found without a boolean cell read typed by fastexcel, each distinct number written as its text reading "
        "writes it (`loaders.workbooks.as_read_as_text`; the same frame, tested cell kind by cell kind), and one "
        "RE2 pass for everything the scan looks for; each command's module imported when the command is used "
        "(`workbench.cli.loading`), the dry run not importing the push (`flows/availability_dry.py`), one OpenBLAS "
        "thread (its helper thread spun ~0.1 s at numpy's import); the `loaders` and `expectations` faces lazy (no "
        "rooms or content code for availability); `cells.parquet` without column statistics (0.18 -> 0.09 s); the "
        "scan's inflate by ISA-L (0.145 -> 0.06 s): 2.86x at 1cd2c23 (a quiet run; 2.48-2.75x in noisier ones). "
        "Then (this session, 6ef5adb -> now): the rules' group ids and first rows in one pass, no sort (the check "
        "0.22 -> 0.19 s); label columns made in blocks from Arrow buffers (`repeated_blocks`) and turned into "
        "categories from their runs (`as_category`); months through a table of nights (`months_of`); series-month "
        "codes without hashing and the rules' codes of texts by Arrow (compress and build 0.38 -> 0.31 s); the command "
        "line collecting less while it starts (~210 collections of imports that make no garbage, 0.047 s); sheet rows "
        "and locators in `cells.parquet` as deltas (5.0 -> 0.7 MB, 0.092 -> 0.077 s); each thing the bounds scan "
        "looks for searched on its own (one pattern for all made RE2 read every byte: 0.18 -> 0.17 s); a big sheet "
        "with a plausible dimension searched for booleans, formulas and merged cells (its numbers read typed, no "
        "second pass: that command 3.24 -> 2.73 s CPU, 7 interleaved runs), and the second pass inflated by ISA-L "
        "where it still runs. Tried and left out, measured: the label columns (`source`, `sheet`, `restriction`, "
        "`value_column`) as categories in the frame: no faster end to end (the stages 3.45 -> 3.58 s, 6 interleaved "
        "runs), and a change of the frame's schema; transparent huge pages for the heap "
        "(`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`): a quarter of the page faults, but 0.9-1.1 s of kernel time "
        "against 0.4 s (the kernel compacts memory to find huge pages); one pattern for the scan starting at `<`: "
        "0.17 s against 0.18 s.",
        "- Run it at least ten minutes after anything removed many files (this script removes its own 33,000 at the "
        "end): the same code (0f051a8) measured 2.78x, its folder written in 0.70 s instead of 0.29 s, when it was "
        "started three minutes after a run of it had ended (ext4's `recently_deleted`, above).",
    ]
    return "\n".join(lines) + "\n"


def load_average() -> str:
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def write_results(text: str) -> None:
    path = HERE / "RESULTS.md"
    old = path.read_text(encoding="utf-8")
    if SECTION in old:
        head, rest = old.split(SECTION, 1)
        tail = rest[rest.find("\n## "):] if "\n## " in rest else ""
        old = head.rstrip("\n") + "\n\n" + text + tail
    else:
        old = old.rstrip("\n") + "\n\n" + text
    path.write_text(old, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="replace the section of benchmarks/RESULTS.md")
    parser.add_argument("--before", type=Path, help="a checkout of earlier code: its command is timed in the same "
                        "runs (e.g. a worktree at the commit before a change)")
    args = parser.parse_args()
    xlsx, registry, meta = cached_workbook(args.cells)
    print(f"workbook: {xlsx} ({meta['rows']:,} rows, {meta['values']:,} values)", flush=True)
    for tree in (HERE.parent, *([args.before] if args.before else [])):
        byte_compiled(tree)
    e2e = xlsx_to_requests(xlsx, registry, args.runs, meta["rows"], args.before)
    if args.before:
        e2e["before_code"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=args.before,
                                            capture_output=True, text=True).stdout.strip()
    e2e["xlsx"] = str(xlsx)
    print(json.dumps({k: v for k, v in e2e.items() if k not in ("runs", "raws")}, indent=1), flush=True)
    comp = compression(xlsx, registry, args.runs)
    print(json.dumps(comp, indent=1), flush=True)
    kinds = messages_by_kind(200_000)
    print(json.dumps(kinds, indent=1), flush=True)
    parsing = answer_parsing()
    journal = journal_figures(calendar("weekday_weekend", args.cells))
    print(json.dumps({"parsing": parsing, "journal": journal}, indent=1), flush=True)
    code = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE.parent, capture_output=True,
                          text=True).stdout.strip()
    text = section(meta, e2e, comp, kinds, on_paper(), parsing, journal, code)
    print(text)
    if args.write:
        write_results(text)


if __name__ == "__main__":
    main()
