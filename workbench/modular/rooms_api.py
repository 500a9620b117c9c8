"""Rooms API bodies (beta): units, their rooms and bed configurations, bulk creation, the meta.

Sources: [O] https://developers.booking.com/connectivity/docs/openapispecs/rooms-api/rooms-api-specification
(version 1.2), .../rooms-api-specification-bulk (1.3) and .../rooms-api-specification-generated-names, read
through the mirror ``api-evangelist/booking-com`` ``openapi/_original/booking-com-rooms-api-openapi.yml``,
``booking-com-rooms-api-bulk-openapi.yml`` and ``booking-com-rooms-api-generated-names-openapi.yml`` (commit
88c438fa, archived 2026-09-26).

Transcribed: ``UnitCreate`` (configuration and unit_name_id required; number_of_units 0..32000; smoking
policies; size 1..9999.99 SQM|SQFT; occupancy_details max_guests/max_adults 1..50, max_children 0..49 aged
3-17, max_infants and max_infants_on_top 0..49; extra beds and cribs 0..100), the room types and the bed
configuration rules (a multi-room unit: bedrooms or living rooms, exactly one configuration per room, one
of them with beds; a single-room unit: exactly one GUEST_ROOM, alternatives allowed; one default per room;
the garbled sentence on repeated bed type ids is read as "no repeats"), the bulk create (1..100 units of
one property, ``correlation_id`` unique; ``unit_name_source`` PROVIDED needs ``unit_name_id`` and GENERATED
refuses it), bulk update and delete, and the meta (unit types with ``is_multi_room``, ``is_active``,
``valid_property_categories``; unit names; bed types; property and unit categories).
``max_children_that_pay_children_rate`` was deprecated on 2026-06-29 and sunset on 2026-07-07: it is read,
never built. The deprecated ``occupancy`` object is read only too.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, model_validator

from workbench.modular.base import Body, Text, is_answer
from workbench.modular.property_api import PropertyCategory

__all__ = ["Bed", "BedConfiguration", "BedType", "BulkUnitCreate", "BulkUnitDelete", "BulkUnitUpdate",
           "BulkUnitsCreate", "BulkUnitsCreated", "BulkUnitsDelete", "BulkUnitsUpdate", "Configuration",
           "ExtraBeds", "OccupancyDetails", "Room", "RoomsMeta", "Size", "Unit", "UnitCreate", "UnitCreated",
           "UnitName", "UnitPatch", "UnitType"]

RoomType = Literal["BEDROOM_SUBROOM", "LIVING_ROOM_SUBROOM", "GUEST_ROOM"]
Guests = Annotated[int, Field(ge=1, le=50)]
Count = Annotated[int, Field(ge=0, le=49)]


class Bed(Body):
    bed_type_id: int
    bed_count: Annotated[int, Field(ge=1)]


class BedConfiguration(Body):
    beds: Annotated[list[Bed], Field(min_length=1)]
    is_default_configuration: bool

    @model_validator(mode="after")
    def _bed_types_once(self, info: ValidationInfo) -> BedConfiguration:
        again = [t for t, n in Counter(b.bed_type_id for b in self.beds).items() if n > 1]
        if again and not is_answer(info):
            raise ValueError(f"bed type {again[0]} is given twice in one bed configuration: add up its beds")
        return self


class Room(Body):
    type: RoomType
    bed_configurations: list[BedConfiguration] | None = None


class Configuration(Body):
    unit_type_id: int
    rooms: Annotated[list[Room], Field(min_length=1)]

    @model_validator(mode="after")
    def _room_rules(self, info: ValidationInfo) -> Configuration:
        if is_answer(info):
            return self
        guest = [r for r in self.rooms if r.type == "GUEST_ROOM"]
        if guest and len(self.rooms) != 1:
            raise ValueError("a single-room unit has exactly one GUEST_ROOM and no other room")
        for room in self.rooms:
            configs = room.bed_configurations or []
            if configs and sum(c.is_default_configuration for c in configs) != 1:
                raise ValueError("each room has exactly one default bed configuration")
            if room.type != "GUEST_ROOM" and len(configs) > 1:
                raise ValueError("a room of a multi-room unit has exactly one bed configuration")
        if not guest and not any(r.bed_configurations for r in self.rooms):
            raise ValueError("one room of a multi-room unit at least must have beds")
        if guest and not guest[0].bed_configurations:
            raise ValueError("a single-room unit needs at least one bed configuration")
        return self


class Size(Body):
    value: Annotated[float, Field(ge=1, le=9999.99)]
    unit: Literal["SQM", "SQFT"]


class OccupancyDetails(Body):
    max_guests: Guests | None = None
    max_adults: Guests | None = None
    max_children: Count | None = None
    max_infants: Count | None = None
    max_infants_on_top: Count | None = None


class ExtraBeds(Body):
    extra_beds: Annotated[int, Field(ge=0, le=100)] | None = None
    cribs: Annotated[int, Field(ge=0, le=100)] | None = None
    is_crib_and_extra_bed_allowed: bool | None = None


class UnitPatch(Body):
    """``PATCH .../units/{unit-id}``: any field alone; the ``configuration.rooms`` sent replace them all."""

    configuration: Configuration | None = None
    unit_name_id: int | None = None
    number_of_units: Annotated[int, Field(ge=0, le=32000)] | None = None
    smoking_policy: Literal["SMOKING", "NONSMOKING", "SMOKING_AND_NONSMOKING"] | None = None
    size: Size | None = None
    partner_reference_name: str | None = None
    floor_numbers_located_on: list[Annotated[int, Field(ge=0)]] | None = None
    occupancy_details: OccupancyDetails | None = None
    extra_beds_configuration: ExtraBeds | None = None


class UnitCreate(UnitPatch):
    """``POST /rooms-api/properties/{property-id}/units``."""

    configuration: Configuration
    unit_name_id: int


class Unit(UnitCreate):
    """A unit read back (``GET .../units``, ``.../deleted-units``); the sunset and deprecated fields are read only."""

    unit_id: int | None = None
    occupancy: OccupancyDetails | None = None
    max_children_that_pay_children_rate: int | None = None
    unit_name_fallback: str | None = None


class BulkUnitCreate(UnitPatch):
    """One unit of ``POST /rooms-api/units``; the answer maps it back by ``correlation_id``."""

    property_id: int
    correlation_id: Text
    configuration: Configuration
    unit_name_source: Literal["PROVIDED", "GENERATED"] | None = None
    category_id: int | None = None

    @model_validator(mode="after")
    def _name_source(self, info: ValidationInfo) -> BulkUnitCreate:
        if is_answer(info):
            return self
        if self.unit_name_source == "GENERATED" and self.unit_name_id is not None:
            raise ValueError("unit_name_id must not be set when unit_name_source is GENERATED")
        if self.unit_name_source != "GENERATED" and self.unit_name_id is None:
            raise ValueError("unit_name_id is required unless unit_name_source is GENERATED")
        return self


class _Bulk(Body):
    """A bulk body: 1 to 100 units, all of one property."""

    units: Annotated[list[Any], Field(min_length=1, max_length=100)]

    @model_validator(mode="after")
    def _one_property(self, info: ValidationInfo) -> _Bulk:
        if not is_answer(info) and len({u.property_id for u in self.units}) > 1:
            raise ValueError("all units of one request belong to one property")
        return self


class BulkUnitsCreate(_Bulk):
    units: Annotated[list[BulkUnitCreate], Field(min_length=1, max_length=100)]

    @model_validator(mode="after")
    def _unique_ids(self, info: ValidationInfo) -> BulkUnitsCreate:
        if is_answer(info):
            return self
        again = [c for c, n in Counter(u.correlation_id for u in self.units).items() if n > 1]
        if again:
            raise ValueError(f"correlation_id `{again[0]}` is given twice: each unit needs its own")
        return self


class UnitCreated(BulkUnitCreate):
    """One unit of the bulk create answer."""

    unit_id: int | None = None


class BulkUnitsCreated(Body):
    units: list[UnitCreated] = []


class BulkUnitUpdate(UnitPatch):
    unit_id: int
    property_id: int
    unit_name_source: Literal["PROVIDED", "GENERATED"] | None = None
    category_id: int | None = None


class BulkUnitsUpdate(_Bulk):
    units: Annotated[list[BulkUnitUpdate], Field(min_length=1, max_length=100)]


class BulkUnitDelete(Body):
    property_id: int
    unit_id: int


class BulkUnitsDelete(_Bulk):
    units: Annotated[list[BulkUnitDelete], Field(min_length=1, max_length=100)]


class UnitName(Body):
    unit_name_id: int
    unit_name: str | None = None


class UnitType(Body):
    unit_type_id: int
    unit_type_name: str | None = None
    is_multi_room: bool | None = None
    is_active: bool | None = None
    valid_property_categories: list[int] = []
    suggested_unit_names: list[UnitName] = []


class BedType(Body):
    bed_type_id: int
    bed_type_name: str | None = None
    bed_type_description: str | None = None
    bed_type_description_imperial: str | None = None
    is_active: bool | None = None


class UnitCategory(Body):
    category_id: int
    category_name: str | None = None


class RoomsMeta(Body):
    """``GET /rooms-api/meta`` (``show_inactive`` defaults to true: inactive types are there, marked)."""

    language_code: str | None = None
    unit_types: list[UnitType] = []
    unit_names: list[UnitName] = []
    bed_types: list[BedType] = []
    property_categories: list[PropertyCategory] = []
    unit_categories: list[UnitCategory] = []
