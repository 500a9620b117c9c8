"""A folder of rate requests built in one place and sent from another (``push rates --dry-run DIR``,
then ``push requests DIR``).

What the folder holds:

- ``<hotel>-<YYYY-MM>.xml``: one ``OTA_HotelRateAmountNotifRQ`` each, as it will be sent;
- ``manifest.csv``: one row per request: ``file, hotel, month, messages, cells, source_rows``, then the
  columns every kind's folder has (:mod:`workbench.writers.folder`): ``kind`` (``rates``), ``operation``,
  ``key``, ``property``, ``what``, ``items`` and ``sha256`` (of the file: a request edited after it was
  written is refused, so what the journal records is what is sent);
- ``cells.parquet``: every price the requests carry, in the canonical rates columns plus ``file``
  (its request) and ``locator`` (the ``LocatorID`` of the message carrying it), with the sheets'
  header names in the file's metadata. The Dask engine writes it as a folder of parts (a Parquet
  dataset, one part per partition, the header names in its ``_common_metadata``): read the same way. A sender journals these exactly as ``push rates`` does,
  so answers are traced to the spreadsheet rows and the accepted prices feed later deltas.

``source_rows`` is computed for every request at once (one sort over the cells, the row ranges
found with numpy), not by rescanning the cells per request.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from workbench.errors import InputError
from workbench.wording import agree, count
from workbench.writers.batches import RateRequest, cell_locators, iter_requests
from workbench.writers.compress import compress
from workbench.writers.journal_cells import body_hash

MANIFEST = "manifest.csv"
CELLS = "cells.parquet"
MANIFEST_COLUMNS = ["file", "hotel", "month", "messages", "cells", "source_rows", "kind", "operation", "key",
                    "property", "what", "items", "sha256"]
OPERATION = "OTA_HotelRateAmountNotif"
#: the canonical columns ``cells.parquet`` keeps (what the journal needs of each price, and where it came from)
CELL_COLUMNS = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "number_of_guests", "amount_type",
                "amount_minor", "amount_scale", "decimal_places", "currency_code", "source", "sheet", "row",
                "amount_column"]
HEADERS_KEY = b"workbench.headers"


@dataclass
class RequestFolder:
    """A folder's requests (in manifest order) and, for each, the cells it carries."""

    directory: Path
    manifest: pd.DataFrame
    requests: list[RateRequest]
    cells: pd.DataFrame                       # CELL_COLUMNS + file, month, locator; sorted by file
    spans: dict[str, tuple[int, int]]         # file -> rows of ``cells``
    headers: dict[tuple[str, str], dict[str, str]]


def folder_requests(frame: pd.DataFrame, spelling: str = "ota",
                    timestamp: dt.datetime | None = None) -> tuple[Iterator[RateRequest], pd.DataFrame]:
    """The requests for ``frame`` (canonical rates rows to send), built one by one as they are taken (so
    writing them, and ``cells.parquet``, can go on meanwhile: :func:`write_folder`), and its cells with
    ``file``, ``month`` and ``locator`` (what ``cells.parquet`` holds). ``timestamp``: the requests'
    ``TimeStamp`` (default now)."""
    if frame.empty:
        return iter(()), pd.DataFrame(columns=[*CELL_COLUMNS, "file", "month", "locator"])
    f = frame.reset_index(drop=True)
    compressed = compress(f)
    requests = iter_requests(compressed, timestamp=timestamp or dt.datetime.now(dt.UTC), spelling=spelling)
    cells = f[CELL_COLUMNS].copy()
    # the request of each cell, named once per request (not a million string joins)
    request, names = pd.factorize(pd.Series(f["hotel_code"].to_numpy(dtype=np.int64) * 1_000_000
                                            + f["date"].to_numpy("datetime64[M]").astype(np.int64)))
    hotels, months = np.divmod(np.asarray(names, dtype=np.int64), 1_000_000)
    month_text = pd.DatetimeIndex(months.astype("datetime64[M]")).strftime("%Y-%m")
    cells["month"] = month_text.to_numpy()[request]
    cells["locator"] = cell_locators(compressed)
    cells["file"] = pd.Categorical.from_codes(request, [f"{h}-{m}.xml" for h, m in zip(hotels, month_text,
                                                                                         strict=True)])
    cells.attrs["headers"] = frame.attrs.get("headers", {})
    return requests, cells


def plan_folder(frame: pd.DataFrame, spelling: str = "ota",
                timestamp: dt.datetime | None = None) -> tuple[list[RateRequest], pd.DataFrame]:
    """:func:`folder_requests` with the requests built at once, as a list (its older name)."""
    requests, cells = folder_requests(frame, spelling, timestamp)
    return list(requests), cells


def source_rows(cells: pd.DataFrame) -> pd.Series:
    """Per request ``file``: ``rates.xlsx Amsterdam 2-91; prices.csv 2-14`` (sources and sheets
    sorted, each one's rows as ranges) - for every request in one pass: integer codes, one sort,
    the ranges found with numpy; text is made only for the ranges."""
    if cells.empty:
        return pd.Series(dtype=object)
    file_code, files = pd.factorize(cells["file"], sort=True)
    src_code, sources = _sorted_codes(cells["source"])
    sheet_code, sheets = _sorted_codes(cells["sheet"])
    group = (file_code.astype(np.int64) * len(sources) + src_code) * len(sheets) + sheet_code
    rows = cells["row"].to_numpy(dtype=np.int64)
    order = np.lexsort((rows, group))
    group, rows = group[order], rows[order]
    keep = np.ones(len(rows), dtype=bool)
    keep[1:] = (group[1:] != group[:-1]) | (rows[1:] != rows[:-1])  # a row's other nights and guests
    group, rows = group[keep], rows[keep]
    new = np.ones(len(rows), dtype=bool)
    new[1:] = (group[1:] != group[:-1]) | (rows[1:] != rows[:-1] + 1)
    starts = np.flatnonzero(new)
    stops = np.append(starts[1:], len(rows)) - 1
    first, last = rows[starts], rows[stops]
    text = np.where(first == last, first.astype(str),
                    np.char.add(np.char.add(first.astype(str), "-"), last.astype(str)))
    # the ranges are sorted by file, source, sheet: join them in one walk (a few per request)
    by_file: dict[int, list[str]] = {}
    sheet_ranges: list[str] = []
    gs = group[starts].tolist()
    for i, (g, t) in enumerate(zip(gs, text.tolist(), strict=True)):
        sheet_ranges.append(t)
        if i + 1 == len(gs) or gs[i + 1] != g:
            rest, sheet = divmod(g, len(sheets))
            file, source = divmod(rest, len(sources))
            label = f"{sources[source]} {sheets[sheet]}" if sheets[sheet] else str(sources[source])
            by_file.setdefault(file, []).append(f"{label} {','.join(sheet_ranges)}")
            sheet_ranges = []
    return pd.Series({str(files[f]): "; ".join(parts) for f, parts in by_file.items()}, dtype=object)


def _sorted_codes(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Codes of a column of texts (missing: ``''``) and its distinct texts, sorted. A categorical's own codes
    are renumbered (its few categories sorted, not its million values turned into texts); other columns go
    through Arrow's hashing."""
    if not isinstance(column.dtype, pd.CategoricalDtype):
        codes, uniques = pd.factorize(column.astype("string").fillna(""), sort=True)
        return codes, np.asarray(uniques, dtype=object)
    texts = np.array([str(c) for c in column.cat.categories] + [""], dtype=object)  # the last: missing
    codes = column.cat.codes.to_numpy().astype(np.int64)
    codes[codes < 0] = len(texts) - 1
    used = np.flatnonzero(np.bincount(codes, minlength=len(texts)))  # the codes used, sorted: no hashing
    distinct, rank_of_used = np.unique(texts[used].astype(str), return_inverse=True)  # sorted; a missing and a '' one
    rank = np.zeros(len(texts), dtype=np.int64)
    rank[used] = rank_of_used
    return rank[codes], distinct.astype(object)


def manifest(requests: list[RateRequest], cells: pd.DataFrame, rows: pd.Series | None = None,
             hashes: list[str] | None = None, *, kind: str = "rates", operation: str = OPERATION) -> pd.DataFrame:
    """``manifest.csv``: one row per request (``rows``: :func:`source_rows` of ``cells`` if known;
    ``hashes``: the SHA-256 of each body, computed here if not given; ``kind`` and ``operation``: an
    availability folder's are ``availability`` and ``OTA_HotelAvailNotif``)."""
    files = [f"{r.key}.xml" for r in requests]
    rows = source_rows(cells) if rows is None else rows
    return pd.DataFrame({
        "file": files, "hotel": [r.hotel_code for r in requests], "month": [r.month for r in requests],
        "messages": [r.messages for r in requests], "cells": [r.cells for r in requests],
        "source_rows": rows.reindex(files).fillna("").to_numpy() if len(files) else [],
        "kind": kind, "operation": operation, "key": [r.key for r in requests],
        "property": [str(r.hotel_code) for r in requests], "what": [r.month for r in requests],
        "items": [r.cells for r in requests],
        "sha256": hashes if hashes is not None else [body_hash(r.body) for r in requests],
    }, columns=MANIFEST_COLUMNS)


def write_folder(directory: str | Path, requests: Iterable[RateRequest], cells: pd.DataFrame, *, kind: str = "rates",
                 operation: str = OPERATION) -> tuple[list[RateRequest], pd.DataFrame]:
    """Write the requests, ``manifest.csv`` and ``cells.parquet``; returns the requests written and
    the manifest. ``requests`` may be built as they are taken (:func:`folder_plan`); ``kind`` and
    ``operation`` name them in the manifest (availability writes its folders here too).

    Writing into a folder written before: its ``manifest.csv`` and ``cells.parquet`` go first (an
    interrupted write leaves a folder ``push requests`` refuses, never old and new requests under one
    manifest); request files of the same name are overwritten in place and the old ones no longer
    wanted are removed at the end. (Removing thousands of files and creating as many at once costs
    ext4 ~0.5 ms of kernel time per new file for minutes: it skips recently freed inodes; measured
    0.15 s -> 1.8 s for 3,900 files.)

    The request files are written by this thread, one after the other (thousands of small writes from
    several threads fight over the interpreter: 4 threads 0.48 s, one 0.23 s), while a second thread
    writes ``cells.parquet`` (Arrow's encoder runs without the interpreter) and finds the source rows."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for stale in (out / MANIFEST, out / CELLS):
        stale.unlink(missing_ok=True)
    old = {p.name for p in out.glob("*.xml")}
    written, hashes = [], []
    with ThreadPoolExecutor(1) as beside:  # Arrow's encoder leaves the interpreter to the XML meanwhile
        rows = beside.submit(_write_cells, out, cells)
        for r in requests:
            name = f"{r.key}.xml"
            (out / name).write_bytes(r.body)
            old.discard(name)
            written.append(r)
            hashes.append(body_hash(r.body))
        for name in old:
            (out / name).unlink()
        listed = manifest(written, cells, rows.result(), hashes, kind=kind, operation=operation)
    listed.to_csv(out / MANIFEST, index=False)
    return written, listed


#: integer columns of ``cells.parquet`` written as deltas, not through a dictionary
DELTA_COLUMNS = ("row", "locator")


def _write_cells(out: Path, cells: pd.DataFrame) -> pd.Series:
    """``cells.parquet`` (the sheets' header names in its metadata), then each request's source rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    plain = cells.reset_index(drop=True)
    plain.attrs = {}  # the headers go into the file's metadata below (pandas cannot keep tuple keys)
    table = pa.Table.from_pandas(plain, preserve_index=False)
    headers = [[s, h, dict(v)] for (s, h), v in cells.attrs.get("headers", {}).items()]
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           HEADERS_KEY: json.dumps(headers).encode("utf-8")})
    # no column statistics: the file is read whole (``read_folder``), never filtered by them, and
    # computing min/max of a million texts was half the writing (1M values: 0.18 -> 0.09 s CPU)
    # sheet rows and locators count up along the file: deltas of them are a few bits each, where a dictionary
    # of 400,000 rows is built only to be thrown away (1M values: 0.092 -> 0.077 s CPU, 5.0 -> 0.7 MB)
    counting = [n for n in DELTA_COLUMNS if n in table.column_names and pa.types.is_integer(table.schema.field(n).type)]
    pq.write_table(table, out / CELLS, write_statistics=False,
                   use_dictionary=[n for n in table.column_names if n not in counting],
                   column_encoding=dict.fromkeys(counting, "DELTA_BINARY_PACKED") or None)
    return source_rows(cells)


def read_folder(directory: str | Path) -> RequestFolder:
    """Read a folder written by :func:`write_folder`; :class:`~workbench.errors.InputError` says
    what is missing or does not agree (a request file, a manifest row, the cells)."""
    import pyarrow.parquet as pq

    out = Path(directory)
    if not out.is_dir():
        raise InputError(f"`{out}` is not a folder of requests: give the folder `push rates --dry-run DIR` wrote.")
    if not (out / MANIFEST).is_file():
        raise InputError(f"`{out}` has no {MANIFEST}: give the folder `push rates --dry-run DIR` wrote.")
    try:
        listed = pd.read_csv(out / MANIFEST, dtype={"file": str, "month": str, "source_rows": str, "key": str,
                                                    "property": str, "what": str, "sha256": str},
                             keep_default_na=False)
    except (ValueError, OSError) as exc:
        raise InputError(f"`{out / MANIFEST}` cannot be read ({exc}).") from None
    missing = [c for c in MANIFEST_COLUMNS if c not in listed.columns]
    if missing:
        raise InputError(f"`{out / MANIFEST}` lacks the {agree(len(missing), 'column')} "
                         f"{', '.join(f'`{c}`' for c in missing)}: "
                         "write the folder again with `push rates --dry-run`.")
    if not (out / CELLS).exists():
        raise InputError(f"`{out}` has no {CELLS} (the prices each request carries, which the journal needs): "
                         "write the folder again with `push rates --dry-run`.")
    table = pq.read_table(out / CELLS)
    described = out / CELLS / "_common_metadata"  # a folder of parts (the Dask engine) says it there
    schema = pq.read_schema(described) if described.is_file() else table.schema
    raw_headers = (schema.metadata or {}).get(HEADERS_KEY, b"[]")
    headers = {(s, h): v for s, h, v in json.loads(raw_headers)}
    cells = table.to_pandas()
    cells = cells.sort_values("file", kind="stable").reset_index(drop=True)
    files = cells["file"].to_numpy()
    bounds = np.flatnonzero(np.r_[True, files[1:] != files[:-1]]) if len(files) else np.zeros(0, dtype=int)
    stops = np.append(bounds[1:], len(files)) if len(files) else bounds
    spans = {str(files[a]): (int(a), int(b)) for a, b in zip(bounds, stops, strict=True)}
    requests = []
    for row in listed.itertuples(index=False):
        path = out / str(row.file)
        if not path.is_file():
            raise InputError(f"`{out / MANIFEST}` lists `{row.file}`, which is not in the folder: write the folder "
                             "again with `push rates --dry-run`.")
        span = spans.get(str(row.file))
        if span is None or span[1] - span[0] != int(row.cells):
            have = 0 if span is None else span[1] - span[0]
            raise InputError(f"`{row.file}`: the manifest says {count(int(row.cells), 'price')}, {CELLS} holds {have:,}: "
                             "the folder was changed after it was written; write it again with "
                             "`push rates --dry-run`.")
        body = path.read_bytes()
        if body_hash(body) != str(row.sha256):
            raise InputError(f"`{path}` was changed after it was written (its SHA-256 is not the one in "
                             f"{MANIFEST}): the journal records the prices of {CELLS}, so an edited request would "
                             "be recorded as what it no longer says. Change the spreadsheet instead and write the "
                             "folder again with `push rates --dry-run`.")
        requests.append(RateRequest(int(row.hotel), str(row.month), body, int(row.messages), int(row.cells), cells,
                                    span))
    return RequestFolder(out, listed, requests, cells, spans, headers)
