"""Car rental search (spec E7): typed parameters, a paginating client, affiliate links, cached
static data (suppliers, depots, languages) and results as pandas DataFrames.

    from workbench.cars import search_cars
    frame = search_cars(country="nl", languages=["en-gb"], pickup="2026-07-01T10:00",
                        dropoff="2026-07-05T10:00", location="AMS", label="summer-campaign")

Names are imported on first use (PEP 562), so ``workbench --help`` does not load pandas or httpx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

_EXPORTS = {
    "workbench.cars.client": ("CarSearchClient", "ClientStats"),
    "workbench.cars.connection": ("DemandConnection", "Endpoints"),
    "workbench.cars.errors": ("ApiError", "CarsAPIError", "CarsAuthError", "CarsClientError", "CarsConfigError",
                              "CarsConnectionError", "CarsError", "CarsRateLimitError", "CarsResponseError",
                              "CarsServerError", "LegacyCredentialsError", "Problem", "SearchParamsError"),
    "workbench.cars.frames": ("depots_frame", "join_static", "results_frame", "suppliers_frame"),
    "workbench.cars.links": ("affiliate_links", "with_affiliate"),
    "workbench.cars.pagination": ("Page", "Paged"),
    "workbench.cars.params": ("Location", "SearchParams"),
    "workbench.cars.search": ("CarSearch", "SearchResult", "search_cars"),
    "workbench.cars.static": ("CachedList", "StaticCache"),
}
__all__ = [
    "ApiError", "CachedList", "CarSearch", "CarSearchClient", "CarsAPIError", "CarsAuthError",
    "CarsClientError", "CarsConfigError", "CarsConnectionError", "CarsError", "CarsRateLimitError",
    "CarsResponseError", "CarsServerError", "ClientStats", "DemandConnection", "Endpoints",
    "LegacyCredentialsError", "Location", "Page", "Paged", "Problem", "SearchParams", "SearchParamsError",
    "SearchResult", "StaticCache", "affiliate_links", "depots_frame", "join_static", "results_frame",
    "search_cars", "suppliers_frame", "with_affiliate",
]
__getattr__, __dir__ = lazy_exports(__name__, {name: module for module, names in _EXPORTS.items() for name in names})

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load lazily
    from workbench.cars.client import CarSearchClient, ClientStats
    from workbench.cars.connection import DemandConnection, Endpoints
    from workbench.cars.errors import (
        ApiError,
        CarsAPIError,
        CarsAuthError,
        CarsClientError,
        CarsConfigError,
        CarsConnectionError,
        CarsError,
        CarsRateLimitError,
        CarsResponseError,
        CarsServerError,
        LegacyCredentialsError,
        Problem,
        SearchParamsError,
    )
    from workbench.cars.frames import depots_frame, join_static, results_frame, suppliers_frame
    from workbench.cars.links import affiliate_links, with_affiliate
    from workbench.cars.pagination import Page, Paged
    from workbench.cars.params import Location, SearchParams
    from workbench.cars.search import CarSearch, SearchResult, search_cars
    from workbench.cars.static import CachedList, StaticCache
