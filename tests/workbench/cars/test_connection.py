"""Settings -> connection: versioned paths, headers, and credentials the car search refuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from workbench.cars import CarsConfigError, DemandConnection, Endpoints, LegacyCredentialsError
from workbench.config import Secret


def test_urls_carry_the_configured_version(make_settings: Any) -> None:
    conn = DemandConnection.from_settings(make_settings())
    assert conn.url("search") == "https://demand.test/3.1/search"
    assert conn.url("languages") == "https://demand.test/common/languages"
    assert conn.url("suppliers") == "https://demand.test/3.1/suppliers"
    newer = DemandConnection.from_settings(make_settings(demand_api_version="3.2", demand_base_url="https://h.test/api/"))
    assert newer.url("search") == "https://h.test/api/3.2/search"
    custom = DemandConnection.from_settings(make_settings(), Endpoints(search="/{version}/cars/search"))
    assert custom.url("search") == "https://demand.test/3.1/cars/search"


def test_headers_carry_bearer_key_and_affiliate_id_but_repr_hides_the_key(make_settings: Any, api_key: str) -> None:
    conn = DemandConnection.from_settings(make_settings())
    headers = conn.headers()
    assert headers["Authorization"] == f"Bearer {api_key}"
    assert headers["X-Affiliate-Id"] == "1234567"
    assert api_key not in repr(conn) and api_key not in str(conn)


def test_a_key_pasted_with_its_scheme_is_accepted(make_settings: Any, api_key: str) -> None:
    conn = DemandConnection.from_settings(make_settings(api_key=Secret(f"Bearer {api_key}")))
    assert conn.headers()["Authorization"] == f"Bearer {api_key}"


@pytest.mark.parametrize("overrides", [
    {"api_key": Secret(""), "username": "hotel-xml-user", "password": Secret("s3cret")},
    {"api_key": Secret(""), "password": Secret("s3cret")},
    {"api_key": Secret("hotel-xml-user:s3cret")},
    {"api_key": Secret("Basic aG90ZWw6czNjcmV0")},
])
def test_legacy_xml_credentials_are_refused_with_a_clear_message(make_settings: Any, overrides: dict[str, Any]) -> None:
    with pytest.raises(LegacyCredentialsError) as err:
        DemandConnection.from_settings(make_settings(**overrides))
    text = str(err.value)
    assert "WORKBENCH_API_KEY" in text and "Bearer" in text
    assert "s3cret" not in text and "aG90ZWw6czNjcmV0" not in text


@pytest.mark.parametrize(("overrides", "words"), [
    ({"demand_base_url": ""}, "`WORKBENCH_DEMAND_BASE_URL` is empty"),
    ({"demand_base_url": "http://demand.test"}, "must be an https:// URL"),
    ({"demand_base_url": "https://demand.test/3.1"}, "ends with a version segment"),
    ({"api_key": Secret("")}, "`WORKBENCH_API_KEY` is empty"),
    ({"api_key": Secret("two words")}, "spaces or line breaks"),
    ({"affiliate_id": ""}, "`WORKBENCH_AFFILIATE_ID` is empty"),
    ({"affiliate_id": "12\n34"}, "spaces or line breaks"),
    ({"demand_api_version": "v3"}, "not a version like `3.1`"),
    ({"demand_ca_bundle": "/nonexistent/ca.pem"}, "does not exist"),
])
def test_unusable_settings_name_the_setting(make_settings: Any, overrides: dict[str, Any], words: str) -> None:
    with pytest.raises(CarsConfigError) as err:
        DemandConnection.from_settings(make_settings(**overrides))
    assert words in str(err.value)
    assert not isinstance(err.value, LegacyCredentialsError)


def test_ca_bundle_builds_a_verifying_context(make_settings: Any, tmp_path: Path) -> None:
    from workbench.serving import ensure_test_ca

    tls = ensure_test_ca(tmp_path)
    conn = DemandConnection.from_settings(make_settings(demand_ca_bundle=str(tls.ca_bundle)))
    ctx = conn.verify
    assert not isinstance(ctx, bool) and ctx.get_ca_certs()
    assert DemandConnection.from_settings(make_settings()).verify is True
