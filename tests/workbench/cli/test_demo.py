"""`workbench demo` on a fresh folder, as a newcomer runs it (the real console script)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
from openpyxl import load_workbook

ROOT = Path(__file__).resolve().parents[3]  # run this checkout's code, not whatever the venv has installed


def test_demo_runs_end_to_end(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("workbench")
    out = tmp_path / "demo"
    run = subprocess.run([str(exe), "demo", "--out", str(out)], capture_output=True, text=True, timeout=600,
                         env={"PATH": str(exe.parent), "HOME": str(tmp_path), "COLUMNS": "120", "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "Demo complete." in run.stdout
    assert "7 of 1,278 price(s) changed" in run.stdout
    for name in ("rates-validation.html", "rates-validation.xlsx", "rates-validation.csv", "push-report.html",
                 "push-report.xlsx", "push-report.csv", "requests/manifest.csv"):
        assert (out / name).stat().st_size > 0, name
    rows = pd.read_csv(out / "push-report.csv", encoding="utf-8-sig")
    assert set(rows["outcome"]) == {"success"} and rows["ruid"].notna().all()
    assert load_workbook(out / "push-report.xlsx").sheetnames[:1] == ["Problems"]
    # a second run starts from a fresh sandbox and journal, so it shows the same
    again = subprocess.run([str(exe), "demo", "--out", str(out)], capture_output=True, text=True, timeout=600,
                           env={"PATH": str(exe.parent), "HOME": str(tmp_path), "COLUMNS": "120", "PYTHONPATH": str(ROOT)})
    assert again.returncode == 0 and "7 of 1,278 price(s) changed" in again.stdout
