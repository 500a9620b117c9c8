"""Validation reports for people: CSV (the issues frame), XLSX (the analyst's own sheets with
the failing cells highlighted and commented, plus an Issues sheet linking to each cell) and
HTML (counts by rule and severity, then the issues table).
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from workbench.reports.tables import write_table

FORMATS = (".csv", ".xlsx", ".html")
FILLS = {"error": "FFC7CE", "warning": "FFEB9C"}


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


def write_report(issues: pd.DataFrame, path: str | Path, context: ReportContext | None = None) -> Path:
    """Write ``issues`` to ``path``; the extension picks the format (.csv, .xlsx, .html)."""
    path = check_report_path(path)
    context = context or ReportContext()
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return write_table(issues, path)
    if suffix == ".html":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_html(issues, context), encoding="utf-8")
        return path
    from workbench.reports.marked_workbook import write_marked_workbook

    return write_marked_workbook(issues, path, list(context.files), title=context.title)


def summary_table(issues: pd.DataFrame) -> pd.DataFrame:
    if issues.empty:
        return pd.DataFrame(columns=["severity", "rule", "issues", "rows"])
    g = issues.groupby(["severity", "rule"], sort=False)
    out = pd.DataFrame({"issues": g.size(), "rows": g.apply(lambda x: len(x[["source", "sheet", "row"]]
                                                                             .drop_duplicates()))}).reset_index()
    out["_s"] = out["severity"].map({"error": 0, "warning": 1})
    return out.sort_values(["_s", "issues"], ascending=[True, False]).drop(columns="_s").reset_index(drop=True)


#: Every selector starts with the report's own container class, so the report restyles nothing else
#: when shown inside another page (a notebook's output); long ids (``code``) wrap in their cell. The
#: alignment is ``!important`` because JupyterLab right-aligns output tables with a more specific rule.
REPORT_CLASS = "wb-report"
REPORT_CSS = """
.wb-report{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5rem 1rem;color:#1f2328;background:#fff}
.wb-report h1{font-size:1.5rem;margin-bottom:.2rem} .wb-report .meta{color:#57606a;margin-bottom:1.5rem}
.wb-report .cards{display:flex;gap:1rem;margin:1rem 0 1.5rem}
.wb-report .card{padding:.8rem 1.2rem;border-radius:8px;min-width:8rem}
.wb-report .card b{display:block;font-size:1.6rem} .wb-report .err{background:#ffebe9}
.wb-report .warn{background:#fff8c5} .wb-report .okc{background:#dafbe1}
.wb-report table{border-collapse:collapse;table-layout:auto;width:100%;font-size:.9rem;margin-bottom:2rem}
.wb-report th,.wb-report td{border:0;border-bottom:1px solid #d0d7de;padding:.35rem .5rem;text-align:left!important;
  vertical-align:top;white-space:normal;overflow-wrap:break-word;max-width:none}
.wb-report th{background:#f6f8fa;position:sticky;top:0}
.wb-report tr.error td.sev{color:#cf222e;font-weight:600} .wb-report tr.warning td.sev{color:#9a6700;font-weight:600}
.wb-report td.num{text-align:right!important}
.wb-report code{background:#f6f8fa;padding:0 .2rem;word-break:break-all}
.wb-report td code{display:inline-block;min-width:12ch}
"""


def render_html(issues: pd.DataFrame, context: ReportContext) -> str:
    e = html.escape
    n_err = int((issues["severity"] == "error").sum())
    n_warn = int((issues["severity"] == "warning").sum())
    meta = []
    if context.files:
        meta.append("Files: " + ", ".join(f"<code>{e(Path(f).name)}</code>" for f in context.files))
    if context.as_of:
        meta.append(f"As of {context.as_of:%Y-%m-%d} (CET)")
    if context.rows_checked is not None:
        meta.append(f"{context.rows_checked:,} prices checked")
    meta += [f"{e(k)}: {e(v)}" for k, v in context.extra.items()]
    verdict = ("<div class='card okc'><b>OK</b>nothing blocks a push</div>" if n_err == 0 else
               "<div class='card err'><b>Blocked</b>errors must be fixed (or skipped)</div>")
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{e(context.title)}</title>",
             f"<style>{REPORT_CSS}</style></head><body><div class='{REPORT_CLASS}'><h1>{e(context.title)}</h1>",
             f"<div class='meta'>{' · '.join(meta)}</div>",
             f"<div class='cards'>{verdict}<div class='card err'><b>{n_err}</b>errors</div>"
             f"<div class='card warn'><b>{n_warn}</b>warnings</div></div>",
             "<h2>By rule</h2><table><thead><tr><th>Severity</th><th>Rule</th><th>Issues</th><th>Rows</th></tr>"
             "</thead><tbody>"]
    for r in summary_table(issues).itertuples():
        parts.append(f"<tr class='{e(r.severity)}'><td class='sev'>{e(r.severity)}</td><td>{e(r.rule)}</td>"
                     f"<td class='num'>{r.issues}</td><td class='num'>{r.rows}</td></tr>")
    parts.append("</tbody></table><h2>Issues</h2><table><thead><tr><th>File</th><th>Sheet</th><th>Row</th>"
                 "<th>Column</th><th>Value</th><th>Rule</th><th>Severity</th><th>What to do</th></tr></thead><tbody>")
    for r in issues.itertuples(index=False):
        cells = [r.source, r.sheet, "" if pd.isna(r.row) else str(r.row), r.column, r.value, r.rule, r.severity,
                 r.message]
        tds = "".join(f"<td{' class=sev' if i == 6 else ''}>{e('' if pd.isna(v) else str(v))}</td>"
                      for i, v in enumerate(cells))
        parts.append(f"<tr class='{e(str(r.severity))}'>{tds}</tr>")
    if issues.empty:
        parts.append("<tr><td colspan='8'>No issues found.</td></tr>")
    parts.append("</tbody></table></div></body></html>")
    return "\n".join(parts)
