"""Planning room-type requests safely: merge the analyst's sheet into the platform's state.

An Overlay replaces what the platform stores, part by part, so each request is built from the
current state (read with OTA_HotelDescriptiveInfo) with the analyst's change merged in:

- a blank cell keeps the stored value; only the parts the analyst changed are sent, each **whole**
  (:mod:`workbench.writers.room_parts`); a part whose whole content is neither in the read nor
  stated on the sheet is not sent, and the room gets an issue on the analyst's cell saying what
  to fill in (the platform's read has no RoomID, size, units or sub-rooms);
- amenities are keyed by (code, Configuration) (:mod:`workbench.writers.room_amenities`); the ones
  the analyst did not mention are sent again; one is removed only when asked (``Value`` 0 or
  ``remove``), as ``Value="0"``; the spec's exception (an update of bed types only leaves other
  amenities alone, and vice versa) is used, so only the kind that changes is sent;
- sub-rooms are sent only as the whole list (:mod:`workbench.writers.room_subrooms`), and an empty list only
  when the analyst asks to remove them all;
- what earlier pushes sent (``sent``, :mod:`workbench.writers.room_sent`) fills the facts the read lacks; a room
  type an earlier push created (the ``mapping``) whose part is unknown gets a warning, not an error;
- ``Active`` 0 / 1 deactivates / reactivates (``InvStatusType``);
- a room type to create that is already on the platform (its RoomID in the mapping of earlier
  pushes, the same RoomID when the read carries RoomIDs, else the same name) is not created again:
  it becomes an Overlay of the room type found.

Pure: frames in, :class:`RoomsPlan` out (``diff``: fact by fact; ``parts``: each part replaced,
before → after; ``issues``: what keeps a room from being sent).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from expectations.rooms import MAX_ROOM_TYPES, bed_types
from loaders.issues import combine, empty_issues, issues_from_records
from loaders.rooms import room_keys
from workbench.ota import (
    AMENITIES_FACT,
    FACTS,
    NEW,
    OVERLAY,
    SUBROOMS_FACT,
    Amenity,
    PlatformRooms,
    RoomTypeMessage,
    SubRoom,
    build_inv_notif,
)
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
from workbench.writers.room_parts import ATTRIBUTE_PARTS, UNKNOWN, RoomContext, attribute_part, status_part
from workbench.writers.room_sent import with_sent
from workbench.writers.room_subrooms import subrooms_part
from workbench.writers.room_values import integer, text, value, wire

DIFF_COLUMNS = ["hotel_code", "inv_code", "room_id", "room_name", "part", "subroom", "item", "item_name", "before",
                "after", "change"]
PARTS_COLUMNS = ["hotel_code", "inv_code", "room_id", "room_name", "part", "replaces", "before", "after"]
MATCHED_COLUMNS = ["hotel_code", "room_id", "room_name", "inv_code", "how"]
_MESSAGE_PARTS = (("Room", "room"), ("Occupancy", "occupancy"), ("TPA_Extensions/Occupancy", "child_payable"),
                  ("Quantities", "quantities"), ("Description", "name"), ("Amenities", "amenities"),
                  ("SubRooms", "subrooms"), ("InvStatusType", "status"))


@dataclass
class PlannedRequest:
    """One InvNotif request (one room type)."""

    hotel_code: int
    notif_type: str
    inv_code: str | None
    room_id: str | None
    room_name: str | None
    message: RoomTypeMessage
    rows: list[tuple[str, str, int]]  # (source, sheet, row) of the Rooms row, for the InvCode copy

    @property
    def body(self) -> bytes:
        return build_inv_notif(self.hotel_code, [self.message])

    @property
    def parts(self) -> str:
        m = self.message
        return ", ".join(name for name, attr in _MESSAGE_PARTS if getattr(m, attr) is not None)


@dataclass
class RoomsPlan:
    requests: list[PlannedRequest]
    diff: pd.DataFrame
    issues: pd.DataFrame
    matched: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=MATCHED_COLUMNS))
    parts: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=PARTS_COLUMNS))

    @property
    def ok(self) -> bool:
        return not (self.issues["severity"] == "error").any()

    def summary(self) -> pd.DataFrame:
        return pd.DataFrame([{"hotel_code": r.hotel_code, "notif_type": r.notif_type, "inv_code": r.inv_code,
                              "room_id": r.room_id, "room_name": r.room_name, "parts": r.parts} for r in self.requests],
                            columns=["hotel_code", "notif_type", "inv_code", "room_id", "room_name", "parts"])


def plan_rooms(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame,
               platform: PlatformRooms | None, *, mapping: pd.DataFrame | None = None,
               sent: PlatformRooms | None = None) -> RoomsPlan:
    """The requests that bring the platform to the sheet (see the module docstring), with the diff.
    ``platform`` None: the state was not read, so only what the sheet states whole can be planned.
    ``mapping``: RoomID -> InvCode of room types created by earlier pushes (their parts whose content is
    unknown are not sent, with a warning). ``sent``: what earlier pushes sent and the platform accepted
    (:func:`workbench.writers.room_sent.sent_rooms`), filling the facts the read lacks."""
    read = platform is not None
    state = platform if platform is not None else PlatformRooms.empty()
    if platform is not None and sent is not None:
        state = with_sent(platform, sent)
    ours = set() if mapping is None or not len(mapping) else set(zip(
        mapping["hotel_code"].astype("string"), mapping["inv_code"].astype("string"), strict=True))
    headers = {**subrooms.attrs.get("headers", {}), **amenities.attrs.get("headers", {}),
               **rooms.attrs.get("headers", {})}
    rooms = rooms.assign(room_key=room_keys(rooms))
    subrooms = subrooms.assign(room_key=room_keys(rooms, subrooms) if len(subrooms) else pd.Series(dtype="string"))
    amenities = amenities.assign(room_key=room_keys(rooms, amenities) if len(amenities) else pd.Series(dtype="string"))
    keys = list(dict.fromkeys([*rooms["room_key"], *subrooms["room_key"].dropna(), *amenities["room_key"].dropna()]))
    prooms = state.rooms.assign(inv_code=state.rooms["inv_code"].astype("string"))
    requests: list[PlannedRequest] = []
    contexts: list[RoomContext] = []
    records: list[dict] = []
    matched: list[dict] = []
    for key in keys:
        sheet_room = rooms[rooms["room_key"] == key]
        row = sheet_room.iloc[0] if len(sheet_room) else None
        subs = subrooms[subrooms["room_key"] == key]
        amen = amenities[amenities["room_key"] == key]
        first = row if row is not None else (subs.iloc[0] if len(subs) else amen.iloc[0])
        hotel = integer(first["hotel_code"])
        if hotel is None:
            continue
        inv = text(first["inv_code"])
        here = prooms[prooms["hotel_code"] == hotel]
        ctx = RoomContext(hotel, inv, text(row["room_id"]) if row is not None else text(first["room_id"]),
                          text(row["room_name"]) if row is not None else None, headers, read)
        contexts.append(ctx)
        if inv is None and row is not None:  # a room type to create: is it there already?
            found, how = _find_existing(ctx, here, row, mapping)
            if ctx.failed:
                continue
            if found is not None:
                inv = ctx.inv = found
                matched.append({"hotel_code": hotel, "room_id": ctx.room_id, "room_name": ctx.room_name,
                                "inv_code": found, "how": how})
        if inv is None:
            if row is None or value(row["room_type"]) is None:
                continue  # no room, or no RoomType: the rules already reported it (nothing can be created)
            requests.append(_new(ctx, row, subs, amen))
            continue
        current = here[here["inv_code"] == inv]
        cur = current.iloc[0] if len(current) else None
        if read and cur is None:
            active = integer(row["active"]) if row is not None else None
            if active == 0:
                ctx.issue(row, "active", "Active", "already_inactive",
                          f"room type {inv} is not among the active room types the platform lists for property "
                          f"{hotel}: it is taken to be deactivated already, and nothing of it is sent (check the "
                          "InvCode if it should be there)", severity="warning")
                continue
            if active != 1:
                records.append(_unknown_inv_code(ctx, first, inv, hotel))
                continue
        if cur is not None:
            ctx.room_id = ctx.room_id or text(cur["room_id"])
            ctx.room_name = ctx.room_name or text(cur["room_name"])
        unknown = state.unknown_facts(hotel, inv) if read else frozenset(FACTS)
        known_only = "created" if text(first["inv_code"]) is None else "reactivated" if read and cur is None else None
        req = _overlay(ctx, row, cur, subs, amen, state, unknown, known_only=known_only,
                       ours=(str(hotel), inv) in ours)
        if req is not None and not ctx.failed:
            requests.append(req)
    records += [i for c in contexts for i in c.issues] + _too_many(requests, prooms)
    diff = pd.DataFrame([d for c in contexts for d in c.diffs], columns=DIFF_COLUMNS)
    parts = pd.DataFrame([p for c in contexts for p in c.parts], columns=PARTS_COLUMNS)
    issues = combine([issues_from_records(records)]) if records else empty_issues()
    return RoomsPlan(requests, diff, issues, pd.DataFrame(matched, columns=MATCHED_COLUMNS), parts)


def _unknown_inv_code(ctx: RoomContext, where: pd.Series, inv: str, hotel: int) -> dict:
    return {"source": where["source"], "sheet": where["sheet"], "row": where["row"],
            "column": ctx.header(where, "inv_code", "InvCode"), "value": str(inv), "rule": "unknown_inv_code",
            "severity": "error",
            "message": f"room type {inv} is not an active room type of property {hotel} on the platform: check the "
                       "InvCode; to reactivate a deactivated room type, put 1 in `Active` on its Rooms row "
                       "(UNKNOWN_INV_CODE)"}


def _find_existing(ctx: RoomContext, here: pd.DataFrame, row: pd.Series,
                   mapping: pd.DataFrame | None) -> tuple[str | None, str]:
    """The InvCode of a platform room type that a row to create already is, and how it was found."""
    rid, name = text(row["room_id"]), text(row["room_name"])
    if rid is not None and mapping is not None and len(mapping):
        m = mapping[(mapping["hotel_code"].astype("string") == str(ctx.hotel))
                    & (mapping["room_id"].astype("string") == rid)]
        if len(m):
            inv = str(m["inv_code"].iloc[-1])
            if inv in set(here["inv_code"].dropna()):
                return inv, "found on the platform before sending (its RoomID is in the mapping)"
            ctx.issue(row, "room_id", "RoomID", "mapped_room_not_active",
                      f"RoomID {rid} was created earlier as room type {inv} (the mapping), which is not among the "
                      "active room types on the platform: put InvCode "
                      f"{inv} on this row (and 1 in `Active` to reactivate it), or remove its line from the mapping "
                      "to create it again")
            return None, ""
    if rid is not None and here["room_id"].notna().any():  # the read carries RoomIDs: they decide
        hit = here[here["room_id"].astype("string") == rid]
        return (str(hit["inv_code"].iloc[0]), "found on the platform before sending (same RoomID)") \
            if len(hit) == 1 else (None, "")
    if name is None:
        return None, ""
    hit = here[here["room_name"].astype("string").str.casefold().str.strip() == name.casefold().strip()]
    if len(hit) != 1:
        return None, ""
    inv = str(hit["inv_code"].iloc[0])
    ctx.issue(row, "room_name", "RoomTypeName", "matched_by_name",
              f"`{name}` is taken to be room type {inv}, already on the platform, and is overlaid, not created "
              "again: matched by name, because the platform's read has no RoomID. If it is another room type, give "
              "it a different name", severity="warning")
    return inv, "found on the platform before sending (same name)"


def _new(ctx: RoomContext, row: pd.Series, subs: pd.DataFrame, amen: pd.DataFrame) -> PlannedRequest:
    values = {part: {ota: wire(value(row[c])) for c, ota in columns.items() if value(row[c]) is not None}
              for part, columns in ATTRIBUTE_PARTS.items()}
    live = ~amen["remove"].fillna(False).astype(bool)
    own = state_of(amen[amen["subroom"].isna() & live])
    sub_objs = []
    for _, s in subs[~subs["remove"].fillna(False).astype(bool)].iterrows():
        beds = state_of(amen[(amen["subroom"] == s["subroom"]) & live])
        sub_objs.append(SubRoom(str(s["subroom_type"]), integer(s["max_guests"]), integer(s["number"]),
                                integer(s["private_bathroom"]), amenities_of(beds)))
        ctx.diff("subroom", s["subroom"], str(s["subroom_type"]), "", None, s["subroom_type"], "added")
        for (code, conf), count in beds.items():
            ctx.diff("subroom_amenity", s["subroom"], str(code), label(code), None, show(count, conf), "added")
    for part, attrs in values.items():
        for attr, text_value in attrs.items():
            ctx.diff("room", None, attr, "", None, text_value, "added")
        if attrs:
            ctx.part(part, "the whole part", None, ", ".join(f"{k}={v}" for k, v in attrs.items()))
    for (code, conf), count in own.items():
        ctx.diff("amenity", None, str(code), label(code), None, show(count, conf), "added")
    if own:
        ctx.part("Amenities", "every amenity", None, render(own))
    if sub_objs:
        ctx.part("SubRooms", "every sub-room and its beds", None, "; ".join(s.room_type for s in sub_objs))
    occupancy = {k: int(v) for k, v in values["Occupancy"].items()}
    quantities = {k: int(v) for k, v in values["Quantities"].items()}
    payable = values["TPA_Extensions/Occupancy"].get("MaxChildPayableOccupancy")
    msg = RoomTypeMessage(NEW, None, name=ctx.room_name, occupancy=occupancy or None,
                          child_payable=int(payable) if payable is not None else None, room=values["Room"],
                          quantities=quantities or None, amenities=amenities_of(own) or None,
                          subrooms=tuple(sub_objs) if sub_objs else None)
    return PlannedRequest(ctx.hotel, NEW, None, ctx.room_id, ctx.room_name, msg,
                          [(row["source"], row["sheet"], int(row["row"]))])


#: why a row is compared with the read only, and what the analyst can do about the rest
_KNOWN_ONLY = {
    "created": ("is already on the platform, so this row is compared with the platform's read and only what differs "
                "is sent", "to change them, put InvCode {inv} on the row and state their parts whole"),
    "reactivated": ("is not active on the platform, so it is not in the platform's read: this push only reactivates "
                    "it", "push the workbook again once it is active to send them"),
}


def _overlay(ctx: RoomContext, row: pd.Series | None, cur: pd.Series | None, subs: pd.DataFrame, amen: pd.DataFrame,
             state: PlatformRooms, unknown: frozenset[str], *, known_only: str | None = None,
             ours: bool = False) -> PlannedRequest | None:
    """The Overlay of one room type. ``known_only`` (``created``: the row asked to create a room type
    already on the platform; ``reactivated``: an inactive one is reactivated): what the read does not
    carry is not compared and not sent, and a warning says so."""
    inv = str(ctx.inv)
    skipped: list[str] | None = [] if known_only else None
    room = attribute_part(ctx, "Room", row, cur, unknown, skipped, ours)
    occ = attribute_part(ctx, "Occupancy", row, cur, unknown, skipped, ours)
    payable = attribute_part(ctx, "TPA_Extensions/Occupancy", row, cur, unknown, skipped, ours)
    qty = attribute_part(ctx, "Quantities", row, cur, unknown, skipped, ours)
    name = attribute_part(ctx, "Description", row, cur, unknown, skipped, ours)
    count_row = row  # the row whose SubRoomCount states the sub-rooms whole
    if known_only and SUBROOMS_FACT in unknown and (len(subs) or amen["subroom"].notna().any()
                                                    or (row is not None and value(row["subroom_count"]) is not None)):
        # the sub-rooms are not compared: neither the sheet's rows nor its SubRoomCount plan the part
        skipped = [*(skipped or []), "its sub-rooms and their beds"]
        subs, amen, count_row = subs.iloc[:0], amen[amen["subroom"].isna()], None
    if known_only and AMENITIES_FACT in unknown and amen["subroom"].isna().any():
        skipped = [*(skipped or []), "its amenities"]
        amen = amen[amen["subroom"].notna()]
    if skipped and row is not None and known_only:
        reason, advice = _KNOWN_ONLY[known_only]
        ctx.issue(row, "room_name", "RoomTypeName", "not_compared",
                  f"room type {inv} {reason}; {', '.join(skipped)} cannot be compared with the platform's read, so "
                  f"they are not sent: {advice.format(inv=inv)}", severity="warning")
    mine = (state.amenities["hotel_code"] == ctx.hotel) & (state.amenities["inv_code"].astype("string") == inv)
    cur_amen = state.amenities[mine]
    own_current = state_of(cur_amen[cur_amen["subroom"].isna()]) if AMENITIES_FACT not in unknown else None
    amenities = _own_amenities(ctx, amen[amen["subroom"].isna()], own_current)
    if SUBROOMS_FACT in unknown:
        cur_subs = cur_beds = None
    else:
        s = state.subrooms
        cur_subs = s[(s["hotel_code"] == ctx.hotel) & (s["inv_code"].astype("string") == inv)]
        cur_beds = cur_amen[cur_amen["subroom"].notna()]
    subrooms = subrooms_part(ctx, count_row, subs, amen[amen["subroom"].notna()], cur_subs, cur_beds, ours)
    status = status_part(ctx, row, cur is not None)
    if ctx.failed or all(p is None for p in (room, occ, payable, qty, name, amenities, subrooms, status)):
        return None
    msg = RoomTypeMessage(OVERLAY, inv, name=name["Text"] if name else None,
                          occupancy={k: int(v) for k, v in occ.items()} if occ else None,
                          child_payable=int(payable["MaxChildPayableOccupancy"]) if payable else None,
                          room=room, quantities={k: int(v) for k, v in qty.items()} if qty else None,
                          amenities=amenities, subrooms=subrooms, status=status)
    rows = [(row["source"], row["sheet"], int(row["row"]))] if row is not None else []
    return PlannedRequest(ctx.hotel, OVERLAY, inv, ctx.room_id, ctx.room_name, msg, rows)


def _own_amenities(ctx: RoomContext, rows: pd.DataFrame, current: State | None) -> tuple[Amenity, ...] | None:
    """The room's own ``Amenities`` to send: the kind(s) that change, whole; None when nothing changes."""
    if rows.empty:
        return None
    removal = rows["remove"].fillna(False).astype(bool)
    if current is None:  # not read: only removals can be sent safely (E1 rule 3: Value=0 removes exactly that)
        if removal.all():
            items: list[Amenity] = []
            for _, r in rows.iterrows():
                code, conf = integer(r["amenity_code"]), integer(r["configuration"])
                if code is not None and (code, conf) not in {a.key for a in items}:
                    items.append(Amenity(code, 0, conf))
                    ctx.diff("amenity", None, str(code), label(code), UNKNOWN, None, "removed")
            ctx.part("Amenities", "only the amenities listed (Value 0 removes them)", UNKNOWN,
                     "remove " + ", ".join(f"{a.code}" + (f" (configuration {a.configuration})"
                                                          if a.configuration is not None else "") for a in items))
            return tuple(items) or None
        first = rows[~removal].iloc[0]
        ctx.issue(first, "amenity_code", "AmenityCode", "part_incomplete",
                  f"amenity {integer(first['amenity_code'])} of {ctx.label} is sent with every other amenity of its "
                  f"kind (`Amenities` replaces them), and {ctx.why_unknown()} for this room's amenities, so the "
                  "others would be removed: read the platform first (settings), or only remove amenities here "
                  "(Value 0) (PART_INCOMPLETE)")
        return None
    applied = apply_rows(current, rows)
    for r in applied.ambiguous:
        ctx.issue(r, "configuration", "Configuration", "configuration_ambiguous",
                  f"amenity {integer(r['amenity_code'])} of {ctx.label} is stored in both arrangements "
                  "(Configuration 1 and 2): give the Configuration of the one to change (CONFIGURATION_AMBIGUOUS)")
    for r, key in applied.conflicts:
        ctx.issue(r, "amenity_code", "AmenityCode", "amenity_conflict", conflict_text(key, ctx.label))
    touched = applied.touched(current)
    if ctx.failed or not touched:
        return None
    for code, conf in touched:
        key = (code, conf)
        change = "removed" if key in applied.removed else "added" if key not in current else "changed"
        ctx.diff("amenity", None, str(code), label(code), show(current[key], conf) if key in current else None,
                 show(applied.desired[key], conf) if key in applied.desired else None, change)
    beds = bed_types()
    kinds = {code in beds for code, _ in touched}
    keep = [k for k in applied.desired if len(kinds) == 2 or (k[0] in beds) in kinds]
    name = "Amenities" if len(kinds) == 2 else "Amenities (beds)" if True in kinds else "Amenities (not beds)"

    def of_kind(s: State) -> State:
        return {k: v for k, v in s.items() if len(kinds) == 2 or (k[0] in beds) in kinds}
    ctx.part(name, "every amenity of this kind" if len(kinds) == 1 else "every amenity", render(of_kind(current)),
             render(of_kind(applied.desired)))
    return amenities_of(applied.desired, keep) + tuple(Amenity(c, 0, cf) for c, cf in sorted(
        applied.removed, key=lambda k: (k[0], k[1] or 0)))


def _too_many(requests: list[PlannedRequest], prooms: pd.DataFrame) -> list[dict]:
    out = []
    for hotel in {r.hotel_code for r in requests if r.notif_type == NEW}:
        new = [r for r in requests if r.hotel_code == hotel and r.notif_type == NEW]
        existing = int((prooms["hotel_code"] == hotel).sum())
        if existing + len(new) > MAX_ROOM_TYPES:
            for r in new[max(0, MAX_ROOM_TYPES - existing):]:
                source, sheet, row = r.rows[0]
                out.append({"source": source, "sheet": sheet, "row": row, "column": "HotelCode", "value": str(hotel),
                            "rule": "too_many_room_types", "severity": "error",
                            "message": f"property {hotel} has {existing} active room types on the platform; creating "
                                       f"{len(new)} more would pass the limit of {MAX_ROOM_TYPES} "
                                       "(TOO_MANY_ROOM_TYPES)"})
    return out
