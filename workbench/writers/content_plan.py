"""Property content (E4): one request per property, checked against what the platform last accepted.

An ``Overlay`` replaces the content the platform stores, so a part the platform accepted before and
the sheet no longer has would be dropped. :func:`plan_content` refuses such a property unless the part
is stated empty (``Property.empty_parts``, e.g. ``Fees; Taxes``) or ``replace`` is given, and shows per
property which parts change, before -> after (the journal's last accepted content -> this request).

A ``New`` is never sent twice for a custom ID: when the journal knows the HotelCode an earlier ``New``
got, the content goes to that property as an ``Overlay``; when an earlier ``New`` got no clear answer
(it may have created the property), the property is held back until its HotelCode is in the sheet.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from loaders import ISSUE_COLUMNS
from workbench.ota import NEW, OVERLAY, PARTS, build_content, canonical_rows
from workbench.writers.journal import Journal

PARTS_COLUMNS = ["property", "hotel_code", "custom_id", "notif_type", "part", "change", "before", "after"]
MANIFEST_COLUMNS = ["property", "hotel_code", "custom_id", "notif_type", "parts", "note", "source", "sheet", "row"]
#: how a part changes (``change`` of :attr:`ContentPlan.parts`)
ADDED, CHANGED, UNCHANGED, EMPTIED, REPLACED, REFUSED = (
    "added", "changed", "unchanged", "emptied (stated empty)", "dropped (replace)", "dropped: refused")


@dataclass(frozen=True)
class ContentRequest:
    """One property's request and what it carries (canonical rows per part, as the journal keeps them)."""

    key: str  # the ``property`` column: str(HotelCode) or the custom ID
    hotel_code: int | None
    custom_id: str | None
    notif_type: str
    body: bytes
    content: dict[str, list[dict]]
    source: str | None = None
    sheet: str | None = None
    row: int | None = None
    note: str = ""

    @property
    def parts(self) -> list[str]:
        """The parts with rows in this request."""
        return [p for p in PARTS if self.content.get(p)]


@dataclass
class ContentPlan:
    """What a push would send: ``requests`` (one per property that can be sent), ``parts`` (per property
    and part: the change, before -> after) and ``issues`` (what holds a property back, on its Property row)."""

    requests: list[ContentRequest]
    parts: pd.DataFrame
    issues: pd.DataFrame
    held: list[str] = field(default_factory=list)  # the property each row of ``issues`` holds back, in order
    #: properties whose every part the platform accepted as they are now: not sent (unless ``full``)
    unchanged: list[str] = field(default_factory=list)
    #: custom ID -> HotelCode of the properties an earlier push created whose sheet has only the custom ID
    known: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.issues["severity"] == "error").any()

    def manifest(self) -> pd.DataFrame:
        return pd.DataFrame([{"property": r.key, "hotel_code": r.hotel_code, "custom_id": r.custom_id,
                              "notif_type": r.notif_type, "parts": "; ".join(r.parts), "note": r.note,
                              "source": r.source, "sheet": r.sheet, "row": r.row} for r in self.requests],
                            columns=MANIFEST_COLUMNS).astype({"hotel_code": "Int64"})


def describe(rows: list[dict] | None) -> str:
    """A part's content for people, whole (never cut off: the analyst compares before with after):
    ``2 rows: code=36 percent=9; code=5035 amount=5``."""
    if rows is None:
        return "(never sent from this journal)"
    if not rows:
        return "(empty)"
    items = "; ".join(" ".join(f"{k}={'|'.join(v) if isinstance(v, list) else v}" for k, v in r.items())
                      for r in rows)
    head = f"{len(rows)} row{'s' if len(rows) != 1 else ''}: "
    return head + items


#: facts of the request, not of the content: a New then an Overlay of the same content is no change
ENVELOPE_FACTS = frozenset({"notif_type"})


def comparable(rows: list[dict] | None) -> list[dict] | None:
    """A part's rows without the request's own facts (:data:`ENVELOPE_FACTS`), to compare content."""
    if rows is None:
        return None
    return [{k: v for k, v in r.items() if k not in ENVELOPE_FACTS} for r in rows]


def split_properties(parts: Mapping[str, pd.DataFrame]) -> dict[str, dict[str, list[dict]]]:
    """The rows (dicts) of each part of each property (key ``property``), properties in the order they first
    appear. One ``to_dict`` per part: frames per property would cost pandas' overhead thousands of times."""
    out: dict[str, dict[str, list[dict]]] = {}
    for p in PARTS:
        frame = parts.get(p)
        if frame is None or frame.empty:
            continue
        for row in frame.to_dict("records"):
            key = row.get("property")
            if key is None or pd.isna(key):
                continue
            out.setdefault(str(key), {}).setdefault(p, []).append(row)
    return out


def _issue(prop_row: Mapping[str, object] | None, column: str, value: object, rule: str, message: str) -> dict:
    where = prop_row or {}
    return {"source": where.get("source"), "sheet": where.get("sheet"), "row": where.get("row"), "column": column,
            "value": "" if value is None else str(value), "rule": rule, "severity": "error", "message": message}


def _int_or_none(value: object) -> int | None:
    return None if value is None or pd.isna(value) else int(value)  # type: ignore[call-overload]


def _str_or_none(value: object) -> str | None:
    return None if value is None or pd.isna(value) else str(value)


def plan_content(parts: Mapping[str, pd.DataFrame], *, journal: Journal | None = None, target: str = "",
                 replace: bool = False, timestamp: dt.datetime | None = None, full: bool = False) -> ContentPlan:
    """One request per property of ``parts`` (the frames of ``loaders.read_content``), with the Overlay guard
    and the New-once rule of the module docstring, against ``journal``'s record for ``target``. A property
    whose every part the platform accepted as it is now is not sent (``unchanged``), unless ``full``."""
    requests: list[ContentRequest] = []
    changes: list[dict] = []
    issues: list[dict] = []
    held: list[str] = []
    unchanged: list[str] = []
    known_ids: dict[str, int] = {}
    for key, own in split_properties(parts).items():
        prop_rows = own.get("Property")
        if not prop_rows:
            first = next(iter(own.values()))[0]
            issues.append(_issue(first, "HotelCode", key, "no_property_row",
                                 f"property `{key}` has rows on {', '.join(own)} but none on the Property sheet: add "
                                 "its Property row (HotelCode or ID, name, language, target)"))
            held.append(key)
            continue
        prop = prop_rows[0]
        hotel_code, custom_id = _int_or_none(prop.get("hotel_code")), _str_or_none(prop.get("custom_id"))
        notif_type = _str_or_none(prop.get("notif_type")) or (NEW if hotel_code is None else OVERLAY)
        note = ""
        if hotel_code is None and custom_id is not None and journal is not None:
            known = journal.content_property(target, custom_id)
            if known is not None and known[0] == "created":
                hotel_code, notif_type = known[1], OVERLAY
                if hotel_code is not None:
                    known_ids[custom_id] = hotel_code
                note = (f"created earlier as HotelCode {hotel_code} (journal; ruid {known[2]}): sent as an Overlay, "
                        "never a second New")
                if str(prop.get("booking_model") or "").strip().upper() == "RTB":
                    # request to book is set by the New that created it; an Overlay may not send it (spec, States)
                    prop = {**prop, "booking_model": None}
                    own = {**own, "Property": [prop, *prop_rows[1:]]}
                    note += ("; BookingModel RTB was sent with that New and an Overlay cannot send it (request to "
                             "book is for new properties only): left out")
            elif known is not None:
                issues.append(_issue(prop, "ID", custom_id, "new_answer_unclear",
                                     f"an earlier New for ID `{custom_id}` got no clear answer (ruid {known[2] or '-'}):"
                                     " it may have created the property. Find its HotelCode in the extranet (or ask "
                                     "support with the ruid) and put it in the HotelCode column; a second New is not "
                                     "sent"))
                held.append(key)
                continue
        if notif_type == OVERLAY and hotel_code is None:
            issues.append(_issue(prop, "HotelCode", notif_type, "overlay_without_hotel_code",
                                 f"property `{key}`: an Overlay changes an existing property; give its HotelCode (or "
                                 "leave HotelDescriptiveContentNotifType blank to create it with New)"))
            held.append(key)
            continue
        body = build_content(own, notif_type=notif_type, hotel_code=hotel_code, custom_id=custom_id,
                             timestamp=timestamp)
        content = canonical_rows(body)
        empty = prop.get("empty_parts")
        stated = {str(p).strip().casefold() for p in (empty if isinstance(empty, list) else [])}
        before = journal.accepted_content(target, hotel_code) if journal is not None and hotel_code else {}
        refused = []
        for part in PARTS:
            was, now = before.get(part), content[part]
            if notif_type == NEW:
                change = ADDED if now else None
                was = None
            elif not was:  # never sent from this journal, or empty on the platform
                change = ADDED if now else None
            elif comparable(was) == comparable(now):
                change = UNCHANGED
            elif was and not now:
                change = EMPTIED if part.casefold() in stated else REPLACED if replace else REFUSED
            else:
                change = CHANGED
            if change is None:
                continue
            if change == REFUSED:
                refused.append((part, len(was or [])))
            changes.append({"property": key, "hotel_code": hotel_code, "custom_id": custom_id,
                            "notif_type": notif_type, "part": part, "change": change,
                            "before": describe(was) if notif_type != NEW else "(new property)",
                            "after": describe(now)})
        if refused:
            names = ", ".join(f"`{p}` ({n} row{'s' if n != 1 else ''})" for p, n in refused)
            issues.append(_issue(prop, "EmptyParts", "; ".join(p for p, _ in refused), "overlay_drops_part",
                                 f"property {hotel_code}: this Overlay would drop {names}, which the platform "
                                 "accepted before (an Overlay replaces the stored content). Add the rows back, "
                                 "name the part in EmptyParts to empty it on purpose, or push with --replace"))
            held.append(key)
            continue
        same = notif_type == OVERLAY and bool(before) and all(comparable(before.get(p)) == comparable(content[p]) or (
            not before.get(p) and not content[p]) for p in PARTS)
        if same and not full:
            unchanged.append(key)
            continue
        requests.append(ContentRequest(key, hotel_code, custom_id, notif_type, body, content,
                                       _str_or_none(prop.get("source")), _str_or_none(prop.get("sheet")),
                                       _int_or_none(prop.get("row")), note))
    issue_frame = pd.DataFrame(issues, columns=ISSUE_COLUMNS).astype({"row": "Int64"})
    parts = pd.DataFrame(changes, columns=PARTS_COLUMNS).astype({"hotel_code": "Int64"})
    return ContentPlan(requests, parts, issue_frame, held, unchanged, known_ids)


__all__ = ["ADDED", "CHANGED", "ContentPlan", "ContentRequest", "EMPTIED", "MANIFEST_COLUMNS", "PARTS_COLUMNS",
           "REFUSED", "REPLACED", "UNCHANGED", "describe", "plan_content", "split_properties"]
