"""Push reports tell the truth: rows skipped for errors are listed as ``not sent (errors)``, a push
that sent nothing still gets its report saying so and why, "every row was applied" only when it
was, and the XLSX keeps its marks, comments and links when read back."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import load_workbook

from loaders import read_registry
from workbench.flows.rates import check_rates, push_rates
from workbench.paths import SAMPLES
from workbench.platform.registry import fetch_registry
from workbench.reports.push import NOT_SENT, NothingSent, write_push_report
from workbench.sandbox import run_sandbox
from workbench.wording import count

AS_OF = dt.date(2026, 12, 1)
RATES = [SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"]
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple]:
    """A sandbox, its registry, and a push of the samples with --skip-invalid."""
    tmp = tmp_path_factory.mktemp("push-reports")
    with run_sandbox(tmp / "sb", today=AS_OF) as sb:
        # the registry workbook gives what roomrates does not send (currency, FollowsPrice, occupancy)
        registry = read_registry(SAMPLES / "registry.xlsx").merge(
            fetch_registry(sb.settings, [1000001, 1000002, 1000003, 1000004]))
        check = check_rates(RATES, registry=registry, as_of=AS_OF)
        result = push_rates(check, sb.settings, journal=tmp / "j.sqlite", skip_invalid=True, progress=False)
        yield sb, registry, check, result, tmp


def error_rows(check) -> set[tuple[str, str, int]]:
    e = check.errors
    return {(s, h or "", int(r)) for s, h, r in zip(e["source"], e["sheet"].fillna(""), e["row"], strict=True)}


def test_rows_skipped_for_errors_are_counted_and_listed_as_not_sent(platform, tmp_path: Path) -> None:
    _, _, check, result, _ = platform
    assert result.ok and result.skipped_rows > 0
    assert f"{count(result.skipped_rows, 'price')} with errors not sent" in result.summary()
    not_sent = result.not_sent
    assert set(zip(not_sent["source"], not_sent["sheet"], not_sent["row"].astype(int), strict=True)) == error_rows(check)
    assert set(not_sent["outcome"]) == {NOT_SENT} and set(not_sent["severity"]) == {"error"}
    typo = not_sent[(not_sent["sheet"] == "Amsterdam") & (not_sent["row"] == 272)].iloc[0]
    assert typo["codes"] == "not_a_number" and "12O.50" in typo["message"]

    csv = pd.read_csv(write_push_report(result, tmp_path / "push.csv"), encoding="utf-8-sig")
    assert len(csv) == len(result.rows) + len(not_sent)
    sent = result.rows[result.rows["outcome"] == "success"]
    assert (csv["outcome"] == NOT_SENT).sum() == len(not_sent) and (csv["outcome"] == "success").sum() == len(sent)
    html = write_push_report(result, tmp_path / "push.html").read_text(encoding="utf-8")
    assert f"<b>{len(not_sent)}</b>rows not sent (errors)" in html and "12O.50" in html
    assert "Every row was applied" not in html


def test_every_row_was_applied_is_said_only_when_it_is_true(platform, tmp_path: Path) -> None:
    sb, registry, _, _, tmp = platform
    clean = tmp_path / "clean.csv"
    pd.DataFrame({"HotelCode": 1000001, "InvTypeCode": "101", "RatePlanCode": "5001",
                  "Date": [f"2027-06-0{d}" for d in range(1, 5)], "AmountAfterTax": "199.00",
                  "CurrencyCode": "EUR"}).to_csv(clean, index=False)
    check = check_rates([clean], registry=registry, as_of=AS_OF)
    first = push_rates(check, sb.settings, journal=tmp_path / "j.sqlite", progress=False)
    html = write_push_report(first, tmp_path / "first.html").read_text(encoding="utf-8")
    assert first.ok and first.not_sent.empty and "Every row was applied without a warning." in html
    again = push_rates(check, sb.settings, journal=tmp_path / "j.sqlite", progress=False)  # nothing changed
    html = write_push_report(again, tmp_path / "again.html").read_text(encoding="utf-8")
    assert again.requests.empty and "Every row was applied" not in html and "No row was sent in this run." in html


def test_the_xlsx_report_read_back_keeps_marks_comments_and_links(platform, tmp_path: Path) -> None:
    _, _, _, result, _ = platform
    wb = load_workbook(write_push_report(result, tmp_path / "push.xlsx"))
    assert wb.sheetnames[0] == "Problems" and wb.sheetnames[-2:] == ["Requests", "Rows"]
    # two files: each sheet is named after its file (one Excel file alone keeps its sheet names)
    assert wb.sheetnames[1:-2] == ["rates Amsterdam", "rates Krakow", "rates Tokyo OBP", "lisbon_seasons"]
    assert wb["Rows"].max_row == 1 + len(result.rows) + len(result.not_sent)
    assert wb["Requests"].max_row == 1 + len(result.requests)
    assert [c.value for c in wb["Requests"][1]][:3] == ["request_id", "hotel", "month"]
    problems = list(wb["Problems"].iter_rows(min_row=2))
    flagged = int((result.rows["severity"] != "ok").sum())  # the repeat held back (a warning); the rest applied
    assert len(problems) == len(result.not_sent) + flagged
    row = next(r for r in problems if r[1].value == "Amsterdam" and r[2].value == 272)
    assert row[6].value == "error" and "not_a_number" in row[5].value
    assert row[8].hyperlink is not None and row[8].hyperlink.location == "'rates Amsterdam'!E272"
    cell = wb["rates Amsterdam"]["E272"]
    assert cell.value == "12O.50" and cell.fill.fgColor.rgb.endswith("FFC7CE")
    assert cell.comment is not None and "not_a_number" in cell.comment.text
    sheet = wb["rates Amsterdam"]
    assert sheet["D2"].is_date and sheet["A1"].value == "HotelCode"
    assert sheet["E2"].comment is None and sheet["E2"].fill.fgColor.rgb in (None, "00000000")
    wide = wb["rates Krakow"]  # a cell-level error in the wide layout: the night's column is marked
    marked = [c.coordinate for r in wide.iter_rows() for c in r if c.comment is not None]
    assert marked and all(wide[m].fill.fgColor.rgb.endswith("FFC7CE") for m in marked)


def test_a_push_that_sent_nothing_still_writes_every_report_saying_why(tmp_path: Path) -> None:
    env_file = tmp_path / "target.env"
    env_file.write_text("WORKBENCH_BASE_URL=https://127.0.0.1:9\n")  # never reached: errors block first
    reports = [tmp_path / "r.html", tmp_path / "r.csv", tmp_path / "r.xlsx"]
    args = ["push", "rates", *map(str, RATES), "--env-file", str(env_file), "--as-of", "2026-12-01",
            "--no-fetch-registry", "--registry", str(SAMPLES / "registry.xlsx")]
    run = subprocess.run([sys.executable, "-m", "workbench.cli", *args, *(a for r in reports for a in ("--report", str(r)))],
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"},
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Nothing sent:" in run.stdout and all(r.stat().st_size for r in reports)
    html = reports[0].read_text(encoding="utf-8")
    assert "<b>Nothing was sent</b>10 errors block the push" in html and "12O.50" in html
    csv = pd.read_csv(reports[1], encoding="utf-8-sig")
    assert csv["outcome"].iloc[0] == "nothing sent" and "--skip-invalid" in csv["message"].iloc[0]
    assert (csv["outcome"] == NOT_SENT).sum() == 10
    problems = load_workbook(reports[2])["Problems"]
    assert problems["H2"].value.startswith("Nothing was sent: 10 errors block the push")


def test_a_dry_run_report_and_a_report_without_a_check_say_nothing_was_sent(platform, tmp_path: Path) -> None:
    _, _, check, _, _ = platform
    html = write_push_report(NothingSent("the settings cannot be used", None, [], "https://x"),
                             tmp_path / "n.html").read_text(encoding="utf-8")
    assert "<b>Nothing was sent</b>the settings cannot be used" in html and "No row was sent in this run." in html
    dry = write_push_report(NothingSent("a dry run", check.not_sent(), check.files), tmp_path / "d.csv")
    rows = pd.read_csv(dry, encoding="utf-8-sig")
    assert rows["outcome"].tolist() == ["nothing sent"] + [NOT_SENT] * len(check.not_sent())
    one = check.not_sent()[lambda f: f["source"] == "rates.xlsx"]
    wb = load_workbook(write_push_report(NothingSent("a dry run", one, [SAMPLES / "rates.xlsx"]), tmp_path / "d.xlsx"))
    assert wb.sheetnames == ["Problems", "Amsterdam", "Krakow", "Tokyo OBP", "Requests", "Rows"]  # one workbook: its names
    assert wb["Amsterdam"]["E272"].comment is not None


@pytest.mark.parametrize(("inputs", "settings", "reason"), [
    (["nowhere.xlsx"], "WORKBENCH_BASE_URL=https://127.0.0.1:9\n", "nowhere.xlsx"),
    ([str(SAMPLES / "rates.xlsx")], "WORKBENCH_BASE_URL=https://127.0.0.1:9\nWORKBENCH_CA_BUNDLE=/gone/ca.pem\n",
     "WORKBENCH_CA_BUNDLE"),
])
def test_a_push_that_cannot_start_still_writes_its_reports(tmp_path: Path, inputs: list[str], settings: str,
                                                           reason: str) -> None:
    env_file = tmp_path / "target.env"
    env_file.write_text(settings)
    reports = [tmp_path / "r.html", tmp_path / "r.xlsx", tmp_path / "r.csv"]
    run = subprocess.run([sys.executable, "-m", "workbench.cli", "push", "rates", *inputs, "--env-file", str(env_file),
                          *(a for r in reports for a in ("--report", str(r)))],
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"},
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2 and reason in run.stderr and "Traceback" not in run.stderr, run.stderr
    html = reports[0].read_text(encoding="utf-8")
    assert "<b>Nothing was sent</b>" in html and reason in html
    assert load_workbook(reports[1])["Problems"]["H2"].value.startswith("Nothing was sent: ")
    assert pd.read_csv(reports[2], encoding="utf-8-sig")["outcome"].tolist() == ["nothing sent"]


def test_marks_land_on_the_named_column_below_title_rows(write_xlsx, tmp_path: Path) -> None:
    from workbench.reports.marked_values import write_marked_values

    book = write_xlsx({"Prices": [["Summer prices 2027"], [],
                                  ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax"],
                                  [1000001, "101", "5001", dt.date(2027, 6, 1), 120],
                                  [1000001, "101", "5001", dt.date(2027, 6, 2), "12O"]]})
    marks = pd.DataFrame([{"source": book.name, "sheet": "Prices", "row": 5, "column": "AmountAfterTax",
                           "value": "12O", "rule": "not_a_number", "severity": "error", "message": "not a number"}])
    wb = load_workbook(write_marked_values(tmp_path / "m.xlsx", [book], marks))
    assert wb.sheetnames == ["Problems", "Prices"]
    assert wb["Prices"]["E5"].comment is not None and wb["Prices"]["A5"].comment is None
    assert wb["Prices"]["A1"].value == "Summer prices 2027" and wb["Prices"]["D4"].is_date
    assert wb["Problems"]["I2"].hyperlink.location == "'Prices'!E5"
