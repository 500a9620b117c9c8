"""Fixtures of the room flows: the platform sandbox mounted in-process (no sockets, no HTTPS), and small
helpers to edit a fetched workbook as an analyst does (openpyxl, cell by cell)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from openpyxl import load_workbook

from workbench.config import Secret, Settings
from workbench.flows.rooms import fetch_rooms, write_rooms_workbook
from workbench.sandbox import SandboxConfig
from workbench.sandbox.testing import InProcess
from workbench.transport import SyncPlatformClient

TODAY = dt.date(2026, 12, 1)
TABLES = ("rooms", "subrooms", "amenities")


@dataclass
class Platform:
    """A fresh sandbox and a client that reaches it in-process."""

    box: InProcess
    settings: Settings
    client: SyncPlatformClient

    def tables(self) -> dict[str, list[dict[str, str]]]:
        """What the sandbox stores (``/_sandbox/<kind>.csv``), inactive room types too."""
        return {k: self.box.table(k) for k in TABLES}

    def fetch_workbook(self, hotels: Sequence[int], path: Path) -> Path:
        return write_rooms_workbook(fetch_rooms(self.settings, hotels, client=self.client), path)


@contextmanager
def in_process_platform(**config: object) -> Iterator[Platform]:
    box = InProcess(SandboxConfig(today=TODAY, password="pw", **config))  # type: ignore[arg-type]
    settings = Settings(base_url="https://127.0.0.1", username=box.sandbox.username, password=Secret("pw"))
    client = SyncPlatformClient(settings, transport=httpx.ASGITransport(app=box.app))
    try:
        yield Platform(box, settings, client)
    finally:
        client.close()
        box.close()


@pytest.fixture
def platform() -> Iterator[Platform]:
    """A fresh in-process sandbox (seeded with the sample properties) and a client for it."""
    with in_process_platform() as p:
        yield p


class Sheets:
    """Editing workbooks cell by cell, as an analyst does."""

    set_cells = staticmethod(lambda *a, **k: set_cells(*a, **k))
    append_rows = staticmethod(lambda *a, **k: append_rows(*a, **k))
    row_of = staticmethod(lambda *a, **k: row_of(*a, **k))


@pytest.fixture
def sheets() -> type[Sheets]:
    return Sheets


@pytest.fixture
def platform_factory():
    """``with platform_factory() as p:`` a fresh sandbox per use (for hypothesis examples)."""
    return in_process_platform


def set_cells(path: Path, sheet: str, row: int, values: dict[str, object]) -> None:
    """Write ``values`` (by header) into Excel row ``row`` of ``sheet`` (adding missing headers)."""
    wb = load_workbook(path)
    ws = wb[sheet]
    headers = {c.value: c.column for c in ws[1] if c.value is not None}
    for name, value in values.items():
        if name not in headers:
            headers[name] = ws.max_column + 1
            ws.cell(row=1, column=headers[name], value=name)
        ws.cell(row=row, column=headers[name], value=value)
    wb.save(path)


def append_rows(path: Path, sheet: str, rows: Sequence[dict[str, object]]) -> list[int]:
    """Append rows (by header) to ``sheet``; returns their Excel row numbers."""
    wb = load_workbook(path)
    ws = wb[sheet]
    headers = {c.value: c.column for c in ws[1] if c.value is not None}
    numbers = []
    for values in rows:
        n = ws.max_row + 1
        for name, value in values.items():
            if name not in headers:
                headers[name] = ws.max_column + 1
                ws.cell(row=1, column=headers[name], value=name)
            ws.cell(row=n, column=headers[name], value=value)
        numbers.append(n)
    wb.save(path)
    return numbers


def row_of(path: Path, sheet: str, **match: object) -> int:
    """The Excel row of ``sheet`` whose cells equal ``match`` (by header; compared as text)."""
    wb = load_workbook(path, read_only=True)
    rows = wb[sheet].iter_rows(values_only=True)
    header = list(next(rows))
    for n, values in enumerate(rows, start=2):
        cells = dict(zip(header, values, strict=False))
        if all(str(cells.get(k)) == str(v) for k, v in match.items()):
            wb.close()
            return n
    wb.close()
    raise LookupError(f"no row of {sheet} with {match}")
