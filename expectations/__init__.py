"""Canonical frames -> the issues frame: the platform's rules, checked before anything is sent.

>>> from loaders import read_rates, read_registry
>>> from expectations import validate_rates
>>> rates, load_issues = read_rates("data/samples/rates.xlsx")
>>> issues = validate_rates(rates, registry=read_registry("data/samples/registry.xlsx"),
...                         load_issues=load_issues)
"""

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

__all__ = ["ContentLookups", "FxTable", "ISSUE_COLUMNS", "bed_types", "cet_today", "country_outlines", "date_window",
           "has_errors", "read_fx_table", "room_type_name", "validate_availability", "validate_content",
           "validate_content_modular", "validate_rates", "validate_rooms", "validate_rooms_modular"]
