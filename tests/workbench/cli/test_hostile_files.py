"""Hostile files at the command line: a bomb workbook is one line and exit 2, never a Rust
backtrace or exit 134; a million-character cell is printed cut, once."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


_SPEC = importlib.util.spec_from_file_location("crafted_workbooks", ROOT / "tests/loaders/crafted_workbooks.py")
X = importlib.util.module_from_spec(_SPEC)  # type: ignore[arg-type]
_SPEC.loader.exec_module(X)  # type: ignore[union-attr]
STRAY = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'


@pytest.mark.parametrize(("command", "dimension"), [(["validate", "rates"], "A1:XFD1048576"),
                                                    (["validate", "rates"], None),
                                                    (["validate", "rooms"], None)])
def test_a_bomb_workbook_exits_2_with_one_line(command: list[str], dimension: str | None, tmp_path: Path,
                                               workbench) -> None:  # noqa: ANN001 - the fixture
    path = X.workbook(tmp_path / "big.xlsx", X.sheet_xml(X.header_row() + STRAY, dimension))
    assert path.stat().st_size < 5_000
    done = workbench([*command, str(path)], cwd=tmp_path, env={"RUST_BACKTRACE": "1"})
    verb = "declares" if dimension else "has"
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.splitlines() == [
        f"Error: `big.xlsx` sheet `Rates` {verb} cells up to XFD1048576 (16,384 columns x 1,048,576 rows): more than "
        "this workbench reads (limit 50,000,000 cells, up to XFD1048576); remove the stray cell or save only the "
        "used range"]
    assert "Traceback" not in done.stdout + done.stderr
