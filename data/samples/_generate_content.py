"""Regenerate ``content.xlsx`` (run: ``python data/samples/_generate_content.py``).

An analyst's property-content workbook "as received" (spec E4): one sheet per part for five
properties: Lisbon (HotelCode 1000004, an existing property updated with an Overlay), a new
guesthouse in Porto (custom ID ``PORTO-01``), two new Brazilian properties (``BR-SP-01`` invoiced
to a company, CNPJ; ``BR-RJ-02`` to a person, CPF) and a new request-to-book apartment in
Amsterdam (``RTB-AMS-01``), with the deliberate problems listed in README.md here.
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

HERE = Path(__file__).resolve().parent

PROPERTY = [
    {"HotelCode": 1000004, "HotelName": "Lisbon Riverside Hotel", "LanguageCode": "en", "CurrencyCode": "EUR",
     "Target": "Test", "HotelCategory": 20, "SellableUnits": 40, "Latitude": 38.7077, "Longitude": -9.1365,
     "CheckInTime": "15:00", "CheckOutTime": "11:00", "StarRating": 4,
     "TotalNumberOfFloors": 250,  # problem: floors_max
     "HoursAfterBooking": 24, "WeeksBeforeCheckIn": 4, "PropertyRegisteredInVcs": 0, "PropertyHasVat": 1,
     "PropertyDeclaresRevenue": 1, "PricingType": "Standard"},
    {"ID": "PORTO-01", "HotelName": "CASA DO RIO PORTO",  # problem: name_all_caps
     "LanguageCode": "pt", "CurrencyCode": "EUR", "Target": "Test", "HotelCategory": 16, "SellableUnits": 6,
     "Latitude": 42.2406, "Longitude": -8.7207,  # problem: coordinates_country (Vigo, Spain; the address is PT)
     "LegalEntityID": 7001, "CheckInTime": "14:00-22:00", "CheckOutTime": "11:00", "AcceptLongStay": 1,
     "MaxLengthOfStay": 60},
    {"ID": "BR-SP-01", "HotelName": "Hotel Jardins Paulista", "LanguageCode": "pt", "CurrencyCode": "BRL",
     "Target": "Test", "HotelCategory": 20, "SellableUnits": 80, "Latitude": -23.5614, "Longitude": -46.6559,
     "LegalEntityID": 7002, "CheckInTime": "14:00", "CheckOutTime": "12:00", "StarRating": 3,
     "PropertyRegisteredInVcs": 0, "PropertyHasVat": 1, "PropertyDeclaresRevenue": 0,
     "PropertyTaxCategory": 3},  # problem: tax_category_not_allowed (PropertyHasVat is 1)
    {"ID": "BR-RJ-02", "HotelName": "Pousada Praia Vermelha", "LanguageCode": "pt", "CurrencyCode": "BRL",
     "Target": "Test", "HotelCategory": 16, "SellableUnits": 5, "Latitude": -22.9549, "Longitude": -43.1655,
     "LegalEntityID": 7003, "CheckInTime": "13:00", "CheckOutTime": "11:00"},
    {"ID": "RTB-AMS-01", "HotelName": "Canal House Apartments", "LanguageCode": "nl", "CurrencyCode": "EUR",
     "Target": "Test", "HotelCategory": 3, "SellableUnits": 3, "Latitude": 52.3676, "Longitude": 4.8852,
     "LegalEntityID": 7004, "CheckInTime": "16:00", "CheckOutTime": "10:00",
     "BookingModel": "RTB",  # problem: rtb_not_enabled (without the provider setting)
     "PricingType": "OBP"},  # warning: pricing_type_certification
]

_LIS = {"HotelCode": 1000004}
_POR = {"ID": "PORTO-01"}
_BSP = {"ID": "BR-SP-01"}
_BRJ = {"ID": "BR-RJ-02"}
_RTB = {"ID": "RTB-AMS-01"}


def _contacts(key: dict, country: str, line: str, city: str, postcode: str, people: list[tuple],
              name: str) -> list[dict]:
    """The PhysicalLocation address (its HotelName: the name in the address's language, spec E4), then people."""
    rows = [{**key, "ContactProfileType": "PhysicalLocation", "Language": "en", "AddressLine": line,
             "CityName": city, "PostalCode": postcode, "CountryName": country, "HotelName": name}]
    for profile, given, surname, email, phone, tech, ext in people:
        rows.append({**key, "ContactProfileType": profile, "GivenName": given, "SurName": surname, "Email": email,
                     "PhoneNumber": phone, "PhoneTechType": tech, "Extension": ext})
    return rows


CONTACTS = [
    *_contacts(_LIS, "PT", "Rua da Alfandega 114", "Lisboa", "11001",  # problem: postcode_country
               [("general", "Ana", "Sousa", "ana@riverside.example", "+351213420000", 5, "12"),  # phone_extension
                ("invoices", "Rui", "Lopes", "billing@riverside.example", "+351213420001", 1, None)],
               "Lisbon Riverside Hotel"),
    *_contacts(_POR, "PT", "Rua de Miragaia 91", "Porto", "4050-387",
               [("general", "Joana", "Pinto", "joana@casadorio.example", "+351912345678", 5, None),
                ("invoices", "Joana", "Pinto", "contas@casadorio.example", "+351912345678", 5, None)], "Casa do Rio"),
    *_contacts(_BSP, "BR", "Alameda Santos 1437", "Sao Paulo", "01419-002",
               [("general", "Marcos", "Silva", "marcos@jardins.example", "+551131712000", 1, "204"),
                ("invoices", "Lucia", "Costa", "fiscal@jardins.example", "+551131712001", 1, None)],
               "Hotel Jardins Paulista"),
    *_contacts(_BRJ, "BR", "Avenida Portugal 986", "Rio de Janeiro", "22291-050",
               [("general", "Paulo", "Mendes", "paulo@praiavermelha.example", "+5521987654321", 5, None),
                ("invoices", "Paulo", "Mendes", "paulo@praiavermelha.example", "+5521987654321", 5, None)],
               "Pousada Praia Vermelha"),
    *_contacts(_RTB, "NL", "Prinsengracht 263", "Amsterdam", "1016 GV",
               [("general", "Eva", "de Vries", "eva@canalhouse.example", "0031206246000", 1, None),  # phone_format
                ("invoices", "Eva", "de Vries", "eva@canalhouse.example", "+31206246001", 1, None)],
               "Grachtenhuis Appartementen"),
]
CONTACTS_HEADER = ["HotelCode", "ID", "ContactProfileType", "Language", "AddressLine", "CityName", "PostalCode",
                   "CountryName", "HotelName", "GivenName", "SurName", "Email", "PhoneNumber", "PhoneTechType", "Extension"]

LANGUAGES = [{**k, "LanguageCode": c} for k, c in (
    (_LIS, "en"), (_LIS, "pt"), (_POR, "pt"), (_POR, "en"), (_BSP, "pt"), (_BRJ, "pt"), (_RTB, "nl"), (_RTB, "en"))]

POLICIES = [
    {**_LIS, "CancelPolicyCode": 1, "NoShowPenalty": "total_price", "PetsAllowedCode": "Pets By Arrangements",
     "NonRefundableFee": "charges_may_apply", "AcceptedGuestType": "ChildrenAllowed"},
    {**_BSP, "CancelPolicyCode": 152, "NoShowPenalty": "default", "GuaranteePolicyCode": 1,
     "EffectiveFrom": "after_reservation_is_made"},
    {**_BRJ, "CancelPolicyCode": 152, "NoShowPenalty": "default", "PetsAllowedCode": "Pets Not Allowed"},
    {**_RTB, "CancelPolicyCode": 3, "NoShowPenalty": "total_price", "AcceptedGuestType": "AdultOnly",
     "MinGuestAge": 18},
    # PORTO-01 has no policy: warning policy_152_applied
]

TAXES = [
    {**_LIS, "Code": 36, "Percent": 6, "Type": "Inclusive"},
    {**_LIS, "Code": 13, "Amount": 4, "DecimalPlaces": 0, "Type": "Exclusive", "ChargeFrequency": 21},
]
FEES = [
    {**_LIS, "Code": 5035, "Amount": 0, "Type": "Inclusive", "InternetType": "wifi",
     "InternetCoverage": "entire_property"},
    {**_POR, "Code": 5009, "Amount": 40, "Type": "Conditional"},  # problem: fee_condition_required
    {**_RTB, "Code": 5009, "Amount": 60, "Type": "Conditional", "Conditions": "guest_brings_pet; guest_smokes"},
]
SERVICES = [
    {**_LIS, "Code": 173, "Included": "false", "Price": 15, "CurrencyCode": "EUR", "Types": "1; 4",
     "Items": "5001; 5002"},
    {**_BSP, "Code": 173, "Included": "true", "Price": 0, "CurrencyCode": "BRL"},
]
RESTAURANTS = [
    {**_LIS, "RestaurantName": "Cais", "OfferBreakfast": 1, "OfferDinner": 1, "CuisineCodes": "Portuguese",
     "Features": "buffet; accepts reservations", "Ambiances": "modern", "DietaryOptions": "vegetarian; vegan",
     "Mon": 1, "Tue": 1, "Weds": 1, "Thur": 1, "Fri": 1, "Start": "07:00", "End": "10:30"},
    {**_LIS, "RestaurantName": "Cais", "Sat": 1, "Sun": 1, "Start": "07:30", "End": "11:00"},
]
ATTRACTIONS = [
    {**_LIS, "AttractionCategoryCode": 5, "AttractionName": "Praca do Comercio", "Distance": 400,
     "DistanceUnit": "meters"},
    {**_RTB, "AttractionCategoryCode": 6, "AttractionName": "Anne Frank House", "Distance": 0.1,
     "DistanceUnit": "kilometers"},
]
TRANSPORT = [
    {**_LIS, "TransportType": 1, "JourneyTime": 25, "StartType": "airport", "StartCode": "LIS", "PriceAmount": 20,
     "PriceCurrencyCode": "EUR"},
    {**_RTB, "TransportType": 10, "JourneyTime": 20, "Line": "Tram 13", "Interval": 10},
]
PAYMENTS = [{**k, "PaymentTypeCode": c} for k, c in ((_LIS, 1), (_LIS, 3), (_BSP, 1), (_RTB, 3))]
INVOICE = [
    {**_BSP, "InvoiceTaxType": "CNPJ", "InvoiceTaxNumber": "11.222.333/0001-81", "InvoiceAddress": "fiscal@jardins.example",
     "CityHallInfo": "12345678"},
    {**_BRJ, "InvoiceTaxType": "CPF",
     "InvoiceTaxNumber": "529.982.247-24",  # problem: tax_number_check_digits (…-25 is right)
     "InvoiceAddress": "paulo@praiavermelha.example", "CityHallInfo": "87654321"},  # problem: birth_date_required
]
PHRASES = [
    {**_RTB, "StandardPhrase": "KeyCollection", "Enabled": 1, "OptionName": "KeyCollectionAddressLine",
     "OptionValue": "Prinsengracht 250"},
    {**_RTB, "StandardPhrase": "KeyCollection", "Enabled": 1, "OptionName": "KeyCollectionCityName",
     "OptionValue": "Amsterdam"},
    {**_LIS, "StandardPhrase": "Renovation", "Enabled": 1},  # problem: phrase_options_required
]
AWARDS = [{**_LIS, "Provider": "Star rating", "Rating": 4}]

SHEETS: list[tuple[str, list[dict]]] = [
    ("Property", PROPERTY), ("Contacts", CONTACTS), ("Languages", LANGUAGES), ("Policies", POLICIES),
    ("Taxes", TAXES), ("Fees", FEES), ("Services", SERVICES), ("Restaurants", RESTAURANTS),
    ("Attractions", ATTRACTIONS), ("Transport", TRANSPORT), ("Payments", PAYMENTS), ("Invoice", INVOICE),
    ("Phrases", PHRASES), ("Awards", AWARDS),
]


def _header(rows: list[dict]) -> list[str]:
    keys = ["HotelCode", "ID"]
    for row in rows:
        keys += [k for k in row if k not in keys]
    return keys


def write(path: Path = HERE / "content.xlsx") -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for title, rows in SHEETS:
        ws = wb.create_sheet(title)
        header = CONTACTS_HEADER if title == "Contacts" else _header(rows)
        ws.append(header)
        for cell in ws[1]:
            cell.font = Font(bold=True)
        for row in rows:
            ws.append([row.get(h) for h in header])
        ws.freeze_panes = "A2"
    wb.save(path)
    return path


if __name__ == "__main__":
    print(write())
