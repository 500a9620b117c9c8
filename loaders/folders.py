"""A folder given as input: the files in it (and its subfolders), each named by its path relative
to the folder, and which kind of input they make.

A folder holds either spreadsheets (CSV/Excel files, each read as if given one by one) or a
Parquet dataset (``*.parquet`` files, hive-partitioned like ``hotel_code=1001/part-0.parquet``
or not) - not both. Hidden files, files starting with ``_`` or ``.`` (``_SUCCESS``,
``_common_metadata``, ``.DS_Store``) and Excel's lock files (``~$rates.xlsx``) are not data and
are passed over, as Parquet readers do; any other file the tool cannot read makes the folder
unusable, and the error lists those files, so nothing is silently left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from loaders.errors import LoadError
from loaders.own_sheets import is_lock_file
from loaders.parquet_files import PARQUET_SUFFIXES

SPREADSHEET_SUFFIXES = {".xlsx", ".xlsm", ".xlsb", ".xls", ".ods", ".csv", ".txt", ".tsv"}
LISTED = 5  # file names an error lists before "and N more"


@dataclass(frozen=True)
class FolderFiles:
    """The data files of a folder: ``kind`` is ``parquet`` or ``spreadsheets``; ``files`` are
    ``(path, source)`` pairs sorted by source (the path relative to the folder, with ``/``)."""

    folder: Path
    kind: str
    files: list[tuple[Path, str]]


def _not_data(rel: Path) -> bool:
    return any(part.startswith((".", "_")) for part in rel.parts) or is_lock_file(rel)


def folder_files(folder: Path) -> FolderFiles:
    """The data files of ``folder``; ``LoadError`` when it holds none, files of both kinds, or
    files of a kind the tool does not read."""
    found = sorted((p for p in folder.rglob("*") if p.is_file() and not _not_data(p.relative_to(folder))),
                   key=lambda p: p.relative_to(folder).as_posix())
    parquet = [p for p in found if p.suffix.lower() in PARQUET_SUFFIXES]
    sheets = [p for p in found if p.suffix.lower() in SPREADSHEET_SUFFIXES]
    other = [p for p in found if p not in parquet and p not in sheets]
    rel = lambda p: p.relative_to(folder).as_posix()  # noqa: E731 - a short local name
    if not found:
        raise LoadError(f"`{folder}` is empty: it holds no CSV, Excel or Parquet files (hidden files and files "
                        "starting with `_` are not read). Give the folder that holds the rates files.",
                        source=folder.name)
    if other:
        raise LoadError(f"`{folder}` holds files this tool cannot read: {_listing([rel(p) for p in other])}. "
                        "A folder may hold CSV/Excel files or Parquet files only: move the others out, or give "
                        "the files one by one.", source=folder.name)
    if parquet and sheets:
        raise LoadError(f"`{folder}` mixes Parquet files ({_listing([rel(p) for p in parquet])}) with CSV/Excel "
                        f"files ({_listing([rel(p) for p in sheets])}): give them as two inputs (two folders, "
                        "or the files one by one).", source=folder.name)
    kind = "parquet" if parquet else "spreadsheets"
    return FolderFiles(folder, kind, [(p, rel(p)) for p in (parquet or sheets)])


def _listing(names: list[str]) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:LISTED])
    return shown + (f" and {len(names) - LISTED} more" if len(names) > LISTED else "")
