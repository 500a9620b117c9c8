"""Room types as the platform stores them (OTA_HotelDescriptiveInfo), read into the loaders' frames,
with the facts the read did not carry listed in ``PlatformRooms.unknown`` (RoomID, size, units,
sub-rooms: the platform's published answer has none of them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from workbench.config import Settings
from workbench.errors import PlatformReadError
from workbench.ota import PlatformRooms, build_descriptive_info_request, parse_descriptive_info

if TYPE_CHECKING:
    from workbench.transport import SyncPlatformClient


def open_client(settings: Settings, client: Any | None) -> tuple[SyncPlatformClient, bool]:
    """``(client, owned)``: the given client, or a new one the caller must close."""
    from workbench.transport import SyncPlatformClient

    return (client, False) if client is not None else (SyncPlatformClient(settings), True)


def fetch_rooms(settings: Settings, hotels: Iterable[int], *, client: Any | None = None) -> PlatformRooms:
    """Active room types, sub-rooms and amenities of each property (OTA_HotelDescriptiveInfo)."""
    c, own = open_client(settings, client)
    try:
        parts = [read_rooms_of(c, int(h)) for h in dict.fromkeys(hotels)]
    finally:
        if own:
            c.close()
    return PlatformRooms.concat(parts)


def read_rooms_of(client: SyncPlatformClient, hotel: int) -> PlatformRooms:
    """One property's room types through an open client; :class:`PlatformReadError` when it fails."""
    result = client.send("OTA_HotelDescriptiveInfo", build_descriptive_info_request(hotel), context=hotel)
    if not result.ok:
        raise PlatformReadError(f"reading the room types of property {hotel} failed: {result.summary()}")
    try:
        return parse_descriptive_info(result.body, hotel)
    except ValueError as exc:
        raise PlatformReadError(f"the answer for property {hotel} cannot be read ({exc}); ruid {result.ruid}") from exc
