"""OTA_HotelDescriptiveInfo (spec E2): read a property's room types into the loaders' frames.

The answer lists the **active** room types only (the spec: to see deactivated ones, retrieve
the property details and filter on ``GuestRooms``); a ``GuestRoom`` with ``Active="0"`` that
does appear is left out too, so the frames always mean "what is live".

Every shape the platform is known to send is read (fixtures in ``tests/fixtures/descriptive_info/``):

- the published answer: no ``Success``; ``GuestRoom@ID``, ``@Active``, ``@MaxOccupancy``,
  ``@RoomTypeName`` (the room **type**, e.g. ``Double``), ``DescriptiveText`` (the room's own
  **name**), ``Amenity`` directly under ``GuestRoom``;
- spec E2's full list: ``@NonSmoking``, ``Occupancy``, ``Quantities``,
  ``TPA_Extensions/Occupancy@MaxChildPayableOccupancy``, ``Amenity@Configuration``;
- the OTA 2003B/2014B schema: occupancy as ``GuestRoom`` attributes, the id in ``Code``, cribs and
  extra beds on ``TypeRoom``, ``Amenities`` wrapping ``Amenity``, ``HotelCode`` on
  ``HotelDescriptiveContents``;
- ``RoomAmenityCode`` or ``AmenityCode``, ``Quantity`` or ``Value``; the OTA namespace or none;
- E1's request parts when an answer carries them (``Room`` attributes, ``TPA_Extensions/SubRooms``).

The published answer does not carry ``RoomID``, the room type *code*, the size, the number of units
or the sub-rooms and their beds. A fact the answer does not carry is **unknown**, which is not the
same as "not stored": :attr:`PlatformRooms.unknown` lists them per room, so that an Overlay (which
replaces a part as a whole) is never built from a guess. Within an element the answer does carry
(``Occupancy``, ``Quantities``, ``Room``), an absent attribute means "not stored".

Rows carry provenance ``source = "OTA_HotelDescriptiveInfo"``, ``sheet = "<hotel code>"`` and
``row`` = the GuestRoom's position in the answer. Sub-rooms are keyed ``"<RoomType> <n>"``
(``Bedroom 1``, ``Bedroom 2``, ``Bathroom 1``), the n-th of that kind in the answer's order.
"""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd
from lxml import etree

from loaders.schemas import AMENITIES_COLUMNS, ROOMS_COLUMNS, SUBROOMS_COLUMNS
from workbench.ota.inv_notif import read_amenities, read_subrooms
from workbench.ota.ns import OTA_NS, child, int_or_none, localname, parse_xml

SOURCE = "OTA_HotelDescriptiveInfo"
VERSION = "1.0"
#: ``PlatformRooms.unknown``: one row per fact of a room type the read did not carry
UNKNOWN_COLUMNS = {"hotel_code": "Int64", "inv_code": "string", "fact": "string"}
#: facts besides the ``rooms`` columns: the sub-rooms with their beds, and the room's own amenities
SUBROOMS_FACT, AMENITIES_FACT = "subrooms", "amenities"
#: the Room part's attributes (spec E1 ``GuestRoom > Room``), as ``rooms`` columns
ROOM_PART = ("room_id", "room_type", "size_measurement", "size_measurement_unit", "non_smoking", "quantity")
OCCUPANCY_PART = ("max_occupancy", "max_adult_occupancy", "max_child_occupancy")
QUANTITIES_PART = ("maximum_additional_guests", "max_cribs", "max_rollaways")
#: every fact of a room type a read may or may not carry
FACTS = (*ROOM_PART, "room_name", *OCCUPANCY_PART, "max_child_payable_occupancy", *QUANTITIES_PART,
         SUBROOMS_FACT, AMENITIES_FACT)


class PlatformRooms(NamedTuple):
    """A property's active room types as the platform stores them, and what the read did not say."""

    rooms: pd.DataFrame
    subrooms: pd.DataFrame
    amenities: pd.DataFrame
    unknown: pd.DataFrame  # hotel_code, inv_code, fact (see FACTS): not carried by the read

    @classmethod
    def empty(cls) -> PlatformRooms:
        return cls(_frame([], ROOMS_COLUMNS), _frame([], SUBROOMS_COLUMNS), _frame([], AMENITIES_COLUMNS),
                   _frame([], UNKNOWN_COLUMNS))

    @classmethod
    def concat(cls, parts: list[PlatformRooms]) -> PlatformRooms:
        if not parts:
            return cls.empty()
        return cls(*(pd.concat([p[i] for p in parts], ignore_index=True) for i in range(4)))

    def unknown_facts(self, hotel: int, inv_code: str) -> frozenset[str]:
        """The facts of one room type that the read did not carry (every fact for a room not in it)."""
        u = self.unknown
        here = self.rooms[(self.rooms["hotel_code"] == hotel) & (self.rooms["inv_code"].astype("string") == inv_code)]
        if here.empty:
            return frozenset(FACTS)
        rows = u[(u["hotel_code"] == hotel) & (u["inv_code"].astype("string") == inv_code)]
        return frozenset(rows["fact"].astype(str))


def build_descriptive_info_request(hotel_code: int | str) -> bytes:
    root = etree.Element(f"{{{OTA_NS}}}OTA_HotelDescriptiveInfoRQ", nsmap={None: OTA_NS}, Version=VERSION)
    infos = etree.SubElement(root, f"{{{OTA_NS}}}HotelDescriptiveInfos")
    etree.SubElement(infos, f"{{{OTA_NS}}}HotelDescriptiveInfo", HotelCode=str(hotel_code))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _elements(el: etree._Element, name: str) -> list[etree._Element]:
    return [e for e in el.iter(etree.Element) if localname(e) == name]


def parse_descriptive_info(body: bytes, hotel_code: int | None = None) -> PlatformRooms:
    """Rooms, sub-rooms, amenities and unknown facts of every property in an ``OTA_HotelDescriptiveInfoRS``."""
    root = parse_xml(body)
    rooms: list[dict] = []
    subrooms: list[dict] = []
    amenities: list[dict] = []
    unknown: list[dict] = []
    contents = _elements(root, "HotelDescriptiveContent") or [root]
    for content in contents:
        holder = content.getparent()
        hotel = (int_or_none(content.get("HotelCode"))
                 or (int_or_none(holder.get("HotelCode")) if holder is not None else None) or hotel_code)
        for position, gr in enumerate(_elements(content, "GuestRoom"), start=1):
            if (gr.get("Active") or "1").strip().lower() in ("0", "false"):
                continue
            ref = {"hotel_code": hotel, "inv_code": next((gr.get(a) for a in ("ID", "InvCode", "InvTypeCode", "Code")
                                                          if gr.get(a)), None)}
            prov = {"source": SOURCE, "sheet": str(hotel or ""), "row": position}
            facts, missing = _room_facts(gr)
            room_id = facts.get("room_id")
            ref_id = {**ref, "room_id": room_id}
            rooms.append({**ref_id, **facts, **prov})
            unknown += [{**ref, "fact": f} for f in missing]
            for a in read_amenities(gr):
                amenities.append({**ref_id, "subroom": None, "amenity_code": a.code, "room_amenity_code": a.code,
                                  "value": a.value, "configuration": a.configuration, "remove": False, **prov})
            seen: dict[str, int] = {}
            for s in read_subrooms(child(gr, "TPA_Extensions")) or ():
                seen[s.room_type] = seen.get(s.room_type, 0) + 1
                key = f"{s.room_type} {seen[s.room_type]}"
                subrooms.append({**ref_id, "subroom": key, "subroom_type": s.room_type, "max_guests": s.max_guests,
                                 "number": s.number, "private_bathroom": s.private_bathroom, "remove": False, **prov})
                for a in s.amenities:
                    amenities.append({**ref_id, "subroom": key, "amenity_code": a.code, "room_amenity_code": a.code,
                                      "value": a.value, "configuration": a.configuration, "remove": False, **prov})
    return PlatformRooms(_frame(rooms, ROOMS_COLUMNS), _frame(subrooms, SUBROOMS_COLUMNS),
                         _frame(amenities, AMENITIES_COLUMNS), _frame(unknown, UNKNOWN_COLUMNS))


def _room_facts(gr: etree._Element) -> tuple[dict[str, object], list[str]]:
    """The facts of one ``GuestRoom`` (``rooms`` columns) and the facts it does not carry."""
    room, occ, qty, type_room = child(gr, "Room"), child(gr, "Occupancy"), child(gr, "Quantities"), child(gr, "TypeRoom")
    tpa = child(gr, "TPA_Extensions")
    facts: dict[str, object] = {}
    missing: list[str] = []

    def take(column: str, value: str | None, known: bool, number: bool = True) -> None:
        facts[column] = int_or_none(value) if number else (value.strip() or None if value is not None else None)
        if not known:
            missing.append(column)

    def room_attr(name: str) -> str | None:
        value = room.get(name) if room is not None else None
        return value if value is not None else gr.get(name)

    # the Room part: known where the answer carries the attribute (or a Room element holding the part)
    room_type = room_attr("RoomType") or gr.get("RoomTypeName")  # RoomTypeName is the room TYPE (e.g. Double)
    take("room_type", room_type, room is not None or room_type is not None, number=False)
    take("room_id", room_attr("RoomID"), room is not None or room_attr("RoomID") is not None, number=False)
    size = room_attr("SizeMeasurement")
    take("size_measurement", size, room is not None or size is not None)
    unit = room_attr("SizeMeasurementUnit")
    take("size_measurement_unit", unit, room is not None or unit is not None or size is not None, number=False)
    take("quantity", room_attr("Quantity"), room is not None or room_attr("Quantity") is not None)
    smoking = room_attr("NonSmoking")  # "Unknown": known not to be set
    take("non_smoking", smoking, room is not None or smoking is not None)
    text = child(gr, "DescriptiveText")  # the room's own name
    take("room_name", (text.text or "") if text is not None else None, text is not None, number=False)
    for column, name in zip(OCCUPANCY_PART, ("MaxOccupancy", "MaxAdultOccupancy", "MaxChildOccupancy"), strict=True):
        value = occ.get(name) if occ is not None else gr.get(name)
        take(column, value, occ is not None or value is not None)
    tocc = child(tpa, "Occupancy") if tpa is not None else None
    take("max_child_payable_occupancy", tocc.get("MaxChildPayableOccupancy") if tocc is not None else None,
         tocc is not None)
    for column, name in zip(QUANTITIES_PART, ("MaximumAdditionalGuests", "MaxCribs", "MaxRollaways"), strict=True):
        if qty is not None:
            take(column, qty.get(name), True)
        else:
            value = type_room.get(name) if type_room is not None else None
            take(column, value, value is not None)
    if tpa is None or child(tpa, "SubRooms") is None:
        missing.append(SUBROOMS_FACT)
    return facts, missing


def _frame(records: list[dict], columns: dict[str, str]) -> pd.DataFrame:
    frame = pd.DataFrame(records, columns=list(columns))
    return frame.astype(columns)


def descriptive_info_root_ok(body: bytes) -> bool:
    """True when ``body`` is an ``OTA_HotelDescriptiveInfoRS`` without ``Errors``."""
    root = parse_xml(body)
    return localname(root) == "OTA_HotelDescriptiveInfoRS" and not any(
        localname(el) == "Errors" for el in root.iter(etree.Element))


__all__ = ["FACTS", "OCCUPANCY_PART", "QUANTITIES_PART", "ROOM_PART", "SOURCE", "SUBROOMS_FACT", "AMENITIES_FACT",
           "PlatformRooms", "UNKNOWN_COLUMNS", "build_descriptive_info_request", "descriptive_info_root_ok",
           "parse_descriptive_info"]
