"""Compressed messages -> requests: one hotel and one calendar month per request.

Each request keeps the source rows it carries, and each message its ``LocatorID`` (its 1-based
position in the request), so every answer (``Error@RecordID``) can be traced to the spreadsheet
rows it came from.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from workbench.ota import build_bytes_from_lists, vector_amounts
from workbench.writers.compress import Compressed, compress


@dataclass
class RateRequest:
    """One request of one hotel and month (an ``OTA_HotelRateAmountNotifRQ``, or an ``OTA_HotelAvailNotifRQ``
    from :mod:`workbench.writers.avail_requests`): its XML and what it carries."""

    hotel_code: int
    month: str                  # YYYY-MM
    body: bytes
    messages: int
    cells: int
    _cells: pd.DataFrame = field(repr=False)   # the compressed cells, sorted by hotel and month
    _span: tuple[int, int] = field(repr=False, default=(0, 0))

    @property
    def rows(self) -> pd.DataFrame:
        """``source, sheet, row`` of every spreadsheet row this request carries."""
        a, b = self._span
        return self._cells.iloc[a:b][["source", "sheet", "row"]].drop_duplicates().reset_index(drop=True)

    @property
    def locators(self) -> pd.DataFrame:
        """``locator, source, sheet, row``: the spreadsheet rows behind each message (its ``LocatorID``)."""
        a, b = self._span
        cells = self._cells.iloc[a:b]
        return cells[["locator", "source", "sheet", "row"]].drop_duplicates().sort_values(
            ["locator", "source", "sheet", "row"], kind="stable").reset_index(drop=True)

    @property
    def key(self) -> str:
        return f"{self.hotel_code}-{self.month}"

    def source_rows(self) -> str:
        """``rates.xlsx Amsterdam 2-91; prices.csv 2-14`` - the rows as ranges, per sheet."""
        parts = []
        for (src, sheet), g in self.rows.groupby(["source", "sheet"], sort=True):
            rows = sorted(set(int(r) for r in g["row"]))
            parts.append(f"{src}{' ' + sheet if sheet else ''} {row_ranges(rows)}")
        return "; ".join(parts)


def row_ranges(rows: list[int]) -> str:
    """``[2, 3, 4, 9]`` -> ``2-4,9``."""
    out, start, prev = [], None, None
    for r in rows:
        if start is None:
            start = prev = r
        elif prev is not None and r == prev + 1:  # prev is set whenever start is
            prev = r
        else:
            out.append(f"{start}-{prev}" if start != prev else str(start))
            start = prev = r
    if start is not None:
        out.append(f"{start}-{prev}" if start != prev else str(start))
    return ",".join(out)


def plan_requests(frame: pd.DataFrame, weekly: bool = True, timestamp: dt.datetime | None = None,
                  spelling: str = "ota") -> list[RateRequest]:
    """Compress ``frame`` and build one request per hotel and month (weekday flags in ``spelling``:
    ``ota``, the default, or ``spec``)."""
    return list(iter_requests(compress(frame, weekly=weekly), timestamp=timestamp, spelling=spelling))


def _ordered(messages: pd.DataFrame) -> pd.DataFrame:
    """The messages in request order (hotel, month; stable), each with its ``locator``. The compressors
    give them in hotel, month, then series and start order, so the numbering is canonical."""
    m = messages.sort_values(["hotel_code", "month"], kind="stable")
    return m.assign(locator=m.groupby(["hotel_code", "month"], sort=False).cumcount().to_numpy() + 1)


def cell_locators(c: Compressed) -> np.ndarray:
    """The ``LocatorID`` of the message carrying each row of ``c.cells`` (its request is its hotel and month)."""
    return message_locators(c.messages, c.cells)


def message_locators(messages: pd.DataFrame, cells: pd.DataFrame) -> np.ndarray:
    """The ``LocatorID`` of the message (``cells["message"]``, a label of ``messages``) carrying each cell."""
    if messages.empty:
        return np.zeros(0, dtype=np.int64)
    return _ordered(messages)["locator"].reindex(cells["message"].to_numpy()).to_numpy(dtype=np.int64)


def iter_requests(c: Compressed, timestamp: dt.datetime | None = None, spelling: str = "ota") -> Iterator[RateRequest]:
    if c.messages.empty:
        return
    amounts = vector_amounts(c.prices)
    timestamp = timestamp or dt.datetime.now(dt.UTC)

    def bodies(m: pd.DataFrame) -> Callable[[int, int, int], bytes]:
        starts, ends = m["start"].dt.strftime("%Y-%m-%d").tolist(), m["end"].dt.strftime("%Y-%m-%d").tolist()
        rooms, rates = m["inv_type_code"].tolist(), m["rate_plan_code"].tolist()
        masks, vectors = m["mask"].tolist(), m["vector"].tolist()
        fragments: dict[int, str | None] = {}
        return lambda hotel, a, b: build_bytes_from_lists(hotel, starts[a:b], ends[a:b], rooms[a:b], rates[a:b],
                                                          masks[a:b], vectors[a:b], amounts, timestamp=timestamp,
                                                          spelling=spelling, fragments=fragments)

    yield from batch_requests(c.messages, c.cells, bodies)


def batch_requests(messages: pd.DataFrame, cells: pd.DataFrame,
                   bodies: Callable[[pd.DataFrame], Callable[[int, int, int], bytes]]) -> Iterator[RateRequest]:
    """One request per hotel and month of ``messages`` (``hotel_code``, ``month`` and what ``bodies``
    reads), each knowing the ``cells`` it carries (``source, sheet, row`` and ``message``, a label of
    ``messages``) and each cell's ``LocatorID``. ``bodies(m)`` is handed the messages in request order
    (``m``, with ``locator``) and returns the builder of one request's XML from its hotel and its first
    and stop positions in ``m``; requests are built one by one as they are taken."""
    m = _ordered(messages)
    build = bodies(m)
    hotels, months = m["hotel_code"].to_numpy(), m["month"].to_numpy()
    runs = _runs(hotels, months)
    # each cell's request and LocatorID through its message (integer arrays, no sort on text keys)
    request_of, locator_of = np.empty(len(m), dtype=np.int64), np.empty(len(m), dtype=np.int64)
    at = messages.index.get_indexer(m.index)
    request_of[at] = np.repeat(np.arange(len(runs)), [b - a for a, b in runs])
    locator_of[at] = m["locator"].to_numpy()
    message = messages.index.get_indexer(cells["message"].to_numpy())
    request = request_of[message]
    order = np.argsort(request, kind="stable")
    carried = cells.take(order).reset_index(drop=True)
    carried["locator"] = locator_of[message][order]
    cell_stops = np.cumsum(np.bincount(request, minlength=len(runs)))
    for i, (a, b) in enumerate(runs):
        hotel, month = int(hotels[a]), str(months[a])
        ca, cb = int(cell_stops[i - 1]) if i else 0, int(cell_stops[i])
        yield RateRequest(hotel, month, build(hotel, a, b), b - a, cb - ca, carried, (ca, cb))


def _runs(hotels: np.ndarray, months: np.ndarray) -> list[tuple[int, int]]:
    """Start/stop positions of each (hotel, month) run in arrays sorted by them."""
    n = len(hotels)
    change = np.ones(n, dtype=bool)
    if n > 1:
        change[1:] = (hotels[1:] != hotels[:-1]) | (months[1:] != months[:-1])
    starts = np.flatnonzero(change)
    stops = np.append(starts[1:], n)
    return list(zip(starts.tolist(), stops.tolist(), strict=True))
