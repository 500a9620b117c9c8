"""OTA (OpenTravel 2003B) and B.XML messages: one module per message, namespaces in ``ns.py``.

The names other packages use, each loaded on first use (:mod:`loaders.lazy`); a module
outside this package imports them from here, never from the modules behind them
(``tests/test_faces.py`` keeps it so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

if TYPE_CHECKING:
    from workbench.ota.avail_notif import (
        DEFAULT_READING,
        build_avail_notif,
        messages_xml,
        parse_avail_notif,
        request_xml,
    )
    from workbench.ota.content_notif import (
        NEW,
        OVERLAY,
        PARTS,
        build_content,
        canonical_rows,
        is_build_hotel,
        parse_content_response,
    )
    from workbench.ota.descriptive_info import (
        AMENITIES_FACT,
        FACTS,
        OCCUPANCY_PART,
        QUANTITIES_PART,
        ROOM_PART,
        SUBROOMS_FACT,
        UNKNOWN_COLUMNS,
        PlatformRooms,
        build_descriptive_info_request,
        parse_descriptive_info,
    )
    from workbench.ota.inv_notif import (
        Amenity,
        RoomTypeMessage,
        SubRoom,
        build_inv_notif,
        parse_cross_refs,
        parse_inv_notif_request,
        sent_parts,
    )
    from workbench.ota.lookups import (
        PLATFORM_LISTS,
        parse_lookup,
    )
    from workbench.ota.lookups import (
        request_body as lookups_request_body,
    )
    from workbench.ota.ns import (
        OTA_NS,
        UnsafeXMLError,
        XMLSyntaxError,
        child,
        children,
        int_or_none,
        localname,
        parse_xml,
    )
    from workbench.ota.rate_amount import (
        build_bytes_from_lists,
        vector_amounts,
    )
    from workbench.ota.response import (
        Notice,
        OTAResponse,
        ResponseParseError,
        extract_ruid,
        parse_response,
    )
    from workbench.ota.room_rate_availability import (
        FETCH_COLUMNS,
        FETCH_HEADERS,
        fetch_frame,
        parse_room_rate_availability,
        windows,
    )
    from workbench.ota.room_rate_availability import (
        request_body as availability_request_body,
    )
    from workbench.ota.roomrates import (
        parse_roomrates,
    )
    from workbench.ota.roomrates import (
        request_body as roomrates_request_body,
    )

__getattr__, __dir__ = lazy_exports(__name__, {
    "build_avail_notif": "workbench.ota.avail_notif",
    "DEFAULT_READING": "workbench.ota.avail_notif",
    "parse_avail_notif": "workbench.ota.avail_notif",
    "messages_xml": "workbench.ota.avail_notif",
    "request_xml": "workbench.ota.avail_notif",
    "build_content": "workbench.ota.content_notif",
    "canonical_rows": "workbench.ota.content_notif",
    "is_build_hotel": "workbench.ota.content_notif",
    "NEW": "workbench.ota.content_notif",
    "OVERLAY": "workbench.ota.content_notif",
    "parse_content_response": "workbench.ota.content_notif",
    "PARTS": "workbench.ota.content_notif",
    "AMENITIES_FACT": "workbench.ota.descriptive_info",
    "build_descriptive_info_request": "workbench.ota.descriptive_info",
    "FACTS": "workbench.ota.descriptive_info",
    "OCCUPANCY_PART": "workbench.ota.descriptive_info",
    "parse_descriptive_info": "workbench.ota.descriptive_info",
    "PlatformRooms": "workbench.ota.descriptive_info",
    "QUANTITIES_PART": "workbench.ota.descriptive_info",
    "ROOM_PART": "workbench.ota.descriptive_info",
    "SUBROOMS_FACT": "workbench.ota.descriptive_info",
    "UNKNOWN_COLUMNS": "workbench.ota.descriptive_info",
    "Amenity": "workbench.ota.inv_notif",
    "build_inv_notif": "workbench.ota.inv_notif",
    "parse_cross_refs": "workbench.ota.inv_notif",
    "parse_inv_notif_request": "workbench.ota.inv_notif",
    "RoomTypeMessage": "workbench.ota.inv_notif",
    "sent_parts": "workbench.ota.inv_notif",
    "SubRoom": "workbench.ota.inv_notif",
    "lookups_request_body": "workbench.ota.lookups:request_body",
    "parse_lookup": "workbench.ota.lookups",
    "PLATFORM_LISTS": "workbench.ota.lookups",
    "child": "workbench.ota.ns",
    "children": "workbench.ota.ns",
    "int_or_none": "workbench.ota.ns",
    "localname": "workbench.ota.ns",
    "OTA_NS": "workbench.ota.ns",
    "parse_xml": "workbench.ota.ns",
    "UnsafeXMLError": "workbench.ota.ns",
    "XMLSyntaxError": "workbench.ota.ns",
    "build_bytes_from_lists": "workbench.ota.rate_amount",
    "vector_amounts": "workbench.ota.rate_amount",
    "extract_ruid": "workbench.ota.response",
    "Notice": "workbench.ota.response",
    "OTAResponse": "workbench.ota.response",
    "parse_response": "workbench.ota.response",
    "ResponseParseError": "workbench.ota.response",
    "FETCH_COLUMNS": "workbench.ota.room_rate_availability",
    "fetch_frame": "workbench.ota.room_rate_availability",
    "FETCH_HEADERS": "workbench.ota.room_rate_availability",
    "parse_room_rate_availability": "workbench.ota.room_rate_availability",
    "availability_request_body": "workbench.ota.room_rate_availability:request_body",
    "windows": "workbench.ota.room_rate_availability",
    "parse_roomrates": "workbench.ota.roomrates",
    "roomrates_request_body": "workbench.ota.roomrates:request_body",
})

__all__ = [
    "AMENITIES_FACT",
    "Amenity",
    "DEFAULT_READING",
    "FACTS",
    "FETCH_COLUMNS",
    "FETCH_HEADERS",
    "NEW",
    "Notice",
    "OCCUPANCY_PART",
    "OTAResponse",
    "OTA_NS",
    "OVERLAY",
    "PARTS",
    "PLATFORM_LISTS",
    "PlatformRooms",
    "QUANTITIES_PART",
    "ROOM_PART",
    "ResponseParseError",
    "RoomTypeMessage",
    "SUBROOMS_FACT",
    "SubRoom",
    "UNKNOWN_COLUMNS",
    "UnsafeXMLError",
    "XMLSyntaxError",
    "availability_request_body",
    "build_avail_notif",
    "build_bytes_from_lists",
    "build_content",
    "build_descriptive_info_request",
    "build_inv_notif",
    "canonical_rows",
    "child",
    "children",
    "extract_ruid",
    "fetch_frame",
    "int_or_none",
    "is_build_hotel",
    "localname",
    "lookups_request_body",
    "messages_xml",
    "parse_avail_notif",
    "parse_content_response",
    "parse_cross_refs",
    "parse_descriptive_info",
    "parse_inv_notif_request",
    "parse_lookup",
    "parse_response",
    "parse_room_rate_availability",
    "parse_roomrates",
    "parse_xml",
    "request_xml",
    "roomrates_request_body",
    "sent_parts",
    "vector_amounts",
    "windows",
]
