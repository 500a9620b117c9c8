"""Parquet files and datasets (a folder of them, hive-partitioned or not) as text tables, like CSV.

Each Parquet file becomes one table whose header is the file's column names (plus the folder's
partition columns, e.g. ``hotel_code`` from ``hotel_code=1001/part-0.parquet``), so a dataset is
read, checked and reported like a folder of CSV files:

- ``source`` is the file's path relative to the folder given (``hotel_code=1001/part-0.parquet``),
  or its name when a file is given;
- ``row`` is the row within the file counted as in a CSV file with a header row: the file's
  first row is 2, its n-th row is n + 1 (Parquet row groups are consecutive, so a row group and
  the row inside it follow from this number and the file's metadata);
- values become the text a spreadsheet would show (dates ``2026-03-02``, numbers as written), and
  are typed by the same code as spreadsheet cells, so a bad value gets the same message.

A file that cannot be read, and files whose columns differ (mixed schemas), raise
:class:`~loaders.errors.LoadError` naming the files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from loaders.errors import LoadError

PARQUET_SUFFIXES = {".parquet", ".pq"}
FIRST_ROW = 2  # a file's first row, counted as in a CSV file with a header row


def read_parquet_tables(files: Sequence[tuple[Path, str]],
                        root: Path | None = None) -> list[tuple[str, Path, list[str], pa.Table]]:
    """``(source, path, header, table)`` for each ``(path, source)`` of ``files``: the table is all
    text, its first row the header (as a CSV file's would be). With ``root`` (the folder given),
    hive partition folders (``key=value``) between it and each file add columns. Raises
    ``LoadError`` for an unreadable file and for files with different columns."""
    import pyarrow.parquet as pq

    out = []
    for path, source in files:
        try:
            table = pq.read_table(path)
        except (pa.ArrowException, OSError) as exc:
            raise LoadError(f"`{source}` cannot be read as a Parquet file ({_short(exc)}); write it again, or move "
                            "it out of the folder.", source=source) from exc
        for key, value in _partition_keys(path, root):
            if key not in table.column_names:
                table = table.append_column(key, pa.array([value] * table.num_rows, pa.string()))
        out.append((source, path, [str(n) for n in table.column_names], text_table(table)))
    _same_columns(out)
    return out


def text_table(table: pa.Table) -> pa.Table:
    """``table`` as a sheet's text: row 0 the column names (the header), then each value as the
    text a spreadsheet cell would show (blank for null)."""
    names = [str(n) for n in table.column_names]
    header = pa.table({str(i): pa.array([n], pa.string()) for i, n in enumerate(names)})
    body = pa.table({str(i): _as_text(table.column(i)) for i in range(len(names))})
    return pa.concat_tables([header, body])


def _partition_keys(path: Path, root: Path | None) -> list[tuple[str, str]]:
    if root is None:
        return []
    keys = []
    for part in path.relative_to(root).parts[:-1]:
        key, sep, value = part.partition("=")
        if sep and key:
            from urllib.parse import unquote

            keys.append((key, unquote(value)))
    return keys


def _same_columns(tables: list[tuple[str, Path, list[str], pa.Table]]) -> None:
    """Every file of a dataset has the same columns (in any order); else say which differ."""
    if len(tables) < 2:
        return
    first_source, _, first, _ = tables[0]
    for source, _, header, _ in tables[1:]:
        if set(header) != set(first):
            extra = [c for c in header if c not in first]
            missing = [c for c in first if c not in header]
            said = "; ".join(x for x in (
                f"it has {_names(extra)} which `{first_source}` has not" if extra else "",
                f"it lacks {_names(missing)}" if missing else "") if x)
            raise LoadError(f"the Parquet files do not share one schema: `{source}` has other columns than "
                            f"`{first_source}` ({said}). Write every file of the dataset with the same columns, "
                            "or give the files separately.", source=source)


def _names(cols: list[str]) -> str:
    return ", ".join(f"`{c}`" for c in cols)


def _as_text(col: pa.ChunkedArray) -> pa.ChunkedArray:
    """The text a spreadsheet cell would show for each value (blank for null). Numbers and dates
    repeat a lot (prices, nights, hotels): each distinct value is written once."""
    t = col.type
    if pa.types.is_dictionary(t):
        col = col.cast(t.value_type)
        t = t.value_type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return col.cast(pa.string())
    if len(col) > 1 and (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_temporal(t)):
        coded = pc.dictionary_encode(col.combine_chunks())
        return pa.chunked_array([pc.take(_value_text(pa.chunked_array([coded.dictionary])).combine_chunks(),
                                         coded.indices)], pa.string())
    return _value_text(col)


def _value_text(col: pa.ChunkedArray) -> pa.ChunkedArray:
    t = col.type
    if pa.types.is_timestamp(t):
        midnight = pc.all(pc.equal(col, pc.floor_temporal(col, 1, "day"))).as_py() is not False
        return pc.strftime(col, "%Y-%m-%d" if midnight else "%Y-%m-%d %H:%M:%S")
    if pa.types.is_date(t):
        return pc.strftime(pc.cast(col, pa.timestamp("s")), "%Y-%m-%d")
    return col.cast(pa.string())


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]
