"""Shared fixtures: small spreadsheets written on the fly, the sample data, a fixed as-of date."""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from openpyxl import Workbook

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "data" / "samples"
AS_OF = dt.date(2026, 12, 1)


@pytest.fixture(autouse=True)
def own_journal(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's pushes that name no journal write their own (``WORKBENCH_JOURNAL``), never the
    working folder's ``.workbench/journal.sqlite`` shared with other tests."""
    monkeypatch.setenv("WORKBENCH_JOURNAL", str(tmp_path_factory.mktemp("journal") / "journal.sqlite"))


@pytest.fixture
def as_of() -> dt.date:
    return AS_OF


@pytest.fixture
def write_xlsx(tmp_path: Path) -> Callable[..., Path]:
    """``write_xlsx({"Sheet": [[header...], [row...], ...]}, name="x.xlsx")`` -> path."""
    def write(sheets: dict[str, Sequence[Sequence[object]]], name: str = "rates.xlsx") -> Path:
        wb = Workbook()
        wb.remove(wb.active)
        for title, rows in sheets.items():
            ws = wb.create_sheet(title)
            for row in rows:
                ws.append(list(row))
        path = tmp_path / name
        wb.save(path)
        return path
    return write


@pytest.fixture
def write_csv(tmp_path: Path) -> Callable[..., Path]:
    def write(rows: Sequence[Sequence[object]], name: str = "rates.csv", delimiter: str = ",",
              encoding: str = "utf-8") -> Path:
        path = tmp_path / name
        with open(path, "w", newline="", encoding=encoding) as fh:
            csv.writer(fh, delimiter=delimiter).writerows(rows)
        return path
    return write


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests measured slow (``tests/slow_tests.txt``, see ``tests/slow_lane.py``) get the ``slow`` mark."""
    listed = ROOT / "tests" / "slow_tests.txt"
    lines = listed.read_text(encoding="utf-8").splitlines() if listed.is_file() else []
    slow = {line.split(None, 1)[1].strip() for line in lines if line.strip() and not line.startswith("#")}
    for item in items:
        if item.nodeid in slow and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
