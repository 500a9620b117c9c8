"""OTA_HotelAvailNotifRQ: valid against OTA 2014B for every column and reading, one value per message with
its LocatorID, the one mapping table (in code and in docs/availability.md), and the LOS reading setting."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from lxml import etree

from loaders.schemas import RESTRICTIONS
from workbench.config import LOS_READINGS, Settings
from workbench.errors import SettingsError
from workbench.ota.avail_notif import TABLE, build_avail_notif, parse_avail_notif, table_markdown
from workbench.paths import SPEC_REFERENCE

XSD = SPEC_REFERENCE / "ota-xsd" / "OTA2014B"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "availability.md"
TS = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)
VALUES = {"rooms_to_sell": 0, "closed": 1, "closed_to_arrival": 1, "closed_to_departure": 0, "min_stay_arrival": 2,
          "max_stay_arrival": 14, "min_stay_through": 3, "max_stay_through": 7}


@pytest.fixture(scope="module")
def schema() -> etree.XMLSchema:
    if not (XSD / "OTA_HotelAvailNotifRQ.xsd").exists():
        pytest.fail(f"the OTA 2014B schema is expected at {XSD} (shared/reference beside the repository)")
    return etree.XMLSchema(etree.parse(str(XSD / "OTA_HotelAvailNotifRQ.xsd")))


def _request(reading: str = "stay_through", room: str = "101", mask: int = 0b1111111) -> bytes:
    names = list(RESTRICTIONS)
    rates = [None if r in ("rooms_to_sell", "closed") else "5001" for r in names]
    return build_avail_notif(1000001, names, [VALUES[r] for r in names], ["2027-01-01"] * 8, ["2027-01-31"] * 8,
                             [room] * 8, rates, [mask] * 8, timestamp=TS, reading=reading)


@pytest.mark.parametrize("reading", LOS_READINGS)
@pytest.mark.parametrize("mask", [0b1111111, 0b0110000, 0b0000001])
def test_every_column_validates_against_ota_2014b(schema, reading, mask) -> None:
    root = etree.fromstring(_request(reading, mask=mask))
    assert schema.validate(root), schema.error_log.last_error
    messages = root.findall(".//{*}AvailStatusMessage")
    assert [m.get("LocatorID") for m in messages] == [str(n) for n in range(1, 9)]
    assert messages[0].get("BookingLimit") == "0"  # 0 is a value in 2014B (not in 2003B)
    assert messages[0].find("{*}StatusApplicationControl").get("RatePlanCode") is None  # a room type's own


def test_each_message_carries_one_value_and_reads_back(schema) -> None:
    back = parse_avail_notif(_request())
    assert [(m["restriction"], m["value"]) for m in back] == list(VALUES.items())
    assert [m["locator"] for m in back] == [str(n) for n in range(1, 9)]
    assert back[0]["rate_plan_code"] is None and back[2]["rate_plan_code"] == "5001"


def test_weekday_flags_are_otas_and_written_only_for_some_days() -> None:
    sac = etree.fromstring(_request(mask=0b0110000)).find(".//{*}StatusApplicationControl")
    assert {k: sac.get(k) for k in ("Mon", "Weds", "Thur", "Fri", "Sat")} == {
        "Mon": "false", "Weds": "false", "Thur": "false", "Fri": "true", "Sat": "true"}
    assert parse_avail_notif(_request(mask=0b0110000))[0]["days"] == [False, False, False, False, True, True, False]
    assert etree.fromstring(_request()).find(".//{*}StatusApplicationControl").get("Mon") is None


def test_the_los_reading_swaps_the_two_pairs_and_a_wrong_reading_is_seen() -> None:
    def types(reading: str) -> dict[str, str]:
        root = etree.fromstring(_request(reading))
        return {m.get("LocatorID"): m.find(".//{*}LengthOfStay").get("MinMaxMessageType")
                for m in root.findall(".//{*}AvailStatusMessage") if m.find(".//{*}LengthOfStay") is not None}
    assert types("stay_through") == {"5": "SetForwardMinStay", "6": "SetForwardMaxStay", "7": "SetMinLOS",
                                     "8": "SetMaxLOS"}
    assert types("arrival") == {"5": "SetMinLOS", "6": "SetMaxLOS", "7": "SetForwardMinStay", "8": "SetForwardMaxStay"}
    # read with the other reading, a minimum stay on arrival comes back as a minimum stay through
    misread = {m["locator"]: m["restriction"] for m in parse_avail_notif(_request("arrival"), reading="stay_through")}
    assert misread["5"] == "min_stay_through" and misread["7"] == "min_stay_arrival"


def test_codes_that_need_escaping_stay_valid_xml(schema) -> None:
    body = _request(room='A&B "1"')
    assert schema.validate(etree.fromstring(body)), schema.error_log.last_error
    assert parse_avail_notif(body)[0]["inv_type_code"] == 'A&B "1"'


def test_the_one_table_covers_every_column_and_is_the_one_in_the_docs() -> None:
    assert [c.restriction for c in TABLE] == list(RESTRICTIONS)
    assert all(c.source for c in TABLE)
    assert all(line.count("|") == 8 for line in table_markdown().splitlines())  # no cell breaks the table
    assert table_markdown() in DOCS.read_text(encoding="utf-8"), (
        "docs/availability.md must show the mapping table exactly as workbench.ota.avail_notif.table_markdown() "
        "writes it")


@pytest.mark.parametrize(("given", "kept"), [(None, "stay_through"), ("arrival", "arrival"),
                                             (" Stay_Through ", "stay_through")])
def test_the_los_reading_is_a_setting(given, kept) -> None:
    env = {} if given is None else {"WORKBENCH_LOS_READING": given}
    assert Settings.from_mapping(env).los_reading == kept


def test_an_unknown_los_reading_is_refused_saying_the_choices() -> None:
    with pytest.raises(SettingsError, match="WORKBENCH_LOS_READING=`departure` is not one of stay_through, arrival"):
        Settings.from_mapping({"WORKBENCH_LOS_READING": "departure"})
    with pytest.raises(ValueError, match="LOS reading `x`"):
        build_avail_notif(1, [], [], [], [], [], [], [], reading="x")
