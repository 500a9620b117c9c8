"""Reading the modular APIs: a property's details, settings, contacts, facilities and charges through ``GET``, and
the four ``meta`` crosswalks, cached a day per platform like the lookups (``workbench.platform.lookups``).

The reads go many at a time through the rate-limited client (``send_many``); each answer's envelope is parsed
once by the transport (``Result.data``). A read that fails is said (``PlatformReadError``) with its ruid: a push
that needs what a property has (its contacts, facility instances and charges, so a ``PUT`` keeps what the
workbook does not mention) never guesses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from workbench.errors import PlatformReadError
from workbench.modular.content import Current, PropertyAnswers
from workbench.modular.meta import ModularMeta
from workbench.platform.lookups import LookupCache

if TYPE_CHECKING:
    from workbench.transport import SyncPlatformClient

#: the GET of each API a property is read with, and the ``PropertyAnswers`` field it fills
READS: dict[str, str] = {"details": "property.read", "settings": "settings.read", "contacts": "contacts.read",
                         "facilities": "facilities.read", "charges": "charges.read"}
#: what a push reads first: the APIs whose write replaces a whole list
CURRENT = ("contacts", "facilities", "charges")
METAS: dict[str, str] = {"property_meta": "property.meta", "facilities_meta": "facilities.meta",
                         "charges_meta": "charges.meta", "rooms_meta": "rooms.meta"}


def path_of(operation: str, **ids: object) -> str:
    """The path of a modular operation with its ids filled in (``property_id``, ``room_id``, ``unit_id``)."""
    from workbench.transport.operations import operation as op

    return op(operation).path.format(**ids)


@dataclass
class Reads:
    """What was read: ``data[(property_id, api)]`` (decoded ``data``), the ruid of each, and the reads that failed."""

    data: dict[tuple[int, str], Any] = field(default_factory=dict)
    ruids: dict[tuple[int, str], str | None] = field(default_factory=dict)
    failed: dict[tuple[int, str], str] = field(default_factory=dict)

    def answers(self, property_id: int, key: Mapping[str, object] | None = None) -> PropertyAnswers:
        return PropertyAnswers(**{api: self.data.get((property_id, api)) for api in READS},
                               key=dict(key or {}))

    def current(self, property_id: int) -> Current:
        return Current(contacts=self.data.get((property_id, "contacts")),
                       facilities=self.data.get((property_id, "facilities")),
                       charges=self.data.get((property_id, "charges")))

    def raise_failed(self, what: str) -> None:
        if self.failed:
            lines = "; ".join(f"property {p} {api}: {why}" for (p, api), why in sorted(self.failed.items())[:5])
            more = f" (and {len(self.failed) - 5} more)" if len(self.failed) > 5 else ""
            raise PlatformReadError(f"{what}: {lines}{more}")


def read_properties(client: SyncPlatformClient, property_ids: Iterable[int],
                    apis: Sequence[str] = tuple(READS)) -> Reads:
    """``GET`` each API of each property, many at a time; failures are kept in ``Reads.failed`` (with the ruid)."""
    from workbench.transport import SendItem

    wanted = [(int(p), api) for p in dict.fromkeys(property_ids) for api in apis]
    items = [SendItem(READS[api], b"", context=(p, api), path=path_of(READS[api], property_id=p))
             for p, api in wanted]
    out = Reads()
    for result in client.send_many(items, stop_on_fatal=True):
        key = result.context
        out.ruids[key] = result.ruid
        if result.ok:
            out.data[key] = result.data
        else:
            out.failed[key] = result.summary()
    for key in wanted:
        if key not in out.data and key not in out.failed:
            out.failed[key] = "not read: an earlier read failed in a way every read would"
    return out


def fetch_modular_meta(client: SyncPlatformClient, cache: LookupCache, source: str, *,
                       refresh: bool = False) -> ModularMeta:
    """The four meta answers, each from the cache while fresher than a day, else read and cached; a read that
    fails falls back to an older copy, else :class:`PlatformReadError` (the crosswalks cannot be guessed)."""
    got: dict[str, Any] = {}
    for name, operation in METAS.items():
        entry = cache.entry(source, operation)
        fresh = entry is not None and not refresh and \
            cache.now() - _when(entry["fetched_at"]) < cache.max_age
        if entry is not None and fresh:
            got[name] = entry["records"]
            continue
        result = client.send(operation, b"", path=path_of(operation))
        if result.ok:
            cache.store(source, operation, result.data, result.ruid)
            got[name] = result.data
        elif entry is not None:
            got[name] = entry["records"]
        else:
            raise PlatformReadError(f"reading {path_of(operation)} failed: {result.summary()}")
    return ModularMeta.from_answers(**got)


def _when(text: str) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(text)


__all__ = ["CURRENT", "METAS", "READS", "Reads", "fetch_modular_meta", "path_of", "read_properties"]
