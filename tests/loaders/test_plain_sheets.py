"""The bounds check before reading scans a sheet without a dimension whole; what it finds there (no formula,
no merged cell) spares the second pass over the sheet that looks for formulas without a saved value and
merged ranges. A sheet with either is still searched, and its cells still reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from loaders import read_rates, xlsx_xml
from loaders.xlsx_bounds import known_plain
from tests.loaders import crafted_workbooks as X

ROW = '<row r="2">' + "".join(X.inline(f"{c}2", v) for c, v in zip("ABCDEF", ["1001", "101", "RO", "2027-01-05", "99",
                                                                              "EUR"], strict=True)) + "</row>"
#: row 3: the price is a formula without a saved value (its cell is blank to the fast readers)
FORMULA = ('<row r="3">' + "".join(X.inline(f"{c}3", v) for c, v in zip("ABCD", ["1001", "101", "RO", "2027-01-06"],
                                                                         strict=True))
           + '<c r="E3"><{p}f>E2*2</{p}f></c>' + X.inline("F3", "EUR") + "</row>")
MERGED = '<mergeCells count="1"><mergeCell ref="E2:E3"/></mergeCells>'  # after the sheet's data, as Excel writes it


def _sheet(rows: str, after: str = "") -> str:
    return X.sheet_xml(X.header_row() + rows).replace(
        "<worksheet ", '<worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ').replace(
        "</sheetData>", "</sheetData>" + after)


@pytest.mark.parametrize(("rows", "after", "plain", "rule"), [
    (ROW, "", True, None),
    (ROW + FORMULA.format(p=""), "", False, "formula_no_value"),
    (ROW + FORMULA.format(p="x:"), "", False, "formula_no_value"),
    (ROW + '<row r="3">' + "".join(X.inline(f"{c}3", v) for c, v in zip("ABCDF", ["1001", "101", "RO", "2027-01-06",
                                                                                  "EUR"], strict=True)) + "</row>",
     MERGED, False, "merged_cells"),
], ids=["plain", "formula", "namespaced formula", "merged cells"])
def test_what_the_scan_finds_decides_whether_the_sheet_is_searched_again(rows: str, after: str, plain: bool,
                                                                         rule: str | None,
                                                                         tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = X.workbook(tmp_path / "w.xlsx", _sheet(rows, after))
    searched: list[str] = []
    scan = xlsx_xml.scan_blanks
    monkeypatch.setattr(xlsx_xml, "scan_blanks", lambda p, s: searched.append(s) or scan(p, s))
    _, issues = read_rates(path)
    assert known_plain(path, "Rates") is plain
    assert bool(searched) is not plain  # the second pass only where the first found something
    if rule is not None:
        assert rule in set(issues["rule"])
