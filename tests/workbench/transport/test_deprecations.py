"""The sunsets (spec, Versioning 5 and 6) are CET days: a warning on every call before 2026-12-31, refusal
from that day, whatever the machine's time zone; InvNotif for the Home provider type only, content for all."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from workbench.config import Settings
from workbench.errors import OperationSunset
from workbench.flows.rooms import deprecation as rooms_deprecation
from workbench.transport.operations import DEPRECATIONS, SPEC_LIMITS, cet_today, deprecation_notice

CONTENT = "OTA_HotelDescriptiveContentNotif"
UTC = dt.UTC
#: 23:30 UTC on 30 December is 00:30 on 31 December in Amsterdam (CET, UTC+1 in winter)
LAST_UTC_MINUTES = dt.datetime(2026, 12, 30, 23, 30, tzinfo=UTC)
LAST_CET_MINUTE = dt.datetime(2026, 12, 30, 22, 59, tzinfo=UTC)


def test_the_content_operation_is_catalogued_with_its_limit_and_sunset() -> None:
    dep = DEPRECATIONS[CONTENT]
    assert SPEC_LIMITS[CONTENT] == 75
    assert (dep.sunset, dep.replacement, dep.versioning) == (dt.date(2026, 12, 31),
                                                             "the Property and Contacts interfaces", 6)
    assert all(dep.applies_to(p) for p in ("", None, "Home", "hotel", "anything"))


@pytest.mark.parametrize(("now", "cet_day"), [
    (LAST_UTC_MINUTES, dt.date(2026, 12, 31)),
    (LAST_CET_MINUTE, dt.date(2026, 12, 30)),
    (dt.datetime(2026, 6, 30, 22, 0, tzinfo=UTC), dt.date(2026, 7, 1)),      # summer time: UTC+2
    (dt.datetime(2026, 6, 30, 21, 59, tzinfo=UTC), dt.date(2026, 6, 30)),
    (dt.datetime(2026, 12, 30, 23, 30), dt.date(2026, 12, 31)),              # no zone: taken as UTC
    (dt.datetime(2026, 12, 31, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=14))), dt.date(2026, 12, 30)),
])
def test_cet_today(now, cet_day) -> None:
    assert cet_today(now) == cet_day


def test_content_is_refused_from_the_first_cet_minute_of_the_sunset_while_utc_is_still_the_day_before() -> None:
    assert LAST_UTC_MINUTES.date() == dt.date(2026, 12, 30)
    with pytest.raises(OperationSunset, match=r"OTA_HotelDescriptiveContentNotif was sunset on 2026-12-31 "
                                              r"\(spec, Versioning 6\): use the Property and Contacts interfaces"):
        deprecation_notice(CONTENT, "", now=LAST_UTC_MINUTES)
    assert deprecation_notice(CONTENT, "", now=LAST_CET_MINUTE) == (
        "OTA_HotelDescriptiveContentNotif is deprecated and is sunset on 2026-12-31 (1 day left): move to the "
        "Property and Contacts interfaces")


@pytest.mark.parametrize(("today", "refused"), [(dt.date(2025, 1, 1), False), (dt.date(2026, 12, 30), False),
                                                (dt.date(2026, 12, 31), True), (dt.date(2027, 3, 1), True)])
def test_content_warns_before_and_refuses_from_the_sunset_for_every_provider_type(today, refused) -> None:
    for provider in ("", "Home", "Hotel"):
        if refused:
            with pytest.raises(OperationSunset):
                deprecation_notice(CONTENT, provider, today)
        else:
            assert "is deprecated and is sunset on 2026-12-31" in (deprecation_notice(CONTENT, provider, today) or "")


def test_the_home_inv_notif_check_uses_the_cet_day_too(monkeypatch) -> None:
    """The machine's own zone plays no part (here: UTC-10, where it is still 30 December at noon)."""
    monkeypatch.setenv("TZ", "Pacific/Honolulu")
    time.tzset()
    try:
        home = Settings(provider_type="Home")
        with pytest.raises(OperationSunset, match="OTA_HotelInvNotif was sunset on 2026-12-31 for the Home provider "
                                                  r"type \(spec, Versioning 5\)"):
            rooms_deprecation(home, now=LAST_UTC_MINUTES)
        assert "(1 day left)" in (rooms_deprecation(home, now=LAST_CET_MINUTE) or "")
        assert rooms_deprecation(Settings(provider_type="Hotel"), now=LAST_UTC_MINUTES) is None
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_operations_without_a_deprecation_have_no_notice() -> None:
    assert deprecation_notice("OTA_HotelRateAmountNotif", "Home", dt.date(2030, 1, 1)) is None
