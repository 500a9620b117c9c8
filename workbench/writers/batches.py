"""Compressed messages -> requests: one hotel and one calendar month per request.

Each request keeps the source rows it carries, so every answer can be traced to the
spreadsheet rows it came from.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field

import pandas as pd

from workbench.ota.rate_amount import build_request, to_bytes, vector_amounts
from workbench.writers.compress import Compressed, compress


@dataclass
class RateRequest:
    """One OTA_HotelRateAmountNotifRQ: the hotel, the month, its XML and what it carries."""

    hotel_code: int
    month: str                  # YYYY-MM
    body: bytes
    messages: int
    cells: int
    rows: pd.DataFrame = field(repr=False)   # source, sheet, row of every cell it carries

    @property
    def key(self) -> str:
        return f"{self.hotel_code}-{self.month}"

    def source_rows(self) -> str:
        """``rates.xlsx Amsterdam 2-91; prices.csv 2-14`` - the rows as ranges, per sheet."""
        parts = []
        for (src, sheet), g in self.rows.groupby(["source", "sheet"], sort=True):
            rows = sorted(set(int(r) for r in g["row"]))
            parts.append(f"{src}{' ' + sheet if sheet else ''} {_ranges(rows)}")
        return "; ".join(parts)


def _ranges(rows: list[int]) -> str:
    out, start, prev = [], None, None
    for r in rows:
        if start is None:
            start = prev = r
        elif r == prev + 1:
            prev = r
        else:
            out.append(f"{start}-{prev}" if start != prev else str(start))
            start = prev = r
    if start is not None:
        out.append(f"{start}-{prev}" if start != prev else str(start))
    return ",".join(out)


def plan_requests(frame: pd.DataFrame, weekly: bool = True, timestamp: dt.datetime | None = None) -> list[RateRequest]:
    """Compress ``frame`` and build one request per hotel and month."""
    return list(iter_requests(compress(frame, weekly=weekly), timestamp=timestamp))


def iter_requests(c: Compressed, timestamp: dt.datetime | None = None) -> Iterator[RateRequest]:
    if c.messages.empty:
        return
    amounts = vector_amounts(c.prices)
    timestamp = timestamp or dt.datetime.now(dt.timezone.utc)
    cells_by = c.cells.groupby(["hotel_code", "month"], sort=False)
    for (hotel, month), msgs in c.messages.groupby(["hotel_code", "month"], sort=True):
        cells = cells_by.get_group((hotel, month))
        root = build_request(int(hotel), msgs, amounts, timestamp=timestamp)
        yield RateRequest(int(hotel), str(month), to_bytes(root), len(msgs), len(cells),
                          cells[["source", "sheet", "row"]].drop_duplicates().reset_index(drop=True))
