"""A sheet the bounds check scanned whole without finding a boolean cell has its number columns read typed
(fastexcel writing a million numbers as text costs more than the rest of the reading): what the loaders make
of it must be exactly what they make of the same sheet read as before, number columns asked for as text.

The scan looks for each thing by its own RE2 search (each skipping to where its thing can start): a boolean,
a formula, a merged cell, a stray cell past the bounds, a cell without its position are each still found
wherever they are, a chunk's seam included, whatever else the chunk holds.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import fastexcel
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from loaders import read_availability, read_rates, workbooks, xlsx_bounds
from loaders.errors import LoadError
from tests.loaders import crafted_workbooks as X

AVAIL = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "Closed", "MinStayArrival"]
RATES = [*X.HEADER, "NumberOfGuests", "DecimalPlaces"]
ERROR = object()  # an Excel error value (#DIV/0!) in the cell

#: what people's number cells hold: whole and decimal numbers, numbers with more digits than Excel shows
#: (129.95000000000002, 0.1 + 0.2), ties at the ninth decimal, numbers past 15 digits, text that looks like a
#: number, words, dates and times, Excel errors, blanks
CELLS: list[object] = [5, 0, 1, 129.95, 0.1 + 0.2, 129.95000000000002, 123456789.123456789, 1e20, -3, -2.5, -0.0,
                       2 ** 53 + 1, 1 / 1024, 3 / 1024, 0.000123456789012345678, 1e-300, 99999999999999999, 12.0,
                       "5 ", " 7", "seven", "1,5", dt.datetime(2027, 1, 5, 12, 30), dt.date(2027, 1, 6),
                       dt.time(12, 30), ERROR, None, "", 1e16 + 2, 4.35, 2.675, 1.5e300]


def _add_sheet(wb: Workbook, title: str, header: list[str], rows: list[list[object]]) -> None:
    ws = wb.create_sheet(title)
    ws.append(header)
    for row in rows:
        ws.append(["#DIV/0!" if v is ERROR else v for v in row])
        for cell, v in zip(ws[ws.max_row], row, strict=False):
            if v is ERROR:
                cell.data_type = "e"


def _workbook(path: Path, sheets: dict[str, tuple[list[str], list[list[object]]]]) -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for title, (header, rows) in sheets.items():
        _add_sheet(wb, title, header, rows)
    wb.save(path)
    return path


def _avail_rows(values: list[object]) -> list[list[object]]:
    """One row a night: ``values`` in RoomsToSell, MinStayArrival and HotelCode in turn (a blank where not)."""
    out = []
    for i, v in enumerate(values):
        night = (dt.date(2027, 1, 1) + dt.timedelta(days=i)).isoformat()
        out.append([1001, "DBL", "BAR", night, v, 0, 2])
        out.append([1001, "DBL", "BAR", night, 3, None, v])
        out.append([v, "DBL", "BAR", night, 4, None, None])
    return out


def _rates_rows(values: list[object]) -> list[list[object]]:
    out = []
    for i, v in enumerate(values):
        night = (dt.date(2027, 1, 1) + dt.timedelta(days=i)).isoformat()
        out.append([1001, "101", "RO", night, v, "EUR", 2, None])
        out.append([1001, "102", "RO", night, 99.5, "EUR", v, None])
        out.append([1001, "103", "RO", night, 9950, "EUR", 2, v])
    return out


def _read_both(read, path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, bool], tuple, tuple]:  # noqa: ANN001
    """(whether each sheet's number columns were read typed, what ``read`` makes of the file using the
    scan's knowledge, and without it)."""
    typed: dict[str, bool] = {}
    load = workbooks.load_typed

    def spy(reader, name, *args, booleans=True, **kw):  # noqa: ANN001, ANN002, ANN003, ANN202
        typed[name] = not booleans
        return load(reader, name, *args, booleans=booleans, **kw)

    with monkeypatch.context() as m:
        m.setattr(workbooks, "load_typed", spy)
        used = read(path)
    with monkeypatch.context() as m:
        m.setattr(xlsx_bounds, "known_no_booleans", lambda _p, _s: False)
        before = read(path)
    return typed, used, before


def _same(a: tuple[pd.DataFrame, pd.DataFrame], b: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    pd.testing.assert_frame_equal(a[0], b[0], check_dtype=True)
    pd.testing.assert_frame_equal(a[1], b[1], check_dtype=True)


def test_availability_is_read_the_same_with_number_columns_typed(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = _workbook(tmp_path / "a.xlsx", {
        "Plain": (AVAIL, _avail_rows(CELLS)),
        "Flags": (AVAIL, _avail_rows([5, 1, 0, 2.5]) + [[1001, "DBL", "BAR", "2027-03-01", 3, True, 1]]),
    })
    typed, used, before = _read_both(read_availability, path, monkeypatch)
    assert typed == {"Plain": True, "Flags": False}  # the sheet holding a boolean is read as before
    _same(used, before)
    assert len(used[0]) > 3 * len(CELLS) and not used[1].empty  # values read, and cells reported


def test_rates_are_read_the_same_with_number_columns_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _workbook(tmp_path / "r.xlsx", {
        "Plain": (RATES, _rates_rows(CELLS)),
        "Flags": (RATES + ["Active"], [[*row, True] for row in _rates_rows([5, 129.95, 0.1 + 0.2])]),
    })
    typed, used, before = _read_both(read_rates, path, monkeypatch)
    assert typed == {"Plain": True, "Flags": False}  # a boolean in another column: read as before
    _same(used, before)
    assert len(used[0]) > len(CELLS) and not used[1].empty  # values read, and cells reported


def test_a_number_column_fastexcel_types_as_dates_is_read_as_text(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """fastexcel types a column from its first rows: a count below a thousand dates would become a date."""
    values: list[object] = [dt.datetime(2027, 1, 1)] * 1200 + [4.25, 7]
    path = _workbook(tmp_path / "a.xlsx", {"S": (AVAIL, [[1001, "DBL", "BAR", "2027-01-01", v, None, None]
                                                         for v in values])})
    typed, used, before = _read_both(read_availability, path, monkeypatch)
    assert typed == {"S": True}
    _same(used, before)
    assert "4.25" in set(used[1]["value"])


def test_a_boolean_in_a_number_column_is_still_reported(tmp_path: Path) -> None:
    rows: list[list[object]] = [[1001, "DBL", "BAR", (dt.date(2027, 1, 1) + dt.timedelta(days=i)).isoformat(),
                                 1 + i % 3, None, None] for i in range(1500)]
    rows.append([1001, "DBL", "BAR", "2031-01-01", True, None, None])
    path = _workbook(tmp_path / "a.xlsx", {"S": (AVAIL, rows)})
    frame, issues = read_availability(path)
    assert not xlsx_bounds.known_no_booleans(path, "S")
    assert issues[["row", "column"]].values.tolist() == [[1502, "RoomsToSell"]]
    assert len(frame) == 1500


# --- what fastexcel writes, written from the typed column ----------------------------------------------------------

def _value_sheet(path: Path, texts: list[str]) -> Path:
    """One column `N` of number cells whose ``<v>`` holds ``texts`` as they are (a blank cell for "")."""
    rows = '<row r="1">' + X.inline("A1", "N") + "</row>" + "".join(
        f'<row r="{i}"><c r="A{i}" t="n"><v>{t}</v></c></row>' if t else f'<row r="{i}"/>'
        for i, t in enumerate(texts, start=2))
    return X.workbook(path, X.sheet_xml(rows))


def _both_readings(path: Path) -> tuple[workbooks.SheetTable, workbooks.SheetTable]:
    reader = fastexcel.read_excel(str(path))
    with workbooks.quiet_fastexcel():
        text = workbooks.load_typed(reader, "Rates", 0, ["N"], lambda _h: set())
        typed = workbooks.load_typed(reader, "Rates", 0, ["N"], lambda _h: set(), booleans=False)
    assert text is not None and typed is not None
    return text, typed


NUMBER_TEXTS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.integers(-(10 ** 20), 10 ** 20).map(str),
    st.integers(-(2 ** 20), 2 ** 20).map(lambda k: repr(k / 1024)),  # ties at the ninth decimal
    st.decimals(min_value=-10 ** 6, max_value=10 ** 6, places=12, allow_nan=False).map(str),
    st.sampled_from(["-0", "0.0", "1E+308", "4.9E-324", "1e-10", "007", "1.5e16", "NaN", "inf", "-inf", ""]),
)


@pytest.mark.slow
@settings(max_examples=60)
@given(st.lists(NUMBER_TEXTS, min_size=1, max_size=30))
def test_typed_numbers_are_written_as_fastexcel_writes_them_as_text(tmp_path_factory: pytest.TempPathFactory,
                                                                    texts: list[str]) -> None:
    path = _value_sheet(tmp_path_factory.mktemp("n") / "n.xlsx", texts)
    text, typed = _both_readings(path)
    assert typed.table.column(0).to_pylist() == text.table.column(0).to_pylist()
    assert typed.errors == text.errors


@pytest.mark.parametrize("texts", [["1.5", "NaN", "2"], ["-0", "0", "0.0009765625"], ["9007199254740993", "1e-300"]],
                         ids=["NaN", "negative zero and a tie", "past 15 digits"])
def test_edge_numbers_are_written_as_fastexcel_writes_them_as_text(tmp_path: Path, texts: list[str]) -> None:
    text, typed = _both_readings(_value_sheet(tmp_path / "n.xlsx", texts))
    assert typed.table.column(0).to_pylist() == text.table.column(0).to_pylist()


# --- the scan: everything in one pass, each still found -------------------------------------------------------------

PIECES = {
    "cell": '<row r="{n}"><c r="A{n}" t="n"><v>{n}</v></c><c r="B{n}" t="s"><v>0</v></c></row>',
    "boolean": '<row r="{n}"><c r="A{n}" t="b"><v>1</v></c></row>',
    "boolean, single quotes": "<row r=\"{n}\"><c r=\"A{n}\" t='b'><v>0</v></c></row>",
    "boolean, prefixed and spaced": '<row r="{n}"><c r="A{n}" x:t = "b"><v>1</v></c></row>',
    "boolean, character reference": '<row r="{n}"><c r="A{n}" t="&#98;"><v>1</v></c></row>',
    "formula": '<row r="{n}"><c r="A{n}"><f>1+1</f></c></row>',
    "merged": '<mergeCell ref="A{n}:B{n}"/>',
    "stray": '<row r="{n}"><c r="XFD1048576"><v>1</v></c></row>',
    "no position": '<row r="{n}"><c t="n"><v>1</v></c></row>',
}
WHAT = {"boolean": "booleans", "formula": "marks", "merged": "marks", "stray": "stray", "no position": "flagged"}


def _found_in(pieces: list[str]) -> set[str]:
    return {WHAT[re.sub(r",.*", "", p)] for p in pieces if re.sub(r",.*", "", p) in WHAT}


def _check(path: Path) -> tuple[bool, bool, bool]:
    """(refused, known plain, known without booleans)."""
    try:
        xlsx_bounds.check_sheet(path, "Rates")
        refused = False
    except LoadError:
        refused = True
    return refused, xlsx_bounds.known_plain(path, "Rates"), xlsx_bounds.known_no_booleans(path, "Rates")


@pytest.mark.slow
@settings(max_examples=80)
@given(st.lists(st.sampled_from(sorted(PIECES)), min_size=1, max_size=12), st.integers(0, 400),
       st.sampled_from([97, 256, 1024]))
def test_the_scan_finds_each_thing_wherever_it_is(tmp_path_factory: pytest.TempPathFactory,
                                                           pieces: list[str], filler: int, chunk: int) -> None:
    """Small chunks put a piece at a seam, or alone in a chunk, or next to another: each is found."""
    rows = "".join(PIECES["cell"].format(n=n) for n in range(2, 2 + filler % 40)) + "".join(
        PIECES[p].format(n=100 + i) for i, p in enumerate(pieces))
    sheet = X.sheet_xml(X.header_row() + rows).replace("<worksheet ", '<worksheet xmlns:x="urn:x" ')
    path = X.workbook(tmp_path_factory.mktemp("s") / "w.xlsx", sheet)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(xlsx_bounds, "CHUNK", chunk)
        refused, plain, no_booleans = _check(path)
    found = _found_in(pieces)
    assert refused is ("stray" in found)
    assert no_booleans is not ("booleans" in found)  # a whole scan finishes unless all three are found
    assert plain is not ("marks" in found)


@pytest.mark.parametrize("piece", sorted(PIECES))
@pytest.mark.parametrize("chunk", [64, 101, 4096])
def test_each_thing_is_found_at_any_seam(tmp_path: Path, piece: str, chunk: int) -> None:
    rows = "".join(PIECES["cell"].format(n=n) for n in range(2, 12)) + PIECES[piece].format(n=50)
    sheet = X.sheet_xml(X.header_row() + rows).replace("<worksheet ", '<worksheet xmlns:x="urn:x" ')
    path = X.workbook(tmp_path / "w.xlsx", sheet)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(xlsx_bounds, "CHUNK", chunk)
        refused, plain, no_booleans = _check(path)
    found = _found_in([piece])
    assert (refused, plain, no_booleans) == ("stray" in found, "marks" not in found, "booleans" not in found)
