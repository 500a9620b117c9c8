"""OTA_HotelRateAmountNotifRQ: schema-valid, exact amounts, OTA weekday spelling."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from workbench.config import Settings
from workbench.errors import SettingsError
from workbench.flows.rates import check_rates, requests_for
from workbench.ota.rate_amount import (
    SPELLINGS,
    amount_attributes,
    build_bytes_from_lists,
    build_from_lists,
    parse_request_messages,
    to_bytes,
    weekday_attributes,
)
from workbench.paths import SAMPLES


def _reference(*parts: str) -> Path:
    """``shared/reference/…`` beside the repository (or beside the folder holding its worktrees)."""
    here = Path(__file__).resolve()
    for folder in here.parents:
        candidate = folder.joinpath("shared", "reference", *parts)
        if candidate.exists():
            return candidate
    return here.parents[3].parent.joinpath("shared", "reference", *parts)


XSD = _reference("ota-xsd", "OTA2003B", "OTA_HotelRateAmountNotifRQ.xsd")


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


def test_every_message_carries_its_position_as_locator_id(schema, sample_requests) -> None:
    """OTA 2003B's RateAmountMessage@LocatorID (a positiveInteger) is how an Error@RecordID names a message."""
    for req in sample_requests:
        messages = parse_request_messages(req.body)
        assert [m["locator"] for m in messages] == [str(n) for n in range(1, len(messages) + 1)]
        assert sorted(req.locators["locator"].unique().tolist()) == list(range(1, len(messages) + 1))


@pytest.fixture(scope="module")
def sample_check():
    return check_rates([SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"], registry=SAMPLES / "registry.xlsx",
                       as_of="2026-12-01")


def test_the_spec_tables_spelling_is_a_setting_and_is_not_schema_valid(schema, sample_check) -> None:
    requests, _ = requests_for(sample_check, skip_invalid=True, spelling="spec")
    bodies = b"".join(r.body for r in requests)
    assert b' Wed="' in bodies and b' Thu="' in bodies and b"Weds=" not in bodies and b"Thur=" not in bodies
    assert not all(schema.validate(etree.fromstring(r.body)) for r in requests)  # why OTA's is the default
    assert weekday_attributes(0b0001100, "spec") == {"Mon": "false", "Tue": "false", "Wed": "true", "Thu": "true",
                                                     "Fri": "false", "Sat": "false", "Sun": "false"}
    ota, _ = requests_for(sample_check, skip_invalid=True)
    assert [parse_request_messages(r.body) for r in requests] == [parse_request_messages(r.body) for r in ota]


@pytest.mark.parametrize(("env", "expected"), [({}, "ota"), ({"WORKBENCH_WEEKDAY_SPELLING": "spec"}, "spec"),
                                               ({"WORKBENCH_WEEKDAY_SPELLING": " OTA "}, "ota")])
def test_weekday_spelling_setting(env, expected) -> None:
    assert Settings.from_mapping(env).weekday_spelling == expected


def test_an_unknown_weekday_spelling_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match="WORKBENCH_WEEKDAY_SPELLING=`short` is not one of ota, spec"):
        Settings.from_mapping({"WORKBENCH_WEEKDAY_SPELLING": "short"})


_TEXT = st.text(st.sampled_from(list("AZaz09_-.:+/ &<>\"'\té\n")), max_size=6)
_AMOUNTS = st.lists(st.tuples(st.sampled_from(["AfterTax", "BeforeTax"]), st.integers(-10**7, 10**9),
                              st.integers(0, 6), st.none() | st.integers(0, 8), _TEXT, st.none() | st.integers(1, 9)),
                    max_size=3)


@settings(max_examples=300, deadline=None)
@given(hotel=st.integers(1, 10**7),
       messages=st.lists(st.tuples(_TEXT, _TEXT, st.integers(1, 127), st.integers(0, 2)), max_size=5),
       vectors=st.lists(_AMOUNTS, min_size=3, max_size=3), echo=st.none() | _TEXT,
       spelling=st.sampled_from(sorted(SPELLINGS)))
def test_templated_bytes_are_lxmls_bytes(hotel, messages, vectors, echo, spelling) -> None:
    """The fast writer gives exactly what lxml serialises (and raises where lxml raises)."""
    amounts = {i: [amount_attributes(*a) for a in v] for i, v in enumerate(vectors)}
    lists = ([f"2026-01-{i + 1:02d}" for i in range(len(messages))], [f"2026-02-{i + 1:02d}" for i in range(len(messages))],
             [m[0] for m in messages], [m[1] for m in messages], [m[2] for m in messages], [m[3] for m in messages])
    ts = dt.datetime(2026, 3, 2, 12, 30, tzinfo=dt.UTC)
    try:
        expected: bytes | type[Exception] = to_bytes(build_from_lists(hotel, *lists, amounts, ts, echo, spelling))
    except ValueError as e:
        expected = type(e)
    if isinstance(expected, bytes):
        assert build_bytes_from_lists(hotel, *lists, amounts, ts, echo, spelling, fragments={}) == expected
    else:
        with pytest.raises(expected):
            build_bytes_from_lists(hotel, *lists, amounts, ts, echo, spelling)
