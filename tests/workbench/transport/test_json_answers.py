"""The client against the modular APIs' answers: the hand-written fixtures of the published shapes
(tests/fixtures/modular, each folder's SOURCE.md names its source), judged through the envelope: success with
warnings kept, 320/321/394 and 150 rejected, 448/450 failed and retried, a 2xx that is not an envelope
unrecognised; every answer's ``meta.ruid``; errors and warnings as the notices the journal keeps."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest

from workbench.config import Secret, Settings
from workbench.transport import OPERATIONS, Outcome, PlatformClient, RetryPolicy

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "modular"
SETTINGS = Settings(base_url="https://general.test", username="machine", password=Secret("s3cret"))


def fixture(api: str, name: str) -> bytes:
    return (FIXTURES / api / name).read_bytes()


def send(steps: list[tuple[int, bytes]], op: str, body: bytes = b"", *, path: str | None = None,
         attempts: int = 3) -> tuple[object, list[httpx.Request]]:
    """Send one request to scripted answers (the last repeats); returns the result and the requests seen."""
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        status, payload = steps[min(len(seen), len(steps)) - 1]
        return httpx.Response(status, content=payload, headers={"Content-Type": "application/json"})

    async def run() -> object:
        async def no_sleep(_: float) -> None:
            return None

        async with PlatformClient(SETTINGS, transport=httpx.MockTransport(answer), sleep=no_sleep,
                                  retry=RetryPolicy(attempts, 0.0, 0.0, jitter=False)) as client:
            return await client.send(op, body, path=path)

    return asyncio.run(run()), seen


def test_a_create_answered_in_the_envelope_is_a_success_with_its_data_and_ruid() -> None:
    result, seen = send([(200, fixture("property", "create_answer.json"))], "property.create",
                        fixture("property", "create_request.json"))
    assert result.outcome is Outcome.SUCCESS and result.ok
    assert result.data == {"property_id": 10480001}
    assert result.ruid == "d3f1a2b4-0c5e-4f6a-9b7c-1e2d3c4b5a60"
    assert (seen[0].method, seen[0].url.path) == ("POST", "/property-api/properties")
    assert seen[0].headers["content-type"] == "application/json"


def test_a_read_goes_as_a_get_without_a_body_to_the_path_with_its_ids() -> None:
    result, seen = send([(200, fixture("contacts", "read_answer.json"))], "contacts.read",
                        path="/contacts-api/properties/10480001/contacts")
    assert result.outcome is Outcome.SUCCESS
    assert (seen[0].method, seen[0].url.path, seen[0].content) == ("GET", "/contacts-api/properties/10480001/contacts",
                                                                   b"")
    assert len(result.data["contacts"]) == 2


def test_warnings_of_a_success_are_kept_as_notices() -> None:
    answer = json.loads(fixture("property", "update_answer.json"))
    answer["warnings"] = [{"message": "Deprecated field", "code": 399, "details": {"fields": ["currency_code"]}}]
    result, _ = send([(200, json.dumps(answer).encode())], "property.update", b"{}", path="/property-api/properties/1")
    assert result.outcome is Outcome.SUCCESS
    (w,) = result.warnings
    assert (w.kind, w.code, w.short_text, w.record_id) == ("warning", "399", "Deprecated field", "currency_code")


def test_a_fix_the_data_error_is_rejected_with_its_code_message_description_and_path() -> None:
    result, seen = send([(400, fixture("property", "details_error_answer.json"))], "property.update", b"{}",
                        path="/property-api/properties/10480001")
    assert result.outcome is Outcome.REJECTED and len(seen) == 1  # never resent
    (e,) = result.errors
    assert (e.code, e.short_text) == ("320", "Invalid value")
    assert e.details == "postal code does not match the country's format; at physical_address.postal_code"
    assert result.ruid == "6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c"
    assert [n.code for n in result.warnings] == ["399"]
    assert e.record_id == "physical_address.postal_code"  # code, texts and record id: what the journal keeps


@pytest.mark.parametrize(("api", "name", "codes"), [
    ("contacts", "error_answer.json", ["320", "150"]),  # codes written as text in the Contacts description
    ("facilities", "property_error_missing_answer.json", ["320"]),
    ("charges", "error_answer.json", ["321"]),
    ("property", "settings_unknown_field_answer.json", ["394"]),
])
def test_errors_of_every_api_are_rejected_never_retried(api: str, name: str, codes: list[str]) -> None:
    result, seen = send([(400, fixture(api, name))], "contacts.write", b"{}", path="/contacts-api/properties/1/contacts")
    assert result.outcome is Outcome.REJECTED and len(seen) == 1
    assert [e.code for e in result.errors] == codes
    assert not result.fatal


@pytest.mark.parametrize(("status", "api", "name"), [(500, "rooms", "bulk_system_error_answer.json"),
                                                     (400, "contacts", "contract_answer.json")])
def test_448_and_450_are_failed_and_retried(status: int, api: str, name: str) -> None:
    result, seen = send([(status, fixture(api, name))], "units.bulk_update", b"{}", attempts=3)
    assert result.outcome is Outcome.FAILED and len(seen) == 3 and result.attempts == 3
    assert "retry later" in result.error


def test_a_retried_450_that_then_succeeds_is_a_success() -> None:
    result, seen = send([(400, fixture("contacts", "contract_answer.json")),
                         (200, fixture("contacts", "request_answer.json"))], "contacts.write", b"{}",
                        path="/contacts-api/properties/1/contacts")
    assert result.outcome is Outcome.SUCCESS and len(seen) == 2
    assert result.ruids == ("e5f6a7b8-c9d0-4e1f-8a2b-3c4d5e6f7a8b", "8a9b0c1d-2e3f-4a4b-9c5d-6e7f8a9b0c1d")


@pytest.mark.parametrize("payload", [b"", b"[1, 2]", b'{"property_id": 3}', b'{"data": {"property_id": 3',
                                     b"<html>gateway</html>"])
def test_a_2xx_that_is_not_an_envelope_is_unrecognised_never_success(payload: bytes) -> None:
    result, seen = send([(200, payload)], "property.create", b"{}")
    assert result.outcome is Outcome.UNRECOGNISED and len(seen) == 1
    assert result.maybe_applied  # a create: it may have been made
    assert "not the JSON envelope" in result.error


def test_429_is_resent_after_its_wait() -> None:
    result, seen = send([(429, b'{"errors": [], "meta": {"ruid": "r1"}}'),
                         (200, fixture("charges", "answer.json"))], "charges.write", b"{}",
                        path="/charges-api/properties/1/charges")
    assert result.outcome is Outcome.SUCCESS and len(seen) == 2


def test_every_json_operation_is_limited_by_the_overall_limit_only() -> None:
    assert {op.limit_key for op in OPERATIONS.values() if op.json} == {"all"}
