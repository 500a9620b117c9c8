"""Fixtures: a notification service (SQLite, and PostgreSQL when a test server is configured),
served over HTTPS on loopback, with one client's credentials."""

from __future__ import annotations

import os
import secrets
import ssl
from collections.abc import Iterator

import httpx
import pytest

from workbench.notify import NotifyConfig, NotifyService, RequestToBookConfig, create_app
from workbench.serving import ensure_test_ca, serve_in_thread

QUIET = NotifyConfig(request_to_book=RequestToBookConfig(check_interval_seconds=0))


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped afterwards."""
    url = os.environ.get("WORKBENCH_TEST_DATABASE_URL")
    if not url:
        pytest.skip("WORKBENCH_TEST_DATABASE_URL is not set: no PostgreSQL server (`.ci/run` starts one)")
    import psycopg

    schema = f"notify_test_{secrets.token_hex(5)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: object) -> str | None:
    """None (SQLite in the state directory) or a PostgreSQL URL."""
    return None if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest.fixture
def config() -> NotifyConfig:
    return QUIET


@pytest.fixture
def service(tmp_path: object, database_url: str | None, config: NotifyConfig) -> Iterator[NotifyService]:
    svc = NotifyService(tmp_path / "state", config, database_url=database_url)  # type: ignore[operator]
    yield svc
    svc.close()


@pytest.fixture
def creds(service: NotifyService):  # noqa: ANN201
    return service.credentials.create("cns-test")


@pytest.fixture
def server(service: NotifyService):  # noqa: ANN201
    tls = ensure_test_ca(service.state_dir)
    with serve_in_thread(create_app(service), tls) as running:
        yield running


@pytest.fixture
def http(server) -> Iterator[httpx.Client]:  # noqa: ANN001
    ctx = ssl.create_default_context(cafile=str(server.tls.ca_bundle))
    with httpx.Client(verify=ctx, base_url=server.url, timeout=10) as client:
        yield client


def _fetch_token(http: httpx.Client, creds) -> str:  # noqa: ANN001
    r = http.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": creds.client_id,
                                        "client_secret": creds.secret})
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


@pytest.fixture
def token(http: httpx.Client, creds) -> str:  # noqa: ANN001
    return _fetch_token(http, creds)
