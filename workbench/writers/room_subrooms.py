"""The ``TPA_Extensions/SubRooms`` part of an Overlay: every sub-room of the room with its beds.

The part replaces all the room's sub-rooms and their beds, so it is sent only when it is whole:

- **stated whole**: the room's Rooms row gives ``SubRoomCount`` and the SubRooms sheet lists that
  many sub-rooms (checked by ``expectations``), their beds on the Amenities sheet; what is listed
  is sent as it is (a blank cell is sent as "not set": there is nothing read to keep);
- **read**: the platform's answer carried the room's sub-rooms (the published one does not), then
  the sheet's rows are merged into them by key (``Bedroom 1`` …), blank cells keeping what is stored.

An empty part (no sub-room at all) removes every sub-room and bed: it is sent only when the analyst
asked for that, with ``SubRoomCount`` 0 or a ``Remove`` on every stored sub-room.

Otherwise the part is not sent and the first sheet row about a sub-room gets the issue.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from workbench.ota import SubRoom
from workbench.writers.room_amenities import (
    State,
    amenities_of,
    apply_rows,
    conflict_text,
    label,
    render,
    show,
    state_of,
)
from workbench.writers.room_parts import UNKNOWN, RoomContext, subrooms_unknown_issue
from workbench.writers.room_values import integer, value

ATTRS = {"subroom_type": "RoomType", "max_guests": "MaxGuests", "number": "Number", "private_bathroom": "PrivateBathroom"}


@dataclass
class Sub:
    key: str
    attrs: dict[str, object]
    beds: State

    def message(self) -> SubRoom:
        return SubRoom(str(self.attrs["subroom_type"]), integer(self.attrs["max_guests"]),
                       integer(self.attrs["number"]), integer(self.attrs["private_bathroom"]), amenities_of(self.beds))

    def same_as(self, other: Sub) -> bool:
        return ({k: _norm(v) for k, v in self.attrs.items()} == {k: _norm(v) for k, v in other.attrs.items()}
                and self.beds == other.beds)


def _norm(v: object) -> str | None:
    return None if value(v) is None else str(v)


def _stored(cur_subs: pd.DataFrame, cur_beds: pd.DataFrame) -> list[Sub]:
    return [Sub(str(s["subroom"]), {c: value(s[c]) for c in ATTRS},
                state_of(cur_beds[cur_beds["subroom"] == s["subroom"]])) for _, s in cur_subs.iterrows()]


def _render(subs: list[Sub] | None) -> str:
    if subs is None:
        return UNKNOWN
    if not subs:
        return "(none)"
    out = []
    for s in subs:
        attrs = ", ".join(f"{ATTRS[c]}={v}" for c, v in s.attrs.items() if value(v) is not None and c != "subroom_type")
        out.append(f"{s.key}: {s.attrs['subroom_type']}" + (f", {attrs}" if attrs else "")
                   + (f", beds {render(s.beds)}" if s.beds else ""))
    return "; ".join(out)


def subrooms_part(ctx: RoomContext, row: pd.Series | None, subs: pd.DataFrame, beds: pd.DataFrame,
                  cur_subs: pd.DataFrame | None, cur_beds: pd.DataFrame | None,
                  ours: bool = False) -> tuple[SubRoom, ...] | None:
    """The whole SubRooms part to send, or None (unchanged, or not whole: then an issue is recorded).
    ``cur_subs``/``cur_beds`` are None when the read did not carry the room's sub-rooms; ``ours``: an earlier
    push created the room type (a part that is not whole is then a warning, not an error)."""
    count = integer(row["subroom_count"]) if row is not None else None
    if subs.empty and beds.empty and count is None:
        return None
    stored = _stored(cur_subs, cur_beds) if cur_subs is not None and cur_beds is not None else None
    if count is not None:
        desired = _stated(subs, beds)
        if stored is None:
            for s in desired:
                if s.attrs["subroom_type"] == "Bedroom" and not s.beds:
                    where = subs[subs["subroom"] == s.key].iloc[0]
                    ctx.issue(where, "subroom", "SubRoom", "subroom_without_beds",
                              f"bedroom `{s.key}` of {ctx.label} has no beds on the Amenities sheet: the SubRooms "
                              "part replaces every sub-room with its beds, so its stored beds would be removed; add "
                              "its beds (rows with this SubRoom on the Amenities sheet) (PART_INCOMPLETE)")
            if ctx.failed:
                return None
    elif stored is None:
        rows = [r for _, r in subs.iterrows()] + [r for _, r in beds.iterrows()]
        subrooms_unknown_issue(ctx, rows, row is not None, ours)
        return None
    else:
        merged = _merged(ctx, stored, subs, beds)
        if merged is None:
            return None
        desired = merged
    if stored is not None and len(stored) == len(desired) and all(a.same_as(b) for a, b in zip(stored, desired,
                                                                                                 strict=True)):
        return None
    if not desired and not _removes_all(ctx, row, count, subs, stored):
        return None
    _diff(ctx, stored, desired)
    ctx.part("SubRooms", "every sub-room and its beds", _render(stored), _render(desired))
    return tuple(s.message() for s in desired)


def _removes_all(ctx: RoomContext, row: pd.Series | None, count: int | None, subs: pd.DataFrame,
                 stored: list[Sub] | None) -> bool:
    """An empty ``SubRooms`` removes every sub-room and bed: it is sent only when the analyst said so, with
    ``SubRoomCount`` 0 or a ``Remove`` on every stored sub-room; otherwise the part is not sent and the row
    that states the count gets the issue."""
    if count == 0:
        return True
    removed = set(subs.loc[subs["remove"].fillna(False).astype(bool), "subroom"].astype(str))
    if count is None and stored and {s.key for s in stored} <= removed:
        return True
    if row is not None and count is not None:
        ctx.issue(row, "subroom_count", "SubRoomCount", "part_incomplete",
                  f"`SubRoomCount` of {ctx.label} is {count}, but the SubRooms sheet lists none of its sub-rooms: "
                  "sending the `SubRooms` part would remove every sub-room and its beds; list the sub-rooms on the "
                  "SubRooms sheet, or put 0 in `SubRoomCount` to remove them all (PART_INCOMPLETE)")
    return False


def _stated(subs: pd.DataFrame, beds: pd.DataFrame) -> list[Sub]:
    out = []
    for _, s in subs.iterrows():
        if bool(value(s["remove"]) or False):
            continue
        mine = beds[(beds["subroom"] == s["subroom"]) & ~beds["remove"].fillna(False).astype(bool)]
        out.append(Sub(str(s["subroom"]), {c: value(s[c]) for c in ATTRS}, state_of(mine)))
    return out


def _merged(ctx: RoomContext, stored: list[Sub], subs: pd.DataFrame, beds: pd.DataFrame) -> list[Sub] | None:
    """The sheet's rows merged into the read sub-rooms by key; None when a row is ambiguous."""
    by_key = {s.key: s for s in stored}
    order = list(dict.fromkeys([*by_key, *subs["subroom"].dropna().astype(str), *beds["subroom"].dropna().astype(str)]))
    out = []
    for key in order:
        new = subs[subs["subroom"] == key]
        n = new.iloc[0] if len(new) else None
        old = by_key.get(key)
        if n is not None and bool(value(n["remove"]) or False):
            continue
        if old is None and n is None:
            continue  # beds of a sub-room that is not there: reported by the rules (unknown_subroom)
        attrs = {c: (value(n[c]) if n is not None and value(n[c]) is not None else
                     (old.attrs[c] if old is not None else None)) for c in ATTRS}
        applied = apply_rows(old.beds if old is not None else {}, beds[beds["subroom"] == key])
        for r in applied.ambiguous:
            ctx.issue(r, "configuration", "Configuration", "configuration_ambiguous",
                      f"amenity {integer(r['amenity_code'])} is stored twice in sub-room `{key}` of {ctx.label}: "
                      "give the Configuration (1 or 2) of the one to change (CONFIGURATION_AMBIGUOUS)")
        for r, amenity in applied.conflicts:
            ctx.issue(r, "amenity_code", "AmenityCode", "amenity_conflict",
                      conflict_text(amenity, f"sub-room `{key}` of {ctx.label}"))
        out.append(Sub(key, attrs, applied.desired))
    return None if ctx.failed else out


def _diff(ctx: RoomContext, stored: list[Sub] | None, desired: list[Sub]) -> None:
    by_key = {s.key: s for s in stored} if stored is not None else {}
    for s in desired:
        old = by_key.pop(s.key, None)
        for c, ota in ATTRS.items():
            before = old.attrs[c] if old is not None else (UNKNOWN if stored is None else None)
            if _norm(before) != _norm(s.attrs[c]) and (value(s.attrs[c]) is not None or old is not None):
                ctx.diff("subroom", s.key, ota, "", before, s.attrs[c],
                         "set" if stored is None else "added" if old is None else "changed")
        old_beds = old.beds if old is not None else {}
        for k in sorted(set(s.beds) | set(old_beds), key=lambda k: (k[0], k[1] or 0)):
            if k in s.beds and k in old_beds and s.beds[k] == old_beds[k]:
                continue
            before = show(old_beds[k], k[1]) if k in old_beds else (UNKNOWN if stored is None else None)
            after = show(s.beds[k], k[1]) if k in s.beds else None
            change = "set" if stored is None else "removed" if after is None else "added" if k not in old_beds \
                else "changed"
            ctx.diff("subroom_amenity", s.key, str(k[0]), label(k[0]), before, after, change)
    for key, old in by_key.items():
        ctx.diff("subroom", key, "RoomType", "", old.attrs["subroom_type"], None, "removed")


__all__ = ["subrooms_part"]
