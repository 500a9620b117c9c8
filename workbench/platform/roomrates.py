"""``/hotels/xml/roomrates`` read into frames: the property registry as the platform knows it.

Columns follow the loaders' registry schema (``loaders.schemas``: ROOM_FIELDS, ROOM_RATE_FIELDS),
so the platform's mapping can stand in for, or be diffed against, a registry spreadsheet.
Listed rate plans are the active ones; child rates carry ``is_child_rate=1`` (and a
``parent_rate_plan_code`` / ``follows_price`` only when the answer says: the platform does not),
read-only ones ``read_only=1``. A property whose read the platform refused (a B.XML ``<error>``
or ``<fault>``) is listed in ``refused`` with the platform's code, text and ruid.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pandas as pd

from workbench.ota import parse_roomrates
from workbench.ota import roomrates_request_body as request_body
from workbench.transport.result import Outcome, Result

if TYPE_CHECKING:
    from workbench.transport import PlatformClient, SyncPlatformClient

PROPERTY_COLUMNS = {"hotel_code": "Int64", "hotel_name": "string", "currency_code": "string",
                    "pricing_model": "string"}
ROOM_COLUMNS = {"hotel_code": "Int64", "inv_type_code": "string", "room_name": "string", "max_occupancy": "Int64",
                "max_adult_occupancy": "Int64", "max_child_occupancy": "Int64"}
ROOM_RATE_COLUMNS = {"hotel_code": "Int64", "inv_type_code": "string", "rate_plan_code": "string",
                     "rate_name": "string", "active": "Int64", "is_child_rate": "Int64",
                     "parent_rate_plan_code": "string", "follows_price": "Int64", "read_only": "Int64",
                     "max_persons": "Int64", "policy_id": "string"}
REFUSED_COLUMNS = {"hotel_code": "Int64", "code": "string", "text": "string", "ruid": "string"}


@dataclass
class RoomRates:
    """Frames read from the platform, and the request results behind them (ruids, errors)."""

    properties: pd.DataFrame
    rooms: pd.DataFrame
    room_rates: pd.DataFrame
    results: list[Result] = field(default_factory=list)
    refused: pd.DataFrame = field(default_factory=lambda: _frame([], REFUSED_COLUMNS))

    @property
    def failed(self) -> list[Result]:
        return [r for r in self.results if not r.ok]


def _frame(rows: list[dict], columns: dict[str, str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(columns))
    return frame.astype(columns) if len(frame) else pd.DataFrame({c: pd.Series(dtype=t) for c, t in columns.items()})


def _items(hotel_ids: Iterable[int]) -> list[tuple[str, bytes, int]]:
    return [("roomrates", request_body(h), int(h)) for h in dict.fromkeys(int(h) for h in hotel_ids)]


async def read_roomrates(client: PlatformClient, hotel_ids: Iterable[int]) -> RoomRates:
    """Ask ``roomrates`` for every hotel (concurrently, within the limits) and build the frames."""
    return roomrates_frames(await client.send_many(_items(hotel_ids), stop_on_fatal=True))


def fetch_roomrates(client: SyncPlatformClient, hotel_ids: Iterable[int]) -> RoomRates:
    """:func:`read_roomrates` through the blocking client (scripts, notebooks)."""
    return roomrates_frames(client.send_many(_items(hotel_ids), stop_on_fatal=True))


def roomrates_frames(results: list[Result]) -> RoomRates:
    """The frames of every successful ``roomrates`` answer in ``results`` (their ``context`` is the hotel)."""
    props, rooms, links, refused = [], [], [], []
    for result in results:
        if result.ok:
            prop, r, link = parse_roomrates(result.body, result.context)
            props.append(prop)
            rooms += r
            links += link
        elif result.outcome is Outcome.REJECTED and not result.fatal and result.context is not None:
            refused.append({"hotel_code": int(result.context),
                            "code": ", ".join(n.code for n in result.errors if n.code) or None,
                            "text": " | ".join(n.message for n in result.errors) or result.error,
                            "ruid": result.ruid})
    return RoomRates(_frame(props, PROPERTY_COLUMNS), _frame(rooms, ROOM_COLUMNS), _frame(links, ROOM_RATE_COLUMNS),
                     results, _frame(refused, REFUSED_COLUMNS))
