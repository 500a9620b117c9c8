"""The dry-run folder every kind of data writes (``push <kind> --dry-run DIR``) and ``push requests DIR``
sends: the request files as they will be sent, ``manifest.csv`` and what the kind adds for people.

``manifest.csv`` has one row per request: its ``file``, the kind's own columns (rates: ``hotel, month,
messages, cells``; rooms: the room type; content: the property), then the columns every folder has
(:data:`MANIFEST_COLUMNS`): ``kind``, ``operation``, ``key``, ``property``, ``what``, ``messages``,
``items``, ``creates`` (the reference a create is for: a create is never sent twice), ``sha256`` of the
file and ``source_rows``. The state a request establishes is what its body says: rates keep their
cells in ``cells.parquet`` (:mod:`workbench.writers.request_folder`); every other kind reads it back
from the request itself when it is sent. A request file edited after it was written no longer has
the manifest's SHA-256 and is refused, so what the journal records is what is sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from workbench.errors import InputError
from workbench.wording import agree
from workbench.writers.journal_cells import body_hash
from workbench.writers.planned import Planned

MANIFEST = "manifest.csv"
MANIFEST_COLUMNS = ["kind", "operation", "key", "property", "what", "messages", "items", "creates", "sha256",
                    "source_rows"]
TEXT_COLUMNS = {c: str for c in ("file", "kind", "operation", "key", "property", "what", "creates", "sha256",
                                 "source_rows")}


@dataclass
class Folder:
    """A dry-run folder read back: its kind, its manifest and each request's body (manifest order)."""

    directory: Path
    kind: str
    manifest: pd.DataFrame
    bodies: list[bytes]


def write_requests(directory: str | Path, planned: Sequence[Planned], names: Sequence[str],
                   own: pd.DataFrame | None = None, tables: Mapping[str, pd.DataFrame] | None = None) -> pd.DataFrame:
    """Write each request under its name, ``manifest.csv`` (``own``: the kind's columns, one row per
    request, after ``file``) and ``tables`` (name -> frame, e.g. ``parts.csv``); request files of an
    earlier dry run into the same folder are removed first. Returns the manifest."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    (out / MANIFEST).unlink(missing_ok=True)  # an interrupted write leaves a folder `push requests` refuses
    for old in (*out.glob("*.xml"), *out.glob("*.json")):  # the request files of every kind (XML, JSON)
        old.unlink()
    for name, p in zip(names, planned, strict=True):
        (out / name).write_bytes(p.body)
    shared = pd.DataFrame({
        "kind": [p.kind for p in planned], "operation": [p.operation for p in planned],
        "key": [p.key for p in planned], "property": [p.property for p in planned],
        "what": [p.what for p in planned], "messages": [p.messages for p in planned],
        "items": [p.items for p in planned], "creates": [p.creates or "" for p in planned],
        "sha256": [body_hash(p.body) for p in planned],
        "source_rows": [p.extra.get("source_rows") or p.source_rows() for p in planned]}, columns=MANIFEST_COLUMNS)
    own = own.reset_index(drop=True) if own is not None else pd.DataFrame(index=range(len(planned)))
    own = own.drop(columns=[c for c in own.columns if c in MANIFEST_COLUMNS or c == "file"])
    manifest = pd.concat([pd.DataFrame({"file": list(names)}), own, shared], axis=1)
    for name, frame in (tables or {}).items():
        frame.to_csv(out / name, index=False)
    manifest.to_csv(out / MANIFEST, index=False)
    return manifest


def folder_kind(directory: str | Path) -> str:
    """The kind of data a dry-run folder holds (``rates`` for a folder written before kinds were named)."""
    out = Path(directory)
    manifest = out / MANIFEST
    if not out.is_dir():
        raise InputError(f"`{out}` is not a folder of requests: give the folder a `push ... --dry-run DIR` wrote.")
    if not manifest.is_file():
        raise InputError(f"`{out}` has no {MANIFEST}: give the folder a `push ... --dry-run DIR` wrote.")
    try:
        head = pd.read_csv(manifest, nrows=1, dtype=str, keep_default_na=False)
    except (ValueError, OSError) as exc:
        raise InputError(f"`{manifest}` cannot be read ({exc}).") from None
    if "kind" not in head.columns:
        return "rates"
    return str(head["kind"].iloc[0]) if len(head) else "rates"


def read_requests(directory: str | Path) -> Folder:
    """Read a folder :func:`write_requests` wrote; :class:`~workbench.errors.InputError` says what is
    missing, or which request was changed after it was written."""
    out = Path(directory)
    kind = folder_kind(out)
    manifest = pd.read_csv(out / MANIFEST, dtype=TEXT_COLUMNS, keep_default_na=False)
    missing = [c for c in ["file", *MANIFEST_COLUMNS] if c not in manifest.columns]
    if missing:
        raise InputError(f"`{out / MANIFEST}` lacks the {agree(len(missing), 'column')} "
                         f"{', '.join(f'`{c}`' for c in missing)}: write the "
                         f"folder again with `push {kind} --dry-run`.")
    bodies = []
    for row in manifest.itertuples(index=False):
        path = out / str(row.file)
        if not path.is_file():
            raise InputError(f"`{out / MANIFEST}` lists `{row.file}`, which is not in the folder: write the folder "
                             f"again with `push {kind} --dry-run`.")
        body = path.read_bytes()
        if body_hash(body) != str(row.sha256):
            raise InputError(f"`{path}` was changed after it was written (its SHA-256 is not the one in {MANIFEST}): "
                             "what is sent must be what was checked. Change the workbook instead and write the folder "
                             f"again with `push {kind} --dry-run`.")
        bodies.append(body)
    return Folder(out, kind, manifest, bodies)
