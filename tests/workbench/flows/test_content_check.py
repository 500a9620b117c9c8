"""check_content: the provider's `content_api_rtb_enabled` from the settings (WORKBENCH_CONTENT_API_RTB_ENABLED), and
where each property is (coordinates against the address country, for a map)."""

from __future__ import annotations

import datetime as dt

from workbench import SAMPLES, Settings, check_content

DAY = dt.date(2026, 12, 1)


def _rtb_rules(settings: Settings | None, rtb_enabled: bool | None = None) -> list[str]:
    check = check_content(SAMPLES / "content.xlsx", settings=settings, today=DAY, rtb_enabled=rtb_enabled)
    return sorted(check.issues.loc[check.issues["rule"].str.startswith("rtb"), "rule"].astype(str))


def test_request_to_book_is_refused_without_the_provider_setting() -> None:
    assert _rtb_rules(None) == ["rtb_not_enabled"]
    assert _rtb_rules(Settings.from_mapping({})) == ["rtb_not_enabled"]


def test_the_setting_from_the_environment_lets_a_new_property_ask_for_it() -> None:
    settings = Settings.from_mapping({"WORKBENCH_CONTENT_API_RTB_ENABLED": "true"})
    assert settings.content_api_rtb_enabled is True
    assert _rtb_rules(settings) == []
    assert _rtb_rules(settings, rtb_enabled=False) == ["rtb_not_enabled"]  # the argument wins


def test_locations_put_each_property_in_the_country_its_coordinates_fall_in() -> None:
    where = check_content(SAMPLES / "content.xlsx", today=DAY).locations.set_index("property")
    assert list(where.index) == ["1000004", "PORTO-01", "BR-SP-01", "BR-RJ-02", "RTB-AMS-01"]
    assert where["address_country"].tolist() == ["PT", "PT", "BR", "BR", "NL"]
    # Porto's coordinates are Vigo's, in Spain: the coordinates_country error of the sample
    assert where["country_at_coordinates"].tolist() == ["PT", "ES", "BR", "BR", "NL"]
    assert where["in_address_country"].tolist() == [True, False, True, True, True]
