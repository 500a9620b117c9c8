"""Issue 13 benchmark: ``workbench health`` over 2,000 properties x 10 room-rates x 2 years of
accepted prices in the push journal (~15M cells), the letters for all of them, and a same-run
reference: a hand-written pandas query of the last priced night per room-rate on the same data.

    .venv/bin/python benchmarks/bench_health.py [--runs 3] [--hotels 2000] [--keep]

Every figure runs in its own process, timed from outside (interpreter start and imports
included, as a scheduler sees it); peak RSS is that process's high-water mark (``wait4``).
The platform is not read (a registry of the same properties stands in for it), so the figure is
the analysis, not 2,000 HTTPS round trips. Inputs are generated once into
``benchmarks/.cache/health`` (``--keep`` keeps them for the next run).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT)]

AS_OF = dt.date(2026, 12, 1)
TARGET = "https://platform.bench"
DAYS = 730
# how the 10 room-rates of a property end (by room-rate number k and property h, so the mix is fixed):
# most are priced two years ahead; some end within the horizon, some after 10 months, some have a
# week unpriced, some are closed (priced 0) a few nights a month; one property in 50 has an 11th
# room-rate that is active but never priced.
GENERATE = """
INSERT INTO accepted(target, hotel_code, inv_type_code, rate_plan_code, date, guests, price, request_id, ruid, at)
WITH RECURSIVE h(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM h WHERE x < :hotels - 1),
 rr(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM rr WHERE k < 9),
 d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < :days - 1)
SELECT :target, 3000000 + h.x, CAST(101 + rr.k / 2 AS TEXT), CAST(5001 + rr.k % 2 AS TEXT),
       date(:start, '+' || d.n || ' days'), -1,
       'AfterTax:' || CASE WHEN (h.x * 10 + rr.k) % 13 = 0 AND d.n % 30 < 3 THEN 0
                           ELSE (8000 + (d.n % 7) * 500 + (h.x % 17) * 100) END || 'e-2:2:EUR',
       1, 'bench', 'bench'
FROM h, rr, d
WHERE NOT ((h.x * 10 + rr.k) % 29 = 0 AND d.n BETWEEN 40 AND 47)
  AND NOT ((h.x * 10 + rr.k) % 41 = 0 AND d.n >= 45)
  AND NOT ((h.x * 10 + rr.k) % 37 = 0 AND d.n >= 300)
ORDER BY 2, 3, 4, 5
"""


def generate(work: Path, hotels: int) -> tuple[Path, list[Path], int]:
    from workbench.writers.journal import Journal

    work.mkdir(parents=True, exist_ok=True)
    journal = work / f"journal-{hotels}.sqlite"
    meta = work / f"meta-{hotels}.json"
    regs = [work / f"{n}-{hotels}.csv" for n in ("properties", "rooms", "room_rates")]
    if journal.exists() and meta.exists() and all(p.exists() for p in regs):
        return journal, regs, json.loads(meta.read_text())["cells"]
    for p in (journal, *regs):
        p.unlink(missing_ok=True)
    t = time.perf_counter()
    Journal(journal).close()
    db = sqlite3.connect(journal, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    db.execute(GENERATE, {"hotels": hotels, "days": DAYS, "target": TARGET, "start": AS_OF.isoformat()})
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # a journal at rest, as a scheduled check finds it
    cells = db.execute("SELECT COUNT(*) FROM accepted").fetchone()[0]
    db.close()
    import pandas as pd

    codes = range(3000000, 3000000 + hotels)
    pd.DataFrame({"HotelCode": list(codes), "HotelName": [f"Hotel {h}" for h in codes], "CurrencyCode": "EUR",
                  "PricingModel": "Standard"}).to_csv(regs[0], index=False)
    rooms = [(h, str(101 + k)) for h in codes for k in range(5)]
    pd.DataFrame(rooms, columns=["HotelCode", "InvTypeCode"]).assign(
        RoomName="Double room", MaxOccupancy=2, MaxAdultOccupancy=2, MaxChildOccupancy=0).to_csv(regs[1], index=False)
    links = [(h, str(101 + k // 2), str(5001 + k % 2)) for h in codes for k in range(10)]
    links += [(h, "101", "5009") for h in codes if h % 50 == 0]  # active, never priced
    pd.DataFrame(links, columns=["HotelCode", "InvTypeCode", "RatePlanCode"]).assign(
        RateName="Standard", Active=1, ReadOnly=0).to_csv(regs[2], index=False)
    meta.write_text(json.dumps({"cells": cells, "seconds": round(time.perf_counter() - t, 1)}))
    return journal, regs, cells


def measure(cmd: list[str], env: dict | None = None) -> tuple[float, float, int, str, float]:
    """(wall seconds, peak RSS MiB, exit code, stdout, CPU seconds) of one process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT, env=env, text=True)
    out = p.stdout.read() if p.stdout else ""
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - t, usage.ru_maxrss / 1024, p.returncode, out, usage.ru_utime + usage.ru_stime


REFERENCE = """
import sqlite3, sys, pandas as pd
db = sqlite3.connect(sys.argv[1])
cells = pd.read_sql_query("SELECT hotel_code, inv_type_code, rate_plan_code, date, price FROM accepted "
                          "WHERE target = ?", db, params=[sys.argv[2]])
amount = cells["price"].str.split(":").str[1].astype(float)
last = cells[amount > 0].groupby(["hotel_code", "inv_type_code", "rate_plan_code"])["date"].max()
last.to_csv(sys.argv[3])
"""
REFERENCE_SQL = """
import sqlite3, sys, pandas as pd
db = sqlite3.connect(sys.argv[1])
last = pd.read_sql_query("SELECT hotel_code, inv_type_code, rate_plan_code, MAX(date) AS date FROM accepted "
                         "WHERE target = ? AND CAST(substr(price, instr(price, ':') + 1) AS REAL) > 0 "
                         "GROUP BY 1, 2, 3", db, params=[sys.argv[2]])
last.to_csv(sys.argv[3], index=False)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--hotels", type=int, default=2000)
    ap.add_argument("--keep", action="store_true", help="keep the generated inputs for the next run")
    ap.add_argument("--html", type=int, default=50, help="properties in the timed HTML report (0: skip)")
    args = ap.parse_args()
    work = HERE / ".cache" / "health"
    journal, regs, cells = generate(work, args.hotels)
    print(f"{args.hotels:,} properties, {cells:,} accepted cells ({journal.stat().st_size / 2**30:.2f} GiB journal)")
    exe = str(Path(sys.executable).with_name("workbench"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    base = [exe, "health", "--as-of", AS_OF.isoformat(), "--journal", str(journal), "--show", "0"]
    for r in regs:
        base += ["--registry", str(r)]
    out = work / "out"
    shutil.rmtree(out, ignore_errors=True)
    figures: dict[str, list[tuple[float, float, float]]] = {"health": [], "letters": [], "reference": [], "reference_sql": []}
    for i in range(args.runs):  # interleaved: every figure sees the same machine state
        wall, rss, code, text, cpu = measure([*base, "--report", str(out / "health.csv")], env)
        assert code == 1, text  # bookings are blocked somewhere: the scheduler's exit code
        figures["health"].append((wall, rss, cpu))
        wall, rss, code, text, cpu = measure([*base, "--report", str(out / "health.csv"), "--letters",
                                              str(out / "letters")], env)
        assert code == 1, text
        figures["letters"].append((wall, rss, cpu))
        for name, script in (("reference", REFERENCE), ("reference_sql", REFERENCE_SQL)):
            wall, rss, code, text, cpu = measure([sys.executable, "-c", script, str(journal), TARGET,
                                                  str(out / f"{name}.csv")])
            assert code == 0, text
            figures[name].append((wall, rss, cpu))
        print(f"run {i + 1}: " + ", ".join(f"{k} {v[-1][0]:.2f} s" for k, v in figures.items()))
    checks = verify(out, regs, args.hotels)
    html = None
    if args.html:
        wall, rss, code, text, cpu = measure([*base, "--report", str(out / "health.html")] +
                                             sum((["--hotel", str(3000000 + h)] for h in range(args.html)), []), env)
        html = (wall, rss, cpu)
    med = {k: (statistics.median(w for w, _, _ in v), max(r for _, r, _ in v), statistics.median(c for _, _, c in v))
           for k, v in figures.items()}
    letters_more = med["letters"][0] - med["health"][0]
    load = os.getloadavg()
    print(json.dumps({"median_s": {k: round(v[0], 3) for k, v in med.items()},
                      "median_cpu_s": {k: round(v[2], 3) for k, v in med.items()},
                      "peak_mib": {k: round(v[1]) for k, v in med.items()},
                      "runs": {k: [round(w, 2) for w, _, _ in v] for k, v in figures.items()},
                      "letters_more_s": round(letters_more, 2),
                      "ratio_vs_pandas": round(med["health"][0] / med["reference"][0], 3),
                      "ratio_vs_sql": round(med["health"][0] / med["reference_sql"][0], 3),
                      "cpu_ratio_vs_pandas": round(med["health"][2] / med["reference"][2], 3),
                      "html": html and {"properties": args.html, "s": round(html[0], 2), "cpu_s": round(html[2], 2),
                                        "peak_mib": round(html[1])},
                      "checks": checks, "load": [round(x, 1) for x in load]}, indent=1))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


def verify(out: Path, regs: list[Path], hotels: int) -> dict:
    """The command's findings agree with the reference and with how the data were generated."""
    import pandas as pd

    f = pd.read_csv(out / "health.csv", encoding="utf-8-sig", dtype={"inv_type_code": str, "rate_plan_code": str})
    ref = pd.read_csv(out / "reference.csv", dtype={"inv_type_code": str, "rate_plan_code": str})
    ref_sql = pd.read_csv(out / "reference_sql.csv", dtype={"inv_type_code": str, "rate_plan_code": str})
    keys = ["hotel_code", "inv_type_code", "rate_plan_code"]
    same_refs = ref.sort_values(keys).reset_index(drop=True).equals(ref_sql.sort_values(keys).reset_index(drop=True))
    ending = f[f["finding"] == "ending_soon"]
    # ending soon = the reference's last priced night within the horizon
    horizon_last = (AS_OF + dt.timedelta(days=59)).isoformat()
    expected_ending = ref[(ref["date"] >= AS_OF.isoformat()) & (ref["date"] <= horizon_last)]
    same_ending = sorted(map(tuple, ending[keys].to_numpy().tolist())) == sorted(
        map(tuple, expected_ending[keys].to_numpy().tolist()))
    not_priced = int((f["finding"] == "not_priced").sum())
    letters = len(list((out / "letters").glob("*.md")))
    return {"references_agree": same_refs, "ending_soon_matches_reference": same_ending,
            "ending_soon": len(ending), "not_priced": not_priced, "not_priced_expected": len(
                [h for h in range(3000000, 3000000 + hotels) if h % 50 == 0]),
            "findings": f["finding"].value_counts().to_dict(), "letters": letters}


if __name__ == "__main__":
    main()
