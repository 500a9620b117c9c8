"""OTA_HotelRateAmountNotif rules of the sandbox, in-process (httpx.ASGITransport)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.ota.ns import parse_xml
from workbench.ota.response import parse_response
from workbench.sandbox import SandboxConfig
from workbench.sandbox.platform.fx import read_fx_table
from workbench.sandbox.platform.rate_rules import WEEKDAYS, RateRules, canonical_amount, date_window
from workbench.sandbox.testing import InProcess, message, rate_request

TODAY = dt.date(2026, 12, 1)
FX_CSV = "# as_of: 2026-11-20\ncurrency,units_per_eur\nEUR,1\nPLN,4.25\nJPY,160\nCHF,0.95\n"


@pytest.fixture
def fx_file(tmp_path):
    path = tmp_path / "fx.csv"
    path.write_text(FX_CSV)
    return path


@pytest.fixture
def sb(fx_file):
    box = InProcess(SandboxConfig(today=TODAY, password="pw", fx_path=fx_file))
    yield box
    box.close()


def eur(amount="129", **extra):
    return {"AmountAfterTax": amount, "CurrencyCode": "EUR", **extra}


GOOD = message("2027-01-01", "2027-01-03", "101", "5001", eur())


def test_accepts_and_stores_exact_amounts(sb):
    r = sb.push(rate_request(1000001, [message("2027-01-01", "2027-01-02", "101", "5001",
                                               {"AmountAfterTax": "8550", "DecimalPlaces": "2", "CurrencyCode": "EUR"}),
                                       message("2027-01-03", "2027-01-03", "102", "5001", eur("99.99")),
                                       message("2027-01-04", "2027-01-04", "102", "5001", eur("0"))]))
    parsed = parse_response(r.content)
    assert r.status_code == 200 and parsed.success and not parsed.warnings and parsed.ruid
    assert parsed.root == "OTA_HotelRateAmountNotifRS" and parsed.version and parsed.timestamp
    assert [(x["InvTypeCode"], x["Date"], x["Amount"], x["NumberOfGuests"], x["CurrencyCode"]) for x in sb.rates()] == [
        ("101", "2027-01-01", "85.5", "", "EUR"), ("101", "2027-01-02", "85.5", "", "EUR"),
        ("102", "2027-01-03", "99.99", "", "EUR"), ("102", "2027-01-04", "0", "", "EUR")]


def test_child_rate_without_follows_price_and_boundaries_are_accepted(sb):
    first, last = date_window(TODAY)
    body = rate_request(1000001, [message(first.isoformat(), first.isoformat(), "101", "5004", eur("50000")),
                                  message(last.isoformat(), last.isoformat(), "101", "5001", eur("50000.00"))])
    assert parse_response(sb.push(body).content).success
    assert len(sb.rates()) == 2


@pytest.mark.parametrize("namespace,root_hotel", [(False, False), (True, True), (False, True)])
def test_no_namespace_and_hotel_code_on_root_are_accepted(sb, namespace, root_hotel):
    r = sb.push(rate_request(1000001, [GOOD], namespace=namespace, root_hotel=root_hotel))
    assert parse_response(r.content).success and len(sb.rates()) == 3


def test_duplicate_dates_warn_and_first_occurrence_wins(sb):
    body = rate_request(1000001, [message("2027-01-01", "2027-01-05", "101", "5001", eur("100")),
                                  message("2027-01-04", "2027-01-08", "101", "5001", eur("200"), eur("300"))])
    parsed = parse_response(sb.push(body).content)
    assert parsed.success and parsed.warning_codes == ("WARN_DUPLICATE_DATES",)
    warning = parsed.warnings[0]
    assert "2027-01-04..2027-01-08" in warning.details and warning.record_id == "2"
    amounts = {x["Date"]: x["Amount"] for x in sb.rates()}
    assert amounts["2027-01-05"] == "100" and amounts["2027-01-06"] == "200" and len(amounts) == 8


def test_occupancy_based_prices_per_number_of_guests(sb):
    amounts = [{"AmountAfterTax": a, "CurrencyCode": "JPY", "NumberOfGuests": g} for g, a in ((1, 12000), (3, 18000))]
    assert parse_response(sb.push(rate_request(1000003, [message("2027-01-01", "2027-01-01", "301", "7001",
                                                                 *amounts)])).content).success
    assert [(x["NumberOfGuests"], x["Amount"]) for x in sb.rates()] == [("1", "12000"), ("3", "18000")]


def _bad(hotel=1000001, *messages):
    return rate_request(hotel, [GOOD, *messages])


BAD = [
    ("both amounts", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001", eur(AmountBeforeTax="10"))),
     "AMOUNT_BEFORE_AND_AFTER_TAX"),
    ("no amount", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001", {"CurrencyCode": "EUR"})),
     "AMOUNT_MISSING"),
    ("no Rates", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001")), "AMOUNT_MISSING"),
    ("letter O", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001", eur("12O.50"))), "INVALID_AMOUNT"),
    ("negative", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001", eur("-10"))), "INVALID_AMOUNT"),
    ("exponent", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001", eur("1E3"))), "INVALID_AMOUNT"),
    ("decimal with DecimalPlaces", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001",
                                                         eur("85.5", DecimalPlaces="2"))), "INVALID_AMOUNT"),
    ("above cap EUR", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001", eur("50000.01"))),
     "PRICE_ABOVE_MAXIMUM"),
    ("above cap via DecimalPlaces", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001",
                                                          eur("5000001", DecimalPlaces="2"))), "PRICE_ABOVE_MAXIMUM"),
    ("above cap CHF", rate_request(1000005, [message("2027-02-01", "2027-02-01", "501", "9001",
                                                     {"AmountAfterTax": "47500.01", "CurrencyCode": "CHF"})]),
     "PRICE_ABOVE_MAXIMUM"),
    ("other currency", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001",
                                             {"AmountAfterTax": "10", "CurrencyCode": "PLN"})), "CURRENCY_MISMATCH"),
    ("no currency", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001", {"AmountAfterTax": "10"})),
     "MISSING_CURRENCY"),
    ("two days past", _bad(1000001, message("2026-11-29", "2026-12-02", "101", "5001", eur())), "DATE_OUT_OF_RANGE"),
    ("beyond 5 years", _bad(1000001, message("2031-11-30", "2031-12-02", "101", "5001", eur())), "DATE_OUT_OF_RANGE"),
    ("start after end", _bad(1000001, message("2027-02-02", "2027-02-01", "101", "5001", eur())), "INVALID_DATE_RANGE"),
    ("bad date", _bad(1000001, message("2027-2-1", "2027-02-01", "101", "5001", eur())), "INVALID_DATE"),
    ("rate inactive for room", _bad(1000001, message("2027-02-01", "2027-02-01", "102", "5003", eur())),
     "RATE_NOT_ACTIVE_FOR_ROOM"),
    ("rate not linked to room", _bad(1000001, message("2027-02-01", "2027-02-01", "102", "5004", eur())),
     "RATE_NOT_ACTIVE_FOR_ROOM"),
    ("child follows price", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5002", eur())),
     "CHILD_RATE_FOLLOWS_PRICE"),
    ("read-only rate", _bad(1000001, message("2027-02-01", "2027-02-01", "102", "5005", eur())), "RATE_READ_ONLY"),
    ("unknown room", _bad(1000001, message("2027-02-01", "2027-02-01", "999", "5001", eur())), "UNKNOWN_ROOM"),
    ("unknown rate", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "1234", eur())), "UNKNOWN_RATE_PLAN"),
    ("guests on standard pricing", _bad(1000001, message("2027-02-01", "2027-02-01", "101", "5001",
                                                         eur(NumberOfGuests="2"))), "GUESTS_NOT_ALLOWED"),
    ("guests above max adults", rate_request(1000003, [message("2027-02-01", "2027-02-01", "302", "7001", {
        "AmountAfterTax": "9000", "CurrencyCode": "JPY", "NumberOfGuests": "2"})]), "GUESTS_ABOVE_MAX_ADULTS"),
    ("zero guests", rate_request(1000003, [message("2027-02-01", "2027-02-01", "301", "7001", {
        "AmountAfterTax": "9000", "CurrencyCode": "JPY", "NumberOfGuests": "0"})]), "INVALID_NUMBER_OF_GUESTS"),
    ("weekday not boolean", _bad(1000001, message("2027-02-01", "2027-02-07", "101", "5001", eur(), Mon="yes")),
     "INVALID_WEEKDAY_FLAG"),
    ("weekday spellings disagree", _bad(1000001, message("2027-02-01", "2027-02-07", "101", "5001", eur(),
                                                         Wed="true", Weds="false")), "INVALID_WEEKDAY_FLAG"),
    ("missing room", _bad(1000001, {"control": {"Start": "2027-02-01", "End": "2027-02-01", "RatePlanCode": "5001"},
                                    "amounts": [eur()]}), "MISSING_ATTRIBUTE"),
    ("unknown hotel", rate_request(42, [GOOD]), "UNKNOWN_HOTEL"),
    ("no hotel", rate_request(None, [GOOD]), "MISSING_HOTEL_CODE"),
    ("two hotels", rate_request(1000001, [GOOD]).replace(
        b"</RateAmountMessages>", b'</RateAmountMessages><RateAmountMessages HotelCode="1000002"/>'), "MULTIPLE_HOTELS"),
    ("wrong root", b'<OTA_HotelInvNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05"/>', "INVALID_REQUEST"),
]


@pytest.mark.parametrize("body,code", [pytest.param(b, c, id=i) for i, b, c in BAD])
def test_any_error_changes_nothing(sb, body, code):
    r = sb.push(body)
    parsed = parse_response(r.content)
    assert r.status_code == 200
    assert code in parsed.error_codes, parsed.errors
    assert not parsed.success and not parsed.warnings and parsed.ruid
    assert all(e.short_text and e.code for e in parsed.errors)
    assert b"<Success" not in r.content and b"<Warnings" not in r.content
    assert sb.rates() == []


def test_error_details_name_the_message(sb):
    parsed = parse_response(sb.push(BAD[18][1]).content)  # child follows price, second message
    err = parsed.errors[0]
    assert err.record_id == "2" and "hotel_id=1000001" in err.details and "rate_id=5002" in err.details


@pytest.mark.parametrize("version,ok", [(None, True), ("1.1", True), (" 1.1 ", True), ("1.0", False), ("2", False),
                                        ("latest", False)])
def test_accept_version(sb, version, ok):
    headers = {} if version is None else {"Accept_Version": version}
    r = sb.push(rate_request(1000001, [GOOD]), **headers)
    parsed = parse_response(r.content)
    assert parsed.success is ok
    if not ok:
        assert r.status_code == 400 and parsed.error_codes == ("UNSUPPORTED_VERSION",) and sb.rates() == []


def test_fx_table_reader_accepts_column_or_line_as_of(tmp_path, fx_file):
    table = read_fx_table(fx_file)
    assert table.as_of == dt.date(2026, 11, 20) and table.cap("chf") == Decimal("47500.00")
    other = tmp_path / "b.csv"
    other.write_text("currency,units_per_eur,as_of\nJPY,178,2026-11-21\n")
    t2 = read_fx_table(other)
    assert t2.as_of == dt.date(2026, 11, 21) and t2.cap("EUR") == Decimal(50000) and t2.cap("USD") is None


@pytest.mark.parametrize("text,needle", [("currency,rate\nEUR,1\n", "units_per_eur"),
                                         ("currency,units_per_eur\nEURO,1\n", "line 2"),
                                         ("currency,units_per_eur\nPLN,-4\n", "positive"),
                                         ("currency,units_per_eur\nPLN,abc\n", "line 2")])
def test_fx_table_errors_say_where(tmp_path, text, needle):
    path = tmp_path / "fx.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=needle):
        read_fx_table(path)


def test_project_fx_table_covers_sample_currencies():
    table = read_fx_table()
    assert {"EUR", "PLN", "JPY", "CHF"} <= set(table.units_per_eur) and table.as_of is not None


# --- properties, on the rules directly (no HTTP) -----------------------------------------------------

@pytest.fixture(scope="module")
def rules():
    from workbench.sandbox.platform.fx import FXTable
    from workbench.sandbox.platform.seed import load_registry
    return RateRules(load_registry(), FXTable({"EUR": Decimal(1), "JPY": Decimal(160)}))


FLAG = st.sampled_from([None, "true", "false", "1", "0"])
SPELLING = st.sampled_from([("Wed", "Thu"), ("Weds", "Thur")])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(flags=st.lists(FLAG, min_size=7, max_size=7), spelling=SPELLING, namespace=st.booleans())
def test_weekday_rules_hold_for_every_flag_combination(rules, flags, spelling, namespace):
    names = ["Mon", "Tue", spelling[0], spelling[1], "Fri", "Sat", "Sun"]
    given_flags = {n: v for n, v in zip(names, flags, strict=True) if v is not None}
    body = rate_request(1000001, [message("2027-03-01", "2027-03-14", "101", "5001", eur(), **given_flags)],
                        namespace=namespace)
    out = rules.check(parse_xml(body), TODAY)
    truthy = {WEEKDAYS[n] for n, v in given_flags.items() if v in ("true", "1")}
    expected_days = truthy if truthy else set(range(7))  # some true: omitted false; only false / none: all
    got = {dt.date.fromisoformat(c[3]).weekday() for c in out.cells}
    assert not out.errors and got == expected_days
    assert len(out.cells) == 2 * len(expected_days)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cents=st.integers(min_value=0, max_value=60_000_000), places=st.integers(min_value=0, max_value=4))
def test_amounts_are_exact_in_both_notations_and_capped(rules, cents, places):
    value = Decimal(cents).scaleb(-places)
    scaled = rate_request(1000001, [message("2027-03-01", "2027-03-01", "101", "5001",
                                            eur(str(cents), DecimalPlaces=str(places)))])
    plain = rate_request(1000001, [message("2027-03-01", "2027-03-01", "101", "5001", eur(format(value, "f")))])
    a, b = rules.check(parse_xml(scaled), TODAY), rules.check(parse_xml(plain), TODAY)
    assert a.cells == b.cells and a.errors == b.errors
    if value > 50000:
        assert [e.code for e in a.errors] == ["PRICE_ABOVE_MAXIMUM"] and not a.cells
        return
    assert not a.errors
    assert Decimal(a.cells[0][5]) == value and a.cells[0][5] == canonical_amount(value)


def _with_locators(body: bytes, *locators: str) -> bytes:
    """Give the request's RateAmountMessages these LocatorIDs, in order."""
    root = parse_xml(body)
    for el, loc in zip([e for e in root.iter() if e.tag.endswith("}RateAmountMessage")], locators, strict=True):
        el.set("LocatorID", loc)
    from lxml import etree

    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def test_record_id_is_the_messages_locator_id_when_given(sb):
    """OTA's LocatorID "communicates back to the sender exactly which transaction may have had a problem"."""
    body = _with_locators(rate_request(1000001, [GOOD, message("2027-01-01", "2027-01-02", "999", "5001", eur()),
                                                 message("2027-01-01", "2027-01-02", "102", "5003", eur())]),
                          "7", "8", "9")
    parsed = parse_response(sb.push(body).content)
    assert [(e.code, e.record_id) for e in parsed.errors] == [("UNKNOWN_ROOM", "8"), ("RATE_NOT_ACTIVE_FOR_ROOM", "9")]
    assert "room_id=999" in parsed.errors[0].details and "rate_id=5003" in parsed.errors[1].details
    plain = parse_response(sb.push(rate_request(1000001, [GOOD, message("2027-01-01", "2027-01-02", "999", "5001",
                                                                        eur())])).content)
    assert [(e.code, e.record_id) for e in plain.errors] == [("UNKNOWN_ROOM", "2")]  # no LocatorID: the position


def test_duplicate_dates_name_the_later_message_by_its_locator_and_apply_the_first(sb):
    body = _with_locators(rate_request(1000001, [message("2027-01-01", "2027-01-03", "101", "5001", eur("100")),
                                                 message("2027-01-03", "2027-01-04", "101", "5001", eur("200"))]),
                          "1", "2")
    parsed = parse_response(sb.push(body).content)
    assert parsed.success and [(w.code, w.record_id) for w in parsed.warnings] == [("WARN_DUPLICATE_DATES", "2")]
    assert "dates=2027-01-03" in parsed.warnings[0].details
    assert {x["Date"]: x["Amount"] for x in sb.rates()} == {"2027-01-01": "100", "2027-01-02": "100",
                                                            "2027-01-03": "100", "2027-01-04": "200"}
