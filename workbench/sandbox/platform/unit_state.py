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

from workbench.sandbox.platform.modular_state import ModularStore
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
            if rt.room_type and rt.room_type.isdigit():
                body["configuration"] = {"unit_type_id": int(rt.room_type), "rooms": []}
            if rt.name:
                body["partner_reference_name"] = rt.name
            occupancy = {k: v for k, v in (("max_guests", rt.max_occupancy), ("max_adults", rt.max_adults),
                                           ("max_children", rt.max_children)) if v is not None}
            if occupancy:
                body["occupancy_details"] = occupancy
            beds = {k: v for k, v in (("extra_beds", rt.max_rollaways), ("cribs", rt.max_cribs)) if v is not None}
            if beds:
                body["extra_beds_configuration"] = beds
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
        stored = self.room_types.load(hotel)
        inv = self.room_types.next_inv_codes(hotel, {i for _, i in stored}, 1)[0]
        rt = RoomType(hotel, inv, max((r.position for r in stored.values()), default=0) + 1, True)
        self.save(rt, {k: v for k, v in copy.deepcopy(body).items() if k not in REQUEST_ONLY}, name, ruid)
        return rt

    def update(self, rt: RoomType, patch: dict[str, Any], name: str | None, ruid: str) -> None:
        """Merge ``patch`` into the unit: the fields it sends replace the stored ones (``configuration``, so
        the rooms array, as a whole)."""
        body = {k: v for k, v in self.unit(rt).items() if k != "unit_id"}
        body.update({k: v for k, v in copy.deepcopy(patch).items() if k not in REQUEST_ONLY})
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


def units_of(store: Store) -> Units:
    """The units over the sandbox's store (``PlatformState.own(units_of)``)."""
    return Units(ModularStore(store), RoomTypeStore(store))
