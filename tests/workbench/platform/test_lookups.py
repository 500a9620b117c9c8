"""The E5 lookups: tolerant parsing of the assumed shapes (tests/fixtures/lookups, hand-written: the
spec shows no body), frames, ContentLookups, and the daily refresh of the cached copy."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from workbench.errors import PlatformReadError
from workbench.ota.lookups import parse_lookup, request_body
from workbench.platform.lookups import LookupCache, fetch_lookups
from workbench.transport.result import Outcome, Result

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lookups"
BODIES = {"currencies": (FIXTURES / "currencies.xml").read_bytes(),
          "countries": (FIXTURES / "countries_child_elements.xml").read_bytes(),
          "citytaxcategory": (FIXTURES / "citytaxcategory.xml").read_bytes()}


def test_fixtures_parse_tolerantly() -> None:
    cur = parse_lookup("currencies", BODIES["currencies"])
    assert [r["code"] for r in cur.records] == ["EUR", "BRL", "USD"] and cur.skipped == 1
    countries = parse_lookup("countries", BODIES["countries"])
    assert [(r["code"], r["name"]) for r in countries.records] == [("PT", "Portugal"), ("BR", "Brazil"),
                                                                   ("NL", "Netherlands")]
    cats = parse_lookup("citytaxcategory", BODIES["citytaxcategory"])
    assert [(r["id"], r["country"], r["city"]) for r in cats.records] == [
        (3, "BR", "São Paulo"), (4, "BR", "São Paulo"), (7, "BR", "Rio de Janeiro")]
    assert cats.skipped == 1


@pytest.mark.parametrize(("body", "message"), [
    (b"<rooms/>", "expected a <currencies> answer, got <rooms>"),
    (b"<error code='401'>denied</error>", "expected a <currencies> answer, got <error>"),
])
def test_an_answer_of_another_kind_is_refused(body: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_lookup("currencies", body)


def test_request_bodies() -> None:
    assert request_body("currencies") == b"<request></request>"
    assert request_body("citytaxcategory", country="BR", city="São Paulo") == (
        "<request><country>BR</country><city>São Paulo</city></request>".encode())
    with pytest.raises(ValueError, match="unknown lookup `cities`"):
        request_body("cities")


class FakeClient:
    """Answers each lookup from the fixtures (or fails it), counting the calls."""

    def __init__(self, fail: set[str] | None = None, fatal: bool = False) -> None:
        self.calls: list[str] = []
        self.fail = fail or set()
        self.fatal = fatal

    def send(self, op: str, body: bytes) -> Result:
        self.calls.append(op)
        if op in self.fail:
            return Result(op, Outcome.FAILED, 503, None, "r-fail", 3, (), error="HTTP 503", fatal=self.fatal)
        return Result(op, Outcome.SUCCESS, 200, None, f"r-{op}", 1, (), body=BODIES[op])


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 8, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def test_lists_are_cached_with_their_fetch_time_and_refreshed_daily(tmp_path: Path) -> None:
    clock = Clock()
    cache = LookupCache(tmp_path / "lookups.json", clock=clock)
    client = FakeClient()
    first = fetch_lookups(client, cache, "https://sandbox")  # type: ignore[arg-type]
    assert client.calls == ["countries", "citytaxcategory"]  # /xml/currencies is sunset: never called
    assert first.fetched_at["countries"] == clock.now and first.ruids["countries"] == "r-countries"
    lookups = first.content_lookups()
    assert {"EUR", "BRL", "USD", "CHF"} <= (lookups.currencies or set()) and "PT" in (lookups.countries or ())
    cats = lookups.city_tax_categories
    assert cats is not None and list(cats.columns) == ["country", "city", "category_id", "name"]
    assert str(cats["category_id"].dtype) == "Int64"
    assert "1 record without a key was skipped" in first.warnings[0]
    clock.now += timedelta(hours=23)
    again = fetch_lookups(client, cache, "https://sandbox")  # type: ignore[arg-type]
    assert len(client.calls) == 2 and again.fetched_at["countries"] == datetime(2026, 11, 25, 8, 0, tzinfo=UTC)
    pd.testing.assert_frame_equal(again.countries, first.countries)
    fetch_lookups(client, cache, "https://other")  # type: ignore[arg-type]
    assert len(client.calls) == 4  # another platform: its own copies
    clock.now += timedelta(hours=2)
    fetch_lookups(client, cache, "https://sandbox")  # type: ignore[arg-type]
    assert len(client.calls) == 6  # a day old: refreshed


def test_a_failed_refresh_uses_the_older_copy_and_says_so(tmp_path: Path) -> None:
    clock = Clock()
    cache = LookupCache(tmp_path / "lookups.json", clock=clock)
    fetch_lookups(FakeClient(), cache, "s")  # type: ignore[arg-type]
    clock.now += timedelta(days=2)
    stale = fetch_lookups(FakeClient(fail={"countries"}), cache, "s")  # type: ignore[arg-type]
    assert stale.content_lookups().countries == frozenset({"PT", "BR", "NL"})
    assert any("using the copy fetched 2026-11-25T08:00+00:00 (48.0 h old)" in w for w in stale.warnings)


def test_a_list_never_read_is_unknown_and_fatal_failures_raise(tmp_path: Path) -> None:
    cache = LookupCache(tmp_path / "lookups.json")
    partial = fetch_lookups(FakeClient(fail={"citytaxcategory"}), cache, "s")  # type: ignore[arg-type]
    assert partial.content_lookups().city_tax_categories is None
    assert partial.content_lookups().currencies is not None
    assert any(w.endswith("the rules needing it are not checked") for w in partial.warnings)
    with pytest.raises(PlatformReadError, match="reading /xml/countries failed"):
        fetch_lookups(FakeClient(fail={"countries", "citytaxcategory"}, fatal=True),  # type: ignore[arg-type]
                      LookupCache(tmp_path / "other.json"), "s")


def test_the_currencies_are_iso_4217_less_what_no_price_is_given_in() -> None:
    from workbench.platform.lookups import NOT_TENDER, shipped_currencies

    codes = [r["code"] for r in shipped_currencies()]
    assert {"EUR", "BRL", "USD", "CHF", "JPY", "XOF", "XPF"} <= set(codes) and codes == sorted(codes)
    assert not set(codes) & NOT_TENDER and {"XAU", "XTS", "XXX", "CHE"} <= NOT_TENDER
