"""The journal's accepted prices as a Parquet snapshot, for workers that cannot open the SQLite file.

A cluster builds deltas the way :func:`workbench.writers.deltas.changed_mask` does, against this
snapshot: one file (an fsspec URL on storage every worker reads), sorted by hotel, in row groups
whose statistics let a worker read only the hotels of its partition.

    rows = export_accepted(".workbench/journal.sqlite", "https://platform.example", "s3://bucket/accepted.parquet")
    accepted = read_accepted("s3://bucket/accepted.parquet", lo=1000, hi=1099)
"""

from __future__ import annotations

import posixpath
import sqlite3
from contextlib import closing
from pathlib import Path

import fsspec
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

SCHEMA = pa.schema([("hotel_code", pa.int64()), ("inv_type_code", pa.string()), ("rate_plan_code", pa.string()),
                    ("date", pa.string()), ("guests", pa.int64()), ("price", pa.string())])
ROWS_PER_GROUP = 500_000
#: the primary key's order: a range scan of its index, streamed in chunks (never the whole table in memory)
EXPORT_SQL = ("SELECT hotel_code, inv_type_code, rate_plan_code, date, guests, price FROM accepted WHERE target=? "
              "ORDER BY hotel_code, inv_type_code, rate_plan_code, date, guests")


def export_accepted(journal: str | Path, target: str, url: str, rows_per_group: int = ROWS_PER_GROUP) -> int:
    """Write the prices the platform accepted for ``target`` to ``url``; the number of cells written
    (0 when the journal does not exist or has none: the snapshot is then empty)."""
    fs, path = fsspec.core.url_to_fs(str(url))
    fs.makedirs(posixpath.dirname(path) or ".", exist_ok=True)
    written = 0
    with fs.open(path, "wb") as out, pq.ParquetWriter(out, SCHEMA) as writer:
        if Path(journal).is_file():
            with closing(sqlite3.connect(f"file:{Path(journal)}?mode=ro", uri=True, timeout=30)) as db:
                for chunk in pd.read_sql_query(EXPORT_SQL, db, params=(target.rstrip("/"),), chunksize=rows_per_group):
                    writer.write_table(pa.Table.from_pandas(chunk, schema=SCHEMA, preserve_index=False),
                                       row_group_size=rows_per_group)
                    written += len(chunk)
    return written


def read_accepted(url: str, lo: int, hi: int) -> pd.DataFrame:
    """The snapshot's cells of hotels ``lo``..``hi`` (only the row groups that can hold them are read)."""
    fs, path = fsspec.core.url_to_fs(str(url))
    with fs.open(path, "rb") as f:
        table = pq.read_table(f, filters=[("hotel_code", ">=", int(lo)), ("hotel_code", "<=", int(hi))])
    return table.to_pandas()
