"""Pagination: every record once, in order, whatever the page size, overlap or style; caps and loops stop."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.cars import CarsResponseError
from workbench.cars.pagination import collect, next_body


class FakeListing:
    """A service paging ``n`` records by token or offset, optionally repeating ``overlap`` records per page."""

    def __init__(self, n: int, size: int, overlap: int = 0, style: str = "token", total: bool = True) -> None:
        self.records = [{"id": f"r{i}", "n": i} for i in range(n)]
        self.size, self.overlap, self.style, self.total = size, overlap, style, total
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        self.bodies.append(body)
        offset = int(body["page"].removeprefix("tok-")) if "page" in body else body.get("offset", 0)
        start = max(0, offset - self.overlap) if offset else 0
        end = offset + self.size
        more = end < len(self.records)
        meta: dict[str, Any] = {"total_results": len(self.records)} if self.total else {}
        if self.style == "token":
            meta["next_page"] = f"tok-{end}" if more else None
        else:
            meta["next_offset"] = end if more else None
        return {"request_id": f"req-{len(self.bodies)}", "data": self.records[start:end], "metadata": meta}


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 120), size=st.integers(1, 30), overlap=st.integers(0, 5),
       style=st.sampled_from(["token", "offset"]))
def test_every_record_arrives_exactly_once_in_order(n: int, size: int, overlap: int, style: str) -> None:
    overlap = min(overlap, size - 1)
    listing = FakeListing(n, size, overlap, style)
    out = collect(listing, {"q": 1}, max_pages=200)
    assert out.records == listing.records  # nothing lost, nothing twice, order kept
    pages = max(1, -(-n // size))
    assert len(out.pages) == pages
    assert out.duplicates == overlap * (pages - 1)
    assert not out.truncated and out.total_results == n
    assert out.record_pages == [min(i // size + 1, pages) for i in range(n)]
    assert out.request_ids == [f"req-{i}" for i in range(1, pages + 1)]


def test_token_pages_send_only_the_token_and_offset_pages_resend_the_first_body() -> None:
    token = FakeListing(5, 2, style="token")
    collect(token, {"booker": {"country": "nl"}})
    assert token.bodies == [{"booker": {"country": "nl"}}, {"page": "tok-2"}, {"page": "tok-4"}]
    offset = FakeListing(5, 2, style="offset")
    collect(offset, {"booker": {"country": "nl"}})
    assert offset.bodies[1:] == [{"booker": {"country": "nl"}, "offset": 2}, {"booker": {"country": "nl"}, "offset": 4}]


def test_page_cap_stops_and_says_so() -> None:
    listing = FakeListing(100, 10)
    out = collect(listing, {}, max_pages=3)
    assert len(listing.bodies) == 3 and len(out.records) == 30
    assert out.truncated and "page cap" in out.warnings[0]


@pytest.mark.parametrize("bad", [0, -1, 10_001])
def test_page_cap_must_be_sensible(bad: int) -> None:
    with pytest.raises(ValueError, match="max_pages"):
        collect(FakeListing(1, 1), {}, max_pages=bad)


def test_a_service_repeating_its_token_is_stopped() -> None:
    def stuck(body: dict[str, Any]) -> dict[str, Any]:
        return {"request_id": "r", "data": [{"id": "x"}], "metadata": {"next_page": "same"}}

    with pytest.raises(CarsResponseError, match="same page twice"):
        collect(stuck, {}, max_pages=50)


def test_records_without_id_are_deduplicated_by_content() -> None:
    pages = iter([{"data": [{"a": 1}, {"a": 2}], "metadata": {"next_page": "p2"}},
                  {"data": [{"a": 2}, {"a": 3}], "metadata": {}}])
    out = collect(lambda body: next(pages), {})
    assert out.records == [{"a": 1}, {"a": 2}, {"a": 3}] and out.duplicates == 1


def test_announced_total_not_reached_is_a_warning() -> None:
    out = collect(lambda body: {"data": [{"id": 1}], "metadata": {"total_results": 3}}, {})
    assert out.warnings == ["the service announced 3 results but 1 distinct ones arrived"]


@pytest.mark.parametrize(("answer", "words"), [
    ([], "not a JSON object"),
    ({"request_id": "r9"}, "no `data` list"),
    ({"data": {"id": 1}}, "no `data` list"),
    ({"data": [1, 2]}, "no `data` list"),
])
def test_pages_without_a_data_list_are_refused(answer: Any, words: str) -> None:
    with pytest.raises(CarsResponseError, match=words):
        collect(lambda body: answer, {})


def test_next_body_reads_token_then_offset() -> None:
    assert next_body({"q": 1}, {"next_page": "abc", "next_offset": 5}) == {"page": "abc"}
    assert next_body({"q": 1}, {"next_page": None, "next_offset": 5}) == {"q": 1, "offset": 5}
    assert next_body({"q": 1}, {"next_page": ""}) is None
    assert next_body({"q": 1}, {}) is None
    with pytest.raises(CarsResponseError, match="not a whole number"):
        next_body({}, {"next_offset": "soon"})


def test_unknown_metadata_and_top_level_fields_are_kept_on_the_page() -> None:
    out = collect(lambda body: {"request_id": "r", "data": [], "metadata": {"search_id": "s1"}, "debug": {"x": 1}}, {})
    assert out.pages[0].metadata == {"search_id": "s1"}
    assert out.pages[0].body["debug"] == {"x": 1}
