"""A big sheet with a plausible ``<dimension>`` (as Excel saves every sheet) keeps its declared extent trusted,
and is scanned only for what lets it be read faster: no boolean cell (its number columns read typed) and no
formula or merged cell (no second pass for them). The scan stops at its first boolean cell; what it has not
seen is then not known, and the second pass still finds and reports it.

``SCAN_ALWAYS`` (8 MB: smaller sheets are scanned whole whatever they declare) is set to 0 here, so these small
sheets take the path of a big one."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from loaders import read_availability, xlsx_bounds
from tests.loaders import crafted_workbooks as X
from tests.loaders.test_no_boolean_sheets import (
    AVAIL,
    CELLS,
    PIECES,
    _avail_rows,
    _read_both,
    _same,
    _workbook,
)


@pytest.fixture(autouse=True)
def _big(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx_bounds, "SCAN_ALWAYS", 0)
    xlsx_bounds._verdict.cache_clear()


def _sheet(pieces: list[str], dimension: str = "A1:H300") -> str:
    rows = "".join(PIECES["cell"].format(n=n) for n in range(2, 40)) + "".join(
        PIECES[p].format(n=100 + i) for i, p in enumerate(pieces))
    return X.sheet_xml(X.header_row() + rows, dimension).replace("<worksheet ", '<worksheet xmlns:x="urn:x" ')


@pytest.mark.parametrize(("pieces", "plain", "no_booleans"), [
    ([], True, True),
    (["formula"], False, True),
    (["merged"], False, True),
    (["boolean"], False, False),                # stopped at the boolean: the rest is not known
    (["formula", "boolean"], False, False),
    (["boolean", "formula"], False, False),
    (["boolean, character reference"], False, False),
], ids=lambda v: repr(v))
def test_a_trusted_dimension_is_scanned_for_what_speeds_the_reading(tmp_path: Path, pieces: list[str], plain: bool,
                                                                    no_booleans: bool) -> None:
    path = X.workbook(tmp_path / "w.xlsx", _sheet(pieces))
    xlsx_bounds.check_sheet(path, "Rates")
    assert (xlsx_bounds.known_plain(path, "Rates"), xlsx_bounds.known_no_booleans(path, "Rates")) == (plain,
                                                                                                       no_booleans)


def test_the_scan_stops_at_the_first_boolean_and_leaves_the_extent_to_the_dimension(tmp_path: Path,
                                                                                    monkeypatch: pytest.MonkeyPatch,
                                                                                    ) -> None:
    """A stray cell under a plausible dimension was never looked for on a big sheet (the dimension is
    trusted, as before); after a boolean, the chunks left are not read."""
    path = X.workbook(tmp_path / "w.xlsx", _sheet(["boolean"] + ["cell"] * 2000 + ["stray"]))
    chunks: list[int] = []
    pieces = xlsx_bounds._chunks

    def counted(fh, info):  # noqa: ANN001, ANN202
        for text in pieces(fh, info):
            chunks.append(len(text))
            yield text

    monkeypatch.setattr(xlsx_bounds, "CHUNK", 256)
    monkeypatch.setattr(xlsx_bounds, "_chunks", counted)
    xlsx_bounds.check_sheet(path, "Rates")  # not refused: the dimension is trusted
    assert not xlsx_bounds.known_no_booleans(path, "Rates") and not xlsx_bounds.known_plain(path, "Rates")
    whole = len(_sheet(["boolean"] + ["cell"] * 2000 + ["stray"]))
    assert sum(chunks) < whole / 10  # stopped well before the end (the seams counted too)


def test_availability_under_a_dimension_is_read_the_same_with_number_columns_typed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """openpyxl writes the ``<dimension>``, as Excel does: with ``SCAN_ALWAYS`` at 0 the sheets take the
    trusted-dimension path, and read exactly as without what the scan found."""
    path = _workbook(tmp_path / "a.xlsx", {
        "Plain": (AVAIL, _avail_rows(CELLS)),
        "Flags": (AVAIL, _avail_rows([5, 1, 0, 2.5]) + [[1001, "DBL", "BAR", "2027-03-01", 3, True, 1]]),
    })
    typed, used, before = _read_both(read_availability, path, monkeypatch)
    assert typed == {"Plain": True, "Flags": False}
    _same(used, before)
    assert len(used[0]) > 3 * len(CELLS) and not used[1].empty


def test_a_formula_after_a_boolean_is_still_reported(tmp_path: Path) -> None:
    rows: list[list[object]] = [[1001, "DBL", "BAR", (dt.date(2027, 1, 1) + dt.timedelta(days=i)).isoformat(),
                                 True if i == 0 else 1 + i % 3, None, None] for i in range(300)]
    path = _workbook(tmp_path / "a.xlsx", {"S": (AVAIL, rows)})
    from openpyxl import load_workbook

    wb = load_workbook(path)
    wb["S"]["E250"] = "=E249*2"  # a formula without a saved value, after the sheet's first boolean
    wb.save(path)
    xlsx_bounds._verdict.cache_clear()
    _, issues = read_availability(path)
    assert not xlsx_bounds.known_plain(path, "S")
    assert "formula_no_value" in set(issues["rule"])
