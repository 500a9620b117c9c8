"""The rooms family, room types in the sandbox: the ``OTA_HotelInvNotif`` handler (create with ``New``, update with
``Overlay``, deactivate and reactivate with ``InvStatusType``; rules in
:mod:`workbench.sandbox.platform.rooms_rules`) and the ``OTA_HotelDescriptiveInfo`` handler (the active room
types of a property).

``OTA_HotelDescriptiveInfoRS`` is answered as the platform publishes it: no ``Success`` (content,
and ``Errors`` when there are any); ``GuestRoom`` with ``ID``, ``Active``, ``MaxOccupancy``,
``RoomTypeName`` (the room *type*, e.g. ``Double``) and ``NonSmoking``; ``Amenity`` directly under
it (``RoomAmenityCode``, ``Quantity``, ``Configuration``); ``DescriptiveText`` (the room's own
name); ``Occupancy``; ``Quantities``; ``TPA_Extensions/Occupancy``. What only the sandbox knows
(RoomID, the room type code, size, units, sub-rooms and their beds) is never in it: it is served
under ``/_sandbox/`` (``rooms.csv``, ``subrooms.csv``, ``amenities.csv``).

The Home provider type sees ``OTA_HotelInvNotif`` deprecated (spec, Versioning 5): a
``DEPRECATED_OPERATION`` warning before the sunset on 2026-12-31 (the sandbox's CET date), an
error from that day on.
"""

from __future__ import annotations

from datetime import date

from lxml import etree

from workbench.ota import OTA_NS, localname
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import ota
from workbench.sandbox.platform.issues import Issue
from workbench.sandbox.platform.protocol import XML_DECLARATION, ota_body, ruid_comment, timestamp
from workbench.sandbox.platform.room_codes import RoomCodes
from workbench.sandbox.platform.room_state import Amenity, RoomType
from workbench.sandbox.platform.rooms_rules import attrs, check_inv_notif, children
from workbench.transport.operations import DEPRECATIONS

INV_NOTIF = ota("OTA_HotelInvNotif", 75)
DESCRIPTIVE_INFO = ota("OTA_HotelDescriptiveInfo", 100)
SUNSET = DEPRECATIONS["OTA_HotelInvNotif"].sunset  # written once, in the operation catalogue
DESCRIPTIVE_INFO_VERSION = "1.006"


def _q(tag: str) -> str:
    return f"{{{OTA_NS}}}{tag}"


def deprecation(provider_type: str, today: date) -> tuple[Issue | None, bool]:
    """``(issue, is_error)`` for a call of OTA_HotelInvNotif by this provider type on ``today``."""
    if not DEPRECATIONS["OTA_HotelInvNotif"].applies_to(provider_type):
        return None, False
    if today >= SUNSET:
        return Issue("DEPRECATED_OPERATION", f"OTA_HotelInvNotif was sunset on {SUNSET:%Y-%m-%d} for the Home provider "
                     "type; use the Rooms and Facilities interfaces", f"provider_type={provider_type}"), True
    return Issue("DEPRECATED_OPERATION", "OTA_HotelInvNotif is deprecated for the Home provider type and is sunset "
                 f"on {SUNSET:%Y-%m-%d}; move to the Rooms and Facilities interfaces", f"provider_type={provider_type}"), False


def _hotel(sb: PlatformState, raw: str | None) -> tuple[int | None, Issue | None]:
    if not raw:
        return None, Issue("MISSING_HOTEL_CODE", "the request names no HotelCode")
    hotel = int(raw) if raw.isdigit() else None
    known = hotel is not None and (hotel in {p.hotel_code for p in sb.store.properties()} or sb.content.created(hotel))
    if not known:
        return None, Issue("UNKNOWN_HOTEL", "the property does not exist or is not connected to this account",
                           f"hotel_id={raw}")
    return hotel, None


async def inv_notif(sb: PlatformState, call: Call) -> Reply:
    """``OTA_HotelInvNotif``: nothing changes when any error is found."""
    rs = "OTA_HotelInvNotifRS"

    def errors(*issues: Issue) -> Reply:
        return Reply(200, ota_body(rs, call.ruid, errors=issues), "errors")

    root = call.root
    if root is None:
        return Reply(400, ota_body(rs, call.ruid, errors=[Issue("INVALID_REQUEST", "empty body")]), "rejected")
    if localname(root) != "OTA_HotelInvNotifRQ":
        return errors(Issue("INVALID_REQUEST", f"expected OTA_HotelInvNotifRQ, got {localname(root)}"))
    groups = children(root, "SellableProducts")
    hotels = {attrs(g).get("HotelCode") or attrs(root).get("HotelCode") for g in groups} or {attrs(root).get("HotelCode")}
    if len(hotels) > 1:
        return errors(Issue("MULTIPLE_HOTELS", "send one property per request (SellableProducts@HotelCode differ)"))
    hotel, problem = _hotel(sb, hotels.pop())
    if problem:
        return errors(problem)
    assert hotel is not None
    notice, refused = deprecation(sb.config.provider_type, sb.today())
    if notice and refused:
        return errors(notice)
    outcome = check_inv_notif(root, hotel, sb.room_types.load(hotel), sb.room_codes)
    if outcome.errors:
        return errors(*outcome.errors)
    warnings = ([notice] if notice else []) + outcome.warnings
    stored = sb.room_types.load(hotel)
    new_keys = [key for _, key in outcome.created]
    fresh = iter(sb.room_types.next_inv_codes(hotel, {inv for _, inv in stored}, len(new_keys)))
    position = max((rt.position for rt in stored.values()), default=0)
    assigned: dict[str, str] = {}
    for (_, inv), rt in outcome.changed.items():
        if inv in new_keys:
            position += 1
            rt.inv_code, rt.position = next(fresh), position
            assigned[inv] = rt.inv_code
    sb.room_types.save(outcome.changed.values())
    extra = []
    if outcome.created:
        refs = etree.Element(_q("InventoryCrossRefs"))
        for request_code, key in outcome.created:
            etree.SubElement(refs, _q("InventoryCrossRef"), RequestInvCode=request_code, ResponseInvCode=assigned[key])
        extra.append(refs)
    body = ota_body(rs, call.ruid, warnings=warnings, extra=extra)
    return Reply(200, body, "warnings" if warnings else "success")


async def descriptive_info(sb: PlatformState, call: Call) -> Reply:
    """``OTA_HotelDescriptiveInfo``: the active room types of each requested property."""
    rs = "OTA_HotelDescriptiveInfoRS"

    def errors(*issues: Issue) -> Reply:
        return Reply(200, ota_body(rs, call.ruid, errors=issues, version=DESCRIPTIVE_INFO_VERSION), "errors")

    root = call.root
    if root is None:
        return Reply(400, ota_body(rs, call.ruid, errors=[Issue("INVALID_REQUEST", "empty body")],
                                   version=DESCRIPTIVE_INFO_VERSION), "rejected")
    if localname(root) != "OTA_HotelDescriptiveInfoRQ":
        return errors(Issue("INVALID_REQUEST", f"expected OTA_HotelDescriptiveInfoRQ, got {localname(root)}"))
    infos = [i for h in children(root, "HotelDescriptiveInfos") for i in children(h, "HotelDescriptiveInfo")]
    if not infos:
        return errors(Issue("INVALID_REQUEST", "no HotelDescriptiveInfos > HotelDescriptiveInfo in the request"))
    contents = etree.Element(_q("HotelDescriptiveContents"))
    for info in infos:
        hotel, problem = _hotel(sb, attrs(info).get("HotelCode"))
        if problem:
            return errors(problem)
        content = etree.SubElement(contents, _q("HotelDescriptiveContent"), HotelCode=str(hotel))
        rooms = etree.SubElement(etree.SubElement(content, _q("FacilityInfo")), _q("GuestRooms"))
        for rt in sb.room_types.load(hotel).values():
            if rt.active:
                rooms.append(guest_room(rt, sb.room_codes))
    root = etree.Element(_q(rs), nsmap={None: OTA_NS}, TimeStamp=timestamp(), Version=DESCRIPTIVE_INFO_VERSION)
    root.append(contents)  # the published answer: content, no <Success/>
    body = XML_DECLARATION + etree.tostring(root, encoding="utf-8") + b"\n" + ruid_comment(call.ruid) + b"\n"
    return Reply(200, body, "success")


def _set(el: etree._Element, **values: object) -> etree._Element:
    for k, v in values.items():
        if v is not None:
            el.set(k, str(v))
    return el


def _amenity(parent: etree._Element, a: Amenity) -> None:
    _set(etree.SubElement(parent, _q("Amenity")), RoomAmenityCode=a.code, Quantity=a.quantity,
         Configuration=a.configuration)


def guest_room(rt: RoomType, codes: RoomCodes) -> etree._Element:
    """One ``GuestRoom`` as the platform publishes it (see the module docstring)."""
    type_name = codes.room_type_name(rt.room_type) if rt.room_type else None
    el = _set(etree.Element(_q("GuestRoom")), ID=rt.inv_code, Active=int(rt.active), MaxOccupancy=rt.max_occupancy,
              RoomTypeName=type_name or None,
              NonSmoking=rt.non_smoking if rt.non_smoking is not None else "Unknown")
    for a in rt.amenities:
        _amenity(el, a)
    if rt.name:
        etree.SubElement(el, _q("DescriptiveText")).text = rt.name
    occupancy = {"MaxOccupancy": rt.max_occupancy, "MaxAdultOccupancy": rt.max_adults,
                 "MaxChildOccupancy": rt.max_children}
    if any(v is not None for v in occupancy.values()):
        _set(etree.SubElement(el, _q("Occupancy")), **occupancy)
    quantities = {"MaximumAdditionalGuests": rt.max_additional_guests, "MaxCribs": rt.max_cribs,
                  "MaxRollaways": rt.max_rollaways}
    if any(v is not None for v in quantities.values()):
        _set(etree.SubElement(el, _q("Quantities")), **quantities)
    if rt.max_child_payable is not None:
        tpa = etree.SubElement(el, _q("TPA_Extensions"))
        _set(etree.SubElement(tpa, _q("Occupancy")), MaxChildPayableOccupancy=rt.max_child_payable)
    return el


FAMILY = Family("rooms", (INV_NOTIF, DESCRIPTIVE_INFO), {INV_NOTIF.name: inv_notif, DESCRIPTIVE_INFO.name: descriptive_info})
