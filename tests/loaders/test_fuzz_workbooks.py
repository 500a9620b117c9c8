"""Any workbook a person could make: the loader raises nothing but ``LoadError``, every issue is
located (source, sheet, row, column), and the command line prints no traceback.

Each column of a generated sheet gets random cell types: booleans, Excel error values, dates,
huge and tiny numbers, Unicode text, blank strings, formulas without a saved value; sheets get
title rows, merged cells, and hidden neighbours.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from expectations import validate_rates
from loaders import LoadError, read_rates

ROOT = Path(__file__).resolve().parents[2]
HEADERS = [
    ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"],
    ["hotel_id", "room_id", "rate_id", "night", "price", "currency", "guests", "DecimalPlaces"],
    ["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End", "Mon", "Sat", "AmountBeforeTax", "CurrencyCode"],
    ["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", dt.datetime(2027, 1, 1), "2027-01-02",
     dt.datetime(2027, 1, 3)],
    ["code", "name", "notes"],
]
ERRORS = ["#DIV/0!", "#N/A", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!"]

text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
cells = st.one_of(
    st.none(), st.booleans(), st.sampled_from(ERRORS), st.sampled_from(["", "   ", "TRUE", "false", "=A1*2", "=1/0"]),
    st.integers(min_value=-10**25, max_value=10**25), st.sampled_from([1e20, 1e308, -1e308, 5e-324, 1e-7, -0.0, 99.99]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.datetimes(min_value=dt.datetime(1900, 3, 1), max_value=dt.datetime(9999, 12, 31)),
    st.dates(min_value=dt.date(1900, 3, 1), max_value=dt.date(9999, 12, 31)),
    text, st.sampled_from(["1001", "101", "RO", "EUR", "JPY", "2027-01-05", "31/12/2027", "€ 99,50", "¥12,000",
                           "CHF 120.-", "£9", "1,250", "12O.50", "9999999999999999999"]),
)


@st.composite
def sheets(draw: st.DrawFn) -> dict:
    header = draw(st.sampled_from(HEADERS))
    width = len(header)
    column_kinds = [draw(st.lists(cells, min_size=1, max_size=3)) for _ in range(width)]  # each column's mix
    n_rows = draw(st.integers(min_value=0, max_value=8))
    body = [[draw(st.sampled_from(column_kinds[c])) if draw(st.integers(0, 4)) else draw(cells)
             for c in range(width)] for _ in range(n_rows)]
    titles = draw(st.lists(st.lists(st.one_of(st.none(), text), max_size=3), max_size=2))
    rows = [*titles, header, *body]
    merges = []
    if n_rows >= 2 and draw(st.booleans()):
        col = draw(st.integers(0, width - 1))
        first = len(titles) + 2 + draw(st.integers(0, n_rows - 2))
        letter = chr(65 + col)
        merges.append(f"{letter}{first}:{letter}{first + 1}")
    return {"rows": rows, "merges": merges, "state": draw(st.sampled_from(["visible", "visible", "hidden",
                                                                           "veryHidden"]))}


workbooks = st.lists(sheets(), min_size=1, max_size=3)


def write(path: Path, spec: list[dict]) -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for i, sheet in enumerate(spec):
        ws = wb.create_sheet(f"Sheet {i + 1}")
        for r in sheet["rows"]:
            ws.append(list(r))
        for ref in sheet["merges"]:
            ws.merge_cells(ref)
        if i:  # the first sheet stays visible (Excel needs one)
            ws.sheet_state = sheet["state"]
    wb.save(path)
    return path


def check(path: Path) -> None:
    try:
        frame, issues = read_rates(path)
    except LoadError as exc:
        assert str(exc) and exc.source == path.name
        return
    located = issues[["source", "sheet", "row", "column"]]
    assert not located.isna().any().any(), issues
    assert (issues["source"] == path.name).all() and (issues["row"] >= 1).all()
    assert set(issues["severity"]) <= {"error", "warning"}
    assert frame["amount_minor"].notna().all() and frame["date"].notna().all()


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workbooks)
def test_the_loader_raises_only_load_errors_and_locates_every_issue(spec: list[dict]) -> None:
    with tempfile.TemporaryDirectory() as d:
        check(write(Path(d) / "fuzz.xlsx", spec))


SAMPLE = [  # fixed examples of the same kinds, for the command line (a subprocess each)
    [{"rows": [["Price list"], HEADERS[0], [True, "#N/A", "=A1*2", 1e308, -0.0, "é"], [1001, "101", "RO", "2027-01-05",
                                                                                       "€ 99,50", "EUR"]],
      "merges": ["A3:A4"], "state": "visible"},
     {"rows": [HEADERS[0], [1001, "101", "RO", "2027-01-05", 1, "EUR"]], "merges": [], "state": "hidden"}],
    [{"rows": [HEADERS[3], [10**25, "101", "RO", "EUR", "TRUE", "#DIV/0!", 5e-324]], "merges": [], "state": "visible"}],
    [{"rows": [HEADERS[2], [1001, "A", "R", dt.datetime(9999, 12, 31), "2027-01-01", "x", None, "¥12,000", "JPY"]],
      "merges": [], "state": "visible"},
     {"rows": [HEADERS[4], ["a", "b", "c"]], "merges": [], "state": "visible"}],
]


def test_the_command_line_prints_no_traceback(tmp_path: Path) -> None:
    """One command over the samples (importing the rules costs seconds): it exits 1, not 2, so no file
    stopped it, and every file's issues are printed."""
    paths = [write(tmp_path / f"sample{i}.xlsx", spec) for i, spec in enumerate(SAMPLE)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "250"}
    out = subprocess.run([sys.executable, "-m", "workbench.cli", "validate", "rates", *map(str, paths), "--as-of",
                          "2026-12-01", "--show", "500"], capture_output=True, text=True, timeout=600, env=env)
    assert "Traceback" not in out.stdout + out.stderr, out.stdout + out.stderr
    assert out.returncode == 1 and out.stderr == "", out.stdout + out.stderr
    for path in paths:
        assert f"error   {path.name} " in out.stdout, out.stdout


def test_the_samples_issues_are_located_after_the_rules_too(tmp_path: Path) -> None:
    path = write(tmp_path / "s.xlsx", SAMPLE[0])
    frame, issues = read_rates(path)
    assert set(issues["rule"]) >= {"hidden_sheet", "not_a_number", "excel_error", "formula_no_value", "merged_cells"}
    validated = validate_rates(frame, as_of=dt.date(2026, 12, 1), load_issues=issues)
    assert len(validated) >= len(issues)
    assert not validated[["source", "sheet", "row", "column"]].isna().any().any(), validated
