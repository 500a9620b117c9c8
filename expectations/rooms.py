"""The platform's room-type rules (spec E1, Limits) on the rooms, sub-rooms and amenities frames.

Each rule becomes a column of an annotated copy of a frame (the offending value where the rule
is broken, blank elsewhere); Great Expectations suites (``expectations.room_rules``) check
those columns and the failures become rows of the issues frame, with the spec's error code in
the message. Room types are resolved through ``data/codes/room_types.csv`` (BCRT) to a name, and
the kitchen and sub-room rules apply by that name (the spec's numbers next to the kitchen rule
are property class codes, not room type codes).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import SupportsInt

import numpy as np
import pandas as pd

from expectations.engine import Rule, run_suite
from expectations.reference import DATA
from loaders.issues import combine, empty_issues, issues_where
from loaders.rooms import header_of, room_keys
from loaders.wording import count

SUBROOM_CAPABLE = frozenset({"Apartment", "Suite", "Chalet", "Bungalow", "Holiday home", "Villa", "Mobile home"})
KITCHEN_REQUIRED = frozenset({"Apartment", "Aparthotel", "Condominium"})
KITCHEN_RECOMMENDED = frozenset({"Holiday home", "Holiday park", "Lodge", "Villa"})
KITCHEN_CODES = frozenset({59, 61, 47, 5016, 5045})  # kitchen, kitchenette, full kitchen, extended codes
MAX_ROOM_TYPES = 100


# --- code lists -------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def room_type_names() -> dict[int, str]:
    """BCRT room type code -> name (``data/codes/room_types.csv``)."""
    frame = pd.read_csv(DATA / "codes" / "room_types.csv", dtype={"code": int, "name": str})
    return dict(zip(frame["code"], frame["name"], strict=True))


@lru_cache(maxsize=1)
def amenity_names() -> dict[int, str]:
    """RMA code -> name of the codes the platform is known to accept (``data/codes/rma.csv``)."""
    frame = pd.read_csv(DATA / "codes" / "rma.csv", dtype={"code": int, "name": str})
    return dict(zip(frame["code"], frame["name"], strict=True))


@lru_cache(maxsize=1)
def bed_types() -> frozenset[int]:
    """Bed-type RMA codes (``data/codes/bed_types.csv``)."""
    return frozenset(pd.read_csv(DATA / "codes" / "bed_types.csv", dtype={"code": int})["code"])


def _squash(text: str) -> str:
    return re.sub(r"[\s_\-/]+", "", text).casefold()


def room_type_name(value: object) -> str | None:
    """A RoomType cell (code or name) -> the room type's name; None when it is not a known one."""
    if value is None or pd.isna(value):
        return None
    text = str(value).strip()
    names = room_type_names()
    if text.isdigit():
        return names.get(int(text))
    by_name = {_squash(n): n for n in names.values()}
    return by_name.get(_squash(text))


def room_type_code(value: object) -> int | None:
    name = room_type_name(value)
    return next((c for c, n in room_type_names().items() if n == name), None) if name else None


# --- the checks -------------------------------------------------------------------------------------------

@dataclass
class RoomRule:
    """One rule on an annotated frame: its column holds the offending value where the rule is broken."""

    rule: str
    severity: str
    column: str          # canonical column the issue points at
    fallback: str        # OTA name when the sheet has no such column
    expectation: str     # a class of ``module`` (imported with GX only when a row may fail)
    message: Callable[[pd.Series], str]
    module: str = "expectations.room_rules"


def validate_rooms(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame, *,
                   load_issues: pd.DataFrame | None = None) -> pd.DataFrame:
    """Check the three frames (as ``loaders.read_rooms`` returns them) against the spec's E1 rules."""
    rooms, subrooms, amenities = (f.reset_index(drop=True) for f in (rooms, subrooms, amenities))
    r, s, a = annotate(rooms, subrooms, amenities)
    parts = [load_issues if load_issues is not None else empty_issues()]
    parts += run_rules("rooms_rooms", rooms, r, ROOM_RULES)
    parts += run_rules("rooms_subrooms", subrooms, s, SUBROOM_RULES)
    parts += run_rules("rooms_amenities", amenities, a, AMENITY_RULES)
    return combine(parts)


def annotate(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame
             ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The frames with a ``room_key``, resolved names and one column per rule (blank = rule holds)."""
    r = rooms.copy()
    r["room_key"] = room_keys(rooms)
    r["type_name"] = r["room_type"].map(room_type_name).astype("string")
    s = subrooms.copy()
    s["room_key"] = room_keys(rooms, subrooms) if len(s) else pd.Series(dtype="string")
    a = amenities.copy()
    a["room_key"] = room_keys(rooms, amenities) if len(a) else pd.Series(dtype="string")
    on_sheet = set(r["room_key"].dropna())
    live_sub = s[~s["remove"].fillna(False)]
    room_of = r.drop_duplicates("room_key").set_index("room_key")
    beds = bed_types()
    names = amenity_names()

    # rooms
    mo, ad, ch = (r[c].astype("Float64") for c in ("max_occupancy", "max_adult_occupancy", "max_child_occupancy"))
    pay = r["max_child_payable_occupancy"].astype("Float64")
    r["occupancy_total"] = r["max_occupancy"].where((mo > ad + ch).fillna(False))
    r["occupancy_children"] = r["max_child_occupancy"].where((ch >= mo).fillna(False))
    r["child_payable"] = r["max_child_payable_occupancy"].where((pay > ch).fillna(False))
    r["room_type_required"] = pd.Series("new", index=r.index, dtype="string").where(
        r["inv_code"].isna() & r["room_type"].isna())
    r["unknown_room_type"] = r["room_type"].where(r["room_type"].notna() & r["type_name"].isna())
    kitchens = set(a.loc[a["amenity_code"].isin(KITCHEN_CODES) & ~a["remove"].fillna(False), "room_key"].dropna())
    name = r["type_name"].fillna(r["room_type"])
    new = r["inv_code"].isna()
    no_kitchen = new & ~r["room_key"].isin(kitchens)
    r["not_bookable_no_kitchen"] = name.where(no_kitchen & name.isin(KITCHEN_REQUIRED))
    r["kitchen_recommended"] = name.where(no_kitchen & name.isin(KITCHEN_RECOMMENDED))
    extra = r["maximum_additional_guests"].astype("Float64")
    cribs, rollaways = r["max_cribs"].astype("Float64"), r["max_rollaways"].astype("Float64")
    r["crib_extra_bed"] = r["max_cribs"].where((cribs > extra).fillna(False)).astype("Float64").fillna(
        r["max_rollaways"].where((rollaways > extra).fillna(False)).astype("Float64"))
    r["crib_column"] = np.where((cribs > extra).fillna(False), "max_cribs", "max_rollaways")
    rank = r.groupby("hotel_code", dropna=False).cumcount() + 1
    per_hotel = r.groupby("hotel_code", dropna=False)["room_key"].transform("size")
    r["too_many_room_types"] = per_hotel.where(rank > MAX_ROOM_TYPES)
    r["duplicate_room"] = r["room_key"].where(r["room_key"].duplicated(keep="first"))
    listed = live_sub.groupby("room_key").size() if len(live_sub) else pd.Series(dtype="int64")
    r["subrooms_listed"] = r["room_key"].map(listed).fillna(0).astype("Int64")
    r["subroom_count_mismatch"] = r["subroom_count"].where(
        (r["subroom_count"].notna() & (r["subroom_count"] != r["subrooms_listed"])).fillna(False))
    r["inactive_new_room"] = r["active"].where((new & (r["active"] == 0)).fillna(False))
    infants = r["max_infants"].notna() | r["max_infants_on_top"].notna()
    r["infants_not_in_inv_notif"] = r["max_infants"].astype("string").fillna(
        r["max_infants_on_top"].astype("string")).where(infants)
    r["infants_column"] = np.where(r["max_infants"].notna(), "max_infants", "max_infants_on_top")

    # sub-rooms
    s["inv_code_required"] = pd.Series("none", index=s.index, dtype="string").where(
        s["inv_code"].isna() & s["room_id"].isna())
    s["unknown_room"] = s["room_id"].where(s["inv_code"].isna() & s["room_id"].notna()
                                           & ~s["room_key"].isin(on_sheet))
    s_type = s["room_key"].map(room_of["type_name"].fillna(room_of["room_type"]) if len(r) else {}).astype("string")
    s_cap = s["room_key"].map(room_of["apartment_room_capacity"] if len(r) else {}).astype("Float64").fillna(0)
    s["type_name"] = s_type
    s["subrooms_not_allowed"] = s_type.where(s_type.notna() & ~s_type.isin(SUBROOM_CAPABLE) & (s_cap <= 0))
    s["number_not_allowed"] = s["number"].where((s["subroom_type"] == "Bedroom").fillna(False))
    s["duplicate_subroom"] = s["subroom"].where(s.duplicated(["room_key", "subroom"], keep="first")
                                                & s["subroom"].notna())

    # amenities (a room "has sub-rooms" when it has sub-rooms it may have)
    with_subrooms = set(s.loc[~s["remove"].fillna(False) & s["subrooms_not_allowed"].isna(), "room_key"].dropna())
    code = a["amenity_code"]
    is_bed = code.isin(beds)
    own = a["subroom"].isna()
    multi = a["room_key"].isin(with_subrooms)
    a["inv_code_required"] = pd.Series("none", index=a.index, dtype="string").where(
        a["inv_code"].isna() & a["room_id"].isna())
    a["unknown_room"] = a["room_id"].where(a["inv_code"].isna() & a["room_id"].notna()
                                           & ~a["room_key"].isin(on_sheet))
    a["subroom_amenity_not_bed"] = code.where(~own & ~is_bed & code.notna())
    a["beds_under_subrooms"] = code.where(own & is_bed & multi)
    a["configuration_not_allowed"] = a["configuration"].where(a["configuration"].notna() & (~is_bed | multi))
    a["configuration_reason"] = np.where(is_bed, "multi", "not_bed")
    a["amenity_code_mismatch"] = a["room_amenity_code"].where(
        (a["room_amenity_code"].notna() & a["amenity_code"].notna()
         & (a["room_amenity_code"] != a["amenity_code"])).fillna(False))
    a["unknown_amenity"] = code.where(code.notna() & ~code.isin(list(names)))
    known_sub = set(zip(live_sub["room_key"], live_sub["subroom"], strict=True))
    new_room = a["room_key"].isin(set(r.loc[r["inv_code"].isna() | r["subroom_count"].notna(), "room_key"]))
    pair = pd.Series([(k, sr) in known_sub for k, sr in zip(a["room_key"], a["subroom"], strict=True)],
                     index=a.index, dtype=bool)
    a["unknown_subroom"] = a["subroom"].where(~own & new_room & ~pair)
    a["duplicate_amenity"] = code.where(a.duplicated(["room_key", "subroom", "amenity_code", "configuration"],
                                                     keep="first") & code.notna())
    return r, s, a


def run_rules(name: str, frame: pd.DataFrame, annotated: pd.DataFrame, rules: list[RoomRule]) -> list[pd.DataFrame]:
    """The issues of ``rules`` on ``frame`` (``annotated``: the frame with one column per rule)."""
    if frame.empty:
        return []
    cols = [ru.rule for ru in rules]
    checked = annotated[cols].astype(object).where(annotated[cols].notna(), None)
    suite = [Rule(ru.module, ru.expectation, "null", {"column": ru.rule, "meta": {"rule": ru.rule}}) for ru in rules]
    by_rule = {ru.rule: ru for ru in rules}
    out = []
    for failure in run_suite(name, checked.reset_index(drop=True), suite):
        ru = by_rule[failure.meta["rule"]]
        mask = np.zeros(len(frame), dtype=bool)
        mask[failure.positions] = True
        rows = annotated.loc[mask]
        column = [_column(frame, row, ru) for _, row in rows.iterrows()]
        value = [_value(row, ru) for _, row in rows.iterrows()]
        message = [ru.message(row) + f" ({ru.rule.upper()})" for _, row in rows.iterrows()]
        out.append(issues_where(frame, mask, column=pd.Series(column, index=rows.index).reindex(frame.index),
                                value=pd.Series(value, index=rows.index, dtype="string").reindex(frame.index),
                                rule=ru.rule, severity=ru.severity,
                                message=pd.Series(message, index=rows.index).reindex(frame.index)))
    return out


def _column(frame: pd.DataFrame, row: pd.Series, ru: RoomRule) -> str:
    name, fallback = ru.column, ru.fallback
    if ru.rule == "crib_extra_bed":
        name, fallback = row["crib_column"], "MaxCribs" if row["crib_column"] == "max_cribs" else "MaxRollaways"
    if ru.rule == "infants_not_in_inv_notif":
        name = row["infants_column"]
        fallback = "MaxInfants" if name == "max_infants" else "MaxInfantsOnTop"
    return header_of(frame, row["source"], row["sheet"], name, fallback)


def _value(row: pd.Series, ru: RoomRule) -> str:
    if ru.rule == "crib_extra_bed":
        v = row[row["crib_column"]]
    elif ru.rule == "infants_not_in_inv_notif":
        v = row[row["infants_column"]]
    elif ru.column in row and ru.rule not in ("inv_code_required", "room_type_required", "unknown_room"):
        v = row[ru.column]
    else:
        v = row.get(ru.column)
    return "" if v is None or pd.isna(v) else str(v)


def _i(v: object) -> str:
    return "?" if v is None or pd.isna(v) else str(int(v)) if isinstance(v, (int, float, np.integer)) else str(v)


def _amenity(code: SupportsInt | None) -> str:
    if code is None or pd.isna(code):
        return "the amenity"
    label = amenity_names().get(int(code))
    return f"amenity {int(code)}" + (f" ({label})" if label else "")


ROOM_RULES: list[RoomRule] = [
    RoomRule("occupancy_total", "error", "max_occupancy", "MaxOccupancy", "ExpectOccupancyWithinAdultsAndChildren",
          lambda r: f"MaxOccupancy {_i(r.max_occupancy)} is more than MaxAdultOccupancy {_i(r.max_adult_occupancy)} + "
                    f"MaxChildOccupancy {_i(r.max_child_occupancy)}: lower MaxOccupancy or allow more adults or "
                    "children"),
    RoomRule("occupancy_children", "error", "max_child_occupancy", "MaxChildOccupancy", "ExpectChildrenBelowOccupancy",
          lambda r: f"MaxChildOccupancy {_i(r.max_child_occupancy)} must be lower than MaxOccupancy "
                    f"{_i(r.max_occupancy)}: a room cannot be filled with children only"),
    RoomRule("child_payable", "error", "max_child_payable_occupancy", "MaxChildPayableOccupancy",
          "ExpectChildPayableWithinChildren",
          lambda r: f"MaxChildPayableOccupancy {_i(r.max_child_payable_occupancy)} is more than MaxChildOccupancy "
                    f"{_i(r.max_child_occupancy)}: lower it (further children are priced as adults)"),
    RoomRule("room_type_required", "error", "room_type", "RoomType", "ExpectRoomTypeForNewRoom",
          lambda r: "a room type to create (blank InvCode) needs a RoomType: a code or a name such as 9 or Double"),
    RoomRule("unknown_room_type", "warning", "room_type", "RoomType", "ExpectKnownRoomType",
          lambda r: f"`{r.room_type}` is not a known room type code or name (data/codes/room_types.csv): "
                    "check it, the platform may refuse it"),
    RoomRule("not_bookable_no_kitchen", "warning", "room_type", "RoomType", "ExpectKitchenForApartments",
          lambda r: f"a new {r.not_bookable_no_kitchen} without a kitchen or kitchenette (amenity 59 or 61) will "
                    "not be bookable: add one on the Amenities sheet"),
    RoomRule("kitchen_recommended", "warning", "room_type", "RoomType", "ExpectKitchenForApartments",
          lambda r: f"a kitchen or kitchenette (amenity 59 or 61) is strongly recommended for a "
                    f"{r.kitchen_recommended}: add one on the Amenities sheet"),
    RoomRule("crib_extra_bed", "error", "max_cribs", "MaxCribs", "ExpectCribsAndExtraBedsWithinAdditionalGuests",
          lambda r: f"MaxCribs {_i(r.max_cribs)} / MaxRollaways {_i(r.max_rollaways)} exceed MaximumAdditionalGuests "
                    f"{_i(r.maximum_additional_guests)}: cribs and extra beds hold the additional guests; to allow "
                    "a crib or an extra bed but not both, set MaxCribs 1 and MaxRollaways 1"),
    RoomRule("too_many_room_types", "error", "hotel_code", "HotelCode", "ExpectAtMostHundredRoomTypes",
          lambda r: f"property {_i(r.hotel_code)} has {_i(r.too_many_room_types)} room types on this sheet; the "
                    f"platform allows at most {MAX_ROOM_TYPES}: this row is beyond the limit"),
    RoomRule("duplicate_room", "error", "inv_code", "InvCode", "ExpectUniqueRoomFact",
          lambda r: f"room {r.room_key} is on the Rooms sheet more than once: keep one row per room type"),
    RoomRule("subroom_count_mismatch", "error", "subroom_count", "SubRoomCount", "ExpectSubRoomCountMatchesSheet",
          lambda r: f"SubRoomCount says room {r.room_key} has {count(int(r.subroom_count), 'sub-room')} and the SubRooms sheet "
                    f"lists {_i(r.subrooms_listed)}: the SubRooms part replaces every sub-room of the room with its "
                    "beds, so list all of them (or correct SubRoomCount)"),
    RoomRule("inactive_new_room", "error", "active", "Active", "ExpectNewRoomActive",
          lambda r: "a room type to create cannot be deactivated (Active 0): leave `Active` blank or 1, create it, "
                    "then push 0 with its InvCode"),
    RoomRule("infants_not_in_inv_notif", "warning", "max_infants", "MaxInfants", "ExpectInfantsThroughRoomsApi",
          lambda r: "OTA_HotelInvNotif has no place for infants: MaxInfants and MaxInfantsOnTop are sent only "
                    "through the Rooms API (`workbench push rooms --api modular`); through InvNotif they are not sent"),
]

#: a sub-room or amenity row must name a room the sheet or the platform knows
ROOM_REFERENCE_RULES: list[RoomRule] = [
    RoomRule("inv_code_required", "error", "inv_code", "InvCode", "ExpectRoomReference",
          lambda r: "the row names no room: give the room's InvCode (or the RoomID of a room on the Rooms sheet)"),
    RoomRule("unknown_room", "error", "room_id", "RoomID", "ExpectKnownRoomOnSheet",
          lambda r: f"RoomID {r.room_id} is not on the Rooms sheet: give the room's InvCode, or add the room"),
]

SUBROOM_RULES: list[RoomRule] = [
    *ROOM_REFERENCE_RULES,
    RoomRule("subrooms_not_allowed", "error", "subroom", "SubRoom", "ExpectSubRoomsOnlyForCapableTypes",
          lambda r: f"a {r.subrooms_not_allowed} cannot have sub-rooms: only an Apartment, Suite, Chalet, Bungalow, "
                    "Holiday home, Villa or Mobile home can (or a room with ApartmentRoomCapacity above 0); remove "
                    "the sub-room or change the room's RoomType"),
    RoomRule("number_not_allowed", "error", "number", "Number", "ExpectNumberOnlyForBathroomOrLivingRoom",
          lambda r: "Number is only for a Bathroom or a Living room: list each bedroom as its own sub-room"),
    RoomRule("duplicate_subroom", "error", "subroom", "SubRoom", "ExpectUniqueRoomFact",
          lambda r: f"sub-room `{r.subroom}` of room {r.room_key} is given more than once: keep one row"),
]

AMENITY_RULES: list[RoomRule] = [
    *ROOM_REFERENCE_RULES,
    RoomRule("subroom_amenity_not_bed", "error", "amenity_code", "AmenityCode", "ExpectOnlyBedsInSubRooms",
          lambda r: f"{_amenity(r.amenity_code)} is not a bed type: a sub-room's amenities are beds only; move it "
                    "to the room's own amenities (blank SubRoom)"),
    RoomRule("beds_under_subrooms", "error", "amenity_code", "AmenityCode", "ExpectBedsUnderSubRooms",
          lambda r: f"{_amenity(r.amenity_code)} is a bed type and room {r.room_key} has sub-rooms: its beds go "
                    "under a sub-room (fill in SubRoom), never in the room's own amenities"),
    RoomRule("configuration_not_allowed", "error", "configuration", "Configuration",
          "ExpectConfigurationOnSingleRoomBeds",
          lambda r: (f"Configuration is for bed types only and {_amenity(r.amenity_code)} is not one: clear it"
                     if r.configuration_reason == "not_bed" else
                     f"Configuration is not available for rooms with sub-rooms (room {r.room_key}): clear it")),
    RoomRule("amenity_code_mismatch", "error", "room_amenity_code", "RoomAmenityCode", "ExpectMatchingAmenityCodes",
          lambda r: f"RoomAmenityCode {_i(r.room_amenity_code)} and AmenityCode {_i(r.amenity_code)} differ: they "
                    "name the same amenity, keep one of them"),
    RoomRule("unknown_amenity", "warning", "amenity_code", "AmenityCode", "ExpectKnownAmenityCode",
          lambda r: f"amenity code {_i(r.amenity_code)} is not on the list of codes the platform is known to accept "
                    "(data/codes/rma.csv): check it"),
    RoomRule("unknown_subroom", "error", "subroom", "SubRoom", "ExpectKnownSubRoom",
          lambda r: f"sub-room `{r.subroom}` of room {r.room_key} (a new room, or one whose sub-rooms the sheet lists "
                    "in full) is not on the SubRooms sheet: add it there or correct the name"),
    RoomRule("duplicate_amenity", "error", "amenity_code", "AmenityCode", "ExpectUniqueRoomFact",
          lambda r: f"{_amenity(r.amenity_code)} of room {r.room_key}"
                    + (f" sub-room `{r.subroom}`" if not pd.isna(r.subroom) else "")
                    + (f" with Configuration {_i(r.configuration)}" if not pd.isna(r.configuration) else "")
                    + " is given more than once: keep one row (the same bed in the standard and the alternative "
                      "arrangement is two rows, Configuration 1 and 2)"),
]
