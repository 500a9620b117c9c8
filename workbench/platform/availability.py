"""``/hotels/xml/roomrateavailability`` read into frames: what the platform holds per room type and room-rate
and night (rooms to sell, booked, cancelled, closed).

A property's nights are read 31 a call (:func:`workbench.ota.room_rate_availability.windows`: a year is 12
calls), every call through the rate-limited client, many in flight. The answers are parsed by
:func:`~workbench.ota.room_rate_availability.parse_room_rate_availability` into the fetch frame
(:data:`~workbench.ota.room_rate_availability.FETCH_COLUMNS`: one row per room type and night, blank
``rate_plan_code``, and one per room-rate and night). A call the platform refused (a B.XML ``<error>`` or
``<fault>``) or that failed is listed in ``problems`` with its property, first night, code, text and ruid;
the nights it read are missing from the frame, never guessed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from workbench.ota import (
    FETCH_COLUMNS,
    FETCH_HEADERS,
    fetch_frame,
    parse_room_rate_availability,
    windows,
)
from workbench.ota import (
    availability_request_body as request_body,
)
from workbench.transport.result import Result
from workbench.wording import count, fact

OPERATION = "roomrateavailability"
SHOWN = 10  # rows a summary lists
PROBLEM_COLUMNS = {"hotel_code": "Int64", "start": "string", "days": "Int64", "outcome": "string", "code": "string",
                   "text": "string", "ruid": "string"}


@dataclass
class PlatformAvailability:
    """What ``roomrateavailability`` returned: ``frame`` (the fetch frame), the calls' ``results``, and the
    calls refused or failed (``problems``)."""

    frame: pd.DataFrame
    start: dt.date
    days: int
    results: list[Result] = field(default_factory=list)
    problems: pd.DataFrame = field(default_factory=lambda: _problems([]))

    @property
    def ok(self) -> bool:
        return self.problems.empty

    def _repr_html_(self) -> str:
        """In Jupyter: what was read (properties, nights, calls), the calls refused or failed, the first rows."""
        from workbench.display import Summary, Table

        rooms = int(self.frame["rate_plan_code"].isna().sum())
        facts = [fact(self.frame['hotel_code'].nunique(), "property", "properties"), fact(rooms, "room-type night", "room-type nights"),
                 fact(len(self.frame) - rooms, "room-rate night", "room-rate nights"), fact(len(self.results), "call", "calls"),
                 (f"{self.start:%Y-%m-%d} + {count(self.days, 'night')}", "read:")]
        tables = [Table("Calls refused or failed (their nights are missing)", self.problems.head(SHOWN))] \
            if len(self.problems) else []
        tables.append(Table("First nights (all of them: `.frame`, or `.table()` as `fetch availability` writes them)",
                            self.table().head(SHOWN)))
        verdict = "read" if self.ok else f"{count(len(self.problems), 'call')} refused or failed"
        return Summary("Availability on the platform", verdict, "ok" if self.ok else "warning", facts, tables).html()

    def table(self) -> pd.DataFrame:
        """The frame with the workbook's column names (``HotelCode, InvTypeCode, RatePlanCode, Date,
        RoomsToSell, Booked, Cancelled, Closed``), dates as ``YYYY-MM-DD``, a room type's rows' rate plan blank."""
        out = self.frame.rename(columns=FETCH_HEADERS)
        return out.assign(Date=self.frame["date"].dt.strftime("%Y-%m-%d"))


def _problems(rows: list[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(PROBLEM_COLUMNS))
    return frame.astype(PROBLEM_COLUMNS)


def availability_calls(hotels: Iterable[int], start: dt.date, days: int) -> list[tuple[str, bytes, tuple[int, dt.date, int]]]:
    """``(operation, body, (hotel, first night, nights))`` of every call reading ``days`` nights from ``start``
    of each property (31 nights a call)."""
    return [(OPERATION, request_body(int(h), first, n), (int(h), first, n))
            for h in dict.fromkeys(int(h) for h in hotels) for first, n in windows(start, days)]


def availability_frames(results: Iterable[Result], start: dt.date, days: int) -> PlatformAvailability:
    """The fetch frame of every answer in ``results`` (their ``context`` is ``(hotel, first night, nights)``)
    and the calls that did not answer with availability."""
    rows: list[dict[str, object]] = []
    problems: list[dict[str, Any]] = []
    kept = list(results)
    for r in kept:
        hotel, first, n = r.context
        if r.ok:
            try:
                rows += parse_room_rate_availability(r.body, hotel)
                continue
            except ValueError as exc:
                problems.append({"hotel_code": hotel, "start": f"{first:%Y-%m-%d}", "days": n, "outcome": "unrecognised",
                                 "code": None, "text": str(exc), "ruid": r.ruid})
                continue
        problems.append({"hotel_code": hotel, "start": f"{first:%Y-%m-%d}", "days": n, "outcome": r.outcome.value,
                         "code": ", ".join(x.code for x in r.errors if x.code) or None,
                         "text": " | ".join(x.message for x in r.errors) or r.error or r.summary(), "ruid": r.ruid})
    frame = fetch_frame(rows) if rows else pd.DataFrame({c: pd.Series(dtype=t) for c, t in FETCH_COLUMNS.items()})
    return PlatformAvailability(frame, start, days, kept, _problems(problems))


def read_availability(client: Any, hotels: Iterable[int], start: dt.date, days: int,
                      on_result: Callable[[Result], object] | None = None) -> PlatformAvailability:
    """Read ``days`` nights from ``start`` of every property through ``client`` (a
    :class:`~workbench.transport.sync.SyncPlatformClient`); ``on_result`` is told of each answer as it arrives."""
    calls = availability_calls(hotels, start, days)
    return availability_frames(client.send_many(calls, on_result, stop_on_fatal=True), start, days)


__all__ = ["OPERATION", "PROBLEM_COLUMNS", "PlatformAvailability", "availability_calls", "availability_frames",
           "read_availability"]
