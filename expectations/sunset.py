"""What the platform no longer takes, refused on the analyst's cell before anything is sent.

The facts (which elements are gone, since when, what to do instead) are plain arguments: the
workbench's operation catalogue gives them (``workbench.transport.operations.gone_elements``), and
this package knows nothing of the workbench. ``rule`` of every issue here: :data:`RULE`.

>>> gone = [GoneElement("AreaInfo/Attractions", dt.date(2023, 6, 30), "leave these rows out")]
>>> sunset_content(parts, gone)      # one error per row of the Attractions sheet, on its first filled cell
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from loaders.content_schema import KEY_FIELDS, PART_FIELDS
from loaders.issues import combine, empty_issues, issues_where

RULE = "sunset_element"


@dataclass(frozen=True)
class GoneElement:
    """An element of the content message (a path under ``HotelDescriptiveContent``, e.g.
    ``AreaInfo/Attractions``) the platform refuses since ``sunset``; ``instead``: what to do."""

    path: str
    sunset: dt.date
    instead: str

    def covers(self, path: str) -> bool:
        """``path`` (a column's OTA path) is this element or inside it."""
        return path == self.path or path.startswith((self.path + "/", self.path + "@"))


def sunset_content(parts: Mapping[str, pd.DataFrame], gone: Iterable[GoneElement]) -> pd.DataFrame:
    """An error for each row that would put a gone element into the message: on the row's first filled
    cell inside it (a sheet made only of such columns, e.g. ``Attractions``: every row, filled or not)."""
    found = []
    gone = list(gone)
    keys = {f.name for f in KEY_FIELDS}
    for part, frame in parts.items():
        own = [f for f in PART_FIELDS.get(part, ()) if f.name not in keys and f.name in frame]
        columns = [(f, g) for f in own for g in gone if g.covers(f.path)]
        if not columns or not len(frame):
            continue
        filled = np.column_stack([_filled(frame[f.name]) for f, _ in columns])
        whole = len({f.name for f, _ in columns}) == len(own)  # nothing of the sheet is still taken
        first = np.where(filled.any(axis=1), filled.argmax(axis=1), 0 if whole else -1)
        headers = frame.attrs.get("headers", {})
        for at, (f, element) in enumerate(columns):
            mask = first == at
            if not mask.any():
                continue
            sub = frame[mask]
            names = pd.Series([headers.get((s, sh), {}).get(f.name, f.field.ota)
                               for s, sh in zip(sub["source"], sub["sheet"], strict=True)], index=sub.index)
            found.append(issues_where(
                frame, mask, column=names, value=sub[f.name].map(_text), rule=RULE, severity="error",
                message=f"`{element.path}` was sunset on {element.sunset:%Y-%m-%d} and the platform refuses it: use "
                        f"{element.instead}"))
    return combine(found) if found else empty_issues()


def _filled(column: pd.Series) -> np.ndarray:
    if column.dtype == object:
        return np.array([not (v is None or (isinstance(v, float) and np.isnan(v)) or v == [] or v == "")
                         for v in column.tolist()], dtype=bool)
    return column.notna().to_numpy(dtype=bool)


def _text(v: object) -> str:
    if isinstance(v, list):
        return "; ".join(map(str, v))
    return "" if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)) else str(v)
