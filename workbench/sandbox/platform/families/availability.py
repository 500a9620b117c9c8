"""The availability family: ``OTA_HotelAvailNotif`` (rooms to sell and restrictions, the rules in
:mod:`workbench.sandbox.platform.availability_rules`) and the B.XML read ``roomrateavailability``.

``OTA_HotelAvailNotif`` applies every message that passes and answers the others as ``Error`` with
their ``LocatorID`` as ``RecordID``: HTTP 200 when at least one message applied (partial success, as
the platform's availability pages describe it), 400 when none did. ``roomrateavailability`` answers
``<result><room room_id><date value rooms_to_sell room_closed><rate id closed booked cancelled/>``
(``room_level`` 1: ``<date value rooms_to_sell booked cancelled closed/>``) for the property's active
room-rates, 1 to 31 nights from ``start_date`` (default: tomorrow)."""

from __future__ import annotations

from datetime import date, timedelta

from lxml import etree

from workbench.ota import localname
from workbench.sandbox.platform.availability_rules import AvailRules
from workbench.sandbox.platform.availability_state import AvailabilityStore
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import bxml, ota
from workbench.sandbox.platform.issues import Issue
from workbench.sandbox.platform.protocol import bxml_body, bxml_error, ota_body

AVAIL_NOTIF = ota("OTA_HotelAvailNotif", content_types=("application/xml",), versioned=True)
ROOM_RATE_AVAILABILITY = bxml("roomrateavailability", "result")
MAX_DAYS = 31


class _Rules:
    """The rules of a sandbox (its own state: ``sb.own(_Rules)``), made again only when the registry or the
    LOS reading changes."""

    def __init__(self, store: object) -> None:
        self.made: tuple[object, str, AvailRules] | None = None

    def of(self, sb: PlatformState) -> AvailRules:
        reading = sb.config.los_reading
        if self.made is None or self.made[0] is not sb.registry or self.made[1] != reading:
            self.made = (sb.registry, reading, AvailRules(sb.registry, reading))
        return self.made[2]


def rules(sb: PlatformState) -> AvailRules:
    """The rules of this sandbox's registry and LOS reading (``SandboxConfig.los_reading``)."""
    return sb.own(_Rules).of(sb)


async def avail_notif(sb: PlatformState, call: Call) -> Reply:
    rs = call.endpoint.name + "RS"
    if call.root is None:
        return Reply(400, ota_body(rs, call.ruid, errors=[Issue("AVAILSTATUSMESSAGES_ELEMENT_MISSING", "empty body")]),
                     "rejected")
    outcome = rules(sb).check(call.root, sb.today())
    applied = outcome.messages - outcome.refused
    if applied:
        sb.own(AvailabilityStore).apply(outcome.changes, call.ruid)
    if not outcome.errors:
        return Reply(200, ota_body(rs, call.ruid), "success")
    return Reply(200 if applied else 400, ota_body(rs, call.ruid, errors=outcome.errors),
                 "errors" if applied else "rejected")


def _text(root: etree._Element, name: str) -> str | None:
    for child in root:
        if isinstance(child.tag, str) and localname(child) == name:
            return (child.text or "").strip()
    return root.get(name)


async def room_rate_availability(sb: PlatformState, call: Call) -> Reply:
    root = call.root
    if root is None or localname(root) != "request":
        return Reply(200, bxml_error("the request must be <request><hotel_id>...</hotel_id>...</request>", call.ruid),
                     "errors")
    hotel, days = _text(root, "hotel_id") or "", _text(root, "number_of_days") or str(MAX_DAYS)
    level, start_text = _text(root, "room_level") or "0", _text(root, "start_date")
    prop = next((p for p in sb.registry.properties if str(p.hotel_code) == hotel), None)
    problem = ("hotel_id is missing or not a property of this account" if prop is None else
               f"number_of_days must be 1 to {MAX_DAYS}" if not days.isdigit() or not 1 <= int(days) <= MAX_DAYS else
               "room_level must be 0 or 1" if level not in ("0", "1") else None)
    try:
        start = date.fromisoformat(start_text) if start_text else sb.today() + timedelta(days=1)
    except ValueError:
        problem = problem or "start_date must be a date written YYYY-MM-DD"
    if problem or prop is None:
        return Reply(200, bxml_error(problem or "", call.ruid), "errors")
    wanted = {(c.text or "").strip() for c in root if isinstance(c.tag, str) and localname(c) == "room_id"}
    links = [(r.inv_type_code, r.rate_plan_code) for r in sb.registry.room_rates
             if r.hotel_code == prop.hotel_code and r.active and (not wanted or r.inv_type_code in wanted)]
    answer = etree.Element("result")
    rooms: dict[str, etree._Element] = {}
    for night in sb.own(AvailabilityStore).nights(prop.hotel_code, start, int(days), links):
        room = rooms.get(night["room"])
        if room is None:
            room = rooms[night["room"]] = etree.SubElement(answer, "room", room_id=night["room"])
        if level == "1":
            etree.SubElement(room, "date", value=night["day"], rooms_to_sell=str(night["rooms_to_sell"]),
                             booked=str(night["booked"]), cancelled=str(night["cancelled"]),
                             closed=str(night["closed"]))
            continue
        el = etree.SubElement(room, "date", value=night["day"], rooms_to_sell=str(night["rooms_to_sell"]),
                              room_closed=str(night["closed"]))
        for rate in night["rates"]:
            etree.SubElement(el, "rate", id=rate["id"], booked=str(rate["booked"]), cancelled=str(rate["cancelled"]),
                             closed=str(rate["closed"]), min_contracted_rooms="0")
    return Reply(200, bxml_body(answer, call.ruid), "success")


FAMILY = Family("availability", (AVAIL_NOTIF, ROOM_RATE_AVAILABILITY),
                {AVAIL_NOTIF.name: avail_notif, ROOM_RATE_AVAILABILITY.name: room_rate_availability})
