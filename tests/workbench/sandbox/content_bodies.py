"""Raw XML content requests written by hand for the sandbox's content tests (never the client's
builder): a valid new Amsterdam hotel with every part the rules look at, the same property in São
Paulo with Brazil's InvoiceDetails, and :func:`edit` to break one thing at a time."""

from __future__ import annotations

#: A new Amsterdam hotel with every part the rules look at, valid.
NL = """<?xml version="1.0" encoding="UTF-8"?>
<OTA_HotelDescriptiveContentNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" Version="1.0">
 <HotelDescriptiveContents>
  <HotelDescriptiveContent HotelDescriptiveContentNotifType="New" ID="NL-1" HotelName="Hotel Canal View" LanguageCode="en" CurrencyCode="EUR" Target="Test">
   <AffiliationInfo><Awards><Award Provider="Star rating" Rating="4"/></Awards></AffiliationInfo>
   <AreaInfo><Attractions><Attraction AttractionCategoryCode="5" AttractionName="Rijksmuseum" Distance="1.2" DistanceUnit="kilometers"/></Attractions></AreaInfo>
   <ContactInfos>
    <ContactInfo ContactProfileType="PhysicalLocation">
     <Addresses><Address Language="en"><AddressLine>Prinsengracht 263</AddressLine><CityName>Amsterdam</CityName><PostalCode>1016 GV</PostalCode><CountryName>NL</CountryName><StateProv StateCode="NL-NH"/></Address></Addresses>
    </ContactInfo>
    <ContactInfo ContactProfileType="general">
     <Names><Name Gender="Female"><GivenName>Anna</GivenName><SurName>Jansen</SurName></Name></Names>
     <Emails><Email>anna@example.com</Email></Emails>
     <Phones><Phone PhoneNumber="+31201234567" PhoneTechType="1" Extension="12"/></Phones>
    </ContactInfo>
    <ContactInfo ContactProfileType="invoices">
     <Names><Name><GivenName>Piet</GivenName><SurName>Bakker</SurName></Name></Names>
     <Emails><Email>piet@example.com</Email></Emails>
     <Phones><Phone PhoneNumber="+31201234568" PhoneTechType="1"/></Phones>
    </ContactInfo>
   </ContactInfos>
   <FacilityInfo><Restaurants><Restaurant RestaurantName="Ontbijtzaal" OfferBreakfast="1">
    <OperationSchedules><OperationSchedule><OperationTimes><OperationTime Mon="1" Start="07:00" End="10:30"/></OperationTimes></OperationSchedule></OperationSchedules>
    <Features><Feature DescriptiveText="buffet"/></Features>
   </Restaurant></Restaurants></FacilityInfo>
   <HotelInfo>
    <CategoryCodes><GuestRoomInfo Quantity="12"/><HotelCategory Code="20"/></CategoryCodes>
    <Languages><Language LanguageCode="en"/><Language LanguageCode="nl"/></Languages>
    <Position Latitude="52.3702" Longitude="4.8952"/>
    <Services><Service Code="173" Price="15" CurrencyCode="EUR" Included="false"/></Services>
    <OwnershipManagementInfos><OwnershipManagementInfo><CompanyName Code="4321"/></OwnershipManagementInfo></OwnershipManagementInfos>
    <RelativePositions><RelativePosition><Transportations><Transportation><TPA_Extensions><Route>
     <Leg><TransportType Code="3"/><JourneyTime Minutes="20"/><Line Name="Tram 13"/></Leg>
    </Route></TPA_Extensions></Transportation></Transportations></RelativePosition></RelativePositions>
    <TPA_Extensions><AcceptedPayments><AcceptedPayment PaymentTypeCode="1"/></AcceptedPayments></TPA_Extensions>
   </HotelInfo>
   <Policies><Policy>
    <PolicyInfo CheckInTime="14:00-22:00" CheckOutTime="11:00"/>
    <CancelPolicy><CancelPenalty PolicyCode="1"><TPA_Extensions><NoShowPolicy Penalty="default"/></TPA_Extensions></CancelPenalty></CancelPolicy>
    <PetsPolicies PetsAllowedCode="Pets Allowed"><PetsPolicy NonRefundableFee="free"/></PetsPolicies>
    <TaxPolicies><TaxPolicy Code="36" Percent="9" Type="Inclusive"/><TaxPolicy Code="35" Amount="3.5" Type="Exclusive"/></TaxPolicies>
    <FeePolicies>
     <FeePolicy Code="5009" Amount="25" Type="Conditional"><TPA_Extensions><Conditions><Condition Type="guest_smokes"/></Conditions></TPA_Extensions></FeePolicy>
     <FeePolicy Code="5035" Amount="5" Type="Exclusive"><TPA_Extensions><InternetFeePolicy InternetType="wifi" InternetCoverage="all_rooms"/></TPA_Extensions></FeePolicy>
     <FeePolicy Code="37" Amount="10" Type="Exclusive" MinAge="0" MaxAge="12"/>
     <FeePolicy Code="37" Amount="20" Type="Exclusive" MinAge="13" MaxAge="17"/>
    </FeePolicies>
   </Policy></Policies>
   <TPA_Extensions>
    <StandardPhrases><StandardPhrase Name="KeyCollection" Enabled="1"><Options><Option Name="KeyCollectionAddressLine">Prinsengracht 1</Option></Options></StandardPhrase></StandardPhrases>
    <GuestInformation RequireGuestAddress="1" HasAgeRestriction="1" AgeRestrictionMin="18" AgeRestrictionMax="99" HasCurfew="1" CurfewStart="23:00" CurfewEnd="06:00"/>
    <PropertyTaxInfo PropertyRegisteredInVcs="0" PropertyHasVat="0" PropertyDeclaresRevenue="0" PropertyTaxCategory="10"/>
    <CancellationGracePeriod HoursAfterBooking="24" WeeksBeforeCheckIn="4"/>
    <TotalNumberOfFloors Number="6"/>
    <PricingType Value="Standard"/>
    <LongStayInfo AcceptLongStay="1" MaxLengthOfStay="60"/>
    <BookingModel Type="IB"/>
   </TPA_Extensions>
  </HotelDescriptiveContent>
 </HotelDescriptiveContents>
</OTA_HotelDescriptiveContentNotifRQ>
"""


def edit(body: str, *changes: tuple[str, str]) -> str:
    """``body`` with each ``(old, new)`` text replaced once (the old text must be there)."""
    for old, new in changes:
        assert old in body, old
        body = body.replace(old, new, 1)
    return body


#: The same property in São Paulo, with Brazil's InvoiceDetails (a CNPJ) and a São Paulo tax category.
BR = edit(NL, ('ID="NL-1" HotelName="Hotel Canal View"', 'ID="BR-1" HotelName="Pousada Paulista"'),
          ('CurrencyCode="EUR"', 'CurrencyCode="BRL"'),
          ("<AddressLine>Prinsengracht 263</AddressLine><CityName>Amsterdam</CityName><PostalCode>1016 GV</PostalCode>"
           '<CountryName>NL</CountryName><StateProv StateCode="NL-NH"/>',
           "<AddressLine>Avenida Paulista 1578</AddressLine><CityName>São Paulo</CityName>"
           '<PostalCode>01310-200</PostalCode><CountryName>BR</CountryName><StateProv StateCode="BR-SP"/>'),
          ('PhoneNumber="+31201234567"', 'PhoneNumber="+551130000000"'),
          ('PhoneNumber="+31201234568"', 'PhoneNumber="+5511987654321"'),
          ('<Position Latitude="52.3702" Longitude="4.8952"/>', '<Position Latitude="-23.5614" Longitude="-46.6559"/>'),
          ('Price="15" CurrencyCode="EUR"', 'Price="60" CurrencyCode="BRL"'),
          ("<TPA_Extensions><AcceptedPayments>",
           '<TPA_Extensions><InvoiceDetails><InvoiceTaxType Type="CNPJ"/><InvoiceTaxNumber Code="11222333000181"/>'
           '<InvoiceAddress Email="fiscal@example.com.br"/><CityHallInfo Id="12345678"/></InvoiceDetails>'
           "<AcceptedPayments>"),
          ('PropertyTaxCategory="10"', 'PropertyTaxCategory="1"'))
CPF = ('<InvoiceTaxType Type="CNPJ"/><InvoiceTaxNumber Code="11222333000181"/>',
       '<InvoiceTaxType Type="CPF"/><InvoiceTaxNumber Code="52998224725"/>')


def overlay(body: str, hotel_code: object) -> str:
    """``body`` as an Overlay of ``hotel_code`` (its custom ID kept)."""
    return edit(body, ('HotelDescriptiveContentNotifType="New"',
                       f'HotelDescriptiveContentNotifType="Overlay" HotelCode="{hotel_code}"'))


def rtb(body: str) -> str:
    """``body`` asking for the request-to-book booking model."""
    return edit(body, ('<BookingModel Type="IB"/>', '<BookingModel Type="RTB"/>'))
