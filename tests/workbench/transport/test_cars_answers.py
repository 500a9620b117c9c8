"""The car search client reads answers as the platform client does (``workbench.transport.answer``):
a lying encoding, a gzip bomb or a trickle ends in ``CarsConnectionError`` after its retries (a search
is a read), never an uncaught ``httpx.DecodingError`` or a run that never ends; a refused TLS handshake
is not retried. Real HTTPS on loopback."""

from __future__ import annotations

import gzip
import ssl

import pytest

from tests.workbench.transport.hostile_server import HostileServer, gzip_bomb, plain, trickle
from workbench.cars.client import CarSearchClient
from workbench.cars.errors import CarsConfigError, CarsConnectionError
from workbench.config import Secret
from workbench.transport import RetryPolicy

LANGUAGES = b'{"data": [{"code": "en"}, {"code": "pt"}], "request_id": "r1"}'


def cars(server: HostileServer, attempts: int = 2, **changes) -> CarSearchClient:
    settings = server.settings(demand_base_url=server.url, demand_ca_bundle=str(server.certificates.ca_pem),
                               api_key=Secret("k3y"), affiliate_id="77", username="", password=Secret(""), **changes)
    return CarSearchClient.from_settings(settings, retry=RetryPolicy(max_attempts=attempts, jitter=False),
                                         sleep=lambda seconds: None)


def post_languages(client: CarSearchClient) -> dict:
    with client:
        return client.post("languages", {})


def test_a_gzip_json_answer_is_read(serve):
    server = serve(plain(body=gzip.compress(LANGUAGES), Content_Type="application/json", Content_Encoding="gzip"))
    assert post_languages(cars(server))["request_id"] == "r1"
    assert server.last_headers["accept-encoding"] == "gzip, deflate"


@pytest.mark.parametrize("answer,changes,message", [
    (plain(body=LANGUAGES, Content_Encoding="gzip"), {}, "answer says gzip but is not gzip"),
    (gzip_bomb(256 << 20), {"max_answer_bytes": 1 << 20}, "answer larger than 1 MiB after decoding"),
    (trickle(0.1, LANGUAGES), {"timeout_seconds": 5, "request_deadline_seconds": 1}, "answer not finished within 1 s"),
], ids=["says-gzip", "gzip-bomb", "trickle"])
def test_a_hostile_answer_is_retried_then_a_connection_error(serve, answer, changes, message):
    server = serve(answer)
    client = cars(server, **changes)
    with pytest.raises(CarsConnectionError, match=f"after 2 attempts: {message}$"):
        post_languages(client)
    assert server.requests == 2 and client.stats.retries == 1


def test_a_refused_tls_handshake_is_not_retried(serve, certificates):
    server = serve(plain(body=LANGUAGES), certificates.server_context(maximum=ssl.TLSVersion.TLSv1_1))
    client = cars(server, attempts=4)
    with pytest.raises(CarsConnectionError, match="TLS failed: the server offers no TLS 1.2 or newer"):
        post_languages(client)
    assert client.stats.requests == 1


def test_unusable_answer_limits_are_a_settings_error(serve):
    with pytest.raises(CarsConfigError, match="WORKBENCH_MAX_ANSWER_BYTES"):
        cars(serve(plain()), max_answer_bytes=-5)
