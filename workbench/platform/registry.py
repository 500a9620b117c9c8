"""Reads from the platform into the loaders' canonical schemas (so sheets and platform compare)."""

from __future__ import annotations

from collections.abc import Iterable

from loaders import Registry
from workbench.config import Settings
from workbench.errors import PlatformReadError


def fetch_registry(settings: Settings, hotels: Iterable[int], client_options: dict | None = None) -> Registry:
    """Rooms and active rate plans (child and read-only ones flagged) from ``/hotels/xml/roomrates``.

    The platform does not send a property's currency or pricing model, nor whether a child rate
    follows its parent's price: merge a registry workbook for those
    (``read_registry("registry.xlsx").merge(fetch_registry(...))``). Properties whose read the
    platform refused are in the registry's ``refused`` frame (code, text, ruid): their rates are
    not sent, and the push reports them as refused. Raises :class:`PlatformReadError` when every
    read failed for a reason every call would meet (credentials, host). ``client_options`` go to the
    client (e.g. ``transport=httpx.ASGITransport(app=...)`` for an in-process sandbox)."""
    from workbench.platform.roomrates import fetch_roomrates
    from workbench.transport import SyncPlatformClient

    hotels = list(dict.fromkeys(int(h) for h in hotels))
    if not hotels:
        return Registry()
    with SyncPlatformClient(settings, **(client_options or {})) as client:
        rr = fetch_roomrates(client, hotels)
    if rr.failed:
        detail = "; ".join(r.summary() for r in rr.failed[:5])
        if all(r.fatal for r in rr.failed):
            raise PlatformReadError(f"reading rooms and rate plans failed: {detail}")
    props = rr.properties.dropna(subset=["hotel_code"])
    rates = rr.room_rates.copy()
    for col in ("active", "is_child_rate", "follows_price", "read_only"):
        rates[col] = rates[col].astype("Int64").astype("boolean")
    return Registry.from_frames(properties=props, rooms=rr.rooms, room_rates=rates, refused=rr.refused)
