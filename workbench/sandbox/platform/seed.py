"""The sandbox's starting state: properties, rooms and room-rate mappings from the registry
workbook (``data/samples/registry.xlsx``: sheets ``Properties``, ``Rooms``, ``RoomRates``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from openpyxl import load_workbook

from workbench.paths import SAMPLES

DEFAULT_REGISTRY = SAMPLES / "registry.xlsx"
PRICING_MODELS = ("Standard", "OBP", "LOS")


@dataclass(frozen=True)
class Property:
    hotel_code: int
    name: str
    currency: str
    pricing_model: str  # Standard, OBP or LOS
    country: str


@dataclass(frozen=True)
class Room:
    hotel_code: int
    inv_type_code: str
    name: str
    max_occupancy: int
    max_adults: int
    max_children: int


@dataclass(frozen=True)
class RoomRate:
    hotel_code: int
    inv_type_code: str
    rate_plan_code: str
    rate_name: str
    active: bool
    parent_rate_plan_code: str | None
    follows_price: bool
    read_only: bool


@dataclass(frozen=True)
class Registry:
    properties: tuple[Property, ...]
    rooms: tuple[Room, ...]
    room_rates: tuple[RoomRate, ...]


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _rows(wb: object, sheet: str, columns: tuple[str, ...], source: str) -> list[tuple[int, dict[str, str]]]:
    if sheet not in wb.sheetnames:  # type: ignore[attr-defined]
        raise ValueError(f"`{source}` has no sheet `{sheet}` (needs Properties, Rooms, RoomRates)")
    rows = wb[sheet].iter_rows(values_only=True)  # type: ignore[index]
    header = [_text(h) for h in next(rows, ())]
    missing = [c for c in columns if c not in header]
    if missing:
        raise ValueError(f"`{source}` sheet `{sheet}`: missing column(s) {', '.join(f'`{m}`' for m in missing)}")
    out = []
    for n, row in enumerate(rows, start=2):
        values = {h: _text(v) for h, v in zip(header, row, strict=False)}
        if any(values.get(c) for c in columns):
            out.append((n, values))
    return out


def _int(values: dict[str, str], col: str, where: str) -> int:
    try:
        return int(values[col])
    except ValueError:
        raise ValueError(f"{where}, column `{col}`: `{values[col]}` is not a whole number") from None


def load_registry(path: str | Path = DEFAULT_REGISTRY) -> Registry:
    """Read the registry workbook; errors name the sheet, row and column."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"registry workbook `{path}` does not exist")
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises several kinds for a file it cannot read
        raise ValueError(f"registry workbook `{path}` cannot be read as .xlsx ({exc})") from None
    src = path.name
    props = []
    for n, v in _rows(wb, "Properties", ("HotelCode", "HotelName", "CurrencyCode", "PricingModel", "CountryCode"), src):
        where = f"`{src}` sheet `Properties` row {n}"
        model = {m.lower(): m for m in PRICING_MODELS}.get(v["PricingModel"].lower())
        if model is None:
            raise ValueError(f"{where}, column `PricingModel`: `{v['PricingModel']}` is not Standard, OBP or LOS")
        props.append(Property(_int(v, "HotelCode", where), v["HotelName"], v["CurrencyCode"].upper(), model,
                              v["CountryCode"].upper()))
    rooms = []
    for n, v in _rows(wb, "Rooms", ("HotelCode", "InvTypeCode", "RoomName", "MaxOccupancy", "MaxAdultOccupancy",
                                    "MaxChildOccupancy"), src):
        where = f"`{src}` sheet `Rooms` row {n}"
        rooms.append(Room(_int(v, "HotelCode", where), v["InvTypeCode"], v["RoomName"], _int(v, "MaxOccupancy", where),
                          _int(v, "MaxAdultOccupancy", where), _int(v, "MaxChildOccupancy", where)))
    links = []
    for n, v in _rows(wb, "RoomRates", ("HotelCode", "InvTypeCode", "RatePlanCode", "RateName", "Active",
                                        "ParentRatePlanCode", "FollowsPrice", "ReadOnly"), src):
        where = f"`{src}` sheet `RoomRates` row {n}"
        links.append(RoomRate(_int(v, "HotelCode", where), v["InvTypeCode"], v["RatePlanCode"], v["RateName"],
                              v["Active"] in ("1", "true", "True"), v["ParentRatePlanCode"] or None,
                              v["FollowsPrice"] in ("1", "true", "True"), v["ReadOnly"] in ("1", "true", "True")))
    wb.close()
    return Registry(tuple(props), tuple(rooms), tuple(links))
