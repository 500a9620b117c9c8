"""Files -> canonical pandas frames. Pure: no network, no writes.

>>> from loaders import read_rates
>>> rates, issues = read_rates("data/samples/rates.xlsx")
"""

from loaders.availability import read_availability
from loaders.content import ContentLoaded, read_content
from loaders.content_schema import CONTENT_COLUMNS
from loaders.content_schema import PARTS as CONTENT_PARTS
from loaders.errors import LoadError
from loaders.issues import ISSUE_COLUMNS, empty_issues
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

__all__ = ["AMENITIES_COLUMNS", "AVAILABILITY_COLUMNS", "CONTENT_COLUMNS", "CONTENT_PARTS", "ContentLoaded", "ISSUE_COLUMNS", "LoadError",
           "Loaded", "RATES_COLUMNS", "RESTRICTIONS", "ROOMS_COLUMNS", "Registry", "RoomsLoaded", "SUBROOMS_COLUMNS", "empty_issues",
           "read_availability", "read_content", "read_rates", "read_registry", "read_rooms", "read_waivers", "sheet_headers",
           "weekday_mask"]
