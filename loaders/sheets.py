"""Reading CSV and Excel files into raw text tables, keeping the row numbers people see.

Every cell is read as text (fast Excel readers: fastexcel/calamine, see ``loaders.workbooks``);
typing happens in ``loaders.normalize``. Excel date cells arrive as ``YYYY-MM-DD[ HH:MM:SS]``
text, numbers as the shortest text that shows them, so a cell showing 99.99 stays 99.99.

What people's files hold besides the table is handled here: hidden sheets are not read unless
named; the header row is found below title rows (``loaders.header_rows``) or given
(``header_row``, the Excel row number); CSV encodings are detected (``loaders.text_files``);
Excel error values are kept with their cell; formulas without a saved value can be looked up for
the blank cells that need it (``loaders.xlsx_xml``).
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from loaders import text_files, workbooks, xlsx_bounds, xlsx_xml
from loaders.errors import LoadError
from loaders.folders import folder_files
from loaders.header_rows import HEADER_SEARCH_ROWS, TableKind, find_header, two_row_header
from loaders.own_sheets import is_lock_file, own_sheets
from loaders.parquet_files import FIRST_ROW, PARQUET_SUFFIXES, read_parquet_tables, text_table
from loaders.wording import agree
from loaders.xlsx_bounds import DEFAULT_BOUNDS, WorkbookBounds

EXCEL_SUFFIXES = {".xlsx", ".xlsm", ".xlsb", ".xls", ".ods"}
CSV_SUFFIXES = {".csv", ".txt", ".tsv"}


@dataclass
class RawSheet:
    """One sheet (or CSV file) as text: ``header`` cells, ``body`` rows, Excel row numbers."""

    source: str          # file name as given (no directories); in a folder, the path inside it
    path: Path
    sheet: str           # "" for CSV
    header: list[str]    # header cells, stripped text
    body: pd.DataFrame   # columns 0..n-1 as str (NA for blank), one row per non-blank data row
    rows: pd.Series      # Excel row number of each body row
    header_row: int = 1  # Excel row number of the header
    header_found: bool = True   # the header names the expected table's fields (always, without a kind)
    named: bool = False  # the sheet was asked for by name
    errors: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, column) -> `#DIV/0!` ...
    first_column: int | None = None  # 0-based sheet column of column 0 (xlsx), to find cells in the XML
    hint: str = ""       # what to add to an error about the headers (e.g. the likely encoding)
    last_row: int | None = None  # the last row the sheet says it uses (xlsx), formulas without a value included
    blank_columns: set[int] = field(default_factory=set)  # columns with a blank cell in the body


@dataclass
class HiddenSheet:
    source: str
    sheet: str
    state: str           # "hidden" or "very hidden"


@dataclass
class Tables:
    """What :func:`read_tables` found: the tables read, and the hidden sheets left unread."""

    sheets: list[RawSheet]
    hidden: list[HiddenSheet] = field(default_factory=list)
    #: per file, the sheets the workbench added to its own report (``loaders.own_sheets``), not read
    added: dict[str, list[str]] = field(default_factory=dict)

    def hidden_records(self) -> list[dict[str, object]]:
        """One ``hidden_sheet`` warning (issue record) per hidden sheet left unread, and one
        ``report_sheets_skipped`` line per workbench report whose added sheets were not read."""
        return [{"source": h.source, "sheet": h.sheet, "row": 1, "column": "", "value": h.state,
                 "rule": "hidden_sheet", "severity": "warning",
                 "message": f"{h.state} sheet `{h.sheet}` was not read (hidden sheets are never sent); to read it, "
                            "name it with --sheet"} for h in self.hidden] + [
            {"source": source, "sheet": "", "row": None, "column": "", "value": ", ".join(names),
             "rule": "report_sheets_skipped", "severity": "warning",
             "message": f"{agree(len(names), 'sheet')} " + ", ".join(f"`{n}`" for n in names)
                        + " added by the workbench to its report " + agree(len(names), "was", "were")
                        + " not read; the other sheets were checked"} for source, names in self.added.items()]


def read_sheets(paths: Iterable[str | Path], sheet: str | Sequence[str] | None = None) -> list[RawSheet]:
    """Every sheet (hidden ones too) of each file, the header being the first non-blank row."""
    return read_tables(paths, sheet, read_hidden=True).sheets


def read_tables(paths: Iterable[str | Path], sheet: str | Sequence[str] | None = None, *,
                kind: TableKind | None = None, encoding: str | None = None, header_row: int | None = None,
                read_hidden: bool = False, bounds: WorkbookBounds = DEFAULT_BOUNDS) -> Tables:
    """Read each file; for workbooks, the named sheet(s) or, with ``sheet=None``, every visible sheet.

    ``kind`` lets the header row be found below title rows; ``header_row`` (Excel row, 1-based)
    forces it; ``encoding`` forces a CSV file's encoding; a workbook declaring more than ``bounds``
    (see ``loaders.xlsx_bounds``) is refused before it is read.
    """
    if encoding is not None:
        text_files.check_encoding(encoding)
    if header_row is not None and header_row < 1:
        raise LoadError(f"--header-row {header_row}: rows are numbered from 1, as in Excel.")
    out = Tables([])
    given = [Path(p) for p in paths]
    locks = [p for p in given if is_lock_file(p)]
    if locks and len(locks) == len(given):
        raise LoadError(f"`{locks[0].name}` is the lock file Excel keeps while `{locks[0].name[2:]}` is open, not "
                        f"data: give `{locks[0].name[2:]}` itself.", source=locks[0].name)
    for path in given:
        if is_lock_file(path):
            continue  # a glob (`*.xlsx`) picked up Excel's lock file of an open workbook
        if not path.exists():
            raise LoadError(f"`{path}` does not exist: check the path and the file name.", source=path.name)
        if path.is_dir():
            _read_folder(path, sheet, kind, encoding, header_row, read_hidden, out, bounds)
        else:
            _read_file(path, sheet, kind, encoding, header_row, read_hidden, out, bounds)
    return out


def _read_file(path: Path, sheet: str | Sequence[str] | None, kind: TableKind | None, encoding: str | None,
               header_row: int | None, read_hidden: bool, out: Tables, bounds: WorkbookBounds) -> None:
    suffix = path.suffix.lower()
    if suffix in EXCEL_SUFFIXES:
        _read_workbook(path, sheet, kind, header_row, read_hidden, out, bounds)
    elif suffix in CSV_SUFFIXES:
        out.sheets.append(_read_csv(path, kind, encoding, header_row))
    elif suffix in PARQUET_SUFFIXES:
        out.sheets.extend(_read_parquet([(path, path.name)], None, kind))
    else:
        raise LoadError(f"`{path.name}` is not a spreadsheet this tool reads: use .xlsx, .xlsm, .xls, .ods, .csv or "
                        ".parquet (or a folder of them).", source=path.name)


def _read_folder(folder: Path, sheet: str | Sequence[str] | None, kind: TableKind | None, encoding: str | None,
                 header_row: int | None, read_hidden: bool, out: Tables, bounds: WorkbookBounds) -> None:
    """Every data file of ``folder`` (see ``loaders.folders``), named by its path inside it."""
    listed = folder_files(folder)
    if listed.kind == "parquet":
        out.sheets.extend(_read_parquet(listed.files, folder, kind))
        return
    for path, source in listed.files:
        part = Tables([])
        try:
            _read_file(path, sheet, kind, encoding, header_row, read_hidden, part, bounds)
        except LoadError as exc:
            raise LoadError(f"in the folder `{folder}`, file `{source}`: {exc}", source=source,
                            sheet=exc.sheet) from exc
        for raw in part.sheets:
            raw.source = source
        for hidden in part.hidden:
            hidden.source = source
        out.sheets.extend(part.sheets)
        out.hidden.extend(part.hidden)
        for names in part.added.values():
            out.added[source] = names


def _read_parquet(files: list[tuple[Path, str]], root: Path | None, kind: TableKind | None) -> list[RawSheet]:
    """Parquet files as sheets without a sheet name; their first row (2) is the file's first row."""
    sheets = []
    for source, path, _, table in read_parquet_tables(files, root):
        raw = split_header(path, "", table, first_row=1, kind=kind, header_at=0)
        if raw is None:  # cannot happen: the header row names the columns
            continue
        raw.source = source
        sheets.append(raw)
    return sheets


def arrow_sheet(table: pa.Table, source: str, rows: np.ndarray | None = None,
                kind: TableKind | None = None) -> RawSheet | None:
    """An Arrow table read as a Parquet file is (its column names the header, its values as text),
    named ``source``; ``rows[i]`` is the row number of its ``i``-th row (default ``i + 2``, as in a
    file). ``None`` for a table without columns."""
    if table.num_columns == 0:
        return None
    raw = split_header(Path(source), "", text_table(table), first_row=1, kind=kind, header_at=0)
    if raw is None:
        return None
    raw.source = source
    if rows is not None:
        raw.rows = pd.Series(np.asarray(rows, dtype="int64")[raw.rows.to_numpy() - FIRST_ROW], index=raw.rows.index)
    return raw


# --- workbooks ----------------------------------------------------------------------------------------

def _read_workbook(path: Path, sheet: str | Sequence[str] | None, kind: TableKind | None, header_row: int | None,
                   read_hidden: bool, out: Tables, bounds: WorkbookBounds) -> None:
    import fastexcel

    bounded = path.suffix.lower() in xlsx_bounds.ZIP_SUFFIXES
    if bounded:
        xlsx_bounds.check_archive(path, bounds)  # before any reader opens it: it would size its buffers from it
    try:
        reader = fastexcel.read_excel(str(path))
        names = list(reader.sheet_names)
    except BaseException as exc:  # fastexcel raises its own error types for damaged files (a panic too)
        if not _reader_failed(exc):
            raise
        raise LoadError(f"`{path.name}` cannot be read as a workbook ({_short(exc)}); "
                        "open it in Excel and save it again as .xlsx.", source=path.name) from exc
    if sheet is None:
        states = sheet_states(path)
        added = own_sheets(path)
        wanted = []
        for name in names:
            state = states.get(name, "visible")
            if name in added:
                out.added.setdefault(path.name, []).append(name)
            elif state != "visible" and not read_hidden:
                out.hidden.append(HiddenSheet(path.name, name, "very hidden" if state == "veryhidden" else "hidden"))
            else:
                wanted.append(name)
    else:
        wanted = [sheet] if isinstance(sheet, str) else list(sheet)
    found = 0
    for name in wanted:
        if name not in names:
            raise LoadError(f"`{path.name}` has no sheet `{name}`; its sheets are "
                            + ", ".join(f"`{n}`" for n in names) + ".", source=path.name, sheet=name)
        if bounded and path.suffix.lower() in xlsx_xml.XLSX_SUFFIXES:
            xlsx_bounds.check_sheet(path, name, bounds)
        try:
            with workbooks.quiet_fastexcel():
                raw = _read_sheet(path, reader, name, kind, header_row)
        except BlankHeaderRow as exc:
            if sheet is not None:
                raise
            raw = _no_header(path, name, exc.row)  # another sheet of the workbook: not this table
        except LoadError:
            raise
        except BaseException as exc:  # the reader failed: one line, never its backtrace
            if not _reader_failed(exc):
                raise
            raise LoadError(f"`{path.name}` sheet `{name}` cannot be read ({_short(exc)}).",
                            source=path.name, sheet=name) from exc
        if raw is not None:
            raw.named = sheet is not None
            out.sheets.append(raw)
            found += 1
    if not found:
        hidden = [h.sheet for h in out.hidden if h.source == path.name]
        if hidden:
            raise LoadError(f"`{path.name}` has no visible sheet with data; hidden sheets are not read: "
                            + ", ".join(f"`{h}`" for h in hidden) + ". To read one, name it with --sheet.",
                            source=path.name)
        raise LoadError(f"`{path.name}` has no data: every sheet asked for is empty.", source=path.name)


def sheet_states(path: Path) -> dict[str, str]:
    """Each sheet's visibility: ``visible``, ``hidden`` or ``veryhidden`` (read without loading the sheets)."""
    from python_calamine import CalamineWorkbook

    try:
        with CalamineWorkbook.from_path(str(path)) as wb:
            return {m.name: str(m.visible).rsplit(".", 1)[-1].lower() for m in wb.sheets_metadata}
    except BaseException as exc:  # visibility unknown: every sheet is read, as before (a reader's panic too)
        if not _reader_failed(exc):
            raise
        return {}


def _read_sheet(path: Path, reader: object, name: str, kind: TableKind | None,
                header_row: int | None) -> RawSheet | None:
    peek: list[xlsx_xml.PeekedRow] | None = None
    last_row = None
    if path.suffix.lower() in xlsx_xml.XLSX_SUFFIXES:
        try:
            peeked = xlsx_xml.first_rows(path, name, HEADER_SEARCH_ROWS)
            peek, last_row = peeked.rows, peeked.last_row
        except (KeyError, zipfile.BadZipFile, ValueError, OSError):
            peek = None
        if peek == []:
            return None  # no cell holds a value
    first = peek[0].row if peek else _first_used_row(path, name)
    text_names: list[str] = []
    header_cells: dict[int, str] = {}
    if header_row is not None:
        if header_row < first:
            raise _blank_header_row(path.name, name, header_row)
        index = header_row - first
        if peek and any(r.row == header_row for r in peek):
            header_cells = next(r.cells for r in peek if r.row == header_row)
    elif peek:
        width = range(min(min(r.cells) for r in peek), max(max(r.cells) for r in peek) + 1)
        at = find_header([[r.cells.get(c, "") for c in width] for r in peek], kind)
        header_cells = peek[at if at is not None else 0].cells
        index = peek[at if at is not None else 0].row - first
    else:
        index = 0
    if header_cells and kind is not None:
        cols = sorted(header_cells)
        texts = [header_cells[c] for c in cols]
        text_names = [texts[i] for i in kind.number_columns(texts)]
    checked = kind.checked_columns if kind is not None else (lambda _h: set())
    booleans = not (path.suffix.lower() in xlsx_xml.XLSX_SUFFIXES and xlsx_bounds.known_no_booleans(path, name))
    table = workbooks.load_typed(reader, name, index, text_names, checked, booleans=booleans)
    searched = header_row is not None or peek is not None
    if table is not None and not searched and kind is not None:
        head = [str(v) if v is not None else "" for v in table.table.slice(0, 1).to_pylist()[0].values()]
        if not kind.is_header(head):
            table = None  # a title row above the header? look for it in the text
    if table is None:
        table = workbooks.load_text(reader, name)
        at_row = index if searched else None
    else:
        at_row = 0
    errors = {(first + r, c): v for (r, c), v in table.errors.items()}
    raw = split_header(path, name, table.table, first_row=first + (index if at_row == 0 else 0), kind=kind,
                       header_at=at_row)
    if raw is None:
        if header_row is not None:
            raise _blank_header_row(path.name, name, header_row)
        return None
    raw.errors = errors
    raw.last_row = last_row
    if header_cells:
        raw.first_column = _first_column(header_cells, raw.header)
    above = next((r.cells for r in peek or [] if r.row == raw.header_row - 1), None)
    if above is not None and raw.first_column is not None and not raw.hint and raw.header_found:
        over = [above.get(raw.first_column + pos, "") for pos in range(len(raw.header))]
        if two_row_header(raw.header, over, kind, above=True):
            raw.hint = (f"Row {raw.header_row - 1} above the header looks like part of it (a header over two rows, "
                        "or merged header cells): keep one header row with one name per column.")
    return raw


def _first_column(cells: dict[int, str], header: list[str]) -> int | None:
    """The sheet column of position 0, from where the header's text cells are in the XML."""
    for col, text in sorted(cells.items()):
        t = text.strip()
        hits = [pos for pos, h in enumerate(header) if h == t]
        if len(hits) == 1:
            return col - hits[0]
    return None


def _first_used_row(path: Path, sheet: str) -> int:
    """The Excel row number where calamine's used range starts (it skips leading empty rows)."""
    from python_calamine import CalamineWorkbook

    with CalamineWorkbook.from_path(str(path)) as wb:
        start = wb.get_sheet_by_name(sheet).start
    return int(start[0]) + 1 if start else 1


class BlankHeaderRow(LoadError):
    """``header_row`` points at a blank row (or past the end) of a sheet."""

    def __init__(self, message: str, *, source: str, sheet: str, row: int) -> None:
        super().__init__(message, source=source, sheet=sheet)
        self.row = row


def _blank_header_row(source: str, sheet: str, row: int) -> BlankHeaderRow:
    where = f"`{source}` sheet `{sheet}`" if sheet else f"`{source}`"
    return BlankHeaderRow(f"{where}: row {row} is blank or past the end; --header-row must give the row holding "
                          "the column names, counted as in Excel (the first row is 1).", source=source, sheet=sheet,
                          row=row)


def _no_header(path: Path, sheet: str, row: int) -> RawSheet:
    """A sheet whose given header row is blank: no table of the kind asked for."""
    return RawSheet(source=path.name, path=path, sheet=sheet, header=[], body=pd.DataFrame(),
                    rows=pd.Series([], dtype="int64"), header_row=row, header_found=False)


# --- CSV ----------------------------------------------------------------------------------------------

def _read_csv(path: Path, kind: TableKind | None, encoding: str | None, header_row: int | None) -> RawSheet:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"`{path.name}` cannot be read: {exc.strerror}.", source=path.name) from exc
    used = encoding or text_files.detect(data)
    text = text_files.decode(data, used, path.name)
    if "\x00" in text[:4000]:  # UTF-16 read as a one-byte encoding
        likely = text_files.likely_encoding(data, used, kind.is_header if kind else (lambda _c: True))
        raise LoadError(f"`{path.name}` holds zero bytes when read as {text_files.encoding_name(used)}"
                        + (f": the file looks like {text_files.encoding_name(likely)} text: try --encoding {likely}."
                           if likely else ": give its encoding with --encoding (e.g. utf-16)."), source=path.name)
    raw = _csv_table(path, text, kind, header_row)
    if raw is not None and kind is not None and not raw.header_found and header_row is None:
        likely = text_files.likely_encoding(data, used, kind.is_header)
        if likely is not None and encoding is None:  # detected wrongly: the other reading has headers
            raw = _csv_table(path, text_files.decode(data, likely, path.name), kind, header_row)
        elif likely is not None:
            raw.hint = (f"The file looks like {text_files.encoding_name(likely)} text, not "
                        f"{text_files.encoding_name(encoding or used)}: try --encoding {likely}.")
    if raw is not None and kind is not None and not raw.header_found and not raw.hint:
        bad = text_files.garbled(raw.header)
        if bad is not None:
            raw.hint = (f"The headers look garbled (`{bad}`): the file was read as "
                        f"{text_files.encoding_name(encoding or used)}; give its encoding with --encoding "
                        "(e.g. utf-8, utf-16, cp1252).")
    if raw is None:
        if header_row is not None and text.strip():
            raise _blank_header_row(path.name, "", header_row)
        raise LoadError(f"`{path.name}` is empty.", source=path.name)
    return raw


def _csv_table(path: Path, text: str, kind: TableKind | None, header_row: int | None) -> RawSheet | None:
    frame = text_files.split(text, path.name)
    if frame.empty:
        return None
    table = pa.Table.from_pandas(frame, preserve_index=False)
    return split_header(path, "", table, first_row=1, kind=kind,
                        header_at=None if header_row is None else header_row - 1)


# --- the header and the body ---------------------------------------------------------------------------

def split_header(path: Path, sheet: str, table: pa.Table, first_row: int, kind: TableKind | None = None,
                  header_at: int | None = None) -> RawSheet | None:
    """Header = row ``header_at`` of ``table`` or, without it, the first non-blank row naming the
    table's fields (else the first non-blank row); drop blank rows; strip spaces; keep Excel row
    numbers (``table`` row i is Excel row ``first_row + i``).

    Works on Arrow columns (strip, blank detection, filtering) so a million rows cost ~0.1 s.
    """
    if table.num_rows == 0:
        return None
    cols = []
    blank = None
    for col in table.columns:
        if not pa.types.is_string(col.type) and not pa.types.is_large_string(col.type):
            col = pc.cast(col, pa.string())
        col = _trimmed(col)
        empty = pc.equal(col, "")
        if pc.any(empty).as_py():  # most columns have no empty text: no copy for them
            col = pc.if_else(empty, pa.scalar(None, col.type), col)
        cols.append(col)
        nulls = pc.is_null(col)
        blank = nulls if blank is None else pc.and_(blank, nulls)
    blank_np = blank.to_numpy(zero_copy_only=False) if blank is not None else np.zeros(0, dtype=bool)
    nonblank = (~blank_np).nonzero()[0]
    if len(nonblank) == 0:
        return None

    def cells(i: int) -> list[str]:
        return ["" if c[i].as_py() is None else _midnight(str(c[i].as_py())) for c in cols]

    if header_at is not None:
        if header_at >= len(blank_np) or blank_np[header_at]:
            return None
        h = header_at
        found = kind is None or kind.is_header(cells(h))
    else:
        candidates = [int(i) for i in nonblank[:HEADER_SEARCH_ROWS]]
        at = find_header([cells(i) for i in candidates], kind)
        h = candidates[at] if at is not None else candidates[0]
        found = at is not None or kind is None
    header = cells(h)
    keep = ~blank_np
    keep[: h + 1] = False
    after = np.flatnonzero(keep)
    if found and len(after) and two_row_header(header, cells(int(after[0])), kind):
        where = f"`{path.name}` sheet `{sheet}`" if sheet else f"`{path.name}`"
        raise LoadError(
            f"{where}: rows {first_row + h} and {first_row + int(after[0])} both look like header rows (a header "
            "over two rows, or merged header cells): keep one header row with one name per column (e.g. "
            "`AmountAfterTax`, `AmountBeforeTax`) and unmerge the header cells.", source=path.name, sheet=sheet)
    hint = ""
    if found and h > 0 and not blank_np[h - 1] and two_row_header(header, cells(h - 1), kind, above=True):
        hint = (f"Row {first_row + h - 1} above the header looks like part of it (a header over two rows, or merged "
                "header cells): keep one header row with one name per column.")
    if len(after) and int(after[-1]) - int(after[0]) + 1 == len(after):  # no blank row between: a zero-copy slice
        kept = [c.slice(int(after[0]), len(after)) for c in cols]
    else:
        mask = pa.array(keep)
        kept = [pc.filter(c, mask) for c in cols]
    body = pd.DataFrame({i: pd.Series(c.to_pandas(types_mapper=_STRING.get), dtype="string")
                         for i, c in enumerate(kept)})
    rows = pd.Series(np.arange(first_row, first_row + len(keep), dtype="int64")[keep])
    return RawSheet(source=path.name, path=path, sheet=sheet, header=header, body=body, rows=rows,
                    header_row=first_row + h, header_found=found, hint=hint,
                    blank_columns={i for i, c in enumerate(kept) if c.null_count})


_STRING = {pa.string(): pd.StringDtype("pyarrow"), pa.large_string(): pd.StringDtype("pyarrow")}


def _trimmed(col: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray | pa.Array:
    """``col`` without the whitespace around its texts; ``col`` itself (no copy of a million strings)
    when no text begins or ends with a byte that could be whitespace: numbers and dates never do."""
    chunks = col.chunks if isinstance(col, pa.ChunkedArray) else [col]
    if any(_edges_may_be_space(chunk) for chunk in chunks):
        return pc.utf8_trim_whitespace(col)
    return col


def _edges_may_be_space(chunk: pa.Array) -> bool:
    """Whether a text of ``chunk`` (a string array) begins or ends with an ASCII space or control
    byte, or with any non-ASCII byte (every Unicode space is): read from the Arrow buffers."""
    _, offsets_buffer, data_buffer = chunk.buffers()
    if len(chunk) == 0 or data_buffer is None or offsets_buffer is None:
        return False
    width = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
    offsets = np.frombuffer(offsets_buffer, dtype=width)[chunk.offset: chunk.offset + len(chunk) + 1].astype(
        np.int64, copy=False)
    data = np.frombuffer(data_buffer, dtype=np.uint8)
    filled = offsets[1:] > offsets[:-1]
    edges = np.concatenate([data[offsets[:-1][filled]], data[offsets[1:][filled] - 1]])
    return bool(((edges <= 0x20) | (edges >= 0x80)).any())


_MIDNIGHT = re.compile(r"(?<=^\d{4}-\d{2}-\d{2})[ T]00:00:00$")


def _midnight(text: str) -> str:
    """A date header cell read as ``2027-01-01 00:00:00`` is the date ``2027-01-01``."""
    return _MIDNIGHT.sub("", text)


def _reader_failed(exc: BaseException) -> bool:
    """An error a reader raised, or a Rust panic in it (pyo3's ``PanicException`` is a BaseException);
    not Ctrl-C or an exit."""
    return isinstance(exc, Exception) or type(exc).__name__ == "PanicException"


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]
