"""OTA_HotelRateAmountNotifRQ: schema-valid, exact amounts, OTA weekday spelling."""

from __future__ import annotations

import pytest
from lxml import etree

from workbench.flows.rates import check_rates, requests_for
from workbench.ota.rate_amount import amount_attributes, parse_request_messages, weekday_attributes
from workbench.paths import SAMPLES, SPEC_REFERENCE

XSD = SPEC_REFERENCE / "ota-xsd" / "OTA2003B" / "OTA_HotelRateAmountNotifRQ.xsd"


@pytest.fixture(scope="module")
def schema() -> etree.XMLSchema:
    if not XSD.exists():
        pytest.fail(f"the OTA 2003B schema is expected at {XSD} (shared/reference beside the repository)")
    return etree.XMLSchema(etree.parse(str(XSD)))


@pytest.fixture(scope="module")
def sample_requests():
    check = check_rates([SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"], registry=SAMPLES / "registry.xlsx",
                        as_of="2026-12-01")
    requests, _ = requests_for(check, skip_invalid=True)
    return requests


def test_every_sample_request_validates_against_ota_2003b(schema, sample_requests) -> None:
    assert len(sample_requests) > 10
    for req in sample_requests:
        doc = etree.fromstring(req.body)
        assert schema.validate(doc), (req.key, schema.error_log.last_error)


def test_weekday_flags_use_the_ota_spelling(sample_requests) -> None:
    bodies = b"".join(r.body for r in sample_requests)
    assert b'Weds="' in bodies and b'Thur="' in bodies
    assert b' Wed="' not in bodies and b' Thu="' not in bodies
    assert weekday_attributes(0b1111111) == {}
    assert weekday_attributes(0b0110000) == {"Mon": "false", "Tue": "false", "Weds": "false", "Thur": "false",
                                             "Fri": "true", "Sat": "true", "Sun": "false"}


@pytest.mark.parametrize(("args", "expected"), [
    (("AfterTax", 9999, 2, None, "EUR", None), {"AmountAfterTax": "99.99", "CurrencyCode": "EUR"}),
    (("AfterTax", 5, 2, None, "EUR", None), {"AmountAfterTax": "0.05", "CurrencyCode": "EUR"}),
    (("BeforeTax", -125, 1, None, "EUR", 2), {"NumberOfGuests": "2", "AmountBeforeTax": "-12.5",
                                               "CurrencyCode": "EUR"}),
    (("AfterTax", 855, 1, 2, "EUR", None), {"AmountAfterTax": "8550", "DecimalPlaces": "2", "CurrencyCode": "EUR"}),
    (("AfterTax", 123456, 4, None, "KWD", None), {"AmountAfterTax": "123456", "DecimalPlaces": "4",
                                                  "CurrencyCode": "KWD"}),
    (("AfterTax", 12000, 0, None, "JPY", 1), {"NumberOfGuests": "1", "AmountAfterTax": "12000", "CurrencyCode": "JPY"}),
])
def test_amounts_are_written_exactly(args, expected) -> None:
    assert amount_attributes(*args) == expected


def test_parse_accepts_both_weekday_spellings() -> None:
    body = (b'<OTA_HotelRateAmountNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.0">'
            b'<RateAmountMessages HotelCode="7"><RateAmountMessage><StatusApplicationControl Start="2027-01-01" '
            b'End="2027-01-31" RatePlanCode="R" InvTypeCode="A" Wed="1" Thu="true"/><Rates><Rate><BaseByGuestAmts>'
            b'<BaseByGuestAmt AmountAfterTax="10" CurrencyCode="EUR"/></BaseByGuestAmts></Rate></Rates>'
            b'</RateAmountMessage></RateAmountMessages></OTA_HotelRateAmountNotifRQ>')
    (msg,) = parse_request_messages(body)
    assert msg["days"] == [False, False, True, True, False, False, False]
