"""What a workbook declares, looked at before a reader opens it: a workbook that asks for more than
this workbench reads is refused with one line, instead of the reader asking for 512 GB and
aborting the process with a Rust backtrace.

The fast readers (fastexcel / calamine) size their buffers from the file: a sheet's extent (first
to last cell: one stray cell at XFD1048576 makes 17 billion cells), the declared number of shared
strings, and every zip part as inflated. So, before they see a workbook:

- :func:`check_archive` reads the zip directory (each part's inflated size and compression
  ratio; the first megabytes of each part are inflated for real, since a directory can lie) and
  ``sharedStrings.xml``'s ``uniqueCount`` (or, without it, the strings counted in a sample);
- :func:`check_sheet` reads a sheet's ``<dimension ref>`` and, when it is absent, suspicious or
  the sheet small, the sheet's real extent: every cell reference is scanned (RE2 through pyarrow,
  about half a second for a 260 MB sheet). A sheet scanned whole is also looked through for formulas,
  merged cells and boolean cells: one without formulas and merged cells is remembered
  (:func:`known_plain`), so the scan for formulas without a saved value (``blank_cells``) need not
  inflate it again; one without a boolean cell too (:func:`known_no_booleans`), so its number columns
  can be read typed (a boolean would arrive as the number 1).
- A big sheet whose dimension is plausible (as Excel saves every sheet) keeps its extent trusted and is
  scanned only for formulas, merged cells and booleans, up to its first boolean cell: reading a
  million values typed and without the second pass saves more than the scan costs (a 113 MB sheet:
  the scan 0.17 s of CPU, the command 0.3 s less in all: 3.15 -> 2.85 s). After a boolean neither can be had, so it stops.

Both raise :class:`~loaders.errors.LoadError` naming the file, the sheet and what it declares.
A file that is not a readable zip is let through: the reader says it is damaged, as before.
"""

from __future__ import annotations

import os
import re
import struct
import threading
import zipfile
from collections.abc import Generator, Iterator
from contextlib import closing
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from queue import Full, Queue
from typing import BinaryIO

from loaders.errors import LoadError
from loaders.inflate import INFLATE_ERRORS, inflate_member
from loaders.xlsx_xml import XLSX_SUFFIXES, column_index, column_letters, sheet_part, sheet_parts

EXCEL_ROWS, EXCEL_COLUMNS = 1_048_576, 16_384
ZIP_SUFFIXES = {*XLSX_SUFFIXES, ".xlsb", ".ods"}
CHUNK = 2 << 20          # bytes inflated at a time
HEAD = 64 << 10          # where a part's declarations (<dimension>, <sst count>) are looked for
SAMPLE = 4 << 20         # bytes of each part inflated to see how it really inflates
SCAN_ALWAYS = 8 << 20    # a sheet this small is scanned whatever its dimension says (milliseconds)
BYTES_A_CELL = 2_048     # more XML than this per declared cell: the dimension is suspicious, scan
_UNREADABLE: tuple[type[Exception], ...] = (zipfile.BadZipFile, *INFLATE_ERRORS, OSError, KeyError, ValueError,
                                            EOFError, struct.error)


@dataclass(frozen=True)
class WorkbookBounds:
    """What this workbench reads from one workbook. The defaults are generous for real data: a
    sheet of 1,048,576 rows x 47 columns, 10 million distinct texts, 4 GB of XML."""

    max_cells: int = 50_000_000          # one sheet's extent, rows x columns (the reader holds ~32 bytes a cell)
    max_shared_strings: int = 10_000_000  # distinct texts (the reader reserves room for each declared one)
    max_unzipped: int = 4 << 30          # bytes of every part together, inflated
    max_ratio: int = 100                 # inflated / zipped, for a part inflating past ``ratio_from`` bytes
    ratio_from: int = 100 << 20


DEFAULT_BOUNDS = WorkbookBounds()


def check_archive(path: Path, bounds: WorkbookBounds = DEFAULT_BOUNDS) -> None:
    """Refuse a workbook whose parts inflate past ``bounds`` or that declares too many shared
    strings; costs a few milliseconds (the first megabytes of each part are inflated)."""
    _raise(_verdict(os.path.abspath(path), _stamp(path), None, bounds), path)


def check_sheet(path: Path, sheet: str, bounds: WorkbookBounds = DEFAULT_BOUNDS) -> None:
    """Refuse a sheet whose extent (declared, or found when the declaration is missing, suspicious
    or cheap to verify) is more than ``bounds.max_cells`` cells or past Excel's last cell. A file
    checked before in this process (same size and time) is not read again."""
    _raise(_verdict(os.path.abspath(path), _stamp(path), sheet, bounds), path)


#: sheets a whole scan found without any formula or merged cell: (path, file version, sheet)
_PLAIN: set[tuple[str, tuple[int, int], str]] = set()
#: sheets a whole scan found without any boolean cell: (path, file version, sheet)
_NO_BOOLEANS: set[tuple[str, tuple[int, int], str]] = set()
_MARKS = r"<(?:\w+:)?f[\s>/]"
#: a cell's type said to be boolean (``t="b"``, ``x:t = 'b'``), or written with a character reference
#: (``t="&#98;"``); anything else named ``t`` starting so matches too: the sheet is then not known to be without
_BOOLEAN = r"""t\s*=\s*["']\s*[b&]"""


def known_plain(path: Path, sheet: str) -> bool:
    """True when :func:`check_sheet` scanned this version of the sheet whole and found no formula and no
    merged cell in it (False: not known, or it has some)."""
    return (os.path.abspath(path), _stamp(path), sheet) in _PLAIN


def known_no_booleans(path: Path, sheet: str) -> bool:
    """True when :func:`check_sheet` scanned this version of the sheet whole and found no boolean cell
    in it (False: not known, or it may have one): no number column of it can hold a TRUE read as 1."""
    return (os.path.abspath(path), _stamp(path), sheet) in _NO_BOOLEANS


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = Path(path).stat()
    except OSError:
        return (-1, -1)
    return (st.st_size, st.st_mtime_ns)


def _raise(verdict: tuple[str, str] | None, path: Path) -> None:
    if verdict is not None:
        raise LoadError(verdict[0], source=Path(path).name, sheet=verdict[1])


@lru_cache(maxsize=256)
def _verdict(path: str, _stamp: tuple[int, int], sheet: str | None,
             bounds: WorkbookBounds) -> tuple[str, str] | None:
    """(message, sheet) of the refusal, or ``None``; remembered per file version (a sheet without a
    dimension is scanned once, not again when a report copies it)."""
    try:
        if sheet is None:
            _archive(Path(path), bounds)
        else:
            _sheet(Path(path), sheet, bounds)
    except LoadError as exc:
        return str(exc), exc.sheet
    return None


def _archive(path: Path, bounds: WorkbookBounds) -> None:
    try:
        with zipfile.ZipFile(path) as zf, path.open("rb") as fh:
            infos = [i for i in zf.infolist() if not i.is_dir()]
            sizes = {i.filename: _measure(fh, i) for i in infos}
            for info in infos:
                problem = _part_problem(info, sizes[info.filename], bounds)
                if problem:
                    sheet = _sheet_of_part(zf, sizes).get(info.filename, "")
                    where = f"`{path.name}` part `{info.filename}`" + (f" (sheet `{sheet}`)" if sheet else "")
                    raise LoadError(f"{where} {problem}", source=path.name, sheet=sheet)
            total = sum(s.inflated for s in sizes.values())
            if total > bounds.max_unzipped:
                biggest = max(sizes, key=lambda n: sizes[n].inflated)
                raise LoadError(f"`{path.name}` inflates to {_mb(total)} of XML (`{biggest}`: "
                                f"{_mb(sizes[biggest].inflated)}): more than this workbench reads (limit "
                                f"{_mb(bounds.max_unzipped)}); save only the used range, or split it into "
                                "several files", source=path.name)
            strings = _shared_strings_part(zf) if path.suffix.lower() in XLSX_SUFFIXES else None
            if strings is not None:
                _check_shared_strings(path, fh, zf.getinfo(strings), sizes[strings], bounds)
    except _UNREADABLE:
        return


def _sheet(path: Path, sheet: str, bounds: WorkbookBounds) -> None:
    try:
        with zipfile.ZipFile(path) as zf, path.open("rb") as fh:
            info = zf.getinfo(sheet_part(zf, sheet))
            head = _head(fh, info, HEAD)
            declared = _dimension(head)
            if declared is not None:
                _refuse_extent(path, sheet, "declares", *declared, bounds)
                first_col, first_row, last_col, last_row = declared
                cells = (last_col - first_col + 1) * (last_row - first_row + 1)
                if info.file_size > SCAN_ALWAYS and info.file_size <= BYTES_A_CELL * cells + SCAN_ALWAYS:
                    # a plausible declaration on a big sheet: its extent is trusted, and the sheet is scanned only
                    # for what lets it be read faster (no boolean cell: its number columns typed; no formula and
                    # no merged cell: no second pass), up to its first boolean cell (then neither is worth it)
                    _, seen = _scan(fh, info, bounds, extent=False)
                    _remember(path, sheet, seen)
                    return
            found, seen = _scan(fh, info, bounds)
            _remember(path, sheet, seen)
            if found is not None:
                _refuse_extent(path, sheet, "has", 1, 1, *found, bounds)
    except _UNREADABLE:
        return


def _remember(path: Path, sheet: str, seen: _Seen) -> None:
    if not seen.marks:
        _PLAIN.add((str(path), _stamp(path), sheet))
    if not seen.booleans:
        _NO_BOOLEANS.add((str(path), _stamp(path), sheet))


# --- the zip parts ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Size:
    inflated: int    # bytes: exact when the part is smaller than SAMPLE, else estimated from the sample
    ratio: float     # inflated / zipped
    understated: bool  # inflates to more than the zip directory says


def _inflate(fh: BinaryIO, info: zipfile.ZipInfo) -> Iterator[tuple[bytes, int]]:
    """The part's bytes, CHUNK at a time, each with the zipped bytes used so far (:func:`loaders.inflate.inflate_member`)."""
    return inflate_member(fh, info, CHUNK)


def _head(fh: BinaryIO, info: zipfile.ZipInfo, size: int) -> bytes:
    out = bytearray()
    for data, _ in _inflate(fh, info):
        out += data
        if len(out) >= size:
            break
    return bytes(out[:size])


def _measure(fh: BinaryIO, info: zipfile.ZipInfo) -> _Size:
    produced = 0
    for data, used in _inflate(fh, info):
        produced += len(data)
        if produced >= SAMPLE:
            ratio = produced / max(used, 1)
            inflated = max(info.file_size, produced, int(info.compress_size * ratio))
            return _Size(inflated, inflated / max(info.compress_size, 1), produced > info.file_size)
    return _Size(produced, produced / max(info.compress_size, 1), produced > info.file_size)


def _part_problem(info: zipfile.ZipInfo, size: _Size, bounds: WorkbookBounds) -> str | None:
    """What is wrong with how a part inflates, as the end of a sentence naming it; ``None``: nothing."""
    if size.understated:
        return (f"inflates to more than its zip directory says ({info.file_size:,} bytes): the file is damaged or "
                "was made to look smaller; open it in Excel and save it again")
    if size.ratio > bounds.max_ratio and size.inflated > bounds.ratio_from:
        return (f"inflates from {_mb(info.compress_size)} to {_mb(size.inflated)} ({size.ratio:,.0f} to 1): more "
                f"than this workbench reads (limit {bounds.max_ratio:,} to 1 past {_mb(bounds.ratio_from)}); a "
                "workbook saved by Excel never does: open it in Excel and save it again, or save the sheet as CSV")
    return None


def _sheet_of_part(zf: zipfile.ZipFile, sizes: dict[str, _Size]) -> dict[str, str]:
    """Part -> sheet name, to name the sheet in a message (only from a workbook.xml of sane size)."""
    small = all(sizes[n].inflated < SCAN_ALWAYS for n in ("xl/workbook.xml", "xl/_rels/workbook.xml.rels")
                if n in sizes)
    try:
        return {part: name for name, part in sheet_parts(zf).items()} if small else {}
    except Exception:  # noqa: BLE001 - only used to name the sheet in a message
        return {}


def _mb(n: int) -> str:
    return f"{n / 1e9:,.1f} GB" if n >= 1e9 else f"{n / 1e6:,.1f} MB"


# --- shared strings --------------------------------------------------------------------------------

_SST = re.compile(rb"<(?:\w+:)?sst\b([^>]*)>")
_UNIQUE = re.compile(rb"\buniqueCount\s*=\s*[\"'](\d+)[\"']")
_SI = re.compile(rb"<(?:\w+:)?si[\s>/]")


def _shared_strings_part(zf: zipfile.ZipFile) -> str | None:
    names = set(zf.namelist())
    return next((n for n in names if n.lower() == "xl/sharedstrings.xml"), None)


def _check_shared_strings(path: Path, fh: BinaryIO, info: zipfile.ZipInfo, size: _Size,
                          bounds: WorkbookBounds) -> None:
    """The reader reserves room for every string ``uniqueCount`` declares, and holds every one
    the table has: both are bounded (without a declaration, the strings of a sample are counted)."""
    sample = _head(fh, info, SAMPLE)
    m = _SST.search(sample[:HEAD])
    unique = _UNIQUE.search(m.group(1)) if m else None
    declared = int(unique.group(1)) if unique else 0
    found = len(_SI.findall(sample))
    held = found if len(sample) >= size.inflated else int(found * size.inflated / max(len(sample), 1))
    if max(declared, held) <= bounds.max_shared_strings:
        return
    said = f"declares {declared:,}" if declared >= held else f"holds about {held:,}"
    raise LoadError(f"`{path.name}` {said} distinct texts (shared strings, `{info.filename}`): more than this "
                    f"workbench reads (limit {bounds.max_shared_strings:,}); save only the used range, or save the "
                    "sheet as CSV", source=path.name)


# --- a sheet's extent ------------------------------------------------------------------------------

_DIMENSION = re.compile(rb"<(?:\w+:)?dimension\s[^>]*?ref\s*=\s*[\"']\$?([A-Za-z]+)\$?(\d+)"
                        rb"(?::\$?([A-Za-z]+)\$?(\d+))?[\"']")
_REF = re.compile(rb"\sr\s*=\s*[\"']([A-Z]*)(\d+)[\"']")
# a cell or row not giving its position as its first attribute (` r="`), or giving none: counted
_CELL_OR_ROW = r"<(?:\w+:)?(?:c|row)"
_NO_POSITION_FIRST = r'[/>\t\n\r]| (?:[^r]|r[^=]|r=[^"])'
_IRREGULAR = f"{_CELL_OR_ROW}(?:{_NO_POSITION_FIRST})"


def _dimension(head: bytes) -> tuple[int, int, int, int] | None:
    """(first column, first row, last column, last row), 1-based, of ``<dimension ref>``."""
    m = _DIMENSION.search(head)
    if m is None:
        return None
    c1, r1 = column_index(m.group(1).decode().upper()) + 1, int(m.group(2))
    c2 = column_index(m.group(3).decode().upper()) + 1 if m.group(3) else c1
    r2 = int(m.group(4)) if m.group(4) else r1
    return min(c1, c2), min(r1, r2), max(c1, c2), max(r1, r2)


def _refuse_extent(path: Path, sheet: str, verb: str, first_col: int, first_row: int, last_col: int, last_row: int,
                   bounds: WorkbookBounds) -> None:
    cols, rows = last_col - first_col + 1, last_row - first_row + 1
    if cols * rows <= bounds.max_cells and last_col <= EXCEL_COLUMNS and last_row <= EXCEL_ROWS:
        return
    raise LoadError(f"`{path.name}` sheet `{sheet}` {verb} cells up to {column_letters(last_col - 1)}{last_row} "
                    f"({cols:,} columns x {rows:,} rows): more than this workbench reads (limit "
                    f"{bounds.max_cells:,} cells, up to XFD1048576); remove the stray cell or save only the used "
                    "range", source=path.name, sheet=sheet)


@dataclass
class _Seen:
    """What a scan found in a sheet (True also when it stopped before knowing)."""

    flagged: bool = False   # a cell or row past the bounds, or not giving its position first
    marks: bool = False     # a formula or a merged cell
    booleans: bool = False  # a boolean cell

    def look(self, text: bytes, extent: str) -> None:
        """What ``text`` holds of what is still looked for (``extent``: the pattern of a flagged cell or row),
        each by a search of its own: RE2 then skips to where the thing can start (a ``<``, a ``t``, an ``f``),
        where one pattern for all of them made it read every byte (a 113 MB sheet: 0.18 s; so, 0.17 s with the
        extent, 0.12 s of it for the extent, and 0.045 s without it)."""
        self.flagged = self.flagged or _found(text, extent)
        self.marks = self.marks or _has_marks(text)
        self.booleans = self.booleans or _found(text, _BOOLEAN)


def _scan(fh: BinaryIO, info: zipfile.ZipInfo, bounds: WorkbookBounds,
          extent: bool = True) -> tuple[tuple[int, int] | None, _Seen]:
    """(last column, last row), 1-based, over every cell and row of the sheet (``None`` when they
    are within bounds whatever they are), and what the sheet holds (formulas, merged cells, booleans).
    ``extent=False`` (a dimension trusted): the references are not looked at, and the scan stops at the
    first boolean cell, not knowing about formulas and merged cells past it (``marks`` True).

    With every row Excel has, ``safe`` columns fit in ``bounds.max_cells``. RE2 looks through the
    sheet for what could go past that: a cell or row whose reference is past column ``safe`` or past
    Excel's last row, or that does not give its position first. A sheet without any (nearly every
    sheet) needs nothing more; otherwise its references are read one by one (slower).
    """
    safe = min(bounds.max_cells // EXCEL_ROWS, EXCEL_COLUMNS)
    columns = greater_pattern(column_letters(safe - 1) if safe else "", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "[A-Z]")
    rows = greater_pattern(str(EXCEL_ROWS), "0123456789", "[0-9]", first="[1-9]")
    # a cell or row without its position first (_IRREGULAR), or with one past the bounds
    flagged = f'{_CELL_OR_ROW}(?:{_NO_POSITION_FIRST}| r="(?:(?:{columns})[0-9]|[A-Z]*0*(?:{rows})"))'
    seen = _Seen(flagged=not extent)  # (flagged: no longer looked for)
    with closing(_chunks(fh, info)) as chunks:  # closed (its helper thread stopped) before reading again
        for text in chunks:
            seen.look(text, flagged)
            if not extent and seen.booleans:
                seen.marks = True  # not known past here: the second pass looks for them
                break
            if seen.flagged and seen.marks and seen.booleans:
                break
    return (_exact(fh, info, bounds) if seen.flagged and extent else None), seen


def _chunks(fh: BinaryIO, info: zipfile.ZipInfo) -> Generator[bytes, None, None]:
    """The part inflated, chunk by chunk, each followed by the seam where it meets the next (the
    last 512 bytes of one and the first 512 of the other: a reference cut in two is whole there).
    A helper thread inflates the next chunks while RE2 reads these (both let go of the GIL)."""
    tail = b""
    with closing(_ahead(data for data, _ in _inflate(fh, info))) as parts:
        for data in parts:
            if tail:
                yield tail + data[:512]
            yield data
            tail = data[-512:]


def _has_marks(data: bytes) -> bool:
    """Whether ``data`` holds a formula or a merged cell. A formula's tag has an ``f``, a letter sheet data
    rarely holds (a byte search skips the rest: RE2 looks only where there is one); merged cells are named."""
    return (b"f" in data and _found(data, _MARKS)) or _found(data, "mergeCell")  # (RE2: 5x a byte search here)


def _found(data: bytes, pattern: str) -> bool:
    """Whether RE2 finds ``pattern`` in ``data`` (read where it is, not copied)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    offsets = pa.py_buffer(np.array([0, len(data)], dtype=np.int64))
    array = pa.Array.from_buffers(pa.large_binary(), 1, [None, offsets, pa.py_buffer(data)])
    return bool(pc.match_substring_regex(array, pattern)[0].as_py())


def _ahead(items: Iterator[bytes], depth: int = 4) -> Generator[bytes, None, None]:
    """``items``, made by a helper thread up to ``depth`` ahead; it stops when the reader does
    (close this generator before using what ``items`` reads from again)."""
    queue: Queue[bytes | BaseException | None] = Queue(depth)
    stop = threading.Event()

    def put(item: bytes | BaseException | None) -> bool:
        while not stop.is_set():
            try:
                queue.put(item, timeout=0.05)
                return True
            except Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put(item):
                    return
            put(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the reader, raised there
            put(exc)

    helper = threading.Thread(target=produce, name="xlsx-bounds-inflate", daemon=True)
    helper.start()
    try:
        while (item := queue.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        helper.join()


def _exact(fh: BinaryIO, info: zipfile.ZipInfo, bounds: WorkbookBounds) -> tuple[int, int]:
    """(last column, last row) from every reference; counted (:func:`_counted`) when a cell or row
    does not give its position; stops once past the bounds."""
    col = row = 0
    irregular = False
    with closing(_chunks(fh, info)) as chunks:
        for text in chunks:
            if _found(text, _IRREGULAR):
                irregular = True
                break
            for m in _REF.finditer(text):
                if m.group(1):
                    col = max(col, column_index(m.group(1).decode()) + 1)
                row = max(row, int(m.group(2)))
            if col * row > bounds.max_cells or col > EXCEL_COLUMNS or row > EXCEL_ROWS:
                break  # enough to refuse
    return _counted(fh, info) if irregular else (col, row)


def greater_pattern(text: str, alphabet: str, anything: str, first: str | None = None) -> str:
    """A regex (RE2 and Python) for the strings over ``alphabet`` read as greater than ``text``
    (longer, or as long and larger where they first differ); ``first``: what a longer one starts with."""
    alternatives = [f"{first or anything}{anything}{{{len(text)},}}"]
    for i, ch in enumerate(text):
        above = alphabet[alphabet.index(ch) + 1:]
        if above:
            rest = f"{anything}{{{len(text) - i - 1}}}" if i < len(text) - 1 else ""
            alternatives.append(f"{re.escape(text[:i])}[{above[0]}-{above[-1]}]{rest}")
    return "|".join(alternatives)


def _counted(fh: BinaryIO, info: zipfile.ZipInfo) -> tuple[int, int]:
    """(last column, last row) with positions counted as the readers do for cells and rows that
    do not give theirs (the next column, the next row): the sheet parsed with lxml, slower."""
    from lxml import etree

    class _Stream:
        def __init__(self) -> None:
            self.chunks = (data for data, _ in _inflate(fh, info))

        def read(self, _n: int = -1) -> bytes:
            return next(self.chunks, b"")

    col = row = last_col = last_row = 0
    events = etree.iterparse(_Stream(), events=("start", "end"), tag=("{*}row", "{*}c"), resolve_entities=False,
                             no_network=True, huge_tree=True)
    try:
        for event, el in events:
            name = etree.QName(el).localname
            if event == "end":
                if name == "row":
                    el.clear()
                continue
            ref = el.get("r") or ""
            if name == "row":
                row = int(ref) if ref.isdigit() else row + 1
                col = 0
            else:
                m = re.fullmatch(r"([A-Z]+)(\d+)", ref)
                col = column_index(m.group(1)) + 1 if m else col + 1
                last_row = max(last_row, int(m.group(2)) if m else row)
            last_col, last_row = max(last_col, col), max(last_row, row)
    except etree.XMLSyntaxError:
        pass  # damaged XML: the extent found before the damage is judged, and the reader says the file is damaged
    return last_col, last_row
