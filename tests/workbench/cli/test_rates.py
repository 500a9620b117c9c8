"""The rates commands as a person runs them: exit codes, reports, dry-run output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
from lxml import etree
from typer.testing import CliRunner

from workbench.cli import app
from workbench.paths import SAMPLES

runner = CliRunner()
RATES = [str(SAMPLES / "rates.xlsx"), str(SAMPLES / "lisbon_seasons.csv")]
COMMON = ["--as-of", "2026-12-01", "--registry", str(SAMPLES / "registry.xlsx")]


def test_validate_exit_1_with_errors_and_writes_every_report(tmp_path: Path) -> None:
    reports = [tmp_path / "r.csv", tmp_path / "r.xlsx", tmp_path / "r.html"]
    args = ["validate", "rates", *RATES, *COMMON]
    for r in reports:
        args += ["--report", str(r)]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "11 error(s)" in result.output
    assert all(r.exists() and r.stat().st_size > 0 for r in reports)


def test_validate_exit_0_when_clean(write_csv) -> None:
    rows = [["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]]
    rows += [[1, "A", "R", f"2027-01-{d:02d}", "100", "EUR"] for d in range(1, 5)]
    result = runner.invoke(app, ["validate", "rates", str(write_csv(rows)), "--as-of", "2026-12-01"])
    assert result.exit_code == 0, result.output
    assert "0 error(s)" in result.output


def test_validate_exit_2_when_the_input_cannot_be_used(write_csv, tmp_path: Path) -> None:
    missing = runner.invoke(app, ["validate", "rates", str(tmp_path / "none.xlsx")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    no_cols = runner.invoke(app, ["validate", "rates", str(write_csv([["HotelCode"], [1]]))])
    assert no_cols.exit_code == 2 and "Traceback" not in no_cols.output
    bad_date = runner.invoke(app, ["validate", "rates", *RATES, "--as-of", "1st of May"])
    assert bad_date.exit_code == 2 and "YYYY-MM-DD" in bad_date.output
    bad_sheet = runner.invoke(app, ["validate", "rates", RATES[0], "--sheet", "Paris"])
    assert bad_sheet.exit_code == 2 and "has no sheet `Paris`" in bad_sheet.output


def test_push_dry_run_is_blocked_by_errors_unless_skipping(tmp_path: Path) -> None:
    out = tmp_path / "requests"
    blocked = runner.invoke(app, ["push", "rates", *RATES, *COMMON, "--dry-run", str(out)])
    assert blocked.exit_code == 1 and "--skip-invalid" in blocked.output
    assert not list(out.glob("*.xml")) if out.exists() else True
    result = runner.invoke(app, ["push", "rates", *RATES, *COMMON, "--dry-run", str(out), "--skip-invalid"])
    assert result.exit_code == 0, result.output
    manifest = pd.read_csv(out / "manifest.csv")
    assert list(manifest.columns) == ["file", "hotel", "month", "messages", "cells", "source_rows"]
    assert sorted(p.name for p in out.glob("*.xml")) == sorted(manifest["file"])
    assert manifest.groupby(["hotel", "month"]).size().max() == 1
    first = etree.parse(str(out / manifest["file"][0])).getroot()
    assert first.tag == "{http://www.opentravel.org/OTA/2003/05}OTA_HotelRateAmountNotifRQ"


def test_console_script_help_is_fast_and_lists_commands() -> None:
    exe = Path(sys.executable).with_name("workbench")
    out = subprocess.run([str(exe), "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    for command in ("validate", "push", "demo"):
        assert command in out.stdout
