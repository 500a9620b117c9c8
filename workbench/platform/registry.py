"""Reads from the platform into the loaders' canonical schemas (so sheets and platform compare)."""

from __future__ import annotations

from collections.abc import Iterable

from loaders import Registry
from workbench.config import Settings
from workbench.errors import PlatformReadError


def fetch_registry(settings: Settings, hotels: Iterable[int]) -> Registry:
    """Rooms, active rate plans (child and read-only ones flagged) and, where the platform says,
    each property's currency and pricing model, from ``/hotels/xml/roomrates``."""
    from workbench.platform.roomrates import fetch_roomrates
    from workbench.transport import SyncPlatformClient

    hotels = list(dict.fromkeys(int(h) for h in hotels))
    if not hotels:
        return Registry()
    with SyncPlatformClient(settings) as client:
        rr = fetch_roomrates(client, hotels)
    if rr.failed:
        detail = "; ".join(r.summary() for r in rr.failed[:5])
        if all(r.fatal for r in rr.failed):
            raise PlatformReadError(f"reading rooms and rate plans failed: {detail}")
    props = rr.properties.dropna(subset=["hotel_code"])
    rates = rr.room_rates.copy()
    for col in ("active", "follows_price", "read_only"):
        rates[col] = rates[col].astype("Int64").astype("boolean")
    return Registry.from_frames(properties=props, rooms=rr.rooms, room_rates=rates)
