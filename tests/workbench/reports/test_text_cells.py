"""Text from the data is written as text in every export: hostile cell values (formulas, a
``<script>``) through each report, read back with real readers.

CSV: a text starting with ``=``, ``+``, ``-``, ``@``, tab or CR has a single quote in front
(OWASP), numbers stay numbers; XLSX: string cells (``data_type`` ``s``), no ``<f>`` in any sheet;
HTML and Markdown: escaped."""

from __future__ import annotations

import csv
import json
import re
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest
import xlsxwriter
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook
from typer.testing import CliRunner

from loaders import Registry
from tests.workbench.health.conftest import AS_OF, nights, write_journal
from workbench import property_health, write_health_report
from workbench.cli.notify import notify_app
from workbench.config import Settings
from workbench.flows.plan import plan_rates
from workbench.flows.rates import check_rates
from workbench.notify import NotifyConfig, NotifyService
from workbench.notify.store import Notification
from workbench.reports import NothingSent, ReportContext, write_push_report, write_report, write_table
from workbench.reports.cells import FORMULA_STARTS, csv_safe, neutralise_csv
from workbench.reports.health import write_letters
from workbench.reports.plan import write_plan_report

LINK = '=HYPERLINK("http://evil.example","click")'
SCRIPT = "<script>alert(1)</script>"
FORMULAS = [LINK, "+1+1", "-2+3", "@SUM(A1:A2)", "\tTAB", "\rCR"]
HOSTILE = [*FORMULAS, SCRIPT]


# --- reading back ----------------------------------------------------------------------------------

def csv_fields(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return [field for row in csv.reader(fh) for field in row]


def assert_csv_safe(path: Path, expected: list[str]) -> None:
    """No field a spreadsheet would run (a number written as a number aside); each of ``expected``
    is there with its quote."""
    fields = csv_fields(path)
    for field in fields:
        if field.startswith(FORMULA_STARTS):
            assert re.fullmatch(r"-\d+(\.\d+)?", field), f"{field!r} in {path.name} would run as a formula"
    for value in expected:
        assert "'" + value in fields, f"{value!r} not written as '{value!r} in {path.name}"


def xlsx_cells(path: Path) -> Iterator[object]:
    wb = load_workbook(path)
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            yield from row


def assert_xlsx_text(path: Path, expected: list[str]) -> None:
    """No formula anywhere (openpyxl's ``data_type`` and the sheets' XML); each of ``expected`` is a
    string cell holding exactly it."""
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            if name.startswith("xl/worksheets/sheet"):
                assert not re.search(rb"<(?:\w+:)?f[\s>/]", zf.read(name)), f"a formula in {name}"
    cells = list(xlsx_cells(path))
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    texts = {c.value for c in cells if c.data_type == "s"}
    for value in expected:
        assert value.replace("\r", "\n") in {str(t).replace("\r", "\n") for t in texts}, value


def assert_html_escaped(text: str, shown: bool = True) -> None:
    assert SCRIPT not in text
    assert ("&lt;script&gt;alert(1)&lt;/script&gt;" in text) == shown


# --- write_table (notify and cars exports) ---------------------------------------------------------

def hostile_frame() -> pd.DataFrame:
    return pd.DataFrame({"text": HOSTILE, "number": [-5, -1, 0, 1, 2, 3, 4],
                         "mixed": ["=1+1", -7, None, "ok", 2.5, "@x", "-"],
                         "typed": pd.Series(HOSTILE, dtype="string")})


def test_write_table_csv_quotes_texts_and_keeps_numbers(tmp_path: Path) -> None:
    path = write_table(hostile_frame(), tmp_path / "t.csv")
    assert_csv_safe(path, [*FORMULAS, "=1+1", "@x", "-"])
    back = pd.read_csv(path, encoding="utf-8-sig")
    assert back["number"].tolist() == [-5, -1, 0, 1, 2, 3, 4]  # numbers are not text: as they were
    assert "-7" in csv_fields(path)


def test_write_table_xlsx_writes_string_cells(tmp_path: Path) -> None:
    path = write_table(hostile_frame(), tmp_path / "t.xlsx")
    assert_xlsx_text(path, HOSTILE + ["=1+1"])
    numbers = [c.value for c in xlsx_cells(path) if c.column == 2 and c.row > 1]
    assert numbers == [-5, -1, 0, 1, 2, 3, 4]


def test_notify_list_and_requests_exports(tmp_path: Path) -> None:
    """Notification types and payload fields come from the internet."""
    state = tmp_path / "s"
    now = datetime.now(UTC)
    with NotifyService(state, NotifyConfig()) as svc:
        body = json.dumps({"metadata": {"uuid": "u1", "type": LINK, "payloadVersion": "1.0"},
                           "payload": {"note": "@SUM(A1)"}})
        svc.store.save(Notification("u1", LINK, "@1.0", now.timestamp(), "+cns", body)).result(10)
    runner = CliRunner()
    for out in ("inbox.csv", "inbox.xlsx"):
        result = runner.invoke(notify_app, ["list", "--state-dir", str(state), "--out", str(tmp_path / out)])
        assert result.exit_code == 0, result.output
    assert_csv_safe(tmp_path / "inbox.csv", [LINK, "@1.0", "+cns"])
    assert_xlsx_text(tmp_path / "inbox.xlsx", [LINK, "@1.0", "+cns"])


# --- validation, push and plan reports from a rates file with hostile cells ------------------------

def hostile_rates(folder: Path, suffix: str) -> Path:
    rows = [["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"],
            ["1000001", "=1+1", "@5001", "2027-03-01", LINK, "EUR"],
            ["1000001", "101", "5001", "2027-03-02", "-2+3", "EUR"],
            ["1000001", "101", "5001", "2027-03-03", "120.00", SCRIPT]]
    path = folder / f"rates{suffix}"
    if suffix == ".csv":
        pd.DataFrame(rows[1:], columns=rows[0]).to_csv(path, index=False)
        return path
    wb = xlsxwriter.Workbook(str(path))  # every cell a string cell: the text `=HYPERLINK(...)`, not a formula
    ws = wb.add_worksheet("Rates")
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            ws.write_string(i, j, value)
    wb.close()
    return path


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_validation_reports(suffix: str, tmp_path: Path) -> None:
    source = hostile_rates(tmp_path, suffix)
    check = check_rates([source], as_of="2026-12-01")
    assert {LINK, "-2+3", SCRIPT} <= set(check.issues["value"].dropna())
    out = tmp_path / "out"
    context = ReportContext(files=[source])
    assert_csv_safe(write_report(check.issues, out / "issues.csv", context, rates=check.frame), [LINK, "-2+3"])
    # the analyst's sheet copied (CSV) or marked in place (XLSX), the Issues sheet: all text
    assert_xlsx_text(write_report(check.issues, out / "issues.xlsx", context, rates=check.frame),
                     [LINK, "-2+3", "=1+1", "@5001"])
    assert_html_escaped(write_report(check.issues, out / "issues.html", context, rates=check.frame)
                        .read_text(encoding="utf-8"))


def test_push_reports_of_a_push_that_sent_nothing(tmp_path: Path) -> None:
    source = hostile_rates(tmp_path, ".csv").rename(tmp_path / "@rates.csv")  # a file name is data too
    check = check_rates([source], as_of="2026-12-01")
    nothing = NothingSent("errors in the sheet", not_sent=check.not_sent(), files=[source])
    assert_csv_safe(write_push_report(nothing, tmp_path / "push.csv"), ["@rates.csv"])
    assert_xlsx_text(write_push_report(nothing, tmp_path / "push.xlsx"), [LINK, "-2+3", "=1+1", "@5001"])
    assert_html_escaped(write_push_report(nothing, tmp_path / "push.html").read_text(encoding="utf-8"), shown=False)


def test_plan_reports(tmp_path: Path) -> None:
    frame = pd.DataFrame({"HotelCode": 1000001, "InvTypeCode": "=1+1", "RatePlanCode": "@5001",
                          "Date": ["2027-03-01", "2027-03-02"], "AmountAfterTax": "120.00", "CurrencyCode": "EUR"})
    plan = plan_rates(check_rates(frame, as_of="2026-12-01"), Settings(), journal=tmp_path / "j.sqlite")
    assert_csv_safe(write_plan_report(plan, tmp_path / "plan.csv"), ["=1+1", "@5001"])
    assert_xlsx_text(write_plan_report(plan, tmp_path / "plan.xlsx"), ["=1+1", "@5001"])
    assert "=1+1" in write_plan_report(plan, tmp_path / "plan.html").read_text(encoding="utf-8")


# --- health reports and letters: names properties typed themselves ---------------------------------

@pytest.fixture
def hostile_health(tmp_path: Path):
    registry = Registry.from_frames(
        properties=pd.DataFrame([{"hotel_code": 1, "hotel_name": SCRIPT}]),
        rooms=pd.DataFrame([{"hotel_code": 1, "inv_type_code": "101", "room_name": LINK}]),
        room_rates=pd.DataFrame([{"hotel_code": 1, "inv_type_code": "101", "rate_plan_code": "5001",
                                  "rate_name": "@SUM(A1) [click](javascript:alert(1)) **x**", "active": True,
                                  "parent_rate_plan_code": None, "follows_price": False, "read_only": False}]))
    journal = write_journal(tmp_path / "journal.sqlite", nights("2026-12-05", "2027-01-20"))
    return property_health(None, as_of=AS_OF, journal=journal, registry=registry, hotels=[1])


def test_health_reports(hostile_health, tmp_path: Path) -> None:
    assert len(hostile_health.findings)
    assert_csv_safe(write_health_report(hostile_health, tmp_path / "health.csv"), [LINK])
    assert_xlsx_text(write_health_report(hostile_health, tmp_path / "health.xlsx"), [LINK])
    assert_html_escaped(write_health_report(hostile_health, tmp_path / "health.html").read_text(encoding="utf-8"))


def test_letters_escape_names_in_markdown_and_html(hostile_health, tmp_path: Path) -> None:
    written = {p.suffix: p.read_text(encoding="utf-8") for p in write_letters(hostile_health, tmp_path / "letters")}
    assert_html_escaped(written[".html"])
    md = written[".md"]
    assert_html_escaped(md)  # Markdown renderers pass raw HTML through
    assert "[click](javascript" not in md and r"\[click\](javascript" in md
    assert "**x**" not in md and r"\*\*x\*\*" in md
    assert md.startswith("# &lt;script&gt;alert(1)&lt;/script&gt;: what guests can and cannot book")


# --- the rule itself -------------------------------------------------------------------------------

@given(st.text(max_size=30))
def test_a_neutralised_text_never_starts_a_formula_and_keeps_the_text(text: str) -> None:
    shown = neutralise_csv(text)
    assert isinstance(shown, str)
    assert not shown.startswith(FORMULA_STARTS)
    assert shown == text or shown == "'" + text


@given(st.lists(st.one_of(st.integers(), st.floats(allow_nan=False), st.text(max_size=8)), min_size=1, max_size=8))
def test_csv_safe_changes_only_texts(values: list[object]) -> None:
    frame = pd.DataFrame({"v": pd.Series(values, dtype=object)})
    out = csv_safe(frame)["v"].tolist()
    for before, after in zip(values, out, strict=True):
        assert after == neutralise_csv(before)
