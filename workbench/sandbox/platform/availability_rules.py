"""``OTA_HotelAvailNotif`` as the sandbox reads it: each ``AvailStatusMessage`` checked on its own and,
when it passes, turned into the values it sets (the handler is
:mod:`workbench.sandbox.platform.families.availability`; the state :mod:`availability_state`).

The reading is docs/availability.md's, transcribed here on its own (the stand-ins never import the
client's table, so a test sees the builder and the documented reading disagree): ``BookingLimit`` is the
room type's rooms to sell (0 to 254, 255 unlimited, above 255 cut to 254), ``RestrictionStatus``
without ``Restriction`` (or ``Master``) closes or opens the room type (no ``RatePlanCode``) or the
room-rate, ``Arrival`` / ``Departure`` the room-rate's arrivals / departures, and ``LengthOfStay`` by
the reading of :data:`LOS_READINGS` (``stay_through``, the platform's older guide, by default).

Refusals: a date that is not one, before yesterday (CET) or beyond five years ahead (``NOT_A_VALID_DATE``),
a room type the property does not have (``ROOM_ID_INVALID``), a rate plan not active for the room
(``RATE_NOT_ACTIVE_FOR_ROOM``), any restriction for a property on length-of-stay pricing (the sandbox's
``RESTRICTIONS_NOT_SUPPORTED_FOR_LOS``: the platform does not support them; its code is not published).
Each refused message is an ``Error`` whose ``RecordID`` is its ``LocatorID``; the others apply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from lxml import etree

from workbench.ota import localname
from workbench.sandbox.platform.issues import Issue
from workbench.sandbox.platform.rate_rules import date_window, weekdays_of
from workbench.sandbox.platform.seed import Registry

#: ``MinMaxMessageType`` -> the value it sets, under each reading (docs/availability.md, "the one table").
LOS_READINGS: dict[str, dict[str, str]] = {
    "stay_through": {"SetMinLOS": "MinStayThrough", "SetMaxLOS": "MaxStayThrough",
                     "SetForwardMinStay": "MinStayArrival", "SetForwardMaxStay": "MaxStayArrival"},
    "arrival": {"SetMinLOS": "MinStayArrival", "SetMaxLOS": "MaxStayArrival",
                "SetForwardMinStay": "MinStayThrough", "SetForwardMaxStay": "MaxStayThrough"},
}
#: ``RestrictionStatus@Restriction`` -> the value it sets.
STATUSES = {None: "Closed", "Master": "Closed", "Arrival": "ClosedToArrival", "Departure": "ClosedToDeparture"}
MOST_ROOMS, UNLIMITED = 254, 255


@dataclass(frozen=True)
class Change:
    """One value set: ``rate`` is ``""`` for the room type's own values."""

    hotel: int
    room: str
    rate: str
    day: str
    column: str
    value: int


@dataclass
class AvailOutcome:
    """Per request: the errors (one per refused message) and the values the other messages set."""

    errors: list[Issue] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    messages: int = 0
    refused: int = 0


def _attrs(el: etree._Element) -> dict[str, str]:
    return {k.rsplit("}", 1)[-1]: v.strip() for k, v in el.attrib.items()}


def _children(el: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in el if isinstance(c.tag, str) and localname(c) == name]


class AvailRules:
    """The registry-backed checks of one sandbox, with its LOS reading."""

    def __init__(self, registry: Registry, reading: str = "stay_through") -> None:
        if reading not in LOS_READINGS:
            raise ValueError(f"LOS reading `{reading}` is not one of {', '.join(LOS_READINGS)}")
        self.los = LOS_READINGS[reading]
        self.properties = {p.hotel_code: p for p in registry.properties}
        self.rooms = {(r.hotel_code, r.inv_type_code) for r in registry.rooms}
        self.active = {(r.hotel_code, r.inv_type_code, r.rate_plan_code) for r in registry.room_rates if r.active}

    def check(self, root: etree._Element, today: date) -> AvailOutcome:
        out = AvailOutcome()
        groups = _children(root, "AvailStatusMessages") if localname(root) == "OTA_HotelAvailNotifRQ" else []
        if len(groups) != 1:
            out.errors.append(Issue("AVAILSTATUSMESSAGES_ELEMENT_MISSING",
                                    "send one OTA_HotelAvailNotifRQ with one AvailStatusMessages (one hotel)"))
            return out
        raw = _attrs(groups[0]).get("HotelCode", "")
        prop = self.properties.get(int(raw)) if raw.isdigit() else None
        if prop is None:
            out.errors.append(Issue("HOTEL_ID_INVALID", "the property does not exist or is not connected to this "
                                    "account", f"hotel_id={raw}"))
            return out
        first, last = date_window(today)
        for n, msg in enumerate(_children(groups[0], "AvailStatusMessage"), start=1):
            out.messages += 1
            record = _attrs(msg).get("LocatorID") or n
            changes, problem = self._message(prop, msg, first, last)
            if problem is not None:
                out.refused += 1
                out.errors.append(Issue(problem[0], problem[1], problem[2], record))
            else:
                out.changes += changes
        if not out.messages:
            out.errors.append(Issue("AVAILSTATUSMESSAGES_ELEMENT_MISSING", "no AvailStatusMessage in the request",
                                    f"hotel_id={prop.hotel_code}"))
        return out

    def _message(self, prop, msg: etree._Element, first: date, last: date
                 ) -> tuple[list[Change], tuple[str, str, str] | None]:
        hotel = prop.hotel_code
        controls = _children(msg, "StatusApplicationControl")
        a = _attrs(controls[0]) if len(controls) == 1 else {}
        room, rate = a.get("InvTypeCode", ""), a.get("RatePlanCode", "")
        where = f"hotel_id={hotel}; room_id={room}" + (f"; rate_id={rate}" if rate else "")
        try:
            start, end = date.fromisoformat(a["Start"]), date.fromisoformat(a["End"])
        except (KeyError, ValueError):
            return [], ("NOT_A_VALID_DATE", "Start and End must be dates written YYYY-MM-DD", where)
        where += f"; dates={start}..{end}"
        if start > end or start < first or end > last:
            return [], ("NOT_A_VALID_DATE", f"dates must lie from {first} (1 day in the past, CET) to {last}, Start "
                        "not after End", where)
        days, problem = weekdays_of(a)
        if days is None:
            return [], ("INVALID_WEEKDAY_FLAG", problem or "", where)
        if (hotel, room) not in self.rooms:
            return [], ("ROOM_ID_INVALID", "the room type does not exist for this property", where)
        if rate and (hotel, room, rate) not in self.active:
            return [], ("RATE_NOT_ACTIVE_FOR_ROOM", "the rate plan is not active for the room", where)
        values, refused = self._values(msg, bool(rate))
        if refused is not None:
            return [], (refused[0], refused[1], where)
        if prop.pricing_model == "LOS" and any(column != "RoomsToSell" for column, _ in values):
            return [], ("RESTRICTIONS_NOT_SUPPORTED_FOR_LOS", "the property uses length-of-stay pricing, which takes "
                        "no restrictions", where)
        nights = [(start + timedelta(days=i)).isoformat() for i in range((end - start).days + 1)
                  if (start + timedelta(days=i)).weekday() in days]
        return [Change(hotel, room, "" if column == "RoomsToSell" else rate, night, column, value)
                for column, value in values for night in nights], None

    def _values(self, msg: etree._Element, has_rate: bool) -> tuple[list[tuple[str, int]], tuple[str, str] | None]:
        """(column, value) of each value the message sets, or a problem."""
        out: list[tuple[str, int]] = []
        limit = _attrs(msg).get("BookingLimit")
        if limit is not None:
            if not limit.isdigit():
                return [], ("INVALID_BOOKING_LIMIT", "BookingLimit must be a whole number of rooms, 0 or more")
            out.append(("RoomsToSell", min(int(limit), MOST_ROOMS) if int(limit) > UNLIMITED else int(limit)))
        for status in _children(msg, "RestrictionStatus"):
            s = _attrs(status)
            column = STATUSES.get(s.get("Restriction"))
            if column is None or s.get("Status") not in ("Open", "Close"):
                return [], ("INVALID_RESTRICTION", "RestrictionStatus takes Status Open or Close and Restriction "
                            "Master, Arrival or Departure")
            if column != "Closed" and not has_rate:
                return [], ("RATE_ID_MISSING", f"{column} is set per room-rate: give the RatePlanCode")
            out.append((column, int(s["Status"] == "Close")))
        for holder in _children(msg, "LengthsOfStay"):
            for stay in _children(holder, "LengthOfStay"):
                s = _attrs(stay)
                column = self.los.get(s.get("MinMaxMessageType", ""))
                time = s.get("Time", "")
                if column is None or not time.isdigit() or int(time) < 1:
                    return [], ("INVALID_LENGTH_OF_STAY", "LengthOfStay takes MinMaxMessageType SetMinLOS, SetMaxLOS, "
                                "SetForwardMinStay or SetForwardMaxStay and a Time of 1 night or more")
                if not has_rate:
                    return [], ("RATE_ID_MISSING", f"{column} is set per room-rate: give the RatePlanCode")
                out.append((column, int(time)))
        if not out:
            return [], ("INVALID_REQUEST", "the AvailStatusMessage sets nothing (BookingLimit, RestrictionStatus or "
                        "LengthsOfStay)")
        return out, None
