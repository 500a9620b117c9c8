"""The HTML validation report: counts, then one section per property with its issues as ranges.

Issues of one rule on consecutive nights of a room-rate are one line (:mod:`workbench.reports.ranges`).
The page stays small whatever the number of issues (about 3 MB at most): it shows at most
:data:`MAX_LINES` lines over at most :data:`MAX_SECTIONS` property sections, says so where it cuts,
and points at the CSV report for the full list (one row per issue). A filter box, a severity and a
rule choice hide the rows that do not match: a few lines of plain JavaScript in the page, no
library and no network.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from workbench.page import card, page, with_code
from workbench.reports.about import named, names_of
from workbench.reports.ranges import IssueRanges, nights_text, weekdays_text
from workbench.reports.text import text
from workbench.wording import count

if TYPE_CHECKING:
    from workbench.reports.validation import ReportContext

MAX_LINES = 4_000      # range lines shown over all property sections
MAX_SECTIONS = 200     # property sections shown (every property is in the "By property" table)
MAX_PROPERTIES = 2_000  # rows of the "By property" table
MAX_WAIVED = 1_000     # waived lines shown
MIN_PER_SECTION = 20   # lines a shown property gets at least

FILTER_CSS = """
.wb-report .filters{display:flex;gap:.6rem;align-items:center;margin:0 0 1rem;position:sticky;top:0;background:#fff;
  padding:.4rem 0;z-index:1}
.wb-report .filters input{flex:1;padding:.3rem .5rem} .wb-report .note{color:#57606a;margin:.2rem 0 1rem}
.wb-report section.prop h2{margin-bottom:.2rem} .wb-report tr.waived td.sev{color:#57606a;font-weight:600}
"""
#: Hides the rows (``tr[data-sev]``) that do not match the filter box, severity and rule, and the
#: property sections left without a row. Plain DOM calls, so it runs in any browser, offline.
FILTER_JS = """
(function(){var root=document.currentScript.parentNode;
var q=root.querySelector('[data-wb-filter]'),s=root.querySelector('[data-wb-severity]'),
r=root.querySelector('[data-wb-rule]');
function apply(){var t=q.value.toLowerCase(),sv=s.value,rv=r.value;
root.querySelectorAll('tr[data-sev]').forEach(function(tr){
var ok=(!sv||tr.getAttribute('data-sev')===sv)&&(!rv||tr.getAttribute('data-rule')===rv)&&
(!t||tr.textContent.toLowerCase().indexOf(t)>=0);tr.hidden=!ok;});
root.querySelectorAll('section[data-prop]').forEach(function(sec){
sec.hidden=!sec.querySelector('tr[data-sev]:not([hidden])');});}
q.addEventListener('input',apply);s.addEventListener('change',apply);r.addEventListener('change',apply);})();
"""
LINE_HEADERS = ("Severity", "Rule", "Room", "Rate", "Nights", "Weekdays", "Issues", "Where", "Column", "Value",
                "What to do")

EXTRA_HEADERS = {"waiver_reason": "Reason", "waived_by": "Who", "waiver": "Waiver"}


def render_issues_html(issues: pd.DataFrame, ranges: IssueRanges, context: ReportContext,
                       waived: pd.DataFrame | None = None, waived_ranges: IssueRanges | None = None) -> str:
    """The page for ``issues`` summarised as ``ranges`` (and the ``waived`` warnings as ``waived_ranges``)."""
    e = html.escape
    n_err = int((issues["severity"] == "error").sum())
    n_warn = int((issues["severity"] == "warning").sum())
    n_waived = 0 if waived is None else len(waived)
    lines = ranges.lines
    verdict = (card("OK", "nothing blocks a push", "okc") if n_err == 0 else
               card("Blocked", "errors must be fixed (or skipped)", "err"))
    waived_card = card(n_waived, "warnings waived", one="warning waived") if n_waived else ""
    parts = [f"<h1>{e(context.title)}</h1><div class='meta'>{meta_html(context)}</div>",
             f"<div class='cards'>{verdict}{card(n_err, 'errors', 'err', one='error')}"
             f"{card(n_warn, 'warnings', 'warn', one='warning')}"
             f"{waived_card}</div>",
             f"<p class='note'>{count(len(issues), 'issue')} in {count(len(lines), 'line')}: issues of one rule on "
             "consecutive nights "
             "of a room-rate (or on the same weekdays, week after week) are one line. The CSV report lists every "
             "issue, one row each (<code>--report issues.csv</code>).</p>"]
    parts.append(filters_html(issues, waived))
    parts.append(by_rule_html(issues, waived))
    parts += _sections(lines, names_of(issues))
    if waived_ranges is not None and len(waived_ranges.lines):
        parts += _waived(waived_ranges.lines)
    return page(context.title, "\n".join(parts), css=FILTER_CSS, script=FILTER_JS)


def meta_html(context: ReportContext) -> str:
    """The page's header line: files, as-of night, prices checked, anything else the context says."""
    e = html.escape
    meta = []
    if context.files:
        meta.append("Files: " + ", ".join(f"<code>{e(Path(f).name)}</code>" for f in context.files))
    if context.as_of:
        meta.append(f"As of {context.as_of:%Y-%m-%d} (CET)")
    if context.rows_checked is not None:
        meta.append(f"{count(context.rows_checked, 'price')} checked")
    return " · ".join(meta + [f"{e(k)}: {e(v)}" for k, v in context.extra.items()])


def filters_html(issues: pd.DataFrame, waived: pd.DataFrame | None) -> str:
    rules = sorted({text(r) for r in issues["rule"].unique()} | (
        {text(r) for r in waived["rule"].unique()} if waived is not None else set()))
    options = "".join(f"<option value='{html.escape(r, quote=True)}'>{html.escape(r)}</option>" for r in rules if r)
    return ("<div class='filters'><input type='search' data-wb-filter placeholder='Filter: property, room, rate, "
            "rule, night, text…' aria-label='Filter the issues'>"
            "<select data-wb-severity aria-label='Severity'><option value=''>all severities</option>"
            "<option value='error'>errors</option><option value='warning'>warnings</option>"
            "<option value='waived'>waived</option></select>"
            f"<select data-wb-rule aria-label='Rule'><option value=''>all rules</option>{options}</select></div>")


def by_rule_html(issues: pd.DataFrame, waived: pd.DataFrame | None) -> str:
    from workbench.reports.validation import summary_table

    e = html.escape
    rows = []
    for r in summary_table(issues).itertuples():
        rows.append(f"<tr class='{e(r.severity)}' data-sev='{e(r.severity)}' data-rule='{e(r.rule)}'>"
                    f"<td class='sev'>{e(r.severity)}</td><td>{e(r.rule)}</td><td class='num'>{r.issues:,}</td>"
                    f"<td class='num'>{r.rows:,}</td></tr>")
    if waived is not None and len(waived):
        for rule, n in waived.groupby("rule", sort=True).size().items():
            rows.append(f"<tr class='waived' data-sev='waived' data-rule='{e(str(rule))}'><td class='sev'>waived</td>"
                        f"<td>{e(str(rule))}</td><td class='num'>{n:,}</td><td class='num'></td></tr>")
    body = "".join(rows) or "<tr><td colspan='4'>No issues found.</td></tr>"
    return ("<h2>By rule</h2><table class='by-rule'><thead><tr><th>Severity</th><th>Rule</th><th>Issues</th>"
            f"<th>Rows</th></tr></thead><tbody>{body}</tbody></table>")


def _property(lines: pd.DataFrame) -> pd.Series:
    return pd.Series(lines["hotel_code"].astype("Int64").astype("string").fillna("").to_numpy(dtype=object),
                     index=lines.index)


def _sections(lines: pd.DataFrame, names: Mapping[str, str]) -> list[str]:
    """The "By property" table, then one section per property (the lines without one last)."""
    e = html.escape
    if lines.empty:
        return ["<h2>Issues</h2><p>No issues found.</p>"]
    prop = _property(lines)
    issues = lines["issues"].to_numpy()
    counts = pd.DataFrame({"prop": prop, "errors": np.where(lines["severity"] == "error", issues, 0),
                           "warnings": np.where(lines["severity"] == "warning", issues, 0), "lines": 1})
    per = counts.groupby("prop", sort=False).sum()
    per = per.assign(_other=per.index == "").sort_values(["_other", "errors", "warnings"],
                                                         ascending=[True, False, False])
    out = ["<h2>By property</h2><table class='by-property'><thead><tr><th>Property</th><th>Errors</th>"
           "<th>Warnings</th><th>Lines</th></tr></thead><tbody>"]
    for code, r in per.head(MAX_PROPERTIES).iterrows():
        name = e(named(code, names)) if code else "no one property"
        anchor = f"<a href='#p-{e(str(code))}'>{name}</a>" if code else name
        out.append(f"<tr data-prop='{e(str(code))}'><td>{anchor}</td><td class='num'>{r.errors:,}</td>"
                   f"<td class='num'>{r.warnings:,}</td><td class='num'>{r.lines:,}</td></tr>")
    out.append("</tbody></table>")
    if len(per) > MAX_PROPERTIES:
        out.append(f"<p class='note'>{MAX_PROPERTIES:,} of {count(len(per), 'property', 'properties')} listed; the CSV "
                   "report has "
                   "them all.</p>")
    shown = per.head(MAX_SECTIONS)
    quota = max(MIN_PER_SECTION, MAX_LINES // max(1, len(shown)))
    nights, weekdays = nights_text(lines), weekdays_text(lines)
    codes, uniques = pd.factorize(prop.to_numpy(dtype=object))
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(uniques) + 1))
    where = {str(u): order[bounds[k]:bounds[k + 1]] for k, u in enumerate(uniques)}
    for code, r in shown.iterrows():
        pos = where[str(code)]
        title = f"Property {e(named(code, names))}" if code else \
            "Issues of no one property (a file, a sheet, a coverage gap)"
        out.append(f"<section class='prop' id='p-{e(str(code))}' data-prop='{e(str(code))}'><h2>{title}</h2>"
                   f"<p class='note'>{count(r.errors, 'error')} · {count(r.warnings, 'warning')} · "
                   f"{count(r.lines, 'line')}</p>")
        out.append(_line_table(lines.iloc[pos[:quota]], nights.iloc[pos[:quota]], weekdays.iloc[pos[:quota]]))
        if len(pos) > quota:
            out.append(f"<p class='note'>{quota:,} of {count(len(pos), 'line')} shown (errors first); every issue of this "
                       "property is in the CSV report.</p>")
        out.append("</section>")
    if len(per) > len(shown):
        out.append(f"<p class='note'>Sections for {len(shown):,} of {count(len(per), 'property', 'properties')} shown "
                   "(the most errors "
                   "and warnings first); the CSV report has every issue.</p>")
    return out


def _line_table(lines: pd.DataFrame, nights: pd.Series, weekdays: pd.Series, extra: tuple[str, ...] = (),
                severity: str | None = None) -> str:
    e = html.escape
    heads = "".join(f"<th>{h}</th>" for h in (*LINE_HEADERS, *(EXTRA_HEADERS.get(x, x) for x in extra)))
    rows = [f"<table class='lines'><thead><tr>{heads}</tr></thead><tbody>"]
    cols = [lines[c].to_numpy(dtype=object) for c in ("severity", "rule", "inv_type_code", "rate_plan_code",
                                                      "issues", "source", "sheet", "rows", "column", "value",
                                                      "message", *extra)]
    for i, (sev, rule, room, rate, n, source, sheet, rws, column, value, message, *more) in enumerate(zip(*cols,
                                                                                                         strict=True)):
        shown_sev = severity or text(sev)
        span = text(rws)
        at_rows = f"{'rows' if '–' in span else 'row'} {span}" if span else ""
        where = " · ".join(x for x in (text(source), text(sheet), at_rows) if x)
        cells = [text(room), text(rate), nights.iloc[i], weekdays.iloc[i]]
        tail = "".join(f"<td>{e(text(x))}</td>" for x in more)
        rows.append(f"<tr class='{e(shown_sev)}' data-sev='{e(shown_sev)}' data-rule='{e(text(rule))}'>"
                    f"<td class='sev'>{e(shown_sev)}</td><td>{e(text(rule))}</td>"
                    + "".join(f"<td>{e(c)}</td>" for c in cells)
                    + f"<td class='num'>{int(n):,}</td><td>{e(where)}</td><td>{e(text(column))}</td>"
                      f"<td>{e(text(value))}</td><td>{with_code(text(message))}</td>{tail}</tr>")
    rows.append("</tbody></table>")
    return "".join(rows)


def _waived(lines: pd.DataFrame) -> list[str]:
    shown = lines.head(MAX_WAIVED)
    out = [f"<section class='waived' data-prop='waived'><h2>Waived warnings</h2><p class='note'>{int(lines['issues'].sum()):,} "
           "warnings set aside by the waivers file: shown here, counted nowhere.</p>",
           _line_table(shown, nights_text(shown), weekdays_text(shown), extra=("waiver_reason", "waived_by", "waiver"),
                       severity="waived")]
    if len(lines) > len(shown):
        out.append(f"<p class='note'>{len(shown):,} of {count(len(lines), 'line')} shown; the CSV report lists every waived "
                   "warning (column <code>waived</code>).</p>")
    out.append("</section>")
    return out
