"""Plan reports: what a rates push would change, grouped as date ranges with weekday masks.

- ``.csv``: one line per range (``hotel_code, inv_type_code, rate_plan_code, guests, change, before,
  after, currency_code, change_pct, start, end, weekdays, nights, text``);
- ``.xlsx``: ``Plan`` (the figures), ``Room-rates`` (added, changed, unchanged, removed per
  property and room-rate), ``Changes`` (the ranges), ``Cells`` (one row per cell that changes, up
  to Excel's row limit) and ``Warnings`` (price jumps, each with its file, sheet, row and cell);
- ``.html``: the figures, the room-rates with changes, the ranges (the first
  :data:`HTML_RANGES`; all of them in the CSV) and the warnings.

The plan is ``workbench.writers.plan.RatesPlan`` (not imported: reports and writers are one layer).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.page import card, heading, page, with_code
from workbench.reports.about import named, names_of
from workbench.reports.cells import XLSXWRITER_OPTIONS
from workbench.reports.output_files import whole_file, write_text_whole
from workbench.reports.tables import write_table
from workbench.reports.text import text
from workbench.wording import count, platform_text

FORMATS = (".csv", ".xlsx", ".html")
HTML_RANGES = 5_000
EXCEL_ROWS = 1_048_575
WARNING_COLUMNS = ["source", "sheet", "row", "column", "value", "rule", "message"]


def check_plan_report_path(path: str | Path) -> Path:
    """``path`` if its extension names a plan report format; else ``ValueError`` saying which do."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"cannot write a plan report to `{path.name}`: use a name ending in .csv, .xlsx or .html")
    return path


def write_plan_report(plan: Any, path: str | Path) -> Path:
    """Write ``plan`` (a ``RatesPlan``); the extension picks the format (.csv, .xlsx, .html)."""
    path = check_plan_report_path(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return write_table(_ranges_table(plan.ranges()), path)
    if suffix == ".html":
        return write_text_whole(path, render_plan_html(plan))
    figures = pd.DataFrame(_figures(plan), columns=["figure", "value"])
    sheets = {"Plan": figures, "Room-rates": plan.room_rates, "Changes": _ranges_table(plan.ranges()),
              "Cells": _cells_table(plan.changes()).head(EXCEL_ROWS),
              "Warnings": plan.warnings.reindex(columns=WARNING_COLUMNS)}
    with whole_file(path) as tmp, pd.ExcelWriter(tmp, engine="xlsxwriter",
                                                  engine_kwargs={"options": XLSXWRITER_OPTIONS}) as writer:
        for name, frame in sheets.items():
            frame.to_excel(writer, sheet_name=name, index=False)
            sheet = writer.sheets[name]
            sheet.freeze_panes(1, 0)
            for i, col in enumerate(frame.columns):
                sample = [str(col), *(str(v) for v in frame[col].head(200).tolist())]
                sheet.set_column(i, i, min(90, max(8, max(map(len, sample)) + 2)))
    return path


def _figures(plan: Any) -> list[tuple[str, str]]:
    c = plan.counts
    return [("target", plan.target or f"{platform_text(None)} (nothing accepted to compare with)"), ("journal", str(plan.journal)),
            ("cells added", f"{c['added']:,}"), ("cells changed", f"{c['changed']:,}"),
            ("cells unchanged", f"{c['unchanged']:,}"), ("cells removed from the sheet", f"{c['removed']:,}"),
            ("prices to send", f"{plan.cells_to_send:,}"), ("requests", f"{plan.requests:,}"),
            ("messages", f"{plan.messages:,}"), ("send time", plan.estimate.text()),
            ("price-jump warnings", f"{len(plan.warnings):,}"), ("rows left out", f"{plan.rows_left_out:,}"),
            ("a push stops here", plan.blocked or "no")]


def _ranges_table(ranges: pd.DataFrame) -> pd.DataFrame:
    out = ranges.copy()
    for col in ("start", "end"):
        out[col] = pd.to_datetime(out[col]).dt.strftime("%Y-%m-%d")
    return out


def _cells_table(cells: pd.DataFrame) -> pd.DataFrame:
    out = cells.copy()
    out["date"] = pd.to_datetime(out["date"]).dt.strftime("%Y-%m-%d")
    return out


def render_plan_html(plan: Any) -> str:
    e = html.escape
    c = plan.counts
    ranges = plan.ranges()
    rr = plan.room_rates
    names = names_of(getattr(plan, "frame", None))
    moved = rr[(rr["added"] + rr["changed"] + rr["removed"]) > 0]
    target = (f"Platform <code>{e(plan.target)}</code>" if plan.target else
              f"{platform_text(None).capitalize()}: nothing accepted to compare with, so every price counts as added")
    sent = count(plan.cells_to_send, "price") + " to send" + (" (every price: a full push)" if plan.full else "")
    parts = ["<h1>Plan (nothing sent)</h1>",
             f"<div class='meta'>{target} · journal <code>{e(str(plan.journal))}</code> · {e(sent)} in "
             f"{e(count(plan.requests, 'request'))} with {e(count(plan.messages, 'message'))} · send time "
             f"{e(plan.estimate.text())}</div>"]
    if plan.blocked:
        parts.append(f"<div class='cards'><div class='card err'><b>A push stops here</b> {with_code(plan.blocked)}"
                     "</div></div>")
    parts.append("<div class='cards'>" + "".join(card(n, label, cls, one) for n, label, cls, one in (
        (c["added"], "added", "okc", ""), (c["changed"], "changed", "warn", ""),
        (c["unchanged"], "unchanged", "neutral", ""), (c["removed"], "removed from the sheet", "err", ""),
        (plan.requests, "requests", "neutral", "request"), (plan.messages, "messages", "neutral", "message"),
        (len(plan.warnings), "price-jump warnings", "warn", "price-jump warning"))) + "</div>")
    parts.append("<h2>Room-rates with changes</h2>" + _table(moved, ["hotel_code", "inv_type_code", "rate_plan_code",
                                                                     "added", "changed", "unchanged", "removed"],
                                                             names))
    shown = ranges.head(HTML_RANGES)
    note = (f"<p class='note'>The first {len(shown):,} of {count(len(ranges), 'line')}; all of them: the CSV report.</p>"
            if len(shown) < len(ranges) else "")
    parts.append("<h2>Changes as ranges</h2>" + note + _table(shown, ["hotel_code", "text", "nights"], names))
    parts.append("<h2>Price-jump warnings</h2>" + _table(plan.warnings.head(HTML_RANGES),
                                                          ["source", "sheet", "row", "column", "rule", "message"],
                                                          names))
    return page("Plan", "\n".join(parts))


def _table(frame: pd.DataFrame, columns: list[str], names: Mapping[str, str]) -> str:
    e = html.escape
    if frame.empty:
        return "<p>None.</p>"
    head = "".join(f"<th>{e(heading(c))}</th>" for c in columns)
    numeric = {c for c in columns if pd.api.types.is_integer_dtype(frame[c])}
    rows = []
    for row in frame[columns].itertuples(index=False, name=None):
        cells = []
        for col, v in zip(columns, row, strict=True):
            if col == "hotel_code":
                cells.append(f"<td>{e(named(v, names))}</td>")
            elif col in numeric and col != "row" and not isinstance(v, str) and text(v):
                cells.append(f"<td class='num'>{int(v):,}</td>")
            elif col == "message":
                cells.append(f"<td>{with_code(text(v))}</td>")
            else:
                cells.append(f"<td>{e(text(v))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
