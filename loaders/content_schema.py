"""The content workbook (spec E4): one sheet per part, its columns, their types and OTA paths.

Each part is a sheet named like the part (``Property``, ``Contacts``, ...; case-insensitive).
Every part has the property's key first: ``HotelCode`` (the platform's id of an existing
property) or ``ID`` (the partner's custom id of a property to create). Headers match ignoring
case, spaces, hyphens and underscores; the OTA attribute (first name of each field) is always
accepted. Paths below are under HDC = ``OTA_HotelDescriptiveContentNotifRQ >
HotelDescriptiveContents > HotelDescriptiveContent``.

Cell kinds: ``int`` (Int64), ``flag`` (Int64 0/1), ``float``, ``str``, ``list`` (``;``-separated,
a Python list), ``date`` (datetime64), ``time`` (text ``HH:MM`` or ``HH:MM-HH:MM`` as written),
``digits`` (a tax number: digits as written, leading zeros kept, ``.-/`` removed).

This is the one declaration of the content columns: the loader types the cells by it, the rules
name the cells by it, and the request builder (``workbench.ota.content_notif``) takes its columns
and their attributes from it. A path is ``element/element@Attribute`` (an attribute) or
``element/element`` (the element's text) under HDC; ``HDC@X`` is an attribute of HDC itself.
``choices`` are an enumeration's own spellings: the loader writes a cell that matches one ignoring
case and surrounding spaces as that spelling, so the rules check and the request carries the same
text; ``canon`` names another canonical form (``upper``: ISO codes; ``language``: ``pt-BR``;
``subdivision``: ``PT-11``, the address country's prefix added). ``sent_with``: the column is sent
only with that column of the same row (an element it belongs to); ``not_sent``: why it is not sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

from loaders.schemas import Field

KIND_DTYPES = {"int": "Int64", "flag": "Int64", "float": "float64", "str": "string", "list": "object",
               "date": "datetime64[ns]", "time": "string", "digits": "string"}


@dataclass(frozen=True)
class ContentField:
    """A column of a part: its field (names, description), its cell kind, its OTA path under HDC, and
    how its text is made canonical (see the module docstring)."""

    field: Field
    kind: str
    path: str
    choices: tuple[str, ...] = ()
    canon: str = ""
    sent_with: str = ""
    not_sent: str = ""

    @property
    def name(self) -> str:
        return self.field.name

    @property
    def element(self) -> str:
        """The path of the element that carries the value, under HDC (``""``: HDC itself)."""
        element = _PATH.fullmatch(self.path)[1]  # type: ignore[index]  # the pattern matches every text
        return element.removeprefix("HDC").removeprefix("/")

    @property
    def attribute(self) -> str | None:
        """The attribute that carries the value; ``None``: the element's text."""
        return _PATH.fullmatch(self.path)[2]  # type: ignore[index]


_PATH = re.compile(r"(.*?)(?:@([A-Za-z]\w*))?")


CANONS = ("", "upper", "language", "subdivision")


def _c(name: str, ota: str, kind: str, path: str, *aliases: str, description: str = "",
       choices: tuple[str, ...] = (), canon: str = "", sent_with: str = "", not_sent: str = "") -> ContentField:
    assert kind in KIND_DTYPES and canon in CANONS, (kind, canon)
    return ContentField(Field(name, ota, (ota, name, *aliases), description or not_sent or path), kind, path,
                        choices, canon, sent_with, not_sent)


KEY_FIELDS: tuple[ContentField, ...] = (
    _c("hotel_code", "HotelCode", "int", "HDC@HotelCode", "hotel_id", "property_id",
       description="the platform's property id; blank for a property to create"),
    _c("custom_id", "ID", "str", "HDC@ID", "CustomID", "partner_id",
       description="the partner's own id of the property (recommended for a new one)"),
)

# --- the enumerations (spec E4), in the platform's own spelling --------------------------------------------
NOTIF_TYPES = ("New", "Overlay")
TARGETS = ("Test", "Production")
BOOKING_MODELS = ("IB", "RTB")
PRICING_TYPES = ("Standard", "OBP", "LOS")
PROFILES = ("general", "contract", "reservations", "invoices", "availability", "site_content", "parity", "requests",
            "central_reservations", "PhysicalLocation")
GENDERS = ("Male", "Female")
NO_SHOW = ("total_price", "default")
PREPAYMENT_FROM = ("after_reservation_is_made", "after_cancellation_fee_begins")
PETS = ("Pets Allowed", "Pets Not Allowed", "Pets By Arrangements")
PETS_FEE = ("free", "charges_may_apply")
GUEST_TYPES = ("AdultOnly", "ChildrenAllowed")
TAX_TYPES = ("Inclusive", "Exclusive")
FEE_TYPES = ("Inclusive", "Exclusive", "Conditional")
CONDITIONS = ("guest_brings_pet", "guest_doesnt_clean_before_checkout", "guest_smokes")
INTERNET_TYPES = ("wired", "wifi", "none")
INTERNET_COVERAGE = ("entire_property", "public_areas", "all_rooms", "some_rooms", "business_centre")
PARKING_TYPES = ("on_site", "location_nearby", "none")
PARKING_RESERVATIONS = ("needed", "not_needed", "not_available")
PARKING_PROPERTIES = ("private", "public")
INCLUDED = ("true", "false", "unknown")
RESTAURANT_FEATURES = ("a la carte", "buffet", "guests only", "accepts reservations", "outdoor seating")
AMBIANCES = ("family/kids friendly", "modern", "romantic", "traditional")
DIETARY = ("dairy free", "gluten free", "halal", "kosher", "vegan", "vegetarian")
DISTANCE_UNITS = ("meters", "kilometers", "feet", "miles")
START_TYPES = ("airport",)
TAX_NUMBER_TYPES = ("CNPJ", "CPF")
#: phrases that need options, and the option names each takes
PHRASE_OPTIONS: dict[str, tuple[str, ...]] = {
    "KeyCollection": ("KeyCollectionAddressLine", "KeyCollectionCityName", "KeyCollectionPostalCode"),
    "Renovation": ("RenovationFrom", "RenovationUntil"),
    "SecurityDeposit": ("SecurityDepositAmount", "SecurityDepositCollectMethod", "SecurityDepositCollectWhen",
                        "SecurityDepositCollectNumDays", "SecurityDepositReturnMethod", "SecurityDepositReturnWhen"),
    "HotelChainBedLinen": ("HotelChainBedLinenAmount",),
}
OPTION_NAMES = tuple(o for opts in PHRASE_OPTIONS.values() for o in opts)
STAR_RATING = "Star rating"


def _taxlike(base: str, types: tuple[str, ...]) -> tuple[ContentField, ...]:
    return (
        _c("code", "Code", "int", f"{base}@Code", "TaxCode", "FeeCode"),
        _c("amount", "Amount", "float", f"{base}@Amount"),
        _c("percent", "Percent", "float", f"{base}@Percent"),
        _c("decimal_places", "DecimalPlaces", "int", f"{base}@DecimalPlaces", "decimals"),
        _c("type", "Type", "str", f"{base}@Type", choices=types),
        _c("charge_frequency", "ChargeFrequency", "int", f"{base}@ChargeFrequency"),
        _c("inv_code", "InvCode", "str", f"{base}@InvCode", "room_id"),
    )


_GI = "HDC/TPA_Extensions/GuestInformation"
_PTI = "HDC/TPA_Extensions/PropertyTaxInfo"
_PAY = "HotelInfo/TPA_Extensions/PaymentPreferences"
_ADDR = "ContactInfos/ContactInfo/Addresses/Address"
_NAME = "ContactInfos/ContactInfo/Names/Name"
_PHONE = "ContactInfos/ContactInfo/Phones/Phone"
_REST = "FacilityInfo/Restaurants/Restaurant"
_TIME = f"{_REST}/OperationSchedules/OperationSchedule/OperationTimes/OperationTime"
_LEG = "HotelInfo/RelativePositions/RelativePosition/Transportations/Transportation/TPA_Extensions/Route/Leg"
_INV = "HotelInfo/TPA_Extensions/InvoiceDetails"
_PHR = "HDC/TPA_Extensions/StandardPhrases/StandardPhrase"
_FEE = "Policies/Policy/FeePolicies/FeePolicy"
_SERVICE = "HotelInfo/Services/Service"

PART_FIELDS: dict[str, tuple[ContentField, ...]] = {
    "Property": (
        _c("notif_type", "HotelDescriptiveContentNotifType", "str", "HDC@HotelDescriptiveContentNotifType",
           "NotifType", description="New or Overlay; blank = New without a HotelCode, Overlay with one",
           choices=NOTIF_TYPES),
        _c("hotel_name", "HotelName", "str", "HDC@HotelName", "name", "PropertyName"),
        _c("language_code", "LanguageCode", "str", "HDC@LanguageCode", "language", canon="language"),
        _c("currency_code", "CurrencyCode", "str", "HDC@CurrencyCode", "currency", canon="upper"),
        _c("target", "Target", "str", "HDC@Target", choices=TARGETS),
        _c("property_class_code", "HotelCategory", "int", "HotelInfo/CategoryCodes/HotelCategory@Code",
           "PropertyClassCode", "PropertyClass", "HotelCategoryCode", "Code"),
        _c("exists_code", "ExistsCode", "int", "HotelInfo/CategoryCodes/HotelCategory@ExistsCode"),
        _c("sellable_units", "SellableUnits", "int", "HotelInfo/CategoryCodes/GuestRoomInfo@Quantity",
           "GuestRoomInfo", "Quantity", "units"),
        _c("latitude", "Latitude", "float", "HotelInfo/Position@Latitude", "lat"),
        _c("longitude", "Longitude", "float", "HotelInfo/Position@Longitude", "lon", "lng"),
        _c("legal_entity_id", "LegalEntityID", "int",
           "HotelInfo/OwnershipManagementInfos/OwnershipManagementInfo/CompanyName@Code", "CompanyName",
           "legal_entity"),
        _c("check_in_time", "CheckInTime", "time", "Policies/Policy/PolicyInfo@CheckInTime", "check_in"),
        _c("check_out_time", "CheckOutTime", "time", "Policies/Policy/PolicyInfo@CheckOutTime", "check_out"),
        _c("star_rating", "StarRating", "int", f"AffiliationInfo/Awards/Award[@Provider='{STAR_RATING}']@Rating",
           "Stars"),
        _c("booking_model", "BookingModel", "str", "HDC/TPA_Extensions/BookingModel@Type", choices=BOOKING_MODELS),
        _c("pricing_type", "PricingType", "str", "HDC/TPA_Extensions/PricingType@Value", choices=PRICING_TYPES),
        _c("total_floors", "TotalNumberOfFloors", "int", "HDC/TPA_Extensions/TotalNumberOfFloors@Number",
           "floors"),
        _c("accept_long_stay", "AcceptLongStay", "flag", "HDC/TPA_Extensions/LongStayInfo@AcceptLongStay"),
        _c("max_length_of_stay", "MaxLengthOfStay", "int", "HDC/TPA_Extensions/LongStayInfo@MaxLengthOfStay"),
        _c("grace_hours", "HoursAfterBooking", "int", "HDC/TPA_Extensions/CancellationGracePeriod@HoursAfterBooking",
           "GraceHours"),
        _c("grace_weeks", "WeeksBeforeCheckIn", "int",
           "HDC/TPA_Extensions/CancellationGracePeriod@WeeksBeforeCheckIn", "GraceWeeks"),
        _c("prevent_likely_cancelled", "PreventLikelyToBeCancelledBookings", "flag",
           "HDC/TPA_Extensions/PreventLikelyToBeCancelledBookings@Enabled"),
        _c("no_cvc", "NoCVC", "flag", f"{_PAY}@NoCVC"),
        _c("view_cc_details", "ViewCCDetails", "flag", f"{_PAY}@ViewCCDetails"),
        _c("require_guest_address", "RequireGuestAddress", "flag", f"{_GI}@RequireGuestAddress"),
        _c("require_guest_contact_number", "RequireGuestContactNumber", "flag", f"{_GI}@RequireGuestContactNumber"),
        _c("has_age_restriction", "HasAgeRestriction", "flag", f"{_GI}@HasAgeRestriction"),
        _c("age_restriction_min", "AgeRestrictionMin", "int", f"{_GI}@AgeRestrictionMin"),
        _c("age_restriction_max", "AgeRestrictionMax", "int", f"{_GI}@AgeRestrictionMax"),
        _c("has_curfew", "HasCurfew", "flag", f"{_GI}@HasCurfew"),
        _c("curfew_start", "CurfewStart", "time", f"{_GI}@CurfewStart"),
        _c("curfew_end", "CurfewEnd", "time", f"{_GI}@CurfewEnd"),
        _c("tax_registered_in_vcs", "PropertyRegisteredInVcs", "flag", f"{_PTI}@PropertyRegisteredInVcs"),
        _c("tax_has_vat", "PropertyHasVat", "flag", f"{_PTI}@PropertyHasVat"),
        _c("tax_declares_revenue", "PropertyDeclaresRevenue", "flag", f"{_PTI}@PropertyDeclaresRevenue"),
        _c("tax_category", "PropertyTaxCategory", "int", f"{_PTI}@PropertyTaxCategory", "CityTaxCategory"),
        _c("tax_nature_category", "PropertyNatureCategory", "int", f"{_PTI}@PropertyNatureCategory"),
        _c("overwrite_future_fees", "OverwriteFutureFees", "flag", "Policies/Policy/TPA_Extensions@OverwriteFutureFees"),
        _c("empty_parts", "EmptyParts", "list", "",
           not_sent="(workbench) parts stated empty on purpose, e.g. `Fees; Taxes`: an Overlay then clears them"),
    ),
    "Contacts": (
        _c("profile_type", "ContactProfileType", "str", "ContactInfos/ContactInfo@ContactProfileType", "profile",
           choices=PROFILES),
        _c("hide_address", "ShouldHideAddress", "flag", "ContactInfos/ContactInfo/HiddenAddress@ShouldHideAddress",
           "HideAddress"),
        _c("address_language", "Language", "str", f"{_ADDR}@Language", "AddressLanguage", canon="language"),
        _c("address_line", "AddressLine", "str", f"{_ADDR}/AddressLine", "address", "street"),
        _c("city", "CityName", "str", f"{_ADDR}/CityName", "city"),
        _c("postcode", "PostalCode", "str", f"{_ADDR}/PostalCode", "postcode", "zip", "postal_code", canon="upper"),
        _c("country", "CountryName", "str", f"{_ADDR}/CountryName", "country", "CountryCode", canon="upper"),
        _c("state_code", "StateCode", "str", f"{_ADDR}/StateProv@StateCode", "StateProv", "state",
           canon="subdivision"),
        _c("address_hotel_name", "AddressHotelName", "str", f"{_ADDR}/HotelName", "HotelName"),
        _c("name_language", "NameLanguage", "str", f"{_NAME}@Language", canon="language"),
        _c("gender", "Gender", "str", f"{_NAME}@Gender", choices=GENDERS),
        _c("given_name", "GivenName", "str", f"{_NAME}/GivenName", "first_name"),
        _c("surname", "SurName", "str", f"{_NAME}/SurName", "last_name", "family_name"),
        _c("job_title", "JobTitle", "str", f"{_NAME}/JobTitle"),
        _c("email", "Email", "str", "ContactInfos/ContactInfo/Emails/Email", "e_mail"),
        _c("phone", "PhoneNumber", "str", f"{_PHONE}@PhoneNumber", "phone"),
        _c("phone_tech_type", "PhoneTechType", "int", f"{_PHONE}@PhoneTechType", sent_with="phone"),
        _c("phone_extension", "Extension", "str", f"{_PHONE}@Extension", "PhoneExtension", sent_with="phone"),
    ),
    "Languages": (
        _c("language_code", "LanguageCode", "str", "HotelInfo/Languages/Language@LanguageCode", "language",
           canon="language"),
    ),
    "Policies": (
        _c("cancel_policy_code", "CancelPolicyCode", "int", "Policies/Policy/CancelPolicy/CancelPenalty@PolicyCode",
           "CancelPenalty"),
        _c("no_show_penalty", "NoShowPenalty", "str",
           "Policies/Policy/CancelPolicy/CancelPenalty/TPA_Extensions/NoShowPolicy@Penalty", "Penalty",
           choices=NO_SHOW, sent_with="cancel_policy_code"),
        _c("guarantee_policy_code", "GuaranteePolicyCode", "int",
           "Policies/Policy/GuaranteePaymentPolicy/GuaranteePayment@PolicyCode", "GuaranteePayment"),
        _c("prepayment_effective_from", "EffectiveFrom", "str",
           "Policies/Policy/GuaranteePaymentPolicy/GuaranteePayment/TPA_Extensions/PrepaymentPolicy@EffectiveFrom",
           "PrepaymentEffectiveFrom", choices=PREPAYMENT_FROM, sent_with="guarantee_policy_code"),
        _c("pets_allowed", "PetsAllowedCode", "str", "Policies/Policy/PetsPolicies@PetsAllowedCode", "pets",
           choices=PETS),
        _c("pets_non_refundable_fee", "NonRefundableFee", "str",
           "Policies/Policy/PetsPolicies/PetsPolicy@NonRefundableFee", "PetsFee", choices=PETS_FEE),
        _c("total_guest_count", "TotalGuestCount", "int", "Policies/Policy/PolicyInfo@TotalGuestCount"),
        _c("accepted_guest_type", "AcceptedGuestType", "str", "Policies/Policy/PolicyInfo@AcceptedGuestType",
           choices=GUEST_TYPES),
        _c("min_guest_age", "MinGuestAge", "int", "Policies/Policy/PolicyInfo@MinGuestAge"),
    ),
    "Taxes": _taxlike("Policies/Policy/TaxPolicies/TaxPolicy", TAX_TYPES),
    "Fees": (
        *_taxlike(_FEE, FEE_TYPES),
        _c("min_age", "MinAge", "int", f"{_FEE}@MinAge"),
        _c("max_age", "MaxAge", "int", f"{_FEE}@MaxAge"),
        _c("conditions", "Conditions", "list", f"{_FEE}/TPA_Extensions/Conditions/Condition@Type", "Condition",
           choices=CONDITIONS),
        _c("internet_type", "InternetType", "str", f"{_FEE}/TPA_Extensions/InternetFeePolicy@InternetType",
           choices=INTERNET_TYPES),
        _c("internet_coverage", "InternetCoverage", "str", f"{_FEE}/TPA_Extensions/InternetFeePolicy@InternetCoverage",
           choices=INTERNET_COVERAGE),
        _c("parking_type", "ParkingType", "str", f"{_FEE}/TPA_Extensions/ParkingFeePolicy@ParkingType",
           choices=PARKING_TYPES),
        _c("parking_reservation", "ParkingReservation", "str",
           f"{_FEE}/TPA_Extensions/ParkingFeePolicy@ParkingReservation", choices=PARKING_RESERVATIONS),
        _c("parking_property", "ParkingProperty", "str", f"{_FEE}/TPA_Extensions/ParkingFeePolicy@ParkingProperty",
           choices=PARKING_PROPERTIES),
    ),
    "Services": (
        _c("code", "Code", "int", f"{_SERVICE}@Code", "ServiceCode"),
        _c("exists_code", "ExistsCode", "int", f"{_SERVICE}@ExistsCode"),
        _c("included", "Included", "str", f"{_SERVICE}@Included", choices=INCLUDED),
        _c("price", "Price", "int", f"{_SERVICE}@Price"),
        _c("currency_code", "CurrencyCode", "str", f"{_SERVICE}@CurrencyCode", "currency", canon="upper"),
        _c("features", "Features", "list", f"{_SERVICE}/Features/Feature@DescriptiveText", "Feature"),
        _c("types", "Types", "list", f"{_SERVICE}/Types/Type@Code", "Type"),
        _c("breakfast_items", "Items", "list", f"{_SERVICE}/Items/Item@Code", "BreakfastItems"),
    ),
    "Restaurants": (
        _c("restaurant_name", "RestaurantName", "str", f"{_REST}@RestaurantName", "restaurant"),
        _c("offer_breakfast", "OfferBreakfast", "flag", f"{_REST}@OfferBreakfast"),
        _c("offer_brunch", "OfferBrunch", "flag", f"{_REST}@OfferBrunch"),
        _c("offer_dinner", "OfferDinner", "flag", f"{_REST}@OfferDinner"),
        _c("offer_lunch", "OfferLunch", "flag", f"{_REST}@OfferLunch"),
        _c("cuisines", "CuisineCodes", "list", f"{_REST}/CuisineCodes/CuisineCode@Code", "CuisineCode", "Cuisines"),
        _c("features", "Features", "list", f"{_REST}/Features/Feature@DescriptiveText", "Feature",
           choices=RESTAURANT_FEATURES),
        _c("ambiances", "Ambiances", "list", f"{_REST}/TPA_Extensions/Ambiances/Ambiance@Name", "Ambiance",
           choices=AMBIANCES),
        _c("dietary_options", "DietaryOptions", "list", f"{_REST}/TPA_Extensions/DietaryOptions/DietaryOption@Name",
           "DietaryOption", choices=DIETARY),
        _c("mon", "Mon", "flag", f"{_TIME}@Mon", "monday", sent_with="open_start"),
        _c("tue", "Tue", "flag", f"{_TIME}@Tue", "tues", "tuesday", sent_with="open_start"),
        _c("wed", "Weds", "flag", f"{_TIME}@Weds", "Wed", "wednesday", sent_with="open_start"),
        _c("thu", "Thur", "flag", f"{_TIME}@Thur", "Thu", "thurs", "thursday", sent_with="open_start"),
        _c("fri", "Fri", "flag", f"{_TIME}@Fri", "friday", sent_with="open_start"),
        _c("sat", "Sat", "flag", f"{_TIME}@Sat", "saturday", sent_with="open_start"),
        _c("sun", "Sun", "flag", f"{_TIME}@Sun", "sunday", sent_with="open_start"),
        _c("open_start", "Start", "time", f"{_TIME}@Start", "OpenStart", "opens"),
        _c("open_end", "End", "time", f"{_TIME}@End", "OpenEnd", "closes", sent_with="open_start"),
    ),
    "Attractions": (
        _c("category_code", "AttractionCategoryCode", "int", "AreaInfo/Attractions/Attraction@AttractionCategoryCode",
           "category"),
        _c("attraction_name", "AttractionName", "str", "AreaInfo/Attractions/Attraction@AttractionName", "name"),
        _c("distance", "Distance", "float", "AreaInfo/Attractions/Attraction@Distance"),
        _c("distance_unit", "DistanceUnit", "str", "AreaInfo/Attractions/Attraction@DistanceUnit", "unit",
           choices=DISTANCE_UNITS),
        _c("language_code", "LanguageCode", "str", "AreaInfo/Attractions/Attraction@LanguageCode", "language",
           canon="language"),
    ),
    "Transport": (
        _c("transport_type_code", "TransportType", "int", f"{_LEG}/TransportType@Code", "TransportTypeCode"),
        _c("journey_minutes", "JourneyTime", "int", f"{_LEG}/JourneyTime@Minutes", "JourneyMinutes", "Minutes"),
        _c("departure_interval", "Interval", "int", f"{_LEG}/Departure@Interval", "DepartureInterval"),
        _c("departure_upon_arrangement", "UponArrangement", "flag", f"{_LEG}/Departure@UponArrangement",
           "DepartureUponArrangement"),
        _c("junction_name", "Junction", "str", f"{_LEG}/Junction@Name", "JunctionName"),
        _c("line_name", "Line", "str", f"{_LEG}/Line@Name", "LineName"),
        _c("motorway_name", "Motorway", "str", f"{_LEG}/Motorway@Name", "MotorwayName"),
        _c("start_type", "StartType", "str", f"{_LEG}/Start@Type", choices=START_TYPES),
        _c("start_code", "StartCode", "str", f"{_LEG}/Start@Code", "airport", canon="upper"),
        _c("price_amount", "PriceAmount", "float", f"{_LEG}/Price@Amount", "price", "Amount"),
        _c("price_currency", "PriceCurrencyCode", "str", f"{_LEG}/Price@CurrencyCode", "CurrencyCode", canon="upper"),
    ),
    "Payments": (
        _c("payment_type_code", "PaymentTypeCode", "int",
           "HotelInfo/TPA_Extensions/AcceptedPayments/AcceptedPayment@PaymentTypeCode", "payment_type"),
    ),
    "Invoice": (
        _c("tax_type", "InvoiceTaxType", "str", f"{_INV}/InvoiceTaxType@Type", "TaxType", choices=TAX_NUMBER_TYPES),
        _c("tax_number", "InvoiceTaxNumber", "digits", f"{_INV}/InvoiceTaxNumber@Code", "TaxNumber", "CNPJ_CPF"),
        _c("invoice_email", "InvoiceAddress", "str", f"{_INV}/InvoiceAddress@Email", "InvoiceEmail", "Email"),
        _c("city_hall_id", "CityHallInfo", "str", f"{_INV}/CityHallInfo@Id", "CityHallId"),
        _c("birth_date", "BirthDate", "date", f"{_INV}/BirthDate@Date"),
    ),
    "Phrases": (
        _c("phrase_name", "StandardPhrase", "str", f"{_PHR}@Name", "PhraseName", "Phrase",
           choices=tuple(PHRASE_OPTIONS)),
        _c("enabled", "Enabled", "flag", f"{_PHR}@Enabled"),
        _c("option_name", "OptionName", "str", f"{_PHR}/Options/Option@Name", "Option", choices=OPTION_NAMES),
        _c("option_value", "OptionValue", "str", f"{_PHR}/Options/Option", "Value", sent_with="option_name"),
    ),
    "Awards": (
        _c("provider", "Provider", "str", "AffiliationInfo/Awards/Award@Provider", choices=(STAR_RATING,)),
        _c("rating", "Rating", "int", "AffiliationInfo/Awards/Award@Rating"),
    ),
}

#: the part names, in the order of the workbook and of ``ContentLoaded.parts``
PARTS: tuple[str, ...] = tuple(PART_FIELDS)
_HEAD = {"hotel_code": "Int64", "custom_id": "string", "property": "string"}
_PROV = {"source": "string", "sheet": "string", "row": "Int64"}

#: canonical columns and dtypes of each part's frame
CONTENT_COLUMNS: dict[str, dict[str, str]] = {
    part: {**_HEAD, **{f.name: KIND_DTYPES[f.kind] for f in fields}, **_PROV}
    for part, fields in PART_FIELDS.items()
}


def fields_of(part: str) -> tuple[ContentField, ...]:
    """The key fields and the part's own fields."""
    return (*KEY_FIELDS, *PART_FIELDS[part])


def frames_from_rows(sheets: dict[str, list[dict]], source: str = "content.xlsx") -> dict[str, pd.DataFrame]:
    """Canonical part frames (as :func:`loaders.read_content` gives them) from rows keyed by column name.

    For code that builds content rather than reading it (tests, benchmarks, a parsed request): each
    part's sheet is named like the part, rows are numbered from 2, headers are the OTA names; the
    values are made canonical as the loader makes them (``loaders.content_canon``).
    """
    from loaders.content_canon import canonical_frame  # it reads this module's fields

    headers = {(source, part): {"kind": part, **{f.name: f.field.ota for f in fields_of(part)}} for part in PARTS}
    out = {}
    for part in PARTS:
        rows = sheets.get(part, [])
        columns = CONTENT_COLUMNS[part]
        data = {}
        for col, dtype in columns.items():
            values = [r.get(col) for r in rows]
            if dtype == "object":
                data[col] = pd.Series([v if v is not None else [] for v in values], dtype=object)
            else:
                data[col] = pd.Series(values, dtype=dtype)
        frame = canonical_frame(part, pd.DataFrame(data))
        frame["property"] = frame["hotel_code"].astype("string").fillna(frame["custom_id"])
        frame["source"], frame["sheet"] = source, part
        frame["row"] = pd.array(range(2, len(frame) + 2), dtype="Int64")
        frame = frame.astype(columns)[list(columns)]
        frame.attrs["headers"] = headers
        out[part] = frame
    return out
