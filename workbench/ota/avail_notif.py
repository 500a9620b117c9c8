"""OTA_HotelAvailNotifRQ: rooms to sell and restrictions, one hotel and one month per request.

What each workbook column becomes in the message lives in ONE table, :data:`TABLE` (shown in
docs/availability.md with the same sources; a test holds the two together). Each
``AvailStatusMessage`` carries exactly one column's value for one room type (rooms to sell; a closed
room type) or room-rate, over a date range with a weekday mask, and its ``LocatorID`` (its 1-based
position in the request, OTA 2014B's attribute for exactly this, absent from 2003B), so an
``Error@RecordID`` names the message and, through it, the spreadsheet cells. Weekday flags use OTA's
spelling (``Mon Tue Weds Thur Fri Sat Sun``), written only when a message does not apply to every day.

The published pages disagree on ``SetMinLOS``/``SetMaxLOS``: the platform's older guide reads them as
the minimum and maximum stay *through* a night, other OTA users (Google, Hotel Trader) as the stay
*arriving* that night, with ``SetForwardMinStay``/``SetForwardMaxStay`` for the other pair; the
platform's current pages show neither the forward types nor an advance-booking attribute. So the
reading is a setting (``WORKBENCH_LOS_READING``, :data:`workbench.config.LOS_READINGS`): the default,
``stay_through``, is the platform's own; ``arrival`` swaps the pairs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeAlias
from xml.sax.saxutils import quoteattr

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from workbench.config import LOS_READINGS
from workbench.ota.ns import OTA_NS, child, children, parse_xml
from workbench.ota.rate_amount import ALL_DAYS, DOW, weekday_attributes

VERSION = "1.0"
ROOM, ROOM_RATE, EITHER = "room type", "room-rate", "room type or room-rate"
DOC = "https://developers.booking.com/connectivity/docs/ota-hotelavailnotif"
DOC_OLD = "https://connect.booking.com/user_guide/site/en-US/ota-hotelavailnotif/"
GOOGLE = "https://developers.google.com/hotels/hotel-prices/xml-reference/ari-avail"


@dataclass(frozen=True)
class Carried:
    """How one workbook column travels: at which ``level`` (a room type, a room-rate, either), in which
    ``element`` (``BookingLimit``, ``RestrictionStatus``, ``LengthOfStay``), with which
    ``RestrictionStatus@Restriction`` (None: not written) or ``MinMaxMessageType`` per LOS reading, and
    where that meaning is published (``source``)."""

    column: str
    restriction: str
    level: str
    element: str
    written: str
    source: str
    restriction_attr: str | None = None
    los: tuple[str, str] | None = None  # MinMaxMessageType under the (stay_through, arrival) readings

    def los_type(self, reading: str) -> str:
        assert self.los is not None
        return self.los[LOS_READINGS.index(reading)]


#: The one table: every column of the workbook, what it becomes in OTA_HotelAvailNotifRQ, and why.
TABLE: tuple[Carried, ...] = (
    Carried("RoomsToSell", "rooms_to_sell", ROOM, "AvailStatusMessage@BookingLimit",
            "the number; no RatePlanCode (shared by every rate of the room type); 255 = unlimited",
            f"[D] {DOC} (BookingLimit: rooms the platform may sell, every rate shares them, at most 254, 255 "
            f"unlimited, above 255 cut to 254); [D-old] {DOC_OLD} (example without RatePlanCode)"),
    Carried("Closed", "closed", EITHER, "RestrictionStatus@Status",
            "1 = `Close`, 0 = `Open`, no `Restriction` attribute; blank RatePlanCode closes the room type",
            f"[D] {DOC} (closing a room type vs a room-rate); [D-old] {DOC_OLD} (RestrictionStatus@Status "
            "Open or Close, Restriction optional)"),
    Carried("ClosedToArrival", "closed_to_arrival", ROOM_RATE, "RestrictionStatus@Restriction+@Status",
            "`Restriction=\"Arrival\"`, 1 = `Close`, 0 = `Open`",
            f"[D-old] {DOC_OLD} (@Restriction on RestrictionStatus); the value Arrival: [3P] {GOOGLE} (the "
            "platform's own table: NOT SHOWN)", restriction_attr="Arrival"),
    Carried("ClosedToDeparture", "closed_to_departure", ROOM_RATE, "RestrictionStatus@Restriction+@Status",
            "`Restriction=\"Departure\"`, 1 = `Close`, 0 = `Open`",
            f"[D-old] {DOC_OLD} (@Restriction on RestrictionStatus); the value Departure: [3P] {GOOGLE} (the "
            "platform's own table: NOT SHOWN)", restriction_attr="Departure"),
    Carried("MinStayArrival", "min_stay_arrival", ROOM_RATE, "LengthsOfStay/LengthOfStay@MinMaxMessageType+@Time",
            "`Time` = nights; type by the reading",
            f"stay_through: the type the platform's guide leaves (SetForwardMinStay; NOT SHOWN by the platform); "
            f"arrival: [3P] {GOOGLE}", los=("SetForwardMinStay", "SetMinLOS")),
    Carried("MaxStayArrival", "max_stay_arrival", ROOM_RATE, "LengthsOfStay/LengthOfStay@MinMaxMessageType+@Time",
            "`Time` = nights; type by the reading",
            f"stay_through: the type the platform's guide leaves (SetForwardMaxStay; NOT SHOWN by the platform); "
            f"arrival: [3P] {GOOGLE}", los=("SetForwardMaxStay", "SetMaxLOS")),
    Carried("MinStayThrough", "min_stay_through", ROOM_RATE, "LengthsOfStay/LengthOfStay@MinMaxMessageType+@Time",
            "`Time` = nights; type by the reading",
            f"stay_through: [D-old] {DOC_OLD} (SetMinLOS Time=2 is \"Minimum Stay Through = 2\"); arrival: [3P] "
            f"{GOOGLE} (SetForwardMinStay)", los=("SetMinLOS", "SetForwardMinStay")),
    Carried("MaxStayThrough", "max_stay_through", ROOM_RATE, "LengthsOfStay/LengthOfStay@MinMaxMessageType+@Time",
            "`Time` = nights; type by the reading",
            f"stay_through: [D-old] {DOC_OLD} (SetMaxLOS Time=5 is \"Maximum Stay Through = 5\"); arrival: [3P] "
            f"{GOOGLE} (SetForwardMaxStay)", los=("SetMaxLOS", "SetForwardMaxStay")),
)
BY_RESTRICTION = {c.restriction: c for c in TABLE}
DEFAULT_READING = LOS_READINGS[0]


def table_markdown() -> str:
    """:data:`TABLE` as the Markdown table docs/availability.md shows (one row per column)."""
    head = ("| column | level | in the message | value | `stay_through` (default) | `arrival` | source |\n"
            "|---|---|---|---|---|---|---|")
    rows = [f"| `{c.column}` | {c.level} | `{c.element}` | {c.written} | "
            + (" | ".join(f"`{t}`" for t in c.los) if c.los else "same | same") + f" | {c.source} |" for c in TABLE]
    return "\n".join([head, *rows])


@lru_cache(maxsize=4096)
def _attr(value: str) -> str:
    """An attribute value, quoted and escaped as XML requires (codes are few: each escaped once)."""
    return quoteattr(value)


def message_xml(locator: int, restriction: str, value: int, start: str, end: str, room: object, rate: object,
                mask: int, reading: str = DEFAULT_READING) -> str:
    """One ``AvailStatusMessage`` as text: ``restriction`` (a canonical name of :data:`TABLE`) set to
    ``value`` for ``room`` (and ``rate``; None or NA for the room type) from ``start`` to ``end``
    (``YYYY-MM-DD``, both included) on the weekdays of ``mask`` (bit 0 = Monday)."""
    head, inner = _carried(restriction, int(value), reading)
    return (f'<AvailStatusMessage LocatorID="{locator}"{head}><StatusApplicationControl Start="{start}" End="{end}"'
            f'{_target(room, rate)}{_days(mask)}/>{inner}</AvailStatusMessage>')


@lru_cache(maxsize=4096)
def _carried(restriction: str, value: int, reading: str) -> tuple[str, str]:
    """What :data:`TABLE` makes of one value: the message's own attributes and the element after its
    ``StatusApplicationControl`` (each (restriction, value) written once)."""
    c = BY_RESTRICTION[restriction]
    if c.element.endswith("@BookingLimit"):
        return f' BookingLimit="{value}"', ""
    if c.los is not None:
        return "", (f'<LengthsOfStay><LengthOfStay MinMaxMessageType="{c.los_type(reading)}" Time="{value}"/>'
                    "</LengthsOfStay>")
    which = f' Restriction="{c.restriction_attr}"' if c.restriction_attr else ""
    return "", f'<RestrictionStatus{which} Status="{"Close" if value else "Open"}"/>'


_TARGETS: dict[tuple[object, object], str] = {}


def _target(room: object, rate: object) -> str:
    """`` RatePlanCode="…" InvTypeCode="…"`` (no RatePlanCode for a room type's own message), once per pair."""
    key = (room, rate)
    found = _TARGETS.get(key)
    if found is None:
        found = f" InvTypeCode={_attr(str(room))}"
        if not _blank(rate):
            found = f" RatePlanCode={_attr(str(rate))}" + found
        if len(_TARGETS) < 100_000:
            _TARGETS[key] = found
    return found


@lru_cache(maxsize=128)
def _days(mask: int) -> str:
    """The weekday flags of a mask (OTA's spelling), none for every day."""
    return "" if mask == ALL_DAYS else "".join(f' {k}="{v}"' for k, v in weekday_attributes(mask).items())


#: a column of messages: a list, a numpy array or a pandas Series
Column: TypeAlias = "Sequence[Any] | np.ndarray | pd.Series | pa.Array"


def build_avail_notif(hotel_code: int, restrictions: Sequence[str], values: Sequence[int], starts: Sequence[str],
                      ends: Sequence[str], rooms: Sequence[object], rates: Sequence[object], masks: Sequence[int],
                      timestamp: dt.datetime | None = None, reading: str = DEFAULT_READING) -> bytes:
    """One ``OTA_HotelAvailNotifRQ`` for one hotel: message ``n`` (1-based, its ``LocatorID``) sets
    ``restrictions[n-1]`` to ``values[n-1]`` (see :func:`message_xml`)."""
    texts, _ = messages_xml(range(1, len(restrictions) + 1), restrictions, values, starts, ends, rooms, rates, masks,
                            reading)
    return request_xml(hotel_code, texts, timestamp)


def request_xml(hotel_code: int, messages: bytes, timestamp: dt.datetime | None = None) -> bytes:
    """The ``OTA_HotelAvailNotifRQ`` of one hotel around its messages' XML (:func:`messages_xml`'s bytes)."""
    ts = (timestamp or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    return b"".join([f"<?xml version='1.0' encoding='UTF-8'?>\n<OTA_HotelAvailNotifRQ xmlns=\"{OTA_NS}\" "
                     f'Version="{VERSION}" TimeStamp={_attr(ts)}><AvailStatusMessages HotelCode="{int(hotel_code)}">'
                     .encode(), messages, b"</AvailStatusMessages></OTA_HotelAvailNotifRQ>"])


def messages_xml(locators: Column, restrictions: Column, values: Column, starts: Column, ends: Column, rooms: Column,
                 rates: Column, masks: Column, reading: str = DEFAULT_READING) -> tuple[bytes, np.ndarray]:
    """Every message's XML one after the other (message ``i`` is ``message_xml(locators[i], restrictions[i],
    ...)``) as UTF-8, and the ``len + 1`` byte offsets where each begins (message ``i`` is
    ``texts[offsets[i]:offsets[i + 1]]``; the messages of a request are consecutive). What follows a message's
    dates is made once per (restriction, value, room, rate plan, weekdays), the rest by Arrow's string kernels
    over whole columns: no Python per message."""
    if reading not in LOS_READINGS:
        raise ValueError(f"LOS reading `{reading}` is not one of {', '.join(LOS_READINGS)}")
    n = len(restrictions)
    if n == 0:
        return b"", np.zeros(1, dtype=np.int64)
    key = np.zeros(n, dtype=np.int64)
    factorized = []
    for column in (restrictions, values, rooms, rates, masks):  # combined a column at a time: never overflows
        codes, uniques = pd.factorize(column if isinstance(column, pd.Series) else pd.Series(list(column),
                                                                                                dtype=object))
        factorized.append((codes, [*uniques, None]))  # code -1 (missing) picks the None
        key, _ = pd.factorize(key * (len(uniques) + 1) + codes + 1)
    first = np.empty(int(key.max()) + 1, dtype=np.int64)
    first[key[::-1]] = np.arange(n - 1, -1, -1)  # the first message of each combination
    picked = [[uniques[c] for c in codes[first].tolist()] for codes, uniques in factorized]
    heads, tails = [], []
    for restriction, value, room, rate, mask in zip(*picked, strict=True):
        head, inner = _carried(restriction, int(value), reading)
        heads.append(f'"{head}><StatusApplicationControl Start="')
        tails.append(f'"{_target(room, rate)}{_days(int(mask))}/>{inner}</AvailStatusMessage>')
    take, text = pa.array(key), pa.large_string()
    joined = pc.binary_join_element_wise(
        pa.scalar('<AvailStatusMessage LocatorID="', text),
        pc.cast(pa.array(np.asarray(locators, dtype=np.int64)), text), pa.array(heads, text).take(take),
        _texts(starts), pa.scalar('" End="', text), _texts(ends), pa.array(tails, text).take(take),
        pa.scalar("", text))
    _, offsets, data = joined.buffers()
    at = np.frombuffer(offsets, dtype=np.int64)[joined.offset: joined.offset + n + 1]
    return data.to_pybytes()[at[0]:at[-1]] if data is not None else b"", at - at[0]


def _texts(values: Column) -> pa.Array:
    if isinstance(values, pa.Array):
        return values.cast(pa.large_string())
    return pa.array(values if isinstance(values, np.ndarray) else list(values), pa.large_string())


def parse_avail_notif(body: bytes, reading: str = DEFAULT_READING) -> list[dict[str, object]]:
    """Read a request back (for checks and tests): one dict per message with ``hotel_code, locator,
    restriction, value, start, end, inv_type_code, rate_plan_code`` (None for a room type) and ``days``
    (seven booleans, Mon..Sun, by the spec's weekday rules), reading ``LengthOfStay`` by ``reading``."""
    root = parse_xml(body)
    holder = child(root, "AvailStatusMessages")
    if holder is None:
        raise ValueError("no AvailStatusMessages element")
    los = {c.los_type(reading): c.restriction for c in TABLE if c.los}
    status = {c.restriction_attr: c.restriction for c in TABLE if c.element.startswith("RestrictionStatus")}
    out = []
    for msg in children(holder, "AvailStatusMessage"):
        sac = child(msg, "StatusApplicationControl")
        if sac is None:
            raise ValueError("an AvailStatusMessage has no StatusApplicationControl")
        flags = [_flag(sac.get(name) or sac.get(alt)) for name, alt in zip(DOW, ("Mon", "Tue", "Wed", "Thu", "Fri",
                                                                                    "Sat", "Sun"), strict=True)]
        days = [True] * 7 if not any(f is True for f in flags) else [f is True for f in flags]
        base = {"hotel_code": int(holder.get("HotelCode", "0")), "locator": msg.get("LocatorID"),
                "start": sac.get("Start"), "end": sac.get("End"), "inv_type_code": sac.get("InvTypeCode"),
                "rate_plan_code": sac.get("RatePlanCode"), "days": days}
        if msg.get("BookingLimit") is not None:
            out.append({**base, "restriction": "rooms_to_sell", "value": int(msg.get("BookingLimit", "0"))})
        for item in (el for s in children(msg, "LengthsOfStay") for el in children(s, "LengthOfStay")):
            out.append({**base, "restriction": los[item.get("MinMaxMessageType", "")], "value": int(item.get("Time", "0"))})
        for item in children(msg, "RestrictionStatus"):
            out.append({**base, "restriction": status[item.get("Restriction")],
                        "value": 1 if item.get("Status") == "Close" else 0})
    return out


def _blank(value: object) -> bool:
    return value is None or bool(pd.isna(value)) or str(value) == ""


def _flag(text: str | None) -> bool | None:
    return None if text is None else text.strip().lower() in ("1", "true")


__all__ = ["BY_RESTRICTION", "DEFAULT_READING", "TABLE", "Carried", "build_avail_notif", "message_xml", "messages_xml",
           "parse_avail_notif", "request_xml", "table_markdown"]
