"""The package root is the public surface: pinned, importable, and light to import."""

from __future__ import annotations

import subprocess
import sys

import workbench.cars as cars

EXPECTED = [
    "ApiError", "CachedList", "CarSearch", "CarSearchClient", "CarsAPIError", "CarsAuthError", "CarsClientError",
    "CarsConfigError", "CarsConnectionError", "CarsError", "CarsRateLimitError", "CarsResponseError",
    "CarsServerError", "ClientStats", "DemandConnection", "Endpoints", "LegacyCredentialsError", "Location", "Page",
    "Paged", "Problem", "SearchParams", "SearchParamsError", "SearchResult", "StaticCache", "affiliate_links",
    "depots_frame", "join_static", "results_frame", "search_cars", "suppliers_frame", "with_affiliate",
]


def test_all_is_pinned_and_every_name_resolves() -> None:
    assert cars.__all__ == EXPECTED
    assert set(dir(cars)) >= set(EXPECTED)  # every export is listed by dir() (lazily loaded)
    for name in EXPECTED:
        assert getattr(cars, name) is not None


def test_error_tree_lets_callers_catch_by_what_they_can_do() -> None:
    assert issubclass(cars.LegacyCredentialsError, cars.CarsConfigError)
    assert issubclass(cars.CarsAuthError, cars.CarsClientError)
    for cls in (cars.CarsClientError, cars.CarsRateLimitError, cars.CarsServerError):
        assert issubclass(cls, cars.CarsAPIError)
    for cls in (cars.CarsConfigError, cars.SearchParamsError, cars.CarsAPIError, cars.CarsConnectionError,
                cars.CarsResponseError):
        assert issubclass(cls, cars.CarsError)


def test_importing_the_package_and_its_cli_does_not_load_pandas_or_httpx() -> None:
    code = ("import sys, workbench.cars, workbench.cli.cars; "
            "print(sorted(m for m in ('pandas', 'httpx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
