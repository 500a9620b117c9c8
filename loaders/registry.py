"""The property registry: what is known about properties, rooms and rate plans.

Optional input to the expectations. Read from a workbook (sheets recognised by their headers,
e.g. ``Properties``, ``Rooms``, ``RoomRates``) or CSV files; later filled from the platform's
``roomrates`` read. Each frame uses snake_case columns (see ``loaders.schemas``):

- ``properties``: hotel_code, hotel_name, currency_code, pricing_model (Standard / OBP / LOS), country_code
- ``rooms``: hotel_code, inv_type_code, room_name, max_occupancy, max_adult_occupancy, max_child_occupancy,
  quantity (units of the room type, for the availability rules)
- ``room_rates``: hotel_code, inv_type_code, rate_plan_code, rate_name, active, is_child_rate,
  parent_rate_plan_code, follows_price, read_only
- ``refused``: hotel_code, code, text, ruid: properties the platform refused to describe (its
  ``roomrates`` read answered an error), so their rates cannot be sent either

Blank means "not known": ``follows_price`` is NA unless a sheet gives it (the platform never
sends it), ``is_child_rate`` NA when neither a flag nor a ``ParentRatePlanCode`` column says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from loaders import normalize as norm
from loaders.errors import LoadError
from loaders.headers import header_key, match_headers, missing_columns_error
from loaders.schemas import PROPERTY_FIELDS, RATE_FIELDS, ROOM_FIELDS, ROOM_RATE_FIELDS, Field
from loaders.sheets import RawSheet, read_sheets

PRICING_MODELS = {"standard": "Standard", "obp": "OBP", "occupancybased": "OBP", "occupancy": "OBP",
                  "los": "LOS", "lengthofstay": "LOS"}

_KINDS: dict[str, tuple[tuple[Field, ...], tuple[str, ...]]] = {
    "room_rates": (ROOM_RATE_FIELDS, ("hotel_code", "inv_type_code", "rate_plan_code")),
    "rooms": (ROOM_FIELDS, ("hotel_code", "inv_type_code")),
    "properties": (PROPERTY_FIELDS, ("hotel_code",)),
}
_DTYPES = {
    "properties": {"hotel_code": "Int64", "hotel_name": "string", "currency_code": "string",
                   "pricing_model": "string", "country_code": "string"},
    "rooms": {"hotel_code": "Int64", "inv_type_code": "string", "room_name": "string", "max_occupancy": "Int64",
              "max_adult_occupancy": "Int64", "max_child_occupancy": "Int64", "quantity": "Int64"},
    "room_rates": {"hotel_code": "Int64", "inv_type_code": "string", "rate_plan_code": "string",
                   "rate_name": "string", "active": "boolean", "is_child_rate": "boolean",
                   "parent_rate_plan_code": "string", "follows_price": "boolean", "read_only": "boolean"},
    "refused": {"hotel_code": "Int64", "code": "string", "text": "string", "ruid": "string"},
}
#: What a registry file holds, for people (named in every "not a registry" error).
EXPECTED_SHEETS = ("properties (`HotelCode`, `CurrencyCode`, `PricingModel`), rooms (`HotelCode`, `InvTypeCode`, "
                   "`MaxAdultOccupancy`) and room-rates (`HotelCode`, `InvTypeCode`, `RatePlanCode`, `Active`, "
                   "`ParentRatePlanCode`, `FollowsPrice`, `ReadOnly`), each sheet or CSV recognised by its headers "
                   "(see `data/samples/registry.xlsx`)")
#: Columns only a rates sheet has: a rates file given as a registry is refused, not misread.
_RATES_ONLY = tuple(f for f in RATE_FIELDS if f.name in ("date", "start", "end", "amount_after_tax",
                                                         "amount_before_tax", "number_of_guests"))
_DATE_HEADER = re.compile(r"^\d{4}-\d{2}-\d{2}")


def _empty(kind: str) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in _DTYPES[kind].items()})


@dataclass
class Registry:
    """Known properties, rooms and room-rate mappings (any of them may be empty)."""

    properties: pd.DataFrame = field(default_factory=lambda: _empty("properties"))
    rooms: pd.DataFrame = field(default_factory=lambda: _empty("rooms"))
    room_rates: pd.DataFrame = field(default_factory=lambda: _empty("room_rates"))
    refused: pd.DataFrame = field(default_factory=lambda: _empty("refused"))

    def is_empty(self) -> bool:
        return not (len(self.properties) or len(self.rooms) or len(self.room_rates))

    def merge(self, other: Registry) -> Registry:
        """Facts from ``other`` win over facts here for the same key (e.g. the platform over a sheet);
        what ``other`` leaves blank is kept from here."""
        def m(kind: str, a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
            keys = list(_KINDS[kind][1])
            if a.empty or b.empty:
                return (b if a.empty else a).reset_index(drop=True).astype(_DTYPES[kind])
            left = b.drop_duplicates(subset=keys).set_index(keys)
            right = a.drop_duplicates(subset=keys).set_index(keys)
            return left.combine_first(right).reset_index()[list(_DTYPES[kind])].astype(_DTYPES[kind])
        refused = pd.concat([x for x in (other.refused, self.refused) if len(x)] or [_empty("refused")],
                            ignore_index=True).drop_duplicates("hotel_code").astype(_DTYPES["refused"])
        return Registry(m("properties", self.properties, other.properties), m("rooms", self.rooms, other.rooms),
                        m("room_rates", self.room_rates, other.room_rates), refused.reset_index(drop=True))

    @classmethod
    def from_frames(cls, properties: pd.DataFrame | None = None, rooms: pd.DataFrame | None = None,
                    room_rates: pd.DataFrame | None = None, refused: pd.DataFrame | None = None) -> Registry:
        def fit(kind: str, df: pd.DataFrame | None) -> pd.DataFrame:
            if df is None:
                return _empty(kind)
            out = df.copy()
            for c, t in _DTYPES[kind].items():
                if c not in out:
                    out[c] = pd.Series(pd.NA, index=out.index, dtype=t)
            return out[list(_DTYPES[kind])].astype(_DTYPES[kind])
        return cls(fit("properties", properties), fit("rooms", rooms), fit("room_rates", room_rates),
                   fit("refused", refused))


def read_registry(paths: str | Path | Iterable[str | Path]) -> Registry:
    """Read registry sheets/CSVs; each sheet's kind is recognised from its headers."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    parts: dict[str, list[pd.DataFrame]] = {k: [] for k in _KINDS}
    for raw in read_sheets(list(paths)):
        kind = _kind_of(raw)
        parts[kind].append(_read_kind(raw, kind))
    frames = {k: (pd.concat(v, ignore_index=True).drop_duplicates(subset=list(_KINDS[k][1]), keep="last")
                  if v else _empty(k)) for k, v in parts.items()}
    return Registry.from_frames(**frames)


def _kind_of(raw: RawSheet) -> str:
    keys = {header_key(h) for h in raw.header if h}
    where = f"`{raw.source}` sheet `{raw.sheet}`" if raw.sheet else f"`{raw.source}`"
    rates_cols = [h for h in raw.header if h and (_DATE_HEADER.match(h) or any(
        header_key(a) == header_key(h) for f in _RATES_ONLY for a in (f.name, f.ota, *f.aliases)))]
    if rates_cols:
        shown = ", ".join(f"`{h}`" for h in rates_cols[:4]) + (" …" if len(rates_cols) > 4 else "")
        raise LoadError(f"`{raw.source}` is not a registry: {where} has rates columns ({shown}). A registry "
                        f"holds {EXPECTED_SHEETS}; give the rates files as arguments and the registry with "
                        "--registry.", source=raw.source, sheet=raw.sheet)

    def has(fields: tuple[Field, ...], name: str) -> bool:
        f = next(f for f in fields if f.name == name)
        return any(header_key(a) in keys for a in (f.name, f.ota, *f.aliases))
    if has(ROOM_RATE_FIELDS, "rate_plan_code"):
        return "room_rates"
    if has(ROOM_FIELDS, "inv_type_code"):
        return "rooms"
    if has(PROPERTY_FIELDS, "hotel_code"):
        return "properties"
    seen = ", ".join(f"`{h}`" for h in raw.header if h) or "none"
    raise LoadError(f"`{raw.source}` is not a registry: {where} is not a registry sheet (headers found: {seen}). "
                    f"A registry holds {EXPECTED_SHEETS}.", source=raw.source, sheet=raw.sheet)


def _read_kind(raw: RawSheet, kind: str) -> pd.DataFrame:
    fields, keys = _KINDS[kind]
    cols = match_headers(raw.header, fields, source=raw.source, sheet=raw.sheet)
    missing = [f for f in fields if f.name in keys and f.name not in cols]
    if missing:
        raise missing_columns_error(missing, source=raw.source, sheet=raw.sheet, header=raw.header)
    body = raw.body
    out = {}
    for name, dtype in _DTYPES[kind].items():
        text = body[cols[name]].astype("string") if name in cols else pd.Series(pd.NA, index=body.index,
                                                                                 dtype="string")
        if dtype in ("Int64", "boolean"):
            parse = norm.parse_ints if dtype == "Int64" else norm.parse_flags
            values, err = parse(text.dropna())
            bad = err.dropna()
            if len(bad):
                i = bad.index[0]
                raise LoadError(f"`{raw.source}` sheet `{raw.sheet}` row {int(raw.rows[i])}, column "
                                f"`{raw.header[cols[name]]}`: {bad.iloc[0]}.", source=raw.source, sheet=raw.sheet)
            out[name] = values.reindex(body.index)
        elif name in ("inv_type_code", "rate_plan_code", "parent_rate_plan_code"):
            out[name] = norm.parse_codes(text)
        else:
            out[name] = text
    frame = pd.DataFrame(out)
    if kind == "properties":
        frame["currency_code"] = frame["currency_code"].str.upper()
        pm = frame["pricing_model"].str.replace(r"[\s_-]", "", regex=True).str.casefold().map(PRICING_MODELS)
        bad = frame["pricing_model"].notna() & pm.isna()
        if bad.any():
            i = bad[bad].index[0]
            raise LoadError(f"`{raw.source}` sheet `{raw.sheet}` row {int(raw.rows[i])}: pricing model "
                            f"`{frame['pricing_model'][i]}` is not one of Standard, OBP, LOS.",
                            source=raw.source, sheet=raw.sheet)
        frame["pricing_model"] = pm.astype("string")
    if kind == "room_rates":
        frame["active"] = frame["active"].fillna(True)
        frame["read_only"] = frame["read_only"].fillna(False)
        if "parent_rate_plan_code" in cols:  # a parent makes a child; a blank parent in that column: not one
            has_parent = frame["parent_rate_plan_code"].notna()
            frame["is_child_rate"] = frame["is_child_rate"].fillna(False) | has_parent
        # follows_price stays blank where not given: a child rate is then taken to inherit its price
    return frame.astype(_DTYPES[kind])
