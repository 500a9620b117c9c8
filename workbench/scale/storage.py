"""Files of a cluster run, addressed by fsspec URLs: a local path, ``file://``, ``s3://``, ``gs://``...

Every worker and the client open the same URLs, so on a real cluster the folders are on shared or
object storage; on one machine a local path works.
"""

from __future__ import annotations

import io
import posixpath
from collections.abc import Iterable
from pathlib import Path

import fsspec
import pandas as pd
from fsspec import AbstractFileSystem


def filesystem(url: str) -> tuple[AbstractFileSystem, str]:
    """The filesystem of ``url`` and the path in it."""
    fs, path = fsspec.core.url_to_fs(str(url))
    return fs, path


def absolute(url: str | Path) -> str:
    """``url`` as every process reads it alike: a local path made absolute (the workers' working
    folder is not the client's), any other URL as given."""
    text = str(url)
    return text if "://" in text else str(Path(text).absolute())


def join(url: str, *parts: str) -> str:
    """``url`` with ``parts`` appended (``s3://b/out`` + ``issues`` -> ``s3://b/out/issues``)."""
    return posixpath.join(str(url).rstrip("/"), *parts)


def write_bytes(url: str, data: bytes) -> None:
    fs, path = filesystem(url)
    fs.makedirs(posixpath.dirname(path) or ".", exist_ok=True)
    with fs.open(path, "wb") as f:
        f.write(data)


def write_files(folder: str, files: Iterable[tuple[str, bytes]]) -> None:
    """Write each ``(name, data)`` into ``folder`` with one call to the filesystem (fsspec's ``pipe``:
    object stores send them concurrently; a local folder is looked up and made once)."""
    fs, path = filesystem(folder)
    fs.makedirs(path, exist_ok=True)
    fs.pipe({posixpath.join(path, name): data for name, data in files})


def write_parquet(frame: pd.DataFrame, url: str) -> None:
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    write_bytes(url, buffer.getvalue())


def read_parquet_parts(url: str) -> pd.DataFrame | None:
    """The ``part-*.parquet`` files under ``url`` in name order, as one frame (``None``: there are none)."""
    fs, path = filesystem(url)
    if not fs.isdir(path):
        return None
    names = sorted(p for p in fs.ls(path, detail=False) if posixpath.basename(p).startswith("part-"))
    frames = []
    for name in names:
        with fs.open(name, "rb") as f:
            frames.append(pd.read_parquet(f))
    return pd.concat(frames, ignore_index=True) if frames else None


def clear(url: str, pattern: str) -> None:
    """Remove the files of folder ``url`` matching ``pattern`` (``*.xml``), and nothing else."""
    fs, path = filesystem(url)
    if fs.isdir(path):
        old = fs.glob(posixpath.join(path, pattern))
        if old:
            fs.rm(old)


def remove_tree(url: str) -> None:
    fs, path = filesystem(url)
    if fs.exists(path):
        fs.rm(path, recursive=True)


def remove(urls: list[str]) -> None:
    if not urls:
        return
    fs, _ = filesystem(urls[0])
    fs.rm([filesystem(u)[1] for u in urls])


def describe_parts(parts: str, metadata: dict[bytes, bytes]) -> int:
    """Make the ``part-*.parquet`` files under ``parts`` one dataset with ``metadata``: its schema (the
    first part's) and ``metadata`` go into ``parts/_common_metadata``, which readers use and skip as
    data. Nothing is copied (the client never holds the cells). Returns the number of parts."""
    import pyarrow.parquet as pq

    fs, path = filesystem(parts)
    names = sorted(p for p in fs.ls(path, detail=False) if posixpath.basename(p).startswith("part-")) \
        if fs.isdir(path) else []
    if not names:
        return 0
    with fs.open(names[0], "rb") as f:
        schema = pq.read_schema(f)
    schema = schema.with_metadata({**(schema.metadata or {}), **metadata})
    with fs.open(posixpath.join(path, "_common_metadata"), "wb") as out:
        pq.write_metadata(schema, out)
    return len(names)
