"""Validation reports for people: CSV (the issues frame, one row per issue, waived warnings
included with ``waived = yes``), XLSX (the analyst's own sheets with the failing cells highlighted
and commented, an Issues sheet of the issues as ranges linking to each first cell, and a Waived
sheet) and HTML (counts, then one filterable section per property with the issues as ranges; see
:mod:`workbench.reports.issues_html`).

Ranges (:mod:`workbench.reports.ranges`) need to know each issue's room-rate and nights: give the
checked rates frame as ``rates`` (``check.frame``), or issues that carry the location columns of
:func:`expectations.located.locate_issues`. Without either, every issue is a line of its own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from expectations.located import LOCATION_COLUMNS, locate_issues
from expectations.waivers import WAIVED_COLUMNS
from workbench.reports.issues_html import render_issues_html
from workbench.reports.output_files import whole_file, write_text_whole
from workbench.reports.ranges import IssueRanges, issue_ranges
from workbench.reports.styles import REPORT_CLASS, REPORT_CSS
from workbench.reports.tables import write_table

FORMATS = (".csv", ".xlsx", ".html")
FILLS = {"error": "FFC7CE", "warning": "FFEB9C"}
#: The CSV report's columns: the issue columns, then whether a waiver set the issue aside and which.
CSV_COLUMNS = ["source", "sheet", "row", "column", "value", "rule", "severity", "message", "waived", *WAIVED_COLUMNS]
__all__ = ["CSV_COLUMNS", "FORMATS", "REPORT_CLASS", "REPORT_CSS", "ReportContext", "check_report_path", "csv_rows",
           "render_html", "summary_table", "write_report"]


@dataclass
class ReportContext:
    """What the report is about (shown in its header)."""

    title: str = "Validation report"
    files: Sequence[Path] = ()
    as_of: dt.date | None = None
    rows_checked: int | None = None
    extra: dict[str, str] = field(default_factory=dict)


def check_report_path(path: str | Path) -> Path:
    """``path`` if its extension names a report format; else ``ValueError`` saying which do."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"cannot write a report to `{path.name}`: use a name ending in .csv, .xlsx or .html")
    return path


def write_report(issues: pd.DataFrame, path: str | Path, context: ReportContext | None = None, *,
                 rates: pd.DataFrame | None = None, waived: pd.DataFrame | None = None) -> Path:
    """Write ``issues`` to ``path``; the extension picks the format (.csv, .xlsx, .html). ``rates``: the
    checked rates frame (issues are then summarised as ranges of nights); ``waived``: the warnings
    waivers set aside (``check.waived``), shown apart and counted nowhere."""
    path = check_report_path(path)
    context = context or ReportContext()
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return write_table(csv_rows(issues, waived), path)
    ranges = _ranges(issues, rates)
    waived_ranges = _ranges(waived, rates, by=("waiver", "waiver_reason", "waived_by")) \
        if waived is not None and len(waived) else None
    if suffix == ".html":
        return write_text_whole(path, render_issues_html(issues, ranges, context, waived, waived_ranges))
    from workbench.reports.marked_workbook import write_marked_workbook

    with whole_file(path) as tmp:
        write_marked_workbook(issues, tmp, list(context.files), title=context.title, ranges=ranges,
                              waived=waived_ranges)
    return path


def render_html(issues: pd.DataFrame, context: ReportContext, *, rates: pd.DataFrame | None = None,
                waived: pd.DataFrame | None = None) -> str:
    """The HTML report as text (see :func:`write_report`)."""
    waived_ranges = _ranges(waived, rates, by=("waiver", "waiver_reason", "waived_by")) \
        if waived is not None and len(waived) else None
    return render_issues_html(issues, _ranges(issues, rates), context, waived, waived_ranges)


def csv_rows(issues: pd.DataFrame, waived: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every issue, one row each, then every waived warning (``waived`` = ``yes``, with the waiver)."""
    parts = [issues.assign(waived="")]
    if waived is not None and len(waived):
        parts.append(waived.assign(waived="yes"))
    out = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    for c in CSV_COLUMNS:
        if c not in out:
            out[c] = ""
    return out[CSV_COLUMNS]


def _ranges(issues: pd.DataFrame, rates: pd.DataFrame | None, by: tuple[str, ...] = ()) -> IssueRanges:
    if set(LOCATION_COLUMNS) <= set(issues.columns):
        located = issues[list(LOCATION_COLUMNS)]
    else:
        located = locate_issues(issues, rates)
    return issue_ranges(issues, located, by=by)


def summary_table(issues: pd.DataFrame) -> pd.DataFrame:
    if issues.empty:
        return pd.DataFrame(columns=["severity", "rule", "issues", "rows"])
    g = issues.groupby(["severity", "rule"], sort=False)
    out = pd.DataFrame({"issues": g.size(), "rows": g.apply(lambda x: len(x[["source", "sheet", "row"]]
                                                                             .drop_duplicates()))}).reset_index()
    out["_s"] = out["severity"].map({"error": 0, "warning": 1})
    return out.sort_values(["_s", "issues"], ascending=[True, False]).drop(columns="_s").reset_index(drop=True)
