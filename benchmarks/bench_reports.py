"""Push reports: how long writing the XLSX push report of a 73,000-price push takes (issue 11).

A long-layout workbook of 73,000 prices (benchmarks/_rates_data.py, seeded) is pushed for real
to a sandbox seeded with its properties (HTTPS on loopback; a few room-rates are read-only, so
their requests are refused and their rows marked), then the report is written several times:

- measured: ``write_push_report(result, "push.xlsx")`` (Problems sheet with links, the sheet with
  the refused rows filled and commented, Requests and Rows sheets);
- reference, same run: the same frames (the sheet's values, Requests, Rows) written with plain
  ``DataFrame.to_excel`` (xlsxwriter, and openpyxl);
- worst case: every request failed (the sandbox answers 503), so every one of the 73,000 rows is
  marked and commented;
- ``--before``: the implementation this replaced (openpyxl: load, mark, save, reload, save, append),
  once.

Target: <= 10 s for the 73,000-price report. Median of ``--runs`` runs.

    .venv/bin/python benchmarks/bench_reports.py [--runs 5] [--rows 73000] [--before]
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _rates_data import AS_OF, cached_rates_xlsx  # noqa: E402

from loaders import read_rates  # noqa: E402
from workbench.reports.push import REQUEST_COLUMNS, write_push_report  # noqa: E402
from workbench.sandbox import run_sandbox  # noqa: E402
from workbench.sandbox.platform.seed import Property, Registry, Room, RoomRate  # noqa: E402
from workbench.transport.backoff import RetryPolicy  # noqa: E402
from workbench.writers.push import PushResult, send_rates  # noqa: E402

READ_ONLY_EVERY = 200  # one room-rate in 200 is read-only: its requests are refused, their rows marked


def sandbox_registry(frame: pd.DataFrame) -> Registry:
    series = frame[["hotel_code", "inv_type_code", "rate_plan_code", "currency_code"]].drop_duplicates()
    props = {int(h): Property(int(h), f"Hotel {h}", str(c), "Standard", "NL")
             for h, c in series[["hotel_code", "currency_code"]].drop_duplicates("hotel_code").itertuples(index=False)}
    rooms = {(int(h), str(r)): Room(int(h), str(r), f"Room {r}", 3, 2, 1)
             for h, r in series[["hotel_code", "inv_type_code"]].drop_duplicates().itertuples(index=False)}
    links = [RoomRate(int(h), str(r), str(p), f"Rate {p}", True, None, False, i % READ_ONLY_EVERY == 7)
             for i, (h, r, p, _) in enumerate(series.itertuples(index=False))]
    return Registry(tuple(props.values()), tuple(rooms.values()), tuple(links))


def push(frame: pd.DataFrame, workbook: Path, work: Path, faults: str = "") -> PushResult:
    with run_sandbox(work / f"sandbox{faults.replace('=', '')}", today=AS_OF, registry=sandbox_registry(frame),
                     limits={"all": 1_000_000}, faults=faults) as sb:
        return send_rates(frame, sb.settings, journal=work / f"journal{faults.replace('=', '')}.sqlite",
                          progress=False, files=[workbook],
                          client_options={"retry": RetryPolicy(max_attempts=1)} if faults else None)


@dataclass
class Runs:
    """Wall-clock and process CPU seconds of each run: the wall clock moves with the machine's load
    (other jobs share its 2 cores), the CPU time much less."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def time(self, fn: Callable[[], object], runs: int = 1) -> Runs:
        for _ in range(runs):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            self.wall.append(time.perf_counter() - t0)
            self.cpu.append(time.process_time() - c0)
        return self

    @property
    def median(self) -> tuple[float, float]:
        return statistics.median(self.wall), statistics.median(self.cpu)

    def __str__(self) -> str:
        wall, cpu = self.median
        return (f"median {wall:.2f} s wall, {cpu:.2f} s CPU (wall runs {[round(x, 2) for x in self.wall]}, "
                f"CPU runs {[round(x, 2) for x in self.cpu]})")


def plain_to_excel(path: Path, sheet: pd.DataFrame, result: PushResult, engine: str) -> None:
    with pd.ExcelWriter(path, engine=engine) as writer:
        sheet.to_excel(writer, sheet_name="Rates", index=False)
        result.requests[REQUEST_COLUMNS].to_excel(writer, sheet_name="Requests", index=False)
        result.rows.to_excel(writer, sheet_name="Rows", index=False)


def before(result: PushResult, path: Path) -> None:
    """The openpyxl implementation this benchmark replaced (commit d275c92), for the record."""
    from openpyxl import load_workbook

    from workbench.reports.marked_workbook import write_marked_workbook

    rows = result.rows
    marks = rows[rows["severity"] != "ok"].rename(columns={"codes": "rule"})
    marks = marks.assign(value="", message=marks["message"] + " (ruid " + marks["ruid"].fillna("-") + ")")
    marks = marks[["source", "sheet", "row", "column", "value", "rule", "severity", "message"]]
    write_marked_workbook(marks, path, list(result.files), title="Push results")
    wb = load_workbook(path)
    wb["Issues"].title = "Problems"
    wb.save(path)
    with pd.ExcelWriter(path, engine="openpyxl", mode="a", if_sheet_exists="replace") as writer:
        result.requests[REQUEST_COLUMNS].to_excel(writer, sheet_name="Requests", index=False)
        rows.to_excel(writer, sheet_name="Rows", index=False)


def check_report(path: Path, result: PushResult) -> str:
    """Read the report back: marks, comments and links where the flagged rows are."""
    from openpyxl import load_workbook

    wb = load_workbook(path, read_only=False)
    flagged = result.rows[result.rows["severity"] != "ok"]
    problems = wb["Problems"]
    ok = wb.sheetnames[0] == "Problems" and {"Requests", "Rows"} <= set(wb.sheetnames)
    ok &= problems.max_row - 1 == len(flagged) and wb["Rows"].max_row - 1 == len(result.rows)
    first = flagged.iloc[0] if len(flagged) else None
    if first is not None:
        link = problems.cell(row=2, column=9).hyperlink
        sheet = wb[wb.sheetnames[1]]
        cell = sheet.cell(row=int(first["row"]), column=5)
        ok &= link is not None and link.location.endswith(f"E{int(first['row'])}")
        ok &= cell.fill.fgColor.rgb.endswith("FFC7CE") and cell.comment is not None
    return "ok" if ok else "MISMATCH"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rows", type=int, default=73_000)
    ap.add_argument("--before", action="store_true", help="also time the replaced openpyxl implementation once")
    args = ap.parse_args()
    workbook, meta = cached_rates_xlsx(args.rows)
    frame, issues = read_rates([workbook])
    assert issues.empty and len(frame) == args.rows, (len(frame), len(issues))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        t0 = time.perf_counter()
        result = push(frame, workbook, work)
        pushed = time.perf_counter() - t0
        flagged = int((result.rows["severity"] != "ok").sum())
        print(f"{len(frame):,} prices, {len(result.rows):,} rows, {len(result.requests):,} requests "
              f"({result.counts}); {flagged:,} rows flagged; push took {pushed:.1f} s (not timed)")
        sheet = pd.read_excel(workbook, engine="calamine")
        out = work / "push.xlsx"
        measured, refs = Runs(), {"xlsxwriter": Runs(), "openpyxl": Runs()}
        for _ in range(args.runs):  # interleaved, so a change of load hits both alike
            measured.time(lambda: write_push_report(result, out))
            for engine, runs in refs.items():
                runs.time(lambda e=engine: plain_to_excel(work / f"plain-{e}.xlsx", sheet, result, e))
        print(f"write_push_report .xlsx: {measured}; read back: {check_report(out, result)}; "
              f"{out.stat().st_size / 2**20:.1f} MiB")
        for engine, runs in refs.items():
            (mw, mc), (rw, rc) = measured.median, runs.median
            print(f"reference DataFrame.to_excel ({engine}), same frames: {runs} -> ratio {mw / rw:.2f}x wall, "
                  f"{mc / rc:.2f}x CPU")
        for kind in ("html", "csv"):
            print(f"write_push_report .{kind}: {Runs().time(lambda k=kind: write_push_report(result, work / f'push.{k}'), args.runs)}")
        worst = push(frame, workbook, work, faults="5xx=1")
        n_worst = int((worst.rows["severity"] != "ok").sum())
        w = Runs().time(lambda: write_push_report(worst, work / "worst.xlsx"), max(1, args.runs // 2))
        print(f"worst case (every request failed, {n_worst:,} rows marked and commented): {w}")
        if args.before:
            print(f"before (openpyxl, commit d275c92), once: {Runs().time(lambda: before(result, work / 'b.xlsx'))}")
    print(f"measured {dt.date.today()}")


if __name__ == "__main__":
    main()
