"""Which spreadsheet cells each ``Error`` / ``Warning`` of an answer concerns.

A rate request carries many messages, each with its ``LocatorID`` (its position in the request)
and the spreadsheet rows behind it. The platform's ``Error@RecordID`` names the message that
caused it ("the id of the request element that caused the error"), so a notice goes to the
rows of that message only, narrowed to the nights its ``Details`` list. Without a usable
``RecordID`` the ``Details`` (``room_id=…; rate_id=…; dates=…``, also the plural forms) pick
the cells; a notice naming nothing concerns the whole request. A row never shows another
row's notice.

The cell is chosen by what the code is about: a room (``UNKNOWN_ROOM``) marks the row's
``InvTypeCode`` cell, a rate plan (``RATE_NOT_ACTIVE_FOR_ROOM``, ``CHILD_RATE_FOLLOWS_PRICE``,
…) its ``RatePlanCode`` cell, a currency its ``CurrencyCode`` cell, guests ``NumberOfGuests``,
a date the night's date cell; anything else the price itself.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

#: Codes about the room type, the rate plan, ... (the platform's, the spec's and the sandbox's).
FIELD_OF_CODE: dict[str, str] = {
    **dict.fromkeys(("UNKNOWN_ROOM", "INVALID_ROOM", "ROOM_NOT_FOUND", "UNKNOWN_INV_TYPE_CODE", "UNKNOWN_INV_CODE",
                     "INVALID_INV_TYPE_CODE", "ROOM_NOT_ACTIVE", "ROOM_INACTIVE"), "inv_type_code"),
    **dict.fromkeys(("RATE_NOT_ACTIVE_FOR_ROOM", "UNKNOWN_RATE_PLAN", "INVALID_RATE_PLAN", "RATE_NOT_FOUND",
                     "CHILD_RATE_FOLLOWS_PRICE", "RATE_READ_ONLY", "READ_ONLY_RATE"), "rate_plan_code"),
    **dict.fromkeys(("CURRENCY_MISMATCH", "MISSING_CURRENCY", "INVALID_CURRENCY"), "currency_code"),
    **dict.fromkeys(("GUESTS_NOT_ALLOWED", "GUESTS_ABOVE_MAX_ADULTS", "INVALID_NUMBER_OF_GUESTS"), "number_of_guests"),
    **dict.fromkeys(("DATE_OUT_OF_RANGE", "INVALID_DATE", "INVALID_DATE_RANGE"), "date"),
    **dict.fromkeys(("UNKNOWN_HOTEL", "MISSING_HOTEL_CODE", "MULTIPLE_HOTELS"), "hotel_code"),
    **dict.fromkeys(("WARN_DUPLICATE_DATES", "WARN_NO_DATES_SELECTED", "INVALID_WEEKDAY_FLAG"), "amount"),
}
_OTA_NAME = {"inv_type_code": "InvTypeCode", "rate_plan_code": "RatePlanCode", "currency_code": "CurrencyCode",
             "number_of_guests": "NumberOfGuests", "date": "Date", "hotel_code": "HotelCode"}
_PAIR = re.compile(r"\s*([A-Za-z_]+)\s*=\s*([^;]*)")


def field_of(code: str | None) -> str:
    """The canonical field a code is about (``amount`` for the price itself)."""
    c = (code or "").upper()
    if c in FIELD_OF_CODE:
        return FIELD_OF_CODE[c]
    for word, name in (("RATE", "rate_plan_code"), ("ROOM", "inv_type_code"), ("CURRENCY", "currency_code"),
                       ("GUEST", "number_of_guests"), ("HOTEL", "hotel_code")):
        if word in c:
            return name
    return "amount"


def parse_details(text: str | None) -> dict[str, list[str]]:
    """``hotel_id=1; room_id=101; rate_ids=5001,5002; dates=2027-01-01..2027-01-03`` -> lists by
    singular key (``room_id``, ``rate_id``, ``hotel_id``, ``dates``)."""
    out: dict[str, list[str]] = {}
    for part in (text or "").split(";"):
        m = _PAIR.match(part)
        if not m:
            continue
        key = m.group(1).lower()
        key = {"room_ids": "room_id", "rate_ids": "rate_id", "hotel_ids": "hotel_id", "date": "dates"}.get(key, key)
        values = [v.strip() for v in m.group(2).split(",") if v.strip()]
        if values:
            out.setdefault(key, []).extend(values)
    return out


def _in_dates(dates: pd.Series, spans: Sequence[str]) -> np.ndarray:
    """Which ISO dates fall in any of ``spans`` (``2027-01-01`` or ``2027-01-01..2027-01-05``)."""
    hit = np.zeros(len(dates), dtype=bool)
    values = dates.to_numpy(dtype=object)
    for span in spans:
        lo, _, hi = span.partition("..")
        try:
            a, b = dt.date.fromisoformat(lo.strip()), dt.date.fromisoformat((hi or lo).strip())
        except ValueError:
            continue
        hit |= (values >= a.isoformat()) & (values <= b.isoformat())
    return hit


def targets(notice: Mapping[str, str], cells: pd.DataFrame) -> np.ndarray:
    """The cells of one request (``cells``: its ``request_cells``) that ``notice`` concerns."""
    details = parse_details(notice.get("details"))
    record = str(notice.get("record_id") or "").strip()
    if record.isdigit() and cells["locator"].notna().any():
        mine = (cells["locator"] == int(record)).to_numpy(dtype=bool)
        if mine.any():
            if "dates" in details:
                narrow = mine & _in_dates(cells["date"], details["dates"])
                return narrow if narrow.any() else mine
            return mine
    named = {k: v for k, v in details.items() if k in ("room_id", "rate_id", "dates")}
    if named:
        hit = np.ones(len(cells), dtype=bool)
        if "room_id" in named:
            hit &= cells["inv_type_code"].astype(str).isin(named["room_id"]).to_numpy()
        if "rate_id" in named:
            hit &= cells["rate_plan_code"].astype(str).isin(named["rate_id"]).to_numpy()
        if "dates" in named:
            hit &= _in_dates(cells["date"], named["dates"])
        if hit.any():
            return hit
    return np.ones(len(cells), dtype=bool)  # names nothing of this request: the whole request


def header_of(field: str, source: str, sheet: str, amount_column: str,
              headers: Mapping[tuple[str, str], Mapping[str, str]]) -> str:
    """The header of the cell holding ``field`` in the analyst's sheet (the OTA name when unknown)."""
    if field == "amount":
        return amount_column
    sheet_headers = headers.get((source, sheet), {})
    if field == "date":
        layout = sheet_headers.get("layout", "long")
        if layout == "wide":
            return amount_column
        if layout == "range":
            return sheet_headers.get("start", "Start")
    return sheet_headers.get(field, _OTA_NAME.get(field, field))


def attribute(cells: pd.DataFrame, notices: Mapping[int, Sequence[Mapping[str, str]]],
              headers: Mapping[tuple[str, str], Mapping[str, str]]) -> pd.DataFrame:
    """One line per (cell, notice) it concerns: ``cell`` (position in ``cells``), ``column``, ``code``,
    ``text``, ``kind`` (error/warning). ``cells`` are ``request_cells`` rows; ``notices`` the errors and
    warnings (dicts with ``code``, ``short_text``, ``details``, ``record_id``, ``kind``) per request id."""
    parts = []
    positions = pd.Series(np.arange(len(cells)), index=cells.index)
    for rid, group in cells.groupby("request_id", sort=False):
        found = notices.get(int(rid), ())
        if not found:
            continue
        pos = positions[group.index].to_numpy()
        for n in found:
            hit = targets(n, group)
            if not hit.any():
                continue
            sub = group[hit]
            name = field_of(n.get("code"))
            columns = [header_of(name, s, h, c, headers) for s, h, c in
                       zip(sub["source"], sub["sheet"], sub["col"], strict=True)]
            text = " ".join(x for x in (n.get("code"), n.get("short_text"), n.get("details")) if x)
            parts.append(pd.DataFrame({"cell": pos[hit], "column": columns, "code": n.get("code") or "",
                                       "text": text, "kind": n.get("kind", "error")}))
    if not parts:
        return pd.DataFrame({"cell": pd.Series(dtype="int64"), "column": pd.Series(dtype=object),
                             "code": pd.Series(dtype=object), "text": pd.Series(dtype=object),
                             "kind": pd.Series(dtype=object)})
    return pd.concat(parts, ignore_index=True)
