"""The common rules: Host, Basic auth, Content-Type, Content-Encoding, ruid on every answer."""

from __future__ import annotations

import base64
import datetime as dt
import gzip
import zlib

import brotli
import pytest

from workbench.ota.response import extract_ruid, parse_response
from workbench.sandbox import SandboxConfig, lzw
from workbench.sandbox.testing import RATES_PATH, InProcess, message, rate_request

BODY = rate_request(1000001, [message("2027-01-01", "2027-01-03", "101", "5001",
                                      {"AmountAfterTax": "129", "CurrencyCode": "EUR"})])
ROOMRATES = b"<request><hotel_id>1000001</hotel_id></request>"


@pytest.fixture
def sb():
    box = InProcess(SandboxConfig(today=dt.date(2026, 12, 1), password="pw", general_host="platform.test",
                                  pci_host="secure.platform.test"), host="platform.test")
    yield box
    box.close()


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def headers(**h: str) -> dict[str, str]:
    return {"Content-Type": "application/xml", **{k.replace("_", "-"): v for k, v in h.items()}}


@pytest.mark.parametrize("host,path,status,code", [
    ("secure.platform.test", RATES_PATH, 421, "MISUSE_WRONG_HOST"),
    ("evil.example", RATES_PATH, 421, "MISUSE_UNKNOWN_HOST"),
    ("platform.test:8443", RATES_PATH, 421, "MISUSE_UNKNOWN_HOST"),  # same name, other port: not this host
    ("platform.test", "/hotels/xml/reservations", 421, "MISUSE_WRONG_HOST"),  # PCI operation on the general host
])
def test_host_header_must_name_the_operations_host(sb, host, path, status, code):
    r = sb.post(path, BODY, {**headers(), "Host": host})
    assert r.status_code == status
    assert parse_response(r.content).error_codes == (code,) and extract_ruid(r.content)
    assert sb.rates() == []


def test_pci_operation_is_served_on_the_pci_host(sb):
    r = sb.post("/hotels/xml/reservations", b"", {"Content-Type": "application/x-www-form-urlencoded",
                                                  "Host": "secure.platform.test"})
    assert r.status_code == 200 and parse_response(r.content).read_ok()


@pytest.mark.parametrize("auth_header,why", [
    (None, "missing"),
    (basic("sandbox", "wrong"), "wrong password"),
    (basic("other", "pw"), "unknown user"),
    ("Basic !!!not-base64", "not base64"),
    ("Bearer abc.def.ghi", "another scheme"),
])
def test_basic_auth_is_required(sb, auth_header, why):
    h = headers() if auth_header is None else {**headers(), "Authorization": auth_header}
    r = sb.post(RATES_PATH, BODY, h, auth=None)
    assert r.status_code == 401, why
    assert r.headers["www-authenticate"].startswith("Basic")
    parsed = parse_response(r.content)
    assert not parsed.success and parsed.errors[0].short_text and parsed.ruid
    assert sb.rates() == []


def test_bxml_endpoint_answers_auth_failure_as_a_fault_inside_its_answer(sb):
    """As the platform does: ``<reservations><fault code="401" string="Authorization Required"/></reservations>``."""
    r = sb.post("/hotels/xml/roomrates", ROOMRATES, {"Content-Type": "application/xml"}, auth=("sandbox", "x"))
    parsed = parse_response(r.content)
    assert r.status_code == 401 and parsed.root == "rooms" and parsed.error_codes == ("401",)
    assert b'<rooms><fault code="401" string="' in r.content and not parsed.read_ok()
    pci = sb.request("POST", "/hotels/xml/reservations", b"<request/>", {"Content-Type": "application/xml",
                                                                          "Host": "secure.platform.test"}, auth=("sandbox", "x"))
    assert pci.status_code == 401 and pci.content.split(b"\n")[1].startswith(b'<reservations><fault code="401"')


@pytest.mark.parametrize("path,content_type,body,ok", [
    (RATES_PATH, "application/xml", BODY, True),
    (RATES_PATH, "application/xml; charset=UTF-8", BODY, True),
    (RATES_PATH, "text/xml", BODY, False),  # E3: must be application/xml
    (RATES_PATH, "application/json", BODY, False),
    (RATES_PATH, "application/x-www-form-urlencoded", BODY, False),
    (RATES_PATH, "text/csv", BODY, False),
    (RATES_PATH, None, BODY, False),
    (RATES_PATH, "application/xml; charset=latin-1", BODY, False),
    (RATES_PATH, "application/xml", b'{"hotel": 1}', False),  # body is JSON
    (RATES_PATH, "application/xml", b"hotel_id=1000001", False),  # body is a form
    ("/hotels/xml/roomrates", "application/x-www-form-urlencoded", ROOMRATES, True),  # B.XML
    ("/hotels/xml/roomrates", "text/xml", ROOMRATES, True),
    ("/hotels/xml/roomrates", "application/json", ROOMRATES, False),
    ("/hotels/xml/roomrates", "application/x-www-form-urlencoded", b"hotel_id=1000001", False),
])
def test_content_type_must_match_the_body(sb, path, content_type, body, ok):
    h = {} if content_type is None else {"Content-Type": content_type}
    r = sb.post(path, body, h)
    if ok:  # a write answers Success; a read (roomrates) answers its content
        parsed = parse_response(r.content)
        assert r.status_code == 200 and (parsed.success or (path.endswith("roomrates") and parsed.read_ok()))
    else:
        assert r.status_code == 415
        assert parse_response(r.content).error_codes in (("MISUSE_CONTENT_TYPE",),)


ENCODERS = {
    "gzip": gzip.compress,
    "deflate": zlib.compress,
    "br": brotli.compress,
    "compress": lzw.compress,
    "identity": lambda b: b,
    "*": lambda b: b,
}


@pytest.mark.parametrize("coding", list(ENCODERS))
def test_allowed_content_encodings_are_decoded(sb, coding):
    r = sb.post(RATES_PATH, ENCODERS[coding](BODY), headers(Content_Encoding=coding))
    assert r.status_code == 200 and parse_response(r.content).success and len(sb.rates()) == 3


def test_raw_deflate_and_stacked_encodings(sb):
    raw = zlib.compressobj(wbits=-15)
    deflated = raw.compress(BODY) + raw.flush()
    assert parse_response(sb.post(RATES_PATH, deflated, headers(Content_Encoding="deflate")).content).success
    stacked = brotli.compress(gzip.compress(BODY))
    assert parse_response(sb.post(RATES_PATH, stacked, headers(Content_Encoding="gzip, br")).content).success


@pytest.mark.parametrize("coding,body,status,code", [
    ("utf-8", BODY, 415, "MISUSE_CONTENT_ENCODING"),
    ("zip", BODY, 415, "MISUSE_CONTENT_ENCODING"),
    ("gzip, utf-8", gzip.compress(BODY), 415, "MISUSE_CONTENT_ENCODING"),
    ("gzip", BODY, 400, "INVALID_BODY_ENCODING"),  # says gzip, is not
    ("br", b"\x00\x01garbage", 400, "INVALID_BODY_ENCODING"),
    ("compress", b"\x1f\x9d\x90garbage", 400, "INVALID_BODY_ENCODING"),
])
def test_bad_content_encoding_is_misuse(sb, coding, body, status, code):
    r = sb.post(RATES_PATH, body, headers(Content_Encoding=coding))
    assert r.status_code == status and parse_response(r.content).error_codes == (code,)
    assert sb.rates() == []


@pytest.mark.parametrize("body,needle", [
    (b"<OTA_HotelRateAmountNotifRQ><oops></OTA_HotelRateAmountNotifRQ>", "line 1"),
    (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><OTA_HotelRateAmountNotifRQ>&a;'
     b"</OTA_HotelRateAmountNotifRQ>", "DTD"),
    (b"", "empty"),
])
def test_unreadable_or_unsafe_xml_is_refused(sb, body, needle):
    r = sb.post(RATES_PATH, body, headers())
    parsed = parse_response(r.content)
    assert r.status_code == 400 and not parsed.success and needle in parsed.errors[0].short_text


def test_every_answer_carries_a_ruid_and_is_logged(sb):
    answers = [sb.post(RATES_PATH, BODY, headers()), sb.post(RATES_PATH, BODY, headers(), auth=None),
               sb.post("/hotels/ota/OTA_HotelProductNotif", b"<x/>", headers()),
               sb.post("/hotels/xml/currencies", b"", {"Content-Type": "application/x-www-form-urlencoded"}),
               sb.post("/xml/countries", b"", {"Content-Type": "application/x-www-form-urlencoded"}),
               sb.post("/hotels/xml/nothing-here", b"", headers())]
    assert [a.status_code for a in answers] == [200, 401, 501, 200, 200, 404]
    ruids = [extract_ruid(a.content) for a in answers]
    assert all(r and r.endswith("==") for r in ruids) and len(set(ruids)) == len(ruids)
    log = sb.requests()
    assert [(x["endpoint"], x["status"]) for x in log] == [
        ("OTA_HotelRateAmountNotif", "200"), ("OTA_HotelRateAmountNotif", "401"), ("OTA_HotelProductNotif", "501"),
        ("currencies", "200"), ("countries", "200")]
    assert [x["ruid"] for x in log] == ruids[:5]
    assert set(log[0]) >= {"time", "endpoint", "status", "ruid"}
