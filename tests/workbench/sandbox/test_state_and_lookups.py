"""Seeding from the registry workbook, state kept across restarts, and the read operations."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from openpyxl import Workbook

from workbench.ota.ns import parse_xml
from workbench.ota.response import parse_response
from workbench.platform.roomrates import parse_roomrates
from workbench.sandbox import SandboxConfig
from workbench.sandbox.platform.seed import load_registry
from workbench.sandbox.testing import InProcess, message, rate_request

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_sample_registry_is_seeded():
    reg = load_registry()
    assert {p.hotel_code: (p.currency, p.pricing_model) for p in reg.properties}[1000003] == ("JPY", "OBP")
    assert len(reg.rooms) == 9 and len(reg.room_rates) == 16


def _workbook(tmp_path, mutate):
    wb = Workbook()
    ws = wb.active
    ws.title = "Properties"
    ws.append(["HotelCode", "HotelName", "CurrencyCode", "PricingModel", "CountryCode"])
    ws.append([1, "A", "EUR", "Standard", "NL"])
    rooms = wb.create_sheet("Rooms")
    rooms.append(["HotelCode", "InvTypeCode", "RoomName", "MaxOccupancy", "MaxAdultOccupancy", "MaxChildOccupancy"])
    rooms.append([1, "10", "Room", 2, 2, 0])
    links = wb.create_sheet("RoomRates")
    links.append(["HotelCode", "InvTypeCode", "RatePlanCode", "RateName", "Active", "ParentRatePlanCode",
                  "FollowsPrice", "ReadOnly"])
    links.append([1, "10", "77", "Rate", 1, None, 0, 0])
    mutate(wb)
    path = tmp_path / "registry.xlsx"
    wb.save(path)
    return path


@pytest.mark.parametrize("mutate,needle", [
    (lambda wb: wb.remove(wb["Rooms"]), "no sheet `Rooms`"),
    (lambda wb: wb["Properties"].delete_cols(3), "missing column(s) `CurrencyCode`"),
    (lambda wb: wb["Properties"].cell(2, 4, "Dynamic"), "row 2, column `PricingModel`"),
    (lambda wb: wb["Rooms"].cell(2, 4, "two"), "sheet `Rooms` row 2, column `MaxOccupancy`"),
])
def test_registry_errors_name_sheet_row_column(tmp_path, mutate, needle):
    with pytest.raises(ValueError) as info:
        load_registry(_workbook(tmp_path, mutate))
    assert needle in str(info.value)


def test_state_and_account_survive_a_restart(tmp_path):
    config = SandboxConfig(state_dir=tmp_path, today=dt.date(2026, 12, 1))
    first = InProcess(config)
    body = rate_request(1000001, [message("2027-01-01", "2027-01-02", "101", "5001",
                                          {"AmountAfterTax": "129.50", "CurrencyCode": "EUR"})])
    assert first.push(body).status_code == 200
    calendar, account = first.rates(), first.auth
    first.close()
    second = InProcess(SandboxConfig(state_dir=tmp_path, today=dt.date(2026, 12, 1)))
    try:
        assert second.rates() == calendar and second.auth == account
        assert [x["endpoint"] for x in second.requests()] == ["OTA_HotelRateAmountNotif"]
    finally:
        second.close()


def test_in_memory_state_is_fresh_each_time():
    a = InProcess()
    a.push(rate_request(1000001, [message("2030-01-01", "2030-01-01", "101", "5001",
                                          {"AmountAfterTax": "1", "CurrencyCode": "EUR"})]))
    assert len(a.rates()) == 1
    a.close()
    b = InProcess()
    assert b.rates() == []
    b.close()


@pytest.fixture
def sb():
    box = InProcess()
    yield box
    box.close()


def test_roomrates_answers_only_what_the_platform_sends(sb):
    """The published shape: rooms, their active rates, ``is_child_rate`` and ``readonly``; no parent rate, no
    FollowsPrice, no currency, no pricing model, no adult occupancy."""
    r = sb.post("/hotels/xml/roomrates", b"<request><hotel_id>1000001</hotel_id></request>", FORM)
    assert r.status_code == 200 and parse_response(r.content).read_ok()
    root = parse_xml(r.content)
    assert root.tag == "rooms" and dict(root.attrib) == {}
    assert {k for room in root.iter("room") for k in room.attrib} == {"id", "hotel_id", "hotel_name", "max_children",
                                                                     "room_name"}
    assert {k for rate in root.iter("rate") for k in rate.attrib} == {"id", "rate_name", "max_persons", "policy",
                                                                     "policy_id", "is_child_rate", "readonly"}
    prop, rooms, links = parse_roomrates(r.content, 1000001)
    assert prop == {"hotel_code": 1000001, "hotel_name": "Hotel Aurora Amsterdam", "currency_code": None,
                    "pricing_model": None}
    assert [(x["inv_type_code"], x["max_adult_occupancy"]) for x in rooms] == [("101", None), ("102", None)]
    by_key = {(x["inv_type_code"], x["rate_plan_code"]): x for x in links}
    assert ("102", "5003") not in by_key  # inactive for that room
    assert [k for k, x in by_key.items() if x["is_child_rate"]] == [("101", "5002"), ("101", "5004"), ("102", "5002")]
    assert all(x["follows_price"] is None and x["parent_rate_plan_code"] is None for x in links)
    assert by_key[("102", "5005")]["read_only"] == 1 and by_key[("101", "5001")]["read_only"] == 0


def test_the_facts_the_platform_keeps_are_served_to_tests_under_sandbox(sb):
    props = list(csv.DictReader(io.StringIO(sb.request("GET", "/_sandbox/properties.csv").text)))
    assert {p["HotelCode"]: (p["CurrencyCode"], p["PricingModel"]) for p in props}["1000003"] == ("JPY", "OBP")
    links = list(csv.DictReader(io.StringIO(sb.request("GET", "/_sandbox/room_rates.csv").text)))
    by_key = {(x["InvTypeCode"], x["RatePlanCode"]): x for x in links if x["HotelCode"] == "1000001"}
    assert (by_key[("101", "5002")]["ParentRatePlanCode"], by_key[("101", "5002")]["FollowsPrice"]) == ("5001", "1")
    assert (by_key[("101", "5004")]["ParentRatePlanCode"], by_key[("101", "5004")]["FollowsPrice"]) == ("5001", "0")
    assert by_key[("102", "5003")]["Active"] == "0"


@pytest.mark.parametrize("body,text", [
    (b"<request><hotel_id>42</hotel_id></request>", "reading room rates hasn't been enabled for hotel 42"),
    (b"<request/>", "hotel_id is missing or not a number"),
    (b"<other/>", "the request must be <request><hotel_id>...</hotel_id></request>"),
])
def test_roomrates_refusals_are_bxml_errors_in_a_200(sb, body, text):
    """As the platform answers: ``<error>…</error><!-- RUID … -->`` with HTTP 200, so only its content says no."""
    r = sb.post("/hotels/xml/roomrates", body, FORM)
    parsed = parse_response(r.content)
    assert r.status_code == 200 and parsed.root == "error" and parsed.ruid
    assert not parsed.read_ok() and parsed.errors[0].text == text
    assert r.content.split(b"\n")[1] == f"<error>{text}</error>".replace("<request>", "&lt;request&gt;").replace(
        "<hotel_id>", "&lt;hotel_id&gt;").replace("</hotel_id>", "&lt;/hotel_id&gt;").replace(
        "</request>", "&lt;/request&gt;").encode()


def test_roomrates_by_attribute(sb):
    r = sb.post("/hotels/xml/roomrates", b'<request hotel_id="1000002"/>', FORM)
    assert r.status_code == 200 and parse_response(r.content).read_ok()
    assert [x["inv_type_code"] for x in parse_roomrates(r.content)[1]] == ["201", "202"]


def test_currency_and_country_lookups(sb):
    cur = sb.post("/hotels/xml/currencies", b"", FORM)
    assert cur.status_code == 200 and b'code="EUR" name="Euro" decimal_places="2"' in cur.content
    assert b'code="JPY"' in cur.content and b'decimal_places="0"' in cur.content
    countries = sb.post("/xml/countries", b"<request/>", FORM)
    assert b'code="NL" name="Netherlands"' in countries.content and parse_response(countries.content).ruid
