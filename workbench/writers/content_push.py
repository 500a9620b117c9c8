"""Sending property content (E4), one request per property, and recording what the platform accepted.

``BuildHotel`` (spec, States and Errors: property creation failed, the property is Closed, resend the
same request until success): the same body is sent again with a growing wait, up to
``Settings.build_hotel_attempts`` sends in all; then the property is reported as failed with "contact
support" and every ruid the tries got. A ``New`` is otherwise sent once: an ambiguous failure (no
answer, 5xx) is not retried, and the journal notes the custom ID as ``unclear`` so the next push does
not create the property a second time. On success the journal keeps the custom ID -> HotelCode of a
new property and the content accepted per part.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from workbench.ota.content_notif import NEW, is_build_hotel, parse_content_response
from workbench.ota.response import ResponseParseError
from workbench.transport.backoff import RetryPolicy
from workbench.writers.content_plan import ContentRequest
from workbench.writers.journal import Journal

OPERATION = "OTA_HotelDescriptiveContentNotif"
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


def send_content(client: Any, req: ContentRequest, *, resend: BuildHotelResend,
                 journal: Journal | None = None, target: str = "",
                 sleep: Callable[[float], object] = time.sleep) -> dict[str, object]:
    """Send one property's request (resending it on ``BuildHotel``); the result row (:data:`RESULT_COLUMNS`)."""
    ruids: list[str] = []
    sends = 0
    while True:
        sends += 1
        result = client.send(OPERATION, req.body, context=req.key, idempotent=req.notif_type != NEW)
        ruids += [r for r in result.ruids if r not in ruids] or ([result.ruid] if result.ruid else [])
        build_hotel = any(is_build_hotel(n) for n in result.errors)
        if not build_hotel or sends >= resend.attempts:
            break
        sleep(resend.delay(sends))
    row: dict[str, object] = {
        "property": req.key, "hotel_code": req.hotel_code, "custom_id": req.custom_id,
        "notif_type": req.notif_type, "parts": "; ".join(req.parts), "outcome": result.outcome.value,
        "attempts": sends, "warnings": "; ".join(n.message for n in result.warnings), "ruid": result.ruid,
        "ruids": "; ".join(ruids), "http_status": result.status, "source": req.source, "sheet": req.sheet,
        "row": req.row,
        "message": "; ".join(n.message for n in result.errors) or (result.error or ""),
    }
    if build_hotel:
        row.update(outcome="failed", message=(
            f"BuildHotel {sends} time{'s' if sends != 1 else ''}: the platform could not build the property, which "
            f"stays Closed. Contact support and quote every ruid: {'; '.join(ruids) or '(none received)'}"))
        return row
    if result.ok:
        try:
            answer = parse_content_response(result.body)
        except (ResponseParseError, ValueError):
            answer = None
        pid = answer.property_id if answer is not None else None
        hotel = pid if pid is not None else req.hotel_code
        if hotel is None:  # a New whose answer names no property: it exists, but which is it?
            row.update(outcome="unrecognised", message="the platform answered Success without the new property's id "
                       "(UniqueID Type=10): find its HotelCode in the extranet before pushing again")
            if journal is not None and req.custom_id:
                journal.record_content_property(target, req.custom_id, None, result.ruid)
            return row
        row["hotel_code"] = hotel
        if req.notif_type == NEW:
            row["message"] = f"created: HotelCode {hotel}" + (f" (after {sends} sends: BuildHotel)" if sends > 1 else "")
        elif req.note:
            row["message"] = req.note
        if journal is not None:
            if req.custom_id and req.notif_type == NEW:
                journal.record_content_property(target, req.custom_id, hotel, result.ruid)
            journal.record_content(target, hotel, req.content, result.ruid)
        return row
    if req.notif_type == NEW and req.custom_id and journal is not None and (result.maybe_applied or not result.response):
        journal.record_content_property(target, req.custom_id, None, result.ruid)
        row["message"] = (f"{row['message'] or result.outcome.value}: no clear answer to a New, so the property may "
                          "have been created; it is not created again: find its HotelCode in the extranet (or ask "
                          "support with the ruid) and put it in the HotelCode column")
    return row


def results_frame(rows: list[dict[str, object]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=RESULT_COLUMNS)
    return frame.astype({"hotel_code": "Int64", "attempts": "Int64", "http_status": "Int64", "row": "Int64"})


__all__ = ["BuildHotelResend", "OPERATION", "RESULT_COLUMNS", "results_frame", "send_content"]
