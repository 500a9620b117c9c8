"""The sandbox's availability family: OTA_HotelAvailNotif applied by the documented reading (so the client's
builder and the mapping table are held together end to end), the platform's refusals and partial
success, roomrateavailability in the published shapes read back by the client's parser, seeded bookings,
and /_sandbox/availability.csv."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pandas as pd
import pytest

from loaders.schemas import AVAILABILITY_COLUMNS, RESTRICTION_HEADERS
from workbench.ota.response import parse_response
from workbench.ota.room_rate_availability import fetch_frame, parse_room_rate_availability, request_body
from workbench.sandbox import SandboxConfig
from workbench.sandbox.testing import InProcess
from workbench.writers.avail_requests import plan_availability_requests

TODAY = dt.date(2026, 12, 1)
PATH = "/hotels/ota/OTA_HotelAvailNotif"
READ = "/hotels/xml/roomrateavailability"
HEADERS = {"Content-Type": "application/xml", "Accept-Version": "1.1"}


@pytest.fixture
def sandbox():
    made: list[InProcess] = []

    def make(reading: str = "stay_through") -> InProcess:
        sb = InProcess(SandboxConfig(password="pw", today=TODAY, los_reading=reading))
        made.append(sb)
        return sb
    yield make
    for sb in made:
        sb.close()


def frame(rows: list[tuple]) -> pd.DataFrame:
    """rows: (hotel, room, rate or None, date, restriction, value)."""
    out = [{"hotel_code": h, "inv_type_code": room, "rate_plan_code": rate, "date": pd.Timestamp(day),
            "restriction": r, "value": v, "source": "a.xlsx", "sheet": "S", "row": i + 2, "value_column": r}
           for i, (h, room, rate, day, r, v) in enumerate(rows)]
    return pd.DataFrame(out, columns=list(AVAILABILITY_COLUMNS)).astype(AVAILABILITY_COLUMNS)


def table(sb: InProcess) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(sb.request("GET", "/_sandbox/availability.csv").text)))


def send(sb: InProcess, f: pd.DataFrame, reading: str) -> list:
    answers = []
    for req in plan_availability_requests(f, reading=reading):
        answers.append(sb.post(PATH, req.body, HEADERS))
    return answers


EVERY_VALUE = [(1000001, "101", None, "2027-01-05", "rooms_to_sell", 7),
               (1000001, "101", None, "2027-01-06", "closed", 1),
               (1000001, "101", "5001", "2027-01-05", "closed", 0),
               (1000001, "101", "5001", "2027-01-05", "closed_to_arrival", 1),
               (1000001, "101", "5001", "2027-01-05", "closed_to_departure", 0),
               (1000001, "101", "5001", "2027-01-05", "min_stay_arrival", 2),
               (1000001, "101", "5001", "2027-01-05", "max_stay_arrival", 9),
               (1000001, "101", "5001", "2027-01-05", "min_stay_through", 3),
               (1000001, "101", "5001", "2027-01-05", "max_stay_through", 8)]


@pytest.mark.parametrize("reading", ["stay_through", "arrival"])
def test_the_builder_and_the_documented_reading_agree_on_every_value(sandbox, reading) -> None:
    sb = sandbox(reading)
    answers = send(sb, frame(EVERY_VALUE), reading)
    assert [a.status_code for a in answers] == [200] and parse_response(answers[0].content).success
    got = {(r["InvTypeCode"], r["RatePlanCode"], r["Date"], col): r[col] for r in table(sb)
           for col in RESTRICTION_HEADERS.values() if r[col] != ""}
    assert got == {(room, rate or "", day, RESTRICTION_HEADERS[name]): str(v)
                   for _, room, rate, day, name, v in EVERY_VALUE}


def test_a_client_and_a_sandbox_reading_differently_put_the_stays_in_the_other_columns(sandbox) -> None:
    sb = sandbox("stay_through")
    send(sb, frame([(1000001, "101", "5001", "2027-01-05", "min_stay_arrival", 2)]), "arrival")
    row = next(r for r in table(sb) if r["RatePlanCode"] == "5001")
    assert (row["MinStayArrival"], row["MinStayThrough"]) == ("", "2")


def test_refused_messages_name_their_locator_and_the_others_apply(sandbox) -> None:
    sb = sandbox()
    f = frame([(1000001, "101", None, "2026-11-30", "rooms_to_sell", 4),           # applies (1 day back)
               (1000001, "101", None, "2026-11-01", "rooms_to_sell", 4),           # before yesterday
               (1000001, "109", None, "2026-11-30", "rooms_to_sell", 4),           # no such room
               (1000001, "102", "5003", "2026-11-30", "closed", 1)])               # rate inactive for 102
    (answer,) = send(sb, f, "stay_through")
    assert answer.status_code == 200  # partial success: at least one message applied
    parsed = parse_response(answer.content)
    assert not parsed.success and parsed.ruid
    assert sorted((e.code, e.record_id) for e in parsed.errors) == [
        ("NOT_A_VALID_DATE", "1"), ("RATE_NOT_ACTIVE_FOR_ROOM", "3"), ("ROOM_ID_INVALID", "4")]
    assert [(r["InvTypeCode"], r["Date"], r["RoomsToSell"]) for r in table(sb)] == [("101", "2026-11-30", "4")]


def test_every_message_refused_is_a_400_and_changes_nothing(sandbox) -> None:
    sb = sandbox()
    f = frame([(1000005, "501", "9001", "2027-01-05", "min_stay_arrival", 3)])  # Zermatt: LOS pricing
    (answer,) = send(sb, f, "stay_through")
    assert answer.status_code == 400
    assert parse_response(answer.content).error_codes == ("RESTRICTIONS_NOT_SUPPORTED_FOR_LOS",)
    assert table(sb) == []


def test_rooms_to_sell_above_255_are_cut_to_254_and_255_is_kept(sandbox) -> None:
    sb = sandbox()
    body = (b'<OTA_HotelAvailNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.0">'
            b'<AvailStatusMessages HotelCode="1000001">'
            b'<AvailStatusMessage BookingLimit="300"><StatusApplicationControl Start="2027-01-05" End="2027-01-05" '
            b'InvTypeCode="101"/></AvailStatusMessage>'
            b'<AvailStatusMessage BookingLimit="255"><StatusApplicationControl Start="2027-01-06" End="2027-01-06" '
            b'InvTypeCode="101"/></AvailStatusMessage></AvailStatusMessages></OTA_HotelAvailNotifRQ>')
    assert sb.post(PATH, body, HEADERS).status_code == 200
    assert [r["RoomsToSell"] for r in table(sb)] == ["254", "255"]


def test_roomrateavailability_reads_back_what_was_set_and_the_seeded_bookings(sandbox) -> None:
    sb = sandbox()
    send(sb, frame([(1000001, "101", None, "2027-01-05", "rooms_to_sell", 6),
                    (1000001, "101", "5001", "2027-01-06", "closed", 1)]), "stay_through")
    seeded = sb.request("POST", "/_sandbox/bookings", b"HotelCode,InvTypeCode,RatePlanCode,Date,Booked,Cancelled\n"
                                                      b"1000001,101,5001,2027-01-05,2,1\n"
                                                      b"1000001,101,5002,2027-01-05,1,0\n")
    assert seeded.status_code == 200 and seeded.json()["bookings"] == 2
    answer = sb.post(READ, request_body(1000001, dt.date(2027, 1, 5), 2), {"Content-Type": "application/xml"})
    fetched = fetch_frame(parse_room_rate_availability(answer.content, 1000001))
    room = fetched[fetched["rate_plan_code"].isna() & (fetched["inv_type_code"] == "101")]
    assert room[["rooms_to_sell", "booked", "cancelled", "closed"]].values.tolist() == [[6, 3, 1, 0], [0, 0, 0, 0]]
    rate = fetched[fetched["rate_plan_code"].eq("5001").fillna(False) & (fetched["inv_type_code"] == "101")]
    assert rate[["booked", "cancelled", "closed"]].values.tolist() == [[2, 1, 0], [0, 0, 1]]
    assert set(fetched["inv_type_code"]) == {"101", "102"}  # every active room of the property
    level = sb.post(READ, request_body(1000001, dt.date(2027, 1, 5), 1, room_level=1, room_ids=["101"]),
                    {"Content-Type": "application/xml"})
    assert fetch_frame(parse_room_rate_availability(level.content, 1000001))[
        ["inv_type_code", "rooms_to_sell", "booked"]].values.tolist() == [["101", 6, 3]]
    booked_row = next(r for r in table(sb) if r["RatePlanCode"] == "" and r["Date"] == "2027-01-05")
    assert (booked_row["RoomsToSell"], booked_row["Booked"]) == ("6", "3")


@pytest.mark.parametrize(("body", "said"), [
    (request_body(1000001, dt.date(2027, 1, 5), 31).replace(b">31<", b">32<"), "number_of_days must be 1 to 31"),
    (request_body(999), "hotel_id is missing or not a property"),
    (b"<reservations/>", "the request must be <request>"),
])
def test_a_read_the_platform_refuses_is_a_b_xml_error(sandbox, body, said) -> None:
    answer = sandbox().post(READ, body, {"Content-Type": "application/xml"})
    parsed = parse_response(answer.content)
    assert answer.status_code == 200 and said in parsed.errors[0].message


def test_bookings_that_cannot_be_read_are_refused_naming_the_line(sandbox) -> None:
    answer = sandbox().request("POST", "/_sandbox/bookings", b"HotelCode,InvTypeCode,RatePlanCode,Date,Booked,Cancelled"
                                                             b"\n1,101,,05/01/2027,1,0\n")
    assert answer.status_code == 400 and "bookings line 2" in answer.json()["error"]
