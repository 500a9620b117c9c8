"""Every content rule (spec E4): one bad input per rule on the clean base property, the exact issue
(sheet, Excel row, the analyst's column header, severity, message) it gives."""

from __future__ import annotations

import copy

import pandas as pd
import pytest

from expectations import ContentLookups, validate_content
from expectations.content_frames import Checker

from .conftest import BASE, LOOKUPS, N1, TODAY, frames


def P(**kv):
    return lambda s: s["Property"][0].update(kv)


def C(i, **kv):
    return lambda s: s["Contacts"][i].update(kv)


def add(part, **kv):
    return lambda s: s.setdefault(part, []).append({**N1, **kv})


def drop(part, i=None):
    def f(s):
        if i is None:
            s[part] = []
        else:
            del s[part][i]
    return f


def both(*fs):
    def f(s):
        for g in fs:
            g(s)
    return f


def existing(s):
    for rows in s.values():
        for r in rows:
            r["hotel_code"], r["custom_id"] = 5, None


def brazil(s):
    s["Contacts"][0].update(address_line="Alameda Santos 1437", city="São Paulo", postcode="01419-002", country="BR")
    s["Property"][0].update(latitude=-23.5614, longitude=-46.6559, currency_code="BRL")
    s["Invoice"] = [{**N1, "tax_type": "CNPJ", "tax_number": "11222333000181", "invoice_email": "nf@inn.example",
                     "city_hall_id": "12345678"}]


def INV(**kv):
    return both(brazil, lambda s: s["Invoice"][0].update(kv))


CASES = [
    ("name_required", P(hotel_name=None)),
    ("name_length", P(hotel_name="Ab")),
    ("name_digits", P(hotel_name="Inn 1234567")),
    ("name_characters", P(hotel_name="Inn @ Sea.")),
    ("name_all_caps", P(hotel_name="SEA VIEW INN")),
    ("name_not_latin", P(hotel_name="Гостиница Море")),
    ("address_not_latin", C(0, address_line="Улица Морская 5")),
    ("duplicate_property", lambda s: s["Property"].append(dict(s["Property"][0]))),
    ("notif_type_value", P(notif_type="Create")),
    ("overlay_needs_hotel_code", P(notif_type="Overlay")),
    ("new_with_hotel_code", both(existing, P(notif_type="New"))),
    ("target_required", P(target=None)),
    ("target_value", P(target="Live")),
    ("language_code_required", P(language_code=None)),
    ("language_code_value", P(language_code="english")),
    ("currency_code_value", P(currency_code="EURO")),
    ("currency_not_listed", P(currency_code="USD")),
    ("create_minimum", P(legal_entity_id=None)),
    ("legal_entity_only_new", existing),
    ("sellable_units_value", P(sellable_units=0)),
    ("exists_code_value", P(exists_code=3)),
    ("language_required", drop("Languages")),
    ("time_format", P(check_in_time="2pm")),
    ("floors_max", P(total_floors=250)),
    ("grace_hours_value", P(grace_hours=2)),
    ("grace_weeks_value", P(grace_weeks=3)),
    ("long_stay_value", P(max_length_of_stay=30)),
    ("age_restriction_range", P(has_age_restriction=1, age_restriction_min=17)),
    ("age_restriction_order", P(has_age_restriction=1, age_restriction_min=50, age_restriction_max=30)),
    ("age_restriction_ignored", P(age_restriction_min=21)),
    ("curfew_time_format", P(has_curfew=1, curfew_start="11pm", curfew_end="06:00")),
    ("curfew_times_required", P(has_curfew=1, curfew_start="23:00")),
    ("curfew_ignored", P(curfew_start="23:00", curfew_end="06:00")),
    ("star_rating_range", P(star_rating=6)),
    ("stars_only_hotels", P(property_class_code=16, star_rating=3)),
    ("booking_model_value", P(booking_model="Instant")),
    ("rtb_new_only", both(existing, P(booking_model="RTB"))),
    ("rtb_not_enabled", P(booking_model="RTB")),
    ("pricing_type_value", P(pricing_type="Daily")),
    ("pricing_type_certification", P(pricing_type="LOS")),
    ("overwrite_future_fees_value", P(overwrite_future_fees=2)),
    ("empty_parts_value", P(empty_parts=["Rooms"])),
    ("empty_part_has_rows", P(empty_parts=["Languages"])),
    ("policy_152_applied", drop("Policies")),
    ("profile_required", drop("Contacts", 2)),
    ("profile_required_to_open", both(existing, drop("Contacts", 2))),
    ("physical_location_required", C(0, postcode=None)),
    ("address_hotel_name_required", C(0, address_hotel_name=None)),
    ("address_language_required", C(0, address_language=None)),
    ("contact_person_required", C(1, surname=None)),
    ("profile_type_required", add("Contacts", email="x@inn.example")),
    ("profile_type_value", C(1, profile_type="billing")),
    ("gender_value", C(1, gender="M")),
    ("email_format", C(1, email="ana.inn.example")),
    ("phone_format", C(1, phone="+351 21 342 0000")),
    ("phone_number_plan", C(1, phone="+35121342")),
    ("phone_tech_type_value", C(1, phone_tech_type=2)),
    ("phone_extension", C(2, phone_extension="12")),
    ("phone_required", add("Contacts", profile_type="reservations", phone_tech_type=1)),
    ("country_code_value", C(0, country="Portugal")),
    ("country_not_listed", C(0, country="FR")),
    ("address_incomplete", C(0, city=None)),
    ("address_line_length", C(0, address_line="Rua " + "a" * 252)),
    ("state_code_value", C(0, state_code="PT-99")),
    ("postcode_country", C(0, postcode="11001")),
    ("coordinates_required", P(latitude=None)),
    ("coordinates_range", P(latitude=95.0)),
    ("coordinates_country", P(latitude=42.2406, longitude=-8.7207)),
    ("no_show_value", lambda s: s["Policies"][0].update(no_show_penalty="all")),
    ("no_show_required", lambda s: s["Policies"][0].update(no_show_penalty=None)),
    ("cancel_policy_required", lambda s: s["Policies"][0].update(cancel_policy_code=None)),
    ("prepayment_value", add("Policies", guarantee_policy_code=1, prepayment_effective_from="now")),
    ("guarantee_policy_required", add("Policies", prepayment_effective_from="after_reservation_is_made")),
    ("pets_allowed_value", add("Policies", pets_allowed="Yes")),
    ("pets_fee_value", add("Policies", pets_allowed="Pets Allowed", pets_non_refundable_fee="paid")),
    ("pets_policy_required", add("Policies", pets_allowed="Pets Allowed")),
    ("guest_type_value", add("Policies", accepted_guest_type="Adults")),
    ("policy_number_value", add("Policies", total_guest_count=-1)),
    ("age_max", add("Policies", min_guest_age=300)),
    ("policy_conflict", both(add("Policies", accepted_guest_type="AdultOnly"),
                             add("Policies", accepted_guest_type="ChildrenAllowed"))),
    ("tax_code_required", add("Taxes", percent=6.0)),
    ("tax_amount_or_percent", add("Taxes", code=13, amount=4.0, percent=6.0)),
    ("tax_amount_required", add("Taxes", code=13)),
    ("tax_negative", add("Taxes", code=13, amount=-4.0)),
    ("tax_percent_max", add("Taxes", code=13, percent=120.0)),
    ("tax_charge_frequency_value", add("Taxes", code=13, amount=4.0, charge_frequency=0)),
    ("tax_vat_percent", add("Taxes", code=36, amount=4.0)),
    ("tax_type_value", add("Taxes", code=13, amount=4.0, type="Included")),
    ("fee_amount_or_percent", add("Fees", code=5035, amount=4.0, percent=6.0)),
    ("fee_type_value", add("Fees", code=5035, amount=4.0, type="Extra")),
    ("fee_conditional_cleaning_only", add("Fees", code=5035, amount=4.0, type="Conditional")),
    ("fee_condition_required", add("Fees", code=5009, amount=40.0, type="Conditional")),
    ("fee_condition_value", add("Fees", code=5009, amount=40.0, type="Conditional", conditions=["guest_parties"])),
    ("fee_internet_only_5035", add("Fees", code=13, amount=4.0, internet_type="wifi")),
    ("internet_type_value", add("Fees", code=5035, amount=4.0, internet_type="5g")),
    ("internet_coverage_value", add("Fees", code=5035, amount=4.0, internet_coverage="lobby")),
    ("parking_value", add("Fees", code=5040, amount=4.0, parking_type="garage")),
    ("fee_age_codes", add("Fees", code=13, amount=4.0, min_age=2)),
    ("fee_age_order", add("Fees", code=37, amount=4.0, min_age=12, max_age=2)),
    ("fee_age_range_duplicate", both(add("Fees", code=37, amount=4.0, min_age=2, max_age=12),
                                     add("Fees", code=37, amount=5.0, min_age=2, max_age=12))),
    ("service_code_required", add("Services", included="true")),
    ("service_exists_value", add("Services", code=5, exists_code=3)),
    ("service_included_value", add("Services", code=5, included="yes")),
    ("service_price_required", add("Services", code=6000, currency_code="EUR")),
    ("service_price_value", add("Services", code=6000, price=-1, currency_code="EUR")),
    ("service_currency", add("Services", code=6000, price=10, currency_code="USD")),
    ("breakfast_items_only_breakfast", add("Services", code=5, breakfast_items=["5001"])),
    ("service_type_code", add("Services", code=173, price=10, currency_code="EUR", types=["continental"])),
    ("restaurant_feature_value", add("Restaurants", restaurant_name="Cais", features=["fancy"])),
    ("restaurant_ambiance_value", add("Restaurants", restaurant_name="Cais", ambiances=["loud"])),
    ("restaurant_dietary_value", add("Restaurants", restaurant_name="Cais", dietary_options=["paleo"])),
    ("restaurant_name_required", add("Restaurants", offer_dinner=1)),
    ("restaurant_time_format", add("Restaurants", restaurant_name="Cais", offer_breakfast=1, mon=1,
                                   open_start="7am", open_end="10:00")),
    ("restaurant_time_required", add("Restaurants", restaurant_name="Cais", offer_breakfast=1, mon=1,
                                     open_start="07:00")),
    ("restaurant_schedule_breakfast_only", add("Restaurants", restaurant_name="Cais", offer_dinner=1, mon=1,
                                               open_start="19:00", open_end="23:00")),
    ("attraction_required", add("Attractions", category_code=5, attraction_name="Castle")),
    ("attraction_distance_value", add("Attractions", category_code=5, attraction_name="Castle", distance=-1.0)),
    ("distance_unit_value", add("Attractions", category_code=5, attraction_name="Castle", distance=1.0,
                                distance_unit="km")),
    ("transport_type_required", add("Transport", journey_minutes=20)),
    ("journey_time_required", add("Transport", transport_type_code=1)),
    ("transport_name_not_allowed", add("Transport", transport_type_code=1, journey_minutes=20, line_name="7")),
    ("transport_start_value", add("Transport", transport_type_code=1, journey_minutes=20, start_type="airport",
                                  start_code="LISB")),
    ("transport_price_currency", add("Transport", transport_type_code=1, journey_minutes=20, price_amount=20.0)),
    ("award_provider_required", add("Awards", rating=4)),
    ("payment_type_required", add("Payments")),
    ("phrase_name_required", add("Phrases", enabled=1)),
    ("phrase_enabled_required", add("Phrases", phrase_name="Pets")),
    ("phrase_option_value", add("Phrases", phrase_name="KeyCollection", enabled=1, option_name="KeyBox",
                                option_value="x")),
    ("phrase_option_value_required", add("Phrases", phrase_name="Renovation", enabled=1,
                                         option_name="RenovationFrom")),
    ("phrase_options_required", add("Phrases", phrase_name="SecurityDeposit", enabled=1)),
    ("invoice_details_required", both(brazil, drop("Invoice"))),
    ("invoice_tax_type_required", INV(tax_type=None)),
    ("invoice_tax_type_value", INV(tax_type="CNP")),
    ("tax_number_required", INV(tax_number=None)),
    ("tax_number_length", INV(tax_number="1222333000181")),
    ("tax_number_check_digits", INV(tax_number="11222333000182")),
    ("city_hall_id_format", INV(city_hall_id="1234")),
    ("birth_date_required", INV(tax_type="CPF", tax_number="52998224725")),
    ("birth_date_value", INV(tax_type="CPF", tax_number="52998224725", birth_date=pd.Timestamp("2030-01-01"))),
    ("invoice_duplicate", both(brazil, lambda s: s["Invoice"].append(dict(s["Invoice"][0])))),
    ("tax_info_answers_required", P(tax_has_vat=0)),
    ("tax_category_not_allowed", P(tax_registered_in_vcs=0, tax_has_vat=1, tax_declares_revenue=0,
                                   tax_category=3)),
    ("tax_category_unknown", both(brazil, P(tax_registered_in_vcs=0, tax_has_vat=0, tax_declares_revenue=0,
                                            tax_category=9))),
]


EXPECTED = {
    'name_required': ('Property', 2, 'HotelName', 'error',
        'a new property needs its name (HotelName): fill it in'),
    'name_length': ('Property', 2, 'HotelName', 'error',
        'the name has 2 characters; it needs 3 to 255: write the full name'),
    'name_digits': ('Property', 2, 'HotelName', 'error',
        'the name holds 7 digits in a row (`1234567`); at most five are allowed (no phone numbers in names): remove them'),
    'name_characters': ('Property', 2, 'HotelName', 'error',
        'the name has characters the platform refuses: `.` `@`; only letters, digits, spaces and ! # & ` \' " - , are allowed: remove or replace them'),
    'name_all_caps': ('Property', 2, 'HotelName', 'error',
        'the name is all upper case: write it in normal case (e.g. `Sea View Inn`)'),
    'name_not_latin': ('Property', 2, 'HotelName', 'error',
        "a new property's name must be in Latin characters only; it has `Гостиница Море`: write it in Latin letters (the name in another script goes in the address's HotelName)"),
    'address_not_latin': ('Contacts', 2, 'AddressLine', 'error',
        "a new property's address line must be in Latin characters only; it has `Улица Морская`: write it in Latin letters"),
    'duplicate_property': ('Property', 3, 'ID', 'error',
        'the property is on the Property sheet more than once: keep one row per property'),
    'notif_type_value': ('Property', 2, 'HotelDescriptiveContentNotifType', 'error',
        'HotelDescriptiveContentNotifType is `New`, `Overlay` (blank: New without a HotelCode, Overlay with one)'),
    'overlay_needs_hotel_code': ('Property', 2, 'HotelDescriptiveContentNotifType', 'error',
        'an Overlay updates an existing property: give its HotelCode (or use New to create it)'),
    'new_with_hotel_code': ('Property', 2, 'HotelDescriptiveContentNotifType', 'warning',
        'New creates a property, and this row has a HotelCode (an existing property): use Overlay to update it, or clear HotelCode and give your ID'),
    'target_required': ('Property', 2, 'Target', 'error',
        'Target is required: `Test` or `Production`'),
    'target_value': ('Property', 2, 'Target', 'error',
        'Target is `Test` or `Production`'),
    'language_code_required': ('Property', 2, 'LanguageCode', 'error',
        'LanguageCode (the language for extranet content and communication) is required, e.g. `en`'),
    'language_code_value': ('Property', 2, 'LanguageCode', 'error',
        'this is not a language code: use an ISO 639-1 code such as `en`, `pt` or `pt-BR`'),
    'currency_code_value': ('Property', 2, 'CurrencyCode', 'error',
        'CurrencyCode is an ISO 4217 code such as `EUR` or `BRL`'),
    'currency_not_listed': ('Property', 2, 'CurrencyCode', 'error',
        'the platform does not list this currency (`/xml/currencies`): check it'),
    'create_minimum': ('Property', 2, 'LegalEntityID', 'error',
        'a new property needs its legal entity id (LegalEntityID, CompanyName@Code): fill it in'),
    'legal_entity_only_new': ('Property', 2, 'LegalEntityID', 'warning',
        'the legal entity id is taken only when a property is created: it is ignored on an existing property; remove it'),
    'sellable_units_value': ('Property', 2, 'SellableUnits', 'error',
        'the number of sellable units is at least 1'),
    'exists_code_value': ('Property', 2, 'ExistsCode', 'error',
        'HotelCategory@ExistsCode is 1 (default) or 0'),
    'language_required': ('Property', 2, 'ID', 'error',
        'a new property needs at least one language (HotelInfo/Languages): add a row on the Languages sheet'),
    'time_format': ('Property', 2, 'CheckInTime', 'error',
        'a check-in/out time is `HH:MM` or `HH:MM-HH:MM` (24-hour clock; `00:00-00:00` is 24 hours), e.g. `14:00` or `14:00-22:00`'),
    'floors_max': ('Property', 2, 'TotalNumberOfFloors', 'error',
        'TotalNumberOfFloors is 0 to 200 (underground floors excluded)'),
    'grace_hours_value': ('Property', 2, 'HoursAfterBooking', 'error',
        'CancellationGracePeriod@HoursAfterBooking is one of 0, 1, 4, 24'),
    'grace_weeks_value': ('Property', 2, 'WeeksBeforeCheckIn', 'error',
        'CancellationGracePeriod@WeeksBeforeCheckIn is one of 0, 4, 8, 12'),
    'long_stay_value': ('Property', 2, 'MaxLengthOfStay', 'error',
        'MaxLengthOfStay is one of 45, 60, 75, 90 (default 90)'),
    'age_restriction_range': ('Property', 2, 'AgeRestrictionMin', 'error',
        'age restrictions are 18 to 99'),
    'age_restriction_order': ('Property', 2, 'AgeRestrictionMin', 'error',
        'AgeRestrictionMin is above AgeRestrictionMax: swap them'),
    'age_restriction_ignored': ('Property', 2, 'HasAgeRestriction', 'warning',
        'age limits are given but HasAgeRestriction is not 1, so they have no effect: set HasAgeRestriction 1'),
    'curfew_time_format': ('Property', 2, 'CurfewStart', 'error',
        'curfew times are `HH:MM` (24-hour clock)'),
    'curfew_times_required': ('Property', 2, 'HasCurfew', 'error',
        'HasCurfew is 1: give CurfewStart and CurfewEnd (`HH:MM`)'),
    'curfew_ignored': ('Property', 2, 'HasCurfew', 'warning',
        'curfew times are given but HasCurfew is not 1, so they have no effect: set HasCurfew 1'),
    'star_rating_range': ('Property', 2, 'StarRating', 'error',
        'the star rating is 0 to 5'),
    'stars_only_hotels': ('Property', 2, 'StarRating', 'error',
        'stars are only for the hotel property class (HotelCategory 20): clear the star rating, or correct the property class'),
    'booking_model_value': ('Property', 2, 'BookingModel', 'error',
        'BookingModel is `IB` (instant booking, default) or `RTB` (request to book)'),
    'rtb_new_only': ('Property', 2, 'BookingModel', 'error',
        'request to book (RTB) can be enabled only for new properties: remove it, or leave the booking model as it is'),
    'rtb_not_enabled': ('Property', 2, 'BookingModel', 'error',
        'request to book (RTB) through content needs the provider setting `content_api_rtb_enabled`, which is off: ask the platform to enable it (then check with `--rtb-enabled`), or use IB'),
    'pricing_type_value': ('Property', 2, 'PricingType', 'error',
        'PricingType is `Standard`, `OBP`, `LOS`'),
    'pricing_type_certification': ('Property', 2, 'PricingType', 'warning',
        "OBP and LOS pricing need certification by the platform: make sure this provider is certified for it, or the property's prices will be refused"),
    'overwrite_future_fees_value': ('Property', 2, 'OverwriteFutureFees', 'error',
        'OverwriteFutureFees is 1 (default) or 0'),
    'empty_parts_value': ('Property', 2, 'EmptyParts', 'error',
        '`Rooms` is not a part that can be stated empty; the parts are `Contacts`, `Languages`, `Policies`, `Taxes`, `Fees`, `Services`, `Restaurants`, `Attractions`, `Transport`, `Payments`, `Invoice`, `Phrases`, `Awards`'),
    'empty_part_has_rows': ('Property', 2, 'EmptyParts', 'error',
        '`Languages` is stated empty for this property, but the Languages sheet has rows for it: remove one or the other'),
    'policy_152_applied': ('Property', 2, 'ID', 'warning',
        'no policy is given for this new property: the platform applies the fully flexible policy (PolicyCode=152); add a Policies row to choose another'),
    'profile_required': ('Property', 2, 'ID', 'error',
        'a new property needs the contacts `invoices` (profiles general, invoices and PhysicalLocation are required): add them on the Contacts sheet'),
    'profile_required_to_open': ('Property', 2, 'HotelCode', 'warning',
        'the Contacts sheet has no `invoices` contact for this property; the property cannot be opened without the general, invoices and PhysicalLocation profiles'),
    'physical_location_required': ('Contacts', 2, 'PostalCode', 'error',
        "a new property's PhysicalLocation needs PostalCode: fill it in"),
    'address_hotel_name_required': ('Contacts', 2, 'AddressHotelName', 'error',
        "the PhysicalLocation address needs its HotelName (the property's name as the address writes it (in the address's language); spec E4: required): fill it in on this row, the row the address is sent from"),
    'address_language_required': ('Contacts', 2, 'Language', 'error',
        "the PhysicalLocation address needs its Language (the address's language (a language code such as `en`); spec E4: required): fill it in on this row, the row the address is sent from"),
    'contact_person_required': ('Contacts', 3, 'SurName', 'error',
        "a new property's `general` contact needs a person with SurName: fill it in"),
    'profile_type_required': ('Contacts', 5, 'ContactProfileType', 'error',
        'ContactProfileType is required: one of `general`, `contract`, `reservations`, `invoices`, `availability`, `site_content`, `parity`, `requests`, `central_reservations`, `PhysicalLocation`'),
    'profile_type_value': ('Contacts', 3, 'ContactProfileType', 'error',
        '`ContactProfileType` is one of `general`, `contract`, `reservations`, `invoices`, `availability`, `site_content`, `parity`, `requests`, `central_reservations`, `PhysicalLocation`: correct it'),
    'gender_value': ('Contacts', 3, 'Gender', 'error',
        'Gender is `Male` or `Female` (leave it blank otherwise)'),
    'email_format': ('Contacts', 3, 'Email', 'error',
        'this is not an e-mail address (name@domain.tld, one per cell): correct it'),
    'phone_format': ('Contacts', 3, 'PhoneNumber', 'error',
        'a phone number is `+` then digits only, with the country code (no spaces, dots, dashes or leading 00): write it as +<country code><number> (e.g. `+351213420000`)'),
    'phone_number_plan': ('Contacts', 3, 'PhoneNumber', 'error',
        "this is not a valid number in PT's numbering plan (wrong length or prefix): check the number"),
    'phone_tech_type_value': ('Contacts', 3, 'PhoneTechType', 'error',
        'PhoneTechType is 1 (voice), 3 (fax) or 5 (mobile)'),
    'phone_extension': ('Contacts', 4, 'Extension', 'error',
        'an Extension is only allowed on a voice line (PhoneTechType 1): set PhoneTechType 1 or remove the extension'),
    'phone_required': ('Contacts', 5, 'PhoneNumber', 'error',
        'PhoneTechType or Extension is given without a PhoneNumber: add the number or clear them'),
    'country_code_value': ('Contacts', 2, 'CountryName', 'error',
        'CountryName is a two-letter ISO 3166-1 code such as `PT` or `BR`: replace the name or code'),
    'country_not_listed': ('Contacts', 2, 'CountryName', 'error',
        'the platform does not list this country (`/xml/countries`): check the code'),
    'address_incomplete': ('Contacts', 2, 'CityName', 'error',
        'an address needs CityName (AddressLine, CityName and CountryName are required): fill it in'),
    'address_line_length': ('Contacts', 2, 'AddressLine', 'error',
        'the address line has 256 characters; at most 255 are allowed: shorten it'),
    'state_code_value': ('Contacts', 2, 'StateCode', 'error',
        '`PT-99` is not an ISO 3166-2 subdivision of PT (e.g. `PT-01`): use the code from ISO 3166-2'),
    'postcode_country': ('Contacts', 2, 'PostalCode', 'error',
        "the postcode does not match PT's format (e.g. `2725-079` or `1250-096`): correct it, or the address's CountryName"),
    'coordinates_required': ('Property', 2, 'Latitude', 'error',
        'a new property needs its Latitude (HotelInfo/Position): fill it in'),
    'coordinates_range': ('Property', 2, 'Latitude', 'error',
        'Latitude is between -90 and 90: check the value (latitude and longitude swapped?)'),
    'coordinates_country': ('Property', 2, 'Latitude', 'error',
        "the coordinates (42.2406, -8.7207) lie in ES, not in PT, the address's country: the platform refuses this (the country differs from the property country); correct the coordinates or the CountryName"),
    'no_show_value': ('Policies', 2, 'NoShowPenalty', 'error',
        'NoShowPolicy@Penalty is `total_price`, `default`'),
    'no_show_required': ('Policies', 2, 'NoShowPenalty', 'error',
        'a cancellation policy needs its no-show penalty (`total_price` or `default`)'),
    'cancel_policy_required': ('Policies', 2, 'CancelPolicyCode', 'error',
        'a no-show penalty belongs to a cancellation policy: give its PolicyCode'),
    'prepayment_value': ('Policies', 3, 'EffectiveFrom', 'error',
        'PrepaymentPolicy@EffectiveFrom is `after_reservation_is_made`, `after_cancellation_fee_begins`'),
    'guarantee_policy_required': ('Policies', 3, 'GuaranteePolicyCode', 'error',
        'a prepayment belongs to a guarantee payment: give its PolicyCode'),
    'pets_allowed_value': ('Policies', 3, 'PetsAllowedCode', 'error',
        'PetsAllowedCode is `Pets Allowed`, `Pets Not Allowed`, `Pets By Arrangements`'),
    'pets_fee_value': ('Policies', 3, 'NonRefundableFee', 'error',
        'PetsPolicy@NonRefundableFee is `free`, `charges_may_apply`'),
    'pets_policy_required': ('Policies', 3, 'NonRefundableFee', 'error',
        'pets are allowed (or by arrangement): the PetsPolicy is required; give NonRefundableFee (`free` or `charges_may_apply`)'),
    'guest_type_value': ('Policies', 3, 'AcceptedGuestType', 'error',
        'AcceptedGuestType is `AdultOnly`, `ChildrenAllowed`'),
    'policy_number_value': ('Policies', 3, 'TotalGuestCount', 'error',
        'this cannot be negative'),
    'age_max': ('Policies', 3, 'MinGuestAge', 'error',
        'ages are at most 255'),
    'policy_conflict': ('Policies', 4, 'AcceptedGuestType', 'error',
        'an earlier row gives `AdultOnly` for this property: one value per property; keep one'),
    'tax_code_required': ('Taxes', 2, 'Code', 'error',
        'every tax needs its Code (type code)'),
    'tax_amount_or_percent': ('Taxes', 2, 'Percent', 'error',
        'a tax has an Amount or a Percent, not both (Percent only without Amount): clear one of them'),
    'tax_amount_required': ('Taxes', 2, 'Amount', 'error',
        'a tax needs an Amount or a Percent'),
    'tax_negative': ('Taxes', 2, 'Amount', 'error',
        'this cannot be negative'),
    'tax_percent_max': ('Taxes', 2, 'Percent', 'error',
        'a percentage is at most 100'),
    'tax_charge_frequency_value': ('Taxes', 2, 'ChargeFrequency', 'error',
        'ChargeFrequency is a charge type code (21: per person per night)'),
    'tax_vat_percent': ('Taxes', 2, 'Percent', 'error',
        'VAT (Code 36) needs its Percent: give the rate as a percentage'),
    'tax_type_value': ('Taxes', 2, 'Type', 'error',
        'a tax Type is `Inclusive`, `Exclusive`'),
    'fee_amount_or_percent': ('Fees', 2, 'Percent', 'error',
        'a fee has an Amount or a Percent, not both (Percent only without Amount): clear one of them'),
    'fee_type_value': ('Fees', 2, 'Type', 'error',
        'a fee Type is `Inclusive`, `Exclusive`, `Conditional`'),
    'fee_conditional_cleaning_only': ('Fees', 2, 'Type', 'error',
        'Type `Conditional` is only for the cleaning fee (Code 5009): use Inclusive or Exclusive'),
    'fee_condition_required': ('Fees', 2, 'Conditions', 'error',
        'a cleaning fee (Code 5009) needs its conditions: one or more of `guest_brings_pet`, `guest_doesnt_clean_before_checkout`, `guest_smokes`, separated by `;`'),
    'fee_condition_value': ('Fees', 2, 'Conditions', 'error',
        '`guest_parties` is not a condition; the conditions are `guest_brings_pet`, `guest_doesnt_clean_before_checkout`, `guest_smokes`'),
    'fee_internet_only_5035': ('Fees', 2, 'InternetType', 'error',
        'InternetType and InternetCoverage are only for the internet fee (Code 5035): clear them'),
    'internet_type_value': ('Fees', 2, 'InternetType', 'error',
        'InternetType is `wired`, `wifi`, `none`'),
    'internet_coverage_value': ('Fees', 2, 'InternetCoverage', 'error',
        'InternetCoverage is `entire_property`, `public_areas`, `all_rooms`, `some_rooms`, `business_centre`'),
    'parking_value': ('Fees', 2, 'ParkingType', 'error',
        'this is `on_site`, `location_nearby`, `none`'),
    'fee_age_codes': ('Fees', 2, 'MinAge', 'error',
        'MinAge and MaxAge are only for fee codes 37, 38, 44: clear them'),
    'fee_age_order': ('Fees', 2, 'MinAge', 'error',
        'MinAge is above MaxAge: swap them'),
    'fee_age_range_duplicate': ('Fees', 3, 'MinAge', 'error',
        'this fee is given twice for the same age range: one FeePolicy per age range; keep one row'),
    'service_code_required': ('Services', 2, 'Code', 'error',
        'every service needs its Code'),
    'service_exists_value': ('Services', 2, 'ExistsCode', 'error',
        "a service's ExistsCode is 1 (present, default) or 2 (missing)"),
    'service_included_value': ('Services', 2, 'Included', 'error',
        'Included is `true`, `false`, `unknown`'),
    'service_price_required': ('Services', 2, 'Price', 'error',
        'service 6000 needs its Price (required for codes 173, 6000 and 6001)'),
    'service_price_value': ('Services', 2, 'Price', 'error',
        'a price cannot be negative'),
    'service_currency': ('Services', 2, 'CurrencyCode', 'error',
        "a service is priced in the property's currency (EUR), not USD: use EUR"),
    'breakfast_items_only_breakfast': ('Services', 2, 'Items', 'error',
        'Items (breakfast types) are only for the breakfast service (Code 173): clear them'),
    'service_type_code': ('Services', 2, 'Types', 'error',
        'service Types are codes (whole numbers); `continental` is not'),
    'restaurant_feature_value': ('Restaurants', 2, 'Features', 'error',
        '`fancy` is not one of `a la carte`, `buffet`, `guests only`, `accepts reservations`, `outdoor seating`'),
    'restaurant_ambiance_value': ('Restaurants', 2, 'Ambiances', 'error',
        '`loud` is not one of `family/kids friendly`, `modern`, `romantic`, `traditional`'),
    'restaurant_dietary_value': ('Restaurants', 2, 'DietaryOptions', 'error',
        '`paleo` is not one of `dairy free`, `gluten free`, `halal`, `kosher`, `vegan`, `vegetarian`'),
    'restaurant_name_required': ('Restaurants', 2, 'RestaurantName', 'error',
        'a restaurant row needs its RestaurantName (rows with the same name form one restaurant)'),
    'restaurant_time_format': ('Restaurants', 2, 'Start', 'error',
        'opening times are `HH:MM` (24-hour clock)'),
    'restaurant_time_required': ('Restaurants', 2, 'Start', 'error',
        'an OperationTime needs both Start and End'),
    'restaurant_schedule_breakfast_only': ('Restaurants', 2, 'Start', 'error',
        'opening times are for breakfast only: set OfferBreakfast 1 for this restaurant, or remove the times'),
    'attraction_required': ('Attractions', 2, 'Distance', 'error',
        'an attraction needs its Distance (category, name and distance are required)'),
    'attraction_distance_value': ('Attractions', 2, 'Distance', 'error',
        'a distance cannot be negative'),
    'distance_unit_value': ('Attractions', 2, 'DistanceUnit', 'error',
        'DistanceUnit is `meters`, `kilometers`, `feet`, `miles` (default meters)'),
    'transport_type_required': ('Transport', 2, 'TransportType', 'error',
        'a route leg needs its TransportType code'),
    'journey_time_required': ('Transport', 2, 'JourneyTime', 'error',
        'a route leg needs its JourneyTime in minutes'),
    'transport_name_not_allowed': ('Transport', 2, 'Line', 'error',
        'a Line name is only for TransportType 3, 10, 18, 22, 5001: clear it'),
    'transport_start_value': ('Transport', 2, 'StartCode', 'error',
        'Start@Code is a three-letter airport code such as `LIS`'),
    'transport_price_currency': ('Transport', 2, 'PriceCurrencyCode', 'error',
        'a price needs its CurrencyCode'),
    'award_provider_required': ('Awards', 2, 'Provider', 'error',
        'an award needs its Provider'),
    'payment_type_required': ('Payments', 2, 'PaymentTypeCode', 'error',
        'an accepted payment needs its PaymentTypeCode'),
    'phrase_name_required': ('Phrases', 2, 'StandardPhrase', 'error',
        'a standard phrase needs its Name'),
    'phrase_enabled_required': ('Phrases', 2, 'Enabled', 'error',
        'a standard phrase needs Enabled (1 or 0)'),
    'phrase_option_value': ('Phrases', 2, 'OptionName', 'error',
        'this is not an option name; the options are `KeyCollectionAddressLine`, `KeyCollectionCityName`, `KeyCollectionPostalCode`, `RenovationFrom`, `RenovationUntil`, `SecurityDepositAmount`, `SecurityDepositCollectMethod`, `SecurityDepositCollectWhen`, `SecurityDepositCollectNumDays`, `SecurityDepositReturnMethod`, `SecurityDepositReturnWhen`, `HotelChainBedLinenAmount`'),
    'phrase_option_value_required': ('Phrases', 2, 'OptionValue', 'error',
        'an option needs its value (OptionValue)'),
    'phrase_options_required': ('Phrases', 2, 'StandardPhrase', 'error',
        'phrase `SecurityDeposit` needs its options (`SecurityDepositAmount`, `SecurityDepositCollectMethod`, `SecurityDepositCollectWhen`, `SecurityDepositCollectNumDays`, `SecurityDepositReturnMethod`, `SecurityDepositReturnWhen`): add one row per option with OptionName and OptionValue'),
    'invoice_details_required': ('Property', 2, 'ID', 'error',
        'a property in Brazil needs its invoice details (InvoiceDetails): add a row on the Invoice sheet with the CNPJ or CPF'),
    'invoice_tax_type_required': ('Invoice', 2, 'InvoiceTaxType', 'error',
        'InvoiceTaxType is `CNPJ` or `CPF`'),
    'invoice_tax_type_value': ('Invoice', 2, 'InvoiceTaxType', 'error',
        'InvoiceTaxType is `CNPJ` (a company) or `CPF` (an individual)'),
    'tax_number_required': ('Invoice', 2, 'InvoiceTaxNumber', 'error',
        'InvoiceTaxNumber is required'),
    'tax_number_length': ('Invoice', 2, 'InvoiceTaxNumber', 'error',
        'a CNPJ has 14 digits; this one has 13 (leading zeros lost? format the cell as text)'),
    'tax_number_check_digits': ('Invoice', 2, 'InvoiceTaxNumber', 'error',
        "the CNPJ's check digits (the last two) do not match its other digits: the number is mistyped; copy it again from the registration"),
    'city_hall_id_format': ('Invoice', 2, 'CityHallInfo', 'error',
        'CityHallInfo@Id is 8 digits'),
    'birth_date_required': ('Invoice', 2, 'BirthDate', 'error',
        "a CPF (an individual) needs the person's BirthDate (YYYY-MM-DD)"),
    'birth_date_value': ('Invoice', 2, 'BirthDate', 'error',
        'the birth date is in the future: check the year'),
    'invoice_duplicate': ('Invoice', 3, 'ID', 'error',
        'a property has one InvoiceDetails: keep one row'),
    'tax_info_answers_required': ('Property', 2, 'PropertyDeclaresRevenue', 'error',
        'PropertyTaxInfo needs all three answers (PropertyRegisteredInVcs, PropertyHasVat, PropertyDeclaresRevenue); PropertyDeclaresRevenue is blank: fill in 1 or 0'),
    'tax_category_not_allowed': ('Property', 2, 'PropertyTaxCategory', 'error',
        'a city tax category must not be sent when any of PropertyRegisteredInVcs, PropertyHasVat or PropertyDeclaresRevenue is 1: clear PropertyTaxCategory'),
    'tax_category_unknown': ('Property', 2, 'PropertyTaxCategory', 'error',
        'city tax category 9 is not one the platform lists for São Paulo (BR); it lists 3 (Hotel), 4 (Pousada)'),
}


def test_the_base_property_is_clean() -> None:
    issues = validate_content(frames(copy.deepcopy(BASE)), lookups=LOOKUPS, today=TODAY)
    assert issues.empty, issues.to_dict("records")


def test_every_rule_has_a_bad_input() -> None:
    assert [rule for rule, _ in CASES] == list(EXPECTED)
    assert len(CASES) == len({rule for rule, _ in CASES})


@pytest.mark.parametrize(("rule", "change"), CASES, ids=[rule for rule, _ in CASES])
def test_bad_input_gives_its_issue_on_the_analysts_cell(rule, change) -> None:
    sheets = copy.deepcopy(BASE)
    change(sheets)
    issues = validate_content(frames(sheets), lookups=LOOKUPS, today=TODAY)
    hit = issues[issues["rule"] == rule]
    assert len(hit), f"{rule} not found in {issues[['rule', 'message']].to_dict('records')}"
    first = hit.iloc[0]
    assert (first["sheet"], first["row"], first["column"], first["severity"], first["message"]) == EXPECTED[rule]
    assert first["source"] == "t.xlsx"


def test_unknown_platform_facts_give_one_not_checked_warning_each() -> None:
    sheets = copy.deepcopy(BASE)
    brazil(sheets)
    sheets["Property"][0].update(tax_registered_in_vcs=0, tax_has_vat=0, tax_declares_revenue=0, tax_category=3)
    issues = validate_content(frames(sheets), today=TODAY)
    assert issues["rule"].tolist() == ["not_checked"] * 3
    assert sorted(issues["value"]) == ["country_not_listed", "currency_not_listed", "tax_category_unknown"]
    assert (issues["severity"] == "warning").all()
    assert issues.iloc[0]["message"].startswith("the list of countries the platform knows is not known")
    known = validate_content(frames(sheets), today=TODAY, lookups=ContentLookups(
        currencies=LOOKUPS.currencies, countries=LOOKUPS.countries, city_tax_categories=LOOKUPS.city_tax_categories))
    assert known.empty


def test_rtb_is_allowed_for_a_new_property_when_the_provider_setting_is_on() -> None:
    sheets = copy.deepcopy(BASE)
    sheets["Property"][0]["booking_model"] = "RTB"
    assert validate_content(frames(sheets), lookups=LOOKUPS, today=TODAY, rtb_enabled=True).empty


def test_load_issues_are_kept_and_issues_are_sorted_like_a_workbook() -> None:
    load = pd.DataFrame([{"source": "t.xlsx", "sheet": "Property", "row": 2, "column": "Latitude", "value": "x",
                          "rule": "not_a_number", "severity": "error", "message": "`x` is not a number"}])
    sheets = copy.deepcopy(BASE)
    sheets["Property"][0]["hotel_name"] = "SEA VIEW INN"
    issues = validate_content(frames(sheets), load_issues=load, lookups=LOOKUPS, today=TODAY)
    assert issues["rule"].tolist() == ["name_all_caps", "not_a_number"]


def test_missing_parts_are_taken_as_empty() -> None:
    parts = frames(copy.deepcopy(BASE))
    only = {"Property": parts["Property"]}
    issues = validate_content(only, lookups=LOOKUPS, today=TODAY)
    assert set(issues["rule"]) == {"language_required", "profile_required", "policy_152_applied"}
    assert set(Checker.of(only, LOOKUPS, False, pd.Timestamp(TODAY)).parts) == set(parts)


def _sparse_cases() -> list[tuple[str, dict[str, list[dict]]]]:
    from loaders.content_schema import PARTS

    cases: list[tuple[str, dict[str, list[dict]]]] = [("nothing", {})]
    for part in PARTS:
        cases.append((f"only {part}, new", {part: [{"custom_id": "X"}]}))
        cases.append((f"only {part}, existing", {part: [{"hotel_code": 5}]}))
        without = copy.deepcopy(BASE)
        without.pop(part, None)
        cases.append((f"base without {part}", without))
        blank_row = copy.deepcopy(BASE)
        blank_row.setdefault(part, []).append({**N1})
        cases.append((f"base with a blank {part} row", blank_row))
    return cases


@pytest.mark.parametrize(("name", "sheets"), _sparse_cases(), ids=[n for n, _ in _sparse_cases()])
def test_sparse_workbooks_are_checked_without_failing(name: str, sheets: dict[str, list[dict]]) -> None:
    issues = validate_content(frames(sheets), today=TODAY)
    assert set(issues["severity"]) <= {"error", "warning"}
    assert issues["message"].notna().all() and (issues["sheet"] != "").all()


def test_stars_of_an_existing_property_whose_class_is_not_given_are_not_judged() -> None:
    sheets = copy.deepcopy(BASE)
    existing(sheets)
    sheets["Property"][0].update(property_class_code=None, star_rating=4)
    issues = validate_content(frames(sheets), lookups=LOOKUPS, today=TODAY)
    assert "stars_only_hotels" not in set(issues["rule"])
    assert set(issues["rule"]) == {"legal_entity_only_new"}


def test_a_languages_row_without_its_code_is_refused_on_its_cell() -> None:
    """Issue 22: a blank LanguageCode was sent as an empty `<Language/>`."""
    sheets = copy.deepcopy(BASE)
    sheets["Languages"].append({**N1, "language_code": None})
    issues = validate_content(frames(sheets), lookups=LOOKUPS, today=TODAY)
    assert issues[["sheet", "row", "column", "rule", "severity"]].values.tolist() == [
        ["Languages", 3, "LanguageCode", "language_code_required", "error"]]
    assert issues["message"].iloc[0] == ("a Languages row needs its LanguageCode (it would be sent as an empty "
                                         "Language): fill it in, e.g. `en`, or delete the row")


def test_policies_without_a_cancellation_policy_get_the_fully_flexible_one() -> None:
    """Spec E4 l.162 (code 152 in the older guide): Policies rows that give no CancelPolicyCode leave a new
    property with the fully flexible policy; said once, on its first Policies row."""
    sheets = copy.deepcopy(BASE)
    sheets["Policies"] = [{**N1, "guarantee_policy_code": 1}, {**N1, "pets_allowed": "Pets Not Allowed"}]
    issues = validate_content(frames(sheets), lookups=LOOKUPS, today=TODAY)
    assert issues[["sheet", "row", "column", "rule", "severity"]].values.tolist() == [
        ["Policies", 2, "CancelPolicyCode", "policy_152_applied", "warning"]]
    assert "applies the fully flexible policy (PolicyCode=152)" in issues["message"].iloc[0]
    sheets["Policies"].append({**N1, "cancel_policy_code": 41, "no_show_penalty": "default"})
    assert validate_content(frames(sheets), lookups=LOOKUPS, today=TODAY).empty


def test_the_address_hotel_name_and_language_are_those_of_the_row_the_address_is_sent_from() -> None:
    """The request takes the PhysicalLocation address whole from the first row that has one: a HotelName on a
    later row is not sent, so it does not count; a contact language is checked like any language code."""
    sheets = copy.deepcopy(BASE)
    sheets["Contacts"][0]["address_hotel_name"] = None
    sheets["Contacts"].append({**N1, "profile_type": "PhysicalLocation", "address_hotel_name": "Sea View Inn",
                               "email": "desk@inn.example"})
    sheets["Contacts"][1]["name_language"] = "xx"
    issues = validate_content(frames(sheets), lookups=LOOKUPS, today=TODAY)
    assert issues[["row", "column", "rule"]].values.tolist() == [
        [2, "AddressHotelName", "address_hotel_name_required"], [3, "NameLanguage", "language_code_value"]]
