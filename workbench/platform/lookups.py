"""The platform's lookups (spec E5: currencies, countries, city tax categories) as frames and as
:class:`expectations.ContentLookups`, cached on disk with their fetch time and refreshed daily.

The platform sunset ``/xml/currencies`` on 2025-09-22 (the operation catalogue,
``workbench.transport.operations.CATALOGUE``): it is not called. The currencies are ISO 4217's as
the project ships them (pycountry's data), less the codes that are no money a property charges in
(precious metals, funds, units of account, test codes). Countries and city tax categories are
still read from the platform.

As the car static data is (``workbench.cars.static``): a list is fetched again when its copy is
older than ``max_age`` (a day) by the injectable ``clock``; copies are kept per platform (base URL),
so the sandbox's lists never mix with the real ones; if a refresh fails and an older copy exists,
the older copy is used and a warning says so. The answers' shape is assumed (the spec shows none):
see :mod:`workbench.ota.lookups`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from expectations import ContentLookups
from workbench.errors import PlatformReadError
from workbench.ota import PLATFORM_LISTS, parse_lookup
from workbench.ota import lookups_request_body as request_body

if TYPE_CHECKING:
    from workbench.transport import SyncPlatformClient

log = logging.getLogger(__name__)
DEFAULT_MAX_AGE = timedelta(days=1)
DEFAULT_CACHE = Path(".workbench") / "lookups.json"
COLUMNS: dict[str, dict[str, str]] = {
    "currencies": {"code": "string", "name": "string"},
    "countries": {"code": "string", "name": "string"},
    "citytaxcategory": {"country": "string", "city": "string", "category_id": "Int64", "name": "string"},
}
#: ISO 4217 codes that are not a currency a price is given in: metals, bond-market and accounting units,
#: funds codes, the test and "no currency" codes
NOT_TENDER = frozenset({"XAU", "XAG", "XPT", "XPD", "XBA", "XBB", "XBC", "XBD", "XDR", "XSU", "XUA", "XTS", "XXX",
                        "BOV", "CHE", "CHW", "CLF", "COU", "MXV", "USN", "UYI", "UYW"})
#: where the currency list comes from (``Lookups.fetched_at`` holds no fetch time for it)
SHIPPED = "ISO 4217 as shipped (pycountry)"


def shipped_currencies() -> list[dict]:
    """ISO 4217's currencies (code and name), less :data:`NOT_TENDER`, by code."""
    import pycountry

    return sorted(({"code": c.alpha_3, "name": c.name} for c in pycountry.currencies if c.alpha_3 not in NOT_TENDER),
                  key=lambda r: r["code"])


@dataclass
class Lookups:
    """The three lists as frames, when each was fetched, and what went wrong on the way."""

    currencies: pd.DataFrame
    countries: pd.DataFrame
    city_tax_categories: pd.DataFrame
    fetched_at: dict[str, datetime] = field(default_factory=dict)
    ruids: dict[str, str | None] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def content_lookups(self) -> ContentLookups:
        """What ``expectations.validate_content`` takes; a list not read is ``None`` (its rules are not run)."""
        return ContentLookups(
            currencies=frozenset(self.currencies["code"].dropna()),
            countries=frozenset(self.countries["code"].dropna()) if "countries" in self.fetched_at else None,
            city_tax_categories=self.city_tax_categories if "citytaxcategory" in self.fetched_at else None)


def lookup_frame(kind: str, records: list[dict]) -> pd.DataFrame:
    """Records of one lookup -> its frame (``citytaxcategory``'s ``id`` becomes ``category_id``)."""
    columns = COLUMNS[kind]
    rows = [{("category_id" if k == "id" else k): v for k, v in r.items()} for r in records]
    frame = pd.DataFrame(rows, columns=list(columns))
    return frame.astype(columns)


class LookupCache:
    """A JSON file of lookup lists per platform, each with its fetch time and ruid."""

    def __init__(self, path: str | Path = DEFAULT_CACHE, *, max_age: timedelta = DEFAULT_MAX_AGE,
                 clock: Callable[[], datetime] | None = None) -> None:
        if max_age <= timedelta(0):
            raise ValueError(f"`max_age` must be positive, got {max_age}")
        self.path = Path(path)
        self.max_age = max_age
        self.clock = clock or (lambda: datetime.now(UTC))

    def _read(self) -> dict:
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # no cache yet, or a damaged one: fetch anew

    def entry(self, source: str, kind: str) -> dict | None:
        return self._read().get(source, {}).get(kind)

    def store(self, source: str, kind: str, records: list[dict], ruid: str | None) -> datetime:
        data = self._read()
        now = self.now()
        data.setdefault(source, {})[kind] = {"fetched_at": now.isoformat(), "ruid": ruid, "records": records}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(self.path)
        return now

    def now(self) -> datetime:
        now = self.clock()
        return now if now.tzinfo else now.replace(tzinfo=UTC)


def fetch_lookups(client: SyncPlatformClient, cache: LookupCache, source: str, *,
                  refresh: bool = False) -> Lookups:
    """The three lists: the currencies as shipped; the others each from the cache while fresh, else asked
    of the platform and cached.

    A list whose read fails with no copy cached is left out (its rules are not run: one
    ``not_checked`` warning each) and a warning says why; :class:`PlatformReadError` when every
    read failed for a reason every call would meet (credentials, host) and nothing is cached.
    """
    frames: dict[str, pd.DataFrame] = {"currencies": lookup_frame("currencies", shipped_currencies())}
    fetched: dict[str, datetime] = {}
    ruids: dict[str, str | None] = {}
    warnings: list[str] = []
    fatal = []
    for kind in PLATFORM_LISTS:
        entry = cache.entry(source, kind)
        when = datetime.fromisoformat(entry["fetched_at"]) if entry else None
        if entry and when and not refresh and cache.now() - when < cache.max_age:
            frames[kind], fetched[kind], ruids[kind] = lookup_frame(kind, entry["records"]), when, entry.get("ruid")
            continue
        result = client.send(kind, request_body(kind))
        problem = None
        if result.ok:
            try:
                rows = parse_lookup(kind, result.body)
            except ValueError as exc:
                problem = f"/xml/{kind} answered something unreadable ({exc}; ruid {result.ruid or 'unknown'})"
            else:
                if rows.skipped:
                    warnings.append(f"/xml/{kind}: {rows.skipped} record(s) without their key were skipped")
                fetched[kind] = cache.store(source, kind, rows.records, result.ruid)
                frames[kind], ruids[kind] = lookup_frame(kind, rows.records), result.ruid
                continue
        else:
            problem = f"reading /xml/{kind} failed: {result.summary()}"
            if result.fatal:
                fatal.append(problem)
        if entry and when:
            age = (cache.now() - when).total_seconds() / 3600
            warnings.append(f"{problem}; using the copy fetched {when.isoformat(timespec='minutes')} ({age:.1f} h old)")
            frames[kind], fetched[kind], ruids[kind] = lookup_frame(kind, entry["records"]), when, entry.get("ruid")
        else:
            warnings.append(f"{problem}; the rules needing it are not checked")
            frames[kind] = lookup_frame(kind, [])
    if len(fatal) == len(PLATFORM_LISTS):
        raise PlatformReadError("; ".join(fatal))
    for w in warnings:
        log.warning(w)
    return Lookups(frames["currencies"], frames["countries"], frames["citytaxcategory"], fetched, ruids, warnings)
