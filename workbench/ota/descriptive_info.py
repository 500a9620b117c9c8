"""OTA_HotelDescriptiveInfo (spec E2): read a property's room types into the loaders' frames.

The answer lists the **active** room types only (the spec: to see deactivated ones, retrieve
the property details and filter on ``GuestRooms``); a ``GuestRoom`` with ``Active="0"`` that
does appear is left out too, so the frames always mean "what is live". Tolerated shapes:
``Amenity`` directly under ``GuestRoom`` or wrapped in ``Amenities``, ``RoomAmenityCode`` or
``AmenityCode``, ``Quantity`` or ``Value``, the OTA namespace or none.

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


class PlatformRooms(NamedTuple):
    """A property's active room types as the platform stores them."""

    rooms: pd.DataFrame
    subrooms: pd.DataFrame
    amenities: pd.DataFrame


def build_descriptive_info_request(hotel_code: int | str) -> bytes:
    root = etree.Element(f"{{{OTA_NS}}}OTA_HotelDescriptiveInfoRQ", nsmap={None: OTA_NS}, Version=VERSION)
    infos = etree.SubElement(root, f"{{{OTA_NS}}}HotelDescriptiveInfos")
    etree.SubElement(infos, f"{{{OTA_NS}}}HotelDescriptiveInfo", HotelCode=str(hotel_code))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def parse_descriptive_info(body: bytes, hotel_code: int | None = None) -> PlatformRooms:
    """Rooms, sub-rooms and amenities of every property in an ``OTA_HotelDescriptiveInfoRS``."""
    root = parse_xml(body)
    rooms, subrooms, amenities = [], [], []
    contents = [el for el in root.iter(etree.Element) if localname(el) == "HotelDescriptiveContent"] or [root]
    for content in contents:
        hotel = int_or_none(content.get("HotelCode")) or hotel_code
        guest_rooms = [el for el in content.iter(etree.Element) if localname(el) == "GuestRoom"]
        for position, gr in enumerate(guest_rooms, start=1):
            if gr.get("Active", "1").strip() in ("0", "false"):
                continue
            prov = {"source": SOURCE, "sheet": str(hotel or ""), "row": position}
            occ, qty, room = child(gr, "Occupancy"), child(gr, "Quantities"), child(gr, "Room")
            ref = {"hotel_code": hotel, "inv_code": gr.get("ID") or gr.get("InvCode") or gr.get("InvTypeCode"),
                   "room_id": gr.get("RoomID") or (room.get("RoomID") if room is not None else None)}
            tpa = child(gr, "TPA_Extensions")
            tocc = child(tpa, "Occupancy") if tpa is not None else None
            text = child(gr, "DescriptiveText")
            name = gr.get("RoomTypeName") or (text.text.strip() if text is not None and text.text else None)

            def attr(el: etree._Element | None, name: str) -> int | None:
                return int_or_none(el.get(name)) if el is not None else None

            def room_attr(name: str, gr: etree._Element = gr, room: etree._Element | None = room) -> str | None:
                value = gr.get(name)  # on GuestRoom (the sandbox, the platform) or on its Room child
                return value if value is not None or room is None else room.get(name)
            rooms.append({
                **ref, "room_type": room_attr("RoomType"), "room_name": name,
                "max_occupancy": attr(occ, "MaxOccupancy"), "max_adult_occupancy": attr(occ, "MaxAdultOccupancy"),
                "max_child_occupancy": attr(occ, "MaxChildOccupancy"),
                "max_child_payable_occupancy": attr(tocc, "MaxChildPayableOccupancy"),
                "quantity": int_or_none(room_attr("Quantity")), "non_smoking": int_or_none(room_attr("NonSmoking")),
                "size_measurement": int_or_none(room_attr("SizeMeasurement")),
                "size_measurement_unit": room_attr("SizeMeasurementUnit"),
                "maximum_additional_guests": attr(qty, "MaximumAdditionalGuests"),
                "max_cribs": attr(qty, "MaxCribs"), "max_rollaways": attr(qty, "MaxRollaways"), **prov})
            for a in read_amenities(gr):
                amenities.append({**ref, "subroom": None, "amenity_code": a.code, "room_amenity_code": a.code,
                                  "value": a.value, "configuration": a.configuration, "remove": False, **prov})
            seen: dict[str, int] = {}
            for s in read_subrooms(tpa) or ():
                seen[s.room_type] = seen.get(s.room_type, 0) + 1
                key = f"{s.room_type} {seen[s.room_type]}"
                subrooms.append({**ref, "subroom": key, "subroom_type": s.room_type, "max_guests": s.max_guests,
                                 "number": s.number, "private_bathroom": s.private_bathroom, "remove": False, **prov})
                for a in s.amenities:
                    amenities.append({**ref, "subroom": key, "amenity_code": a.code, "room_amenity_code": a.code,
                                      "value": a.value, "configuration": a.configuration, "remove": False, **prov})
    return PlatformRooms(_frame(rooms, ROOMS_COLUMNS), _frame(subrooms, SUBROOMS_COLUMNS),
                         _frame(amenities, AMENITIES_COLUMNS))


def _frame(records: list[dict], columns: dict[str, str]) -> pd.DataFrame:
    frame = pd.DataFrame(records, columns=list(columns))
    return frame.astype(columns)


def descriptive_info_root_ok(body: bytes) -> bool:
    """True when ``body`` is an ``OTA_HotelDescriptiveInfoRS`` without ``Errors``."""
    root = parse_xml(body)
    return localname(root) == "OTA_HotelDescriptiveInfoRS" and not any(
        localname(el) == "Errors" for el in root.iter(etree.Element))


__all__ = ["PlatformRooms", "SOURCE", "build_descriptive_info_request", "descriptive_info_root_ok",
           "parse_descriptive_info"]
