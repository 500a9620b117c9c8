"""A workbook for big results, written in one pass with xlsxwriter: a problems sheet linking to
each flagged cell, the analyst's sheets (values) with those cells filled and commented, then
plain tables (e.g. a push's ``Requests`` and ``Rows``).

Unlike :mod:`workbench.reports.marked_workbook` (openpyxl: the analyst's own workbook, its
formatting kept), the sheets are copied as values (dates keep a date format), which is what makes
a 73,000-price push report take seconds instead of most of a minute (benchmarks/bench_reports.py).
Cells keep their Excel row and column, so the row numbers in the reports stay right.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pandas as pd
import xlsxwriter
from xlsxwriter.utility import xl_rowcol_to_cell
from xlsxwriter.worksheet import Worksheet

from workbench.reports.cells import XLSXWRITER_OPTIONS
from workbench.reports.text import is_missing, text

FILLS = {"error": "#FFC7CE", "warning": "#FFEB9C"}
EXCEL = {".xlsx", ".xlsm"}
NOT_COPIED = {".parquet", ".pq"}  # data files nobody edits by hand: not copied into the report
ISSUE_COLUMNS = ["source", "sheet", "row", "column", "value", "rule", "severity", "message"]
MAX_URLS = 65_530  # Excel's limit of hyperlinks per worksheet; past it a HYPERLINK formula does the job
HEADER_SCAN = 50   # the header is among the first 50 rows
CONSTANT_MEMORY_CELLS = 4_000_000  # more table cells than this: write row by row (xlsxwriter constant_memory)


def write_marked_values(path: str | Path, files: Sequence[Path], marks: pd.DataFrame, *,
                        problems_sheet: str = "Problems", tables: Mapping[str, pd.DataFrame] | None = None) -> Path:
    """Write ``marks`` (issue columns: source, sheet, row, column, value, rule, severity, message)
    as ``problems_sheet``, the sheets of ``files`` with the marked cells filled and commented, then
    each of ``tables`` as its own sheet."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    files = [Path(f) for f in files]
    cells = sum(len(t) * len(t.columns) for t in (tables or {}).values()) + len(marks) * 9
    # in memory is ~20% faster (shared strings); past a few million cells, bound the memory instead
    wb = xlsxwriter.Workbook(str(path), {"constant_memory": cells > CONSTANT_MEMORY_CELLS,
                                         "default_date_format": "yyyy-mm-dd", "nan_inf_to_errors": True,
                                         **XLSXWRITER_OPTIONS})  # text from the data stays text
    try:
        fmt = _Formats(wb)
        sources = list(_sources(files))
        used = {problems_sheet, *(tables or {})}
        titles = [_unique(name, used) for name, _, _ in sources]
        notes, links = _place(marks, sources, titles)
        _problems(wb.add_worksheet(problems_sheet), marks, links, fmt)
        for title, (_, _, rows) in zip(titles, sources, strict=True):
            _sheet(wb.add_worksheet(title), rows, notes.get(title, {}), fmt)
        for name, frame in (tables or {}).items():
            _table(wb.add_worksheet(name), frame, fmt, row_by_row=cells > CONSTANT_MEMORY_CELLS)
    finally:
        wb.close()
    return path


class _Formats:
    def __init__(self, wb: xlsxwriter.Workbook) -> None:
        self.bold = wb.add_format({"bold": True})
        self.link = wb.add_format({"font_color": "#0563C1", "underline": 1})
        self.date = wb.add_format({"num_format": "yyyy-mm-dd"})
        self.datetime = wb.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})
        self.fill = {s: wb.add_format({"bg_color": c}) for s, c in FILLS.items()}
        self.fill_date = {s: wb.add_format({"bg_color": c, "num_format": "yyyy-mm-dd"}) for s, c in FILLS.items()}


# --- reading the sources -------------------------------------------------------------------------

Rows = list[list[object]]  # rows[i] is Excel row i + 1


def _sources(files: Sequence[Path]) -> Iterator[tuple[str, tuple[str, str], Rows]]:
    """(sheet title, (source name, sheet name as the issues name it), rows) for every sheet."""
    single = len(files) == 1 and files[0].suffix.lower() in EXCEL
    for f in files:
        if f.is_dir() or f.suffix.lower() in NOT_COPIED:
            continue  # folders and Parquet data: the problems sheet names their files and rows
        if f.suffix.lower() in EXCEL:
            from python_calamine import CalamineWorkbook

            from loaders.xlsx_bounds import check_archive

            check_archive(f)  # read before, but maybe not every sheet: the reader sizes each from the file
            wb = CalamineWorkbook.from_path(str(f))
            names = wb.sheet_names
            for name in names:
                if not _within_bounds(f, name):
                    continue
                rows = wb.get_sheet_by_name(name).to_python(skip_empty_area=False)
                title = name if single else (f"{f.stem} {name}" if len(names) > 1 else f.stem)
                yield title, (f.name, name), [[None if v == "" else v for v in r] for r in rows]
        else:
            yield f.stem, (f.name, ""), _csv_rows(f)


def _within_bounds(f: Path, sheet: str) -> bool:
    """Whether a sheet of the workbook ``f`` may be copied: one past the bounds of
    ``loaders.xlsx_bounds`` (a hidden sheet, never read, with a stray cell at XFD1048576) is not:
    the readers would size it from the file."""
    from loaders.errors import LoadError
    from loaders.xlsx_bounds import check_sheet

    try:
        check_sheet(f, sheet)
    except LoadError:
        return False
    return True


def _csv_rows(f: Path) -> Rows:
    from loaders.sheets import read_sheets

    raw = read_sheets([f])[0]
    numbers = [int(r) for r in raw.rows.tolist()]
    header_row = numbers[0] - 1 if numbers else 1
    rows: Rows = [[] for _ in range(header_row - 1)]
    rows.append(list(raw.header))
    for r, values in zip(numbers, raw.body.itertuples(index=False), strict=True):
        rows.extend([] for _ in range(r - len(rows) - 1))
        rows.append([None if pd.isna(v) else _number(v) for v in values])
    return rows


def _number(v: object) -> object:
    s = str(v)
    return int(s) if s.lstrip("-").isdigit() and len(s) < 16 else s


def _unique(name: str, used: set[str]) -> str:
    base = "".join(ch for ch in name if ch not in "[]:*?/\\")[:31] or "Sheet"
    cand, i = base, 2
    while cand.lower() in {u.lower() for u in used}:
        cand = f"{base[:28]}~{i}"
        i += 1
    used.add(cand)
    return cand


# --- placing the marks ---------------------------------------------------------------------------

Notes = dict[tuple[int, int], list[tuple[str, str, str]]]  # (row0, col0) -> [(severity, rule, message)]


def _place(marks: pd.DataFrame, sources: list[tuple[str, tuple[str, str], Rows]],
           titles: list[str]) -> tuple[dict[str, Notes], list[str]]:
    """The notes of each sheet and, per mark, the cell it links to (``''`` when it has none)."""
    by_key: dict[tuple[str, str], tuple[str, dict[str, int]]] = {}
    for title, key, rows in zip(titles, (k for _, k, _ in sources), (r for _, _, r in sources), strict=True):
        by_key[key] = (title, _header_columns(rows))
    notes: dict[str, Notes] = defaultdict(lambda: defaultdict(list))
    links = []
    for r in marks[ISSUE_COLUMNS].itertuples(index=False):
        found = by_key.get((str(r.source), text(r.sheet))) or by_key.get((str(r.source), ""))
        if found is None or text(r.row) == "":
            links.append("")
            continue
        title, cols = found
        row0, col0 = int(r.row) - 1, cols.get(text(r.column), 0)
        notes[title][(row0, col0)].append((str(r.severity), text(r.rule), text(r.message)))
        links.append(f"'{title.replace(chr(39), chr(39) * 2)}'!{xl_rowcol_to_cell(row0, col0)}")
    return notes, links


def _header_columns(rows: Rows) -> dict[str, int]:
    """Header text -> 0-based column: where each text first appears in the first rows (so a header
    below title rows is found too)."""
    out: dict[str, int] = {}
    for row in rows[:HEADER_SCAN]:
        for i, v in enumerate(row):
            if v not in (None, ""):
                out.setdefault(_header_text(v), i)
    return out


def _header_text(v: object) -> str:
    if isinstance(v, dt.datetime) and v.time() == dt.time(0):
        return v.date().isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v).strip()


# --- writing -------------------------------------------------------------------------------------

def _problems(ws: Worksheet, marks: pd.DataFrame, links: list[str], fmt: _Formats) -> None:
    ws.write_row(0, 0, [*ISSUE_COLUMNS, "go to cell"], fmt.bold)
    sev_col = ISSUE_COLUMNS.index("severity")
    for severity, fill in fmt.fill.items():  # one rule per severity, not one format per cell
        ws.conditional_format(1, sev_col, max(len(marks), 1), sev_col,
                              {"type": "cell", "criteria": "==", "value": f'"{severity}"', "format": fill})
    for i, (r, link) in enumerate(zip(marks[ISSUE_COLUMNS].itertuples(index=False), links, strict=True), start=1):
        ws.write_row(i, 0, [_cell(v) for v in r])
        if link and i <= MAX_URLS:
            ws.write_url(i, len(ISSUE_COLUMNS), f"internal:{link}", fmt.link, "open")
        elif link:
            ws.write_formula(i, len(ISSUE_COLUMNS), f'=HYPERLINK("#{link.replace(chr(34), chr(34) * 2)}","open")',
                             fmt.link, "open")
    ws.freeze_panes(1, 0)
    ws.autofilter(0, 0, max(len(marks), 1), len(ISSUE_COLUMNS))
    for i, width in enumerate([22, 14, 7, 18, 14, 24, 9, 90, 10]):
        ws.set_column(i, i, width)
    ws.activate()


def _sheet(ws: Worksheet, rows: Rows, notes: Notes, fmt: _Formats) -> None:
    marked_rows: dict[int, list[tuple[int, list[tuple[str, str, str]]]]] = defaultdict(list)
    for (row0, col0), items in notes.items():
        marked_rows[row0].append((col0, items))
    last = max(len(rows), max(marked_rows, default=-1) + 1)
    for row0 in range(last):  # in row order: constant_memory writes each row once
        values = rows[row0] if row0 < len(rows) else []
        if values:
            ws.write_row(row0, 0, values)
        for col0, items in marked_rows.get(row0, ()):
            worst = "error" if any(s == "error" for s, _, _ in items) else "warning"
            value = values[col0] if col0 < len(values) else None
            cell_fmt = fmt.fill_date[worst] if isinstance(value, dt.date) else fmt.fill[worst]
            if value is None:
                ws.write_blank(row0, col0, None, cell_fmt)
            else:
                ws.write(row0, col0, value, cell_fmt)
            note = "\n".join(f"{s.upper()} {rule}: {msg}" for s, rule, msg in items)[:30000]
            ws.write_comment(row0, col0, note, {"author": "workbench", "x_scale": 3,
                                                "y_scale": min(5.0, 1 + 0.6 * len(items))})


def _table(ws: Worksheet, frame: pd.DataFrame, fmt: _Formats, row_by_row: bool = False) -> None:
    ws.write_row(0, 0, [str(c) for c in frame.columns], fmt.bold)
    columns = [_column(frame[c]) for c in frame.columns]
    if row_by_row:  # constant_memory: each row once, in order
        for i, row in enumerate(zip(*columns, strict=True), start=1) if columns else ():
            ws.write_row(i, 0, row)
    else:  # column by column with the one writer each column needs (~15% faster than write_row)
        for j, values in enumerate(columns):
            write = _writer(ws, values)
            for i, v in enumerate(values, start=1):
                if v is not None:
                    write(i, j, v)
    for j, c in enumerate(frame.columns):
        if isinstance(frame[c].dtype, pd.DatetimeTZDtype) or pd.api.types.is_datetime64_any_dtype(frame[c]):
            ws.set_column(j, j, 19, fmt.datetime)
        else:
            sample = [str(c), *(text(v) for v in frame[c].head(200).tolist())]
            ws.set_column(j, j, min(60, max(8, max(map(len, sample)) + 2)))
    ws.freeze_panes(1, 0)
    ws.autofilter(0, 0, max(len(frame), 1), max(len(frame.columns) - 1, 0))


def _writer(ws: Worksheet, values: list[object]) -> Callable[..., object]:
    kinds = {type(v) for v in values if v is not None}
    if kinds and kinds <= {int, float}:
        return ws.write_number
    if kinds == {str}:
        return ws.write_string
    return ws.write


def _column(series: pd.Series) -> list[object]:
    """Values xlsxwriter can write: missing -> blank, numpy scalars -> Python, timestamps -> naive datetimes."""
    if isinstance(series.dtype, pd.DatetimeTZDtype):
        series = series.dt.tz_convert("UTC").dt.tz_localize(None)
    if pd.api.types.is_datetime64_any_dtype(series):
        return [None if pd.isna(v) else v.to_pydatetime() for v in series]
    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        return series.astype(object).where(series.notna(), None).tolist()
    values = series.astype(object)
    if values.map(type).isin((str,)).all():  # plain text: blank for "" (the common, fast case)
        return values.where(values != "", None).tolist()
    return [_cell(v) for v in values.tolist()]


def _cell(v: object) -> object:
    """One value as xlsxwriter writes it; ``None`` (a blank cell) for anything missing."""
    if isinstance(v, (list, tuple, dict, set)):
        return str(v) if v else None
    if is_missing(v):
        return None
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):  # numpy scalars
        v = v.item()
    if hasattr(v, "to_pydatetime"):
        v = v.to_pydatetime()
    if isinstance(v, dt.datetime) and v.tzinfo is not None:
        v = v.astimezone(dt.UTC).replace(tzinfo=None)
    if isinstance(v, (bool, int, float, str, dt.date, dt.time)):
        return v
    return text(v) or None
