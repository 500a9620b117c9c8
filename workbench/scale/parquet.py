"""Parquet rates read by hotel, on the workers: a worker reads only the row groups that can hold
its partition's hotels (the footer's statistics say which), so it never holds the whole dataset.

A source is a ``.parquet`` file or a folder of them (a dataset, hive-partitioned by hotel —
``hotel_code=123/part-0.parquet`` — or not), as an fsspec URL. Its table is read like a sheet in
the long layout (:mod:`workbench.flows.frames`: ``HotelCode`` or ``hotel_code``, ``Date``,
``AmountAfterTax``..., or a canonical rates frame).

Provenance, as ``loaders.read_rates`` gives it for Parquet: ``source`` is the file's path from the
folder given (``hotel_code=5/part-0.parquet``), or its name when a file is given; ``sheet`` is blank
and ``row`` counts the file's rows as a CSV file with a header row would (its first row is 2, row
groups follow each other), so ``pq.read_table(file).slice(row - 2, 1)`` is the row an issue is about.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from loaders import Loaded, LoadError
from loaders.headers import match_headers
from loaders.issues import combine
from loaders.rates import read_rates_table
from loaders.schemas import RATE_FIELDS, RATES_COLUMNS
from loaders.schemas import empty_rates as empty_rates_frame
from loaders.unread import attach_unread, unread_rows
from workbench.flows import CANONICAL, frame_source, read_rates_frame
from workbench.scale.storage import filesystem

SUFFIXES = (".parquet", ".parq", ".pq")
FIRST_ROW = 2  # a file's first row, numbered as in a CSV file with a header row


@dataclass(frozen=True)
class ParquetFile:
    """One file of a source: its URL, the name issues give it, and its hive keys (``hotel_code=5``)."""

    url: str
    name: str
    keys: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class FileHotels:
    """What a scan of one file found: its hotel column, distinct hotels (raw values, sorted) and
    whether some rows have no hotel."""

    file: ParquetFile
    column: str
    hotels: tuple
    has_missing: bool


def is_parquet(url: str) -> bool:
    """A ``.parquet`` file, or a folder holding ``.parquet`` files (and no CSV/Excel)."""
    fs, path = filesystem(url)
    if str(url).lower().endswith(SUFFIXES):
        return True
    if not fs.isdir(path):
        return False
    return any(p.lower().endswith(SUFFIXES) for p in fs.find(path))


def parquet_files(url: str) -> list[ParquetFile]:
    """The files of source ``url`` in path order (hidden and ``_`` files such as ``_metadata`` left out)."""
    fs, path = filesystem(url)
    path = path.rstrip("/")
    if not fs.isdir(path):
        if not fs.exists(path):
            raise LoadError(f"`{url}` does not exist: give a Parquet file or a folder of them", source=str(url))
        return [ParquetFile(str(url), posixpath.basename(path))]
    out = []
    for p in sorted(fs.find(path)):
        rel = posixpath.relpath(p, path)
        if not p.lower().endswith(SUFFIXES) or any(part.startswith(("_", ".")) for part in rel.split("/")):
            continue
        keys = tuple((k, v) for k, _, v in (part.partition("=") for part in rel.split("/")[:-1] if "=" in part))
        out.append(ParquetFile(fs.unstrip_protocol(p), rel, keys))
    if not out:
        raise LoadError(f"`{url}` holds no Parquet files (`*.parquet`)", source=str(url))
    return out


def _columns(f: ParquetFile, schema: pa.Schema) -> list[str]:
    return [*schema.names, *(k for k, _ in f.keys if k not in schema.names)]


def hotel_column(f: ParquetFile, names: list[str]) -> str:
    """The column (or hive key) that names the hotel, matched like a sheet's header."""
    found = match_headers(names, RATE_FIELDS, source=f.name, sheet="")
    if "hotel_code" not in found:
        raise LoadError(f"`{f.name}` has no hotel column (`HotelCode` or `hotel_code`): the Dask engine reads "
                        f"and partitions the rates by hotel. Columns found: {', '.join(names) or 'none'}.",
                        source=f.name)
    return names[found["hotel_code"]]


def _open(f: ParquetFile) -> pq.ParquetFile:
    fs, path = filesystem(f.url)
    return pq.ParquetFile(fs.open(path, "rb"))


def _key_value(f: ParquetFile, column: str) -> pa.Scalar | None:
    """The hotel a hive path gives every row of the file (``None`` when the column is in the file)."""
    value = dict(f.keys).get(column)
    if value is None:
        return None
    return pa.scalar(int(value)) if value.lstrip("-").isdigit() else pa.scalar(value)


def scan_hotels(f: ParquetFile) -> FileHotels:
    """The distinct hotels of one file: read from the hive path, else from its hotel column only."""
    pf = _open(f)
    column = hotel_column(f, _columns(f, pf.schema_arrow))
    key = _key_value(f, column)
    if key is not None:
        return FileHotels(f, column, (key.as_py(),), False)
    values = pf.read(columns=[column]).column(column)
    uniques = pc.unique(values.combine_chunks().dictionary_decode() if pa.types.is_dictionary(values.type)
                        else values)
    hotels = tuple(sorted(v for v in uniques.to_pylist() if v is not None))
    return FileHotels(f, column, hotels, bool(values.null_count))


@dataclass(frozen=True)
class FileSlice:
    """The part of one file a partition reads: hotels ``lo``..``hi`` (raw values, inclusive); the
    ``owner`` also reads the rows without a hotel and keeps the file's issues that name no row."""

    file: ParquetFile
    column: str
    lo: object
    hi: object
    owner: bool


def _overlaps(stats: pq.Statistics | None, lo: object, hi: object, owner: bool) -> bool:
    if stats is None or not stats.has_min_max:
        return True
    if owner and stats.has_null_count and stats.null_count:
        return True
    try:
        return not (stats.max < lo or stats.min > hi)
    except TypeError:  # statistics of another type than the hotels: read the row group
        return True


def read_slice(s: FileSlice) -> Loaded:
    """The rows of hotels ``lo``..``hi`` of one file, loaded like a sheet, with the file's provenance."""
    pf = _open(s.file)
    names = pf.schema_arrow.names
    key = _key_value(s.file, s.column)
    position = names.index(s.column) if key is None else -1
    parts: list[Loaded] = []
    offset = 0
    for g in range(pf.num_row_groups):
        meta = pf.metadata.row_group(g)
        stats = meta.column(position).statistics if position >= 0 else None
        if key is not None or _overlaps(stats, s.lo, s.hi, s.owner):
            table = pf.read_row_group(g)
            if key is not None:
                table = table.append_column(s.column, pa.array([key.as_py()] * table.num_rows, type=key.type))
            keep = _wanted(table.column(s.column), s)
            if keep.any():
                parts.append(_load(table, keep, offset, s))
        offset += meta.num_rows
    if not parts and s.owner:  # the file's own issues (its columns) even when no row is this partition's
        parts.append(_load(pf.schema_arrow.empty_table(), np.zeros(0, dtype=bool), 0, s))
    return concat_loaded(parts)


def _wanted(values: pa.ChunkedArray, s: FileSlice) -> np.ndarray:
    if pa.types.is_dictionary(values.type):
        values = values.combine_chunks().dictionary_decode()
    inside = pc.and_(pc.greater_equal(values, pa.scalar(s.lo, type=values.type)),
                     pc.less_equal(values, pa.scalar(s.hi, type=values.type)))
    inside = pc.fill_null(inside, s.owner)  # rows without a hotel: read by the file's owner
    return np.asarray(inside.to_numpy(zero_copy_only=False), dtype=bool)


def _load(table: pa.Table, keep: np.ndarray, offset: int, s: FileSlice) -> Loaded:
    """Rows ``keep`` of a row group read as ``loaders.read_rates`` reads the file, numbered as in the file."""
    idx = np.flatnonzero(keep)
    part = table.take(pa.array(idx, type=pa.int64()))
    rows = offset + idx + FIRST_ROW
    if all(c in part.column_names for c in CANONICAL):  # a canonical rates frame written to Parquet
        loaded = read_rates_frame(part.to_pandas(), 1)
        return relabel(loaded, frame_source(1), s.file.name, rows, keep_unplaced=s.owner)
    frame, issues = read_rates_table(part, s.file.name, rows)
    if not s.owner:  # the file's own issues (about its columns) are reported by the slice that owns it
        issues = issues[(issues["row"].notna() & (issues["row"].astype("Int64") >= FIRST_ROW)).to_numpy()]
    return Loaded(frame, issues.reset_index(drop=True))


def relabel(loaded: Loaded, name: str, source: str, rows: np.ndarray, *, keep_unplaced: bool) -> Loaded:
    """``name`` -> ``source``, and row ``r`` (a sheet's numbering, first row 2) -> ``rows[r - 2]``;
    issues on no row (the columns) kept only when ``keep_unplaced``."""
    frame, issues = loaded

    def renumber(values: pd.Series) -> pd.Series:
        r = values.astype("Int64")
        pos = (r - 2).to_numpy(dtype="float64", na_value=np.nan)
        ok = ~np.isnan(pos) & (pos >= 0) & (pos < len(rows))
        out = pd.array([pd.NA] * len(r), dtype="Int64")
        out[ok] = rows[pos[ok].astype(np.int64)]
        return pd.Series(out, index=values.index)

    headers = {(source if s == name else s, sh): h for (s, sh), h in frame.attrs.get("headers", {}).items()}
    unread = unread_rows(frame)
    frame = frame.assign(source=frame["source"].replace(name, source).astype("string"),
                         row=renumber(frame["row"]).astype(frame["row"].dtype))
    frame.attrs["headers"] = headers
    if unread is not None:
        attach_unread(frame, unread.assign(source=unread["source"].replace(name, source).astype("string"),
                                           row=renumber(unread["row"]).astype(unread["row"].dtype)))
    issues = issues.copy()
    placed = issues["row"].notna() & (issues["row"].astype("Int64") >= 2)
    issues["row"] = renumber(issues["row"]).where(placed, pd.NA).astype("Int64")
    if not keep_unplaced:
        issues = issues[placed.to_numpy()]
    issues["source"] = issues["source"].replace(name, source).astype("string")
    issues["message"] = issues["message"].astype(str).str.replace(name, source, regex=False).astype("string")
    return Loaded(frame, issues.reset_index(drop=True))


def concat_loaded(parts: list[Loaded]) -> Loaded:
    """Loaded parts as one (the frames in order, their headers and unread rows kept)."""
    if not parts:
        return Loaded(empty_rates_frame(), combine([]))
    if len(parts) == 1:
        return parts[0]
    headers = {k: v for f, _ in parts for k, v in f.attrs.get("headers", {}).items()}
    unread = [u for f, _ in parts if (u := unread_rows(f)) is not None and len(u)]
    frame = pd.concat([f for f, _ in parts], ignore_index=True).astype(RATES_COLUMNS)
    frame.attrs["headers"] = headers
    if unread:
        attach_unread(frame, pd.concat(unread, ignore_index=True))
    return Loaded(frame, combine([i for _, i in parts]))
