"""Property health: what will stop guests booking, found before the property finds it.

Pure analysis (frames in, findings out; no network, no files): ``coverage`` (how far each
room-rate is priced, and the ranges behind it), ``findings`` (the rules, their severity and fix),
``timeline`` (one plot per property), ``letters`` (one message per property in plain words) and
``result`` (:class:`PropertyHealth`). Reading the platform and the journal is
``workbench.flows.health``; writing reports and letters is ``workbench.reports.health``.
"""

from workbench.health.coverage import (
    COVERAGE_COLUMNS,
    RANGE_COLUMNS,
    coverage_from_summary,
    coverage_of_nights,
)
from workbench.health.findings import (
    DEFAULT_HORIZON,
    FINDING_COLUMNS,
    FINDINGS,
    SEVERITIES,
    PlatformView,
    find_problems,
    room_rate_status,
)
from workbench.health.result import PropertyHealth

__all__ = ["COVERAGE_COLUMNS", "DEFAULT_HORIZON", "FINDINGS", "FINDING_COLUMNS", "PlatformView", "PropertyHealth",
           "RANGE_COLUMNS", "SEVERITIES", "coverage_from_summary", "coverage_of_nights", "find_problems",
           "room_rate_status"]
