"""Results as frames: typed known columns, exact amounts from strings or numbers, unknown fields kept, names joined."""

from __future__ import annotations

import json
from decimal import Decimal

import pandas as pd
import pytest

from workbench.cars import depots_frame, join_static, results_frame, suppliers_frame
from workbench.cars.frames import RESULT_COLUMNS, parse_amount, unmatched_ids

RESULT = {
    "id": "AMS-1", "supplier": 101, "pickup": {"depot": 5001, "datetime": "2026-04-01T10:00:00"},
    "dropoff": {"depot": {"id": 5002}, "datetime": "2026-04-05T10:00:00"},
    "vehicle": {"name": "Fiat 500 or similar", "category": "mini", "transmission": "manual", "seats": 4, "doors": 3,
                "air_conditioning": True, "fuel": "petrol"},
    "price": {"total": "121.90", "currency": "EUR", "deposit": Decimal("300.00")},
    "url": {"web": "https://c.example/b?aid=1", "app": "app://b?affiliate_id=1"},
    "mileage": {"unlimited": False, "limit_km": 800}, "badges": ["free cancellation"],
}


@pytest.mark.parametrize(("raw", "exact"), [
    ("121.90", Decimal("121.90")), (" 121.90 ", Decimal("121.90")), (Decimal("121.90"), Decimal("121.90")),
    (121.9, Decimal("121.9")), (122, Decimal("122")), ("0", Decimal("0")),
    ("12O.50", None), ("", None), (None, None), (True, None), ("NaN", None), ("Infinity", None),
])
def test_amounts_from_strings_or_numbers(raw: object, exact: Decimal | None) -> None:
    assert parse_amount(raw) == exact


def test_known_columns_are_typed_and_unknown_fields_are_kept() -> None:
    frame = results_frame([RESULT, {**RESULT, "id": "AMS-2", "price": {"total": 99.5, "currency": "EUR"},
                                    "supplier": "102", "new_field": "x"}],
                          pages=[1, 2], request_ids=["r1", "r2"])
    assert list(frame.columns[:len(RESULT_COLUMNS)]) == list(RESULT_COLUMNS)
    assert {c: str(frame[c].dtype) for c in RESULT_COLUMNS} == RESULT_COLUMNS
    row = frame.iloc[0]
    assert (row.offer_id, row.supplier_id, row.pickup_depot_id, row.dropoff_depot_id) == ("AMS-1", "101", "5001", "5002")
    assert row.price_amount == Decimal("121.90") and row.price == 121.9 and row.currency == "EUR"
    assert (row.seats, row.doors, row.air_conditioning, row.page, row.request_id) == (4, 3, True, 1, "r1")
    assert frame.loc[1, "supplier_id"] == "102" and frame.loc[1, "price_amount"] == Decimal("99.5")
    # every unknown field survives, named by its path
    assert frame.loc[0, "vehicle.fuel"] == "petrol" and frame.loc[0, "price.deposit"] == 300.0
    assert frame.loc[0, "mileage.limit_km"] == 800 and json.loads(frame.loc[0, "badges"]) == ["free cancellation"]
    assert frame.loc[1, "new_field"] == "x" and pd.isna(frame.loc[0, "new_field"])


def test_odd_values_become_missing_not_a_crash() -> None:
    frame = results_frame([{"id": "x", "vehicle": {"seats": "five", "doors": 4.5, "air_conditioning": "yes"},
                            "price": {"total": "n/a"}}, {"vehicle": "not an object"}])
    assert pd.isna(frame.loc[0, "seats"]) and pd.isna(frame.loc[0, "doors"]) and bool(frame.loc[0, "air_conditioning"])
    assert pd.isna(frame.loc[0, "price"]) and frame.loc[0, "price_amount"] is None
    assert pd.isna(frame.loc[1, "offer_id"]) and frame.loc[1, "vehicle"] == "not an object"


def test_an_empty_search_is_an_empty_frame_with_every_column() -> None:
    frame = results_frame([])
    assert frame.empty and list(frame.columns) == list(RESULT_COLUMNS)


def test_results_are_joined_to_supplier_and_depot_names() -> None:
    suppliers = suppliers_frame([{"id": 101, "name": "Tulip Rentals", "logo_url": "l"}])
    depots = depots_frame([{"id": 5001, "supplier": 101, "name": "Tulip AMS",
                            "location": {"airport": "AMS", "city": "Amsterdam", "country": "nl",
                                         "coordinates": {"latitude": Decimal("52.31"), "longitude": 4.76}}},
                           {"id": "5002", "supplier": {"id": 101}, "name": "Tulip RTM", "opening_hours": "24h"}])
    assert list(suppliers.columns) == ["supplier_id", "supplier_name", "logo_url"]
    assert depots.loc[0, "latitude"] == 52.31 and depots.loc[1, "supplier_id"] == "101"
    assert depots.loc[1, "opening_hours"] == "24h"
    joined = join_static(results_frame([RESULT, {**RESULT, "supplier": 999, "pickup": {"depot": 7}}]),
                         suppliers, depots)
    assert joined.loc[0, ["supplier_name", "pickup_depot_name", "dropoff_depot_name"]].tolist() == [
        "Tulip Rentals", "Tulip AMS", "Tulip RTM"]
    assert pd.isna(joined.loc[1, "supplier_name"]) and pd.isna(joined.loc[1, "pickup_depot_name"])
    assert unmatched_ids(joined) == {"suppliers": {"999"}, "depots": {"7"}}
