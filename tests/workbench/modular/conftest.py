"""Shared by the modular tests: the hand-written fixtures (tests/fixtures/modular, each folder's SOURCE.md
names what was transcribed from where) and the meta they describe."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from workbench.modular.envelope import parse_envelope
from workbench.modular.meta import ModularMeta

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "modular"


def load(api: str, name: str) -> Any:
    """A fixture file, decoded."""
    return json.loads((FIXTURES / api / name).read_text(encoding="utf-8"))


def data(api: str, name: str) -> Any:
    """The ``data`` of an answer fixture."""
    return parse_envelope((FIXTURES / api / name).read_bytes()).data


def with_unknown_fields(value: Any) -> Any:
    """``value`` with a field the models do not know added to every object, as a newer platform might send."""
    if isinstance(value, dict):
        return {**{k: with_unknown_fields(v) for k, v in value.items()}, "added_later": {"x": 1}}
    if isinstance(value, list):
        return [with_unknown_fields(v) for v in value]
    return value


def fixture_meta() -> ModularMeta:
    return ModularMeta.from_answers(property_meta=data("property", "meta_answer.json"),
                                    facilities_meta=data("facilities", "meta_answer.json"),
                                    charges_meta=data("charges", "meta_answer.json"),
                                    rooms_meta=data("rooms", "meta_answer.json"))


@pytest.fixture
def meta() -> ModularMeta:
    return fixture_meta()
