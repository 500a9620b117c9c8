"""The code crosswalks the modular APIs publish in their ``meta`` endpoints, passed in as data.

A workbook written with OTA codes keeps working: a property class (OTA PCT) is the Property API's
``property_category`` (the meta maps the platform's own ``booking_property_category`` back to it); a
service or amenity code (OTA HAC, or a Booking.com extended code) is a facility id; a room amenity code
(OTA RMA) a room facility id; a fee or tax code (OTA FTT, or an extended code) a charge type. The
driver reads the meta endpoints (cached a day per platform, like the lookups) and hands them here;
``None`` for a meta means "not read", and the mapping says so on the first cell that needed it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from workbench.modular.base import read_answer, read_answers
from workbench.modular.charges_api import ChargeType
from workbench.modular.facilities_api import FacilityMeta, PropertyFacilityMeta, RoomFacilityMeta
from workbench.modular.property_api import PropertyCategory, PropertyMeta
from workbench.modular.rooms_api import BedType, RoomsMeta, UnitName, UnitType

__all__ = ["ModularMeta"]


def _index(pairs: Iterable[tuple[int | str | None, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key is not None:
            out.setdefault(key, value)
    return out


@dataclass(frozen=True)
class ModularMeta:
    """The meta answers the mapping needs (each ``None`` when not read)."""

    property_categories: tuple[PropertyCategory, ...] | None = None
    facilities: FacilityMeta | None = None
    charge_types: tuple[ChargeType, ...] | None = None
    rooms: RoomsMeta | None = None

    @classmethod
    def from_answers(cls, *, property_meta: object = None, facilities_meta: object = None,
                     charges_meta: object = None, rooms_meta: object = None) -> ModularMeta:
        """From the ``data`` of each meta answer (decoded JSON; ``None`` = not read)."""
        return cls(
            property_categories=None if property_meta is None
            else tuple(read_answer(PropertyMeta, property_meta).property_categories or ()),
            facilities=None if facilities_meta is None else read_answer(FacilityMeta, facilities_meta),
            charge_types=None if charges_meta is None else tuple(read_answers(ChargeType, charges_meta)),
            rooms=None if rooms_meta is None else read_answer(RoomsMeta, rooms_meta))

    # --- property categories -----------------------------------------------------------------------------
    @cached_property
    def _categories(self) -> Mapping[str, dict]:
        cats = self.property_categories or ()
        by_ota = _index((c.code_ota, c) for c in cats)
        for c in cats:
            for extra in c.additional_ota_mappings or ():
                by_ota.setdefault(extra.code_ota, c)
        return {"code": _index((c.code, c) for c in cats), "ota": by_ota}

    def category_for_ota(self, code: int) -> PropertyCategory | None:
        """The platform's category of an OTA property class code (its own or a remapped one)."""
        return self._categories["ota"].get(code)

    def category(self, code: int) -> PropertyCategory | None:
        return self._categories["code"].get(code)

    # --- facilities --------------------------------------------------------------------------------------
    @cached_property
    def _facilities(self) -> Mapping[str, dict]:
        metas = self.facilities.property_facility_metas if self.facilities else []
        rooms = self.facilities.room_facility_metas if self.facilities else []
        return {"id": _index((m.facility_id, m) for m in metas),
                "code": _index([*((m.ota_hotel_amenity_type, m) for m in metas),
                                *((m.booking_extended_legacy_code, m) for m in metas)]),
                "room_id": _index((m.room_facility_id, m) for m in rooms),
                "room_code": _index([*((m.ota_room_amenity_type, m) for m in rooms),
                                     *((m.booking_extended_legacy_code, m) for m in rooms)])}

    def facility_for_code(self, code: int) -> PropertyFacilityMeta | None:
        """The facility of an OTA HAC code (or a Booking.com extended code)."""
        return self._facilities["code"].get(code)

    def facility(self, facility_id: int) -> PropertyFacilityMeta | None:
        return self._facilities["id"].get(facility_id)

    def facility_names(self) -> dict[int, str]:
        """OTA HAC code (and Booking.com extended code) -> the meta's ``facility_name`` (the ones it names)."""
        return {code: m.facility_name for code, m in self._facilities["code"].items() if m.facility_name}

    def room_facility_for_code(self, code: int) -> RoomFacilityMeta | None:
        """The room facility of an OTA RMA code (or a Booking.com extended code)."""
        return self._facilities["room_code"].get(code)

    def room_facility(self, room_facility_id: int) -> RoomFacilityMeta | None:
        return self._facilities["room_id"].get(room_facility_id)

    # --- charges -----------------------------------------------------------------------------------------
    @cached_property
    def _charges(self) -> Mapping[str, dict]:
        types = self.charge_types or ()
        return {"id": _index((t.charge_type_id, t) for t in types),
                "code": _index([*((c, t) for t in types for c in t.ota_fee_tax_types),
                                *((c, t) for t in types for c in t.booking_extended_legacy_code)])}

    def charge_type_for_code(self, code: int) -> ChargeType | None:
        """The charge type of an OTA fee/tax type code (or a Booking.com extended code)."""
        return self._charges["code"].get(code)

    def charge_type(self, charge_type_id: str) -> ChargeType | None:
        return self._charges["id"].get(charge_type_id)

    # --- rooms -------------------------------------------------------------------------------------------
    @cached_property
    def _rooms(self) -> Mapping[str, dict]:
        meta = self.rooms or RoomsMeta()
        return {"type": _index((t.unit_type_id, t) for t in meta.unit_types),
                "name": _index((n.unit_name_id, n) for n in meta.unit_names),
                "name_text": _index(((n.unit_name or "").casefold(), n) for n in meta.unit_names),
                "bed": _index((b.bed_type_id, b) for b in meta.bed_types)}

    def unit_type(self, unit_type_id: int) -> UnitType | None:
        return self._rooms["type"].get(unit_type_id)

    def unit_name(self, unit_name_id: int) -> UnitName | None:
        return self._rooms["name"].get(unit_name_id)

    def unit_name_for_text(self, name: str) -> UnitName | None:
        return self._rooms["name_text"].get(name.strip().casefold())

    def bed_type(self, bed_type_id: int) -> BedType | None:
        return self._rooms["bed"].get(bed_type_id)
