"""Search parameters: every problem found before sending, and the body they become."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.cars import Location, SearchParams, SearchParamsError
from workbench.cars.params import default_location

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
GOOD = SearchParams(country="nl", languages=("en-gb", "nl"), pickup="2026-04-01T10:00", dropoff="2026-04-05T10:00",
                    pickup_location="AMS")
SUPPORTED = ["en-gb", "nl", "de", "pt-br"]


def test_good_parameters_have_no_problems_and_build_the_body() -> None:
    assert GOOD.problems(NOW, SUPPORTED) == []
    body = GOOD.to_body()
    assert body == {
        "booker": {"country": "nl"}, "languages": ["en-gb", "nl"], "currency": "EUR", "driver": {"age": 30},
        "pickup": {"datetime": "2026-04-01T10:00:00", "location": {"airport": "AMS"}},
        "dropoff": {"datetime": "2026-04-05T10:00:00", "location": {"airport": "AMS"}},
    }


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"country": "uk"}, "booker.country", "gb"),
    ({"country": "NLD"}, "booker.country", "two-letter"),
    ({"country": "QQ"}, "booker.country", "not an assigned"),
    ({"languages": ()}, "languages", "at least one"),
    ({"languages": ("english",)}, "languages", "not an IETF language tag"),
    ({"languages": ("en-gb", "fr")}, "languages", "`fr` is not supported"),
    ({"pickup": "2026-04-06T10:00"}, "dropoff.datetime", "must be after pick-up"),
    ({"dropoff": "2026-04-01T10:00"}, "dropoff.datetime", "must be after pick-up"),
    ({"pickup": "2026-02-01T10:00"}, "pickup.datetime", "in the past"),
    ({"pickup": "2026-04-01"}, "pickup.datetime", "no time of day"),
    ({"pickup": date(2026, 4, 1)}, "pickup.datetime", "no time of day"),
    ({"pickup": "1st of April"}, "pickup.datetime", "YYYY-MM-DDTHH:MM"),
    ({"pickup": 20260401}, "pickup.datetime", "expected a date-time"),
    ({"pickup": datetime(2026, 4, 1, 10, tzinfo=UTC)}, "dropoff.datetime", "with an offset, or neither"),
    ({"pickup_location": None}, "pickup.location", "required"),
    ({"pickup_location": "Amsterdam"}, "pickup.location.airport", "IATA"),
    ({"pickup_location": "95.1,4.7"}, "pickup.location.coordinates", "latitude -90..90"),
    ({"pickup_location": Location(latitude=52.3)}, "pickup.location.coordinates", "both latitude and longitude"),
    ({"pickup_location": Location()}, "pickup.location", "exactly one"),
    ({"pickup_location": "depot: "}, "pickup.location.depot", "empty"),
    ({"dropoff_location": "12"}, "dropoff.location.airport", "IATA"),
    ({"driver_age": 17}, "driver.age", "18..99"),
    ({"driver_age": 100}, "driver.age", "18..99"),
    ({"driver_age": True}, "driver.age", "whole number"),
    ({"driver_age": "30"}, "driver.age", "whole number"),
    ({"currency": "EURO"}, "currency", "three-letter"),
    ({"currency": "XYZ"}, "currency", "not an ISO 4217"),
    ({"transmission": "cvt"}, "filters.transmission", "automatic, manual"),
    ({"extra": {"booker": {"country": "de"}}}, "extra.booker", "own parameter"),
])
def test_each_bad_parameter_is_named_with_a_fix(change: dict[str, Any], field: str, words: str) -> None:
    problems = replace(GOOD, **change).problems(NOW, SUPPORTED)
    assert [p.field for p in problems] == [field], problems
    assert words in problems[0].message


def test_every_problem_is_reported_at_once() -> None:
    bad = replace(GOOD, country="uk", pickup="2026-04-06T10:00", driver_age=12, currency="eur0")
    with pytest.raises(SearchParamsError) as err:
        bad.check(NOW, SUPPORTED)
    assert [p.field for p in err.value.problems] == ["booker.country", "dropoff.datetime", "driver.age", "currency"]
    assert "4 problems" in str(err.value)


def test_language_support_is_only_checked_when_the_list_is_known() -> None:
    params = replace(GOOD, languages=("en-gb", "xx"))
    assert params.problems(NOW) == []
    [problem] = params.problems(NOW, SUPPORTED)
    assert problem.field == "languages" and "`xx` is not supported" in problem.message


def test_language_tags_are_normalised_and_deduplicated() -> None:
    params = replace(GOOD, languages=("EN_gb", "en-GB", "nl"))
    assert params.language_list == ["en-gb", "nl"]
    assert params.problems(NOW, ["en-gb", "NL"]) == []
    assert replace(GOOD, languages="nl").language_list == ["nl"]


def test_unsupported_language_suggests_close_ones() -> None:
    [problem] = replace(GOOD, languages=("pt-bt",)).problems(NOW, SUPPORTED)
    assert "did you mean `pt-br`" in problem.message


def test_naive_pickup_is_local_time_refused_only_once_past_everywhere() -> None:
    """A local time 11 hours ago in UTC may still be ahead at UTC-12; 13 hours ago is past everywhere."""
    now_local = NOW.replace(tzinfo=None)
    later = now_local + timedelta(days=3)
    assert replace(GOOD, pickup=now_local - timedelta(hours=11), dropoff=later).problems(NOW) == []
    [problem] = replace(GOOD, pickup=now_local - timedelta(hours=13), dropoff=later).problems(NOW)
    assert problem.field == "pickup.datetime"


def test_aware_pickup_is_compared_exactly() -> None:
    cet = timezone(timedelta(hours=1))
    ok = replace(GOOD, pickup=NOW.astimezone(cet) + timedelta(minutes=5), dropoff=NOW + timedelta(days=2))
    assert ok.problems(NOW) == []
    past = replace(GOOD, pickup=NOW.astimezone(cet) - timedelta(minutes=5), dropoff=NOW + timedelta(days=2))
    assert [p.field for p in past.problems(NOW)] == ["pickup.datetime"]
    assert ok.to_body()["pickup"]["datetime"].endswith("+01:00")


@pytest.mark.parametrize(("text", "expected"), [
    ("ams", {"airport": "AMS"}),
    ("52.31, 4.76", {"coordinates": {"latitude": 52.31, "longitude": 4.76}}),
    ("-33.9,151.17", {"coordinates": {"latitude": -33.9, "longitude": 151.17}}),
    ("depot:5012", {"depot": "5012"}),
])
def test_location_text_forms(text: str, expected: dict[str, Any]) -> None:
    loc = Location.parse(text)
    assert loc.problems("pickup.location") == []
    assert loc.to_json() == expected


def test_optional_filters_and_one_way_trips_reach_the_body() -> None:
    body = replace(GOOD, dropoff_location="RTM", transmission="Automatic", suppliers=("101", "102"),
                   categories=("compact",), currency="gbp", driver_age=24, extra={"sort": "price"}).to_body()
    assert body["dropoff"]["location"] == {"airport": "RTM"}
    assert body["filters"] == {"transmission": "automatic", "suppliers": ["101", "102"], "categories": ["compact"]}
    assert (body["currency"], body["driver"], body["sort"]) == ("GBP", {"age": 24}, "price")


def test_default_location_is_the_main_airport_of_known_countries() -> None:
    assert default_location("NL") == "AMS"
    assert default_location("zz") is None


@given(days=st.integers(min_value=1, max_value=3000), hours=st.integers(min_value=0, max_value=23 * 60))
def test_pickup_before_dropoff_is_required_for_every_gap(days: int, hours: int) -> None:
    start = datetime(2026, 4, 1, 10, 0)
    ok = replace(GOOD, pickup=start, dropoff=start + timedelta(days=days, minutes=hours))
    assert ok.problems(NOW) == []
    swapped = replace(GOOD, pickup=start + timedelta(days=days, minutes=hours), dropoff=start)
    assert [p.field for p in swapped.problems(NOW)] == ["dropoff.datetime"]
