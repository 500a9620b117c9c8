"""B.XML roomrateavailability: the request (31 nights at most, 12 calls a year) and the answer in every shape
of tests/fixtures/roomrateavailability read into the fetch frame's columns."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest
from lxml import etree

from workbench.ota.response import parse_response
from workbench.ota.room_rate_availability import (
    FETCH_COLUMNS,
    FETCH_HEADERS,
    fetch_frame,
    parse_room_rate_availability,
    request_body,
    windows,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "roomrateavailability"


def rows(name: str, hotel: int = 1000001) -> list[tuple]:
    frame = fetch_frame(parse_room_rate_availability((FIXTURES / name).read_bytes(), hotel_id=hotel))
    return [tuple(None if pd.isna(v) else v for v in r) for r in frame.itertuples(index=False)]


def test_rate_level_answer_gives_room_type_rows_and_room_rate_rows() -> None:
    d5, d6 = pd.Timestamp("2027-01-05"), pd.Timestamp("2027-01-06")
    assert rows("rate_level.xml") == [
        (1000001, "101", None, d5, 5, 3, 1, 0), (1000001, "101", "5001", d5, None, 2, 1, 0),
        (1000001, "101", "5002", d5, None, 1, 0, 1),
        (1000001, "101", None, d6, 0, 0, 0, 1), (1000001, "101", "5001", d6, None, 0, 0, 0),
        (1000001, "101", "5002", d6, None, 0, 0, 0),
        (1000001, "102", None, d5, 3, 1, 0, 0), (1000001, "102", "5001", d5, None, 1, 0, 0)]


def test_room_level_answer_reads_the_nights_own_items() -> None:
    assert rows("room_level.xml", 1000004) == [(1000004, "401", None, pd.Timestamp("2027-01-05"), 2, 3, 1, 0),
                                               (1000004, "401", None, pd.Timestamp("2027-01-06"), 0, 5, 0, 1)]


def test_child_elements_and_the_ota_namespace_read_alike() -> None:
    assert rows("elements.xml", hotel=0) == [(1000004, "402", None, pd.Timestamp("2027-01-05"), 1, 1, 0, 0),
                                             (1000004, "402", "8001", pd.Timestamp("2027-01-05"), None, 1, 0, 1)]


def test_an_empty_answer_is_an_empty_frame_with_the_columns() -> None:
    frame = fetch_frame(parse_room_rate_availability((FIXTURES / "empty.xml").read_bytes(), 1))
    assert frame.empty and frame.dtypes.astype(str).to_dict() == FETCH_COLUMNS
    assert list(FETCH_HEADERS.values()) == ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell",
                                            "Booked", "Cancelled", "Closed"]


def test_the_answers_envelope_carries_the_ruid() -> None:
    assert parse_response((FIXTURES / "rate_level.xml").read_bytes()).ruid == \
        "UmFuZG9tQXZhaWxhYmlsaXR5UmF0ZUxldmVsMDAwMDAwMA=="


def test_an_answer_that_is_no_availability_list_is_refused() -> None:
    with pytest.raises(ValueError, match="expected a roomrateavailability answer"):
        parse_room_rate_availability(b"<reservations><reservation id='1'/></reservations>")


def test_the_request_names_the_window_and_the_level() -> None:
    body = etree.fromstring(request_body(1000001, dt.date(2027, 1, 1), 31, room_level=1, room_ids=["101"]))
    assert [(el.tag, el.text) for el in body] == [("hotel_id", "1000001"), ("number_of_days", "31"),
                                                  ("start_date", "2027-01-01"), ("room_level", "1"),
                                                  ("room_id", "101")]
    assert etree.fromstring(request_body(5)).find("start_date") is None  # the platform's default: tomorrow


@pytest.mark.parametrize(("kwargs", "message"), [({"number_of_days": 32}, "number_of_days is 1 to 31"),
                                                 ({"number_of_days": 0}, "number_of_days is 1 to 31"),
                                                 ({"room_level": 2}, "room_level is 0")])
def test_a_request_the_platform_would_refuse_is_not_built(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        request_body(1, **kwargs)


def test_a_year_is_twelve_calls_of_at_most_31_nights_covering_every_night() -> None:
    calls = windows(dt.date(2027, 1, 1), 365)
    assert len(calls) == 12 and all(1 <= n <= 31 for _, n in calls) and sum(n for _, n in calls) == 365
    covered = [start + dt.timedelta(days=i) for start, n in calls for i in range(n)]
    assert covered == [dt.date(2027, 1, 1) + dt.timedelta(days=i) for i in range(365)]
