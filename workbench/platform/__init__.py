"""Reads from the platform into canonical frames (the loaders' schemas), so sheets and platform compare.

``roomrates`` (rooms and rate plans per property), ``registry`` (those frames as a
:class:`loaders.Registry`) and ``rooms`` (room types, sub-rooms and amenities from
OTA_HotelDescriptiveInfo). Message parsing lives in ``workbench.ota``; bytes move through
``workbench.transport``.

The names other packages use, each loaded on first use (:mod:`loaders.lazy`); a module
outside this package imports them from here, never from the modules behind them
(``tests/test_faces.py`` keeps it so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

if TYPE_CHECKING:
    from workbench.platform.availability import (
        PlatformAvailability,
        read_availability,
    )
    from workbench.platform.lookups import (
        DEFAULT_CACHE,
        SHIPPED,
        LookupCache,
        Lookups,
        fetch_lookups,
        shipped_currencies,
    )
    from workbench.platform.modular import (
        CURRENT,
        Reads,
        fetch_modular_meta,
        read_properties,
    )
    from workbench.platform.modular_rooms import (
        BATHROOMS,
        DEFAULT_META_CACHE,
        FACILITIES,
        ModularRoomsRead,
        fetch_units,
        read_meta,
        read_units_of,
    )
    from workbench.platform.registry import (
        fetch_registry,
    )
    from workbench.platform.roomrates import (
        fetch_roomrates,
    )
    from workbench.platform.rooms import (
        fetch_rooms,
        open_client,
        read_rooms_of,
    )

__getattr__, __dir__ = lazy_exports(__name__, {
    "PlatformAvailability": "workbench.platform.availability",
    "read_availability": "workbench.platform.availability",
    "DEFAULT_CACHE": "workbench.platform.lookups",
    "fetch_lookups": "workbench.platform.lookups",
    "LookupCache": "workbench.platform.lookups",
    "Lookups": "workbench.platform.lookups",
    "SHIPPED": "workbench.platform.lookups",
    "shipped_currencies": "workbench.platform.lookups",
    "CURRENT": "workbench.platform.modular",
    "fetch_modular_meta": "workbench.platform.modular",
    "read_properties": "workbench.platform.modular",
    "Reads": "workbench.platform.modular",
    "BATHROOMS": "workbench.platform.modular_rooms",
    "DEFAULT_META_CACHE": "workbench.platform.modular_rooms",
    "FACILITIES": "workbench.platform.modular_rooms",
    "fetch_units": "workbench.platform.modular_rooms",
    "ModularRoomsRead": "workbench.platform.modular_rooms",
    "read_meta": "workbench.platform.modular_rooms",
    "read_units_of": "workbench.platform.modular_rooms",
    "fetch_registry": "workbench.platform.registry",
    "fetch_roomrates": "workbench.platform.roomrates",
    "fetch_rooms": "workbench.platform.rooms",
    "open_client": "workbench.platform.rooms",
    "read_rooms_of": "workbench.platform.rooms",
})

__all__ = [
    "BATHROOMS",
    "CURRENT",
    "DEFAULT_CACHE",
    "DEFAULT_META_CACHE",
    "FACILITIES",
    "LookupCache",
    "Lookups",
    "ModularRoomsRead",
    "PlatformAvailability",
    "Reads",
    "SHIPPED",
    "fetch_lookups",
    "fetch_modular_meta",
    "fetch_registry",
    "fetch_roomrates",
    "fetch_rooms",
    "fetch_units",
    "open_client",
    "read_availability",
    "read_meta",
    "read_properties",
    "read_rooms_of",
    "read_units_of",
    "shipped_currencies",
]
