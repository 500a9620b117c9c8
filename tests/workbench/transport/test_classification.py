"""The classification table: ``docs/transport.md`` shows exactly ``verdicts.RULES``, and every row is
what the client does, for an idempotent call and for one that is not (real HTTPS on loopback)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from ssl import SSLContext
from typing import Any

import httpx
import pytest

from tests.workbench.transport.hostile_server import (
    Answer,
    Certificates,
    gzip_bomb,
    hang_up,
    plain,
    says_gzip_but_is_not,
    silent,
)
from workbench.transport import PlatformClient, RetryPolicy
from workbench.transport import verdicts as v

DOCS = Path(__file__).resolve().parents[3] / "docs" / "transport.md"
NS = 'xmlns="http://www.opentravel.org/OTA/2003/05"'
RS = "OTA_HotelRateAmountNotifRS"


def rates(inner: str) -> bytes:
    return f"<{RS} {NS}>{inner}</{RS}>".encode()


@dataclass(frozen=True)
class Scenario:
    """How to bring a call to one situation: what the server does (``closed``: no server at all;
    ``proxy``: the HTTP layer itself fails), settings changes, the operation, the start of the error."""

    answer: Answer | str
    error: str | None = None
    op: str = "OTA_HotelRateAmountNotif"
    changes: dict[str, Any] = field(default_factory=dict)
    context: Callable[[Certificates], SSLContext] | None = None


ERRORS = '<Errors><Error Code="RATE_NOT_ACTIVE_FOR_ROOM" ShortText="inactive"/></Errors>'
SCENARIOS: dict[str, Scenario] = {
    v.SUCCESS: Scenario(plain()),
    v.REJECTED: Scenario(plain(body=rates(ERRORS))),
    v.REJECTED_CREDENTIALS: Scenario(plain(body=b'<reservations><fault code="401" string="Authorization Required"/>'
                                            b"</reservations>"), op="reservations"),
    v.UNRECOGNISED: Scenario(plain(body=rates("")), "unrecognised answer (HTTP 200, neither Success nor Errors)"),
    v.NOT_PLATFORM: Scenario(plain(body=b"<!doctype html><html><body>Portal</body></html>"),
                             "not an answer of the platform (HTTP 200, an HTML page)"),
    v.UNREADABLE: Scenario(plain(body=rates("<Success/>")[:30]), "unreadable answer (HTTP 200)"),
    v.TOO_LARGE: Scenario(gzip_bomb(8 << 20), "answer larger than 64 KiB after decoding",
                          changes={"max_answer_bytes": 64 << 10}),
    v.TOO_SLOW: Scenario(silent(), "answer not finished within 0.3 s", changes={"request_deadline_seconds": 0.3}),
    v.BAD_ENCODING: Scenario(says_gzip_but_is_not(), "answer says gzip but is not gzip"),
    v.NOT_PROCESSED: Scenario(plain(429, body=rates(ERRORS), Retry_After="0"), "HTTP 429"),
    v.AMBIGUOUS_5XX: Scenario(plain(502, body=b""), "HTTP 502"),
    v.FATAL_5XX: Scenario(plain(501, body=b""), "HTTP 501"),
    v.OTHER_5XX: Scenario(plain(505, body=b""), "HTTP 505"),
    v.FATAL_STATUS: Scenario(plain(401, body=rates(ERRORS)), "HTTP 401: "),
    v.REJECTED_STATUS: Scenario(plain(400, body=rates(ERRORS)), "HTTP 400: "),
    v.NOT_SENT: Scenario("closed", "ConnectError"),
    v.NO_ANSWER: Scenario(hang_up(), "RemoteProtocolError"),
    v.TLS: Scenario(plain(), "TLS failed: the certificate is not for this host",
                    context=lambda certificates: certificates.server_context("platform.example")),
    v.OTHER_FAILURE: Scenario("proxy", "ProxyError"),
}


def test_the_docs_show_the_table_the_client_uses():
    text = DOCS.read_text(encoding="utf-8")
    assert v.rules_table() in text, "docs/transport.md: paste workbench.transport.verdicts.rules_table()"


def test_every_row_has_a_scenario():
    assert list(SCENARIOS) == list(v.RULES)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def refuse(request: httpx.Request) -> httpx.Response:
    raise httpx.ProxyError("the proxy refused the tunnel", request=request)


@pytest.mark.parametrize("idempotent", [True, False], ids=["idempotent", "not-idempotent"])
@pytest.mark.parametrize("key", list(SCENARIOS))
def test_each_row_is_what_the_client_does(serve, certificates, key, idempotent):
    scenario, rule = SCENARIOS[key], v.RULES[key]
    options: dict[str, Any] = {}
    if scenario.answer == "closed":
        settings = serve(plain()).settings(base_url=f"https://127.0.0.1:{closed_port()}")
    else:
        server = serve(plain() if isinstance(scenario.answer, str) else scenario.answer,
                       scenario.context(certificates) if scenario.context else None)
        settings = server.settings()
        if scenario.answer == "proxy":
            options["transport"] = httpx.MockTransport(refuse)
    settings = settings.with_(**scenario.changes)

    async def main():
        async with PlatformClient(settings, retry=RetryPolicy(max_attempts=2, base_seconds=0.01, cap_seconds=0.02),
                                  **options) as client:
            return await client.send(scenario.op, b"<request/>", idempotent=idempotent)
    result = asyncio.run(main())
    retried = rule.retried is v.Retried.YES or (rule.retried is v.Retried.IF_IDEMPOTENT and idempotent)
    assert result.situation == key, result.summary()
    assert (result.outcome, result.attempts, result.fatal, result.maybe_applied) == (
        rule.outcome, 2 if retried else 1, rule.fatal, rule.maybe_applied and not idempotent), result.summary()
    if scenario.error is None:
        assert result.error is None
    else:
        assert result.error is not None and result.error.startswith(scenario.error), result.error
