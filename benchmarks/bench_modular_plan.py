"""Benchmark: building the modular bodies (issue 24) of N properties' content against today's content-operation
planning of the same frames, in the same run, interleaved; and the planning the modular push does with its journal
(``workbench.flows.content_modular.plan_round``: bodies, the driver's requests, what an error holds back, the delta
against the journal's accepted state) against ``plan_content`` with its journal, half of each journal's properties
accepted as they are (so half are unchanged); and the send time at the quota, on paper.

    .venv/bin/python benchmarks/bench_modular_plan.py [--properties 10000] [--runs 3]

Measured: ``workbench.modular.build_modular_content`` (every property's details, settings, contacts, facilities
and charges bodies, each validated against its model, with the cell behind every value, and the issues of what
cannot be sent) against ``workbench.writers.content_plan.plan_content`` with no journal (one
OTA_HotelDescriptiveContentNotif per property, built and read back). The content is ``benchmarks/_content_data``'s
(seeded; every part, a deliberate mistake in 1 of 50 properties); the meta crosswalks are the hand-written meta
answers of ``tests/fixtures/modular``. Prints JSON: medians of wall and CPU time, the ratio, the requests and issues.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._content_data import generate  # noqa: E402
from workbench.flows.content_modular import plan_round  # noqa: E402
from workbench.modular import ModularMeta, build_modular_content, parse_envelope  # noqa: E402
from workbench.ota.content_notif import PARTS  # noqa: E402
from workbench.platform.modular import Reads  # noqa: E402
from workbench.writers.content_plan import plan_content  # noqa: E402
from workbench.writers.journal import Journal  # noqa: E402
from workbench.writers.modular_content import KIND, planned_modular  # noqa: E402

TARGET = "https://platform.example"
QUOTA_PER_MINUTE = 10_000  # the overall limit: the modular APIs publish none of their own

FIXTURES = ROOT / "tests" / "fixtures" / "modular"


def meta() -> ModularMeta:
    def data(api: str) -> object:
        return parse_envelope((FIXTURES / api / "meta_answer.json").read_bytes()).data
    return ModularMeta.from_answers(property_meta=data("property"), facilities_meta=data("facilities"),
                                    charges_meta=data("charges"), rooms_meta=data("rooms"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, default in (("--properties", 10_000), ("--runs", 3)):
        ap.add_argument(flag, type=int, default=default)
    args = ap.parse_args()
    parts = generate(args.properties)
    crosswalks = meta()
    day = dt.date(2026, 12, 1)
    build_modular_content(parts, crosswalks, today=day)  # warm: the models' validators are compiled once
    modular_wall, modular_cpu, plan_wall, plan_cpu = [], [], [], []
    built = plan = None
    for _ in range(args.runs):
        w, c = time.perf_counter(), time.process_time()
        built = build_modular_content(parts, crosswalks, today=day)
        modular_wall.append(time.perf_counter() - w)
        modular_cpu.append(time.process_time() - c)
        w, c = time.perf_counter(), time.process_time()
        plan = plan_content(parts)
        plan_wall.append(time.perf_counter() - w)
        plan_cpu.append(time.process_time() - c)
    assert built is not None and plan is not None
    m, p = statistics.median(modular_wall), statistics.median(plan_wall)
    journalled = _journalled(args.runs, parts, crosswalks, day, built)
    print(json.dumps({
        **journalled,
        "properties": args.properties, "rows": sum(len(f) for f in parts.values()),
        "modular_wall_s": round(m, 3), "modular_cpu_s": round(statistics.median(modular_cpu), 3),
        "plan_content_wall_s": round(p, 3), "plan_content_cpu_s": round(statistics.median(plan_cpu), 3),
        "ratio_wall": round(m / p, 2), "ratio_cpu": round(statistics.median(modular_cpu) / statistics.median(plan_cpu), 2),
        "runs_modular": [round(x, 3) for x in modular_wall], "runs_plan": [round(x, 3) for x in plan_wall],
        "modular_requests": len(built.requests), "modular_issues": int(len(built.issues)),
        "modular_errors": int((built.issues["severity"] == "error").sum()),
        "plan_requests": len(plan.requests),
    }, indent=1))


def _journalled(runs: int, parts: dict, crosswalks: ModularMeta, day: dt.date, built: object) -> dict:
    """``plan_round`` with a journal against ``plan_content`` with a journal, each journal holding half of the
    properties accepted as they are now; and the send time at the quota."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="bench-modular-"))
    with Journal(folder / "journal.sqlite") as j:
        planned = planned_modular(built.requests)  # type: ignore[attr-defined]
        keys = sorted({p.property for p in planned})
        half = set(keys[: len(keys) // 2])
        j.record_accepted(TARGET, KIND, {k: v for p in planned if p.property in half for k, v in p.state}, None)
        first = plan_content(parts)
        for r in first.requests:
            if r.key in half and r.hotel_code is not None:
                j.record_content(TARGET, r.hotel_code, {p: r.content.get(p, []) for p in PARTS}, None)
        wall_m, cpu_m, wall_p, cpu_p = [], [], [], []
        mine = theirs = None
        for _ in range(runs):
            w, c = time.perf_counter(), time.process_time()
            mine = plan_round(parts, crosswalks, Reads(), {}, journal=j, target=TARGET, replace=False, full=False,
                              today=day, only=lambda p: True)
            wall_m.append(time.perf_counter() - w)
            cpu_m.append(time.process_time() - c)
            w, c = time.perf_counter(), time.process_time()
            theirs = plan_content(parts, journal=j, target=TARGET)
            wall_p.append(time.perf_counter() - w)
            cpu_p.append(time.process_time() - c)
    assert mine is not None and theirs is not None
    m, p = statistics.median(wall_m), statistics.median(wall_p)
    # the writes (creates included), the reads of every property before round 2 (contacts, facilities, charges: the
    # new ones too, once created), the four meta reads (cached a day)
    calls = len(mine.send) + 3 * len(keys) + 4
    return {"journal_plan_modular_wall_s": round(m, 3), "journal_plan_modular_cpu_s": round(statistics.median(cpu_m), 3),
            "journal_plan_content_wall_s": round(p, 3),
            "journal_plan_content_cpu_s": round(statistics.median(cpu_p), 3),
            "journal_ratio_wall": round(m / p, 2),
            "journal_ratio_cpu": round(statistics.median(cpu_m) / statistics.median(cpu_p), 2),
            "journal_runs_modular": [round(x, 3) for x in wall_m], "journal_runs_plan": [round(x, 3) for x in wall_p],
            "journal_modular_send": len(mine.send), "journal_modular_unchanged": len(mine.unchanged),
            "journal_modular_held": len(mine.held), "journal_plan_requests": len(theirs.requests),
            "journal_plan_unchanged": len(theirs.unchanged),
            "send_calls": calls, "send_minutes_at_quota": round(calls / QUOTA_PER_MINUTE, 1)}


if __name__ == "__main__":
    main()
