"""Exports for people: tables (CSV/XLSX), validation reports and push reports."""

from workbench.reports.push import write_push_report
from workbench.reports.tables import write_table
from workbench.reports.validation import ReportContext, render_html, summary_table, write_report

__all__ = ["ReportContext", "render_html", "summary_table", "write_push_report", "write_report", "write_table"]
