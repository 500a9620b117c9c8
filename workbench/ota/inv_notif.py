"""OTA_HotelInvNotifRQ (spec E1): create room types (``New``) and overlay them (``Overlay``).

A :class:`RoomTypeMessage` is one ``SellableProduct``; each of its parts (``name``,
``occupancy``, ``room``, ``quantities``, ``amenities``, ``subrooms``) is written only when it is
not ``None``: the sandbox (and, for amenities, the platform) replaces a part that is present
and keeps one that is absent, so an Overlay carries only the parts being changed, each in full.
``status`` (``SellableProduct@InvStatusType``, OTA 2003B/2014B ``SellableProductsType``: ``Initial``,
``Active``, ``Deactivated``) deactivates or reactivates the room type. An amenity is identified by
its code **and** its ``Configuration`` (the same bed may be stored in the standard and the
alternative arrangement), so a list holding one (code, Configuration) twice cannot be built.

``GuestRoom`` children follow the OTA 2014B order (Quantities, Occupancy, Room, Amenities,
Description) with the platform's ``TPA_Extensions`` (MaxChildPayableOccupancy, SubRooms) last.
The platform adds attributes OTA 2014B does not define (:data:`PLATFORM_ATTRIBUTES`); a request
validates against the 2014B schema once :func:`without_platform_extensions` removes them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lxml import etree

from workbench.ota.ns import OTA_NS, child, children, int_or_none, localname, parse_xml

VERSION = "1.0"
NEW, OVERLAY = "New", "Overlay"
#: SellableProduct@InvStatusType values (OTA 2003B/2014B SellableProductsType); the workbench sends the last two
INITIAL, ACTIVE, DEACTIVATED = "Initial", "Active", "Deactivated"

#: (element, attribute) pairs the platform uses beyond OTA 2014B's GuestRoomType.
PLATFORM_ATTRIBUTES: frozenset[tuple[str, str]] = frozenset({
    ("Occupancy", "MaxAdultOccupancy"), ("Occupancy", "MaxChildOccupancy"),
    ("Room", "SizeMeasurementUnit"), ("Room", "NonSmoking"),  # OTA: boolean; the platform: 0, 1 or 2
    ("Amenity", "Value"), ("Amenity", "Quantity"), ("Amenity", "Configuration"), ("Amenity", "RoomAmenityCode"),
})


@dataclass(frozen=True)
class Amenity:
    """One ``Amenity``: an RMA code, its count (``Value``; 0 removes it) and bed ``Configuration``."""

    code: int
    value: int | None = None
    configuration: int | None = None

    @property
    def key(self) -> tuple[int, int | None]:
        """What identifies a stored amenity: (code, Configuration)."""
        return self.code, self.configuration

    def attributes(self) -> dict[str, str]:
        attrs = {"AmenityCode": str(self.code)}
        if self.value is not None:
            attrs["Value"] = str(self.value)
        if self.configuration is not None:
            attrs["Configuration"] = str(self.configuration)
        return attrs


@dataclass(frozen=True)
class SubRoom:
    """One ``TPA_Extensions/SubRooms/SubRoom`` (beds only among its amenities)."""

    room_type: str  # Bedroom, Living room, Bathroom
    max_guests: int | None = None
    number: int | None = None
    private_bathroom: int | None = None
    amenities: tuple[Amenity, ...] = ()


@dataclass(frozen=True)
class RoomTypeMessage:
    """One ``SellableProduct``. ``None`` leaves a part out of the request."""

    notif_type: str                          # New or Overlay
    inv_code: str | None = None              # required for Overlay
    name: str | None = None                  # GuestRoom/Description/Text
    occupancy: dict[str, int] | None = None  # MaxOccupancy, MaxAdultOccupancy, MaxChildOccupancy
    child_payable: int | None = None         # TPA_Extensions/Occupancy@MaxChildPayableOccupancy
    room: dict[str, str] | None = None       # Room@RoomID, RoomType, SizeMeasurement(Unit), NonSmoking, Quantity
    quantities: dict[str, int] | None = None  # MaximumAdditionalGuests, MaxCribs, MaxRollaways
    amenities: tuple[Amenity, ...] | None = None
    subrooms: tuple[SubRoom, ...] | None = None
    status: str | None = None                # SellableProduct@InvStatusType: Active or Deactivated
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.notif_type not in (NEW, OVERLAY):
            raise ValueError(f"InvNotifType is New or Overlay, not `{self.notif_type}`")
        if self.notif_type == OVERLAY and not self.inv_code:
            raise ValueError("an Overlay needs the room type's InvCode")
        if self.notif_type == NEW and (not self.room or not self.room.get("RoomType")):
            raise ValueError("a New room type needs Room@RoomType")
        if self.status not in (None, INITIAL, ACTIVE, DEACTIVATED):
            raise ValueError(f"InvStatusType is Initial, Active or Deactivated, not `{self.status}`")
        if self.status in (ACTIVE, DEACTIVATED) and self.notif_type != OVERLAY:
            raise ValueError("only an existing room type (Overlay) is deactivated or reactivated")
        lists = [self.amenities or ()] + [s.amenities for s in self.subrooms or ()]
        for items in lists:
            keys = [a.key for a in items]
            twice = sorted({k for k in keys if keys.count(k) > 1}, key=str)
            if twice:
                code, conf = twice[0]
                raise ValueError(f"amenity {code}" + (f" with Configuration {conf}" if conf is not None else "")
                                 + " is given twice in one list")


def _q(tag: str) -> str:
    return f"{{{OTA_NS}}}{tag}"


def _attrs(values: Mapping[str, object] | None) -> dict[str, str]:
    return {k: str(v) for k, v in (values or {}).items() if v is not None}


def build_inv_notif(hotel_code: int | str, messages: Sequence[RoomTypeMessage],
                    timestamp: dt.datetime | None = None) -> bytes:
    """One ``OTA_HotelInvNotifRQ`` for one property with a ``SellableProduct`` per message."""
    ts = (timestamp or dt.datetime.now(dt.UTC)).replace(microsecond=0).isoformat()
    root = etree.Element(_q("OTA_HotelInvNotifRQ"), nsmap={None: OTA_NS}, Version=VERSION, TimeStamp=ts)
    products = etree.SubElement(root, _q("SellableProducts"), HotelCode=str(hotel_code))
    for m in messages:
        attrs = {"InvNotifType": m.notif_type, **({"InvCode": str(m.inv_code)} if m.inv_code else {}),
                 **({"InvStatusType": m.status} if m.status else {}), **m.extra}
        product = etree.SubElement(products, _q("SellableProduct"), attrs)
        room = etree.SubElement(product, _q("GuestRoom"))
        if m.quantities is not None:
            etree.SubElement(room, _q("Quantities"), _attrs(m.quantities))
        if m.occupancy is not None:
            etree.SubElement(room, _q("Occupancy"), _attrs(m.occupancy))
        if m.room is not None:
            etree.SubElement(room, _q("Room"), _attrs(m.room))
        if m.amenities:
            holder = etree.SubElement(room, _q("Amenities"))
            for a in m.amenities:
                etree.SubElement(holder, _q("Amenity"), a.attributes())
        if m.name is not None:
            etree.SubElement(etree.SubElement(room, _q("Description")), _q("Text")).text = m.name
        if m.child_payable is not None or m.subrooms is not None:
            tpa = etree.SubElement(room, _q("TPA_Extensions"))
            if m.child_payable is not None:
                etree.SubElement(tpa, _q("Occupancy"), MaxChildPayableOccupancy=str(m.child_payable))
            if m.subrooms is not None:
                subs = etree.SubElement(tpa, _q("SubRooms"))
                for s in m.subrooms:
                    sub = etree.SubElement(subs, _q("SubRoom"), _attrs({
                        "RoomType": s.room_type, "MaxGuests": s.max_guests, "Number": s.number,
                        "PrivateBathroom": s.private_bathroom}))
                    if s.amenities:
                        holder = etree.SubElement(sub, _q("Amenities"))
                        for a in s.amenities:
                            etree.SubElement(holder, _q("Amenity"), a.attributes())
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


#: the parts of a ``GuestRoom`` an Overlay replaces whole, by the element that carries each
PART_PATHS = {"quantities": "Quantities", "occupancy": "Occupancy", "room": "Room", "amenities": "Amenities",
              "name": "Description", "child_payable": "TPA_Extensions/Occupancy", "subrooms": "TPA_Extensions/SubRooms"}


@dataclass(frozen=True)
class SentPart:
    """One part a request carries: its room type (None for a ``New``), the part (a :class:`RoomTypeMessage`
    attribute name, or ``status``) and its content as canonical text (what the journal keeps)."""

    hotel_code: str
    notif_type: str
    inv_code: str | None
    room_id: str | None
    part: str
    text: str


def sent_parts(body: bytes) -> list[SentPart]:
    """The parts each ``SellableProduct`` of an ``OTA_HotelInvNotifRQ`` carries, read from the request
    itself (so what is recorded as accepted is what was sent), in message order."""
    root = parse_xml(body)
    out: list[SentPart] = []
    for products in (el for el in root.iter(etree.Element) if localname(el) == "SellableProducts"):
        hotel = products.get("HotelCode", "")
        for product in children(products, "SellableProduct"):
            notif, inv = product.get("InvNotifType", ""), product.get("InvCode") or None
            room = child(product, "GuestRoom")
            room_el = child(room, "Room") if room is not None else None
            rid = room_el.get("RoomID") if room_el is not None else None
            if product.get("InvStatusType"):
                out.append(SentPart(hotel, notif, inv, rid, "status", product.get("InvStatusType", "")))
            for part, path in PART_PATHS.items():
                el = room
                for step in path.split("/"):
                    el = child(el, step) if el is not None else None
                if el is not None:
                    out.append(SentPart(hotel, notif, inv, rid, part, etree.tostring(el, method="c14n").decode()))
    return out


def without_platform_extensions(root: etree._Element) -> etree._Element:
    """A copy of a request without ``TPA_Extensions`` and :data:`PLATFORM_ATTRIBUTES` (for schema checks)."""
    doc = etree.fromstring(etree.tostring(root))
    for el in list(doc.iter(_q("TPA_Extensions"), "TPA_Extensions")):
        el.getparent().remove(el)
    for el in doc.iter(etree.Element):
        for name in list(el.attrib):
            if (localname(el), name) in PLATFORM_ATTRIBUTES:
                del el.attrib[name]
    return doc


# --- reading requests and responses -------------------------------------------------------------------

def read_amenities(el: etree._Element) -> tuple[Amenity, ...]:
    """``Amenity`` children of ``el``, wrapped in ``Amenities`` or not; either code/count name."""
    items = children(el, "Amenity") + [a for h in children(el, "Amenities") for a in children(h, "Amenity")]
    out = []
    for a in items:
        code = int_or_none(a.get("AmenityCode") or a.get("RoomAmenityCode"))
        if code is None:
            continue
        value = a.get("Value") if a.get("Value") is not None else a.get("Quantity")
        out.append(Amenity(code, int_or_none(value), int_or_none(a.get("Configuration"))))
    return tuple(out)


def read_subrooms(tpa: etree._Element | None) -> tuple[SubRoom, ...] | None:
    holder = child(tpa, "SubRooms") if tpa is not None else None
    if holder is None:
        return None
    return tuple(SubRoom(s.get("RoomType", ""), int_or_none(s.get("MaxGuests")), int_or_none(s.get("Number")),
                         int_or_none(s.get("PrivateBathroom")), read_amenities(s)) for s in children(holder, "SubRoom"))


def parse_inv_notif_request(body: bytes) -> tuple[str, list[RoomTypeMessage]]:
    """The property and the messages of a request (with or without the OTA namespace)."""
    root = parse_xml(body)
    products = child(root, "SellableProducts")
    if products is None:
        raise ValueError("no SellableProducts element")
    out = []
    for p in children(products, "SellableProduct"):
        room = child(p, "GuestRoom")
        if room is None:
            raise ValueError("a SellableProduct has no GuestRoom")
        occ, qty, rm = child(room, "Occupancy"), child(room, "Quantities"), child(room, "Room")
        desc = child(room, "Description")
        text = child(desc, "Text") if desc is not None else None
        tpa = child(room, "TPA_Extensions")
        tocc = child(tpa, "Occupancy") if tpa is not None else None
        has_amenities = child(room, "Amenities") is not None or child(room, "Amenity") is not None
        out.append(RoomTypeMessage(
            notif_type=p.get("InvNotifType", NEW), inv_code=p.get("InvCode"),
            name=(text.text or "") if text is not None else None,
            occupancy={k: int(v) for k, v in occ.attrib.items() if int_or_none(v) is not None} if occ is not None else None,
            child_payable=int_or_none(tocc.get("MaxChildPayableOccupancy")) if tocc is not None else None,
            room=dict(rm.attrib) if rm is not None else None,
            quantities={k: int(v) for k, v in qty.attrib.items() if int_or_none(v) is not None} if qty is not None else None,
            amenities=read_amenities(room) if has_amenities else None,
            subrooms=read_subrooms(tpa), status=p.get("InvStatusType")))
    return products.get("HotelCode", ""), out


@dataclass(frozen=True)
class CrossRef:
    """``InventoryCrossRef``: the request's RoomID (or position) and the new room type's InvCode."""

    request_inv_code: str
    response_inv_code: str


def parse_cross_refs(body: bytes) -> list[CrossRef]:
    """The ``InventoryCrossRefs`` of an ``OTA_HotelInvNotifRS`` (empty for an Overlay or an error)."""
    root = parse_xml(body)
    return [CrossRef(el.get("RequestInvCode", ""), el.get("ResponseInvCode", ""))
            for el in root.iter(etree.Element) if localname(el) == "InventoryCrossRef"
            and el.get("ResponseInvCode")]
