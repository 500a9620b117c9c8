"""Rooms workbooks edited and compared as an analyst does (openpyxl, cell by cell; the loader's reading)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from openpyxl import load_workbook

from workbench.flows.rooms_modular import check_rooms_modular


def edit(path: Path, sheet: str, match: dict[str, object], changes: dict[str, object]) -> None:
    """Set ``changes`` (by header) on the rows of ``sheet`` whose cells equal ``match`` (compared as text)."""
    wb = load_workbook(path)
    ws = wb[sheet]
    head = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2):
        cells = dict(zip(head, row, strict=False))
        if all(str(cells[k].value) == str(v) for k, v in match.items()):
            for k, v in changes.items():
                cells[k].value = v
    wb.save(path)


def cells(path: Path) -> list[pd.DataFrame]:
    """Every cell of the three sheets as the loader reads them (provenance left out); a row asking to remove an
    amenity (Value 0) means it is not there."""
    c = check_rooms_modular(path)
    return [f.drop(columns=["source", "sheet", "row"]).reset_index(drop=True)
            for f in (c.rooms, c.subrooms, c.amenities[~c.amenities["remove"]])]
