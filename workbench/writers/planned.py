"""One request of any kind, as the one send driver (:mod:`workbench.writers.driver`) takes it.

A kind of data (rates, room types, property content, ...) turns its checked frames into
:class:`Planned` requests; the driver journals them, sends them, records each answer and the state
the platform accepted, and the kind reads the answers back onto the spreadsheet rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd


@dataclass
class Planned:
    """One request: what to send, what it is for people, what state it establishes, where it came from."""

    kind: str                 # the kind of data: "rates", "rooms", "content", ...
    operation: str            # the transport operation (``workbench.transport.operations``)
    key: str                  # its identity within the kind and target: "1000001-2027-01", "1000001/101"
    body: bytes
    property: str             # the property it concerns, as people know it (HotelCode, or a custom ID)
    what: str                 # what it does, for people: "2027-01", "Overlay 101", "New"
    hotel_code: int | None = None
    messages: int = 1
    items: int = 0            # the cells or parts it carries
    #: the state it establishes when accepted: (item, value) pairs (rates keep cells instead)
    state: list[tuple[str, str]] = field(default_factory=list)
    #: the spreadsheet rows it carries: source, sheet, row, column, locator, item
    rows: pd.DataFrame | None = None
    #: when it creates something: the partner's reference of it (custom ID, RoomID), never created twice
    creates: str | None = None
    idempotent: bool | None = None
    method: str | None = None  # a JSON API's method (default: the operation's, POST for XML)
    path: str | None = None    # a JSON API's path with its ids (default: the operation's path)
    #: the kind's own facts about it (columns of its results and of a dry-run manifest)
    extra: dict[str, Any] = field(default_factory=dict)
    #: the kind's own request object (``RateRequest``, ``PlannedRequest``, ``ContentRequest``)
    source: Any = field(default=None, repr=False)

    def source_rows(self) -> str:
        """``rooms.xlsx Rooms 2-4,9; b.csv 7`` - the rows as ranges, per sheet."""
        from workbench.writers.batches import row_ranges

        rows = self.rows
        if rows is None or rows.empty:
            return ""
        parts = []
        keep = rows.dropna(subset=["row"])
        for (src, sheet), g in keep.groupby(["source", "sheet"], sort=True, dropna=False):
            label = f"{src}{' ' + sheet if isinstance(sheet, str) and sheet else ''}"
            parts.append(f"{label} {row_ranges(sorted({int(r) for r in g['row']}))}")
        return "; ".join(parts)
