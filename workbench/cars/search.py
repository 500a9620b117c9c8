"""Search for cars the way an analyst asks: parameters in, one joined DataFrame out.

:class:`CarSearch` wires the HTTP client to the on-disk static cache (suppliers, depots,
languages); :func:`search_cars` is the one-call version the CLI and notebooks use.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.cars.client import CarSearchClient, utc_now
from workbench.cars.connection import Endpoints
from workbench.cars.errors import CarsConfigError, SearchParamsError
from workbench.cars.frames import depots_frame, join_static, results_frame, suppliers_frame, unmatched_ids
from workbench.cars.links import affiliate_links
from workbench.cars.pagination import DEFAULT_MAX_PAGES
from workbench.cars.params import Location, SearchParams, default_location
from workbench.cars.static import CachedList, StaticCache
from workbench.config import Settings
from workbench.wording import agree, count

log = logging.getLogger(__name__)

DEFAULT_CACHE = Path(".workbench") / "cars-static.sqlite"


@dataclass
class SearchResult:
    """A finished search: the joined frame and what happened on the way (pages, duplicates, cap)."""

    frame: pd.DataFrame
    pages: int
    duplicates: int
    truncated: bool
    total_results: int | None
    request_ids: list[str | None]
    request_body: dict[str, Any]
    warnings: list[str] = field(default_factory=list)


class CarSearch:
    """A car search session: client + static cache. Use as a context manager (closes the client)."""

    def __init__(self, settings: Settings | None = None, *, cache_path: str | Path | None = None,
                 max_age: timedelta | None = None, clock: Callable[[], datetime] = utc_now,
                 client: CarSearchClient | None = None, endpoints: Endpoints | None = None,
                 **client_kwargs: Any) -> None:
        settings = settings if settings is not None else Settings.from_env()
        self.settings = settings
        self.clock = clock
        self.client = client or CarSearchClient.from_settings(settings, endpoints, clock=clock, **client_kwargs)
        path = cache_path or settings.demand_cache_path or DEFAULT_CACHE
        if max_age is None and not settings.demand_static_max_age_hours > 0:
            raise CarsConfigError(f"`WORKBENCH_DEMAND_STATIC_MAX_AGE_HOURS` must be more than 0, "
                                  f"got {settings.demand_static_max_age_hours}")
        age = max_age if max_age is not None else timedelta(hours=settings.demand_static_max_age_hours)
        self.cache = StaticCache(path, max_age=age, clock=clock)
        conn = self.client.connection
        self.source = f"{conn.base_url}/{conn.api_version}"

    def __enter__(self) -> CarSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()

    def static(self, kind: str, refresh: bool = False) -> CachedList:
        """A static list (``suppliers``, ``depots``, ``languages``) from the cache, fetched when too old."""
        def fetch() -> tuple[list[dict[str, Any]], list[str | None]]:
            paged = self.client.collect(kind, {}, max_pages=1000, what=kind)
            return paged.records, paged.request_ids

        return self.cache.get(kind, self.source, fetch, refresh=refresh)

    def languages(self, refresh: bool = False) -> pd.DataFrame:
        recs = self.static("languages", refresh).records
        return pd.DataFrame({"code": _codes(recs),
                             "name": [r.get("name") for r in recs]}).astype("string")

    def suppliers(self, refresh: bool = False) -> pd.DataFrame:
        return suppliers_frame(self.static("suppliers", refresh).records)

    def depots(self, refresh: bool = False) -> pd.DataFrame:
        return depots_frame(self.static("depots", refresh).records)

    def search(self, params: SearchParams, *, max_pages: int = DEFAULT_MAX_PAGES, progress: bool = False,
               refresh_static: bool = False) -> SearchResult:
        """Check, search every page, join names. Nothing is sent when the parameters are wrong."""
        problems = params.problems(self.clock())  # no request of any kind for a bad date, code or location
        if problems:
            if self.cache.is_fresh("languages", self.source):  # languages too, when that costs no request
                problems = params.problems(self.clock(), _codes(self.cache.records("languages", self.source)))
            raise SearchParamsError(problems)
        languages = self.static("languages", refresh_static)
        paged = self.client.search(params, supported_languages=_codes(languages.records), max_pages=max_pages,
                                   progress=progress)
        by_page = {p.number: p.request_id for p in paged.pages}
        results = results_frame(paged.records, paged.record_pages, [by_page[n] for n in paged.record_pages])
        lists = {kind: self.static(kind, refresh_static) for kind in ("suppliers", "depots")}
        frame = join_static(results, suppliers_frame(lists["suppliers"].records), depots_frame(lists["depots"].records))
        missing = unmatched_ids(frame)
        stale = [kind for kind, ids in missing.items() if ids and not lists[kind].fetched_now]
        if stale:  # ids the cached copy does not know yet: fetch those lists once more
            log.info("car search: unknown %s ids; refreshing %s once", " and ".join(stale), " and ".join(stale))
            lists.update({kind: self.static(kind, refresh=True) for kind in stale})
            frame = join_static(results, suppliers_frame(lists["suppliers"].records),
                                depots_frame(lists["depots"].records))
            missing = unmatched_ids(frame)
        warnings = [*languages.warnings, *paged.warnings, *lists["suppliers"].warnings, *lists["depots"].warnings]
        for kind, ids in missing.items():
            if ids:
                warnings.append(f"{count(len(ids), f'{kind} id')} {agree(len(ids), 'has', 'have')} no name in the "
                                "static data: "
                                f"{', '.join(sorted(ids)[:5])}{' …' if len(ids) > 5 else ''}")
        return SearchResult(frame, len(paged.pages), paged.duplicates, paged.truncated, paged.total_results,
                            paged.request_ids, params.to_body(), warnings)


def _codes(records: list[dict[str, Any]]) -> list[str]:
    return [str(r.get("code")) for r in records]


def search_cars(*, country: str, languages: str | Sequence[str], pickup: datetime | str, dropoff: datetime | str,
                location: Location | str | None = None, dropoff_location: Location | str | None = None, driver_age: int = 30,
                currency: str = "EUR", transmission: str | None = None, suppliers: Sequence[str] = (),
                categories: Sequence[str] = (), label: str | None = None, settings: Settings | None = None,
                max_pages: int = DEFAULT_MAX_PAGES, progress: bool = True, cache_path: str | Path | None = None,
                refresh_static: bool = False, **session_kwargs: Any) -> pd.DataFrame:
    """Search every page and return one frame (one row per offer, supplier and depot names joined).

    ``label`` puts a campaign label (and our affiliate id) on every ``url_web``/``url_app``. The
    frame's ``attrs`` hold ``pages``, ``duplicates``, ``truncated``, ``total_results``,
    ``request_ids`` and ``warnings``. Without ``location`` the booker country's main airport is used
    (see :data:`workbench.cars.params.MAIN_AIRPORTS`) and a warning says so.
    """
    if location is None and (location := default_location(country)) is not None:
        log.warning("car search: no pick-up location given; using %s, the main airport for booker country %s",
                    location, country)
    params = SearchParams(country=country, languages=tuple([languages] if isinstance(languages, str) else languages),
                          pickup=pickup, dropoff=dropoff, pickup_location=location, dropoff_location=dropoff_location,
                          driver_age=driver_age, currency=currency, transmission=transmission,
                          suppliers=tuple(suppliers), categories=tuple(categories))
    with CarSearch(settings, cache_path=cache_path, **session_kwargs) as session:
        result = session.search(params, max_pages=max_pages, progress=progress, refresh_static=refresh_static)
        frame = result.frame
        if label is not None:
            frame = affiliate_links(frame, affiliate_id=session.client.connection.affiliate_id, label=label)
    for w in result.warnings:
        log.warning("car search: %s", w)
    frame.attrs.update(pages=result.pages, duplicates=result.duplicates, truncated=result.truncated,
                       total_results=result.total_results, request_ids=result.request_ids,
                       warnings=result.warnings)
    return frame
