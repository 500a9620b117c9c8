"""Charges API bodies: property and room charges with their periods, and the meta (OTA fee/tax codes).

Sources: [O] https://developers.booking.com/_spec/connectivity/docs/openapispecs/charges-api/charges-api-specification.yaml
(version 1.0), read through the mirror ``api-evangelist/booking-com`` ``openapi/_original/booking-com-charges-api-openapi.yml``
(commit 88c438fa, archived 2026-09-26); [D] https://developers.booking.com/connectivity/docs/charges-api/manage-property-room-charges.

Transcribed: ``Charges`` (``property_charges`` and ``room_charges[{room_id <= 4294967295, charges}]``, at
least one charge between the two in an update), ``Charge`` (``charge_key`` and ``charge_periods``
required), ``ChargeKey`` (type, guest_origin, travel_purpose required; the enums), ``ChargePeriod``
(``applicable{from required, to inclusive}``, ``configuration``), ``ChargeConfiguration`` (amount and
excluded required, ``child_ages[{multiplier, lte}]``), ``Amount`` (mode required; ``value`` required unless
INCALCULABLE; ``base`` required with PERCENTAGE and refused otherwise, one of four combinations) and
``ChargeTypeMetaEntry``. The mirror gives the write operation as ``POST``; some copies of the guide say
``PUT`` (platform-now.md 3.5): which one the live endpoint takes is to be confirmed. Whether charge keys
left out of a write are deleted or kept is NOT SHOWN.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, model_validator

from workbench.modular.base import Body, is_answer

__all__ = ["BASES", "CHARGE_TYPES", "Amount", "Charge", "ChargeConfiguration", "ChargeKey", "ChargePeriod",
           "ChargeType", "Charges", "RoomCharges", "Window"]

CHARGE_TYPES = (
    "SERVICECHARGE_ASIA", "SERVICECHARGE", "RESORTFEE", "CLEANINGFEE", "TOWELFEE", "ELECTRICITYFEE", "BEDLINEN",
    "GASFEE", "OILFEE", "WOODFEE", "WATERFEE", "TRANSFERFEE", "LINENPACKAGEFEE", "HEATINGFEE", "AIRCONDITIONINGFEE",
    "KITCHENLINNENFEE", "HOUSEKEEPINGFEE", "AIRPORTSHUTTLEFEE", "SHUTTLEBOATFEE", "GALADINNERFEE", "SEAPLANEFEE",
    "SKIPASS", "FINALCLEANINGFEE", "WRISTBANDFEE", "VISASUPPORTFEE", "WATERPARKFEE", "CLUBCARDFEE", "CONSERVATIONFEE",
    "CREDITCARDFEE", "PETFEE", "INTERNETFEE", "PARKINGFEE", "VAT", "TAX", "GOODSSERVICESTAX", "GOODSSERVICESFLOODTAX",
    "GOVERNMENTCHARGE", "DAMAGEDEPOSIT", "DESTINATIONFEE", "ENVIRONMENTFEE", "SPATAX", "CITYTAX", "HOTSPRINGTAX",
    "MUNICIPALITYFEE", "TOURISMFEE", "RESIDENTIALTAX", "CITYTICKET", "HERITAGECHARGE", "FITNESSTAX", "GOVERNMENTTAX",
    "LOCALCOUNCILTAX", "SUSTAINABILITYFEE", "LOCALITYCONSERVATIONFEE", "SPA", "HOTSPRINGBATH", "POOL", "LOUNGE",
    "DESTINATIONCHARGE", "DESTINATIONTAX", "INSURANCEFEE",
)
Category = Literal["NET_ROOM_PRICE", "TAXES", "LOCALITY_CHARGES", "PROPERTY_CHARGES", "FACILITY_CHARGES"]
Mode = Literal["PER_NIGHT", "PER_STAY", "PER_PERSON_PER_NIGHT", "PER_PERSON_PER_STAY", "PERCENTAGE", "INCALCULABLE"]
#: the only ``base`` combinations a percentage may take
BASES = (("NET_ROOM_PRICE",), ("NET_ROOM_PRICE", "PROPERTY_CHARGES"), ("NET_ROOM_PRICE", "LOCALITY_CHARGES"),
         ("NET_ROOM_PRICE", "LOCALITY_CHARGES", "PROPERTY_CHARGES"))


class Amount(Body):
    mode: Mode
    value: float | None = None
    base: list[Category] | None = None

    @model_validator(mode="after")
    def _value_and_base(self, info: ValidationInfo) -> Amount:
        if is_answer(info):
            return self
        if self.value is None and self.mode != "INCALCULABLE":
            raise ValueError("a value is required unless the mode is INCALCULABLE")
        if self.mode == "PERCENTAGE" and tuple(self.base or ()) not in BASES:
            raise ValueError("a percentage needs its base: " + " or ".join(str(list(b)) for b in BASES))
        if self.mode != "PERCENTAGE" and self.base:
            raise ValueError("a base is only for the PERCENTAGE mode")
        return self


class AgeMultiplier(Body):
    multiplier: float
    lte: int


class ChargeConfiguration(Body):
    amount: Amount
    excluded: bool
    child_ages: list[AgeMultiplier] | None = None


class Window(Body):
    """The dates of a charge period, inclusive, matched to a stay by its check-out date."""

    from_: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")] = Field(alias="from")
    to: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None


class ChargePeriod(Body):
    applicable: Window
    configuration: ChargeConfiguration | None = None


class ChargeKey(Body):
    """What identifies a charge; changing any of the three names another charge."""

    type: Literal[CHARGE_TYPES]  # type: ignore[valid-type]
    guest_origin: Literal["ANY", "DOMESTIC", "INTERNATIONAL"]
    travel_purpose: Literal["ANY", "LEISURE", "BUSINESS"]


class Charge(Body):
    charge_key: ChargeKey
    charge_periods: Annotated[list[ChargePeriod], Field(min_length=1)]


class RoomCharges(Body):
    """Charges of one room, overriding the same charge at the property level (HDCN ``InvCode``)."""

    room_id: Annotated[int, Field(ge=0, le=4294967295)]
    charges: list[Charge]


class Charges(Body):
    """The write body and the ``data`` of the GET."""

    property_charges: list[Charge] = []
    room_charges: list[RoomCharges] = []

    @model_validator(mode="after")
    def _at_least_one(self, info: ValidationInfo) -> Charges:
        if not is_answer(info) and not self.property_charges and not any(r.charges for r in self.room_charges):
            raise ValueError("an update must contain at least one charge (property or room)")
        return self


class ChargeType(Body):
    """One entry of ``GET /charges-api/meta``: the type, its legacy OTA fee/tax codes, its category and modes."""

    charge_type_id: str
    charge_type_name: str | None = None
    ota_fee_tax_types: list[int] = []
    booking_extended_legacy_code: list[int] = []
    charge_category: str | None = None
    discontinuation_notice: str | None = None
    allowed_charge_modes: list[str] = []
    discontinued: bool | None = None
