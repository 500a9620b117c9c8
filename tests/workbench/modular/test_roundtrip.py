"""The sample content workbook through the modular bodies and back (as the platform would store and answer
them, with fields added later): equal on every cell the APIs keep (``NOT_KEPT`` says which they do not)."""

from __future__ import annotations

import datetime as dt
import math

import pandas as pd
import pytest

from loaders import read_content
from loaders.content_schema import CONTENT_COLUMNS, PARTS
from tests.conftest import SAMPLES
from tests.workbench.modular.conftest import fixture_meta, stored_answers
from workbench.modular.content import CREATE_ONLY, NOT_KEPT, build_modular_content, content_from_answers
from workbench.modular.meta import ModularMeta
from workbench.modular.settings_api import STANDARD_PHRASES

DAY = dt.date(2026, 12, 1)
HEAD = ("hotel_code", "custom_id", "property", "source", "sheet", "row")
PHRASES = {*STANDARD_PHRASES, "Renovation", "HotelChainBedLinen"}
FACILITY_FEE = ("parking_type", "parking_reservation", "parking_property", "internet_type", "internet_coverage")

# (sheet, row, column, rule): what the sample sends nowhere, or what the bodies refuse
SAMPLE_ISSUES = {
    ("Attractions", 2, "AttractionName", "modular_sunset"), ("Attractions", 3, "AttractionName", "modular_sunset"),
    ("Transport", 2, "TransportType", "modular_sunset"), ("Transport", 3, "TransportType", "modular_sunset"),
    ("Property", 2, "TotalNumberOfFloors", "modular_value_refused"),  # 250 > 200
    ("Contacts", 3, "PhoneNumber", "modular_value_refused"),  # an extension on a mobile (type 5)
    ("Services", 3, "Price", "modular_value_refused"),  # a breakfast at 0: a meal's price is 0.1 at least
    ("Fees", 4, "Conditions", "modular_not_sent"), ("Phrases", 2, "StandardPhrase", "modular_not_sent"),
    ("Services", 2, "Included", "modular_not_sent"), ("Services", 3, "Included", "modular_not_sent"),
    ("Services", 2, "Types", "modular_not_sent"), ("Services", 2, "Items", "modular_not_sent"),
    *{("Policies", r, "CancelPolicyCode", "not_yet_sendable") for r in (2, 3, 4, 5)},
    # the English address's HotelName (the spec's E4 requires it) is sent as the property name: lost where it
    # differs from the Property sheet's (`Casa do Rio` / `CASA DO RIO PORTO`, the Dutch name of the Amsterdam flat)
    ("Contacts", 5, "HotelName", "modular_not_sent"), ("Contacts", 14, "HotelName", "modular_not_sent"),
}


@pytest.fixture(scope="module")
def sample() -> dict[str, pd.DataFrame]:
    return read_content(SAMPLES / "content.xlsx").parts


def test_what_the_sample_cannot_send(sample: dict[str, pd.DataFrame]) -> None:
    issues = build_modular_content(sample, fixture_meta(), today=DAY).issues
    assert set(zip(issues["sheet"], issues["row"], issues["column"], issues["rule"], strict=True)) == SAMPLE_ISSUES


def _corrected(parts: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The sample with the three values the bodies refuse corrected (the rest as the analyst wrote it)."""
    out = {p: f.copy() for p, f in parts.items()}
    out["Property"].loc[out["Property"]["row"] == 2, "total_floors"] = 25
    out["Contacts"].loc[out["Contacts"]["row"] == 3, "phone_extension"] = pd.NA
    out["Services"].loc[out["Services"]["row"] == 3, "price"] = 12
    for f, src in zip(out.values(), parts.values(), strict=True):
        f.attrs = src.attrs
    return out


def _value(v: object) -> object:
    if isinstance(v, list):
        return tuple(str(x) for x in v)
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, float):
        return round(v, 6)
    return str(v) if not isinstance(v, (int, str)) else v


def _kept(part: str, frame: pd.DataFrame, meta: ModularMeta, *, sent: bool, created: set[str]) -> list[tuple]:
    """The rows of ``frame`` as (property, kept cells...), with the equivalences docs/modular.md lists applied
    to what was sent (VAT's second legacy code, ChargeFrequency 21 the default, a Conditional fee, a facility fee's
    Type)."""
    columns = [c for c in CONTENT_COLUMNS[part] if c not in HEAD and c not in NOT_KEPT.get(part, {})]
    rows = []
    for r in frame.to_dict("records"):
        if part == "Phrases" and r["phrase_name"] not in PHRASES:  # reported modular_not_sent: not kept as rows
            continue
        key = r["custom_id"] if not pd.isna(r["custom_id"]) else str(r["hotel_code"])
        cells = {c: _value(r[c]) for c in columns}
        if sent and part in ("Taxes", "Fees") and cells.get("code") is not None:
            ct = meta.charge_type_for_code(int(cells["code"]))
            cells["code"] = ([*ct.ota_fee_tax_types, *ct.booking_extended_legacy_code] or [cells["code"]])[0]
            cells["charge_frequency"] = None if cells["charge_frequency"] == 21 else cells["charge_frequency"]
        if sent and part == "Fees":
            facility = any(cells.get(c) is not None for c in FACILITY_FEE)
            cells["type"] = None if facility else {"Conditional": "Exclusive"}.get(cells["type"], cells["type"])
        if part == "Property" and key not in created:
            for column in CREATE_ONLY:
                cells.pop(column)
        if any(v not in (None, ()) for v in cells.values()):
            rows.append((key, *sorted(cells.items())))
    return sorted(rows, key=repr)


def test_sample_there_and_back_on_every_cell_the_apis_keep(sample: dict[str, pd.DataFrame]) -> None:
    meta = fixture_meta()
    parts = _corrected(sample)
    built = build_modular_content(parts, meta, today=DAY)
    assert not (built.issues["rule"] == "modular_value_refused").any()
    answers, ids = stored_answers(list(built.requests))
    back = content_from_answers(answers, meta)
    created = {k for k, v in ids.items() if v >= 20_000_001}
    compared = 0
    for part in PARTS:
        if "*" in NOT_KEPT.get(part, {}):
            continue
        sent = _kept(part, parts[part], meta, sent=True, created=created)
        got = _kept(part, back[part], meta, sent=False, created=created)
        assert got == sent, part
        compared += sum(len(r) - 1 for r in sent)
    assert compared > 450  # cells compared, not an empty comparison
