"""Property API bodies: details (create, update, read), meta, status, description.

Source: [O] https://developers.booking.com/connectivity/docs/openapispecs/property-details-api/property-details-api-specification
(version 1.0, server ``https://supply-xml.booking.com/property-api/``), read through the mirror
``api-evangelist/booking-com`` ``openapi/_original/booking-com-property-api-openapi.yml`` (commit 88c438fa,
archived 2026-09-26); guides: property-api-usecases, implementing-property-api-settings (docs/modular.md).

Transcribed: the required lists of ``PropertyInfoCreate`` / ``PropertyInfoUpdate`` / ``PropertyInfoRead``,
the ranges (latitude, longitude, floor_count 0..200, provider_property_id <= 16, name 3..255,
address_line 1..255, currency_code <= 3, description language_code 2..5), the time pattern
``HH:MM`` with minutes 00 or 30, ``target`` ``test|production``, the status operations and reasons.
The stars pattern is published with loose anchors (``^0(\\.0)?|[1-4](\\.[05])?|5(\\.0)?$``); its stated
meaning (0 to 5, halves from 1) is what :data:`STARS` checks.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from workbench.modular.base import Body, Text

__all__ = ["Address", "CheckIn", "CheckOut", "Position", "PropertyCategory", "PropertyDescription", "PropertyId", "PropertyInfoCreate",
           "PropertyInfoRead", "PropertyInfoUpdate", "PropertyMeta", "PropertyStatus", "PropertyStatusInput",
           "STARS", "StatusReason", "TIME", "TimeRange", "Translation"]

TIME = r"^(?:[01]\d|2[0-3]):[03]0$"
STARS = r"^(?:0(?:\.0)?|[1-4](?:\.[05])?|5(?:\.0)?)$"

Time = Annotated[str, Field(pattern=TIME)]


class Address(Body):
    """``physical_address``: required address_line, city_name, country_code; postal_code checked per country."""

    address_line: Annotated[str, Field(min_length=1, max_length=255)]
    city_name: Text
    country_code: Text
    postal_code: str | None = None
    display_address: bool | None = None


class Position(Body):
    latitude: Annotated[float, Field(ge=-90, le=90)]
    longitude: Annotated[float, Field(ge=-180, le=180)]


class TimeRange(Body):
    """A time range; ``00:00``-``00:00`` is 24 hours."""

    from_: Time | None = Field(None, alias="from")
    until: Time | None = None


class CheckIn(TimeRange):
    """``from`` is required for check-in."""

    from_: Time = Field(alias="from")


class CheckOut(TimeRange):
    """``until`` is required when check-out is given."""

    until: Time


class Translation(Body):
    """A non-English version of the name and address (all four required)."""

    language_code: Text
    property_name: Text
    address_line: Annotated[str, Field(max_length=255)]
    city_name: Text


class PropertyInfoUpdate(Body):
    """``PATCH /properties/{id}``: the description still marks these five required, so the full set is sent."""

    property_name: Annotated[str, Field(min_length=3, max_length=255)]
    physical_address: Address
    position: Position
    check_in: CheckIn
    room_count: Annotated[int, Field(ge=0)]
    check_out: CheckOut | None = None
    translations: list[Translation] | None = None
    property_category: int | None = None
    booking_property_category: int | None = None
    primary_language: str | None = None
    languages_spoken: list[str] | None = None
    floor_count: Annotated[int, Field(ge=0, le=200)] | None = None
    provider_property_id: Annotated[str, Field(max_length=16)] | None = None
    currency_code: Annotated[str, Field(max_length=3)] | None = None
    stars: Annotated[str, Field(pattern=STARS)] | None = None


class PropertyInfoCreate(PropertyInfoUpdate):
    """``POST /properties``: also the legal entity and the target; one of the two categories is required."""

    legal_entity_id: int
    target: Literal["test", "production"]


class PropertyInfoRead(PropertyInfoCreate):
    """``GET /properties/{id}``: the create body plus the property id, its status and its URL."""

    property_id: int | None = None
    status: str | None = None
    url: str | None = None


class PropertyId(Body):
    """``data`` of a create or update answer."""

    property_id: int | None = None


class PropertyCategory(Body):
    """One ``property_categories`` entry of ``GET /meta``: the platform's code, its OTA PCT code and its remaps."""

    code: int
    name: str | None = None
    code_ota: int | None = None
    code_booking_extended: int | None = None
    additional_ota_mappings: list[PropertyCategory] | None = None


class PropertyMeta(Body):
    property_categories: list[PropertyCategory] = []


StatusOperation = Literal["CHECK", "OPEN", "CLOSE"]
ReasonType = Literal["OTHER", "SEASON", "RENOVATION", "PROPERTY_NOT_AVAILABLE", "FULLY_BOOKED", "ISSUES_GUESTS",
                     "ISSUES_BOOKING", "STRATEGY"]


class StatusReason(Body):
    type: ReasonType | None = None
    description: str | None = None


class PropertyStatusInput(Body):
    """``POST /properties/{id}/status``."""

    operation: StatusOperation
    reason: StatusReason | None = None


class PropertyStatus(Body):
    """``data`` of the status answer."""

    status: str | None = None


class PropertyDescription(Body):
    """``PUT /properties/{id}/description`` (and the ``data`` of its ``GET``)."""

    text: str
    language_code: Annotated[str, Field(min_length=2, max_length=5)] | None = None
    last_update: str | None = None
