"""Issue 22: what the pre-read check of a workbook (``loaders.xlsx_bounds``) costs, against reading
the same sheet with fastexcel, in the same run.

    .venv/bin/python benchmarks/bench_workbook_bounds.py [--rows 1000000] [--runs 5]

Two copies of the 1,000,000-row rates workbook of ``bench_end_to_end.py`` (``_rates_data.py``):
as generated (openpyxl's write-only mode writes no ``<dimension>``: the check scans the sheet for
its real extent) and with ``<dimension ref="A1:F1000001"/>`` put back (what Excel, xlsxwriter and
openpyxl's normal mode write: the check reads the declaration only). For each: the median of
``--runs`` checks (``check_archive`` + ``check_sheet``, in this process) and of 3 raw reads
(``fastexcel.read_excel(path).load_sheet(0).to_arrow()``, each in a fresh process, timed inside
it), and their ratio. CPU time is given next to wall time: on a shared machine it is what an idle
core would take.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

def with_dimension(path: Path, rows: int) -> Path:
    """A copy of ``path`` whose sheet declares ``A1:F{rows + 1}`` (written once, next to it)."""
    out = path.with_name(path.stem + "_dimension.xlsx")
    if out.exists():
        return out
    tmp = out.with_suffix(".tmp.xlsx")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                dst.writestr(info, src.read(info.filename))
                continue
            with src.open(info) as fh, dst.open(info.filename, "w", force_zip64=True) as out_fh:
                first = fh.read(1 << 20)
                at = first.index(b"<sheetPr")
                out_fh.write(first[:at] + f'<dimension ref="A1:F{rows + 1}"/>'.encode() + first[at:])
                while chunk := fh.read(1 << 22):
                    out_fh.write(chunk)
    tmp.replace(out)
    return out


def check_times(path: Path, runs: int) -> tuple[float, float]:
    from loaders import xlsx_bounds
    from loaders.xlsx_bounds import check_archive, check_sheet

    walls, cpus = [], []
    for _ in range(runs):
        xlsx_bounds._verdict.cache_clear()  # a check is remembered per file version: time the first one
        t0, c0 = time.perf_counter(), time.process_time()
        check_archive(path)
        check_sheet(path, "Rates")
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus)


def raw_read(path: Path, runs: int = 3) -> tuple[float, float]:
    from bench_read_rates import RAW_READ  # the same raw read as the other benchmarks

    done = [json.loads(subprocess.run([sys.executable, "-c", RAW_READ, str(path)], capture_output=True, text=True,
                                      check=True).stdout) for _ in range(runs)]
    return statistics.median(d["wall"] for d in done), statistics.median(d["cpu"] for d in done)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from _rates_data import cached_rates_xlsx

    plain, _ = cached_rates_xlsx(args.rows)
    declared = with_dimension(plain, args.rows)
    for label, path in (("no <dimension> (scanned)", plain), ("<dimension> declared", declared)):
        wall, cpu = check_times(path, args.runs)
        read_wall, read_cpu = raw_read(path)
        print(f"{label:26} check {wall * 1000:8.1f} ms wall {cpu * 1000:8.1f} ms cpu | fastexcel read "
              f"{read_wall:6.2f} s wall {read_cpu:6.2f} s cpu | check / read {wall / read_wall:6.1%} wall "
              f"{cpu / read_cpu:6.1%} cpu")


if __name__ == "__main__":
    main()
