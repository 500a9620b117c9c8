"""Parsing every response shape the platform sends (workbench.ota.response)."""

from __future__ import annotations

import datetime as dt

import pytest

from workbench.ota.ns import UnsafeXMLError, parse_xml
from workbench.ota.response import ResponseParseError, extract_ruid, parse_response

NS = 'xmlns="http://www.opentravel.org/OTA/2003/05"'
RUID = "UmFuZG9tSVYkc2RlIyh9Yb1234567890abcdefghijklmnopqrstu=="


#: (body, explicit success (what a write needs), read_ok (what a read needs), warning codes, error codes)
SHAPES = [
    (f'<OTA_HotelRateAmountNotifRS {NS} TimeStamp="2026-11-20T10:00:00+00:00" Version="3.000"><Success/>'
     f"</OTA_HotelRateAmountNotifRS><!-- RUID: [{RUID}] -->", True, True, (), ()),
    (f'<OTA_HotelRateAmountNotifRS TimeStamp="2026-11-20T10:00:00-00:00" Version="3.000"><Success/><Warnings>'
     '<Warning Type="10" Code="WARN_DUPLICATE_DATES" ShortText="dup" Details="dates=2027-01-01"/></Warnings>'
     f"</OTA_HotelRateAmountNotifRS>\n<!-- RUID: [{RUID}] -->\n", True, True, ("WARN_DUPLICATE_DATES",), ()),
    (f'<?xml version="1.0" encoding="UTF-8"?>\n<OTA_HotelRateAmountNotifRS {NS} Version="3.000"><Errors>'
     '<Error Type="3" Code="RATE_NOT_ACTIVE_FOR_ROOM" Status="NotProcessed" RecordID="2" ShortText="inactive" '
     'Details="room_ids=101"/><Error Code="X">text content</Error></Errors></OTA_HotelRateAmountNotifRS>'
     f"\n<!-- RUID: [{RUID}] -->", False, False, (), ("RATE_NOT_ACTIVE_FOR_ROOM", "X")),
    (f'<OTA_HotelInvNotifRS {NS} Version="2.001"><Errors><Error ShortText="Authorization required"/></Errors>'
     f"</OTA_HotelInvNotifRS><!-- RUID: [{RUID}] -->", False, False, (), (None,)),
    (f"<?xml version='1.0' standalone='yes'?>\n<ok/>\n<!-- RUID: [{RUID}] -->", True, False, (), ()),
    (f'<?xml version=\'1.0\' standalone=\'yes\'?><fault code="401" string="Authorization required"/>'
     f"<!-- RUID: [{RUID}] -->", False, False, (), ("401",)),
    # B.XML answers as real partners receive them (issue 10, finding 1): never success
    (f"<error>updating availability hasn't been enabled for hotel 1000001</error><!-- RUID: [{RUID}] -->",
     False, False, (), (None,)),
    (f'<reservations><fault code="401" string="Authorization Required"/></reservations><!-- RUID: [{RUID}] -->',
     False, False, (), ("401",)),
    (f'<rooms><room id="1"/></rooms><!-- RUID: [{RUID}] -->', False, True, (), ()),
    # the published OTA_HotelDescriptiveInfoRS: content and no Success (finding 2)
    (f"<OTA_HotelDescriptiveInfoRS {NS} Version=\"1.006\"><HotelDescriptiveContents/></OTA_HotelDescriptiveInfoRS>"
     f"<!-- RUID: [{RUID}] -->", False, True, (), ()),
    (f"<OTA_HotelDescriptiveInfoRS {NS}><Warnings><Warning Code=\"W\"/></Warnings></OTA_HotelDescriptiveInfoRS>"
     f"<!-- RUID: [{RUID}] -->", False, False, ("W",), ()),  # no content: not a read's answer
]


@pytest.mark.parametrize("body,success,read_ok,warnings,errors", SHAPES)
def test_response_shapes(body, success, read_ok, warnings, errors):
    parsed = parse_response(body.encode())
    assert parsed.success is success
    assert parsed.read_ok() is read_ok
    assert parsed.warning_codes == warnings
    assert tuple(e.code for e in parsed.errors) == errors
    assert parsed.ruid == RUID == extract_ruid(body)


def test_bxml_error_text_is_kept():
    parsed = parse_response(b"<error>updating availability hasn't been enabled for hotel 1000001</error>")
    assert parsed.errors[0].message == "updating availability hasn't been enabled for hotel 1000001"
    fault = parse_response(b'<reservations><fault code="401" string="Authorization Required"/></reservations>')
    assert fault.errors[0].message == "Authorization Required" and not fault.read_ok()


def test_details_of_notices_are_kept():
    body = (f'<OTA_HotelRateAmountNotifRS {NS} TimeStamp="2026-11-20T10:00:00" Version="3.000"><Errors>'
            '<Error Type="3" Code="E1" Status="NotProcessed" RecordID="2" ShortText="short" Details="long"/>'
            "<Error Code=\"E2\">only text</Error></Errors></OTA_HotelRateAmountNotifRS>")
    parsed = parse_response(body)
    e1, e2 = parsed.errors
    assert (e1.type, e1.status, e1.record_id, e1.short_text, e1.details) == ("3", "NotProcessed", "2", "short", "long")
    assert e2.text == "only text" and e2.message == "only text" and e1.message == "short - long"
    assert parsed.version == "3.000" and parsed.timestamp == dt.datetime(2026, 11, 20, 10, 0)
    assert parsed.ruid is None and parsed.namespace == "http://www.opentravel.org/OTA/2003/05"


@pytest.mark.parametrize("stamp,expected", [
    ("2026-11-20T10:00:00+00:00", dt.datetime(2026, 11, 20, 10, tzinfo=dt.UTC)),
    ("2026-11-20T10:00:00-00:00", dt.datetime(2026, 11, 20, 10, tzinfo=dt.UTC)),
    ("2026-11-20T10:00:00Z", dt.datetime(2026, 11, 20, 10, tzinfo=dt.UTC)),
    ("2026-11-20T10:00:00", dt.datetime(2026, 11, 20, 10)),
    ("yesterday", None),
])
def test_timestamps(stamp, expected):
    parsed = parse_response(f'<X_RS TimeStamp="{stamp}"><Success/></X_RS>')
    assert parsed.timestamp == expected and parsed.timestamp_text == stamp


@pytest.mark.parametrize("body", [b"", b"   ", b"<OTA_HotelRateAmountNotifRS><Succ",
                                  b"<html><body>502 Bad Gateway</body>", b"not xml at all",
                                  b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><ok>&e;</ok>'])
def test_unreadable_bodies_raise(body):
    with pytest.raises(ResponseParseError):
        parse_response(body)


def test_entities_and_network_are_never_used():
    with pytest.raises(UnsafeXMLError):
        parse_xml(b'<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "x"><!ENTITY b "&a;&a;">]><r>&b;</r>')


def test_ruid_from_json():
    assert extract_ruid(b'{"access_token": "x", "ruid": "abc=="}') == "abc=="
