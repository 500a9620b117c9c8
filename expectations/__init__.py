"""Canonical frames -> the issues frame: the platform's rules, checked before anything is sent.

>>> from loaders import read_rates, read_registry
>>> from expectations import validate_rates
>>> rates, load_issues = read_rates("data/samples/rates.xlsx")
>>> issues = validate_rates(rates, registry=read_registry("data/samples/registry.xlsx"),
...                         load_issues=load_issues)

Each name is imported on first use (:mod:`loaders.lazy`): checking availability does not load the
rooms and content rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

if TYPE_CHECKING:
    from expectations.availability import validate_availability
    from expectations.content import validate_content
    from expectations.content_frames import ContentLookups
    from expectations.content_geo import country_outlines
    from expectations.content_modular import validate_content_modular
    from expectations.rates import validate_rates
    from expectations.reference import FxTable, cet_today, date_window, read_fx_table
    from expectations.rooms import bed_types, room_type_name, validate_rooms
    from expectations.rooms_modular import validate_rooms_modular
    from loaders.issues import ISSUE_COLUMNS, has_errors

_EXPORTS = {
    "validate_availability": "expectations.availability",
    "validate_content": "expectations.content",
    "ContentLookups": "expectations.content_frames",
    "country_outlines": "expectations.content_geo",
    "validate_content_modular": "expectations.content_modular",
    "validate_rates": "expectations.rates",
    **dict.fromkeys(("FxTable", "cet_today", "date_window", "read_fx_table"), "expectations.reference"),
    **dict.fromkeys(("bed_types", "room_type_name", "validate_rooms"), "expectations.rooms"),
    "validate_rooms_modular": "expectations.rooms_modular",
    "ISSUE_COLUMNS": "loaders.issues", "has_errors": "loaders.issues",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["ContentLookups", "FxTable", "ISSUE_COLUMNS", "bed_types", "cet_today", "country_outlines", "date_window",
           "has_errors", "read_fx_table", "room_type_name", "validate_availability", "validate_content",
           "validate_content_modular", "validate_rates", "validate_rooms", "validate_rooms_modular"]
