"""Shared by the modular tests: the hand-written fixtures (tests/fixtures/modular, each folder's SOURCE.md
names what was transcribed from where) and the meta they describe."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from loaders.content_schema import frames_from_rows
from workbench.modular.building import Request
from workbench.modular.content import ModularContent, build_modular_content
from workbench.modular.envelope import parse_envelope
from workbench.modular.meta import ModularMeta

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "modular"
DAY = dt.date(2026, 12, 1)


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


def build(sheets: dict[str, list[dict]], meta: ModularMeta | None = None, **kw: Any) -> ModularContent:
    """The modular requests of a workbook given as rows (``loaders.content_schema.frames_from_rows``)."""
    return build_modular_content(frames_from_rows(sheets), meta, today=DAY, **kw)


def one(built: ModularContent, operation: str) -> Request:
    """The one request of ``operation``."""
    (req,) = [r for r in built.requests if r.operation == operation]
    return req


def fixture_meta() -> ModularMeta:
    return ModularMeta.from_answers(property_meta=data("property", "meta_answer.json"),
                                    facilities_meta=data("facilities", "meta_answer.json"),
                                    charges_meta=data("charges", "meta_answer.json"),
                                    rooms_meta=data("rooms", "meta_answer.json"))


@pytest.fixture
def meta() -> ModularMeta:
    return fixture_meta()


def stored_answers(requests: list, first_id: int = 20_000_001) -> tuple[list, dict[str, int]]:
    """The GET answers a platform storing ``requests`` would give (``PropertyAnswers`` per property, with fields
    added later), and the property id of each workbook key: created properties get new ids, the read enums
    (``Standard``, integer French tax ids) and the facility instance ids are the platform's."""
    import copy

    from workbench.modular.content import PropertyAnswers

    ids: dict[str, int] = {}
    stored: dict[str, dict[str, Any]] = {}
    for r in requests:
        if r.property not in ids:
            ids[r.property] = r.hotel_code or first_id + sum(1 for v in ids.values() if v >= first_id)
        pid = ids[r.property]
        got = stored.setdefault(r.property, {})
        body = copy.deepcopy(r.payload)
        if r.operation.startswith("property."):
            body |= {"property_id": pid, "status": "OPEN", "url": f"https://example.invalid/{pid}"}
            body.setdefault("target", "production")
            body.setdefault("legal_entity_id", 1)
            got["details"] = body
        elif r.operation == "settings.write":
            ps = body.get("property_settings") or {}
            if ps.get("pricing_type") == "STANDARD":
                ps["pricing_type"] = "Standard"
            fr = body.get("french_tax_details") or {}
            for k in ("category_id", "nature_id"):
                if k in fr:
                    fr[k] = int(fr[k])
            got["settings"] = body
        elif r.operation == "contacts.write":
            got["contacts"] = body
        elif r.operation == "facilities.write":
            n = 0
            for f in body:
                for inst in f.get("instances", []):
                    n += 1
                    inst.setdefault("instance_id", pid * 100 + n)
            got["facilities"] = body
        elif r.operation == "charges.write":
            got["charges"] = body
    answers = [PropertyAnswers(**{k: with_unknown_fields(v) for k, v in s.items()}) for s in stored.values()]
    return answers, ids
