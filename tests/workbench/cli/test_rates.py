"""The rates commands as a person runs them: exit codes, reports, dry-run output."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
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
    assert "10 errors" in result.output and "Not fully checked" not in result.output
    assert all(r.exists() and r.stat().st_size > 0 for r in reports)


def test_validate_exit_0_when_clean(write_csv) -> None:
    rows = [["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]]
    rows += [[1, "A", "R", f"2027-01-{d:02d}", "100", "EUR"] for d in range(1, 5)]
    result = runner.invoke(app, ["validate", "rates", str(write_csv(rows)), "--as-of", "2026-12-01"])
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output


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
    assert list(manifest.columns)[:6] == ["file", "hotel", "month", "messages", "cells", "source_rows"]
    assert {"kind", "sha256"} <= set(manifest.columns) and set(manifest["kind"]) == {"rates"}  # every kind's folder
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


def test_validate_without_a_registry_names_the_rules_that_did_not_run(write_csv) -> None:
    rows = [["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"],
            [1, "A", "R", "2027-01-01", "100", "EUR"]]
    result = runner.invoke(app, ["validate", "rates", str(write_csv(rows)), "--as-of", "2026-12-01"])
    assert result.exit_code == 0, result.output
    line = " ".join(result.output.split())
    assert "Not fully checked (1 property: 1):" in line and "--registry FILE" in line
    for rule in ("property_currency", "guests_pricing_model", "rate_not_active_for_room", "child_rate_follows_price"):
        assert rule in line


@pytest.mark.parametrize("command", [["validate", "rates"], ["push", "rates", "--dry-run", "out"]])
def test_a_registry_that_is_not_a_registry_exits_2_naming_the_file_and_what_is_expected(command, tmp_path) -> None:
    args = [*command[:2], *RATES, "--as-of", "2026-12-01", "--registry", RATES[1], *command[2:]]
    result = runner.invoke(app, [a.replace("out", str(tmp_path / "out")) for a in args])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "`lisbon_seasons.csv` is not a registry" in text and "Traceback" not in text
    assert "properties (`HotelCode`, `CurrencyCode`, `PricingModel`)" in text and "`FollowsPrice`" in text


def test_dry_run_spells_weekdays_as_the_setting_says_and_skips_repeats(tmp_path, monkeypatch) -> None:
    out = tmp_path / "requests"
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setenv("WORKBENCH_WEEKDAY_SPELLING", "spec")
    result = runner.invoke(app, ["push", "rates", *RATES, *COMMON, "--dry-run", str(out), "--skip-invalid"])
    assert result.exit_code == 0, result.output
    assert "1 repeated price not written (the first is)" in " ".join(result.output.split())
    bodies = b"".join(p.read_bytes() for p in out.glob("*.xml"))
    assert b' Wed="' in bodies and b"Weds=" not in bodies
    monkeypatch.setenv("WORKBENCH_WEEKDAY_SPELLING", "long")
    bad = runner.invoke(app, ["push", "rates", *RATES, *COMMON, "--dry-run", str(out), "--skip-invalid"])
    assert bad.exit_code == 2 and "WORKBENCH_WEEKDAY_SPELLING=`long`" in " ".join(bad.output.split())


def test_push_reports_a_property_the_platform_refuses_and_exits_1(tmp_path, write_csv) -> None:
    from workbench.sandbox import run_sandbox

    rows = [["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"],
            [1000001, "101", "5001", "2027-01-01", "100", "EUR"], [1000009, "901", "9901", "2027-01-01", "90", "EUR"]]
    path = write_csv(rows)
    with run_sandbox(tmp_path / "sb", today=dt.date(2026, 12, 1)) as sb:
        result = runner.invoke(app, ["push", "rates", str(path), "--as-of", "2026-12-01", "--env-file",
                                     str(sb.connection_file), "--journal", str(tmp_path / "j.sqlite"),
                                     "--registry", str(SAMPLES / "registry.xlsx"), "--report",
                                     str(tmp_path / "push.csv")])
    text = " ".join(result.output.split())
    assert result.exit_code == 1, result.output
    assert "1000009" in text and "reading room rates hasn't been enabled for hotel 1000009" in text
    report = pd.read_csv(tmp_path / "push.csv", encoding="utf-8-sig")
    refused = report[report["hotel"] == 1000009]
    assert refused[["row", "column", "outcome"]].values.tolist() == [[3, "HotelCode", "rejected"]]
    assert report.loc[report["hotel"] == 1000001, "outcome"].tolist() == ["success"]
