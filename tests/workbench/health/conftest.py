"""Constructed states for the health checks: a push journal with accepted prices, written the way
``Journal.record_result`` writes them (one price key per cell, ``writers.deltas.cell_keys``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from pathlib import Path

import pytest

from workbench.writers.journal import NO_GUESTS, Journal

TARGET = "https://platform.test"
AS_OF = dt.date(2026, 12, 1)


def price_key(amount: float, currency: str = "EUR") -> str:
    minor = round(amount * 100)
    return f"AfterTax:{minor}e-2:2:{currency}"


def nights(start: str, end: str, price: float = 100.0, *, hotel: int = 1, room: str = "101", rate: str = "5001",
           guests: int = NO_GUESTS, skip: Iterable[str] = ()) -> list[tuple]:
    """Accepted cells for every night from ``start`` to ``end`` (inclusive), but the ``skip`` nights."""
    skipped = set(skip)
    first, last = dt.date.fromisoformat(start), dt.date.fromisoformat(end)
    out = []
    for i in range((last - first).days + 1):
        day = (first + dt.timedelta(days=i)).isoformat()
        if day not in skipped:
            out.append((hotel, room, rate, day, guests, price))
    return out


def write_journal(path: Path, cells: Iterable[tuple], target: str = TARGET) -> Path:
    """A journal whose ``accepted`` table holds ``cells`` = (hotel, room, rate, night, guests, price)."""
    with Journal(path) as j, j.db:
        j.db.executemany(
            "INSERT INTO accepted(target, hotel_code, inv_type_code, rate_plan_code, date, guests, price, request_id, "
            "ruid, at) VALUES (?,?,?,?,?,?,?,1,'r','t')",
            [(target, h, r, p, d, g, price_key(a)) for h, r, p, d, g, a in cells])
    return path


@pytest.fixture
def journal(tmp_path: Path):
    def make(cells: Iterable[tuple], target: str = TARGET) -> Path:
        return write_journal(tmp_path / "journal.sqlite", cells, target)
    return make
