"""Property settings bodies: ``POST|GET /property-api/properties/{id}/settings``, one model per group.

Source: [O] property-details-api-specification (mirror ``openapi/_original/booking-com-property-api-openapi.yml``,
commit 88c438fa): ``PropertySettingsCreateInput`` and ``PropertySettingsReadOutputData`` with their groups;
[D] https://developers.booking.com/connectivity/docs/content-api-modules/property-details-api/implementing-property-api-settings.

Transcribed: each group's required fields (``pets.pets_allowed``, ``damage_policy.policy_type``, ``enabled`` of
quiet hours, renovation, bed linen, grace period and advance cancellation, the three French tax answers, the
four Brazilian tax details, ``booking_model.type``, ``age_buckets`` min and max 0..17), every enum, the
``HH:MM`` (:00/:30) and ``yyyy-mm-dd`` patterns, invoice ``address`` 1..255 and ``state`` of two characters.
The read schema differs: French tax ids are integers, ``pricing_type`` is ``Standard|OBP|LOS``, children
policy rules add ``UNRECOGNIZED``/``PERCENTAGE``/``DETAILED``, ``booking_model`` adds ``rtb_eligible``: the
answer context keeps those values. The create answer maps each group to ``{success}`` (the children
policies answer as ``child_policies``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from workbench.modular.base import Body
from workbench.modular.property_api import TIME

__all__ = ["AcceptedPaymentTypes", "AdvanceCancellation", "AgeBucket", "AgeRestriction", "BedLinenPolicy",
           "BookingModel", "BrazilTaxDetails", "CancellationExceptions", "ChildrenPolicies", "ChildrenPolicyRule",
           "Curfew", "DamagePolicy", "DateWindow", "FrenchTaxDetails", "GracePeriod", "InvoiceSettings",
           "LongStay", "Pets", "PropertySettings", "PropertySettingsGroups", "QuietHours", "STANDARD_PHRASES",
           "StandardPhrase"]

DATE = r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"
Time = Annotated[str, Field(pattern=TIME)]
Date = Annotated[str, Field(pattern=DATE)]
Money = Literal["CASH", "CREDIT_CARD", "PAYPAL", "BANK_TRANSFER", "OTHER"]

#: the phrase names ``StandardPhraseData.name`` accepts (both spellings of the accommodation tax are listed)
STANDARD_PHRASES = (
    "GuestIdentification", "InformArrivalTime", "PayBeforeStay", "TattooRestriction", "AccomodationTax",
    "AccommodationTax", "IsraeliCitizensVat", "RequireInvoice", "EarlyDeparture", "PedestrianZoneOnly",
    "LimitedParking", "AccessByUnpavedRoad", "OnsiteFunctions", "NoHenStagParty", "ResidentialArea", "BusyArea",
    "HalfBoardNoDrinks", "NoPublicTransport", "WaterCrisis", "RussiaAntiHostelRegulations", "Covid19BodyTempCheck",
    "Covid19RestrictionOfGuests", "Covid19NoSelfQuarantine", "Covid19ExtraCleaning", "Covid19ReducedFoodServices",
    "Covid19OnlyEssentialTravellers", "Covid19ShuttleSuspended", "Covid19ReducedServices",
    "Covid19ReducedHoursOfService", "Covid19ExtraDocumentation", "Covid19ReducedFacilities",
    "Covid19PhysicalDistance", "Covid19LocalGuidelinesFollowed", "Covid19FaceMaskMandatory",
    "Covid19QuarantineNotAllowed", "Covid19NoChargePCRTest", "Covid19NoCostExtension", "Covid19MedicalMonitoring",
    "Covid19NegativeRequired", "Covid19AtChargePCRTest", "Covid19InsurancePCRTest",
    "Covid19VaccinationNegativeTestCheckIn", "Covid19VaccinationNegativeTestRecoveryCheckIn",
    "Covid19VaccinationRecoveryCheckIn", "Covid19NegativeTestRecoveryCheckIn", "Covid19VaccinationCheckIn",
    "Covid19RecoveryCheckIn", "Covid19ProofRequired", "LongStayDisclaimerJapan", "GuestRentalAgreement",
    "GuestUnder18",
)


class Curfew(Body):
    enabled: bool | None = None
    start: str | None = None
    end: str | None = None


class AgeRestriction(Body):
    enabled: bool | None = None
    min: int | None = None
    max: int | None = None


class LongStay(Body):
    enabled: bool | None = None
    max_length_of_stay: int | None = None


class PropertySettings(Body):
    """The ``property_settings`` group (guest information, payment preferences, long stays, pricing type)."""

    require_cvc: bool | None = None
    curfew: Curfew | None = None
    require_booker_address: bool | None = None
    require_booker_phone_number: bool | None = None
    age_restriction: AgeRestriction | None = None
    auto_replenish: bool | None = None
    replenish_closed_rooms: bool | None = None
    long_stay: LongStay | None = None
    pricing_type: Literal["STANDARD", "LOS", "OBP"] | None = None
    allow_smoking: bool | None = None
    view_cc_details: bool | None = None


class Pets(Body):
    pets_allowed: Literal["PETS_NOT_ALLOWED", "PETS_ALLOWED", "PETS_ALLOWED_ON_REQUEST"]
    pets_price_type: Literal["FREE", "CHARGES_MAY_APPLY"] | None = None


class DamagePolicy(Body):
    policy_type: Literal["NONE", "HANDLED_BY_PROPERTY", "HANDLED_BY_BOOKING_COM"]
    amount: float | None = None
    currency: str | None = None
    damage_programme_terms_agreed: bool | None = None
    collection_mode: Money | None = None
    collection_when: Literal["ON_ARRIVAL", "SEVEN_DAYS_BEFORE_ARRIVAL", "FOURTEEN_DAYS_BEFORE_ARRIVAL"] | None = None
    return_mode: Money | None = None
    return_when: Literal["ON_CHECKOUT", "WITHIN_7_DAYS", "WITHIN_14_DAYS"] | None = None


class StandardPhrase(Body):
    name: Literal[STANDARD_PHRASES]  # type: ignore[valid-type]
    enabled: bool


class QuietHours(Body):
    enabled: bool
    start: Time | None = None
    end: Time | None = None


class DateWindow(Body):
    """``renovation``: ``enabled`` and the ``yyyy-mm-dd`` start and end."""

    enabled: bool
    start: Date | None = None
    end: Date | None = None


class BedLinenPolicy(Body):
    enabled: bool
    amount: float | None = None


class AcceptedPaymentTypes(Body):
    """BCPT codes."""

    codes: list[int] = []


class FrenchTaxDetails(Body):
    """Asked as text (a number) when created, read back as integers."""

    declare_revenue: bool
    has_vat: bool
    registered_in_rcs: bool
    category_id: str | int | None = None
    nature_id: str | int | None = None


class GracePeriod(Body):
    enabled: bool
    after_booking: Literal["HOURS_1", "HOURS_4", "HOURS_24"] | None = None


class AdvanceCancellation(Body):
    enabled: bool
    before_check_in: Literal["WEEKS_4", "WEEKS_8", "WEEKS_12"] | None = None


class CancellationExceptions(Body):
    grace_period: GracePeriod | None = None
    advance_cancellation: AdvanceCancellation | None = None


class AgeBucket(Body):
    """A children's price category: both ends inclusive, 0..17; one to three per property."""

    min_age: Annotated[int, Field(ge=0, le=17)]
    max_age: Annotated[int, Field(ge=0, le=17)]


class ChildrenPolicyRule(Body):
    rule_type: Literal["EXISTING_BED", "EXTRA_BED", "CRIB", "EXTRA_BED_FOR_ADULT"]
    price_type: Literal["FIXED", "FREE", "ADULT_PERCENTAGE"]
    price_mode: Literal["PER_STAY", "PER_NIGHT"]
    from_age: int | None = None
    to_age: int | None = None
    price: float | None = None


class ChildrenPolicies(Body):
    allow_children: bool | None = None
    min_age: int | None = None
    policy_rules: list[ChildrenPolicyRule] | None = None


class BookingModel(Body):
    """``IB`` or ``RTB`` (request to book: "currently available only for" fr, au, us, it, de, gb, es)."""

    type: Literal["IB", "RTB"]
    rtb_eligible: bool | None = None  # read only


class BrazilTaxDetails(Body):
    tax_payer_number_type: Literal["CNPJ", "CPF"]
    tax_payer_number: str
    city_hall_id: str
    email: str


class InvoiceSettings(Body):
    legal_name: str | None = None
    contact_person: str | None = None
    address: Annotated[str, Field(min_length=1, max_length=255)] | None = None
    country_code: str | None = None
    city: str | None = None
    postal_code: str | None = None
    state: Annotated[str, Field(min_length=2, max_length=2)] | None = None
    notification_channel: Literal["POSTAL_MAIL", "EMAIL"] | None = None
    brazil_tax_details: BrazilTaxDetails | None = None


class PropertySettingsGroups(Body):
    """The settings body (create or update; every group optional, each validated and answered on its own),
    and the ``data`` of the ``GET``."""

    property_settings: PropertySettings | None = None
    pets: Pets | None = None
    damage_policy: DamagePolicy | None = None
    standard_phrases: list[StandardPhrase] | None = None
    quiet_hours: QuietHours | None = None
    renovation: DateWindow | None = None
    bed_linen_policy: BedLinenPolicy | None = None
    accepted_payment_types: AcceptedPaymentTypes | None = None
    french_tax_details: FrenchTaxDetails | None = None
    cancellation_exceptions: CancellationExceptions | None = None
    age_buckets: Annotated[list[AgeBucket], Field(min_length=1, max_length=3)] | None = None
    children_policies: ChildrenPolicies | None = None
    booking_model: BookingModel | None = None
    invoice_settings: InvoiceSettings | None = None
    land_registration_numbers: list[str] | None = None
