"""Room types as the Rooms and Facilities APIs hold them: each property's units (``GET .../units``), a unit's room
facilities and bathrooms (``GET /facilities-api/properties/{id}/rooms/{unit}`` and ``.../bathrooms``), the property's
category (``GET /property-api/properties/{id}``), and the two meta answers, cached a day per platform as the lookups
are (``GET /rooms-api/meta``, ``GET /facilities-api/meta``).

The answers are kept as the platform sent them (``data``, decoded JSON) in ``workbench.modular.UnitAnswers``: an
update is built from them merged with the analyst's edits, so nothing the workbench does not model is lost. A room
read without bathrooms is ``{}``; a part not read is absent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.config import Settings
from workbench.errors import PlatformReadError
from workbench.modular.endpoints import OPERATIONS
from workbench.modular.envelope import EnvelopeParseError, parse_envelope
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms_read import UnitAnswers
from workbench.platform.lookups import DEFAULT_MAX_AGE, LookupCache
from workbench.platform.rooms import open_client

if TYPE_CHECKING:
    from workbench.transport import SyncPlatformClient
    from workbench.transport.result import Result

__all__ = ["DEFAULT_META_CACHE", "FACILITIES", "META", "BATHROOMS", "ModularRoomsRead", "fetch_units", "read_meta",
           "read_units_of"]

DEFAULT_META_CACHE = Path(".workbench") / "modular_meta.json"
META = ("rooms.meta", "facilities.meta")
FACILITIES, BATHROOMS = "room_facilities", "bathrooms"


@dataclass
class ModularRoomsRead:
    """What was read: per property its ``UnitAnswers``, its category (when the Property API gave it), the meta,
    the ruids of the answers, and what could not be read (warnings)."""

    answers: dict[int, UnitAnswers]
    categories: dict[int, int]
    meta: ModularMeta
    ruids: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def units(self) -> set[tuple[int, str]]:
        """``(hotel, unit id)`` of every unit read."""
        return {(h, str(u.get("unit_id"))) for h, a in self.answers.items() for u in _units(a.units)}


def _units(data: object) -> list[dict]:
    return [u for u in data if isinstance(u, dict)] if isinstance(data, list) else []


def path_of(name: str, **ids: object) -> str:
    """The path of a modular operation with its ids filled in."""
    return OPERATIONS[name].path.format(**ids)


def _data(result: Result, what: str) -> Any:
    """The ``data`` of a read's answer; :class:`PlatformReadError` when it failed or is not an answer."""
    if not result.ok:
        raise PlatformReadError(f"reading {what} failed: {result.summary()}")
    envelope = getattr(result, "envelope", None)
    try:
        envelope = envelope if envelope is not None else parse_envelope(result.body)
    except EnvelopeParseError as exc:
        raise PlatformReadError(f"the answer to {what} cannot be read ({exc}); ruid {result.ruid}") from None
    return envelope.data


def _get(client: SyncPlatformClient, name: str, what: str, **ids: object) -> Any:
    return _data(client.send(name, b"", method="GET", path=path_of(name, **ids), context=what), what)


def read_units_of(client: SyncPlatformClient, hotel: int) -> list[dict]:
    """The active units of one property, as the platform sent them."""
    data = _get(client, "units.read", f"the units of property {hotel}", property_id=int(hotel))
    return _units(data)


def read_meta(client: SyncPlatformClient, source: str, *, cache: str | Path | None = DEFAULT_META_CACHE,
              max_age: timedelta = DEFAULT_MAX_AGE, refresh: bool = False) -> ModularMeta:
    """The Rooms and Facilities meta, each from the cache while younger than ``max_age`` (per platform ``source``),
    else read and cached; a read that fails with an older copy cached uses the copy."""
    store = LookupCache(cache, max_age=max_age) if cache is not None else None
    found: dict[str, Any] = {}
    for name in META:
        entry = store.entry(source, name) if store is not None else None
        fresh = entry is not None and not refresh and store is not None and \
            store.now() - _when(entry) < store.max_age
        if entry is not None and fresh:
            found[name] = entry["records"][0]
            continue
        try:
            result = client.send(name, b"", method="GET", path=path_of(name), context=name)
            found[name] = _data(result, f"GET {path_of(name)}")
        except PlatformReadError:
            if entry is None:
                raise
            found[name] = entry["records"][0]  # the older copy
            continue
        if store is not None:
            store.store(source, name, [found[name]], result.ruid)
    return ModularMeta.from_answers(rooms_meta=found["rooms.meta"], facilities_meta=found["facilities.meta"])


def _when(entry: Mapping[str, Any]) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(entry["fetched_at"])


def fetch_units(settings: Settings, hotels: Iterable[int], *, client: Any | None = None,
                parts: Mapping[tuple[int, str], set[str]] | None = None, meta: ModularMeta | None = None,
                meta_cache: str | Path | None = DEFAULT_META_CACHE) -> ModularRoomsRead:
    """Each property's units and category; the room facilities and bathrooms of each unit (of the units and parts
    ``parts`` names, when given: ``(hotel, unit id) -> {"room_facilities", "bathrooms"}``); the meta (given, else
    read through the cache)."""
    c, own = open_client(settings, client)
    try:
        meta = meta if meta is not None else read_meta(c, settings.base_url.rstrip("/"), cache=meta_cache)
        units_of: dict[int, list[dict]] = {}
        categories: dict[int, int] = {}
        warnings: list[str] = []
        wanted: list[tuple[int, int, str]] = []
        for hotel in dict.fromkeys(int(h) for h in hotels):
            units_of[hotel] = read_units_of(c, hotel)
            category = _category(c, hotel, warnings)
            if category is not None:
                categories[hotel] = category
            for u in units_of[hotel]:
                uid = u.get("unit_id")
                if not isinstance(uid, int):
                    continue
                want = parts.get((hotel, str(uid)), set()) if parts is not None else {FACILITIES, BATHROOMS}
                wanted += [(hotel, uid, part) for part in sorted(want)]
        got = _read_parts(c, wanted)
    finally:
        if own:
            c.close()
    answers = {h: UnitAnswers(h, units, got.get((h, FACILITIES), {}), got.get((h, BATHROOMS), {}))
               for h, units in units_of.items()}
    return ModularRoomsRead(answers, categories, meta, warnings=warnings)


def _category(client: SyncPlatformClient, hotel: int, warnings: list[str]) -> int | None:
    """The property's ``booking_property_category`` (None, with a warning, when the Property API does not give it:
    the unit types are then checked against every category)."""
    try:
        data = _get(client, "property.read", f"property {hotel}", property_id=hotel)
    except PlatformReadError as exc:
        warnings.append(f"{exc}: the unit types allowed for its category are not checked")
        return None
    value = data.get("booking_property_category") if isinstance(data, dict) else None
    return value if isinstance(value, int) else None


def _read_parts(client: SyncPlatformClient, wanted: list[tuple[int, int, str]]
                ) -> dict[tuple[int, str], dict[int, object]]:
    """The room facilities and bathrooms of units, read many in flight: ``(hotel, part) -> {unit id: data}``."""
    out: dict[tuple[int, str], dict[int, object]] = {}
    if not wanted:
        return out
    from workbench.transport.client import SendItem

    names = {FACILITIES: "room_facilities.read", BATHROOMS: "bathrooms.read"}
    items = [SendItem(names[part], b"", context=(hotel, uid, part), method="GET",
                      path=path_of(names[part], property_id=hotel, room_id=uid)) for hotel, uid, part in wanted]
    for result in client.send_many(items):
        hotel, uid, part = result.context
        data = _data(result, f"the {part.replace('_', ' ')} of unit {uid} (property {hotel})")
        shaped = (data if isinstance(data, list) else []) if part == FACILITIES else \
            (data if isinstance(data, dict) else {})
        out.setdefault((hotel, part), {})[uid] = shaped
    return out
