"""``fetch content --api modular``: properties read back through the modular APIs' ``GET`` calls into the content
workbook's layout (one sheet per part, the OTA headers ``loaders.read_content`` reads), so the analyst's workbook
round-trips: what comes back is equal on every cell the APIs keep (``workbench.modular.content.NOT_KEPT`` says
which they do not, and why).

>>> from workbench import fetch_content_modular, write_content_workbook
>>> frames = fetch_content_modular(settings, [1000004, 1000006])
>>> write_content_workbook(frames, "fetched.xlsx")
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from loaders.content_schema import KEY_FIELDS, PARTS, fields_of
from workbench.config import Settings
from workbench.modular.content import content_from_answers
from workbench.modular.meta import ModularMeta
from workbench.platform import DEFAULT_CACHE, LookupCache, fetch_modular_meta, read_properties

PathLike = str | Path
__all__ = ["fetch_content_modular", "write_content_workbook"]


def fetch_content_modular(settings: Settings, hotels: Iterable[int], *, client: Any | None = None,
                          meta: ModularMeta | None = None, cache: PathLike | LookupCache | None = None
                          ) -> dict[str, pd.DataFrame]:
    """The content frames (``loaders.read_content``'s layout) of each property, read with ``GET`` (details,
    settings, contacts, facilities, charges); :class:`~workbench.errors.PlatformReadError` when a read fails."""
    from workbench.transport import SyncPlatformClient

    sync = client if client is not None else SyncPlatformClient(settings)
    try:
        if meta is None:
            store = cache if isinstance(cache, LookupCache) else LookupCache(Path(cache) if cache else DEFAULT_CACHE)
            meta = fetch_modular_meta(sync, store, (settings.base_url or "").rstrip("/"))
        codes = [int(h) for h in dict.fromkeys(hotels)]
        reads = read_properties(sync, codes)
    finally:
        if client is None:
            sync.close()
    reads.raise_failed("reading the properties back failed")
    answers = []
    for pid in codes:
        details = reads.data.get((pid, "details")) or {}
        custom = details.get("provider_property_id") if isinstance(details, Mapping) else None
        answers.append(reads.answers(pid, {"hotel_code": pid, "custom_id": custom}))
    return content_from_answers(answers, meta, source=settings.base_url or "platform")


def _cell(value: object, kind: str) -> object:
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value) or None
    if value is None or value is pd.NA or (isinstance(value, float) and pd.isna(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.date()
    if kind in ("int", "flag") and isinstance(value, float) and value.is_integer():
        return int(value)
    return value.item() if hasattr(value, "item") else value


def write_content_workbook(frames: Mapping[str, pd.DataFrame], path: PathLike) -> Path:
    """The frames as a content workbook: one sheet per part with rows (``HotelCode``, ``ID``, then the part's
    columns under their OTA headers), as ``loaders.read_content`` reads it back. Never writes over a file that
    exists (a workbook given as input stays as it is)."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    out = Path(path)
    if out.exists():
        raise FileExistsError(f"`{out}` exists: give a new file name (a fetched workbook never overwrites one)")
    wb = Workbook()
    wb.remove(wb.active)
    for part in PARTS:
        frame = frames.get(part)
        if frame is None or frame.empty:
            continue
        fields = [*KEY_FIELDS, *(f for f in fields_of(part) if f.name not in ("hotel_code", "custom_id"))]
        used = [f for f in fields if f.name in frame and frame[f.name].map(
            lambda v: _cell(v, "str") is not None).any()]
        ws = wb.create_sheet(part)
        ws.append([f.field.ota for f in used])
        for cell in ws[1]:
            cell.font = Font(bold=True)
        for row in frame.to_dict("records"):
            ws.append([_cell(row.get(f.name), f.kind) for f in used])
        ws.freeze_panes = "A2"
    out.parent.mkdir(parents=True, exist_ok=True)
    wb.save(out)
    return out
