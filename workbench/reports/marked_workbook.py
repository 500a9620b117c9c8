"""The analyst's own sheets with failing cells highlighted and commented, plus an Issues sheet
(one row per issue, or with ``ranges`` one row per range line, linking to its first cell) and a
Waived sheet for the warnings waivers set aside (their cells are not marked).

With one Excel source, that workbook itself is copied and marked (its formatting is kept);
with several sources or CSV files, each sheet's values are copied into a new workbook.
"""

from __future__ import annotations

import datetime as dt
import numbers
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from openpyxl import Workbook, load_workbook
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.hyperlink import Hyperlink
from openpyxl.worksheet.worksheet import Worksheet

from workbench.reports.cells import append_row
from workbench.reports.marked_values import NOT_COPIED
from workbench.reports.ranges import IssueRanges, nights_text, weekdays_text
from workbench.reports.text import text

FILLS = {"error": PatternFill("solid", fgColor="FFC7CE"), "warning": PatternFill("solid", fgColor="FFEB9C")}
EXCEL = {".xlsx", ".xlsm"}


def write_marked_workbook(issues: pd.DataFrame, path: Path, files: Sequence[Path], title: str = "Issues", *,
                          ranges: IssueRanges | None = None, waived: IssueRanges | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    files = [Path(f) for f in files]
    sheet_of: dict[tuple[str, str], Worksheet] = {}
    if len(files) == 1 and files[0].suffix.lower() in EXCEL:
        wb = load_workbook(files[0])
        for ws in wb.worksheets:
            sheet_of[(files[0].name, ws.title)] = ws
    else:
        wb = Workbook()
        wb.remove(wb.active)
        for f in files:
            if f.is_dir() or f.suffix.lower() in NOT_COPIED:
                continue  # folders and Parquet data: the Issues sheet names their files and rows
            for sheet_name, ws in _copy_values(wb, f):
                sheet_of[(f.name, sheet_name)] = ws
    links = _mark(issues, sheet_of)
    if ranges is None:
        _issues_sheet(wb, issues, links, title)
    else:
        _lines_sheet(wb, "Issues", ranges.lines, [links[i] for i in ranges.lines["first_index"]], 0)
    if waived is not None and len(waived.lines):
        _lines_sheet(wb, "Waived", waived.lines, [""] * len(waived.lines), 1,
                     extra={"waiver_reason": "reason", "waived_by": "who", "waiver": "waiver"})
    wb.active = 0
    wb.save(path)
    return path


def _copy_values(wb: Workbook, f: Path):
    used = {ws.title for ws in wb.worksheets}
    if f.suffix.lower() in EXCEL:
        src = load_workbook(f, read_only=True, data_only=True)
        for ws in src.worksheets:
            dst = wb.create_sheet(_unique(f"{f.stem} {ws.title}" if len(src.worksheets) > 1 else f.stem, used))
            for row in ws.iter_rows(values_only=True):
                append_row(dst, list(row))
            yield ws.title, dst
        src.close()
    else:
        from loaders.sheets import read_sheets

        raw = read_sheets([f])[0]
        dst = wb.create_sheet(_unique(f.stem, used))
        for _ in range(int(raw.rows.iloc[0]) - 2 if len(raw.rows) else 0):
            dst.append([])
        append_row(dst, raw.header)
        last = int(raw.rows.iloc[0]) - 1 if len(raw.rows) else 1
        for r, values in zip(raw.rows.tolist(), raw.body.itertuples(index=False), strict=True):
            for _ in range(int(r) - last - 1):
                dst.append([])
            append_row(dst, [None if pd.isna(v) else _number(v) for v in values])
            last = int(r)
        yield "", dst


def _number(v: str) -> object:
    try:
        return int(v) if v.lstrip("-").isdigit() else v
    except ValueError:
        return v


def _unique(name: str, used: set[str]) -> str:
    base = "".join(ch for ch in name if ch not in "[]:*?/\\")[:31] or "Sheet"
    cand, i = base, 2
    while cand in used:
        cand = f"{base[:28]}~{i}"
        i += 1
    used.add(cand)
    return cand


def _header_columns(ws: Worksheet) -> tuple[int, dict[str, int]]:
    """The first non-blank row, and header text -> column number: where each text first appears in
    the first 50 rows (so a header below title rows is found too)."""
    first, out = 0, dict[str, int]()
    for row in ws.iter_rows(min_row=1, max_row=min(ws.max_row, 50)):
        for c in row:
            if c.value in (None, ""):
                continue
            first = first or c.row
            out.setdefault(_text(c.value), c.column)
    return first or 1, out


def _text(v: object) -> str:
    if isinstance(v, dt.datetime) and v.time() == dt.time(0):
        return v.date().isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    return str(v).strip()


def _mark(issues: pd.DataFrame, sheet_of: dict[tuple[str, str], Worksheet]) -> list[str]:
    headers: dict[int, tuple[int, dict[str, int]]] = {}
    notes: dict[tuple[int, int, int], list[tuple[str, str, str]]] = defaultdict(list)
    links = []
    for r in issues.itertuples(index=False):
        ws = sheet_of.get((r.source, r.sheet or "")) or sheet_of.get((r.source, ""))
        if ws is None or pd.isna(r.row):
            links.append("")
            continue
        if id(ws) not in headers:
            headers[id(ws)] = _header_columns(ws)
        _, cols = headers[id(ws)]
        col = cols.get(str(r.column), 1)
        notes[(id(ws), int(r.row), col)].append((r.severity, r.rule, r.message))
        links.append(f"'{ws.title}'!{get_column_letter(col)}{int(r.row)}")
    by_id = {id(ws): ws for ws in sheet_of.values()}
    for (wid, row, col), items in notes.items():
        cell = by_id[wid].cell(row=row, column=col)
        worst = "error" if any(s == "error" for s, _, _ in items) else "warning"
        cell.fill = FILLS[worst]
        text = "\n".join(f"{s.upper()} {rule}: {msg}" for s, rule, msg in items)
        cell.comment = Comment(text[:30000], "workbench", width=420, height=min(400, 80 + 40 * len(items)))
    return links


def _issues_sheet(wb: Workbook, issues: pd.DataFrame, links: list[str], title: str) -> None:
    ws = wb.create_sheet("Issues", 0)
    cols = ["source", "sheet", "row", "column", "value", "rule", "severity", "message"]
    ws.append([c for c in cols] + ["go to cell"])
    for c in ws[1]:
        c.font = Font(bold=True)
    for r, link in zip(issues[cols].itertuples(index=False), links, strict=True):
        append_row(ws, [None if pd.isna(v) else v for v in r] + (["open" if link else ""]))
        if link:
            cell = ws.cell(row=ws.max_row, column=len(cols) + 1)
            cell.hyperlink = Hyperlink(ref=cell.coordinate, location=link, display="open")
            cell.font = Font(color="0563C1", underline="single")
        sev_cell = ws.cell(row=ws.max_row, column=7)
        sev_cell.fill = FILLS.get(str(r.severity), PatternFill())
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = ws.dimensions
    for i, width in enumerate([22, 14, 7, 18, 14, 24, 9, 90, 10], start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    wb.active = 0


LINE_SHEET_COLUMNS = {"severity": "severity", "rule": "rule", "hotel_code": "property", "inv_type_code": "room",
                      "rate_plan_code": "rate", "_nights": "nights", "_weekdays": "weekdays", "issues": "issues",
                      "source": "source", "sheet": "sheet", "rows": "rows", "column": "column", "value": "value",
                      "message": "message"}


def _lines_sheet(wb: Workbook, name: str, lines: pd.DataFrame, links: list[str], at: int,
                 extra: dict[str, str] | None = None) -> None:
    """One row per range line (see :mod:`workbench.reports.ranges`), with a link to its first cell."""
    ws = wb.create_sheet(name, at)
    columns = {**LINE_SHEET_COLUMNS, **(extra or {})}
    table = lines.assign(_nights=nights_text(lines), _weekdays=weekdays_text(lines))
    ws.append([*columns.values(), "go to cell"])
    for c in ws[1]:
        c.font = Font(bold=True)
    sev_col = list(columns).index("severity") + 1
    fill_severity = extra is None
    for values, link in zip(table[list(columns)].itertuples(index=False), links, strict=True):
        append_row(ws, [_cell(v) for v in values] + ["open" if link else ""])
        if link:
            cell = ws.cell(row=ws.max_row, column=len(columns) + 1)
            cell.hyperlink = Hyperlink(ref=cell.coordinate, location=link, display="open")
            cell.font = Font(color="0563C1", underline="single")
        if fill_severity:  # waived warnings stay unfilled: they count nowhere
            ws.cell(row=ws.max_row, column=sev_col).fill = FILLS.get(text(values[sev_col - 1]), PatternFill())
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = ws.dimensions
    widths = {"message": 90, "nights": 24, "source": 22, "rule": 24, "value": 16}
    for i, col in enumerate([*columns.values(), "go to cell"], start=1):
        ws.column_dimensions[get_column_letter(i)].width = widths.get(col, 12 if col != "reason" else 40)


def _cell(value: object) -> object:
    """Numbers stay numbers; anything missing is an empty cell, never ``nan``."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return text(value) or None
