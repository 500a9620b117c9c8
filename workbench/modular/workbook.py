"""The analyst's content workbook, one property at a time: its rows by part and the cell of any value.

The frames are ``loaders.read_content``'s (``loaders.content_schema``): each row carries its provenance
(``source``, ``sheet``, ``row``) and the frames' ``attrs["headers"]`` give the header text each sheet used
for each column, so a cell is named the way the analyst wrote it (the OTA name otherwise).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from loaders.content_schema import PARTS, fields_of
from workbench.modular.cells import Cell

__all__ = ["Headers", "PropertyRows", "blank", "cell_text", "flag", "integer", "number", "rows_with", "split_workbook",
           "text"]

Headers = Mapping[tuple[str, str], Mapping[str, str]]
_OTA = {part: {f.name: f.field.ota for f in fields_of(part)} for part in PARTS}


def blank(value: object) -> bool:
    """NA, None, NaN, an empty text or an empty list."""
    if value is None or value is pd.NA:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, (str, list, tuple)):
        return not value
    return bool(pd.isna(value)) if not isinstance(value, (int, bool)) else False


def text(value: object) -> str | None:
    """A cell as text (``None`` when blank); whole floats without ``.0``."""
    if blank(value):
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d")
    return str(value).strip() or None


def number(value: object) -> float | None:
    return None if blank(value) else float(value)  # type: ignore[arg-type]


def integer(value: object) -> int | None:
    """A whole number cell (``None`` when blank)."""
    return None if blank(value) else int(float(value))  # type: ignore[arg-type]


def flag(value: object) -> bool | None:
    number = integer(value)
    return None if number is None else bool(number)


def cell_text(value: object) -> str:
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return text(value) or ""


@dataclass
class PropertyRows:
    """One property's rows of every part (dicts, in sheet order) and the headers of the sheets they come from."""

    key: str
    rows: dict[str, list[dict]] = field(default_factory=dict)
    headers: Headers = field(default_factory=dict)

    def part(self, name: str) -> list[dict]:
        return self.rows.get(name, [])

    @property
    def first(self) -> dict:
        """The Property row (else the first row of any part)."""
        prop = self.rows.get("Property")
        return prop[0] if prop else next(iter(self.rows.values()))[0]

    @property
    def hotel_code(self) -> int | None:
        return integer(self.first.get("hotel_code"))

    @property
    def custom_id(self) -> str | None:
        return text(self.first.get("custom_id"))

    def cell(self, row: Mapping[str, Any], column: str) -> Cell:
        """The cell of ``column`` on ``row`` (the property's own key cell for ``property``)."""
        sheet = str(row.get("sheet") or "")
        part = str(row.get("part") or sheet)
        if column == "property":
            column = "hotel_code" if not blank(row.get("hotel_code")) else "custom_id"
        header = self.headers.get((str(row.get("source") or ""), sheet), {}).get(column)
        if header is None:
            header = _OTA.get(part, {}).get(column, column)
        raw = row.get(column)
        return Cell(str(row.get("source") or ""), sheet, int(row.get("row") or 0), header, cell_text(raw))

    def root(self) -> Cell:
        return self.cell(self.first, "property")


def split_workbook(parts: Mapping[str, pd.DataFrame]) -> list[PropertyRows]:
    """The properties of ``parts`` (``loaders.read_content``'s frames) in the order they first appear."""
    headers: dict[tuple[str, str], Mapping[str, str]] = {}
    out: dict[str, PropertyRows] = {}
    for part in PARTS:
        frame = parts.get(part)
        if frame is None or frame.empty:
            continue
        headers.update(frame.attrs.get("headers", {}))
        keys = frame["property"].astype(object).where(frame["property"].notna(), None).tolist()
        for key, row in zip(keys, frame.to_dict("records"), strict=True):
            if key is None:
                continue
            own = out.get(key)
            if own is None:
                own = out[key] = PropertyRows(str(key), headers=headers)
            row["part"] = part
            own.rows.setdefault(part, []).append(row)
    return list(out.values())


def rows_with(rows: Iterable[dict], column: str) -> list[dict]:
    return [r for r in rows if not blank(r.get(column))]
