"""``/hotels/xml/roomrates`` read into frames: the property registry as the platform knows it.

Columns follow the loaders' registry schema (``loaders.schemas``: ROOM_FIELDS, ROOM_RATE_FIELDS),
so the platform's mapping can stand in for, or be diffed against, a registry spreadsheet.
Listed rate plans are the active ones; child rates carry ``parent_rate_plan_code`` (and
``follows_price`` when the platform says so), read-only ones ``read_only=1``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pandas as pd

from workbench.ota.ns import localname, parse_xml
from workbench.transport.result import Result

if TYPE_CHECKING:
    from workbench.transport.client import PlatformClient

PROPERTY_COLUMNS = {"hotel_code": "Int64", "hotel_name": "string", "currency_code": "string",
                    "pricing_model": "string"}
ROOM_COLUMNS = {"hotel_code": "Int64", "inv_type_code": "string", "room_name": "string", "max_occupancy": "Int64",
                "max_adult_occupancy": "Int64", "max_child_occupancy": "Int64"}
ROOM_RATE_COLUMNS = {"hotel_code": "Int64", "inv_type_code": "string", "rate_plan_code": "string",
                     "rate_name": "string", "active": "Int64", "parent_rate_plan_code": "string",
                     "follows_price": "Int64", "read_only": "Int64", "max_persons": "Int64", "policy_id": "string"}


@dataclass
class RoomRates:
    """Frames read from the platform, and the request results behind them (ruids, errors)."""

    properties: pd.DataFrame
    rooms: pd.DataFrame
    room_rates: pd.DataFrame
    results: list[Result] = field(default_factory=list)

    @property
    def failed(self) -> list[Result]:
        return [r for r in self.results if not r.ok]


def request_body(hotel_id: int) -> bytes:
    return f"<request><hotel_id>{int(hotel_id)}</hotel_id></request>".encode("ascii")


def _int(value: str | None) -> int | None:
    return int(value) if value is not None and value.strip().lstrip("-").isdigit() else None


def _flag(value: str | None) -> int | None:
    return None if value is None else int(value.strip() in ("1", "true"))


def parse_roomrates(body: bytes, hotel_id: int | None = None) -> tuple[dict, list[dict], list[dict]]:
    """(property row, room rows, room-rate rows) from one ``<rooms>`` answer."""
    root = parse_xml(body)
    if localname(root) != "rooms":
        raise ValueError(f"expected a <rooms> answer, got <{localname(root)}>")
    hotel = _int(root.get("hotel_id")) or hotel_id
    prop = {"hotel_code": hotel, "hotel_name": None, "currency_code": root.get("currency_code"),
            "pricing_model": root.get("pricing_model")}
    rooms, links = [], []
    for room in (c for c in root if isinstance(c.tag, str) and localname(c) == "room"):
        room_hotel = _int(room.get("hotel_id")) or hotel
        prop["hotel_name"] = prop["hotel_name"] or room.get("hotel_name")
        rooms.append({"hotel_code": room_hotel, "inv_type_code": room.get("id"), "room_name": room.get("room_name"),
                      "max_occupancy": _int(room.get("max_occupancy")),
                      "max_adult_occupancy": _int(room.get("max_adults")),
                      "max_child_occupancy": _int(room.get("max_children"))})
        for rate in room.iter("{*}rate"):
            child = rate.get("is_child_rate") == "1"
            links.append({"hotel_code": room_hotel, "inv_type_code": room.get("id"), "rate_plan_code": rate.get("id"),
                          "rate_name": rate.get("rate_name"), "active": 1,
                          "parent_rate_plan_code": rate.get("parent_rate_id") if child else None,
                          "follows_price": _flag(rate.get("follows_price")) if child else 0,
                          "read_only": 1 if rate.get("readonly") == "1" else 0,
                          "max_persons": _int(rate.get("max_persons")), "policy_id": rate.get("policy_id")})
    return prop, rooms, links


def _frame(rows: list[dict], columns: dict[str, str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(columns))
    return frame.astype(columns) if len(frame) else pd.DataFrame({c: pd.Series(dtype=t) for c, t in columns.items()})


async def read_roomrates(client: PlatformClient, hotel_ids: Iterable[int]) -> RoomRates:
    """Ask ``roomrates`` for every hotel (concurrently, within the limits) and build the frames."""
    items = [("roomrates", request_body(h), int(h)) for h in dict.fromkeys(hotel_ids)]
    results = await client.send_many(items, stop_on_fatal=True)
    props, rooms, links = [], [], []
    for result in results:
        if result.ok:
            prop, r, link = parse_roomrates(result.body, result.context)
            props.append(prop)
            rooms += r
            links += link
    return RoomRates(_frame(props, PROPERTY_COLUMNS), _frame(rooms, ROOM_COLUMNS), _frame(links, ROOM_RATE_COLUMNS),
                     results)
