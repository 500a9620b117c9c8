"""Push reports: what the platform answered, traced to the spreadsheet rows.

- ``.csv``: one line per spreadsheet row sent (request, outcome, codes, texts, ruid);
- ``.xlsx``: the analyst's sheets with the rows the platform warned about or refused marked,
  plus ``Requests`` and ``Rows`` sheets;
- ``.html``: counts, then every request (with its ruid to quote to support), then the rows
  that got a warning or an error.
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from workbench.reports.tables import write_table
from workbench.reports.validation import REPORT_CSS

REQUEST_COLUMNS = ["request_id", "hotel", "month", "messages", "cells", "outcome", "http_status", "codes", "texts",
                   "ruid", "attempts", "error", "source_rows"]


def write_push_report(result: object, path: str | Path) -> Path:
    """Write a push result (``workbench.writers.push.PushResult``); the extension picks the format."""
    path = Path(path)
    suffix = path.suffix.lower()
    rows: pd.DataFrame = result.rows  # type: ignore[attr-defined]
    requests: pd.DataFrame = result.requests  # type: ignore[attr-defined]
    if suffix == ".csv":
        return write_table(rows, path)
    if suffix == ".html":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_push_html(result), encoding="utf-8")
        return path
    if suffix == ".xlsx":
        from openpyxl import load_workbook

        from workbench.reports.marked_workbook import write_marked_workbook

        marks = rows[rows["severity"] != "ok"].rename(columns={"codes": "rule"})
        ruid = marks["ruid"].astype("string").fillna("-")
        marks = marks.assign(value="", message=marks["message"] + " (ruid " + ruid + ")")
        marks = marks[["source", "sheet", "row", "column", "value", "rule", "severity", "message"]]
        write_marked_workbook(marks, path, list(result.files), title="Push results")  # type: ignore[attr-defined]
        wb = load_workbook(path)
        wb["Issues"].title = "Problems"
        wb.save(path)
        with pd.ExcelWriter(path, engine="openpyxl", mode="a", if_sheet_exists="replace") as writer:
            requests[REQUEST_COLUMNS].to_excel(writer, sheet_name="Requests", index=False)
            rows.to_excel(writer, sheet_name="Rows", index=False)
        return path
    raise ValueError(f"cannot write a push report to `{path.name}`: use a name ending in .csv, .xlsx or .html")


def render_push_html(result: object) -> str:
    e = html.escape
    req: pd.DataFrame = result.requests  # type: ignore[attr-defined]
    rows: pd.DataFrame = result.rows  # type: ignore[attr-defined]
    counts = req["outcome"].value_counts().to_dict() if len(req) else {}
    ok = counts.get("success", 0)
    bad = len(req) - ok
    warn = int((rows["severity"] == "warning").sum()) if len(rows) else 0
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Push results</title>"
             f"<style>{REPORT_CSS}</style></head><body><h1>Push results</h1>",
             f"<div class='meta'>Target <code>{e(result.target)}</code> · run {result.run_id} · "  # type: ignore
             f"{result.cells_changed:,} of {result.cells_total:,} prices changed since the last accepted push</div>",  # type: ignore
             f"<div class='cards'><div class='card okc'><b>{ok}</b>requests applied</div>"
             f"<div class='card err'><b>{bad}</b>requests refused or failed</div>"
             f"<div class='card warn'><b>{warn}</b>rows with warnings</div></div>",
             "<h2>Requests</h2><table><thead><tr><th>Hotel</th><th>Month</th><th>Messages</th><th>Prices</th>"
             "<th>Outcome</th><th>HTTP</th><th>Codes</th><th>What the platform said</th><th>ruid</th>"
             "<th>Attempts</th><th>Rows</th></tr></thead><tbody>"]
    for r in req.itertuples(index=False):
        cls = "error" if r.outcome != "success" else ("warning" if r.codes else "")
        said = r.texts or (r.error or "")
        parts.append(f"<tr class='{cls}'><td>{r.hotel}</td><td>{e(str(r.month))}</td><td class='num'>{r.messages}"
                     f"</td><td class='num'>{r.cells}</td><td class='sev'>{e(str(r.outcome))}</td>"
                     f"<td>{'' if pd.isna(r.http_status) else r.http_status}</td><td>{e(r.codes)}</td>"
                     f"<td>{e(str(said))}</td><td><code>{e(str(r.ruid or ''))}</code></td>"
                     f"<td class='num'>{'' if pd.isna(r.attempts) else r.attempts}</td>"
                     f"<td>{e(str(r.source_rows or ''))}</td></tr>")
    if req.empty:
        parts.append("<tr><td colspan='11'>Nothing to send: the platform already has every price.</td></tr>")
    parts.append("</tbody></table><h2>Rows with warnings or errors, and rows not sent</h2><table><thead><tr>"
                 "<th>File</th><th>Sheet</th><th>Row</th><th>Cell</th><th>Outcome</th><th>Codes</th>"
                 "<th>What the platform said</th><th>ruid</th></tr></thead><tbody>")
    flagged = rows[rows["severity"] != "ok"] if len(rows) else rows
    for r in flagged.itertuples(index=False):  # each on the cell it concerns (room, rate plan, price ...)
        ruid = "" if pd.isna(r.ruid) else str(r.ruid)
        parts.append(f"<tr class='{e(r.severity)}'><td>{e(str(r.source))}</td><td>{e(str(r.sheet))}</td>"
                     f"<td>{r.row}</td><td>{e(str(r.column))}</td><td class='sev'>{e(str(r.outcome))}</td>"
                     f"<td>{e(str(r.codes))}</td><td>{e(str(r.message))}</td><td><code>{e(ruid)}</code></td></tr>")
    if flagged.empty:
        parts.append("<tr><td colspan='8'>Every row was applied without a warning.</td></tr>")
    parts.append("</tbody></table></body></html>")
    return "\n".join(parts)
