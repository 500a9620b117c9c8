"""Exports for people: tables (CSV/XLSX), validation reports and push reports."""

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
