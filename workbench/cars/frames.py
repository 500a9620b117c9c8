"""Car search answers as pandas frames: one row per offer, joined to supplier and depot names.

Known fields become typed columns (ids are strings, so ``101`` and ``"101"`` join alike);
amounts may arrive as strings (``"121.90"``) or numbers and are kept exact in ``price_amount``
(``Decimal``) next to ``price`` (``Float64``, for statistics and plots). Every field the client does
not know is kept too, as its own column named by its dotted path (e.g. ``mileage.unlimited``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

import pandas as pd

RESULT_COLUMNS: dict[str, str] = {
    "offer_id": "string", "supplier_id": "string", "supplier_name": "string",
    "pickup_depot_id": "string", "pickup_depot_name": "string",
    "dropoff_depot_id": "string", "dropoff_depot_name": "string",
    "vehicle": "string", "category": "string", "transmission": "string",
    "seats": "Int64", "doors": "Int64", "air_conditioning": "boolean",
    "price": "Float64", "price_amount": "object", "currency": "string",
    "pickup_datetime": "string", "dropoff_datetime": "string",
    "url_web": "string", "url_app": "string", "page": "Int64", "request_id": "string",
}
SUPPLIER_COLUMNS = {"supplier_id": "string", "supplier_name": "string"}
DEPOT_COLUMNS = {"depot_id": "string", "depot_name": "string", "supplier_id": "string", "airport": "string",
                 "city": "string", "country": "string", "address": "string",
                 "latitude": "Float64", "longitude": "Float64"}

# where each known column is read from (first dotted path present wins); anything else is an extra column
_SOURCES: dict[str, tuple[str, ...]] = {
    "offer_id": ("id",), "supplier_id": ("supplier", "supplier.id", "supplier_id"),
    "pickup_depot_id": ("pickup.depot", "pickup.depot.id"), "dropoff_depot_id": ("dropoff.depot", "dropoff.depot.id"),
    "vehicle": ("vehicle.name", "vehicle"), "category": ("vehicle.category",),
    "transmission": ("vehicle.transmission",), "seats": ("vehicle.seats",), "doors": ("vehicle.doors",),
    "air_conditioning": ("vehicle.air_conditioning",), "price_amount": ("price.total", "price.amount", "price"),
    "currency": ("price.currency", "currency"), "pickup_datetime": ("pickup.datetime",),
    "dropoff_datetime": ("dropoff.datetime",), "url_web": ("url.web",), "url_app": ("url.app",),
}
_CONSUMED = {path for paths in _SOURCES.values() for path in paths}
_SCALARS = frozenset({str, int, float, bool, Decimal, type(None)})
_ID_COLUMNS = ("offer_id", "supplier_id", "pickup_depot_id", "dropoff_depot_id")


def flatten(record: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested objects as dotted keys; lists (and empty objects) kept as JSON text."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        kind = type(value)  # exact type checks first: this loop runs for every field of every offer
        if kind in _SCALARS:
            out[name] = value
        elif kind is dict and value:
            out.update(flatten(value, name + "."))
        elif kind in (list, tuple, dict):
            out[name] = json.dumps(value, default=str, ensure_ascii=False)
        elif isinstance(value, Mapping) and value:
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def _id(value: Any) -> str | None:
    if isinstance(value, Mapping):
        value = value.get("id")
    if value is None or value == "" or isinstance(value, bool):
        return None
    if isinstance(value, Decimal) and value == value.to_integral_value():
        value = int(value)
    return str(value)


def parse_amount(value: Any) -> Decimal | None:
    """``"121.90"``, ``121.90`` and ``Decimal("121.90")`` all become ``Decimal("121.90")``; junk becomes None."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float):
        value = repr(value)
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    return amount if amount.is_finite() else None


def result_row(rec: Mapping[str, Any]) -> dict[str, Any]:
    """One offer: known columns (without names, page or request id), then every other field by its path."""
    flat = flatten(rec)
    row: dict[str, Any] = {}
    for col, paths in _SOURCES.items():
        row[col] = None
        for path in paths:
            if path in flat:
                row[col] = flat[path]
                break
    for col in _ID_COLUMNS:
        row[col] = _id(row[col])
    amount = row["price_amount"] = parse_amount(row["price_amount"])
    row["price"] = None if amount is None else float(amount)
    for key, value in flat.items():
        if key not in _CONSUMED:  # an unknown field never overwrites a known column
            row[key if key not in RESULT_COLUMNS else f"extra.{key}"] = value
    return row


def results_frame(records: Sequence[Mapping[str, Any]], pages: Sequence[int] | None = None,
                  request_ids: Sequence[str | None] | None = None) -> pd.DataFrame:
    """One row per offer, known columns first (typed), then every unknown field."""
    rows = [result_row(r) for r in records]
    frame = pd.DataFrame(rows)
    frame["page"] = list(pages) if pages is not None else [None] * len(rows)
    frame["request_id"] = list(request_ids) if request_ids is not None else [None] * len(rows)
    return _typed(frame, RESULT_COLUMNS)


def suppliers_frame(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Suppliers with ``supplier_id`` and ``supplier_name`` first, other fields after."""
    rows = []
    for rec in records:
        flat = {k: v for k, v in flatten(rec).items() if k not in ("id", "name")}
        rows.append({"supplier_id": _id(rec.get("id")), "supplier_name": rec.get("name"), **flat})
    return _typed(pd.DataFrame(rows), SUPPLIER_COLUMNS)


def depots_frame(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Depots with id, name, supplier and place first, other fields after."""
    rows = []
    for rec in records:
        raw_loc = rec.get("location")
        loc: Mapping[str, Any] = raw_loc if isinstance(raw_loc, Mapping) else {}
        raw_coords = loc.get("coordinates")
        coords: Mapping[str, Any] = raw_coords if isinstance(raw_coords, Mapping) else {}
        used = {"id", "name", "supplier", "supplier.id", "supplier_id", "location.airport", "location.city",
                "location.country", "location.address", "location.coordinates.latitude",
                "location.coordinates.longitude"}
        rows.append({"depot_id": _id(rec.get("id")), "depot_name": rec.get("name"),
                     "supplier_id": _id(rec.get("supplier", rec.get("supplier_id"))),
                     "airport": loc.get("airport"), "city": loc.get("city"), "country": loc.get("country"),
                     "address": loc.get("address"),
                     "latitude": _float(coords.get("latitude")), "longitude": _float(coords.get("longitude")),
                     **{k: v for k, v in flatten(rec).items() if k not in used}})
    return _typed(pd.DataFrame(rows), DEPOT_COLUMNS)


def join_static(results: pd.DataFrame, suppliers: pd.DataFrame, depots: pd.DataFrame) -> pd.DataFrame:
    """Fill ``supplier_name``, ``pickup_depot_name`` and ``dropoff_depot_name`` from the static frames."""
    out = results.copy()
    supplier_names = suppliers.drop_duplicates("supplier_id").set_index("supplier_id")["supplier_name"]
    depot_names = depots.drop_duplicates("depot_id").set_index("depot_id")["depot_name"]
    out["supplier_name"] = out["supplier_id"].map(supplier_names).astype("string")
    out["pickup_depot_name"] = out["pickup_depot_id"].map(depot_names).astype("string")
    out["dropoff_depot_name"] = out["dropoff_depot_id"].map(depot_names).astype("string")
    return out


def unmatched_ids(frame: pd.DataFrame) -> dict[str, set[str]]:
    """Supplier and depot ids in ``frame`` that found no name."""
    out: dict[str, set[str]] = {"suppliers": set(), "depots": set()}
    miss = frame["supplier_id"].notna() & frame["supplier_name"].isna()
    out["suppliers"] = set(frame.loc[miss, "supplier_id"])
    for side in ("pickup", "dropoff"):
        miss = frame[f"{side}_depot_id"].notna() & frame[f"{side}_depot_name"].isna()
        out["depots"] |= set(frame.loc[miss, f"{side}_depot_id"])
    return out


def _float(value: Any) -> float | None:
    amount = parse_amount(value)
    return None if amount is None else float(amount)


def _coerce(series: pd.Series, dtype: str) -> pd.Series:
    """Cast one column; values that do not fit become missing rather than failing the whole frame."""
    if dtype in ("Int64", "Float64"):
        numbers = pd.to_numeric(series.map(lambda v: float(v) if isinstance(v, Decimal) else v), errors="coerce")
        if dtype == "Int64":
            numbers = numbers.where(numbers.isna() | (numbers == numbers.round()))
        return numbers.astype(dtype)
    if dtype == "boolean":
        words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
        return series.map(lambda v: v if isinstance(v, bool) else words.get(str(v).strip().lower()) if v is not None
                          else None).astype("boolean")
    return series.astype(dtype)  # str() of each value; None/NaN become <NA>


def _typed(frame: pd.DataFrame, columns: Mapping[str, str]) -> pd.DataFrame:
    for name, dtype in columns.items():
        if name not in frame.columns:
            frame[name] = pd.Series([None] * len(frame), dtype="object")
        if dtype != "object":
            frame[name] = _coerce(frame[name], dtype)
    extra = [c for c in frame.columns if c not in columns]
    for c in extra:  # Decimal extras as floats, so an unknown amount is usable in pandas at once
        if frame[c].map(lambda v: isinstance(v, Decimal)).any():
            frame[c] = frame[c].map(lambda v: float(v) if isinstance(v, Decimal) else v)
    return frame[[*columns, *extra]].reset_index(drop=True)
