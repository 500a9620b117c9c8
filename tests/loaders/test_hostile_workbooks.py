"""Workbooks that would make the reader ask for hundreds of GB (and abort the process) are refused
before it opens them, with one line naming the file, the sheet and what it declares; real
workbooks still read."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loaders import LoadError, read_rates
from loaders.sheets import read_tables
from loaders.xlsx_bounds import CHUNK, WorkbookBounds, check_archive, check_sheet, greater_pattern
from loaders.xlsx_xml import column_letters
from tests.loaders import crafted_workbooks as X

ROOT = Path(__file__).resolve().parents[2]


H = X.header_row()
STRAY = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
NS_SHEET = (f'<?xml version="1.0" encoding="UTF-8"?><x:worksheet xmlns:x="{X.MAIN}"><x:sheetData>'
            '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>HotelCode</x:t></x:is></x:c></x:row>'
            '<x:row r="1048576"><x:c r="XFD1048576"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>')
XFD = "cells up to XFD1048576 (16,384 columns x 1,048,576 rows): more than this workbench reads"


def _whitespace_bomb(path: Path) -> Path:
    """1.1 MB of zipped whitespace in the sheet, inflating to 1.1 GB."""
    prefix = X.sheet_xml("").split("<sheetData>")[0].encode() + b"<sheetData>" + H.encode()
    members = {k: X.deflated(v) for k, v in X.parts("").items()}
    members["xl/worksheets/sheet1.xml"] = X.repeated_deflate(prefix, b" " * (1 << 20), 1100,
                                                              b"</sheetData></worksheet>")
    return X.raw_zip(path, members)


def _strings_bomb(path: Path) -> Path:
    """30 million shared strings (no uniqueCount) zipped into 1.3 MB."""
    block = b"<si><t>a</t></si>" * 61_681
    members = {k: X.deflated(v) for k, v in X.parts(X.sheet_xml(H, "A1:F1")).items()}
    members["xl/sharedStrings.xml"] = X.repeated_deflate(f'<sst xmlns="{X.MAIN}">'.encode(), block, 487, b"</sst>")
    return X.raw_zip(path, members)


def _lying_directory(path: Path) -> Path:
    members = {k: X.deflated(v) for k, v in X.parts(X.sheet_xml(H + STRAY)).items()}
    stream, _, crc = members["xl/worksheets/sheet1.xml"]
    members["xl/worksheets/sheet1.xml"] = (stream, 100, crc)  # says 100 bytes
    return X.raw_zip(path, members)


def _across_chunks(path: Path) -> Path:
    """The stray reference cut in two by the scan's chunk boundary (2 MiB into the sheet XML)."""
    start = X.sheet_xml(H).split("</sheetData>")[0]
    pad = CHUNK - len(start.encode()) - len('<row r="1048576"><c r="XF')
    return X.workbook(path, start + " " * pad + STRAY + "</sheetData></worksheet>")


@dataclass
class Crafted:
    name: str
    build: object          # (path) -> path
    says: str              # what the one line says (a regex)
    bounds: WorkbookBounds = WorkbookBounds()


CRAFTED = [
    Crafted("stray cell, declared", lambda p: X.workbook(p, X.sheet_xml(H + STRAY, "A1:XFD1048576")),
            r"^`f\.xlsx` sheet `Rates` declares " + re.escape(XFD) + r" \(limit 50,000,000 cells, up to XFD1048576\);"
            r" remove the stray cell or save only the used range$"),
    Crafted("stray cell, no dimension", lambda p: X.workbook(p, X.sheet_xml(H + STRAY)),
            r"^`f\.xlsx` sheet `Rates` has " + re.escape(XFD)),
    Crafted("stray cell under a dimension that lies", lambda p: X.workbook(p, X.sheet_xml(H + STRAY, "A1:F1")),
            r"^`f\.xlsx` sheet `Rates` has " + re.escape(XFD)),
    Crafted("stray cell across the scan's chunks", _across_chunks, r"^`f\.xlsx` sheet `Rates` has " + re.escape(XFD)),
    Crafted("declared, fits, but the sheet is empty", lambda p: X.workbook(p, X.sheet_xml("", "A1:XFD1048576")),
            r"declares " + re.escape(XFD)),
    Crafted("a row past Excel's last", lambda p: X.workbook(p, X.sheet_xml(
        H + '<row r="3000000"><c r="A3000000"><v>1</v></c></row>')),
        r"has cells up to F3000000 \(6 columns x 3,000,000 rows\)"),
    Crafted("cells without their position", lambda p: X.workbook(p, X.sheet_xml(
        '<row r="1">' + "<c/>" * 60 + '<c t="inlineStr"><is><t>x</t></is></c></row>'
        '<row r="1048576"><c r="A1048576"><v>1</v></c></row>')),
        r"has cells up to BI1048576 \(61 columns x 1,048,576 rows\)"),
    Crafted("positions in single quotes", lambda p: X.workbook(p, X.sheet_xml(
        H + "<row r='1048576'><c r='XFD1048576'><v>1</v></c></row>")), re.escape(XFD)),
    Crafted("a namespace prefix", lambda p: X.workbook(p, NS_SHEET), re.escape(XFD)),
    Crafted("30 million shared strings declared", lambda p: X.workbook(
        p, X.sheet_xml(H, "A1:F1"), X.shared_strings(1, 30_000_000)),
        r"^`f\.xlsx` declares 30,000,000 distinct texts \(shared strings, `xl/sharedStrings\.xml`\): more than this "
        r"workbench reads \(limit 10,000,000\)"),
    Crafted("shared strings counted", lambda p: X.workbook(p, X.sheet_xml(H, "A1:F1"), X.shared_strings(500)),
            r"^`f\.xlsx` holds about 500 distinct texts", WorkbookBounds(max_shared_strings=100)),
    Crafted("30 million shared strings in 1 MB", _strings_bomb,
            r"^`f\.xlsx` part `xl/sharedStrings\.xml` inflates from 1\.\d MB to 510\.\d MB \([\d,]+ to 1\): more "
            r"than this workbench reads \(limit 100 to 1 past 104\.9 MB\)"),
    Crafted("zipped whitespace", _whitespace_bomb,
            r"^`f\.xlsx` part `xl/worksheets/sheet1\.xml` \(sheet `Rates`\) inflates from 1\.\d MB to 1\.2 GB "
            r"\([\d,]+ to 1\)"),
    Crafted("a zip directory that lies", _lying_directory,
            r"^`f\.xlsx` part `xl/worksheets/sheet1\.xml` \(sheet `Rates`\) inflates to more than its zip directory "
            r"says \(100 bytes\)"),
    Crafted("more XML than the bound", lambda p: X.workbook(p, X.sheet_xml(H * 200, "A1:F1")),
            r"^`f\.xlsx` inflates to 0\.\d MB of XML", WorkbookBounds(max_unzipped=50_000)),
    Crafted("more cells than the bound", lambda p: X.workbook(p, X.sheet_xml(H + '<row r="40"><c r="Z40"/></row>')),
            r"has cells up to Z40 \(26 columns x 40 rows\): more than this workbench reads \(limit 1,000 cells",
            WorkbookBounds(max_cells=1_000)),
]


@pytest.mark.parametrize("case", CRAFTED, ids=lambda c: c.name)
def test_a_crafted_workbook_is_refused_in_one_line(case: Crafted, tmp_path: Path) -> None:
    path = case.build(tmp_path / "f.xlsx")
    assert path.stat().st_size < 2_000_000
    with pytest.raises(LoadError) as caught:
        read_tables([path], **({"bounds": case.bounds} if case.bounds != WorkbookBounds() else {}))
    message = str(caught.value)
    assert "\n" not in message
    assert re.search(case.says, message), message
    assert caught.value.source == "f.xlsx"


def test_every_reader_refuses_a_stray_cell_in_its_own_process(tmp_path: Path) -> None:
    """Rates, rooms, content, registry and waivers all go through the one check (a process of its
    own: without the check the reader aborts the process)."""
    path = X.workbook(tmp_path / "big.xlsx", X.sheet_xml(H + STRAY))
    code = textwrap.dedent("""
        import sys
        from loaders import LoadError, read_content, read_rates, read_registry, read_rooms, read_waivers
        for read in (read_rates, read_rooms, read_content, read_registry, read_waivers):
            try:
                read([sys.argv[1]])
            except LoadError as exc:
                print(read.__name__, exc)
    """)
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["read_rates", "read_rooms", "read_content", "read_registry",
                                                   "read_waivers"]
    assert all(f"`big.xlsx` sheet `Rates` has {XFD}" in line for line in lines)


def _good(path: Path, rows: int, columns: int = 6, dimension: bool = True) -> Path:
    header = '<row r="1">' + "".join(X.inline(f"{column_letters(i)}1", X.HEADER[i] if i < 6 else f"Extra{i}")
                                     for i in range(columns)) + "</row>"
    body = "".join(f'<row r="{r}">' + "".join(
        X.inline(f"{column_letters(i)}{r}", v) for i, v in enumerate(
            ["1001", "101", "RO", f"2027-01-{(r % 28) + 1:02d}", "99.5", "EUR", *["x"] * (columns - 6)]))
        + "</row>" for r in range(2, rows + 2))
    ref = f"A1:{column_letters(columns - 1)}{rows + 1}" if dimension else None
    return X.workbook(path, X.sheet_xml(header + body, ref))


@pytest.mark.parametrize(("columns", "dimension"), [(6, True), (6, False), (60, True), (60, False)])
def test_real_workbooks_still_read(columns: int, dimension: bool, tmp_path: Path) -> None:
    path = _good(tmp_path / "ok.xlsx", 300, columns, dimension)
    check_archive(path)
    check_sheet(path, "Rates")
    frame, _ = read_rates(path)
    assert len(frame) == 300


@given(st.integers(0, 20_000_000), st.integers(0, 20_000_000))
def test_greater_numbers_match_exactly_the_larger_ones(a: int, b: int) -> None:
    pattern = greater_pattern(str(a), "0123456789", "[0-9]", first="[1-9]")
    assert bool(re.fullmatch(f"(?:{pattern})", str(b))) == (b > a)


@given(st.integers(1, 18_278), st.integers(1, 18_278))
def test_greater_columns_match_exactly_the_later_ones(a: int, b: int) -> None:
    pattern = greater_pattern(column_letters(a - 1), "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "[A-Z]")
    assert bool(re.fullmatch(f"(?:{pattern})", column_letters(b - 1))) == (b > a)


class PanicException(BaseException):  # the name pyo3 gives a Rust panic: a BaseException, not an Exception
    pass


def _panic(*_a: object, **_k: object) -> None:
    raise PanicException("called `Option::unwrap()` on a `None` value\nstack backtrace:\n  0: ...")


@pytest.mark.parametrize(("where", "says"), [
    ("loaders.workbooks.load_typed", "`ok.xlsx` sheet `Rates` cannot be read (called `Option::unwrap()` on a `None` "
                                     "value)."),
    ("fastexcel.read_excel", "`ok.xlsx` cannot be read as a workbook (called `Option::unwrap()` on a `None` value); "
                             "open it in Excel and save it again as .xlsx."),
    ("python_calamine.CalamineWorkbook.from_path", None),  # only the sheets' visibility: every sheet is read
])
def test_a_reader_that_panics_is_one_line(where: str, says: str | None, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A panic in a reader reaches Python as a BaseException: still one line naming the file (and
    the sheet), never a traceback."""
    monkeypatch.setattr(where, _panic)
    path = _good(tmp_path / "ok.xlsx", 3)
    if says is None:
        assert len(read_rates(path)[0]) == 3
        return
    with pytest.raises(LoadError) as caught:
        read_rates(path)
    assert str(caught.value) == says


def test_a_sheet_is_checked_once_per_version_of_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A push report copies the sheets read before: the scan is not done twice; a file written
    again is checked again."""
    from loaders import xlsx_bounds

    scans: list[str] = []
    scan = xlsx_bounds._scan
    monkeypatch.setattr(xlsx_bounds, "_scan", lambda fh, info, bounds: scans.append(info.filename) or scan(
        fh, info, bounds))
    path = _good(tmp_path / "ok.xlsx", 3, dimension=False)
    check_sheet(path, "Rates")
    check_sheet(path, "Rates")
    assert scans == ["xl/worksheets/sheet1.xml"]
    X.workbook(path, X.sheet_xml(H + STRAY))
    with pytest.raises(LoadError, match="has cells up to XFD1048576"):
        check_sheet(path, "Rates")
    assert len(scans) == 2
