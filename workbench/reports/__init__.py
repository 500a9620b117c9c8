"""Exports for people: tables (CSV/XLSX), validation reports and push reports. Each name's module is
imported on first use (:mod:`loaders.lazy`), so a command that only compares paths
(``workbench.reports.output_files``) does not load the report writers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

if TYPE_CHECKING:
    from workbench.reports.push import NothingSent, check_push_report_path, write_push_report
    from workbench.reports.tables import write_table
    from workbench.reports.validation import (
        ReportContext,
        check_report_path,
        render_html,
        summary_table,
        write_report,
    )

__all__ = ["NothingSent", "ReportContext", "check_push_report_path", "check_report_path", "render_html",
           "summary_table", "write_push_report", "write_report", "write_table"]
__getattr__, __dir__ = lazy_exports(__name__, {
    "NothingSent": "workbench.reports.push", "check_push_report_path": "workbench.reports.push",
    "write_push_report": "workbench.reports.push", "write_table": "workbench.reports.tables",
    "ReportContext": "workbench.reports.validation", "check_report_path": "workbench.reports.validation",
    "render_html": "workbench.reports.validation", "summary_table": "workbench.reports.validation",
    "write_report": "workbench.reports.validation"})
