"""B.XML ``roomrateavailability``: the read of what the platform holds, per room (and room-rate) and night.

The platform's page (``https://developers.booking.com/connectivity/docs/b_xml-roomrateavailability``)
gives the request - ``hotel_id``, ``number_of_days`` (1 to 31; out of range is an error),
``start_date`` (default: the day after the request), ``room_level`` (0 rate level, the default; 1
room level), ``room_id`` (optional, repeatable) - and lists what the answer holds for every **active**
room/rate combination: booked and cancelled rooms, whether the room-rate is closed, whether the room
type is closed, minimum contracted rooms and rooms left to sell, under ``result > room[@room_id] >
date[@value]``. Which element or attribute carries each item, and whether restrictions (minimum stay,
closed to arrival, …) come back, it does not show: so this parser reads each item wherever the
published names put it - as an attribute or a child element, on the ``date`` (the room type's) or on a
``rate`` under it (the room-rate's) - and restrictions are not read. Fixtures of every shape read:
``tests/fixtures/roomrateavailability/`` (hand-written, each naming its source).

A year of one property is 12 calls (:func:`windows`: at most :data:`MAX_DAYS` nights each).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import pandas as pd
from lxml import etree

from workbench.ota.ns import int_or_none, localname, parse_xml
from workbench.ota.roomrates import bxml_flag, bxml_value

__all__ = ["FETCH_COLUMNS", "FETCH_HEADERS", "MAX_DAYS", "fetch_frame", "parse_room_rate_availability",
           "request_body", "windows"]

MAX_DAYS = 31
#: The fetch frame: one row per room type and night (``rate_plan_code`` NA) and per room-rate and night.
FETCH_COLUMNS: dict[str, str] = {"hotel_code": "Int64", "inv_type_code": "string", "rate_plan_code": "string",
                                 "date": "datetime64[ns]", "rooms_to_sell": "Int64", "booked": "Int64",
                                 "cancelled": "Int64", "closed": "Int64"}
#: The columns of ``fetch availability --out FILE``.
FETCH_HEADERS = {"hotel_code": "HotelCode", "inv_type_code": "InvTypeCode", "rate_plan_code": "RatePlanCode",
                 "date": "Date", "rooms_to_sell": "RoomsToSell", "booked": "Booked", "cancelled": "Cancelled",
                 "closed": "Closed"}
#: Names the published item list suggests for each item (the first is the page's own word).
_NAMES = {"rooms_to_sell": ("rooms_to_sell", "roomstosell"), "booked": ("booked",), "cancelled": ("cancelled",),
          "closed": ("closed", "rate_closed", "roomrate_closed"),
          "room_closed": ("room_closed", "roomclosed", "room_type_closed")}


def request_body(hotel_id: int, start_date: dt.date | None = None, number_of_days: int = MAX_DAYS,
                 room_level: int = 0, room_ids: Iterable[str] = ()) -> bytes:
    """The request for one property's nights ``start_date`` (default: the platform's, the day after the
    request) and the ``number_of_days`` after it (1 to 31), at rate level (0) or room level (1)."""
    if not 1 <= number_of_days <= MAX_DAYS:
        raise ValueError(f"number_of_days is 1 to {MAX_DAYS} (the platform answers an error otherwise), not "
                         f"{number_of_days}")
    if room_level not in (0, 1):
        raise ValueError(f"room_level is 0 (rate level) or 1 (room level), not {room_level}")
    parts = [f"<hotel_id>{int(hotel_id)}</hotel_id>", f"<number_of_days>{int(number_of_days)}</number_of_days>"]
    if start_date is not None:
        parts.append(f"<start_date>{start_date:%Y-%m-%d}</start_date>")
    parts.append(f"<room_level>{room_level}</room_level>")
    parts += [f"<room_id>{int(r)}</room_id>" for r in room_ids]
    return ("<request>" + "".join(parts) + "</request>").encode("ascii")


def windows(start: dt.date, days: int) -> list[tuple[dt.date, int]]:
    """``(start_date, number_of_days)`` of the calls that read ``days`` nights from ``start``: 31 a call."""
    if days < 1:
        raise ValueError(f"read at least one night, not {days}")
    return [(start + dt.timedelta(days=d), min(MAX_DAYS, days - d)) for d in range(0, days, MAX_DAYS)]


def _value(el: etree._Element, names: tuple[str, ...]) -> str | None:
    """The first of ``names`` the element carries (as an attribute or a child element)."""
    return next((v for v in (bxml_value(el, n) for n in names) if v is not None), None)


def _items(el: etree._Element) -> dict[str, int | None]:
    out: dict[str, int | None] = {k: int_or_none(_value(el, _NAMES[k])) for k in ("rooms_to_sell", "booked",
                                                                                     "cancelled")}
    out["closed"] = bxml_flag(_value(el, _NAMES["closed"]))
    out["room_closed"] = bxml_flag(_value(el, _NAMES["room_closed"]))
    return out


def _children(el: etree._Element, name: str) -> list[etree._Element]:
    """Elements called ``name`` under ``el``, looking through wrappers (``<rates>``) but not into ``stop``."""
    out = []
    for c in el:
        if not isinstance(c.tag, str):
            continue
        if localname(c) == name:
            out.append(c)
        elif localname(c) not in ("room", "date", "rate"):
            out.extend(_children(c, name))
    return out


def parse_room_rate_availability(body: bytes, hotel_id: int | None = None) -> list[dict[str, object]]:
    """Rows of :data:`FETCH_COLUMNS` from one answer: per room and night a room-type row (rooms to sell,
    booked and cancelled - summed over its rates when only they carry them - and the room type's
    ``closed``), and per rate listed under the night a room-rate row (its booked, cancelled, ``closed``).
    Raises ``ValueError`` when the answer holds no ``room`` list (an error answer: read it with
    :func:`workbench.ota.response.parse_response`)."""
    root = parse_xml(body)
    rooms = [root] if localname(root) == "room" else _children(root, "room")
    if not rooms and localname(root) not in ("result", "rooms", "roomrateavailability"):
        raise ValueError(f"expected a roomrateavailability answer (<result> with <room> elements), got "
                         f"<{localname(root) or '?'}>")
    hotel = int_or_none(_value(root, ("hotel_id",))) or hotel_id
    out: list[dict[str, object]] = []
    for room in rooms:
        room_id = _value(room, ("room_id", "id"))
        for night in _children(room, "date"):
            day = _value(night, ("value", "date"))
            items = _items(night)
            rates = _children(night, "rate")
            rate_rows: list[dict[str, object]] = []
            for rate in rates:
                got = _items(rate)
                rate_rows.append({"hotel_code": hotel, "inv_type_code": room_id,
                                  "rate_plan_code": _value(rate, ("id", "rate_id")), "date": day,
                                  "rooms_to_sell": got["rooms_to_sell"], "booked": got["booked"],
                                  "cancelled": got["cancelled"], "closed": got["closed"]})
            room_closed = items["room_closed"]
            if room_closed is None and not rates:  # room level: the night's own `closed` is the room type's
                room_closed = items["closed"]
            out.append({"hotel_code": hotel, "inv_type_code": room_id, "rate_plan_code": None, "date": day,
                        "rooms_to_sell": items["rooms_to_sell"],
                        "booked": items["booked"] if items["booked"] is not None else _sum(rate_rows, "booked"),
                        "cancelled": (items["cancelled"] if items["cancelled"] is not None
                                      else _sum(rate_rows, "cancelled")),
                        "closed": room_closed})
            out.extend(rate_rows)
    return out


def _sum(rows: list[dict[str, object]], key: str) -> int | None:
    values = [int(str(v)) for r in rows if (v := r[key]) is not None]
    return sum(values) if values else None


def fetch_frame(rows: Iterable[dict[str, object]]) -> pd.DataFrame:
    """Rows of :func:`parse_room_rate_availability` (several answers') as the typed fetch frame, sorted by
    property, room, night and rate plan (the room type's own row first)."""
    frame = pd.DataFrame(list(rows), columns=list(FETCH_COLUMNS))
    frame["date"] = pd.to_datetime(frame["date"], format="%Y-%m-%d")
    frame = frame.astype(FETCH_COLUMNS)
    return frame.sort_values(["hotel_code", "inv_type_code", "date", "rate_plan_code"], na_position="first",
                             kind="stable").reset_index(drop=True)
