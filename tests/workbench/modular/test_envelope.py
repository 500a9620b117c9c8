"""The answer envelope, parsed once: data, warnings, errors (integer or string codes), ruid; what to do per code."""

from __future__ import annotations

import pytest

from tests.workbench.modular.conftest import FIXTURES
from workbench.modular.envelope import (
    FIX_DATA,
    REFUSED,
    RETRY_LATER,
    EnvelopeParseError,
    classify,
    parse_envelope,
)


@pytest.mark.parametrize(("code", "kind"), [
    (320, FIX_DATA), (321, FIX_DATA), (394, FIX_DATA), ("320", FIX_DATA), (" 394 ", FIX_DATA),
    (150, REFUSED), ("150", REFUSED),
    (448, RETRY_LATER), (450, RETRY_LATER), ("450", RETRY_LATER),
    (497, FIX_DATA), (635, FIX_DATA), ("E_SOMETHING", FIX_DATA), (None, FIX_DATA), (True, FIX_DATA),
])
def test_each_code_says_what_the_caller_can_do(code: object, kind: str) -> None:
    assert classify(code) == kind  # type: ignore[arg-type]


def test_an_integer_code_with_its_paths_and_the_extra_details() -> None:
    env = parse_envelope((FIXTURES / "facilities" / "property_error_missing_answer.json").read_bytes())
    assert not env.ok and env.kind == FIX_DATA and env.ruid == "cc33dd44-ee55-4f66-8077-889900112233"
    (err,) = env.errors
    assert err.code == 320 and err.fields == ("property_facility_list[1].instances[0].parking_details.name",)
    assert err.details["facility_id"] == 2 and err.description == "must not be null"
    assert err.text() == "Invalid value: must not be null"


def test_string_codes_are_read_as_numbers_and_the_worst_kind_wins() -> None:
    env = parse_envelope((FIXTURES / "contacts" / "error_answer.json").read_text())
    assert [e.code for e in env.errors] == [320, 150]
    assert [e.kind for e in env.errors] == [FIX_DATA, REFUSED]
    assert env.kind == FIX_DATA
    assert env.errors[1].fields == () and env.errors[1].description is None


def test_retry_later_when_every_error_is_transient() -> None:
    env = parse_envelope((FIXTURES / "rooms" / "bulk_system_error_answer.json").read_bytes())
    assert env.kind == RETRY_LATER and env.data is None


def test_success_and_warnings() -> None:
    env = parse_envelope((FIXTURES / "property" / "details_error_answer.json").read_bytes())
    assert [w.code for w in env.warnings] == [399] and env.warnings[0].fields == ("currency_code",)
    ok = parse_envelope((FIXTURES / "property" / "create_answer.json").read_bytes())
    assert ok.ok and ok.kind is None and ok.data == {"property_id": 10480001}


def test_a_top_level_ruid_when_meta_has_none_and_a_lone_field_string() -> None:
    env = parse_envelope({"ruid": "r-1", "errors": [{"code": 321, "details": {"fields": "email"}}, "boom"]})
    assert env.ruid == "r-1"
    assert env.errors[0].fields == ("email",) and env.errors[1].message == "boom"


@pytest.mark.parametrize(("body", "why"), [
    (b"<html>502</html>", "not JSON"),
    (b"[1, 2]", "not a JSON object"),
    (b'{"errors": {"code": 320}}', "`errors` is not a list"),
    (b"\xff\xfe", "not JSON"),
])
def test_unusable_bodies_raise_one_clear_error(body: bytes, why: str) -> None:
    with pytest.raises(EnvelopeParseError, match=why):
        parse_envelope(body)
