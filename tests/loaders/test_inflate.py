"""The bounds check's inflater (``loaders.inflate``, ISA-L when installed): every byte of a part, piece by
piece as the scan takes them, and a damaged stream let through to the reader (which says it is damaged)
whichever library inflates it."""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loaders import LoadError, read_rates, xlsx_bounds
from loaders.inflate import INFLATE_ERRORS, raw_inflater
from loaders.xlsx_bounds import check_archive, check_sheet
from tests.loaders.test_hostile_workbooks import _good

TAGS = st.lists(st.sampled_from([b'<c r="A1">', b"<v>1</v>", b"</row>", b"x" * 300]), max_size=400)


def _part(data: bytes, level: int) -> tuple[io.BytesIO, zipfile.ZipInfo]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as zf:
        zf.writestr("xl/worksheets/sheet1.xml", data)
    buffer.seek(0)
    return buffer, zipfile.ZipFile(buffer).getinfo("xl/worksheets/sheet1.xml")


@given(st.binary(max_size=5000), TAGS, st.integers(0, 9), st.integers(1, 3000))
def test_the_scan_sees_every_byte_of_the_part_whatever_its_pieces(noise: bytes, tags: list[bytes], level: int,
                                                                   chunk: int) -> None:
    """Inflated output capped per call (``CHUNK``): ISA-L keeps what is past the cap inside, and the last
    bytes come only when it is asked again with no input; none may be lost (a stray cell sits at the end)."""
    data = noise + b"".join(tags) * 3
    fh, info = _part(data, level)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(xlsx_bounds, "CHUNK", chunk)
        assert b"".join(piece for piece, _ in xlsx_bounds._inflate(fh, info)) == data


def test_the_inflater_is_isal_where_it_is_installed() -> None:
    """The dependency is in pyproject.toml: the fast path is the one the tests exercise."""
    assert type(raw_inflater()).__module__ == "isal_zlib"


def _deflated(data: bytes) -> bytearray:
    packer = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return bytearray(packer.compress(data) + packer.flush())


def test_a_damaged_stream_raises_one_of_the_errors_the_check_lets_through() -> None:
    stream = _deflated(b"".join(b'<row r="%d"/>' % i for i in range(5000)))
    stream[0] = 0b111  # a final block of the reserved type 3: no inflater reads it
    with pytest.raises(INFLATE_ERRORS):
        raw_inflater().decompress(bytes(stream), 1 << 24)


def _damaged(tmp_path: Path, at: float, damage: bytes) -> Path:
    """A dimension-less workbook whose sheet's zipped bytes are overwritten by ``damage`` at ``at`` of them."""
    path = _good(tmp_path / "ok.xlsx", 2000, dimension=False)
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(next(n for n in zf.namelist() if n.startswith("xl/worksheets/")))
    data = bytearray(path.read_bytes())
    where = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra) + int(info.compress_size * at)
    data[where:where + len(damage)] = damage
    damaged = tmp_path / "damaged.xlsx"
    damaged.write_bytes(bytes(data))
    return damaged


@pytest.mark.parametrize(("at", "damage"), [(0.0, bytes([0b111])), (0.5, b"\xff" * 64)],
                         ids=["not inflatable", "inflates to broken XML"])
def test_a_workbook_with_a_damaged_sheet_is_let_through_and_the_reader_says_so(at: float, damage: bytes,
                                                                                tmp_path: Path) -> None:
    damaged = _damaged(tmp_path, at, damage)
    check_archive(damaged)  # neither raises the inflater's or the XML parser's own error: the reader speaks
    check_sheet(damaged, "Rates")
    with pytest.raises(LoadError, match="damaged.xlsx"):
        read_rates(damaged)


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED], ids=["deflated", "stored"])
def test_the_search_for_formulas_reads_the_sheet_through_the_same_inflater(method: int, tmp_path: Path) -> None:
    """``scan_blanks`` inflates with ISA-L (``inflate_member``), pieces of 4 MiB: a formula without a saved
    value and a merged range are found in a deflated sheet and in a stored one, the formula past the first piece."""
    from loaders.xlsx_xml import scan_blanks
    from tests.loaders import crafted_workbooks as X

    filler = "".join(f'<row r="{n}"><c r="A{n}" t="n"><v>{n}</v></c></row>' for n in range(2, 130_000))
    sheet = X.sheet_xml(X.header_row() + filler + '<row r="130000"><c r="E130000"><f>E2*2</f></c></row>').replace(
        "</sheetData>", '</sheetData><mergeCells count="1"><mergeCell ref="B2:B3"/></mergeCells>')
    assert len(sheet) > 4 << 20
    path = tmp_path / "w.xlsx"
    with zipfile.ZipFile(path, "w", method) as zf:
        for name, data in X.parts(sheet).items():
            zf.writestr(name, data)
    found = scan_blanks(path, "Rates")
    assert found.formulas == {(130_000, 4): "=E2*2"}
    assert found.merged == [(2, 1, 3, 1)]


def test_a_damaged_sheet_has_no_blank_cells_to_report_and_the_reader_says_so(tmp_path: Path) -> None:
    from loaders.xlsx_xml import scan_blanks

    damaged = _damaged(tmp_path, 0.0, bytes([0b111]))
    with pytest.raises(INFLATE_ERRORS):
        scan_blanks(damaged, "Rates")
    with pytest.raises(LoadError, match="damaged.xlsx"):
        read_rates(damaged)
