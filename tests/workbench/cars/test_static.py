"""Static data cache: SQLite on disk, fetch time kept, refreshed after max_age by an injected clock."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from workbench.cars import CarsServerError, StaticCache

SOURCE = "https://demand.test/3.1"


class Fetcher:
    def __init__(self) -> None:
        self.calls = 0
        self.fail = False

    def __call__(self) -> tuple[list[dict[str, Any]], list[str | None]]:
        self.calls += 1
        if self.fail:
            raise CarsServerError(503, "r-down", [])
        return [{"id": 101, "name": f"Tulip v{self.calls}", "rating": {"average": Decimal("8.5")}},
                {"id": 102, "name": "Northwind"}], [f"req-{self.calls}"]


def test_refreshed_after_a_day_not_before(tmp_path: Path, clock: Any) -> None:
    cache, fetch = StaticCache(tmp_path / "s.sqlite", clock=clock), Fetcher()
    first = cache.get("suppliers", SOURCE, fetch)
    assert first.fetched_now and fetch.calls == 1 and first.fetched_at == clock.now
    clock.advance(timedelta(hours=23, minutes=59).total_seconds())
    again = cache.get("suppliers", SOURCE, fetch)
    assert not again.fetched_now and fetch.calls == 1 and again.records[0]["name"] == "Tulip v1"
    clock.advance(timedelta(minutes=1).total_seconds())  # exactly a day old: refetched
    later = cache.get("suppliers", SOURCE, fetch)
    assert later.fetched_now and fetch.calls == 2 and later.records[0]["name"] == "Tulip v2"
    assert later.fetched_at == clock.now


def test_max_age_is_configurable_and_refresh_forces_a_fetch(tmp_path: Path, clock: Any) -> None:
    cache, fetch = StaticCache(tmp_path / "s.sqlite", clock=clock, max_age=timedelta(hours=1)), Fetcher()
    cache.get("depots", SOURCE, fetch)
    clock.advance(3601)
    cache.get("depots", SOURCE, fetch)
    cache.get("depots", SOURCE, fetch, refresh=True)
    assert fetch.calls == 3
    with pytest.raises(ValueError, match="positive"):
        StaticCache(tmp_path / "x.sqlite", max_age=timedelta(0))


def test_the_copy_survives_on_disk_with_its_fetch_time_and_unknown_fields(tmp_path: Path, clock: Any) -> None:
    path = tmp_path / "s.sqlite"
    StaticCache(path, clock=clock).get("suppliers", SOURCE, Fetcher())
    reopened = StaticCache(path, clock=clock)
    fetch = Fetcher()
    got = reopened.get("suppliers", SOURCE, fetch)
    assert fetch.calls == 0 and got.fetched_at == clock.now
    assert got.records[0] == {"id": 101, "name": "Tulip v1", "rating": {"average": Decimal("8.5")}}
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT fetched_at, count, request_ids FROM fetches WHERE kind='suppliers'").fetchone()
        ids = [r[0] for r in db.execute("SELECT id FROM records WHERE kind='suppliers' ORDER BY rowid")]
    assert row == (clock.now.isoformat(), 2, '["req-1"]') and ids == ["101", "102"]


def test_each_service_has_its_own_copy(tmp_path: Path, clock: Any) -> None:
    cache, fetch = StaticCache(tmp_path / "s.sqlite", clock=clock), Fetcher()
    cache.get("suppliers", SOURCE, fetch)
    cache.get("suppliers", "https://other.test/3.1", fetch)
    assert fetch.calls == 2 and cache.is_fresh("suppliers", SOURCE) and not cache.is_fresh("depots", SOURCE)


def test_a_failed_refresh_falls_back_to_the_old_copy_with_a_warning(tmp_path: Path, clock: Any) -> None:
    cache, fetch = StaticCache(tmp_path / "s.sqlite", clock=clock), Fetcher()
    cache.get("suppliers", SOURCE, fetch)
    clock.advance(2 * 86400)
    fetch.fail = True
    got = cache.get("suppliers", SOURCE, fetch)
    assert got.stale and not got.fetched_now and got.records[1]["name"] == "Northwind"
    assert "could not refresh suppliers" in got.warnings[0] and "48.0 h old" in got.warnings[0]


def test_a_failed_first_fetch_raises(tmp_path: Path, clock: Any) -> None:
    fetch = Fetcher()
    fetch.fail = True
    with pytest.raises(CarsServerError):
        StaticCache(tmp_path / "s.sqlite", clock=clock).get("suppliers", SOURCE, fetch)


def test_records_without_id_or_with_repeated_ids_are_reported(tmp_path: Path, clock: Any) -> None:
    cache = StaticCache(tmp_path / "s.sqlite", clock=clock)
    warnings = cache.store("depots", SOURCE, [{"id": 1, "name": "a"}, {"name": "no id"}, {"id": 1, "name": "b"}])
    assert warnings == ["depots: record 2 has no `id` and was not cached",
                        "depots: `id` 1 appears twice; the later record was kept"]
    assert cache.records("depots", SOURCE) == [{"id": 1, "name": "b"}]


def test_unknown_lists_are_refused(tmp_path: Path, clock: Any) -> None:
    with pytest.raises(ValueError, match="unknown static list"):
        StaticCache(tmp_path / "s.sqlite", clock=clock).get("cars", SOURCE, Fetcher())
