"""Search sessions against the sandbox in-process: all pages, names joined, checks before any request."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from workbench.cars import CarsAuthError, CarsClientError, CarsRateLimitError, SearchParams, SearchParamsError
from workbench.config import Secret
from workbench.transport.backoff import RetryPolicy


def expected_offers(sandbox: Any, params: SearchParams) -> list[dict[str, Any]]:
    """The sandbox's whole inventory for a search (what pagination must deliver)."""
    return sandbox._offers(params.to_body())


def test_search_follows_every_page_with_no_duplicate_or_lost_offer(make_session: Any, trip: dict[str, Any]) -> None:
    session, sandbox = make_session({"page_size": 7})
    params = SearchParams(**trip)
    result = session.search(params)
    truth = expected_offers(sandbox, params)
    assert len(truth) > 7 * 3  # several pages
    assert result.frame["offer_id"].tolist() == [o["id"] for o in truth]
    assert result.frame["offer_id"].is_unique
    assert result.pages == -(-len(truth) // 7) == sandbox.paths().count("/3.1/search")
    assert result.total_results == len(truth) and not result.truncated and result.duplicates == 0
    assert result.warnings == []
    assert result.frame["page"].max() == result.pages and result.frame["request_id"].nunique() == result.pages


def test_names_are_joined_and_amounts_kept_exact(make_session: Any, trip: dict[str, Any]) -> None:
    session, _ = make_session()
    frame = session.search(SearchParams(**trip)).frame
    assert frame["supplier_name"].notna().all() and frame["pickup_depot_name"].notna().all()
    assert frame["pickup_depot_name"].str.contains("Amsterdam Airport").all()
    assert frame["price"].is_monotonic_increasing
    assert (frame["price_amount"].map(lambda d: abs(d.as_tuple().exponent)) <= 2).all()
    assert {"mileage.unlimited", "mileage.limit_km", "fuel_policy"} <= set(frame.columns)  # unknown fields kept


def test_overlapping_pages_are_merged_without_duplicates(make_session: Any, trip: dict[str, Any]) -> None:
    session, sandbox = make_session({"page_size": 10, "overlap": 3})
    params = SearchParams(**trip)
    result = session.search(params)
    assert result.frame["offer_id"].tolist() == [o["id"] for o in expected_offers(sandbox, params)]
    assert result.duplicates == 3 * (result.pages - 1) > 0


def test_offset_pagination_reaches_the_end_too(make_session: Any, trip: dict[str, Any]) -> None:
    session, sandbox = make_session({"page_size": 9, "pagination": "offset"})
    params = SearchParams(**trip)
    result = session.search(params)
    assert result.frame["offer_id"].tolist() == [o["id"] for o in expected_offers(sandbox, params)]


def test_page_cap_truncates_and_warns(make_session: Any, trip: dict[str, Any]) -> None:
    session, sandbox = make_session({"page_size": 5})
    result = session.search(SearchParams(**trip), max_pages=2)
    assert result.truncated and len(result.frame) == 10 and sandbox.paths().count("/3.1/search") == 2
    assert any("page cap" in w for w in result.warnings)


def test_pickup_after_dropoff_sends_nothing_at_all(make_session: Any, trip: dict[str, Any]) -> None:
    session, sandbox = make_session()
    bad = SearchParams(**{**trip, "pickup": trip["dropoff"] + timedelta(hours=1)})
    with pytest.raises(SearchParamsError) as err:
        session.search(bad)
    assert [p.field for p in err.value.problems] == ["dropoff.datetime"]
    assert sandbox.log == []  # no request reached the server, not even for languages


def test_unsupported_language_with_cached_languages_sends_nothing(make_session: Any, trip: dict[str, Any]) -> None:
    session, sandbox = make_session()
    session.languages()  # warm the cache
    sandbox.log.clear()
    with pytest.raises(SearchParamsError) as err:
        session.search(SearchParams(**{**trip, "languages": ("en-gb", "tlh")}))
    assert "`tlh` is not supported" in str(err.value)
    assert sandbox.log == []


def test_unsupported_language_with_a_cold_cache_asks_only_for_languages(make_session: Any,
                                                                        trip: dict[str, Any]) -> None:
    session, sandbox = make_session()
    with pytest.raises(SearchParamsError):
        session.search(SearchParams(**{**trip, "languages": ("tlh",)}))
    assert sandbox.paths() == ["/common/languages"]


def test_bad_parameters_and_bad_language_are_reported_together_when_languages_are_cached(
        make_session: Any, trip: dict[str, Any]) -> None:
    session, sandbox = make_session()
    session.languages()
    with pytest.raises(SearchParamsError) as err:
        session.search(SearchParams(**{**trip, "languages": ("tlh",), "driver_age": 16}))
    assert [p.field for p in err.value.problems] == ["languages", "driver.age"]


def test_static_data_is_fetched_once_a_day(make_session: Any, trip: dict[str, Any], clock: Any) -> None:
    session, sandbox = make_session({"static_page_size": 4})
    session.search(SearchParams(**trip))
    first = sandbox.paths()
    assert first.count("/3.1/suppliers") == 2 and first.count("/3.1/depots") > 1  # static lists paginate too
    sandbox.log.clear()
    session.search(SearchParams(**trip))
    assert set(sandbox.paths()) == {"/3.1/search"}
    clock.advance(86400)
    sandbox.log.clear()
    later = {**trip, "pickup": trip["pickup"] + timedelta(days=2), "dropoff": trip["dropoff"] + timedelta(days=2)}
    session.search(SearchParams(**later))
    assert {"/common/languages", "/3.1/suppliers", "/3.1/depots"} <= set(sandbox.paths())


def test_unknown_supplier_ids_trigger_one_static_refresh(make_session: Any, trip: dict[str, Any]) -> None:
    session, sandbox = make_session()
    session.cache.store("suppliers", session.source, [{"id": 101, "name": "Only one"}])
    session.cache.store("depots", session.source, [])
    result = session.search(SearchParams(**trip))
    depot_pages = -(-len(sandbox.depots) // sandbox.config.static_page_size)
    assert sandbox.paths().count("/3.1/suppliers") == 1 and sandbox.paths().count("/3.1/depots") == depot_pages
    assert result.frame["supplier_name"].notna().all() and result.warnings == []


def test_only_the_list_missing_an_id_is_refetched(make_session: Any, trip: dict[str, Any]) -> None:
    session, sandbox = make_session()
    session.search(SearchParams(**trip))
    session.cache.store("depots", session.source, [])  # a copy from before these depots opened
    sandbox.log.clear()
    result = session.search(SearchParams(**trip))
    assert "/3.1/suppliers" not in sandbox.paths() and "/3.1/depots" in sandbox.paths()
    assert result.frame["pickup_depot_name"].notna().all()


def test_the_version_segment_is_configurable(make_session: Any, trip: dict[str, Any], make_settings: Any) -> None:
    session, sandbox = make_session({"version": "3.2"}, settings=make_settings(demand_api_version="3.2"))
    assert len(session.search(SearchParams(**trip)).frame) > 0
    assert "/3.2/search" in sandbox.paths()
    stale, _ = make_session({"version": "3.2"})
    with pytest.raises(CarsClientError) as err:
        stale.client.post("search", SearchParams(**trip).to_body())
    assert err.value.status == 404 and "serves version 3.2" in err.value.messages[0]


def test_sandbox_errors_carry_every_problem_through_the_client(make_session: Any) -> None:
    session, _ = make_session()
    with pytest.raises(CarsClientError) as err:
        session.client.post("search", {"languages": ["xx"], "pickup": {"datetime": "soon"}, "driver": {"age": 12}})
    assert err.value.status == 400 and err.value.request_id
    assert err.value.ids == ["missing_parameter", "invalid_parameter", "invalid_parameter", "missing_parameter",
                             "missing_parameter", "missing_parameter", "invalid_parameter"]
    assert "`booker.country` is required" in err.value.messages


def test_wrong_key_is_an_auth_error(make_session: Any, trip: dict[str, Any], make_settings: Any) -> None:
    session, _ = make_session(settings=make_settings(api_key=Secret("not-the-key")))
    with pytest.raises(CarsAuthError) as err:
        session.search(SearchParams(**trip))
    assert err.value.ids == ["invalid_api_key"] and "not-the-key" not in str(err.value)


def test_rate_limit_is_waited_out(make_session: Any, trip: dict[str, Any], clock: Any) -> None:
    session, sandbox = make_session({"rate_limit_per_minute": 3, "page_size": 10})
    start = clock.now
    result = session.search(SearchParams(**trip))
    statuses = [s for _, _, s in sandbox.log]
    assert 429 in statuses and session.client.stats.rate_limited == statuses.count(429)
    assert result.frame["offer_id"].is_unique and clock.now - start >= timedelta(seconds=60)


def test_rate_limit_without_enough_retries_is_a_rate_limit_error(make_session: Any, trip: dict[str, Any]) -> None:
    session, _ = make_session({"rate_limit_per_minute": 2}, retry=RetryPolicy(max_attempts=1))
    with pytest.raises(CarsRateLimitError) as err:
        session.search(SearchParams(**trip))
    assert err.value.ids == ["too_many_requests"]


def test_filters_and_currency_reach_the_service(make_session: Any, trip: dict[str, Any]) -> None:
    session, _ = make_session()
    frame = session.search(replace(SearchParams(**trip), transmission="automatic", currency="GBP",
                                   suppliers=("101", "103"))).frame
    assert len(frame) > 0 and set(frame["transmission"]) == {"automatic"}
    assert set(frame["supplier_id"]) <= {"101", "103"} and set(frame["currency"]) == {"GBP"}
