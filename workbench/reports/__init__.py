"""Exports for people: tables (CSV/XLSX), validation reports and push reports."""

from workbench.reports.tables import write_table

__all__ = ["write_table"]
