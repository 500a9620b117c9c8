"""What a report knows about its issues beyond the issue columns: which kind of data they are about
(rates, rooms, content: each has its own layout), each property's name (from the registry or the
content workbook's ``HotelName``), and the property and room type of each spreadsheet row.

The checks put these on their frames' ``attrs`` (:func:`describe`), so the reports find them
without new arguments: ``write_report(check.issues, ...)`` shows ``1000001 Hotel Aurora Amsterdam``
where it showed ``1000001``. pandas copies ``attrs`` on every operation, so the mappings are
:class:`Shared`: copied by reference, never deep-copied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from workbench.reports.text import text

KIND = "wb_kind"
NAMES = "wb_property_names"
ROWS = "wb_row_property"
LABELS = "wb_row_labels"


class Shared(dict):
    """A mapping pandas' ``attrs`` carry along without deep-copying it (it is never changed)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


def describe(frame: pd.DataFrame, *, kind: str | None = None, names: Mapping[str, str] | None = None,
             rows: Mapping[tuple[str, str, int], tuple[str, str]] | None = None,
             labels: Mapping[tuple[str, str, int], str] | None = None) -> pd.DataFrame:
    """Put ``kind``, property ``names`` (code -> name), ``rows`` ((source, sheet, row) -> (property,
    room type or part)) and ``labels`` ((source, sheet, row) -> what the row is about, e.g. a Services
    row's ``5 Air conditioning``) on ``frame.attrs``; returns ``frame``."""
    if kind is not None:
        frame.attrs[KIND] = kind
    if labels:
        frame.attrs[LABELS] = labels if isinstance(labels, Shared) else Shared(labels)
    if names:
        frame.attrs[NAMES] = names if isinstance(names, Shared) else Shared(names)
    if rows:
        frame.attrs[ROWS] = rows if isinstance(rows, Shared) else Shared(rows)
    return frame


def kind_of(frame: pd.DataFrame | None, title: str = "") -> str:
    """``rates``, ``rooms`` or ``content``: from ``frame.attrs``, else the report's title, else rates."""
    if frame is not None and frame.attrs.get(KIND):
        return str(frame.attrs[KIND])
    words = title.lower()
    return next((k for k, w in (("rooms", "room"), ("content", "content")) if w in words), "rates")


def names_of(*frames: pd.DataFrame | None) -> Mapping[str, str]:
    """The property names the frames carry (the first that has them)."""
    for f in frames:
        if f is not None and f.attrs.get(NAMES):
            return f.attrs[NAMES]
    return {}


def rows_of(frame: pd.DataFrame | None) -> Mapping[tuple[str, str, int], tuple[str, str]]:
    return frame.attrs.get(ROWS, {}) if frame is not None else {}


def named(code: object, names: Mapping[str, str]) -> str:
    """``1000001 Hotel Aurora Amsterdam`` (the code alone when no name is known)."""
    shown = text(code)
    name = names.get(shown, "")
    return f"{shown} {name}" if name and shown else shown


def names_from(frame: pd.DataFrame, code: str = "hotel_code", name: str = "hotel_name") -> Shared:
    """code -> name from a frame with both columns (a registry's properties, a content Property part)."""
    if frame is None or code not in frame or name not in frame:
        return Shared()
    both = frame[[code, name]].dropna()
    return Shared({text(c): str(n) for c, n in zip(both[code], both[name], strict=True) if text(n)})


def row_map(frames: Iterable[tuple[pd.DataFrame, pd.Series, pd.Series]]) -> Shared:
    """(source, sheet, row) -> (property, group) from each ``(frame, its rows' property, their group)``
    (the group: a room type, a part)."""
    out: dict[tuple[str, str, int], tuple[str, str]] = {}
    for frame, props, groups in frames:
        if frame is None or frame.empty:
            continue
        for s, sh, r, p, g in zip(frame["source"], frame["sheet"], frame["row"], props, groups, strict=True):
            if pd.notna(r):
                out[(text(s), text(sh), int(r))] = (text(p), text(g))
    return Shared(out)


def facility_labels(services: pd.DataFrame) -> Shared:
    """(source, sheet, row) -> ``5 Air conditioning`` for each row of a content ``Services`` frame whose
    code has a known name (:func:`expectations.hotel_amenities.facility_label`)."""
    from expectations.hotel_amenities import facility_label, services_rows

    if services is None or services.empty or "row" not in services:
        return Shared()
    mine = services[services_rows(services).to_numpy()]
    out = {(text(s), text(sh), int(r)): facility_label(c)
           for s, sh, r, c in zip(mine["source"], mine["sheet"], mine["row"], mine["code"], strict=True) if pd.notna(r)}
    return Shared({k: v for k, v in out.items() if v})


def issue_labels(issues: pd.DataFrame) -> pd.Series:
    """What each issue's row is about (:func:`facility_labels`), where the check told it; blank otherwise."""
    labels = issues.attrs.get(LABELS, {})
    if not labels or issues.empty:
        return pd.Series("", index=issues.index, dtype=object)
    return pd.Series([labels.get((text(s), text(sh), int(r)), "") if pd.notna(r) else ""
                      for s, sh, r in zip(issues["source"], issues["sheet"], issues["row"], strict=True)],
                     index=issues.index, dtype=object)


def issue_groups(issues: pd.DataFrame) -> pd.Series:
    """Each issue's room type (rooms), where the check's rows tell it; blank otherwise."""
    return _from_rows(issues, 1)


def issue_properties(issues: pd.DataFrame) -> pd.Series:
    """Each issue's property (code), where the check's rows tell it; blank otherwise."""
    return _from_rows(issues, 0)


def _from_rows(issues: pd.DataFrame, at: int) -> pd.Series:
    rows = rows_of(issues)
    if not rows or issues.empty:
        return pd.Series("", index=issues.index, dtype=object)
    return pd.Series([rows.get((text(s), text(sh), int(r)) if pd.notna(r) else ("", "", 0), ("", ""))[at]
                      for s, sh, r in zip(issues["source"], issues["sheet"], issues["row"], strict=True)],
                     index=issues.index, dtype=object)
