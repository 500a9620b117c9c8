"""Content parts built in code: a clean new property (``N1``, Lisbon) that any rule test mutates."""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable

import pandas as pd
import pytest

from expectations import ContentLookups
from loaders.content_schema import frames_from_rows

TODAY = dt.date(2026, 12, 1)
N1 = {"custom_id": "N1"}
BASE: dict[str, list[dict]] = {
    "Property": [{**N1, "hotel_name": "Sea View Inn", "language_code": "en", "currency_code": "EUR",
                  "target": "Test", "property_class_code": 20, "sellable_units": 10, "latitude": 38.7077,
                  "longitude": -9.1365, "legal_entity_id": 7, "check_in_time": "14:00", "check_out_time": "11:00"}],
    "Contacts": [
        {**N1, "profile_type": "PhysicalLocation", "address_language": "en", "address_line": "Rua da Alfandega 114",
         "city": "Lisboa", "postcode": "1100-148", "country": "PT", "address_hotel_name": "Sea View Inn"},
        {**N1, "profile_type": "general", "given_name": "Ana", "surname": "Sousa", "email": "ana@inn.example",
         "phone": "+351213420000", "phone_tech_type": 1},
        {**N1, "profile_type": "invoices", "given_name": "Rui", "surname": "Lopes", "email": "rui@inn.example",
         "phone": "+351912345678", "phone_tech_type": 5},
    ],
    "Languages": [{**N1, "language_code": "en"}],
    "Policies": [{**N1, "cancel_policy_code": 152, "no_show_penalty": "default"}],
}
LOOKUPS = ContentLookups(
    currencies=frozenset({"EUR", "BRL"}), countries=frozenset({"PT", "BR", "NL", "ES"}),
    city_tax_categories=pd.DataFrame({"country": ["BR", "BR"], "city": ["São Paulo", "São Paulo"],
                                      "category_id": pd.array([3, 4], dtype="Int64"),
                                      "name": ["Hotel", "Pousada"]}))


def frames(sheets: dict[str, list[dict]]) -> dict[str, pd.DataFrame]:
    """Canonical part frames from rows of canonical names (source `t.xlsx`, sheet = part, rows from 2)."""
    return frames_from_rows(sheets, source="t.xlsx")


@pytest.fixture
def content() -> Callable[..., dict[str, pd.DataFrame]]:
    """``content(lambda s: ...)``: the clean base, changed in place by the function, as frames."""
    def make(change: Callable[[dict[str, list[dict]]], object] | None = None) -> dict[str, pd.DataFrame]:
        sheets = copy.deepcopy(BASE)
        if change is not None:
            change(sheets)
        return frames(sheets)
    return make
