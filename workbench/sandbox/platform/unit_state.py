"""Units of the Rooms API in the sandbox: the same store and id space as the room types of ``OTA_HotelInvNotif``.

A unit's id is its room type's ``InvCode`` (``<hotel><NNN>``, a whole number): a room type created through
``OTA_HotelInvNotif`` is read through ``GET /rooms-api/properties/{id}/units`` under the same id, and a unit
created through the Rooms API is a room type of the property (rates, ``OTA_HotelDescriptiveInfo``, the Facilities
API's rooms take it). The unit's JSON (configuration, rooms and beds, names) is kept beside the room type in the
modular documents (``rooms``/``unit:<id>``); a room type without one is read as the unit its facts describe.
A deleted unit keeps its row, inactive, and is listed by ``GET .../deleted-units``.
"""

from __future__ import annotations

import copy
from typing import Any

from workbench.sandbox.platform.modular_meta import BED_TYPE_OF_RMA, UNIT_TYPES
from workbench.sandbox.platform.modular_state import ModularStore
from workbench.sandbox.platform.room_codes import default_room_codes
from workbench.sandbox.platform.room_state import RoomType, RoomTypeStore
from workbench.sandbox.platform.store import Store

API = "rooms"
SMOKING = {"1": "NONSMOKING", "0": "SMOKING", "2": "SMOKING_AND_NONSMOKING"}
SMOKING_CODE = {v: k for k, v in SMOKING.items()}
#: members kept in the request, not in the unit
REQUEST_ONLY = ("property_id", "correlation_id", "unit_id")


class Units:
    """The units of the sandbox (room types plus their JSON)."""

    def __init__(self, docs: ModularStore, room_types: RoomTypeStore) -> None:
        self.docs, self.room_types = docs, room_types

    def _doc(self, hotel: int, inv: str) -> dict[str, Any] | None:
        return self.docs.get(API, hotel, f"unit:{inv}")

    def unit(self, rt: RoomType) -> dict[str, Any]:
        """The unit of a room type as the Rooms API answers it."""
        doc = self._doc(rt.hotel_code, rt.inv_code)
        if doc is not None:
            body = {k: v for k, v in doc.items() if k != "deleted"}
        else:
            body = {"number_of_units": rt.quantity if rt.quantity is not None else 1,
                    "smoking_policy": SMOKING.get(str(rt.non_smoking or ""), "SMOKING_AND_NONSMOKING")}
            kind = unit_type_of_room_type(rt.room_type)
            if kind is not None:
                body["configuration"] = {"unit_type_id": kind, "rooms": rooms_of(rt, kind)}
            if rt.name:
                body["partner_reference_name"] = rt.name
            occupancy = {k: v for k, v in (("max_guests", rt.max_occupancy), ("max_adults", rt.max_adults),
                                           ("max_children", rt.max_children)) if v is not None}
            body["occupancy_details"] = with_defaults("occupancy_details", occupancy)
            beds = {k: v for k, v in (("extra_beds", rt.max_rollaways), ("cribs", rt.max_cribs)) if v is not None}
            body["extra_beds_configuration"] = with_defaults("extra_beds_configuration", beds)
            if rt.size_measurement:
                body["size"] = {"value": rt.size_measurement,
                                "unit": "SQFT" if (rt.size_unit or "").lower().startswith("squarefe") else "SQM"}
        return {"unit_id": int(rt.inv_code) if rt.inv_code.isdigit() else rt.inv_code, **body}

    def deleted(self, hotel: int, inv: str) -> bool:
        return bool((self._doc(hotel, inv) or {}).get("deleted"))

    def units(self, hotel: int, *, deleted: bool = False) -> list[dict[str, Any]]:
        """The property's units: active ones, or (``deleted``) the ones the Rooms API deleted."""
        out = []
        for (_, inv), rt in self.room_types.load(hotel).items():
            gone = self.deleted(hotel, inv)
            if (gone if deleted else (rt.active and not gone)):
                out.append(self.unit(rt))
        return out

    def find(self, hotel: int, unit_id: object) -> RoomType | None:
        """A unit of the property that is not deleted."""
        rt = self.room_types.load(hotel).get((hotel, str(unit_id)))
        return rt if rt is not None and not self.deleted(hotel, rt.inv_code) else None

    def create(self, hotel: int, body: dict[str, Any], name: str | None, ruid: str) -> RoomType:
        """A new unit, with the published defaults for what the body leaves out (``number_of_units`` 1,
        ``smoking_policy`` SMOKING_AND_NONSMOKING, every member of ``occupancy_details`` and
        ``extra_beds_configuration``: the read gives them all)."""
        stored = self.room_types.load(hotel)
        inv = self.room_types.next_inv_codes(hotel, {i for _, i in stored}, 1)[0]
        rt = RoomType(hotel, inv, max((r.position for r in stored.values()), default=0) + 1, True)
        unit = {k: v for k, v in copy.deepcopy(body).items() if k not in REQUEST_ONLY}
        unit.setdefault("number_of_units", 1)
        unit.setdefault("smoking_policy", "SMOKING_AND_NONSMOKING")
        for key in DEFAULTS:
            unit[key] = with_defaults(key, unit.get(key) or {})
        self.save(rt, unit, name, ruid)
        return rt

    def update(self, rt: RoomType, patch: dict[str, Any], name: str | None, ruid: str) -> None:
        """Merge ``patch`` into the unit: the fields it sends replace the stored ones (``configuration``, so
        the rooms array, as a whole; an object sent takes the defaults for the members it leaves out)."""
        body = {k: v for k, v in self.unit(rt).items() if k != "unit_id"}
        sent = {k: v for k, v in copy.deepcopy(patch).items() if k not in REQUEST_ONLY}
        for key in DEFAULTS:
            if isinstance(sent.get(key), dict):
                sent[key] = with_defaults(key, sent[key])
        body.update(sent)
        self.save(rt, body, name, ruid)

    def delete(self, rt: RoomType, ruid: str) -> None:
        body = {k: v for k, v in self.unit(rt).items() if k != "unit_id"}
        self.docs.put(API, rt.hotel_code, f"unit:{rt.inv_code}", {**body, "deleted": True}, ruid)
        rt.active = False
        self.room_types.save([rt])

    def save(self, rt: RoomType, body: dict[str, Any], name: str | None, ruid: str) -> None:
        """Keep the unit's JSON and the room type facts the XML operations show."""
        occupancy = body.get("occupancy_details") or {}
        beds = body.get("extra_beds_configuration") or {}
        size = body.get("size") or {}
        unit_type = (body.get("configuration") or {}).get("unit_type_id")
        rt.room_type = str(unit_type) if unit_type is not None else rt.room_type
        rt.name = body.get("partner_reference_name") or name or rt.name
        rt.quantity = body.get("number_of_units", rt.quantity if rt.quantity is not None else 1)
        rt.non_smoking = SMOKING_CODE.get(str(body.get("smoking_policy")), rt.non_smoking)
        rt.max_occupancy = occupancy.get("max_guests", rt.max_occupancy)
        rt.max_adults = occupancy.get("max_adults", rt.max_adults)
        rt.max_children = occupancy.get("max_children", rt.max_children)
        rt.max_rollaways = beds.get("extra_beds", rt.max_rollaways)
        rt.max_cribs = beds.get("cribs", rt.max_cribs)
        if size.get("value") is not None:
            rt.size_measurement = int(round(float(size["value"])))
            rt.size_unit = "squarefeet" if size.get("unit") == "SQFT" else "sqm"
        self.room_types.save([rt])
        self.docs.put(API, rt.hotel_code, f"unit:{rt.inv_code}", body, ruid)


#: the published defaults of the members of the unit's objects ([O] Rooms API 1.2 ``OccupancyDetailsCreate``,
#: ``ExtraBedsConfigurationCreate``); the read has every one of them
DEFAULTS: dict[str, dict[str, Any]] = {
    "occupancy_details": {"max_guests": 1, "max_adults": 1, "max_children": 0, "max_infants": 0,
                          "max_infants_on_top": 0},
    "extra_beds_configuration": {"extra_beds": 0, "cribs": 0, "is_crib_and_extra_bed_allowed": False},
}


def with_defaults(key: str, given: dict[str, Any]) -> dict[str, Any]:
    return {**DEFAULTS[key], **given}


def unit_type_of_room_type(room_type: str | None) -> int | None:
    """The unit type of an InvNotif room type's RoomType (a BCRT code or name): the meta's type of that name."""
    name = default_room_codes().room_type_name(room_type).casefold()
    return next((u["unit_type_id"] for u in UNIT_TYPES if u["unit_type_name"].casefold() == name), None)


def _beds(amenities: list[Any]) -> list[dict[str, Any]]:
    beds: dict[int, int] = {}
    for a in amenities:
        bed = BED_TYPE_OF_RMA.get(str(a.code))
        if bed is not None and (a.quantity is None or a.quantity > 0):
            beds[bed] = beds.get(bed, 0) + (a.quantity or 1)
    return [{"bed_type_id": b, "bed_count": n} for b, n in beds.items()]


def rooms_of(rt: RoomType, unit_type_id: int) -> list[dict[str, Any]]:
    """The rooms of a room type made through OTA_HotelInvNotif, as the Rooms API reads them: a multi-room unit's
    bedrooms and living rooms (its sub-rooms, with their beds), a single-room unit's GUEST_ROOM with the room's
    beds (Configuration 1 the default, 2 the alternative)."""
    kind = next((u for u in UNIT_TYPES if u["unit_type_id"] == unit_type_id), None)
    if kind is not None and kind["is_multi_room"]:
        rooms = []
        for sub in rt.sub_rooms:
            room_type = {"bedroom": "BEDROOM_SUBROOM", "living room": "LIVING_ROOM_SUBROOM"}.get(
                sub.room_type.casefold())
            if room_type is None:
                continue
            beds = _beds(sub.amenities)
            for _ in range(max(sub.number or 1, 1) if room_type == "LIVING_ROOM_SUBROOM" else 1):
                rooms.append({"type": room_type, **({"bed_configurations": [
                    {"beds": beds, "is_default_configuration": True}]} if beds else {})})
        return rooms
    configs = []
    for number in (1, 2):
        beds = _beds([a for a in rt.amenities if (a.configuration or 1) == number])
        if beds:
            configs.append({"beds": beds, "is_default_configuration": number == 1})
    return [{"type": "GUEST_ROOM", **({"bed_configurations": configs} if configs else {})}] if configs else []


def bathrooms_of(rt: RoomType) -> dict[str, Any] | None:
    """A room type's Bathroom sub-rooms (OTA_HotelInvNotif) as the Facilities API reads its bathrooms: private, their
    number (None: it has none)."""
    count = sum(max(s.number or 1, 1) for s in rt.sub_rooms if s.room_type.casefold() == "bathroom")
    if not count:
        return None
    return {"hotel_bathroom_details": {"private_bathroom_state": "PRESENT", "shared_bathroom_state": "MISSING",
                                       "number_of_bathrooms": min(count, 20)}}


def units_of(store: Store) -> Units:
    """The units over the sandbox's store (``PlatformState.own(units_of)``)."""
    return Units(ModularStore(store), RoomTypeStore(store))
