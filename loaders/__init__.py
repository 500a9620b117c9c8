"""Files -> canonical pandas frames. Pure: no network, no writes.

>>> from loaders import read_rates
>>> rates, issues = read_rates("data/samples/rates.xlsx")

Each name is imported on first use (:mod:`loaders.lazy`): reading availability does not load the
rooms and content readers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

if TYPE_CHECKING:
    from loaders.availability import read_availability
    from loaders.content import ContentLoaded, read_content
    from loaders.content_schema import CONTENT_COLUMNS
    from loaders.content_schema import PARTS as CONTENT_PARTS
    from loaders.errors import LoadError
    from loaders.issues import ISSUE_COLUMNS, empty_issues
    from loaders.kinds import (
        check_workbook_kind,
        other_kind,
        workbook_kind,
        workbook_kinds,
        wrong_kind_message,
    )
    from loaders.rates import Loaded, read_rates, sheet_headers, weekday_mask
    from loaders.registry import Registry, read_registry
    from loaders.rooms import RoomsLoaded, read_rooms
    from loaders.schemas import (
        AMENITIES_COLUMNS,
        AVAILABILITY_COLUMNS,
        RATES_COLUMNS,
        RESTRICTIONS,
        ROOMS_COLUMNS,
        SUBROOMS_COLUMNS,
    )
    from loaders.waivers import read_waivers

_EXPORTS = {
    "read_availability": "loaders.availability",
    "ContentLoaded": "loaders.content", "read_content": "loaders.content",
    "CONTENT_COLUMNS": "loaders.content_schema", "CONTENT_PARTS": "loaders.content_schema:PARTS",
    "LoadError": "loaders.errors",
    "ISSUE_COLUMNS": "loaders.issues", "empty_issues": "loaders.issues",
    **dict.fromkeys(("check_workbook_kind", "other_kind", "workbook_kind", "workbook_kinds", "wrong_kind_message"),
                    "loaders.kinds"),
    **dict.fromkeys(("Loaded", "read_rates", "sheet_headers", "weekday_mask"), "loaders.rates"),
    "Registry": "loaders.registry", "read_registry": "loaders.registry",
    "RoomsLoaded": "loaders.rooms", "read_rooms": "loaders.rooms",
    **dict.fromkeys(("AMENITIES_COLUMNS", "AVAILABILITY_COLUMNS", "RATES_COLUMNS", "RESTRICTIONS", "ROOMS_COLUMNS",
                     "SUBROOMS_COLUMNS"), "loaders.schemas"),
    "read_waivers": "loaders.waivers",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["AMENITIES_COLUMNS", "AVAILABILITY_COLUMNS", "CONTENT_COLUMNS", "CONTENT_PARTS", "ContentLoaded", "ISSUE_COLUMNS", "LoadError",
           "Loaded", "RATES_COLUMNS", "RESTRICTIONS", "ROOMS_COLUMNS", "Registry", "RoomsLoaded", "SUBROOMS_COLUMNS", "empty_issues",
           "check_workbook_kind", "read_availability", "read_content", "read_rates", "read_registry", "read_rooms",
           "other_kind", "read_waivers", "sheet_headers", "weekday_mask", "workbook_kind", "workbook_kinds",
           "wrong_kind_message"]
