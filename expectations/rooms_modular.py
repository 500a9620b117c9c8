"""The room-type rules when the rooms workbook goes through the Rooms and Facilities APIs (issue 25).

``validate_rooms_modular`` runs the rules of ``validate_rooms`` (spec E1) that still hold for units, and the
rules the Rooms API's description publishes that need no meta: the range of every number, MaxChildPayableOccupancy
sunset, and the cells the APIs have no field for. The rules that need the meta (the unit type of a RoomType, active
unit and bed types, the unit types allowed for the property's category, multi-room and single-room units) are
judged where the meta is at hand, by the mapping (``workbench.modular``), on the same cells. Each rule's source is
in docs/rooms.md ("Through the Rooms API").
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from expectations.rooms import (
    AMENITY_RULES,
    ROOM_RULES,
    SUBROOM_RULES,
    annotate,
    run_rules,
)
from loaders.issues import combine, empty_issues, issues_where
from loaders.rooms import header_of

__all__ = ["KEPT_RULES", "RANGES", "RULES", "Range", "validate_rooms_modular"]

ROOMS_API = "the Rooms API"


@dataclass(frozen=True)
class Range:
    """A number's published range: the sheet's column, the field it goes to, its bounds."""

    sheet: str
    column: str
    header: str
    field: str
    low: int
    high: int
    api: str = ROOMS_API


#: every number of the workbook the APIs take, with its range ([O] Rooms API 1.2 ``UnitCreate``; Facilities API 1.0
#: ``HotelBathroomDetailsRequest``, ``PropertyBathroomDetailsRequest``)
RANGES: tuple[Range, ...] = (
    Range("Rooms", "quantity", "Quantity", "number_of_units", 0, 32000),
    Range("Rooms", "size_measurement", "SizeMeasurement", "size.value", 1, 9999),
    Range("Rooms", "max_occupancy", "MaxOccupancy", "occupancy_details.max_guests", 1, 50),
    Range("Rooms", "max_adult_occupancy", "MaxAdultOccupancy", "occupancy_details.max_adults", 1, 50),
    Range("Rooms", "max_child_occupancy", "MaxChildOccupancy", "occupancy_details.max_children (ages 3-17)", 0, 49),
    Range("Rooms", "max_infants", "MaxInfants", "occupancy_details.max_infants (ages 0-2)", 0, 49),
    Range("Rooms", "max_infants_on_top", "MaxInfantsOnTop", "occupancy_details.max_infants_on_top", 0, 49),
    Range("Rooms", "max_cribs", "MaxCribs", "extra_beds_configuration.cribs", 0, 100),
    Range("Rooms", "max_rollaways", "MaxRollaways", "extra_beds_configuration.extra_beds", 0, 100),
    Range("SubRooms", "number", "Number", "number_of_bathrooms (a Bathroom)", 0, 20, "the Facilities API"),
)
#: the rules of ``validate_rooms`` that still hold for units (the others are the InvNotif message's: the 100 room
#: types of E1's Limits, the BCRT list and sub-room capable types (the meta decides now), SubRoomCount, the
#: child-payable rule (sunset), the RMA list (the Facilities meta decides now))
KEPT_RULES = frozenset({
    "occupancy_total", "occupancy_children", "room_type_required", "not_bookable_no_kitchen", "kitchen_recommended",
    "crib_extra_bed", "duplicate_room", "inactive_new_room", "inv_code_required", "unknown_room", "number_not_allowed",
    "duplicate_subroom", "subroom_amenity_not_bed", "beds_under_subrooms", "configuration_not_allowed",
    "amenity_code_mismatch", "unknown_subroom", "duplicate_amenity"})
RULES = ("rooms_api_range", "modular_sunset", "unit_delete_not_sent", "modular_not_sent")


def validate_rooms_modular(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame, *,
                           load_issues: pd.DataFrame | None = None) -> pd.DataFrame:
    """Check the three frames (as ``loaders.read_rooms`` returns them) for the Rooms and Facilities APIs."""
    rooms, subrooms, amenities = (f.reset_index(drop=True) for f in (rooms, subrooms, amenities))
    r, s, _ = annotate(rooms, subrooms, amenities)
    # a unit's rooms are its bedrooms and living rooms: a Bathroom sub-room (the Facilities API's bathrooms) does not
    # make a room "have sub-rooms" for the bed rules
    rooms_only = subrooms[(subrooms["subroom_type"] != "Bathroom").fillna(True)].reset_index(drop=True)
    _, _, a = annotate(rooms, rooms_only, amenities)
    parts = [load_issues if load_issues is not None else empty_issues()]
    parts += run_rules("rooms_rooms", rooms, r, [ru for ru in ROOM_RULES if ru.rule in KEPT_RULES])
    parts += run_rules("rooms_subrooms", subrooms, s, [ru for ru in SUBROOM_RULES if ru.rule in KEPT_RULES])
    parts += run_rules("rooms_amenities", amenities, a, [ru for ru in AMENITY_RULES if ru.rule in KEPT_RULES])
    frames = {"Rooms": rooms, "SubRooms": subrooms}
    for rng in RANGES:
        frame = frames[rng.sheet]
        values = frame[rng.column].astype("Float64")
        bad = values.notna() & ~values.between(rng.low, rng.high).fillna(True)
        if rng.sheet == "SubRooms":
            bad &= (frame["subroom_type"] == "Bathroom").fillna(False)
        parts.append(_flag(frame, bad, rng.column, rng.header, "rooms_api_range", "error",
                           f"{rng.api} takes {rng.low} to {rng.high} as `{rng.field}`: correct the cell"))
    parts.append(_flag(rooms, rooms["max_child_payable_occupancy"].notna(), "max_child_payable_occupancy",
                       "MaxChildPayableOccupancy", "modular_sunset", "error",
                       "MaxChildPayableOccupancy (the Rooms API's max_children_that_pay_children_rate) was sunset on "
                       "2026-07-07 and is ignored: clear the cell (children are priced by the rate's child policies)"))
    parts.append(_flag(rooms, (rooms["active"] == 0).fillna(False) & rooms["inv_code"].notna(), "active", "Active",
                       "unit_delete_not_sent", "error",
                       "the Rooms API has no deactivation: a unit is deleted (DELETE .../units/{id}), which the "
                       "workbench does not send; clear Active, and delete the room type in the extranet if you mean to"))
    for column, header in (("max_guests", "MaxGuests"), ("private_bathroom", "PrivateBathroom")):
        parts.append(_flag(subrooms, subrooms[column].notna(), column, header, "modular_not_sent", "warning",
                           f"the Rooms API keeps no {header} for a room of a unit: not sent"))
    parts.append(_flag(rooms, rooms["apartment_room_capacity"].notna(), "apartment_room_capacity",
                       "ApartmentRoomCapacity", "modular_not_sent", "warning",
                       "the Rooms API has no ApartmentRoomCapacity: the unit type's meta says whether it has rooms; "
                       "not sent"))
    return combine(parts)


def _flag(frame: pd.DataFrame, mask: pd.Series, column: str, fallback: str, rule: str, severity: str,
          message: str) -> pd.DataFrame:
    if frame.empty or not bool(mask.any()):
        return empty_issues()
    headers = [header_of(frame, s, h, column, fallback) for s, h in zip(frame["source"], frame["sheet"], strict=True)]
    value = frame[column].astype("string")
    return issues_where(frame, mask.to_numpy(dtype=bool), column=pd.Series(headers, index=frame.index), value=value,
                        rule=rule, severity=severity, message=message)
