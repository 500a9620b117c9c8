"""Sources -> partitions of hotels: groups of ``size`` hotels in hotel order.

Parquet sources are scanned by the workers (one task per file reads only its hotel column, or
nothing for a hive path such as ``hotel_code=5/``) and each partition then reads, on a worker,
the slices of the files that hold its hotels. CSV/Excel sources are read by the client (the
loader reads a workbook whole) and split by hotel before they are sent.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from loaders import Loaded, LoadError
from loaders.unread import attach_unread, unread_rows
from workbench.scale.parquet import FileHotels, FileSlice
from workbench.scale.pipeline import Partition

DEFAULT_SIZE = 100  # hotels per partition: ~10^6 cells at 10^4 cells per hotel


def chunk(hotels: list, size: int) -> list[list]:
    """Sorted distinct ``hotels`` in groups of ``size``."""
    return [hotels[i:i + size] for i in range(0, len(hotels), size)]


def parquet_partitions(scans: list[FileHotels], size: int) -> list[Partition]:
    """Partitions over scanned Parquet files: each reads, from every file holding some of its hotels,
    the rows of its hotel range; a file's rows without a hotel go to the partition of its first hotel
    (the first partition when it has none)."""
    kinds = {type(h).__name__ for s in scans for h in s.hotels}
    if len(kinds) > 1:
        raise LoadError(f"the hotel columns hold {' and '.join(sorted(kinds))} values in different files; give every "
                        "file the same type of `HotelCode`", source=scans[0].file.name)
    groups = chunk(sorted({h for s in scans for h in s.hotels}), size) or [[]]
    firsts = [g[0] for g in groups if g]
    parts = []
    for number, group in enumerate(groups):
        slices = []
        for s in scans:
            owner = _owner(s, firsts) == number
            inside = [h for h in s.hotels if group and group[0] <= h <= group[-1]]
            if inside or owner:
                lo, hi = (group[0], group[-1]) if group else (None, None)
                slices.append(FileSlice(s.file, s.column, lo, hi, owner))
        parts.append(Partition(number, tuple(slices)))
    return parts


def _owner(scan: FileHotels, firsts: list) -> int:
    if not scan.hotels or not firsts:
        return 0
    return max(0, int(np.searchsorted(np.asarray(firsts, dtype=object), scan.hotels[0], side="right")) - 1)


def frame_partitions(loaded: Loaded, size: int) -> list[Partition]:
    """Partitions of rows the client read: each hotel's rows (in file order) and its loader issues;
    rows and issues that name no hotel go to the first partition."""
    frame, issues = loaded
    unread = unread_rows(frame)
    hotels = pd.concat([frame["hotel_code"], unread["hotel_code"] if unread is not None else frame["hotel_code"][:0]])
    groups = chunk(sorted(int(h) for h in hotels.dropna().unique()), size) or [[]]
    number_of = {h: i for i, g in enumerate(groups) for h in g}
    row_part = _numbers(frame, number_of)
    unread_part = _numbers(unread, number_of) if unread is not None else None
    where = pd.concat([frame[["source", "sheet", "row"]].assign(part=row_part)]
                      + ([unread[["source", "sheet", "row"]].assign(part=unread_part)] if unread is not None else []),
                      ignore_index=True).astype({"source": "string", "sheet": "string", "row": "Int64"})
    where = where.drop_duplicates(["source", "sheet", "row"])
    issue_part = issues[["source", "sheet", "row"]].astype({"source": "string", "sheet": "string", "row": "Int64"}) \
        .merge(where, how="left", on=["source", "sheet", "row"])["part"].fillna(0).to_numpy(dtype=np.int64)
    parts = []
    for number in range(len(groups)):
        rows = frame[row_part == number].reset_index(drop=True)
        rows.attrs = {"headers": frame.attrs.get("headers", {})}
        if unread is not None and unread_part is not None and (unread_part == number).any():
            attach_unread(rows, unread[unread_part == number])
        parts.append(Partition(number, loaded=Loaded(rows, issues[issue_part == number].reset_index(drop=True))))
    return parts


def _numbers(frame: pd.DataFrame, number_of: dict[int, int]) -> np.ndarray:
    """The partition of each row: its hotel's, 0 for a row without one."""
    return frame["hotel_code"].map(number_of).fillna(0).to_numpy(dtype=np.int64)
