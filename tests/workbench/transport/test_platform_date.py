"""The platform's calendar as the client meets it: a sunset Accept-Version refused before sending, a
deprecation header shown as a warning, a sunset's HTTP 400 reported as "sunset: use …" and never retried,
Basic refused with how to switch; and the catalogue's facts (one place, for validation, push and sandbox)."""

from __future__ import annotations

import asyncio
import datetime as dt

import httpx
import pytest

from workbench.config import Secret, Settings
from workbench.transport import ConfigurationError, Outcome, PlatformClient
from workbench.transport.operations import (
    BASIC_AUTH_SUNSET,
    CATALOGUE,
    DEPRECATIONS,
    OPERATIONS,
    deprecations_of,
    gone_elements,
)
from workbench.transport.platform_date import (
    DEPRECATED,
    basic_refused,
    check_accept_version,
    header_notices,
    sunset_refusal,
)

NS = 'xmlns="http://www.opentravel.org/OTA/2003/05"'
BASIC = Settings(base_url="https://platform.test", username="machine", password=Secret("s3cret"))
BEFORE, AFTER = dt.date(2026, 12, 30), dt.date(2026, 12, 31)


def test_the_catalogue_holds_the_platforms_calendar() -> None:
    dates = {(d.subject, d.gone_from) for d in CATALOGUE}
    assert {("OTA_HotelDescriptiveContentNotif", AFTER), ("OTA_HotelSummaryNotif", AFTER),
            ("OTA_HotelDescriptiveInfo", AFTER), ("OTA_HotelInvNotif", AFTER),
            ("currencies", dt.date(2025, 9, 22)), ("OTA_HotelRateAmountNotif version 1.0", dt.date(2024, 2, 14)),
            ("AreaInfo/Attractions in OTA_HotelDescriptiveContentNotif", dt.date(2023, 6, 30)),
            ("HotelInfo/RelativePositions in OTA_HotelDescriptiveContentNotif", dt.date(2023, 6, 30)),
            ("Basic authentication", dt.date(2026, 1, 1))} <= dates
    assert BASIC_AUTH_SUNSET.sunset == dt.date(2025, 12, 31)  # the named day; refused from the next
    assert all(d.operation in OPERATIONS for d in DEPRECATIONS.values())


@pytest.mark.parametrize(("name", "provider", "expected"), [
    ("OTA_HotelDescriptiveInfo", "Home", ["OTA_HotelDescriptiveInfo"]),
    ("OTA_HotelDescriptiveInfo", "Hotel", []),
    ("OTA_HotelInvNotif", " home ", ["OTA_HotelInvNotif"]),
    ("OTA_HotelSummaryNotif", "", ["OTA_HotelSummaryNotif"]),
    ("OTA_HotelRateAmountNotif", "Home", []),
])
def test_which_sunsets_apply_to_a_provider_type(name: str, provider: str, expected: list[str]) -> None:
    assert [d.subject for d in deprecations_of(name, provider_type=provider)] == expected


def test_gone_elements_depend_on_the_day() -> None:
    assert gone_elements("OTA_HotelDescriptiveContentNotif", "", dt.date(2023, 6, 29)) == []
    assert [d.element for d in gone_elements("OTA_HotelDescriptiveContentNotif", "", dt.date(2023, 6, 30))] == [
        "AreaInfo/Attractions", "HotelInfo/RelativePositions"]


@pytest.mark.parametrize(("version", "message"), [
    ("1.0", r"WORKBENCH_ACCEPT_VERSION=1.0: OTA_HotelRateAmountNotif version 1.0 was sunset on 2024-02-14 .*"
            r"set WORKBENCH_ACCEPT_VERSION=1.1"),
    ("2", r"WORKBENCH_ACCEPT_VERSION=2: the platform takes only version 1.1"),
    ("latest", r"only version 1.1"),
])
def test_an_accept_version_other_than_1_1_is_refused_before_sending(version: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        check_accept_version(version)
    with pytest.raises(ConfigurationError, match=message):
        PlatformClient(BASIC.with_(accept_version=version))
    check_accept_version(" 1.1 ")


@pytest.mark.parametrize(("headers", "texts"), [
    ({"Warning": '299 - "OTA_HotelSummaryNotif is deprecated: sunset on 2026-12-31"'},
     ["OTA_HotelSummaryNotif is deprecated: sunset on 2026-12-31"]),
    ({"Warning": '299 platform.test "say \\"this\\""'}, ['say "this"']),
    ({"Warning": '110 - "Response is stale"'}, []),  # not a deprecation
    ({"Deprecation": "@1735603200", "Sunset": "Thu, 31 Dec 2026 00:00:00 GMT"},
     ["deprecated by the platform; sunset on 2026-12-31"]),
    ({"Deprecation": "true"}, ["deprecated by the platform"]),
    ({}, []),
])
def test_deprecation_headers_become_warnings(headers: dict, texts: list[str]) -> None:
    notices = header_notices(httpx.Headers(headers))
    assert [n.short_text for n in notices] == texts and all(n.code == DEPRECATED for n in notices)


@pytest.mark.parametrize(("op", "status", "said", "provider", "version", "today", "expected"), [
    ("OTA_HotelDescriptiveContentNotif", 400, "HTTP 400: gone", "", "", AFTER,
     "sunset: use the Property and Contacts interfaces (OTA_HotelDescriptiveContentNotif was sunset on 2026-12-31"),
    ("OTA_HotelDescriptiveContentNotif", 400, "HTTP 400: this endpoint is sunset", "", "", BEFORE, "sunset: use"),
    ("OTA_HotelDescriptiveContentNotif", 400, "HTTP 400: bad XML", "", "", BEFORE, None),  # a data error
    ("OTA_HotelDescriptiveInfo", 400, "HTTP 400: sunset", "Home", "", AFTER, "sunset: use the modular interfaces"),
    ("OTA_HotelDescriptiveInfo", 400, "HTTP 400: sunset", "Hotel", "", AFTER, None),  # not for this provider
    ("OTA_HotelInvNotif", 400, "HTTP 400: x", "Home", "", AFTER, "for the Home provider type"),
    ("OTA_HotelRateAmountNotif", 400, "HTTP 400: x", "", "1.0", AFTER, "sunset: use version 1.1"),
    ("OTA_HotelRateAmountNotif", 400, "HTTP 400: x", "", "1.1", AFTER, None),
    ("OTA_HotelDescriptiveContentNotif", 200, "sunset", "", "", AFTER, None),
])
def test_a_sunset_400_is_recognised(op, status, said, provider, version, today, expected) -> None:
    found = sunset_refusal(op, status, said, httpx.Headers(), provider_type=provider, version=version, today=today)
    assert (found is None) if expected is None else (expected in (found or "")), found


def test_basic_refused_says_how_to_switch_once_the_scheme_is_gone() -> None:
    gone, stop = basic_refused("HTTP 401: Basic authentication is sunset")
    assert stop and gone.startswith("the platform no longer takes Basic authentication (sunset on 2025-12-31): "
                                    "switch to token-based authentication")
    assert "WORKBENCH_AUTH=token" in gone and "WORKBENCH_CLIENT_ID" in gone and "docs/live-platform.md" in gone
    assert basic_refused("HTTP 401: Invalid username or password") == ("HTTP 401: Invalid username or password",
                                                                       False)  # wrong credentials: as before


def answering(status: int, inner: str, headers: dict[str, str] | None = None):
    calls: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        root = request.url.path.rsplit("/", 1)[-1] + "RS"
        return httpx.Response(status, content=f"<{root} {NS}>{inner}</{root}>".encode(), headers=headers or {})
    return handler, calls


def send(settings: Settings, handler, op: str):
    client = PlatformClient(settings, transport=httpx.MockTransport(handler))

    async def main():
        async with client:
            return await client.send(op, b"<x/>")
    return asyncio.run(main())


def test_a_deprecation_header_is_a_warning_of_the_result() -> None:
    handler, _ = answering(200, "<Success/>", {"Warning": '299 - "OTA_HotelSummaryNotif is deprecated"'})
    result = send(BASIC, handler, "OTA_HotelSummaryNotif")
    assert result.ok and [(n.code, n.message) for n in result.warnings] == [
        (DEPRECATED, "OTA_HotelSummaryNotif is deprecated")]
    assert "DEPRECATED" in result.summary()


def test_a_sunset_400_is_reported_as_sunset_and_not_retried() -> None:
    handler, calls = answering(400, '<Errors><Error Code="SUNSET" ShortText="this operation is sunset"/></Errors>',
                               {"Sunset": "Thu, 31 Dec 2026 00:00:00 GMT"})
    home = BASIC.with_(provider_type="Home")
    result = send(home, handler, "OTA_HotelInvNotif")
    assert result.outcome is Outcome.REJECTED and result.fatal and len(calls) == 1
    assert result.error is not None and result.error.startswith(
        "sunset: use the modular Rooms and Facilities interfaces (OTA_HotelInvNotif was sunset on 2026-12-31 for "
        "the Home provider type")
    assert [n.code for n in result.errors] == ["SUNSET", "SUNSET"] and result.errors[0].message == result.error
    assert result.warnings == ()  # the Sunset header of a refusal is no deprecation warning


def test_a_401_to_basic_says_how_to_switch_and_a_run_stops_with_it() -> None:
    handler, calls = answering(401, '<Errors><Error ShortText="Basic authentication is sunset"/></Errors>')
    result = send(BASIC, handler, "OTA_HotelRateAmountNotif")
    assert result.fatal and "switch to token-based authentication" in (result.error or "")
    assert "s3cret" not in (result.error or "") + result.summary()
    client = PlatformClient(BASIC.with_(max_in_flight=2), transport=httpx.MockTransport(handler))
    delivered: list[object] = []

    async def main():
        async with client:
            await client.send_many([("OTA_HotelRateAmountNotif", b"<x/>", i) for i in range(20)],
                                   on_result=lambda r: delivered.append(r.context))
    with pytest.raises(ConfigurationError, match="^the platform no longer takes Basic authentication"):
        asyncio.run(main())
    assert 1 <= len(delivered) <= 2 and len(calls) == 1 + len(delivered)
