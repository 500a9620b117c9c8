"""Property content (E4) as a kind of the one send driver: one request per property.

``BuildHotel`` (spec, States and Errors: property creation failed, the property is Closed, resend the
same request until success): the same body is sent again with a growing wait, up to
``Settings.build_hotel_attempts`` sends in all; then the property is reported as failed with "contact
support" and every ruid the tries got. A ``New`` is otherwise sent once: an ambiguous failure (no
answer, 5xx) is not retried, and the journal notes the custom ID as ``unclear`` (as it does when the
sender dies while the New is in flight) so the next push does not create the property a second time.
On success the journal keeps the custom ID -> HotelCode of a new property and the content accepted
per part (the next push sends only the properties whose content changed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from workbench.ota import NEW, PARTS, ResponseParseError, is_build_hotel, parse_content_response
from workbench.transport.backoff import RetryPolicy
from workbench.transport.result import Result
from workbench.writers.content_plan import ContentRequest
from workbench.writers.journal_items import dumps
from workbench.writers.kind import Answer, Kind
from workbench.writers.outcome import KindInfo
from workbench.writers.planned import Planned

OPERATION = "OTA_HotelDescriptiveContentNotif"
CONTENT = KindInfo("content", "Content push",
                   request_keys=("property", "notif_type", "parts", "rows"),
                   row_keys=("property", "hotel_code", "notif_type"),
                   labels={"property": "Property", "hotel_code": "HotelCode", "custom_id": "ID", "notif_type": "Type",
                           "parts": "Parts", "rows": "Rows"},
                   noun="property", plural="properties", group_by=("property",))
RESULT_COLUMNS = ["property", "hotel_code", "custom_id", "notif_type", "parts", "outcome", "attempts", "message",
                  "warnings", "ruid", "ruids", "http_status", "source", "sheet", "row"]
BUILD_HOTEL_CAP_SECONDS = 60.0


@dataclass(frozen=True)
class BuildHotelResend:
    """How a ``BuildHotel`` answer is resent: ``attempts`` sends in all, waits ``backoff * 2**(n-1)`` s (capped)."""

    attempts: int = 5
    backoff_seconds: float = 5.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"build_hotel_attempts is at least 1 (one send), not {self.attempts}")

    def delay(self, attempt: int) -> float:
        return RetryPolicy(self.attempts, self.backoff_seconds, BUILD_HOTEL_CAP_SECONDS, jitter=False).delay(attempt)


def planned_content(requests: Iterable[ContentRequest], part_rows: pd.DataFrame | None = None) -> list[Planned]:
    """Content requests as the driver takes them; ``part_rows``: ``property, source, sheet, row`` of every
    row of every part (each request carries its property's)."""
    by = dict(tuple(part_rows.groupby("property", sort=False))) if part_rows is not None and len(part_rows) else {}
    out = []
    for r in requests:
        rows = by.get(r.key)
        rows = (rows.drop(columns="property").assign(column="", locator=None, item=None) if rows is not None
                else pd.DataFrame({"source": [r.source], "sheet": [r.sheet], "row": [r.row], "column": "",
                                   "locator": None, "item": None}))
        hotel = r.hotel_code
        state = [(f"{hotel}/{p}", dumps(r.content.get(p, []))) for p in PARTS] if hotel is not None else []
        where = f"{r.source} {r.sheet} row {r.row}" if r.sheet else ""
        out.append(Planned("content", OPERATION, str(hotel) if hotel is not None else f"id:{r.custom_id}", r.body,
                           r.key, r.notif_type, hotel_code=hotel, messages=len(r.parts), items=len(rows),
                           state=state, rows=rows, creates=r.custom_id if r.notif_type == NEW else None,
                           idempotent=r.notif_type != NEW, source=r,
                           extra={"property": r.key, "hotel_code": hotel, "custom_id": r.custom_id,
                                  "notif_type": r.notif_type, "parts": "; ".join(r.parts), "source_rows": where}))
    return out


class ContentKind(Kind):
    """Content in the send driver: BuildHotel resent, the HotelCode a New got read from the answer."""

    info = CONTENT

    def __init__(self, resend: BuildHotelResend | None = None) -> None:
        self.resend = resend or BuildHotelResend()

    def resend_after(self, planned: Planned, result: Result, sends: int) -> float | None:
        if any(is_build_hotel(n) for n in result.errors) and sends < self.resend.attempts:
            return self.resend.delay(sends)
        return None

    def answer(self, planned: Planned, result: Result, sends: int, ruids: Sequence[str]) -> Answer:
        req: ContentRequest = planned.source
        if any(is_build_hotel(n) for n in result.errors):
            return Answer("failed", note=(
                f"BuildHotel {sends} time{'s' if sends != 1 else ''}: the platform could not build the property, "
                f"which stays Closed. Contact support and quote every ruid: {'; '.join(ruids) or '(none received)'}"))
        if result.ok:
            hotel = _answered_property(result)
            hotel = hotel if hotel is not None else req.hotel_code
            if hotel is None:  # a New whose answer names no property: it exists, but which is it?
                return Answer("unrecognised", unclear=True, note=(
                    "the platform answered Success without the new property's id (UniqueID Type=10): find its "
                    "HotelCode in the extranet before pushing again"))
            if req.notif_type == NEW:
                return Answer("success", made=str(hotel), note=f"created: HotelCode {hotel}" + (
                    f" (after {sends} sends: BuildHotel)" if sends > 1 else ""))
            return Answer("success", note=req.note or None)
        answer = super().answer(planned, result, sends, ruids)
        if answer.unclear:
            answer.note = (f"{'; '.join(n.message for n in result.errors) or result.error or result.outcome.value}: "
                           "no clear answer to a New, so the property may have been created; it is not created again: "
                           "find its HotelCode in the extranet (or ask support with the ruid) and put it in the "
                           "HotelCode column")
        return answer

    def accept(self, planned: Planned, result: Result, answer: Answer) -> list[tuple[str, str]] | None:
        req: ContentRequest = planned.source
        hotel = answer.made or (str(req.hotel_code) if req.hotel_code is not None else None)
        return [(f"{hotel}/{p}", dumps(req.content.get(p, []))) for p in PARTS] if hotel is not None else []


def _answered_property(result: Result) -> int | None:
    try:
        answer = parse_content_response(result.body)
    except (ResponseParseError, ValueError):
        return None
    return answer.property_id


def results_frame(rows: Sequence[Mapping[str, object]]) -> pd.DataFrame:
    frame = pd.DataFrame(list(rows), columns=RESULT_COLUMNS)
    return frame.astype({"hotel_code": "Int64", "attempts": "Int64", "http_status": "Int64", "row": "Int64"})


__all__ = ["BuildHotelResend", "CONTENT", "ContentKind", "OPERATION", "RESULT_COLUMNS", "planned_content",
           "results_frame"]
