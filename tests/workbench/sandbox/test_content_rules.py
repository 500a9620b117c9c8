"""OTA_HotelDescriptiveContentNotif rules of the sandbox (spec E4, Limits), in-process: every rule
answered as an Error with its exact ShortText, the request refused and nothing stored. Requests are raw
XML written here by hand (never the client's builder): a valid property, and one small text edit each."""

from __future__ import annotations

import csv
import datetime as dt
import importlib.util
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from workbench.ota.response import parse_response
from workbench.sandbox import SandboxConfig
from workbench.sandbox.platform.content_rules import name_problems
from workbench.sandbox.testing import InProcess


def _bodies():
    spec = importlib.util.spec_from_file_location("content_bodies", Path(__file__).with_name("content_bodies.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TODAY = dt.date(2026, 12, 1)
PATH = "/hotels/ota/OTA_HotelDescriptiveContentNotif"
NS = {"o": "http://www.opentravel.org/OTA/2003/05"}

BODIES = _bodies()
NL, BR, CPF, edit = BODIES.NL, BODIES.BR, BODIES.CPF, BODIES.edit

#: The spec's 75 calls a minute would stop the table half way: the limit is tested in test_limits.
UNLIMITED = {"OTA_HotelDescriptiveContentNotif": 100_000}


@pytest.fixture(scope="module")
def sb():
    box = InProcess(SandboxConfig(today=TODAY, password="pw", limits=UNLIMITED))
    yield box
    box.close()


def send(sb: InProcess, body: str):
    r = sb.post(PATH, body.encode("utf-8"))
    assert r.status_code == 200, r.text
    return r


def errors(r) -> list[tuple[str, str]]:
    root = etree.fromstring(r.content)
    return [(e.get("Code"), e.get("ShortText")) for e in root.iterfind("o:Errors/o:Error", NS)]


def properties(sb: InProcess) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(sb.request("GET", "/_sandbox/properties.csv").text)))


@pytest.mark.parametrize("body", [NL, BR, edit(BR, CPF, ("<CityHallInfo", '<BirthDate Date="1980-02-29"/><CityHallInfo'))],
                         ids=["amsterdam", "sao-paulo-cnpj", "sao-paulo-cpf"])
def test_valid_properties_are_created(body):
    box = InProcess(SandboxConfig(today=TODAY, password="pw"))
    try:
        r = send(box, body)
        parsed = parse_response(r.content)
        assert parsed.success and errors(r) == [], r.text
        new = [p for p in properties(box) if p["Source"] == "content"]
        assert len(new) == 1 and new[0]["Status"] == "Open"
        assert etree.fromstring(r.content).find("o:UniqueID", NS).attrib == {"Type": "10", "ID": new[0]["HotelCode"]}
    finally:
        box.close()


LONG_LINE = "Prinsengracht " + "2" * 242  # 256 characters
BAD = [
    # minimum to create a property (New)
    ("legal entity", NL, [('<CompanyName Code="4321"/>', "<CompanyName/>")], "MISSING_LEGAL_ENTITY",
     "a new property needs its legal entity id: HotelInfo/OwnershipManagementInfos/OwnershipManagementInfo/"
     "CompanyName@Code (a number)"),
    ("no name", NL, [(' HotelName="Hotel Canal View"', "")], "MISSING_HOTEL_NAME",
     "a new property needs HotelDescriptiveContent@HotelName"),
    ("name not Latin", NL, [("Hotel Canal View", "Гостиница Канал")], "NAME_NOT_LATIN",
     "a new property's name must be in Latin characters only; give the name in another script as the "
     "address's HotelName"),
    ("no PhysicalLocation", NL, [('"PhysicalLocation"', '"contract"')], "MISSING_PHYSICAL_LOCATION",
     "a new property needs a ContactInfo ContactProfileType=PhysicalLocation with an Address (address line, city, "
     "postcode, country)"),
    ("address not Latin", NL, [("Prinsengracht 263", "Принсенграхт 263")], "ADDRESS_NOT_LATIN",
     "the PhysicalLocation address line 1 must be in Latin characters"),
    ("no city", NL, [("<CityName>Amsterdam</CityName>", "")], "MISSING_ADDRESS_FIELD",
     "the PhysicalLocation address needs CityName"),
    ("no postcode", NL, [("<PostalCode>1016 GV</PostalCode>", "")], "MISSING_POSTCODE",
     "a new property's PhysicalLocation address needs a PostalCode"),
    ("no invoices contact", NL, [('"invoices"', '"reservations"')], "MISSING_CONTACT",
     "a new property needs a ContactInfo ContactProfileType=invoices with the contact person's given name, surname, "
     "e-mail and phone"),
    ("general contact incomplete", NL, [("<SurName>Jansen</SurName>", ""), ("<Email>anna@example.com</Email>", "")],
     "MISSING_CONTACT_DETAILS", "the general contact lacks SurName, Email (a new property needs the contact person's "
                                "given name, surname, e-mail and phone)"),
    ("invoices contact without phone", NL, [('<Phone PhoneNumber="+31201234568" PhoneTechType="1"/>', "")],
     "MISSING_CONTACT_DETAILS", "the invoices contact lacks Phone (a new property needs the contact person's "
                                "given name, surname, e-mail and phone)"),
    ("no coordinates", NL, [('<Position Latitude="52.3702" Longitude="4.8952"/>', "")], "MISSING_POSITION",
     "a new property needs HotelInfo/Position@Latitude and @Longitude"),
    ("no check-in", NL, [(' CheckInTime="14:00-22:00"', "")], "MISSING_CHECK_IN_OUT",
     "a new property needs Policies/Policy/PolicyInfo@CheckInTime"),
    ("no check-out", NL, [(' CheckOutTime="11:00"', "")], "MISSING_CHECK_IN_OUT",
     "a new property needs Policies/Policy/PolicyInfo@CheckOutTime"),
    ("no sellable units", NL, [('<GuestRoomInfo Quantity="12"/>', "")], "MISSING_SELLABLE_UNITS",
     "a new property needs the number of sellable units: HotelInfo/CategoryCodes/GuestRoomInfo@Quantity"),
    ("no property class", NL, [('<HotelCategory Code="20"/>', "")], "MISSING_PROPERTY_CLASS",
     "a new property needs its property class type code: HotelInfo/CategoryCodes/HotelCategory@Code"),
    ("no language", NL, [('<Languages><Language LanguageCode="en"/><Language LanguageCode="nl"/></Languages>', "")],
     "MISSING_LANGUAGE", "a new property needs at least one HotelInfo/Languages/Language@LanguageCode"),
    ("HotelCode on New", NL, [('ID="NL-1"', 'ID="NL-1" HotelCode="1000001"')], "HOTEL_CODE_ON_NEW",
     "HotelDescriptiveContentNotifType New creates a property, but HotelCode 1000001 names an existing one; send "
     "Overlay to update it"),
    # name rules
    ("name of 2", NL, [("Hotel Canal View", "Ho")], "NAME_LENGTH",
     "the property name has 2 characters; it must have 3 to 255"),
    ("name of 256", NL, [("Hotel Canal View", "H" + "o" * 255)], "NAME_LENGTH",
     "the property name has 256 characters; it must have 3 to 255"),
    ("phone number in the name", NL, [("Hotel Canal View", "Hotel 020123456")], "NAME_DIGITS",
     "the property name has more than five digits in a row (it looks like a phone number); remove the number"),
    ("symbol not allowed", NL, [("Hotel Canal View", "Hotel @ Canal; View")], "NAME_CHARACTERS",
     "the property name has characters not allowed: `;` `@`; use letters, digits, spaces and ! # & ` ' \" - , only"),
    ("all upper case", NL, [("Hotel Canal View", "HOTEL CANAL VIEW")], "NAME_ALL_UPPERCASE",
     "the property name is all upper case; write it in mixed case (e.g. `Hotel Aurora`)"),
    # addresses, coordinates, phones
    ("address line of 256", NL, [("Prinsengracht 263", LONG_LINE)], "ADDRESS_LINE_TOO_LONG",
     "the address line has 256 characters; at most 255"),
    ("three-letter country", NL, [("<CountryName>NL</CountryName>", "<CountryName>NLD</CountryName>")],
     "INVALID_COUNTRY", "CountryName `NLD` is not a two-letter ISO 3166-1 country code (e.g. `NL`, `BR`)"),
    ("state code of another country", NL, [('StateCode="NL-NH"', 'StateCode="BE-VAN"')], "INVALID_STATE_CODE",
     "StateProv@StateCode `BE-VAN` is not an ISO 3166-2 subdivision of NL"),
    ("postcode not Dutch", NL, [("1016 GV", "10115")], "POSTCODE_COUNTRY",
     "the postcode `10115` does not match the format of NL (e.g. `1234 AB`)"),
    ("postcode not Brazilian", BR, [("01310-200", "1016 GV")], "POSTCODE_COUNTRY",
     "the postcode `1016 GV` does not match the format of BR (e.g. `40301-110`)"),
    ("coordinates in Germany", NL, [('Latitude="52.3702" Longitude="4.8952"', 'Latitude="52.52" Longitude="13.405"')],
     "COORDINATES_COUNTRY", "the country of the coordinates (52.52, 13.405), Germany (DE), differs from the property "
                            "country Netherlands (NL); fix the latitude/longitude or Address > CountryName"),
    ("coordinates in Brazil, address in Portugal", BR,
     [("<CountryName>BR</CountryName>", "<CountryName>PT</CountryName>"), ('StateCode="BR-SP"', 'StateCode="PT-11"'),
      ("01310-200", "1100-148")],
     "COORDINATES_COUNTRY", "the country of the coordinates (-23.5614, -46.6559), Brazil (BR), differs from the "
                            "property country Portugal (PT); fix the latitude/longitude or Address > CountryName"),
    ("latitude out of range", NL, [('Latitude="52.3702"', 'Latitude="95"')], "INVALID_COORDINATES",
     "Position@Latitude must be a number in -90..90 and @Longitude in -180..180"),
    ("phone with spaces", NL, [("+31201234567", "+31 20 123 4567")], "INVALID_PHONE",
     "the phone number `+31 20 123 4567` is not in the format +[0-9]+ (a plus, then digits only: no spaces, dashes "
     "or brackets)"),
    ("phone without plus", NL, [("+31201234567", "0201234567")], "INVALID_PHONE",
     "the phone number `0201234567` is not in the format +[0-9]+ (a plus, then digits only: no spaces, dashes "
     "or brackets)"),
    ("phone too short for its plan", NL, [("+31201234567", "+3120")], "INVALID_PHONE",
     "the phone number `+3120` is not a valid number in the numbering plan of +31 (NL)"),
    ("extension on a mobile", NL, [('PhoneTechType="1" Extension="12"', 'PhoneTechType="5" Extension="12"')],
     "EXTENSION_NOT_ALLOWED", "Phone@Extension is allowed only with PhoneTechType 1 (voice), not `5`"),
    ("extension without tech type", NL, [('PhoneTechType="1" Extension="12"', 'Extension="12"')],
     "EXTENSION_NOT_ALLOWED", "Phone@Extension is allowed only with PhoneTechType 1 (voice), not `(none)`"),
    ("unknown profile type", NL, [('"invoices"', '"billing"')], "INVALID_VALUE",
     "ContactProfileType `billing` is not one of: general, contract, reservations, invoices, availability, "
     "site_content, parity, requests, central_reservations, PhysicalLocation"),
    # stars
    ("six stars", NL, [('Rating="4"', 'Rating="6"')], "INVALID_STAR_RATING",
     "Award Rating `6` must be a whole number 0..5"),
    ("stars on an apartment", NL, [('<HotelCategory Code="20"/>', '<HotelCategory Code="3"/>')], "STARS_NOT_HOTEL",
     "a star rating is only for a property of the hotel class, not property class 3"),
    # Brazil
    ("Brazil without InvoiceDetails", BR, [("<InvoiceDetails>", "<Ignored>"), ("</InvoiceDetails>", "</Ignored>")],
     "MISSING_INVOICE_DETAILS", "a Brazilian property needs HotelInfo/TPA_Extensions/InvoiceDetails (tax type and "
                                "number, invoice e-mail, city hall id)"),
    ("CNPJ check digits", BR, [("11222333000181", "11222333000182")], "INVALID_TAX_NUMBER",
     "the CNPJ `11222333000182` has wrong check digits"),
    ("CNPJ of 13 digits", BR, [("11222333000181", "1122233300018")], "INVALID_TAX_NUMBER",
     "a CNPJ has 14 digits (no punctuation); `1122233300018` is not that"),
    ("CNPJ with punctuation", BR, [("11222333000181", "11.222.333/0001-81")], "INVALID_TAX_NUMBER",
     "a CNPJ has 14 digits (no punctuation); `11.222.333/0001-81` is not that"),
    ("CPF check digits", BR, [CPF, ("52998224725", "52998224726"), ("<CityHallInfo", '<BirthDate Date="1980-01-01"/><CityHallInfo')],
     "INVALID_TAX_NUMBER", "the CPF `52998224726` has wrong check digits"),
    ("CPF of repeated digits", BR, [CPF, ("52998224725", "11111111111"), ("<CityHallInfo", '<BirthDate Date="1980-01-01"/><CityHallInfo')],
     "INVALID_TAX_NUMBER", "the CPF `11111111111` has wrong check digits"),
    ("CPF without birth date", BR, [CPF], "MISSING_BIRTH_DATE", "a CPF (individual) needs BirthDate@Date (YYYY-MM-DD)"),
    ("birth date not ISO", BR, [CPF, ("<CityHallInfo", '<BirthDate Date="01/02/1980"/><CityHallInfo')], "INVALID_VALUE",
     "BirthDate@Date `01/02/1980` is not a date written YYYY-MM-DD"),
    ("city hall id of 7", BR, [('Id="12345678"', 'Id="1234567"')], "INVALID_CITY_HALL_ID",
     "CityHallInfo@Id `1234567` must be 8 digits"),
    ("tax type unknown", BR, [('Type="CNPJ"', 'Type="RG"')], "INVALID_VALUE",
     "Type `RG` is not one of: CNPJ, CPF"),
    # PropertyTaxInfo
    ("tax answer missing", NL, [(' PropertyHasVat="0"', "")], "MISSING_TAX_ANSWER",
     "PropertyTaxInfo@PropertyHasVat is required: 1 or 0"),
    ("tax answer not 0/1", NL, [('PropertyDeclaresRevenue="0"', 'PropertyDeclaresRevenue="yes"')],
     "MISSING_TAX_ANSWER", "PropertyTaxInfo@PropertyDeclaresRevenue is required: 1 or 0 (not `yes`)"),
    ("category with an answer 1", NL, [('PropertyHasVat="0"', 'PropertyHasVat="1"')], "TAX_CATEGORY_NOT_ALLOWED",
     "PropertyTaxCategory must not be sent when an answer is 1 (PropertyHasVat)"),
    ("category of another city", NL, [('PropertyTaxCategory="10"', 'PropertyTaxCategory="1"')],
     "UNKNOWN_TAX_CATEGORY", "PropertyTaxCategory 1 is not a city tax category of Amsterdam (NL); listed there: "
                             "10 Toeristenbelasting, hotel, 11 Toeristenbelasting, holiday rental "
                             "(see /xml/citytaxcategory)"),
    ("category where none is listed", BR, [("São Paulo", "Campinas")], "UNKNOWN_TAX_CATEGORY",
     "PropertyTaxCategory 1 is not a city tax category of Campinas (BR); listed there: none "
     "(see /xml/citytaxcategory)"),
    # taxes and fees
    ("tax with amount and percent", NL, [('Code="35" Amount="3.5"', 'Code="35" Amount="3.5" Percent="2"')],
     "AMOUNT_AND_PERCENT", "TaxPolicy has both Amount and Percent; send Percent only when there is no Amount"),
    ("fee with amount and percent", NL, [('Code="5035" Amount="5"', 'Code="5035" Amount="5" Percent="1"')],
     "AMOUNT_AND_PERCENT", "FeePolicy has both Amount and Percent; send Percent only when there is no Amount"),
    ("VAT as an amount", NL, [('Code="36" Percent="9"', 'Code="36" Amount="9"')], "VAT_PERCENT_REQUIRED",
     "TaxPolicy Code 36 (VAT) needs Percent"),
    ("Conditional on internet", NL, [('Code="5035" Amount="5" Type="Exclusive"', 'Code="5035" Amount="5" Type="Conditional"')],
     "CONDITIONAL_NOT_CLEANING", "FeePolicy Type Conditional is allowed only with Code 5009 (cleaning fee), not 5035"),
    ("cleaning fee without condition", NL, [('<Conditions><Condition Type="guest_smokes"/></Conditions>', "")],
     "CLEANING_FEE_CONDITION", "a cleaning fee (Code 5009) needs TPA_Extensions/Conditions/Condition@Type "
                               "(guest_brings_pet, guest_doesnt_clean_before_checkout, guest_smokes)"),
    ("condition unknown", NL, [('Condition Type="guest_smokes"', 'Condition Type="guest_parties"')], "INVALID_VALUE",
     "Type `guest_parties` is not one of: guest_brings_pet, guest_doesnt_clean_before_checkout, guest_smokes"),
    ("internet policy on another fee", NL, [('FeePolicy Code="5035"', 'FeePolicy Code="5036"')],
     "INTERNET_POLICY_NOT_ALLOWED", "InternetFeePolicy is allowed only on a fee with Code 5035 (internet), not 5036"),
    ("age above 255", NL, [('MinAge="13" MaxAge="17"', 'MinAge="13" MaxAge="256"')], "INVALID_AGE",
     "FeePolicy@MaxAge `256` must be a whole number 0..255"),
    ("ages on another fee", NL, [('Code="37" Amount="10"', 'Code="40" Amount="10"')], "AGES_NOT_ALLOWED",
     "MinAge/MaxAge are allowed only on fees with Code 37, 38 or 44, not 40"),
    ("one age range twice", NL, [('MinAge="13" MaxAge="17"', 'MinAge="0" MaxAge="12"')], "DUPLICATE_AGE_RANGE",
     "the age range 0..12 of fee 37 is given twice; send one FeePolicy per age range"),
    # the other TPA_Extensions and policies
    ("201 floors", NL, [('Number="6"', 'Number="201"')], "TOO_MANY_FLOORS", "Number `201` must be a whole number 0..200"),
    ("grace of 2 hours", NL, [('HoursAfterBooking="24"', 'HoursAfterBooking="2"')], "INVALID_GRACE_PERIOD",
     "HoursAfterBooking `2` must be 0, 1, 4 or 24"),
    ("grace of 3 weeks", NL, [('WeeksBeforeCheckIn="4"', 'WeeksBeforeCheckIn="3"')], "INVALID_GRACE_PERIOD",
     "WeeksBeforeCheckIn `3` must be 0, 4, 8 or 12"),
    ("long stay of 30", NL, [('MaxLengthOfStay="60"', 'MaxLengthOfStay="30"')], "INVALID_LONG_STAY",
     "MaxLengthOfStay `30` must be 45, 60, 75 or 90"),
    ("minimum age 17", NL, [('AgeRestrictionMin="18"', 'AgeRestrictionMin="17"')], "INVALID_AGE_RESTRICTION",
     "AgeRestrictionMin `17` must be a whole number 18..99"),
    ("maximum age 100", NL, [('AgeRestrictionMax="99"', 'AgeRestrictionMax="100"')], "INVALID_AGE_RESTRICTION",
     "AgeRestrictionMax `100` must be a whole number 18..99"),
    ("ages reversed", NL, [('AgeRestrictionMin="18" AgeRestrictionMax="99"', 'AgeRestrictionMin="40" AgeRestrictionMax="30"')],
     "INVALID_AGE_RESTRICTION", "AgeRestrictionMin 40 is above AgeRestrictionMax 30"),
    ("curfew at 25:00", NL, [('CurfewStart="23:00"', 'CurfewStart="25:00"')], "INVALID_TIME",
     "GuestInformation@CurfewStart `25:00` is not HH:MM"),
    ("check-in at 2pm", NL, [('CheckInTime="14:00-22:00"', 'CheckInTime="2pm"')], "INVALID_TIME",
     "PolicyInfo@CheckInTime `2pm` is not HH:MM or HH:MM-HH:MM"),
    ("pets allowed without policy", NL, [('<PetsPolicy NonRefundableFee="free"/>', "")], "PETS_POLICY_REQUIRED",
     "PetsAllowedCode `Pets Allowed` needs a PetsPolicy (NonRefundableFee `free` or `charges_may_apply`)"),
    ("no-show penalty missing", NL, [('<TPA_Extensions><NoShowPolicy Penalty="default"/></TPA_Extensions>', "")],
     "MISSING_NO_SHOW_POLICY", "CancelPenalty needs TPA_Extensions/NoShowPolicy@Penalty (`total_price` or `default`)"),
    ("priced service without price", NL, [(' Price="15" CurrencyCode="EUR"', "")], "SERVICE_PRICE_REQUIRED",
     "Service 173 needs Price (a whole number) and CurrencyCode"),
    ("priced service in another currency", NL, [('Price="15" CurrencyCode="EUR"', 'Price="15" CurrencyCode="USD"')],
     "SERVICE_CURRENCY", "Service 173 is priced in USD; use the property's currency EUR"),
    ("currency unknown", NL, [('CurrencyCode="EUR" Target', 'CurrencyCode="EUX" Target')], "UNKNOWN_CURRENCY",
     "CurrencyCode `EUX` is not a currency the platform knows (see /xml/currencies)"),
    ("schedule of a dinner restaurant", NL, [('OfferBreakfast="1"', 'OfferDinner="1"')], "SCHEDULE_BREAKFAST_ONLY",
     "opening times (OperationSchedules) are taken for breakfast only: set OfferBreakfast=1 or leave the schedule out"),
    ("restaurant feature unknown", NL, [('DescriptiveText="buffet"', 'DescriptiveText="self service"')],
     "INVALID_VALUE", "DescriptiveText `self service` is not one of: a la carte, buffet, guests only, "
                      "accepts reservations, outdoor seating"),
    ("distance in yards", NL, [('DistanceUnit="kilometers"', 'DistanceUnit="yards"')], "INVALID_VALUE",
     "DistanceUnit `yards` is not one of: meters, kilometers, feet, miles"),
    ("attraction without distance", NL, [(' Distance="1.2"', "")], "MISSING_ATTRIBUTE", "Attraction needs Distance"),
    ("line name on a taxi", NL, [('<TransportType Code="3"/>', '<TransportType Code="7"/>')], "ROUTE_FIELD_NOT_ALLOWED",
     "Line@Name is allowed only with TransportType 3, 10, 18, 22, 5001, not 7"),
    ("target missing", NL, [(' Target="Test"', "")], "MISSING_TARGET",
     "HotelDescriptiveContent@Target is required: `Test` or `Production`"),
    ("language missing", NL, [(' LanguageCode="en" CurrencyCode', " CurrencyCode")], "MISSING_LANGUAGE_CODE",
     "HotelDescriptiveContent@LanguageCode is required (the language of the extranet content and communication, "
     "e.g. `en`)"),
    ("pricing type unknown", NL, [('PricingType Value="Standard"', 'PricingType Value="Dynamic"')], "INVALID_VALUE",
     "Value `Dynamic` is not one of: Standard, OBP, LOS"),
]
for _phrase, _options in (("KeyCollection", "KeyCollectionAddressLine, KeyCollectionCityName, KeyCollectionPostalCode"),
                          ("Renovation", "RenovationFrom, RenovationUntil"),
                          ("HotelChainBedLinen", "HotelChainBedLinenAmount"),
                          ("SecurityDeposit", "SecurityDepositAmount, SecurityDepositCollectMethod, "
                                              "SecurityDepositCollectWhen, SecurityDepositCollectNumDays, "
                                              "SecurityDepositReturnMethod, SecurityDepositReturnWhen")):
    BAD.append((f"phrase {_phrase} without options", NL,
                [('<StandardPhrase Name="KeyCollection" Enabled="1"><Options><Option Name="KeyCollectionAddressLine">'
                  "Prinsengracht 1</Option></Options></StandardPhrase>",
                  f'<StandardPhrase Name="{_phrase}" Enabled="1"/>')],
                "MISSING_PHRASE_OPTION", f"the standard phrase {_phrase} needs Options/Option@Name ({_options})"))


@pytest.mark.parametrize(("base", "changes", "code", "text"), [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_each_rule_is_an_error_with_its_message_and_nothing_is_stored(sb, base, changes, code, text):
    before = properties(sb)
    r = send(sb, edit(base, *changes))
    found = errors(r)
    assert (code, text) in found, found
    root = etree.fromstring(r.content)
    assert root.find("o:Success", NS) is None and root.find("o:UniqueID", NS) is None
    assert properties(sb) == before


def test_error_details_name_the_property_and_the_element(sb):
    r = send(sb, edit(NL, ('PhoneNumber="+31201234568"', 'PhoneNumber="+31-20"')))
    (error,) = etree.fromstring(r.content).iterfind("o:Errors/o:Error", NS)
    assert error.get("Details") == "property=NL-1; path=ContactInfos/ContactInfo[3]/Phones/Phone; value=+31-20"
    assert error.get("Type") == "3" and error.get("Status") == "NotProcessed"


def test_many_problems_come_back_together(sb):
    r = send(sb, edit(NL, ("Hotel Canal View", "HOTEL 1234567"), ('Number="6"', 'Number="300"'),
                      ('<CompanyName Code="4321"/>', "<CompanyName/>")))
    assert {c for c, _ in errors(r)} == {"NAME_DIGITS", "NAME_ALL_UPPERCASE", "TOO_MANY_FLOORS", "MISSING_LEGAL_ENTITY"}


GOOD_NAMES = ["Hotel Canal View 12345", "Hôtel d'Amsterdam & Spa #1 - \"Canal\", `View`!", "B&B de Gouden Leeuw",
              "Ξενοδοχείο Ακρόπολη", "ホテル東京", "Inn 24"]


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_names_within_the_rules_pass_them(name):
    assert name_problems(name) == []


def test_a_name_in_another_script_is_fine_on_overlay_but_not_on_new(sb):
    overlay = edit(NL, ('HotelDescriptiveContentNotifType="New" ID="NL-1"', 'HotelDescriptiveContentNotifType="Overlay" '
                                                                           'HotelCode="1000001"'),
                   ("Hotel Canal View", "Ξενοδοχείο Κανάλι"))
    assert errors(send(sb, overlay)) == []
    new = edit(NL, ("Hotel Canal View", "Ξενοδοχείο Κανάλι"), ('ID="NL-1"', 'ID="NL-greek"'))
    assert [c for c, _ in errors(send(sb, new))] == ["NAME_NOT_LATIN"]


def test_overlay_needs_none_of_the_minimum(sb):
    overlay = """<OTA_HotelDescriptiveContentNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.0">
      <HotelDescriptiveContents><HotelDescriptiveContent HotelDescriptiveContentNotifType="Overlay" HotelCode="1000004"
        LanguageCode="pt" Target="Test"><TPA_Extensions><TotalNumberOfFloors Number="3"/></TPA_Extensions>
      </HotelDescriptiveContent></HotelDescriptiveContents></OTA_HotelDescriptiveContentNotifRQ>"""
    r = send(sb, overlay)
    assert parse_response(r.content).success
    assert etree.fromstring(r.content).find("o:UniqueID", NS).get("ID") == "1000004"


def test_warnings_pricing_type_and_default_policy(sb):
    body = edit(NL, ('ID="NL-1"', 'ID="NL-obp"'), ('PricingType Value="Standard"', 'PricingType Value="OBP"'),
                ('<CancelPolicy><CancelPenalty PolicyCode="1"><TPA_Extensions><NoShowPolicy Penalty="default"/>'
                 "</TPA_Extensions></CancelPenalty></CancelPolicy>", ""))
    r = send(sb, body)
    codes = [w.get("Code") for w in etree.fromstring(r.content).iterfind("o:Warnings/o:Warning", NS)]
    assert codes == ["DEPRECATED_OPERATION", "DEFAULT_POLICY_APPLIED", "PRICING_TYPE_CERTIFICATION"]


# --- names from the rules' grammar ------------------------------------------------------------------
_LOWER = st.sampled_from("abcdefghijklmnopqrstuvwxyzéèüöçñøåßαβγδжзий")
_OTHER = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZÉÜÖΑΒЖЗ日本東京ホテル")
_SYMBOL = st.sampled_from(list("!#&`'\"-, "))
_DIGITS = st.integers(1, 5).flatmap(lambda n: st.text("0123456789", min_size=n, max_size=n))
_TOKEN = st.one_of(_OTHER, _SYMBOL, _DIGITS, st.text(_LOWER, min_size=1, max_size=8))


@st.composite
def names(draw) -> str:
    """A name the rules take: one lower-case letter at least (so not all upper case), runs of at most
    five digits (a letter between digit tokens), only allowed symbols, 3..255 characters."""
    tokens = [draw(st.text(_LOWER, min_size=1, max_size=6))]
    for token in draw(st.lists(_TOKEN, max_size=30)):
        if token.isdigit() and tokens[-1][-1:].isdigit():
            tokens.append("a")
        tokens.append(token)
    name = "".join(tokens)
    name = (name + "inn")[:255] if len(name) < 3 else name[:255]
    return name


@settings(max_examples=200, deadline=None)
@given(name=names())
def test_names_from_the_grammar_are_accepted(name):
    assert name_problems(name) == []


@settings(max_examples=200, deadline=None)
@given(name=names(), where=st.integers(0, 255), bad=st.sampled_from(list("@;:/\\()[]{}<>*+=?%$€_|~^")))
def test_one_character_not_allowed_is_refused(name, where, bad):
    i = where % (len(name) + 1)
    assert "NAME_CHARACTERS" in [code for code, _ in name_problems((name[:i] + bad + name[i:])[:255])]


@settings(max_examples=100, deadline=None)
@given(name=names(), digits=st.text("0123456789", min_size=6, max_size=12))
def test_six_digits_in_a_row_are_refused(name, digits):
    assert "NAME_DIGITS" in [code for code, _ in name_problems((name + " " + digits)[-255:])]


@settings(max_examples=100, deadline=None)
@given(name=names())
def test_the_name_in_upper_case_is_refused(name):
    assert "NAME_ALL_UPPERCASE" in [code for code, _ in name_problems(name.upper())]


def test_a_request_without_the_ota_namespace_is_read_the_same(sb):
    body = edit(NL, (' xmlns="http://www.opentravel.org/OTA/2003/05"', ""), ('ID="NL-1"', 'ID="NL-no-ns"'))
    r = send(sb, body)
    assert errors(r) == [] and etree.fromstring(r.content).find("o:UniqueID", NS) is not None
