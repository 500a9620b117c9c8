"""Files -> canonical pandas frames. Pure: no network, no writes.

>>> from loaders import read_rates
>>> rates, issues = read_rates("data/samples/rates.xlsx")
"""

from loaders.errors import LoadError
from loaders.issues import ISSUE_COLUMNS, empty_issues
from loaders.rates import Loaded, read_rates, sheet_headers, weekday_mask
from loaders.registry import Registry, read_registry
from loaders.schemas import RATES_COLUMNS

__all__ = ["ISSUE_COLUMNS", "LoadError", "Loaded", "RATES_COLUMNS", "Registry", "empty_issues", "read_rates",
           "read_registry", "sheet_headers", "weekday_mask"]
