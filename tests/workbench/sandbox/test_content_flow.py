"""The content operation's life cycle in the sandbox (spec E4, States, Errors, Versioning 6, E5):
``New`` creates one property (``UniqueID``), ``Overlay`` replaces its content, ``BuildHotel`` injected
as a fault leaves it Closed until the resend succeeds, the RTB gate, the sunset by the sandbox's CET
date, the three lookups, the ``/_sandbox/`` CSVs; in-process and over HTTPS on loopback."""

from __future__ import annotations

import csv
import datetime as dt
import importlib.util
import io
import ssl
from pathlib import Path

import httpx
import pytest
from lxml import etree
from typer.testing import CliRunner

from workbench.cli.sandbox import sandbox_app
from workbench.ota.response import parse_response
from workbench.sandbox import SandboxConfig
from workbench.sandbox.platform import pipeline as sandbox_app_module
from workbench.sandbox.platform.faults import FaultSpec
from workbench.sandbox.platform.server import run_sandbox
from workbench.sandbox.testing import InProcess


def _bodies():
    spec = importlib.util.spec_from_file_location("content_bodies", Path(__file__).with_name("content_bodies.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


B = _bodies()
TODAY = dt.date(2026, 12, 1)
PATH = "/hotels/ota/OTA_HotelDescriptiveContentNotif"
NS = {"o": "http://www.opentravel.org/OTA/2003/05"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def box(**config) -> InProcess:
    return InProcess(SandboxConfig(**{"today": TODAY, "password": "pw", **config}))


def send(sb: InProcess, body: str, status: int = 200) -> etree._Element:
    r = sb.content(body.encode("utf-8"))
    assert r.status_code == status, r.text
    assert parse_response(r.content).ruid
    return etree.fromstring(r.content)


def codes(root: etree._Element, kind: str = "Error") -> list[str]:
    return [e.get("Code") for e in root.iterfind(f"o:{kind}s/o:{kind}", NS)]


def unique_id(root: etree._Element) -> str | None:
    found = root.find("o:UniqueID", NS)
    return None if found is None else found.get("ID")


def table(sb: InProcess, path: str) -> list[dict[str, str]]:
    r = sb.request("GET", path)
    assert r.status_code == 200, r.text
    return list(csv.DictReader(io.StringIO(r.text)))


def created(sb: InProcess) -> list[dict[str, str]]:
    return [p for p in sb.table("properties") if p["Source"] == "content"]


def test_new_answers_the_published_shape():
    sb = box()
    try:
        root = send(sb, B.NL)
        assert etree.QName(root).localname == "OTA_HotelDescriptiveContentNotifRS"
        assert root.get("Target") == "Test" and root.get("Version") and root.get("TimeStamp")
        assert [etree.QName(c).localname for c in root] == ["Success", "Warnings", "UniqueID"]
        assert root.find("o:UniqueID", NS).attrib == {"Type": "10", "ID": "1000006"}  # after the registry's 1000005
        (prop,) = created(sb)
        assert (prop["HotelCode"], prop["CustomID"], prop["Status"], prop["HotelName"], prop["CountryCode"]) == \
               ("1000006", "NL-1", "Open", "Hotel Canal View", "NL")
        contacts = table(sb, "/_sandbox/content/contacts.csv")
        assert [c["ContactProfileType"] for c in contacts] == ["PhysicalLocation", "general", "invoices"]
        assert contacts[1]["Phones/Phone@PhoneNumber"] == "+31201234567"
        assert [(f["Code"], f["MinAge"], f["MaxAge"]) for f in table(sb, "/_sandbox/content/fees.csv")] == \
               [("5009", "", ""), ("5035", "", ""), ("37", "0", "12"), ("37", "13", "17")]
    finally:
        sb.close()


def test_a_second_new_with_the_same_custom_id_names_the_existing_property():
    sb = box()
    try:
        first = unique_id(send(sb, B.NL))
        again = send(sb, B.edit(B.NL, ("Hotel Canal View", "Hotel Canal View Two")))
        (error,) = again.iterfind("o:Errors/o:Error", NS)
        assert error.get("Code") == "PROPERTY_EXISTS"
        assert error.get("ShortText") == (f"a property with ID `NL-1` was already created: HotelCode {first}; send "
                                          f"Overlay with HotelCode {first} to update it")
        assert len(created(sb)) == 1
    finally:
        sb.close()


def test_build_hotel_fault_then_resend_creates_one_property_once():
    sb = box(faults="buildhotel=NL-1x2")
    try:
        for failures in (1, 2):
            root = send(sb, B.NL)
            (error,) = root.iterfind("o:Errors/o:Error", NS)
            assert error.get("Code") == "BuildHotel" and "resend the same request" in error.get("ShortText")
            assert unique_id(root) is None and root.find("o:Success", NS) is None
            (prop,) = created(sb)
            assert (prop["CustomID"], prop["Status"], prop["BuildHotelFailures"]) == ("NL-1", "Closed", str(failures))
        root = send(sb, B.NL)
        assert codes(root) == [] and unique_id(root) == prop["HotelCode"]
        (done,) = created(sb)
        assert (done["HotelCode"], done["Status"], done["BuildHotelFailures"]) == (prop["HotelCode"], "Open", "2")
        assert codes(send(sb, B.NL)) == ["PROPERTY_EXISTS"]  # never a second property for the custom ID
        assert len(created(sb)) == 1
    finally:
        sb.close()


def test_build_hotel_without_custom_id_matches_the_same_request():
    body = B.edit(B.NL, (' ID="NL-1"', ""))
    sb = box(faults="buildhotel=1")
    try:
        assert codes(send(sb, body)) == ["BuildHotel"]
        assert unique_id(send(sb, body)) == "1000006"
        assert [p["HotelCode"] for p in created(sb)] == ["1000006"]
    finally:
        sb.close()


def test_build_hotel_on_an_overlay_closes_the_property_until_the_resend():
    sb = box(faults="buildhotel=1000001x1")
    try:
        body = B.edit(B.overlay(B.NL, 1000001), (' ID="NL-1"', ""))
        assert codes(send(sb, body)) == ["BuildHotel"]
        status = {p["HotelCode"]: p["Status"] for p in table(sb, "/_sandbox/properties.csv")}
        assert status["1000001"] == "Closed" and status["1000002"] == "Open"
        assert unique_id(send(sb, body)) == "1000001"
        assert {p["HotelCode"]: p["Status"] for p in table(sb, "/_sandbox/properties.csv")}["1000001"] == "Open"
    finally:
        sb.close()


def test_faults_can_be_set_at_run_time_and_are_counted_per_key():
    sb = box()
    try:
        assert sb.request("POST", "/_sandbox/faults", b"buildhotel=NL-1x1|BR-1x1").status_code == 200
        assert codes(send(sb, B.BR)) == ["BuildHotel"]
        assert codes(send(sb, B.NL)) == ["BuildHotel"]
        assert codes(send(sb, B.NL)) == [] and codes(send(sb, B.BR)) == []
        assert sorted(p["CustomID"] for p in created(sb)) == ["BR-1", "NL-1"]
    finally:
        sb.close()


@pytest.mark.parametrize(("spec", "parsed"), [
    ("buildhotel=3", (("*", 3),)), ("buildhotel=H-7x2|1000001x1", (("H-7", 2), ("1000001", 1))),
    ("buildhotel=1000001", (("*", 1000001),)),  # a bare number is a count: name a HotelCode as 1000001x1
    ("buildhotel=box", (("box", 1),))])
def test_build_hotel_fault_spec(spec, parsed):
    assert FaultSpec.parse(spec).build_hotel == parsed and FaultSpec.parse(spec).active


def test_build_hotel_fault_spec_refuses_zero_times():
    with pytest.raises(ValueError, match="give a positive number"):
        FaultSpec.parse("buildhotel=H-7x0")


def test_overlay_replaces_the_stored_content_and_status_follows_the_profiles():
    sb = box()
    try:
        hotel = unique_id(send(sb, B.NL))
        bare = B.edit(B.overlay(B.NL, hotel), ("<FeePolicies>", "<Ignored>"), ("</FeePolicies>", "</Ignored>"),
                      ('ContactProfileType="invoices"', 'ContactProfileType="reservations"'))
        assert codes(send(sb, bare)) == []
        assert table(sb, "/_sandbox/content/fees.csv") == []  # the fees not sent are gone
        assert [c["ContactProfileType"] for c in table(sb, "/_sandbox/content/contacts.csv")] == \
               ["PhysicalLocation", "general", "reservations"]
        assert created(sb)[0]["Status"] == "Closed"  # invoices profile missing: cannot be open
        assert codes(send(sb, B.overlay(B.NL, hotel))) == []
        assert created(sb)[0]["Status"] == "Open"
    finally:
        sb.close()


@pytest.mark.parametrize(("body", "code", "text"), [
    (B.overlay(B.NL, 4242), "UNKNOWN_HOTEL", "HotelCode 4242 is not a property of this account; create it with New first"),
    (B.edit(B.NL, ('HotelDescriptiveContentNotifType="New"', 'HotelDescriptiveContentNotifType="Overlay"')),
     "MISSING_HOTEL_CODE", "an Overlay needs HotelDescriptiveContent@HotelCode (the property to update)"),
    ("<OTA_HotelInvNotifRQ/>", "INVALID_REQUEST", "expected OTA_HotelDescriptiveContentNotifRQ, got OTA_HotelInvNotifRQ"),
    ("<OTA_HotelDescriptiveContentNotifRQ/>", "INVALID_REQUEST",
     "no HotelDescriptiveContents > HotelDescriptiveContent in the request"),
    (B.edit(B.NL, ("</HotelDescriptiveContents>", "<HotelDescriptiveContent/></HotelDescriptiveContents>")),
     "MULTIPLE_HOTELS", "send one HotelDescriptiveContent per request, not 2"),
])
def test_request_errors(body, code, text):
    sb = box()
    try:
        root = send(sb, body)
        assert [(e.get("Code"), e.get("ShortText")) for e in root.iterfind("o:Errors/o:Error", NS)] == [(code, text)]
        assert created(sb) == []
    finally:
        sb.close()


def test_without_notif_type_a_hotel_code_means_overlay():
    sb = box()
    try:
        body = B.edit(B.NL, ('HotelDescriptiveContentNotifType="New" ID="NL-1"', 'HotelCode="1000004"'))
        assert unique_id(send(sb, body)) == "1000004" and created(sb) == []
    finally:
        sb.close()


def test_rtb_needs_the_provider_setting_and_a_new_property():
    off = box()
    try:
        root = send(off, B.rtb(B.NL))
        assert [(e.get("Code"), e.get("ShortText")) for e in root.iterfind("o:Errors/o:Error", NS)] == [
            ("RTB_NOT_ENABLED", "BookingModel RTB needs the provider setting content_api_rtb_enabled; ask the platform "
                                "to enable it, or send IB")]
        assert codes(send(off, B.NL)) == []  # IB is fine without it
    finally:
        off.close()
    on = box(rtb_enabled=True)
    try:
        hotel = unique_id(send(on, B.rtb(B.NL)))
        assert created(on)[0]["BookingModel"] == "RTB"
        root = send(on, B.rtb(B.overlay(B.NL, hotel)))
        assert [(e.get("Code"), e.get("ShortText")) for e in root.iterfind("o:Errors/o:Error", NS)] == [
            ("RTB_NEW_ONLY", "BookingModel RTB (request to book) can be set only when creating a property (New), "
                             "not on an Overlay")]
    finally:
        on.close()


@pytest.mark.parametrize(("today", "refused"), [(dt.date(2026, 12, 30), False), (dt.date(2026, 12, 31), True),
                                                (dt.date(2027, 3, 1), True)])
def test_sunset_by_the_sandbox_date(today, refused):
    sb = box(today=today)
    try:
        root = send(sb, B.NL, 400 if refused else 200)  # from the sunset: HTTP 400, the operation is gone
        if refused:
            assert [(e.get("Code"), e.get("ShortText")) for e in root.iterfind("o:Errors/o:Error", NS)] == [
                ("DEPRECATED_OPERATION", "OTA_HotelDescriptiveContentNotif was sunset on 2026-12-31; use the Property "
                                         "and Contacts interfaces")]
            assert created(sb) == []
        else:
            assert codes(root) == [] and codes(root, "Warning")[0] == "DEPRECATED_OPERATION"
            assert "is sunset on 2026-12-31; move to the Property and Contacts interfaces" in \
                   root.find("o:Warnings/o:Warning", NS).get("ShortText")
    finally:
        sb.close()


class _Clock(dt.datetime):
    """``datetime`` whose ``now`` is 2026-12-30 23:30 UTC: already 2026-12-31 in CET."""

    @classmethod
    def now(cls, tz=None):
        return dt.datetime(2026, 12, 30, 23, 30, tzinfo=dt.UTC).astimezone(tz)


def test_the_unpinned_date_is_the_cet_date(monkeypatch):
    monkeypatch.setattr(sandbox_app_module, "datetime", _Clock)
    sb = box(today=None)
    try:
        assert sb.sandbox.today() == dt.date(2026, 12, 31)
        assert codes(send(sb, B.NL, 400)) == ["DEPRECATED_OPERATION"]
    finally:
        sb.close()


def test_lookups_answer_their_shapes_with_a_ruid():
    sb = box()
    try:
        currencies = sb.post("/hotels/xml/currencies", b"<request/>", FORM)
        root = etree.fromstring(currencies.content)
        assert root.tag == "currencies" and root.find("currency[@code='BRL']").get("name") == "Brazilian Real"
        countries = etree.fromstring(sb.post("/xml/countries", b"", FORM).content)
        assert countries.find("country[@code='BR']").get("name") == "Brazil"
        every = sb.post("/hotels/xml/citytaxcategory", b"", FORM)
        assert parse_response(every.content).ruid and every.status_code == 200
        rows = [c.attrib for c in etree.fromstring(every.content)]
        assert len(rows) == 12 and set(rows[0]) == {"id", "name", "country", "city"}
        brazil = etree.fromstring(sb.post("/hotels/xml/citytaxcategory", b"<request><country>BR</country></request>",
                                          FORM).content)
        assert {c.get("country") for c in brazil} == {"BR"} and len(brazil) == 6
        city = sb.post("/xml/citytaxcategory", b"<request><country>BR</country><city>Sao Paulo</city></request>",
                       FORM)
        assert [(c.get("id"), c.get("city")) for c in etree.fromstring(city.content)] == \
               [("1", "São Paulo"), ("2", "São Paulo"), ("3", "São Paulo")]
        bad = sb.post("/hotels/xml/citytaxcategory", b"<request><country>BRA</country></request>", FORM)
        assert etree.fromstring(bad.content).tag == "error" and b"not a two-letter country code" in bad.content
        assert parse_response(bad.content).ruid
    finally:
        sb.close()


def test_unknown_content_part_is_404():
    sb = box()
    try:
        r = sb.request("GET", "/_sandbox/content/bedrooms.csv")
        assert r.status_code == 404 and "known: contacts" in r.json()["error"]
    finally:
        sb.close()


def test_created_properties_survive_a_restart_and_codes_are_not_reused(tmp_path):
    sb = box(state_dir=tmp_path)
    try:
        assert unique_id(send(sb, B.NL)) == "1000006"
    finally:
        sb.close()
    again = box(state_dir=tmp_path)
    try:
        assert codes(send(again, B.NL)) == ["PROPERTY_EXISTS"]
        assert unique_id(send(again, B.BR)) == "1000007"
    finally:
        again.close()


def test_serve_has_the_rtb_flag():
    result = CliRunner().invoke(sandbox_app, ["serve", "--help"])
    assert result.exit_code == 0 and "--rtb-enabled" in result.output


def test_content_over_real_https():
    with run_sandbox(today=TODAY, rtb_enabled=True, faults="buildhotel=BR-1x1") as running:
        context = ssl.create_default_context(cafile=str(running.tls.ca_bundle))
        with httpx.Client(base_url=running.base_url, verify=context,
                          auth=(running.sandbox.username, running.sandbox.password)) as client:
            body = B.rtb(B.BR).encode("utf-8")
            first = client.post(PATH, content=body, headers={"Content-Type": "text/xml"})
            assert first.status_code == 200 and codes(etree.fromstring(first.content)) == ["BuildHotel"]
            second = client.post("/ota/OTA_HotelDescriptiveContentNotif", content=body,
                                 headers={"Content-Type": "application/xml"})
            root = etree.fromstring(second.content)
            assert codes(root) == [] and unique_id(root) == "1000006" and parse_response(second.content).ruid
            props = [p for p in csv.DictReader(io.StringIO(client.get("/_sandbox/properties.csv").text))
                     if p["Source"] == "content"]
            assert [(p["CustomID"], p["Status"], p["BookingModel"], p["BuildHotelFailures"]) for p in props] == \
                   [("BR-1", "Open", "RTB", "1")]
            invoice = list(csv.DictReader(io.StringIO(client.get("/_sandbox/content/invoice.csv").text)))
            assert invoice[0]["InvoiceTaxNumber@Code"] == "11222333000181"
            lookup = client.post("/hotels/xml/citytaxcategory", content=b"<request><country>BR</country></request>",
                                 headers=FORM)
            assert lookup.status_code == 200 and len(etree.fromstring(lookup.content)) == 6


def test_room_types_can_be_added_to_a_property_content_created():
    sb = box()
    try:
        room = (b'<OTA_HotelInvNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.0">'
                b'<SellableProducts HotelCode="1000006"><SellableProduct InvNotifType="New"><GuestRoom>'
                b'<Room RoomType="9"/><Occupancy MaxOccupancy="2" MaxAdultOccupancy="2" MaxChildOccupancy="0"/>'
                b"<Description><Text>Canal Double</Text></Description></GuestRoom></SellableProduct>"
                b"</SellableProducts></OTA_HotelInvNotifRQ>")
        assert "UNKNOWN_HOTEL" in parse_response(sb.inv_notif(room).content).error_codes
        assert unique_id(send(sb, B.NL)) == "1000006"
        assert parse_response(sb.inv_notif(room).content).success
        assert [r["RoomTypeName"] for r in sb.table("rooms") if r["HotelCode"] == "1000006"] == ["Canal Double"]
    finally:
        sb.close()


def test_health_shows_the_rtb_setting():
    sb = box(rtb_enabled=True)
    try:
        assert sb.request("GET", "/_sandbox/health").json()["rtb_enabled"] is True
    finally:
        sb.close()
