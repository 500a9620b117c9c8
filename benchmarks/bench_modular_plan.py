"""Benchmark: building the modular bodies (issue 24) of N properties' content against today's content-operation
planning of the same frames, in the same run, interleaved.

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
from workbench.modular import ModularMeta, build_modular_content, parse_envelope  # noqa: E402
from workbench.writers.content_plan import plan_content  # noqa: E402

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
    print(json.dumps({
        "properties": args.properties, "rows": sum(len(f) for f in parts.values()),
        "modular_wall_s": round(m, 3), "modular_cpu_s": round(statistics.median(modular_cpu), 3),
        "plan_content_wall_s": round(p, 3), "plan_content_cpu_s": round(statistics.median(plan_cpu), 3),
        "ratio_wall": round(m / p, 2), "ratio_cpu": round(statistics.median(modular_cpu) / statistics.median(plan_cpu), 2),
        "runs_modular": [round(x, 3) for x in modular_wall], "runs_plan": [round(x, 3) for x in plan_wall],
        "modular_requests": len(built.requests), "modular_issues": int(len(built.issues)),
        "modular_errors": int((built.issues["severity"] == "error").sum()),
        "plan_requests": len(plan.requests),
    }, indent=1))


if __name__ == "__main__":
    main()
