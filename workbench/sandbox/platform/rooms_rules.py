"""``OTA_HotelInvNotifRQ`` checked and applied as the platform does (E1): each ``SellableProduct``
creates (``New``) or overlays (``Overlay``) one room type of the working copy of a property.

A request with any error changes nothing; warnings accompany success. The overlay replaces
each part the body carries (Room attributes, Description, Occupancy, the extension's Occupancy,
Quantities, Amenities, SubRooms) and keeps each part it does not carry; within ``Amenities`` a
bed-only body leaves the stored non-bed amenities alone and a non-bed-only body the stored beds;
``Value=0`` removes an amenity (see docs/sandbox.md). ``SellableProduct@InvStatusType``
(OTA 2003B/2014B ``SellableProductsType``: ``Initial``, ``Active``, ``Deactivated``) deactivates a
room type (it is then left out of OTA_HotelDescriptiveInfo) or reactivates it; an Overlay that
only does that may come without a ``GuestRoom``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from workbench.ota import localname
from workbench.sandbox.platform.issues import Issue
from workbench.sandbox.platform.room_codes import (
    KITCHEN_CODES,
    KITCHEN_RECOMMENDED,
    KITCHEN_REQUIRED,
    NUMBERED_SUBROOMS,
    SUBROOM_KINDS,
    SUBROOM_TYPES,
    RoomCodes,
)
from workbench.sandbox.platform.room_state import Amenity, RoomType, SubRoom

MAX_ROOM_TYPES = 100
_INT = re.compile(r"^\+?\d+$")
_ROOM_ATTRS = {"RoomID": "room_id", "RoomType": "room_type", "SizeMeasurement": "size_measurement",
               "SizeMeasurementUnit": "size_unit", "NonSmoking": "non_smoking", "Quantity": "quantity"}
_INT_ROOM_ATTRS = {"SizeMeasurement", "Quantity"}
_OCCUPANCY = {"MaxOccupancy": "max_occupancy", "MaxAdultOccupancy": "max_adults", "MaxChildOccupancy": "max_children"}
_QUANTITIES = {"MaximumAdditionalGuests": "max_additional_guests", "MaxCribs": "max_cribs",
               "MaxRollaways": "max_rollaways"}
INV_STATUS_TYPES = ("Initial", "Active", "Deactivated")


@dataclass
class InvOutcome:
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    changed: dict[tuple[int, str], RoomType] = field(default_factory=dict)  # new ones keyed ``new:N``
    created: list[tuple[str, str]] = field(default_factory=list)  # (RequestInvCode, provisional key)


def attrs(el: etree._Element) -> dict[str, str]:
    return {k.rsplit("}", 1)[-1]: v.strip() for k, v in el.attrib.items()}


def children(el: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in el if isinstance(c.tag, str) and localname(c) == name]


def child(el: etree._Element, name: str) -> etree._Element | None:
    found = children(el, name)
    return found[0] if found else None


class _Product:
    """One SellableProduct being checked: collects its issues with its position as RecordID."""

    def __init__(self, n: int, hotel: int, out: InvOutcome, codes: RoomCodes) -> None:
        self.n, self.hotel, self.out, self.codes = n, hotel, out, codes
        self.inv: str | None = None
        self.failed = False

    def details(self, **more: object) -> str:
        parts = [f"hotel_id={self.hotel}"] + ([f"room_id={self.inv}"] if self.inv else [])
        return "; ".join(parts + [f"{k}={v}" for k, v in more.items()])

    def error(self, code: str, text: str, **more: object) -> None:
        self.failed = True
        self.out.errors.append(Issue(code, text, self.details(**more), self.n))

    def warn(self, code: str, text: str, **more: object) -> None:
        self.out.warnings.append(Issue(code, text, self.details(**more), self.n))

    def integer(self, a: dict[str, str], name: str, where: str) -> int | None:
        raw = a.get(name)
        if raw is None or raw == "":
            return None
        if not _INT.match(raw):
            self.error("INVALID_VALUE", f"{where}@{name} must be a whole number of at least 0", value=raw)
            return None
        return int(raw)


def check_inv_notif(root: etree._Element, hotel: int, stored: dict[tuple[int, str], RoomType],
                    codes: RoomCodes) -> InvOutcome:
    """Check every SellableProduct against the property's stored room types (``stored``)."""
    out = InvOutcome()
    working = {k: v for k, v in stored.items()}
    products = [p for holder in children(root, "SellableProducts") for p in children(holder, "SellableProduct")]
    if not products:
        out.errors.append(Issue("INVALID_REQUEST", "no SellableProducts > SellableProduct in the request",
                                f"hotel_id={hotel}"))
    for n, el in enumerate(products, start=1):
        _product(_Product(n, hotel, out, codes), el, working)
    if out.errors:
        out.changed.clear()
        out.created.clear()
    return out


def _product(p: _Product, el: etree._Element, working: dict[tuple[int, str], RoomType]) -> None:
    a = attrs(el)
    kind, inv, status = a.get("InvNotifType"), a.get("InvCode") or None, a.get("InvStatusType")
    if status is not None and status not in INV_STATUS_TYPES:
        p.error("INVALID_VALUE", f"InvStatusType `{status}` is not one of {', '.join(INV_STATUS_TYPES)}", value=status)
        return
    if kind is None:  # the tutorial's form: InvStatusType="Initial", no InvNotifType
        kind = "Overlay" if inv and status != "Initial" else "New"
    if kind not in ("New", "Overlay"):
        p.error("INVALID_INV_NOTIF_TYPE", f"InvNotifType `{kind}` is not New or Overlay")
        return
    if kind == "New" and status in ("Active", "Deactivated"):
        p.error("INVALID_VALUE", f"InvStatusType `{status}` is for an existing room type (Overlay with InvCode); a "
                "New one is Initial", value=status)
        return
    guest = child(el, "GuestRoom")
    if guest is None and kind == "Overlay" and status in ("Active", "Deactivated"):
        guest = etree.Element("GuestRoom")  # a change of status only
    if guest is None:
        p.error("INVALID_REQUEST", "SellableProduct needs a GuestRoom")
        return
    room_el = child(guest, "Room")
    if kind == "Overlay":
        p.inv = inv
        if not inv:
            p.error("INV_CODE_REQUIRED", "an Overlay needs the InvCode of the room type to update")
            return
        base = working.get((p.hotel, inv))
        if base is None:
            p.error("UNKNOWN_INV_CODE", "no room type with this InvCode at this property")
            return
        target = base.copy()
    else:
        if inv:
            p.warn("INV_CODE_IGNORED", "InvCode is not applicable to New: the platform assigns the id", inv_code=inv)
        if room_el is None or not attrs(room_el).get("RoomType"):
            p.error("ROOM_TYPE_REQUIRED", "a New room type needs GuestRoom > Room@RoomType (code or name)")
            return
        if sum(1 for h, _ in working if h == p.hotel) >= MAX_ROOM_TYPES:
            p.error("TOO_MANY_ROOM_TYPES", f"the property already has {MAX_ROOM_TYPES} room types, the maximum")
            return
        target = RoomType(p.hotel, f"new:{p.n}")
    body_amenities = _apply_parts(p, guest, room_el, target)
    if p.failed:
        return
    _check_room(p, target, body_amenities)
    if p.failed:
        return
    if status in ("Active", "Deactivated"):
        target.active = status == "Active"
    key = (p.hotel, target.inv_code)
    working[key] = target
    p.out.changed[key] = target
    if kind == "New":
        request_code = target.room_id or str(p.n)
        p.out.created.append((request_code, target.inv_code))


def _apply_parts(p: _Product, guest: etree._Element, room_el: etree._Element | None,
                 target: RoomType) -> list[Amenity]:
    """Replace the parts present in the body; return the body's room-level amenities."""
    if room_el is not None:
        ra = attrs(room_el)
        for name, attr in _ROOM_ATTRS.items():
            if name == "RoomType" and not ra.get(name):
                continue  # a room type keeps its RoomType
            value: object = p.integer(ra, name, "Room") if name in _INT_ROOM_ATTRS else (ra.get(name) or None)
            setattr(target, attr, value)
        if target.size_unit is not None and target.size_unit not in ("sqm", "sqft"):
            p.error("INVALID_VALUE", "Room@SizeMeasurementUnit must be `sqm` or `sqft`", value=target.size_unit)
        if target.non_smoking is not None and target.non_smoking not in ("0", "1", "2"):
            p.error("INVALID_VALUE", "Room@NonSmoking must be 1 (non-smoking), 0 (smoking) or 2 (both)",
                    value=target.non_smoking)
        if target.room_id is not None and not _INT.match(target.room_id):
            p.error("INVALID_VALUE", "Room@RoomID (the partner's own id) must be a whole number", value=target.room_id)
    description = child(guest, "Description")
    if description is not None:
        text = child(description, "Text")
        target.name = (text.text or "").strip() or None if text is not None else None
    for part, mapping in (("Occupancy", _OCCUPANCY), ("Quantities", _QUANTITIES)):
        el = child(guest, part)
        if el is not None:
            values = attrs(el)
            for name, attr in mapping.items():
                setattr(target, attr, p.integer(values, name, part))
    extensions = children(guest, "TPA_Extensions")
    tpa_occupancy = [o for t in extensions for o in children(t, "Occupancy")]
    if tpa_occupancy:
        values = attrs(tpa_occupancy[0])
        if values.get("MaxChildPayableOccupancy") in (None, ""):
            p.error("CHILD_PAYABLE", "TPA_Extensions > Occupancy needs MaxChildPayableOccupancy")
        target.max_child_payable = p.integer(values, "MaxChildPayableOccupancy", "TPA_Extensions/Occupancy")
    holders = [s for t in extensions for s in children(t, "SubRooms")]
    if holders:
        target.sub_rooms = [_sub_room(p, k, s) for k, s in
                            enumerate((s for h in holders for s in children(h, "SubRoom")), start=1)]
    body: list[Amenity] = []
    holder = child(guest, "Amenities")
    if holder is not None:
        body = _amenities(p, children(holder, "Amenity"), "Amenities")
        if not p.failed:
            target.amenities = merge_amenities(target.amenities, body, p.codes)
    return body


def _amenities(p: _Product, elements: list[etree._Element], where: str) -> list[Amenity]:
    out: list[Amenity] = []
    seen: set[tuple[str, int | None]] = set()
    for el in elements:
        a = attrs(el)
        room_code, code = a.get("RoomAmenityCode") or None, a.get("AmenityCode") or None
        if room_code and code and room_code != code:
            p.error("AMENITY_CODE_MISMATCH", f"{where}: RoomAmenityCode and AmenityCode must be the same code",
                    amenity=f"{room_code}/{code}")
            continue
        code = room_code or code
        if not code:
            p.error("AMENITY_CODE_REQUIRED", f"{where}: an Amenity needs RoomAmenityCode or AmenityCode")
            continue
        value = p.integer(a, "Value", f"{where}/Amenity")
        quantity = p.integer(a, "Quantity", f"{where}/Amenity")
        if value is not None and quantity is not None and value != quantity:
            p.error("AMENITY_VALUE_MISMATCH", f"{where}: Value and Quantity must be the same number", amenity=code)
        conf = a.get("Configuration")
        if conf is not None and conf not in ("1", "2"):
            p.error("INVALID_VALUE", f"{where}: Configuration must be 1 (standard) or 2 (alternative)", amenity=code)
            continue
        amenity = Amenity(code, value if value is not None else quantity, int(conf) if conf else None)
        if conf is not None and not p.codes.is_bed(code):
            p.error("CONFIGURATION_NOT_ALLOWED", f"{where}: Configuration is for bed types only", amenity=code)
        if (code, amenity.configuration) in seen:
            p.error("DUPLICATE_AMENITY", f"{where}: the amenity is given twice", amenity=code)
        seen.add((code, amenity.configuration))
        if amenity.quantity != 0 and not p.codes.is_known(code):
            p.warn("UNKNOWN_AMENITY", f"{where}: amenity code {code} is not in the known list; stored anyway",
                   amenity=code)
        out.append(amenity)
    return out


def _sub_room(p: _Product, k: int, el: etree._Element) -> SubRoom:
    a = attrs(el)
    kinds = {s.lower(): s for s in SUBROOM_KINDS}
    kind = kinds.get((a.get("RoomType") or "").lower())
    where = f"SubRoom {k}"
    if kind is None:
        p.error("INVALID_SUBROOM_TYPE", f"{where}: RoomType must be one of {', '.join(SUBROOM_KINDS)}",
                sub_room=k, value=a.get("RoomType", ""))
        kind = a.get("RoomType", "")
    sub = SubRoom(kind, p.integer(a, "MaxGuests", where), p.integer(a, "Number", where),
                  p.integer(a, "PrivateBathroom", where))
    if sub.number is not None and kind not in NUMBERED_SUBROOMS:
        p.error("NUMBER_NOT_ALLOWED", f"{where}: Number is for a Bathroom or Living room only", sub_room=k)
    if sub.private_bathroom not in (None, 0, 1):
        p.error("INVALID_VALUE", f"{where}: PrivateBathroom must be 0 or 1", sub_room=k)
    holder = child(el, "Amenities")
    amenities = _amenities(p, children(holder, "Amenity"), where) if holder is not None else []
    for am in amenities:
        if not p.codes.is_bed(am.code):
            p.error("SUBROOM_AMENITY_NOT_BED", f"{where}: sub-room amenities are bed types only", amenity=am.code)
        elif am.configuration is not None:
            p.error("CONFIGURATION_NOT_ALLOWED", f"{where}: Configuration is not available for multi-room rooms",
                    amenity=am.code)
    sub.amenities = [am for am in amenities if am.quantity != 0]
    return sub


def merge_amenities(stored: list[Amenity], body: list[Amenity], codes: RoomCodes) -> list[Amenity]:
    """The room's amenities after an Overlay's ``Amenities`` (E1 rules 1-3)."""
    adds = [a for a in body if a.quantity != 0]
    removes = [a for a in body if a.quantity == 0]

    def removed(s: Amenity) -> bool:
        return any(r.code == s.code and r.configuration in (None, s.configuration) for r in removes)

    if body and not adds:  # removals only: exactly those go
        return [s for s in stored if not removed(s)]
    kinds = {codes.is_bed(a.code) for a in body}
    in_scope = (lambda s: True) if len(kinds) != 1 else (lambda s: codes.is_bed(s.code) in kinds)
    by_key = {(a.code, a.configuration): a for a in adds}
    out: list[Amenity] = []
    for s in stored:  # keep stored order; replaced amenities take the body's values in place
        if not in_scope(s):
            out.append(s)
        elif (s.code, s.configuration) in by_key:
            out.append(by_key.pop((s.code, s.configuration)))
    return out + [a for a in adds if (a.code, a.configuration) in by_key]


def _check_room(p: _Product, rt: RoomType, body: list[Amenity]) -> None:
    """Rules on the room type as it would be stored."""
    occ, adults, kids, payable = rt.max_occupancy, rt.max_adults, rt.max_children, rt.max_child_payable
    if occ is not None and adults is not None and kids is not None and occ > adults + kids:
        p.error("OCCUPANCY_TOTAL", "MaxOccupancy is higher than MaxAdultOccupancy + MaxChildOccupancy",
                max_occupancy=occ, max_adults=adults, max_children=kids)
    if occ is not None and kids is not None and kids >= occ:
        p.error("OCCUPANCY_CHILDREN", "MaxChildOccupancy must be lower than MaxOccupancy",
                max_occupancy=occ, max_children=kids)
    if payable is not None and kids is not None and payable > kids:
        p.error("CHILD_PAYABLE", "MaxChildPayableOccupancy is higher than MaxChildOccupancy",
                max_child_payable=payable, max_children=kids)
    extra = rt.max_additional_guests
    for name, value in (("MaxCribs", rt.max_cribs), ("MaxRollaways", rt.max_rollaways)):
        if extra is not None and value is not None and value > extra:
            p.error("CRIB_EXTRA_BED", f"{name} is higher than MaximumAdditionalGuests (guests in cribs or extra "
                    "beds); for a crib or an extra bed but not both, set 1 for each", **{name: value,
                                                                                           "additional": extra})
    type_name = p.codes.room_type_name(rt.room_type).lower()
    if rt.sub_rooms and type_name not in SUBROOM_TYPES:
        p.error("SUBROOMS_NOT_ALLOWED", "sub-rooms are only for room types Apartment, Suite, Chalet, Bungalow, "
                "Holiday home, Villa, Mobile home", room_type=rt.room_type)
    if rt.sub_rooms:
        beds = [a.code for a in rt.amenities if p.codes.is_bed(a.code)]
        if beds:
            p.error("BEDS_UNDER_SUBROOMS", "this room has sub-rooms: its bed types go under TPA_Extensions > "
                    "SubRooms > SubRoom > Amenities, not in the room's own Amenities", amenity=",".join(beds))
        confs = [a.code for a in body if a.configuration is not None]
        if confs and not beds:
            p.error("CONFIGURATION_NOT_ALLOWED", "Configuration is not available for multi-room rooms",
                    amenity=",".join(confs))
    has_kitchen = any(a.code in KITCHEN_CODES for a in rt.amenities)
    if not has_kitchen and type_name in KITCHEN_REQUIRED:
        p.warn("NOT_BOOKABLE_NO_KITCHEN", f"a room of type {p.codes.room_type_name(rt.room_type)} needs a kitchen "
               "(59) or kitchenette (61) amenity to become bookable")
    elif not has_kitchen and type_name in KITCHEN_RECOMMENDED:
        p.warn("KITCHEN_RECOMMENDED", f"a kitchen (59) or kitchenette (61) is strongly recommended for a "
               f"{p.codes.room_type_name(rt.room_type)}")
