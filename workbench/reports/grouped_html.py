"""The HTML validation report of room types and of property content: each kind grouped its own way.

Rooms: by property, then room type (the ``InvCode`` / ``RoomID`` of the row); content: by property
(``HotelCode`` or ``ID``), then part (the sheet); a Services row's line names its facility where it says
where (``row 4 · 5 Air conditioning``). No room-rate, rate or nights columns: those are the
rates report's (:mod:`workbench.reports.issues_html`). Each issue is one line, at most
:data:`MAX_LINES` of them; the CSV report has every issue.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pandas as pd

from workbench.page import card, page, with_code
from workbench.reports.about import issue_groups, issue_labels, issue_properties, named, names_of
from workbench.reports.issues_html import FILTER_CSS, FILTER_JS, by_rule_html, filters_html, meta_html
from workbench.reports.text import text
from workbench.wording import count

if TYPE_CHECKING:
    from workbench.reports.validation import ReportContext

MAX_LINES = 4_000
GROUPS = {"rooms": ("Room type", "room type"), "content": ("Part", "part")}
LINE_HEADERS = ("Severity", "Rule", "Where", "Column", "Value", "What to do")


def render_grouped_html(issues: pd.DataFrame, context: ReportContext, kind: str) -> str:
    """The page of ``issues`` of ``kind`` (``rooms`` or ``content``), by property then group."""
    e = html.escape
    names = names_of(issues)
    group_title, group_noun = GROUPS[kind]
    n_err = int((issues["severity"] == "error").sum())
    n_warn = int((issues["severity"] == "warning").sum())
    verdict = (card("OK", "nothing blocks a push", "okc") if n_err == 0 else
               card("Blocked", "errors must be fixed first", "err"))
    parts = [f"<h1>{e(context.title)}</h1><div class='meta'>{meta_html(context)}</div>",
             f"<div class='cards'>{verdict}{card(n_err, 'errors', 'err', one='error')}"
             f"{card(n_warn, 'warnings', 'warn', one='warning')}</div>",
             f"<p class='note'>{count(len(issues), 'issue')}, by property and {group_noun}. The CSV report lists "
             "every issue, one row each (<code>--report issues.csv</code>).</p>",
             filters_html(issues, None), by_rule_html(issues, None)]
    if issues.empty:
        parts.append("<h2>Issues</h2><p>No issues found.</p>")
        return page(context.title, "\n".join(parts), css=FILTER_CSS, script=FILTER_JS)
    frame = issues.assign(_prop=issue_properties(issues).to_numpy(), _group=_groups(issues, kind).to_numpy(),
                          facility_label=issue_labels(issues).to_numpy(),
                          _err=(issues["severity"] == "error").astype(int),
                          _warn=(issues["severity"] == "warning").astype(int))
    per = frame.groupby("_prop", sort=False)[["_err", "_warn"]].sum()
    per = per.assign(_other=per.index == "").sort_values(["_other", "_err", "_warn"], ascending=[True, False, False])
    parts.append("<h2>By property</h2><table class='by-property'><thead><tr><th>Property</th><th>Errors</th>"
                 "<th>Warnings</th></tr></thead><tbody>")
    for code, r in per.iterrows():
        label = e(named(code, names)) if code else "the files as a whole"
        link = f"<a href='#p-{e(str(code))}'>{label}</a>" if code else label
        parts.append(f"<tr><td>{link}</td><td class='num'>{int(r._err):,}</td><td class='num'>{int(r._warn):,}"
                     "</td></tr>")
    parts.append("</tbody></table>")
    shown = 0
    for code in per.index:
        mine = frame[frame["_prop"] == code].sort_values(["_group", "_err"], ascending=[True, False], kind="stable")
        title = f"Property {e(named(code, names))}" if code else "Issues of no one property (a file, a sheet)"
        parts.append(f"<section class='prop' id='p-{e(str(code))}' data-prop='{e(str(code))}'><h2>{title}</h2>")
        for group, lines in mine.groupby("_group", sort=False):
            if shown >= MAX_LINES:
                break
            lines = lines.head(MAX_LINES - shown)
            shown += len(lines)
            heading = f"{group_title} {e(str(group))}" if group else f"No one {group_noun}"
            parts.append(f"<h3>{heading}</h3>" + _table(lines))
        parts.append("</section>")
    if shown < len(issues):
        parts.append(f"<p class='note'>{shown:,} of {count(len(issues), 'issue')} shown; the CSV report has every "
                     "one.</p>")
    return page(context.title, "\n".join(parts), css=FILTER_CSS, script=FILTER_JS)


def _groups(issues: pd.DataFrame, kind: str) -> pd.Series:
    """Each issue's room type (rooms) or part (content: its sheet, or its CSV file)."""
    if kind == "content":
        return issues["sheet"].map(text).where(issues["sheet"].map(text) != "", issues["source"].map(text))
    return issue_groups(issues)


def _table(lines: pd.DataFrame) -> str:
    e = html.escape
    head = "".join(f"<th>{h}</th>" for h in LINE_HEADERS)
    rows = []
    for r in lines.itertuples(index=False):
        sev, rule = text(r.severity), text(r.rule)
        where = " · ".join(x for x in (text(r.source), text(r.sheet), f"row {text(r.row)}" if text(r.row) else "",
                                       r.facility_label) if x)
        rows.append(f"<tr class='{e(sev)}' data-sev='{e(sev)}' data-rule='{e(rule)}'><td class='sev'>{e(sev)}</td>"
                    f"<td>{e(rule)}</td><td>{e(where)}</td><td>{e(text(r.column))}</td><td>{e(text(r.value))}</td>"
                    f"<td>{with_code(text(r.message))}</td></tr>")
    return f"<table class='lines'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
