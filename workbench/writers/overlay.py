"""Planning room-type requests safely: merge the analyst's sheet into the platform's state.

An Overlay replaces what the platform stores, so each request is built from the current state
(read with OTA_HotelDescriptiveInfo) with the analyst's change merged in:

- a blank cell keeps the stored value; only the parts the analyst changed are sent (Room
  attributes, Occupancy with MaxChildPayableOccupancy, Quantities, the name, Amenities,
  SubRooms), each part in full;
- amenities the analyst did not mention are sent again; an amenity is removed only when the
  analyst asked (``Value`` 0 or the word ``remove``), as ``Value="0"``;
- the spec's exception (an update of bed types only leaves other amenities alone, and vice
  versa) is used: when every changed amenity is a bed type (or every one is not), only that
  kind is sent, so the platform keeps the other kind untouched;
- a room type to create whose ``RoomID`` (or, without one, its name) is already on the platform
  is not created again: it becomes an Overlay of the room type found.

Pure: frames in, :class:`RoomsPlan` out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import pandas as pd

from expectations.rooms import MAX_ROOM_TYPES, amenity_names, bed_types, room_type_code
from loaders.issues import combine, empty_issues, issues_from_records
from loaders.rooms import room_keys
from workbench.ota.descriptive_info import PlatformRooms
from workbench.ota.inv_notif import NEW, OVERLAY, Amenity, RoomTypeMessage, SubRoom, build_inv_notif

ROOM_ATTRS = {"room_id": "RoomID", "room_type": "RoomType", "size_measurement": "SizeMeasurement",
              "size_measurement_unit": "SizeMeasurementUnit", "non_smoking": "NonSmoking", "quantity": "Quantity"}
OCCUPANCY = {"max_occupancy": "MaxOccupancy", "max_adult_occupancy": "MaxAdultOccupancy",
             "max_child_occupancy": "MaxChildOccupancy"}
QUANTITIES = {"maximum_additional_guests": "MaximumAdditionalGuests", "max_cribs": "MaxCribs",
              "max_rollaways": "MaxRollaways"}
DIFF_COLUMNS = ["hotel_code", "inv_code", "room_id", "room_name", "part", "subroom", "item", "item_name", "before",
                "after", "change"]
AmenityState = dict[int, tuple[int | None, int | None]]  # code -> (value, configuration)
_Ctx = tuple[int, str | None, str | None, str | None]  # hotel, inv_code, room_id, room_name: a diff row's room


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
        names = [n for n, v in (("Room", m.room), ("Occupancy", m.occupancy), ("Quantities", m.quantities),
                                ("Description", m.name), ("Amenities", m.amenities), ("SubRooms", m.subrooms))
                 if v is not None]
        return ", ".join(names)


@dataclass
class RoomsPlan:
    requests: list[PlannedRequest]
    diff: pd.DataFrame
    issues: pd.DataFrame
    matched: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        columns=["hotel_code", "room_id", "room_name", "inv_code"]))  # rooms to create found already created

    @property
    def ok(self) -> bool:
        return not (self.issues["severity"] == "error").any()

    def summary(self) -> pd.DataFrame:
        return pd.DataFrame([{"hotel_code": r.hotel_code, "notif_type": r.notif_type, "inv_code": r.inv_code,
                              "room_id": r.room_id, "room_name": r.room_name, "parts": r.parts} for r in self.requests],
                            columns=["hotel_code", "notif_type", "inv_code", "room_id", "room_name", "parts"])


def _v(x: object) -> object:
    return None if x is None or (not isinstance(x, (list, tuple, dict)) and pd.isna(x)) else x


def _text(x: object) -> str | None:
    """A cell of a ``string`` column (``room_id``, ``room_name``): its text, or ``None`` when blank."""
    return cast("str | None", _v(x))


def _int(x: object) -> int | None:
    x = _v(x)
    return None if x is None else int(x)  # type: ignore[call-overload]


def _same_type(a: object, b: object) -> bool:
    ca, cb = room_type_code(a), room_type_code(b)
    return (ca == cb) if ca is not None and cb is not None else str(a) == str(b)


def _amenity_state(rows: pd.DataFrame) -> AmenityState:
    return {int(r.amenity_code): (_int(r.value), _int(r.configuration)) for r in rows.itertuples()
            if _v(r.amenity_code) is not None}


def _apply(current: AmenityState, rows: pd.DataFrame) -> tuple[AmenityState, set[int]]:
    """The sheet's amenity rows over the current ones: (desired state, codes removed that exist)."""
    desired = dict(current)
    removed = set()
    for r in rows.itertuples():
        code = _int(r.amenity_code)
        if code is None:
            continue
        if bool(r.remove):
            if desired.pop(code, None) is not None or code in current:
                removed.add(code)
        else:
            old = current.get(code, (None, None))
            desired[code] = (_int(r.value) if _int(r.value) is not None else old[0],
                             _int(r.configuration) if _int(r.configuration) is not None else old[1])
    return desired, removed


def plan_rooms(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame,
               platform: PlatformRooms | None) -> RoomsPlan:
    """The requests that bring the platform to the sheet (see the module docstring), and the diff."""
    platform = platform or PlatformRooms(rooms.iloc[:0], subrooms.iloc[:0], amenities.iloc[:0])
    rooms = rooms.assign(room_key=room_keys(rooms))
    subrooms = subrooms.assign(room_key=room_keys(rooms, subrooms) if len(subrooms) else pd.Series(dtype="string"))
    amenities = amenities.assign(room_key=room_keys(rooms, amenities) if len(amenities) else pd.Series(dtype="string"))
    keys = list(dict.fromkeys([*rooms["room_key"], *subrooms["room_key"].dropna(), *amenities["room_key"].dropna()]))
    prooms = platform.rooms.assign(inv_code=platform.rooms["inv_code"].astype("string"))
    requests: list[PlannedRequest] = []
    diffs: list[dict] = []
    records: list[dict] = []
    matched: list[dict] = []
    for key in keys:
        sheet_room = rooms[rooms["room_key"] == key]
        row = sheet_room.iloc[0] if len(sheet_room) else None
        subs = subrooms[subrooms["room_key"] == key]
        amen = amenities[amenities["room_key"] == key]
        first = row if row is not None else (subs.iloc[0] if len(subs) else amen.iloc[0])
        hotel = _int(first["hotel_code"])
        if hotel is None:
            continue
        inv = _v(first["inv_code"])
        here = prooms[prooms["hotel_code"] == hotel]
        if inv is None and row is not None:  # a room type to create: is it there already?
            found = _find_existing(here, row)
            if found is not None:
                inv = found
                matched.append({"hotel_code": hotel, "room_id": _v(row["room_id"]), "room_name": _v(row["room_name"]),
                                "inv_code": found})
        if inv is None:
            if row is None or _v(row["room_type"]) is None:
                continue  # no room, or no RoomType: the rules already reported it (nothing can be created)
            requests.append(_new(hotel, row, subs, amen, diffs))
            continue
        current = here[here["inv_code"] == str(inv)]
        if current.empty:
            where = first
            records.append({"source": where["source"], "sheet": where["sheet"], "row": where["row"],
                            "column": "InvCode", "value": str(inv), "rule": "unknown_inv_code", "severity": "error",
                            "message": f"room type {inv} is not an active room type of property {hotel} on the "
                                       "platform: check the InvCode (an inactive room type cannot be overlaid "
                                       "here) (UNKNOWN_INV_CODE)"})
            continue
        cur_subs = platform.subrooms[(platform.subrooms["hotel_code"] == hotel)
                                     & (platform.subrooms["inv_code"].astype("string") == str(inv))]
        cur_amen = platform.amenities[(platform.amenities["hotel_code"] == hotel)
                                      & (platform.amenities["inv_code"].astype("string") == str(inv))]
        req = _overlay(hotel, str(inv), row, current.iloc[0], subs, amen, cur_subs, cur_amen, diffs)
        if req is not None:
            requests.append(req)
    records += _too_many(requests, prooms, rooms)
    diff = pd.DataFrame(diffs, columns=DIFF_COLUMNS)
    return RoomsPlan(requests, diff, combine([issues_from_records(records)]) if records else empty_issues(),
                     pd.DataFrame(matched, columns=["hotel_code", "room_id", "room_name", "inv_code"]))


def _find_existing(here: pd.DataFrame, row: pd.Series) -> str | None:
    """The InvCode of a platform room type matching a row to create: same RoomID, else same name."""
    rid = _v(row["room_id"])
    if rid is not None:
        hit = here[here["room_id"].astype("string") == str(rid)]
    else:
        name = _v(row["room_name"])
        if name is None:
            return None
        hit = here[here["room_name"].astype("string").str.casefold().str.strip() == str(name).casefold().strip()]
    return str(hit["inv_code"].iloc[0]) if len(hit) == 1 else None


def _diff(diffs: list[dict], hotel: int, inv: str | None, rid: object, name: object, part: str, subroom: object,
          item: str, item_name: str, before: object, after: object, change: str) -> None:
    diffs.append({"hotel_code": hotel, "inv_code": inv, "room_id": _v(rid), "room_name": _v(name), "part": part,
                  "subroom": _v(subroom), "item": item, "item_name": item_name,
                  "before": None if before is None else str(before), "after": None if after is None else str(after),
                  "change": change})


def _amenity_label(code: int) -> str:
    return amenity_names().get(code, "")


def _amenities_of(state: AmenityState, codes: list[int] | None = None) -> tuple[Amenity, ...]:
    return tuple(Amenity(c, v, cf) for c, (v, cf) in state.items() if codes is None or c in codes)


def _new(hotel: int, row: pd.Series, subs: pd.DataFrame, amen: pd.DataFrame, diffs: list[dict]) -> PlannedRequest:
    rid, name = _text(row["room_id"]), _text(row["room_name"])
    room = {ota: str(_v(row[c])) for c, ota in ROOM_ATTRS.items() if _v(row[c]) is not None}
    occ = {ota: int(row[c]) for c, ota in OCCUPANCY.items() if _v(row[c]) is not None}
    qty = {ota: int(row[c]) for c, ota in QUANTITIES.items() if _v(row[c]) is not None}
    live_subs = subs[~subs["remove"].fillna(False)]
    own = _amenity_state(amen[amen["subroom"].isna() & ~amen["remove"].fillna(False)])
    sub_objs = []
    for s in live_subs.itertuples():
        beds = _amenity_state(amen[(amen["subroom"] == s.subroom) & ~amen["remove"].fillna(False)])
        sub_objs.append(SubRoom(s.subroom_type, _int(s.max_guests), _int(s.number), _int(s.private_bathroom),
                                _amenities_of(beds)))
        _diff(diffs, hotel, None, rid, name, "subroom", s.subroom, s.subroom_type, "", None, s.subroom_type, "added")
        for code, (v, _) in beds.items():
            _diff(diffs, hotel, None, rid, name, "subroom_amenity", s.subroom, str(code), _amenity_label(code), None,
                  v if v is not None else "yes", "added")
    for attr, value in {**room, **{k: v for k, v in occ.items()}, **qty}.items():
        _diff(diffs, hotel, None, rid, name, "room", None, attr, "", None, value, "added")
    if name is not None:
        _diff(diffs, hotel, None, rid, name, "room", None, "RoomTypeName", "", None, name, "added")
    for code, (v, _) in own.items():
        _diff(diffs, hotel, None, rid, name, "amenity", None, str(code), _amenity_label(code), None,
              v if v is not None else "yes", "added")
    msg = RoomTypeMessage(NEW, None, name=name, occupancy=occ or None,
                          child_payable=_int(row["max_child_payable_occupancy"]), room=room, quantities=qty or None,
                          amenities=_amenities_of(own) or None, subrooms=tuple(sub_objs) if sub_objs else None)
    return PlannedRequest(hotel, NEW, None, rid, name, msg, [(row["source"], row["sheet"], int(row["row"]))])


def _merge_attrs(row: pd.Series | None, cur: pd.Series, columns: dict[str, str], diffs: list[dict], ctx: _Ctx,
                 part: str = "room") -> tuple[dict[str, str], bool]:
    """Desired attributes (sheet over platform) and whether the sheet changes any."""
    desired: dict[str, str] = {}
    changed = False
    for c, ota in columns.items():
        before = _v(cur.get(c)) if c in cur else None
        after = _v(row[c]) if row is not None else None
        if after is not None and (before is None or not (_same_type(after, before) if c == "room_type"
                                                          else str(after) == str(before))):
            changed = True
            _diff(diffs, *ctx, part, None, ota, "", before, after, "added" if before is None else "changed")
        value = after if after is not None else before
        if value is not None:
            desired[ota] = str(value)
    return desired, changed


def _overlay(hotel: int, inv: str, row: pd.Series | None, cur: pd.Series, subs: pd.DataFrame, amen: pd.DataFrame,
             cur_subs: pd.DataFrame, cur_amen: pd.DataFrame, diffs: list[dict]) -> PlannedRequest | None:
    name = _text(row["room_name"]) if row is not None else None
    ctx: _Ctx = (hotel, inv, _text(cur["room_id"]) or (_text(row["room_id"]) if row is not None else None),
                 name or _text(cur["room_name"]))
    room, room_changed = _merge_attrs(row, cur, ROOM_ATTRS, diffs, ctx)
    occ_cols = {**OCCUPANCY, "max_child_payable_occupancy": "MaxChildPayableOccupancy"}
    occ, occ_changed = _merge_attrs(row, cur, occ_cols, diffs, ctx)
    payable = occ.pop("MaxChildPayableOccupancy", None)
    qty, qty_changed = _merge_attrs(row, cur, QUANTITIES, diffs, ctx)
    name_changed = name is not None and name != _v(cur["room_name"])
    if name_changed:
        _diff(diffs, *ctx, "room", None, "RoomTypeName", "", _v(cur["room_name"]), name,
              "added" if _v(cur["room_name"]) is None else "changed")
    # the room's own amenities
    cur_own = _amenity_state(cur_amen[cur_amen["subroom"].isna()])
    sheet_own = amen[amen["subroom"].isna()]
    desired, removed = _apply(cur_own, sheet_own)
    touched = {c for c in desired if desired[c] != cur_own.get(c)} | removed
    for c in sorted(touched):
        before, after = cur_own.get(c), desired.get(c)
        change = "removed" if c in removed else "added" if before is None else "changed"
        _diff(diffs, *ctx, "amenity", None, str(c), _amenity_label(c), _show(before), _show(after), change)
    amenities = None
    if touched:
        beds = bed_types()
        kinds = {c in beds for c in touched}
        keep = [c for c in desired if len(kinds) == 2 or ((c in beds) in kinds)]
        amenities = _amenities_of(desired, keep) + tuple(Amenity(c, 0) for c in sorted(removed))
    subrooms = _merge_subrooms(subs, amen[amen["subroom"].notna()], cur_subs, cur_amen[cur_amen["subroom"].notna()],
                               diffs, ctx)
    if not (room_changed or occ_changed or qty_changed or name_changed or amenities is not None
            or subrooms is not None):
        return None
    msg = RoomTypeMessage(OVERLAY, inv, name=name if name_changed else None,
                          occupancy=({k: int(v) for k, v in occ.items()} or None) if occ_changed else None,
                          child_payable=int(payable) if occ_changed and payable is not None else None,
                          room=room if room_changed else None,
                          quantities={k: int(v) for k, v in qty.items()} if qty_changed else None,
                          amenities=amenities, subrooms=subrooms)
    rows = [(row["source"], row["sheet"], int(row["row"]))] if row is not None else []
    return PlannedRequest(hotel, OVERLAY, inv, ctx[2], ctx[3], msg, rows)


def _show(state: tuple[int | None, int | None] | None) -> str | None:
    if state is None:
        return None
    value, conf = state
    text = "yes" if value is None else str(value)
    return text + (f" (configuration {conf})" if conf is not None else "")


def _merge_subrooms(subs: pd.DataFrame, amen: pd.DataFrame, cur_subs: pd.DataFrame, cur_amen: pd.DataFrame,
                    diffs: list[dict], ctx: _Ctx) -> tuple[SubRoom, ...] | None:
    """The whole SubRooms part when the sheet changes any sub-room or sub-room bed; else None."""
    if subs.empty and amen.empty:
        return None
    order = list(dict.fromkeys([*cur_subs["subroom"], *subs["subroom"].dropna(), *amen["subroom"].dropna()]))
    out, changed = [], False
    for key in order:
        cur = cur_subs[cur_subs["subroom"] == key]
        new = subs[subs["subroom"] == key]
        c = cur.iloc[0] if len(cur) else None
        n = new.iloc[0] if len(new) else None
        if n is not None and bool(n["remove"]):
            if c is not None:
                changed = True
                _diff(diffs, *ctx, "subroom", key, c["subroom_type"], "", c["subroom_type"], None, "removed")
            continue
        if c is None and n is None:
            continue  # beds for a sub-room that does not exist: reported by the plan's caller
        attrs = {}
        for col in ("subroom_type", "max_guests", "number", "private_bathroom"):
            before = _v(c[col]) if c is not None else None
            after = _v(n[col]) if n is not None else None
            if after is not None and str(after) != str(before):
                changed = True
                _diff(diffs, *ctx, "subroom", key, col, "", before, after, "added" if c is None else "changed")
            attrs[col] = after if after is not None else before
        cur_beds = _amenity_state(cur_amen[cur_amen["subroom"] == key])
        beds, removed = _apply(cur_beds, amen[amen["subroom"] == key])
        for code in sorted({x for x in beds if beds[x] != cur_beds.get(x)} | removed):
            changed = True
            _diff(diffs, *ctx, "subroom_amenity", key, str(code), _amenity_label(code), _show(cur_beds.get(code)),
                  _show(beds.get(code)), "removed" if code in removed else
                  "added" if code not in cur_beds else "changed")
        out.append(SubRoom(str(attrs["subroom_type"]), _int(attrs["max_guests"]), _int(attrs["number"]),
                           _int(attrs["private_bathroom"]), _amenities_of(beds)))
    return tuple(out) if changed else None


def _too_many(requests: list[PlannedRequest], prooms: pd.DataFrame, rooms: pd.DataFrame) -> list[dict]:
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
