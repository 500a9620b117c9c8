"""The modular content kind read against the hand-written fixtures of the published answers
(tests/fixtures/modular): a create's property id, a duplicate naming the existing property, the canonical state a
resend is compared with, and a create whose answer was never seen settled by sending it again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from workbench.modular.building import Request
from workbench.modular.envelope import parse_envelope
from workbench.transport.result import Outcome, Result
from workbench.writers.modular_content import ModularContentKind, canonical, duplicate_of, planned_modular

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "modular"
CREATE = json.loads((FIXTURES / "property" / "create_request.json").read_text())
DUPLICATE = {"data": None, "warnings": [], "errors": [{"message": "Changes are not permitted", "code": 150,
                                                       "description": "a property with the same name exists",
                                                       "details": {"fields": ["property_name"],
                                                                   "property_id": 10480001}}],
             "meta": {"ruid": "dup-1"}}


def result(body: bytes | dict, outcome: Outcome = Outcome.SUCCESS, status: int = 200, **kw: Any) -> Result:
    raw = json.dumps(body).encode() if isinstance(body, dict) else body
    return Result("property.create", outcome, status, None, "r", 1, (), body=raw, envelope=parse_envelope(raw), **kw)


def create() -> Any:
    (p,) = planned_modular([Request("QVV-0012", None, "QVV-0012", "property.create", CREATE)])
    return p


def test_a_create_answer_gives_the_property_id_and_its_state() -> None:
    p, kind = create(), ModularContentKind()
    r = result((FIXTURES / "property" / "create_answer.json").read_bytes())
    answer = kind.answer(p, r, 1, ["r"])
    assert (answer.status, answer.made) == ("success", "10480001")
    (item, value), = kind.accept(p, r, answer)
    assert item == "10480001/property"
    assert "target" not in json.loads(value) and "legal_entity_id" not in json.loads(value)  # create-only


def test_a_duplicate_answer_maps_to_the_existing_property_and_accepts_nothing() -> None:
    p, kind = create(), ModularContentKind()
    r = result(DUPLICATE, Outcome.REJECTED, 400)
    assert duplicate_of(r) == "10480001"
    answer = kind.answer(p, r, 1, ["dup-1"])
    assert (answer.status, answer.made) == ("success", "10480001") and "not created twice" in answer.note
    assert kind.accept(p, r, answer) == []  # the update that follows sends the details


@pytest.mark.parametrize(("answer", "made"), [(DUPLICATE, "10480001"), ({"data": {"property_id": 7},
                                                                          "errors": [], "meta": {}}, "7")])
def test_an_unseen_create_is_settled_by_sending_it_again(answer: dict, made: str) -> None:
    class Client:
        sent: list[tuple[str, str | None]] = []

        def send(self, op: str, body: bytes, *, method: str | None = None, path: str | None = None) -> Result:
            self.sent.append((op, path))
            ok = "data" in answer and answer["data"] is not None
            return result(answer, Outcome.SUCCESS if ok else Outcome.REJECTED, 200 if ok else 400)

    client = Client()
    settled = ModularContentKind().resolve(client, create())
    assert settled.made == made and client.sent == [("property.create", "/property-api/properties")]


def test_an_unclear_create_is_held_as_unclear() -> None:
    p = create()
    r = Result("property.create", Outcome.UNRECOGNISED, 200, None, None, 1, (), body=b"<html/>", maybe_applied=True)
    answer = ModularContentKind().answer(p, r, 1, [])
    assert answer.unclear and "sending the create again" in answer.note


@pytest.mark.parametrize(("api", "a", "b"), [
    ("facilities", [{"facility_id": 2, "instances": [{"instance_id": 5, "x": 1}]}],
     [{"facility_id": 2, "instances": [{"x": 1}]}]),
    ("charges", {"property_charges": [{"charge_key": {"type": "VAT"},
                                       "charge_periods": [{"applicable": {"from": "2026-12-01"}, "c": 1}]}]},
     {"property_charges": [{"charge_key": {"type": "VAT"}, "charge_periods": [{"applicable": {"from": "2027-01-05"},
                                                                               "c": 1}]}]}),
    ("property", {"property_name": "A", "target": "test", "legal_entity_id": 1}, {"property_name": "A"}),
])
def test_what_the_platform_gives_or_the_day_changes_is_no_change(api: str, a: Any, b: Any) -> None:
    assert canonical(api, a) == canonical(api, b)
    assert canonical("contacts", {"contacts": [1]}) != canonical("contacts", {"contacts": [2]})
