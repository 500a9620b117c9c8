"""The rules the platform checks on ``OTA_HotelDescriptiveContentNotif`` (spec E4, Limits, Errors),
as the sandbox answers them: each broken rule is one OTA ``Error`` (``Code``, ``ShortText`` saying
what and how to fix, ``Details`` as ``key=value; ...`` naming the element path and the value), a few
are ``Warning``s. Elements are matched by local name (OTA namespace or none).

:func:`check_content` reads one ``HotelDescriptiveContent`` and returns every issue at once, with the
facts the handler needs (name, custom id, country, coordinates, booking model). Codes are the
sandbox's own (the spec publishes no code list) and are listed in docs/sandbox.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date

from lxml import etree

from workbench.ota import child, children, localname
from workbench.sandbox.platform import country_facts
from workbench.sandbox.platform.city_tax import CityTaxCategory, same_city
from workbench.sandbox.platform.issues import Issue

PROFILE_TYPES = ("general", "contract", "reservations", "invoices", "availability", "site_content", "parity",
                 "requests", "central_reservations", "PhysicalLocation")
REQUIRED_PROFILES = ("general", "invoices", "PhysicalLocation")
#: Property class type codes of the "hotel" group (reference code list ``booking_pct.csv``:
#: Resort 30, Hostel 19, Hotel 20, Inn 21, Lodge 22, Motel 27): the only classes that take stars.
HOTEL_CLASSES = frozenset({19, 20, 21, 22, 27, 30})
NAME_SYMBOLS = frozenset("!#&`'\"-, ")
GRACE_HOURS = (0, 1, 4, 24)
GRACE_WEEKS = (0, 4, 8, 12)
LONG_STAY_DAYS = (45, 60, 75, 90)
MAX_FLOORS = 200
MAX_AGE = 255
AGE_FEE_CODES = (37, 38, 44)
CLEANING_FEE = 5009
INTERNET_FEE = 5035
VAT = 36
PRICED_SERVICES = (173, 6000, 6001)
PHRASES_WITH_OPTIONS = ("KeyCollection", "Renovation", "HotelChainBedLinen", "SecurityDeposit")
PHRASE_OPTIONS = ("KeyCollectionAddressLine", "KeyCollectionCityName", "KeyCollectionPostalCode", "RenovationFrom",
                  "RenovationUntil", "SecurityDepositAmount", "SecurityDepositCollectMethod",
                  "SecurityDepositCollectWhen", "SecurityDepositCollectNumDays", "SecurityDepositReturnMethod",
                  "SecurityDepositReturnWhen", "HotelChainBedLinenAmount")
ROUTE_NAMES = {"Junction": (5,), "Line": (3, 10, 18, 22, 5001), "Motorway": (5,)}
TIME = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d")
CHECK_TIME = re.compile(rf"{TIME.pattern}(?:-{TIME.pattern})?")
DIGIT_RUN = re.compile(r"\d{6,}")

#: (path under HDC, attribute, allowed values): enumerations the spec lists.
ENUMS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("", "HotelDescriptiveContentNotifType", ("New", "Overlay")),
    ("", "Target", ("Test", "Production")),
    ("AreaInfo/Attractions/Attraction", "DistanceUnit", ("meters", "kilometers", "feet", "miles")),
    ("ContactInfos/ContactInfo", "ContactProfileType", PROFILE_TYPES),
    ("ContactInfos/ContactInfo/HiddenAddress", "ShouldHideAddress", ("0", "1")),
    ("ContactInfos/ContactInfo/Names/Name", "Gender", ("Male", "Female")),
    ("FacilityInfo/Restaurants/Restaurant/Features/Feature", "DescriptiveText",
     ("a la carte", "buffet", "guests only", "accepts reservations", "outdoor seating")),
    ("FacilityInfo/Restaurants/Restaurant/TPA_Extensions/Ambiances/Ambiance", "Name",
     ("family/kids friendly", "modern", "romantic", "traditional")),
    ("FacilityInfo/Restaurants/Restaurant/TPA_Extensions/DietaryOptions/DietaryOption", "Name",
     ("dairy free", "gluten free", "halal", "kosher", "vegan", "vegetarian")),
    ("HotelInfo/CategoryCodes/HotelCategory", "ExistsCode", ("0", "1")),
    ("HotelInfo/Services/Service", "ExistsCode", ("1", "2")),
    ("HotelInfo/Services/Service", "Included", ("true", "false", "unknown")),
    ("HotelInfo/TPA_Extensions/InvoiceDetails/InvoiceTaxType", "Type", ("CNPJ", "CPF")),
    ("HotelInfo/TPA_Extensions/PaymentPreferences", "NoCVC", ("0", "1")),
    ("HotelInfo/TPA_Extensions/PaymentPreferences", "ViewCCDetails", ("0", "1")),
    ("Policies/Policy/PolicyInfo", "AcceptedGuestType", ("AdultOnly", "ChildrenAllowed")),
    ("Policies/Policy/CancelPolicy/CancelPenalty/TPA_Extensions/NoShowPolicy", "Penalty", ("total_price", "default")),
    ("Policies/Policy/PetsPolicies", "PetsAllowedCode", ("Pets Allowed", "Pets Not Allowed", "Pets By Arrangements")),
    ("Policies/Policy/PetsPolicies/PetsPolicy", "NonRefundableFee", ("free", "charges_may_apply")),
    ("Policies/Policy/GuaranteePaymentPolicy/GuaranteePayment/TPA_Extensions/PrepaymentPolicy", "EffectiveFrom",
     ("after_reservation_is_made", "after_cancellation_fee_begins")),
    ("Policies/Policy/TaxPolicies/TaxPolicy", "Type", ("Inclusive", "Exclusive")),
    ("Policies/Policy/FeePolicies/FeePolicy", "Type", ("Inclusive", "Exclusive", "Conditional")),
    ("Policies/Policy/FeePolicies/FeePolicy/TPA_Extensions/Conditions/Condition", "Type",
     ("guest_brings_pet", "guest_doesnt_clean_before_checkout", "guest_smokes")),
    ("Policies/Policy/FeePolicies/FeePolicy/TPA_Extensions/InternetFeePolicy", "InternetType", ("wired", "wifi", "none")),
    ("Policies/Policy/FeePolicies/FeePolicy/TPA_Extensions/InternetFeePolicy", "InternetCoverage",
     ("entire_property", "public_areas", "all_rooms", "some_rooms", "business_centre")),
    ("Policies/Policy/FeePolicies/FeePolicy/TPA_Extensions/ParkingFeePolicy", "ParkingType",
     ("on_site", "location_nearby", "none")),
    ("Policies/Policy/FeePolicies/FeePolicy/TPA_Extensions/ParkingFeePolicy", "ParkingReservation",
     ("needed", "not_needed", "not_available")),
    ("Policies/Policy/FeePolicies/FeePolicy/TPA_Extensions/ParkingFeePolicy", "ParkingProperty", ("private", "public")),
    ("Policies/Policy/TPA_Extensions", "OverwriteFutureFees", ("0", "1")),
    ("TPA_Extensions/StandardPhrases/StandardPhrase", "Enabled", ("0", "1")),
    ("TPA_Extensions/StandardPhrases/StandardPhrase/Options/Option", "Name", PHRASE_OPTIONS),
    ("TPA_Extensions/PreventLikelyToBeCancelledBookings", "Enabled", ("0", "1")),
    ("TPA_Extensions/PricingType", "Value", ("Standard", "OBP", "LOS")),
    ("TPA_Extensions/LongStayInfo", "AcceptLongStay", ("0", "1")),
    ("TPA_Extensions/BookingModel", "Type", ("RTB", "IB")),
    ("TPA_Extensions/GuestInformation", "RequireGuestAddress", ("0", "1")),
    ("TPA_Extensions/GuestInformation", "RequireGuestContactNumber", ("0", "1")),
    ("TPA_Extensions/GuestInformation", "HasAgeRestriction", ("0", "1")),
    ("TPA_Extensions/GuestInformation", "HasCurfew", ("0", "1")),
)
for _restaurant_flag in ("OfferBreakfast", "OfferBrunch", "OfferDinner", "OfferLunch"):
    ENUMS += (("FacilityInfo/Restaurants/Restaurant", _restaurant_flag, ("0", "1")),)
for _day in ("Mon", "Tue", "Weds", "Thur", "Fri", "Sat", "Sun"):
    ENUMS += (("FacilityInfo/Restaurants/Restaurant/OperationSchedules/OperationSchedule/OperationTimes/"
               "OperationTime", _day, ("0", "1")),)


@dataclass
class ContentFacts:
    """What the handler needs from the request, besides the issues."""

    notif_type: str = "New"
    hotel_code: str | None = None
    custom_id: str | None = None
    name: str | None = None
    target: str | None = None
    language: str | None = None
    currency: str | None = None
    country: str | None = None
    city: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    booking_model: str | None = None
    profiles: tuple[str, ...] = ()


@dataclass
class ContentOutcome:
    facts: ContentFacts
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)


def path_all(el: etree._Element, path: str) -> list[etree._Element]:
    """Every element at ``A/B/C`` under ``el`` by local names (``""`` is ``el`` itself)."""
    found = [el]
    for name in (p for p in path.split("/") if p):
        found = [c for f in found for c in children(f, name)]
    return found


def path_one(el: etree._Element, path: str) -> etree._Element | None:
    found = path_all(el, path)
    return found[0] if found else None


def attr(el: etree._Element | None, name: str) -> str | None:
    """An attribute by local name, stripped; None when absent."""
    if el is None:
        return None
    value = el.get(name)
    if value is not None:
        return str(value).strip()
    for k, v in el.attrib.items():  # a namespace-qualified attribute, rarely sent
        if str(k).endswith("}" + name):
            return str(v).strip()
    return None


def text_of(el: etree._Element | None) -> str:
    return (el.text or "").strip() if el is not None else ""


def _int(value: str | None) -> int | None:
    return int(value) if value is not None and value.lstrip("-").isdigit() else None


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except ValueError:
        return None


def where(el: etree._Element, top: etree._Element) -> str:
    """``ContactInfos/ContactInfo[2]/Phones/Phone[1]``: the element's path under HDC, 1-based positions."""
    parts: list[str] = []
    node: etree._Element | None = el
    while node is not None and node is not top:
        parent = node.getparent()
        name = localname(node)
        if parent is not None:
            same = children(parent, name)
            parts.append(f"{name}[{same.index(node) + 1}]" if len(same) > 1 else name)
        node = parent
    return "/".join(reversed(parts)) or "HotelDescriptiveContent"


def is_latin(text: str) -> bool:
    """Every letter is of the Latin script (digits, spaces and punctuation allowed)."""
    return all(not ch.isalpha() or unicodedata.name(ch, "").startswith("LATIN") for ch in text)


def name_problems(name: str) -> list[tuple[str, str]]:
    """``(code, message)`` for each name rule ``name`` breaks (spec E4 name rules, Limits)."""
    found: list[tuple[str, str]] = []
    if not 3 <= len(name) <= 255:
        found.append(("NAME_LENGTH", f"the property name has {len(name)} characters; it must have 3 to 255"))
    if DIGIT_RUN.search(name):
        found.append(("NAME_DIGITS", "the property name has more than five digits in a row (it looks like a phone "
                                     "number); remove the number"))
    bad = sorted({ch for ch in name if not (unicodedata.category(ch)[0] in "LM" or unicodedata.category(ch) == "Nd"
                                           or ch in NAME_SYMBOLS)})
    if bad:
        shown = " ".join(f"`{ch}`" for ch in bad)
        found.append(("NAME_CHARACTERS", f"the property name has characters not allowed: {shown}; use letters, "
                                         "digits, spaces and ! # & ` ' \" - , only"))
    if name.upper() == name and name.lower() != name:
        found.append(("NAME_ALL_UPPERCASE", "the property name is all upper case; write it in mixed case "
                                            "(e.g. `Hotel Aurora`)"))
    return found


def index(hdc: etree._Element) -> dict[str, list[etree._Element]]:
    """Every element under ``hdc`` by its path of local names (``Policies/Policy/PolicyInfo``), in
    document order; ``""`` is ``hdc`` itself. One walk instead of one per rule."""
    found: dict[str, list[etree._Element]] = {"": [hdc]}

    def walk(el: etree._Element, prefix: str) -> None:
        for kid in el:
            if isinstance(kid.tag, str):
                path = f"{prefix}/{localname(kid)}" if prefix else localname(kid)
                found.setdefault(path, []).append(kid)
                walk(kid, path)

    walk(hdc, "")
    return found


class _Checker:
    def __init__(self, hdc: etree._Element, hotel_key: str) -> None:
        self.hdc = hdc
        self.key = hotel_key
        self.errors: list[Issue] = []
        self.warnings: list[Issue] = []
        self._index = index(hdc)

    def all(self, path: str) -> list[etree._Element]:
        """Every element at ``path`` under HDC (see :func:`path_all`)."""
        return self._index.get(path, [])

    def one(self, path: str) -> etree._Element | None:
        found = self._index.get(path)
        return found[0] if found else None

    def details(self, el: etree._Element | None, extra: dict[str, object] | None = None) -> str:
        items: dict[str, object] = {"property": self.key}
        if el is not None:
            items["path"] = where(el, self.hdc)
        items.update({k: v for k, v in (extra or {}).items() if v is not None})
        return "; ".join(f"{k}={v}" for k, v in items.items())

    def error(self, rule: str, text: str, el: etree._Element | None = None, **extra: object) -> None:
        self.errors.append(Issue(rule, text, self.details(el, extra)))

    def warn(self, rule: str, text: str, el: etree._Element | None = None, **extra: object) -> None:
        self.warnings.append(Issue(rule, text, self.details(el, extra)))


def check_content(hdc: etree._Element, *, notif_type: str, today: date, rtb_enabled: bool,
                  tax_categories: Iterable[CityTaxCategory], property_currency: str | None = None) -> ContentOutcome:
    """Every rule on one ``HotelDescriptiveContent``; ``notif_type`` is ``New`` or ``Overlay``."""
    facts = ContentFacts(notif_type=notif_type, hotel_code=attr(hdc, "HotelCode") or None,
                         custom_id=attr(hdc, "ID") or None, name=attr(hdc, "HotelName"), target=attr(hdc, "Target"),
                         language=attr(hdc, "LanguageCode"), currency=attr(hdc, "CurrencyCode"))
    c = _Checker(hdc, facts.hotel_code or facts.custom_id or "(new, no ID)")
    creating = notif_type == "New"
    _enums(c)
    _header(c, facts, creating)
    _contacts(c, facts, creating)
    _hotel_info(c, facts, creating)
    _invoice(c, facts)
    _policies(c, creating)
    _tpa(c, facts, creating, rtb_enabled, list(tax_categories))
    _services(c, property_currency or facts.currency)
    _restaurants_and_routes(c)
    _awards(c)
    return ContentOutcome(facts, c.errors, c.warnings)


def _enums(c: _Checker) -> None:
    for path, name, allowed in ENUMS:
        for el in c.all(path):
            value = attr(el, name)
            if value is not None and value not in allowed:
                c.error("INVALID_VALUE", f"{name} `{value}` is not one of: {', '.join(allowed)}", el,
                        attribute=name, value=value)


def _header(c: _Checker, facts: ContentFacts, creating: bool) -> None:
    if not facts.language:
        c.error("MISSING_LANGUAGE_CODE", "HotelDescriptiveContent@LanguageCode is required (the language of the "
                                         "extranet content and communication, e.g. `en`)")
    if not facts.target:
        c.error("MISSING_TARGET", "HotelDescriptiveContent@Target is required: `Test` or `Production`")
    if facts.name is None or facts.name == "":
        if creating:
            c.error("MISSING_HOTEL_NAME", "a new property needs HotelDescriptiveContent@HotelName")
    else:
        for code, text in name_problems(facts.name):
            c.error(code, text, None, value=facts.name)
        if creating and not is_latin(facts.name):
            c.error("NAME_NOT_LATIN", "a new property's name must be in Latin characters only; give the name in "
                                      "another script as the address's HotelName", None, value=facts.name)
    if facts.currency is not None and not country_facts.is_currency(facts.currency):
        c.error("UNKNOWN_CURRENCY", f"CurrencyCode `{facts.currency}` is not a currency the platform knows "
                                    "(see /xml/currencies)", None, value=facts.currency)
    if creating and facts.hotel_code:
        c.error("HOTEL_CODE_ON_NEW", f"HotelDescriptiveContentNotifType New creates a property, but HotelCode "
                                     f"{facts.hotel_code} names an existing one; send Overlay to update it")


def _contacts(c: _Checker, facts: ContentFacts, creating: bool) -> None:
    infos = c.all("ContactInfos/ContactInfo")
    by_type: dict[str, etree._Element] = {}
    for info in infos:
        kind = attr(info, "ContactProfileType")
        if not kind:
            c.error("MISSING_PROFILE_TYPE", "ContactInfo@ContactProfileType is required (general, invoices, "
                                            "PhysicalLocation, ...)", info)
            continue
        by_type.setdefault(kind, info)
        for address in path_all(info, "Addresses/Address"):
            _address(c, address, kind, creating)
        for phone in path_all(info, "Phones/Phone"):
            _phone(c, phone)
    facts.profiles = tuple(k for k in PROFILE_TYPES if k in by_type)
    location = by_type.get("PhysicalLocation")
    address = path_one(location, "Addresses/Address") if location is not None else None
    if address is not None:
        facts.country = text_of(child(address, "CountryName")) or None
        facts.city = text_of(child(address, "CityName")) or None
    if not creating:
        return
    if address is None:
        c.error("MISSING_PHYSICAL_LOCATION", "a new property needs a ContactInfo ContactProfileType=PhysicalLocation "
                                             "with an Address (address line, city, postcode, country)")
    else:
        line = text_of(child(address, "AddressLine"))
        if line and not is_latin(line):
            c.error("ADDRESS_NOT_LATIN", "the PhysicalLocation address line 1 must be in Latin characters",
                    child(address, "AddressLine"), value=line)
        if not text_of(child(address, "PostalCode")):
            c.error("MISSING_POSTCODE", "a new property's PhysicalLocation address needs a PostalCode", address)
    for kind in ("general", "invoices"):
        info = by_type.get(kind)
        if info is None:
            c.error("MISSING_CONTACT", f"a new property needs a ContactInfo ContactProfileType={kind} with the "
                                       "contact person's given name, surname, e-mail and phone", profile=kind)
            continue
        name = path_one(info, "Names/Name")
        missing = [label for label, ok in (
            ("GivenName", bool(text_of(child(name, "GivenName") if name is not None else None))),
            ("SurName", bool(text_of(child(name, "SurName") if name is not None else None))),
            ("Email", any(text_of(e) for e in path_all(info, "Emails/Email"))),
            ("Phone", any(attr(p, "PhoneNumber") for p in path_all(info, "Phones/Phone")))) if not ok]
        if missing:
            c.error("MISSING_CONTACT_DETAILS", f"the {kind} contact lacks {', '.join(missing)} (a new property needs "
                                               "the contact person's given name, surname, e-mail and phone)",
                    info, profile=kind)


def _address(c: _Checker, address: etree._Element, kind: str, creating: bool) -> None:
    line, city = text_of(child(address, "AddressLine")), text_of(child(address, "CityName"))
    country, postcode = text_of(child(address, "CountryName")), text_of(child(address, "PostalCode"))
    for label, value in (("AddressLine", line), ("CityName", city), ("CountryName", country)):
        if not value:
            c.error("MISSING_ADDRESS_FIELD", f"the {kind} address needs {label}", address, profile=kind)
    if len(line) > 255:
        c.error("ADDRESS_LINE_TOO_LONG", f"the address line has {len(line)} characters; at most 255", address,
                profile=kind)
    if country and not country_facts.is_country(country):
        c.error("INVALID_COUNTRY", f"CountryName `{country}` is not a two-letter ISO 3166-1 country code "
                                   "(e.g. `NL`, `BR`)", address, profile=kind, value=country)
        return
    state = attr(child(address, "StateProv"), "StateCode")
    if state and country and not country_facts.is_subdivision(country, state):
        c.error("INVALID_STATE_CODE", f"StateProv@StateCode `{state}` is not an ISO 3166-2 subdivision of {country}",
                address, profile=kind, value=state)
    if postcode and country and not country_facts.postcode_fits(country, postcode):
        example = country_facts.postcode_example(country)
        hint = f" (e.g. `{example}`)" if example else ""
        c.error("POSTCODE_COUNTRY", f"the postcode `{postcode}` does not match the format of {country}{hint}",
                address, profile=kind, value=postcode, country=country)


def _phone(c: _Checker, phone: etree._Element) -> None:
    number = attr(phone, "PhoneNumber")
    if number is None:
        c.error("MISSING_PHONE_NUMBER", "Phone@PhoneNumber is required", phone)
    else:
        problem = country_facts.phone_problem(number)
        if problem:
            c.error("INVALID_PHONE", f"the phone number `{number}` {problem}", phone, value=number)
    tech = attr(phone, "PhoneTechType")
    if attr(phone, "Extension") and tech != "1":
        c.error("EXTENSION_NOT_ALLOWED", f"Phone@Extension is allowed only with PhoneTechType 1 (voice), not "
                                         f"`{tech or '(none)'}`", phone, value=attr(phone, "Extension"))


def _hotel_info(c: _Checker, facts: ContentFacts, creating: bool) -> None:
    info = c.one("HotelInfo")
    position = c.one("HotelInfo/Position")
    lat, lon = _float(attr(position, "Latitude")), _float(attr(position, "Longitude"))
    if position is not None and (lat is None or lon is None or not -90 <= lat <= 90 or not -180 <= lon <= 180):
        c.error("INVALID_COORDINATES", "Position@Latitude must be a number in -90..90 and @Longitude in -180..180",
                position, latitude=attr(position, "Latitude"), longitude=attr(position, "Longitude"))
        lat = lon = None
    facts.latitude, facts.longitude = lat, lon
    if lat is not None and lon is not None and facts.country and country_facts.is_country(facts.country):
        found = country_facts.place_in(lat, lon, facts.country)
        if found == "":
            c.warn("COORDINATES_NOT_PLACED", f"the coordinates ({lat}, {lon}) lie in no country and more than "
                                             f"{country_facts.BORDER_KM:g} km from {facts.country}; check them", position)
        elif found is not None:
            c.error("COORDINATES_COUNTRY",
                    f"the country of the coordinates ({lat}, {lon}), {country_facts.country_name(found)} ({found}), "
                    f"differs from the property country {country_facts.country_name(facts.country)} "
                    f"({facts.country}); fix the latitude/longitude or Address > CountryName",
                    position, coordinates_country=found, property_country=facts.country)
    if not creating:
        return
    if info is None:
        c.error("MISSING_HOTEL_INFO", "HotelInfo is required")
    if lat is None or lon is None:
        c.error("MISSING_POSITION", "a new property needs HotelInfo/Position@Latitude and @Longitude")
    if c.one("HotelInfo/OwnershipManagementInfos") is None or \
            _int(attr(c.one("HotelInfo/OwnershipManagementInfos/OwnershipManagementInfo/CompanyName"),
                      "Code")) is None:
        c.error("MISSING_LEGAL_ENTITY", "a new property needs its legal entity id: HotelInfo/"
                                        "OwnershipManagementInfos/OwnershipManagementInfo/CompanyName@Code (a number)")
    if _int(attr(c.one("HotelInfo/CategoryCodes/GuestRoomInfo"), "Quantity")) is None:
        c.error("MISSING_SELLABLE_UNITS", "a new property needs the number of sellable units: "
                                          "HotelInfo/CategoryCodes/GuestRoomInfo@Quantity")
    if _int(attr(c.one("HotelInfo/CategoryCodes/HotelCategory"), "Code")) is None:
        c.error("MISSING_PROPERTY_CLASS", "a new property needs its property class type code: "
                                          "HotelInfo/CategoryCodes/HotelCategory@Code")
    if not any(attr(el, "LanguageCode") for el in c.all("HotelInfo/Languages/Language")):
        c.error("MISSING_LANGUAGE", "a new property needs at least one HotelInfo/Languages/Language@LanguageCode")


def _invoice(c: _Checker, facts: ContentFacts) -> None:
    details = c.one("HotelInfo/TPA_Extensions/InvoiceDetails")
    if details is None:
        if facts.country == "BR":
            c.error("MISSING_INVOICE_DETAILS", "a Brazilian property needs HotelInfo/TPA_Extensions/InvoiceDetails "
                                               "(tax type and number, invoice e-mail, city hall id)")
        return
    kind = attr(child(details, "InvoiceTaxType"), "Type")
    number = attr(child(details, "InvoiceTaxNumber"), "Code") or ""
    if kind is None:
        c.error("MISSING_INVOICE_FIELD", "InvoiceDetails needs InvoiceTaxType@Type (`CNPJ` or `CPF`)", details)
    elif kind in ("CNPJ", "CPF"):
        size = 14 if kind == "CNPJ" else 11
        held = child(details, "InvoiceTaxNumber")
        at = held if held is not None else details
        if not number.isdigit() or len(number) != size:
            c.error("INVALID_TAX_NUMBER", f"a {kind} has {size} digits (no punctuation); `{number}` is not that", at,
                    value=number)
        elif not country_facts.tax_number_valid(kind, number):
            c.error("INVALID_TAX_NUMBER", f"the {kind} `{number}` has wrong check digits", at, value=number)
    if not attr(child(details, "InvoiceAddress"), "Email"):
        c.error("MISSING_INVOICE_FIELD", "InvoiceDetails needs InvoiceAddress@Email", details)
    hall = attr(child(details, "CityHallInfo"), "Id")
    if hall is None:
        c.error("MISSING_INVOICE_FIELD", "InvoiceDetails needs CityHallInfo@Id (8 digits)", details)
    elif not (hall.isdigit() and len(hall) == 8):
        c.error("INVALID_CITY_HALL_ID", f"CityHallInfo@Id `{hall}` must be 8 digits", child(details, "CityHallInfo"),
                value=hall)
    birth = attr(child(details, "BirthDate"), "Date")
    if kind == "CPF" and not birth:
        c.error("MISSING_BIRTH_DATE", "a CPF (individual) needs BirthDate@Date (YYYY-MM-DD)", details)
    elif birth:
        try:
            date.fromisoformat(birth)
            valid = len(birth) == 10
        except ValueError:
            valid = False
        if not valid:
            c.error("INVALID_VALUE", f"BirthDate@Date `{birth}` is not a date written YYYY-MM-DD",
                    child(details, "BirthDate"), attribute="Date", value=birth)


def _policies(c: _Checker, creating: bool) -> None:
    policies = c.all("Policies/Policy")
    if creating and not c.all("Policies/Policy/CancelPolicy/CancelPenalty"):
        c.warn("DEFAULT_POLICY_APPLIED", "no cancellation policy given: the fully flexible policy "
                                         "(PolicyCode 152) is applied to the new property")
    info = c.one("Policies/Policy/PolicyInfo")
    for name in ("CheckInTime", "CheckOutTime"):
        value = attr(info, name)
        if value and not CHECK_TIME.fullmatch(value):
            c.error("INVALID_TIME", f"PolicyInfo@{name} `{value}` is not HH:MM or HH:MM-HH:MM", info,
                    attribute=name, value=value)
        if creating and not value:
            c.error("MISSING_CHECK_IN_OUT", f"a new property needs Policies/Policy/PolicyInfo@{name}")
    for penalty in c.all("Policies/Policy/CancelPolicy/CancelPenalty"):
        if path_one(penalty, "TPA_Extensions/NoShowPolicy") is None or \
                not attr(path_one(penalty, "TPA_Extensions/NoShowPolicy"), "Penalty"):
            c.error("MISSING_NO_SHOW_POLICY", "CancelPenalty needs TPA_Extensions/NoShowPolicy@Penalty "
                                              "(`total_price` or `default`)", penalty)
    for pets in c.all("Policies/Policy/PetsPolicies"):
        if attr(pets, "PetsAllowedCode") in ("Pets Allowed", "Pets By Arrangements") and child(pets, "PetsPolicy") is None:
            c.error("PETS_POLICY_REQUIRED", f"PetsAllowedCode `{attr(pets, 'PetsAllowedCode')}` needs a PetsPolicy "
                                            "(NonRefundableFee `free` or `charges_may_apply`)", pets)
    for policy in policies:
        for tax in path_all(policy, "TaxPolicies/TaxPolicy"):
            _charge(c, tax, "TaxPolicy")
        ranges: set[tuple[str | None, ...]] = set()
        for fee in path_all(policy, "FeePolicies/FeePolicy"):
            _charge(c, fee, "FeePolicy")
            _fee(c, fee, ranges)


def _charge(c: _Checker, el: etree._Element, kind: str) -> None:
    code = _int(attr(el, "Code"))
    if code is None:
        c.error("MISSING_CODE", f"{kind}@Code (the fee/tax type code) is required", el)
    amount, percent = attr(el, "Amount"), attr(el, "Percent")
    if amount is not None and percent is not None:
        c.error("AMOUNT_AND_PERCENT", f"{kind} has both Amount and Percent; send Percent only when there is no "
                                      "Amount", el, code=code)
    if kind == "TaxPolicy" and code == VAT and percent is None:
        c.error("VAT_PERCENT_REQUIRED", "TaxPolicy Code 36 (VAT) needs Percent", el, code=code)
    for name in ("Amount", "Percent"):
        value = attr(el, name)
        if value is not None and (_float(value) is None or (_float(value) or 0) < 0):
            c.error("INVALID_VALUE", f"{kind}@{name} `{value}` is not a non-negative number", el, attribute=name,
                    value=value)


def _fee(c: _Checker, fee: etree._Element, ranges: set[tuple[str | None, ...]]) -> None:
    code = _int(attr(fee, "Code"))
    if attr(fee, "Type") == "Conditional" and code != CLEANING_FEE:
        c.error("CONDITIONAL_NOT_CLEANING", f"FeePolicy Type Conditional is allowed only with Code {CLEANING_FEE} "
                                            f"(cleaning fee), not {code}", fee, code=code)
    conditions = path_all(fee, "TPA_Extensions/Conditions/Condition")
    if code == CLEANING_FEE and not conditions:
        c.error("CLEANING_FEE_CONDITION", "a cleaning fee (Code 5009) needs TPA_Extensions/Conditions/Condition@Type "
                                          "(guest_brings_pet, guest_doesnt_clean_before_checkout, guest_smokes)",
                fee, code=code)
    if path_one(fee, "TPA_Extensions/InternetFeePolicy") is not None and code != INTERNET_FEE:
        c.error("INTERNET_POLICY_NOT_ALLOWED", f"InternetFeePolicy is allowed only on a fee with Code {INTERNET_FEE} "
                                               f"(internet), not {code}", fee, code=code)
    ages = {name: attr(fee, name) for name in ("MinAge", "MaxAge")}
    for name, value in ages.items():
        if value is None:
            continue
        number = _int(value)
        if number is None or not 0 <= number <= MAX_AGE:
            c.error("INVALID_AGE", f"FeePolicy@{name} `{value}` must be a whole number 0..{MAX_AGE}", fee,
                    attribute=name, value=value)
    if any(v is not None for v in ages.values()):
        if code not in AGE_FEE_CODES:
            c.error("AGES_NOT_ALLOWED", f"MinAge/MaxAge are allowed only on fees with Code 37, 38 or 44, not {code}",
                    fee, code=code)
        key = (attr(fee, "Code"), ages["MinAge"], ages["MaxAge"], attr(fee, "InvCode"))
        if key in ranges:
            c.error("DUPLICATE_AGE_RANGE", f"the age range {ages['MinAge']}..{ages['MaxAge']} of fee {code} is given "
                                           "twice; send one FeePolicy per age range", fee, code=code)
        ranges.add(key)


def _allowed(c: _Checker, el: etree._Element | None, name: str, ok: Callable[[int], bool], rule: str, text: str) -> None:
    value = attr(el, name)
    if value is None:
        return
    number = _int(value)
    if number is None or not ok(number):
        c.error(rule, f"{name} `{value}` {text}", el, attribute=name, value=value)


def _tpa(c: _Checker, facts: ContentFacts, creating: bool, rtb_enabled: bool,
         categories: list[CityTaxCategory]) -> None:
    tpa = c.one("TPA_Extensions")
    _allowed(c, child(tpa, "TotalNumberOfFloors") if tpa is not None else None, "Number",
             lambda n: 0 <= n <= MAX_FLOORS, "TOO_MANY_FLOORS", f"must be a whole number 0..{MAX_FLOORS}")
    grace = child(tpa, "CancellationGracePeriod") if tpa is not None else None
    _allowed(c, grace, "HoursAfterBooking", lambda n: n in GRACE_HOURS, "INVALID_GRACE_PERIOD",
             "must be 0, 1, 4 or 24")
    _allowed(c, grace, "WeeksBeforeCheckIn", lambda n: n in GRACE_WEEKS, "INVALID_GRACE_PERIOD",
             "must be 0, 4, 8 or 12")
    _allowed(c, child(tpa, "LongStayInfo") if tpa is not None else None, "MaxLengthOfStay",
             lambda n: n in LONG_STAY_DAYS, "INVALID_LONG_STAY", "must be 45, 60, 75 or 90")
    guest = child(tpa, "GuestInformation") if tpa is not None else None
    for name in ("AgeRestrictionMin", "AgeRestrictionMax"):
        _allowed(c, guest, name, lambda n: 18 <= n <= 99, "INVALID_AGE_RESTRICTION", "must be a whole number 18..99")
    low, high = _int(attr(guest, "AgeRestrictionMin")), _int(attr(guest, "AgeRestrictionMax"))
    if low is not None and high is not None and low > high:
        c.error("INVALID_AGE_RESTRICTION", f"AgeRestrictionMin {low} is above AgeRestrictionMax {high}", guest)
    for name in ("CurfewStart", "CurfewEnd"):
        value = attr(guest, name)
        if value is not None and not TIME.fullmatch(value):
            c.error("INVALID_TIME", f"GuestInformation@{name} `{value}` is not HH:MM", guest, attribute=name, value=value)
    for phrase in c.all("TPA_Extensions/StandardPhrases/StandardPhrase"):
        name = attr(phrase, "Name") or ""
        if name in PHRASES_WITH_OPTIONS and attr(phrase, "Enabled") != "0" and \
                not any(attr(o, "Name") for o in path_all(phrase, "Options/Option")):
            wanted = ", ".join(o for o in PHRASE_OPTIONS if o.startswith(name))
            c.error("MISSING_PHRASE_OPTION", f"the standard phrase {name} needs Options/Option@Name ({wanted})",
                    phrase, phrase=name)
        if not name or attr(phrase, "Enabled") is None:
            c.error("MISSING_ATTRIBUTE", "StandardPhrase needs Name and Enabled", phrase)
    _tax_info(c, facts, categories)
    model = attr(c.one("TPA_Extensions/BookingModel"), "Type")
    facts.booking_model = model
    if model == "RTB":
        if not creating:
            c.error("RTB_NEW_ONLY", "BookingModel RTB (request to book) can be set only when creating a property "
                                    "(New), not on an Overlay", c.one("TPA_Extensions/BookingModel"))
        elif not rtb_enabled:
            c.error("RTB_NOT_ENABLED", "BookingModel RTB needs the provider setting content_api_rtb_enabled; ask the "
                                       "platform to enable it, or send IB", c.one("TPA_Extensions/BookingModel"))
    pricing = attr(c.one("TPA_Extensions/PricingType"), "Value")
    if pricing in ("OBP", "LOS"):
        c.warn("PRICING_TYPE_CERTIFICATION", f"PricingType {pricing} needs certification of the connection; "
                                             "without it the property keeps Standard pricing",
               c.one("TPA_Extensions/PricingType"))


def _tax_info(c: _Checker, facts: ContentFacts, categories: list[CityTaxCategory]) -> None:
    info = c.one("TPA_Extensions/PropertyTaxInfo")
    if info is None:
        return
    answers = {n: attr(info, n) for n in ("PropertyRegisteredInVcs", "PropertyHasVat", "PropertyDeclaresRevenue")}
    for name, value in answers.items():
        if value not in ("0", "1"):
            c.error("MISSING_TAX_ANSWER", f"PropertyTaxInfo@{name} is required: 1 or 0"
                                          + (f" (not `{value}`)" if value is not None else ""), info, attribute=name)
    category = attr(info, "PropertyTaxCategory")
    if category is None:
        return
    if "1" in answers.values():
        yes = ", ".join(n for n, v in answers.items() if v == "1")
        c.error("TAX_CATEGORY_NOT_ALLOWED", f"PropertyTaxCategory must not be sent when an answer is 1 ({yes})",
                info, value=category)
        return
    listed = [t for t in categories if t.country == facts.country and same_city(t.city, facts.city or "")]
    if _int(category) not in {t.id for t in listed}:
        ids = ", ".join(f"{t.id} {t.name}" for t in listed) or "none"
        c.error("UNKNOWN_TAX_CATEGORY", f"PropertyTaxCategory {category} is not a city tax category of "
                                        f"{facts.city or '(no city)'} ({facts.country or 'no country'}); listed "
                                        f"there: {ids} (see /xml/citytaxcategory)", info, value=category)


def _services(c: _Checker, currency: str | None) -> None:
    for service in c.all("HotelInfo/Services/Service"):
        code = _int(attr(service, "Code"))
        if code is None:
            c.error("MISSING_CODE", "Service@Code is required", service)
        if code in PRICED_SERVICES:
            price, cur = attr(service, "Price"), attr(service, "CurrencyCode")
            if price is None or _int(price) is None or cur is None:
                c.error("SERVICE_PRICE_REQUIRED", f"Service {code} needs Price (a whole number) and CurrencyCode",
                        service, code=code)
            elif currency and cur != currency:
                c.error("SERVICE_CURRENCY", f"Service {code} is priced in {cur}; use the property's currency "
                                            f"{currency}", service, code=code, value=cur)


def _restaurants_and_routes(c: _Checker) -> None:
    for restaurant in c.all("FacilityInfo/Restaurants/Restaurant"):
        times = path_all(restaurant, "OperationSchedules/OperationSchedule/OperationTimes/OperationTime")
        if times and attr(restaurant, "OfferBreakfast") != "1":
            c.error("SCHEDULE_BREAKFAST_ONLY", "opening times (OperationSchedules) are taken for breakfast only: set "
                                               "OfferBreakfast=1 or leave the schedule out", restaurant)
        for t in times:
            for name in ("Start", "End"):
                value = attr(t, name)
                if value is None or not TIME.fullmatch(value):
                    c.error("INVALID_TIME", f"OperationTime@{name} `{value or '(none)'}` is required, HH:MM", t,
                            attribute=name)
    for attraction in c.all("AreaInfo/Attractions/Attraction"):
        missing = [n for n in ("AttractionCategoryCode", "AttractionName", "Distance") if not attr(attraction, n)]
        if missing:
            c.error("MISSING_ATTRIBUTE", f"Attraction needs {', '.join(missing)}", attraction)
    legs = c.all("HotelInfo/RelativePositions/RelativePosition/Transportations/Transportation/"
                           "TPA_Extensions/Route/Leg")
    for leg in legs:
        code = _int(attr(child(leg, "TransportType"), "Code"))
        if code is None:
            c.error("MISSING_CODE", "Leg/TransportType@Code is required", leg)
        if _int(attr(child(leg, "JourneyTime"), "Minutes")) is None:
            c.error("MISSING_ATTRIBUTE", "Leg/JourneyTime@Minutes is required (a whole number)", leg)
        for name, codes in ROUTE_NAMES.items():
            if attr(child(leg, name), "Name") and code not in codes:
                c.error("ROUTE_FIELD_NOT_ALLOWED", f"{name}@Name is allowed only with TransportType "
                                                   f"{', '.join(map(str, codes))}, not {code}", leg, code=code)


def _awards(c: _Checker) -> None:
    klass = _int(attr(c.one("HotelInfo/CategoryCodes/HotelCategory"), "Code"))
    for award in c.all("AffiliationInfo/Awards/Award"):
        if attr(award, "Provider") != "Star rating":
            continue
        rating = attr(award, "Rating")
        number = _int(rating)
        if number is None or not 0 <= number <= 5:
            c.error("INVALID_STAR_RATING", f"Award Rating `{rating}` must be a whole number 0..5", award, value=rating)
        elif klass is not None and klass not in HOTEL_CLASSES:
            c.error("STARS_NOT_HOTEL", f"a star rating is only for a property of the hotel class, not property class "
                                       f"{klass}", award, value=rating)
