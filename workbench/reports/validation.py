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
from workbench.reports.about import issue_groups, issue_labels, issue_properties, kind_of
from workbench.reports.grouped_html import render_grouped_html
from workbench.reports.issues_html import render_issues_html
from workbench.reports.output_files import whole_file, write_text_whole
from workbench.reports.ranges import IssueRanges, issue_ranges
from workbench.reports.styles import REPORT_CLASS, REPORT_CSS
from workbench.reports.tables import write_table
from workbench.reports.text import text

FORMATS = (".csv", ".xlsx", ".html")
#: the Issues sheet of rooms and of content: by property and room type, or property and part (and a Services
#: row's facility: ``5 Air conditioning``)
GROUPED_SHEET_COLUMNS = {
    "rooms": {"severity": "severity", "rule": "rule", "property": "property", "room_type": "room type",
              "source": "source", "sheet": "sheet", "rows": "rows", "column": "column", "value": "value",
              "message": "message"},
    "content": {"severity": "severity", "rule": "rule", "property": "property", "part": "part", "source": "source",
                "rows": "rows", "facility": "facility", "column": "column", "value": "value", "message": "message"}}
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
        return write_text_whole(path, render_html(issues, context, rates=rates, waived=waived))
    from workbench.reports.marked_workbook import write_marked_workbook

    kind = kind_of(issues, context.title)
    with whole_file(path) as tmp:
        write_marked_workbook(issues, tmp, list(context.files), title=context.title, ranges=ranges,
                              waived=waived_ranges, columns=None if kind == "rates" else GROUPED_SHEET_COLUMNS[kind])
    return path


def render_html(issues: pd.DataFrame, context: ReportContext, *, rates: pd.DataFrame | None = None,
                waived: pd.DataFrame | None = None) -> str:
    """The HTML report as text (see :func:`write_report`); rooms and content have their own layout."""
    kind = kind_of(issues, context.title)
    if kind != "rates":
        return render_grouped_html(issues, context, kind)
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
    """The issues as lines; each line's ``property`` (its HotelCode, else the property the check's
    rows tell: a rooms or content row's HotelCode or ID) and ``group`` (its room type or part)."""
    if set(LOCATION_COLUMNS) <= set(issues.columns):
        located = issues[list(LOCATION_COLUMNS)]
    else:
        located = locate_issues(issues, rates)
    ranges = issue_ranges(issues, located, by=by)
    lines = ranges.lines
    first = lines["first_index"].to_numpy(dtype="int64")
    known = issue_properties(issues).to_numpy(dtype=object)[first] if len(lines) else []
    code = lines["hotel_code"].astype("Int64").astype("string").fillna("").to_numpy(dtype=object)
    group = issues["sheet"].map(text).to_numpy(dtype=object)[first] if len(lines) else []
    rooms = issue_groups(issues).to_numpy(dtype=object)[first] if len(lines) else []
    facility = issue_labels(issues).to_numpy(dtype=object)[first] if len(lines) else []
    ranges.lines = lines.assign(property=[_code(c or k) for c, k in zip(code, known, strict=True)],
                                part=group, room_type=rooms, facility=facility)
    return ranges


def _code(value: str) -> object:
    """A property code as the sheet shows it: a number when it is one (HotelCode), else its text (an ID)."""
    return int(value) if value.isdigit() else value


def summary_table(issues: pd.DataFrame) -> pd.DataFrame:
    if issues.empty:
        return pd.DataFrame(columns=["severity", "rule", "issues", "rows"])
    g = issues.groupby(["severity", "rule"], sort=False)
    out = pd.DataFrame({"issues": g.size(), "rows": g.apply(lambda x: len(x[["source", "sheet", "row"]]
                                                                             .drop_duplicates()))}).reset_index()
    out["_s"] = out["severity"].map({"error": 0, "warning": 1})
    return out.sort_values(["_s", "issues"], ascending=[True, False]).drop(columns="_s").reset_index(drop=True)
