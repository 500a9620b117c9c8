"""Canonical frames: column names, dtypes, and the OTA attribute each column maps to.

Every frame carries provenance: ``source`` (file name), ``sheet`` (sheet name, ``""`` for CSV)
and ``row`` (the row number the person sees in Excel; the header is row 1).

Headers in files match the canonical fields ignoring case, spaces, hyphens and underscores,
through the aliases below (the OTA attribute name first, then documented snake_case names).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

PROVENANCE = ["source", "sheet", "row"]


@dataclass(frozen=True)
class Field:
    name: str           # canonical snake_case column
    ota: str            # OTA attribute / element this maps to
    aliases: tuple[str, ...]
    description: str


#: Fields a rates sheet may carry (any layout).
RATE_FIELDS: tuple[Field, ...] = (
    Field("hotel_code", "HotelCode", ("HotelCode", "hotel_id", "hotel", "property_id"),
          "the platform's property id (integer)"),
    Field("inv_type_code", "InvTypeCode", ("InvTypeCode", "InvCode", "room_id", "room_type_id", "room"),
          "the platform's room type id"),
    Field("rate_plan_code", "RatePlanCode", ("RatePlanCode", "rate_plan_id", "rate_id", "rate_plan"),
          "the platform's rate plan id"),
    Field("date", "Date", ("Date", "stay_date", "night"), "the night the price is for (long layout)"),
    Field("start", "Start", ("Start", "start_date", "from", "date_from"), "first night, inclusive (range layout)"),
    Field("end", "End", ("End", "end_date", "to", "date_to", "until"), "last night, inclusive (range layout)"),
    Field("number_of_guests", "NumberOfGuests", ("NumberOfGuests", "guests", "occupancy", "number_of_guests"),
          "occupants priced as adults (OBP/LOS properties only); blank means none"),
    Field("amount_after_tax", "AmountAfterTax", ("AmountAfterTax", "amount_after_tax", "price_after_tax",
                                                 "amount", "price"),
          "price including taxes"),
    Field("amount_before_tax", "AmountBeforeTax", ("AmountBeforeTax", "amount_before_tax", "price_before_tax"),
          "price before taxes"),
    Field("currency_code", "CurrencyCode", ("CurrencyCode", "currency", "currency_code"), "ISO 4217 code"),
    Field("decimal_places", "DecimalPlaces", ("DecimalPlaces", "decimal_places", "decimals"),
          "the amount is an integer scaled by this many places"),
)

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WEEKDAY_FIELDS: tuple[Field, ...] = tuple(
    Field(d, ota, (ota, d, *extra), f"{ota}: apply to this weekday (range layout)")
    for d, ota, extra in (
        ("mon", "Mon", ("monday",)), ("tue", "Tue", ("tues", "tuesday")), ("wed", "Wed", ("weds", "wednesday")),
        ("thu", "Thu", ("thur", "thurs", "thursday")), ("fri", "Fri", ("friday",)),
        ("sat", "Sat", ("saturday",)), ("sun", "Sun", ("sunday",)),
    )
)

#: The canonical rates frame: one row per (hotel, room, rate plan, date, guests) price.
RATES_COLUMNS: dict[str, str] = {
    "hotel_code": "Int64",          # HotelCode
    "inv_type_code": "string",      # InvTypeCode
    "rate_plan_code": "string",     # RatePlanCode
    "date": "datetime64[ns]",       # StatusApplicationControl Start..End, one night
    "number_of_guests": "Int64",    # BaseByGuestAmt@NumberOfGuests (NA = not sent)
    "amount": "float64",            # the price as a number, for checks and plots
    "amount_minor": "Int64",        # the exact price as an integer of 10**-amount_scale units
    "amount_scale": "Int64",        # decimals in the exact price (trailing zeros removed)
    "amount_type": "string",        # "AfterTax" or "BeforeTax": which attribute carries it
    "decimal_places": "Int64",      # DecimalPlaces as given (NA = amount sent as a decimal)
    "currency_code": "string",      # CurrencyCode
    "source": "string",
    "sheet": "string",
    "row": "Int64",
    "amount_column": "string",      # header of the cell the price came from (a date in wide sheets)
}


def empty_rates() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in RATES_COLUMNS.items()})


#: The property registry (optional input): what is known about properties, rooms and rate plans.
PROPERTY_FIELDS: tuple[Field, ...] = (
    Field("hotel_code", "HotelCode", ("HotelCode", "hotel_id"), "property id"),
    Field("hotel_name", "HotelName", ("HotelName", "hotel_name", "name"), "property name"),
    Field("currency_code", "CurrencyCode", ("CurrencyCode", "currency"), "the property's configured currency"),
    Field("pricing_model", "PricingType", ("PricingModel", "PricingType", "pricing_model", "pricing"),
          "Standard, OBP (occupancy based) or LOS (length of stay)"),
    Field("country_code", "CountryName", ("CountryCode", "country"), "ISO 3166-1 alpha-2"),
)
ROOM_FIELDS: tuple[Field, ...] = (
    Field("hotel_code", "HotelCode", ("HotelCode", "hotel_id"), "property id"),
    Field("inv_type_code", "InvTypeCode", ("InvTypeCode", "InvCode", "room_id", "ID"), "room type id"),
    Field("room_name", "RoomTypeName", ("RoomName", "RoomTypeName", "room_name", "name"), "room type name"),
    Field("max_occupancy", "MaxOccupancy", ("MaxOccupancy", "max_occupancy"), "most guests"),
    Field("max_adult_occupancy", "MaxAdultOccupancy", ("MaxAdultOccupancy", "max_adult_occupancy",
                                                       "max_adults", "max_persons"), "most adults"),
    Field("max_child_occupancy", "MaxChildOccupancy", ("MaxChildOccupancy", "max_child_occupancy",
                                                       "max_children"), "most children"),
    Field("quantity", "Quantity", ("Quantity", "units", "number_of_units"),
          "units of the room type (rooms to sell above it are a warning)"),
)
ROOM_RATE_FIELDS: tuple[Field, ...] = (
    Field("hotel_code", "HotelCode", ("HotelCode", "hotel_id"), "property id"),
    Field("inv_type_code", "InvTypeCode", ("InvTypeCode", "InvCode", "room_id"), "room type id"),
    Field("rate_plan_code", "RatePlanCode", ("RatePlanCode", "rate_plan_id", "rate_id"), "rate plan id"),
    Field("rate_name", "RateName", ("RateName", "rate_name"), "rate plan name"),
    Field("active", "Active", ("Active", "is_active"), "1 when the rate plan is active for the room"),
    Field("is_child_rate", "IsChildRate", ("IsChildRate", "is_child_rate", "ChildRate", "child_rate"),
          "1 when the rate plan is a child rate (the platform's roomrates flags it `is_child_rate`); "
          "a ParentRatePlanCode makes it one too"),
    Field("parent_rate_plan_code", "ParentRatePlanCode", ("ParentRatePlanCode", "parent_rate_id",
                                                          "parent_rate_plan_id", "parent"), "parent of a child rate"),
    Field("follows_price", "FollowsPrice", ("FollowsPrice", "follows_price"),
          "1 when a child rate inherits its parent's price, 0 when it has its own; blank on a child rate: "
          "taken to inherit (the platform does not say)"),
    Field("read_only", "ReadOnly", ("ReadOnly", "readonly", "read_only"), "1 when prices cannot be pushed"),
)


# --- room types, sub-rooms and room amenities (OTA_HotelInvNotif / OTA_HotelDescriptiveInfo) -------------

def _f(name: str, ota: str, *aliases: str, description: str = "") -> Field:
    return Field(name, ota, (ota, name, *aliases), description)


#: A room is referred to by ``InvCode`` (the platform's id) or ``RoomID`` (the partner's own id).
ROOM_REF_FIELDS: tuple[Field, ...] = (
    _f("hotel_code", "HotelCode", "hotel_id", "hotel", "property_id", description="the platform's property id"),
    _f("inv_code", "InvCode", "InvTypeCode", "room_type_id", "ID",
       description="the platform's room type id; blank on the Rooms sheet = a room type to create"),
    _f("room_id", "RoomID", "partner_room_id", description="the partner's own id of the room type (a whole number)"),
)

#: The Rooms sheet: one row per room type.
ROOM_TYPE_FIELDS: tuple[Field, ...] = (
    *ROOM_REF_FIELDS,
    _f("room_type", "RoomType", "room_type_code", description="BCRT room type code or name (1 or Apartment)"),
    _f("room_name", "RoomTypeName", "RoomName", "name", "Description", description="the room type's name"),
    _f("max_occupancy", "MaxOccupancy", description="most guests"),
    _f("max_adult_occupancy", "MaxAdultOccupancy", "max_adults", description="most adults"),
    _f("max_child_occupancy", "MaxChildOccupancy", "max_children", description="most children"),
    _f("max_infants", "MaxInfants", description="most infants (0-2 years) within the guests (Rooms API only)"),
    _f("max_infants_on_top", "MaxInfantsOnTop", description="infants (0-2 years) allowed on top of the guests "
                                                            "(Rooms API only)"),
    _f("max_child_payable_occupancy", "MaxChildPayableOccupancy", "max_child_payable",
       description="children priced as children (TPA_Extensions/Occupancy); further children pay as adults"),
    _f("quantity", "Quantity", "units", "number_of_units", description="number of units of this type"),
    _f("non_smoking", "NonSmoking", description="1 non-smoking, 0 smoking allowed, 2 both"),
    _f("size_measurement", "SizeMeasurement", "size", description="size of the unit"),
    _f("size_measurement_unit", "SizeMeasurementUnit", "size_unit", description="sqm (default) or sqft"),
    _f("maximum_additional_guests", "MaximumAdditionalGuests", "additional_guests",
       description="guests in cribs or extra beds"),
    _f("max_cribs", "MaxCribs", "cribs", description="cribs; 1 here and in MaxRollaways = one or the other"),
    _f("max_rollaways", "MaxRollaways", "rollaways", "extra_beds", description="extra beds"),
    _f("apartment_room_capacity", "ApartmentRoomCapacity", description="rooms of an apartment (allows sub-rooms)"),
    _f("active", "Active", "is_active", "status",
       description="1 active, 0 deactivated: 0 deactivates the room type, 1 reactivates it (InvStatusType)"),
    _f("subroom_count", "SubRoomCount", "sub_room_count", "number_of_subrooms",
       description="how many sub-rooms the room has in all; fill it when the SubRooms sheet lists every one "
                   "(SubRooms replaces them all, and the platform's read does not include them)"),
)

#: The SubRooms sheet: one row per bedroom, living room or bathroom of a room type.
SUBROOM_FIELDS: tuple[Field, ...] = (
    *ROOM_REF_FIELDS,
    _f("subroom", "SubRoom", "SubRoomID", "SubRoomKey", "sub_room", "sub_room_id",
       description="the sub-room's key within its room, e.g. `Bedroom 1`"),
    _f("subroom_type", "RoomType", "SubRoomType", "sub_room_type", description="Bedroom, Living room or Bathroom"),
    _f("max_guests", "MaxGuests", description="guests sleeping in this sub-room"),
    _f("number", "Number", description="how many of them (Bathroom or Living room only)"),
    _f("private_bathroom", "PrivateBathroom", description="1 when the sub-room has its own bathroom"),
    _f("remove", "Remove", description="1 to remove this sub-room from the platform"),
)

#: The Amenities sheet: one row per amenity of a room type (or of one of its sub-rooms: beds only).
AMENITY_FIELDS: tuple[Field, ...] = (
    *ROOM_REF_FIELDS,
    _f("subroom", "SubRoom", "SubRoomID", "SubRoomKey", "sub_room", description="blank for the room's own amenities"),
    _f("amenity_code", "AmenityCode", "amenity", "code", description="RMA code"),
    _f("room_amenity_code", "RoomAmenityCode", description="RMA code (must equal AmenityCode when both are given)"),
    _f("value", "Value", "count", description="how many (beds); 0 or the word `remove` removes the amenity"),
    _f("quantity", "Quantity", description="same as Value"),
    _f("configuration", "Configuration", description="bed types only: 1 standard, 2 alternative arrangement"),
)

_PROV = {"source": "string", "sheet": "string", "row": "Int64"}

#: The canonical rooms frame: one row per room type.
ROOMS_COLUMNS: dict[str, str] = {
    "hotel_code": "Int64",                   # SellableProducts@HotelCode
    "inv_code": "string",                    # SellableProduct@InvCode / GuestRoom@ID (NA = to create)
    "room_id": "string",                     # Room@RoomID (the partner's id)
    "room_type": "string",                   # Room@RoomType as given (BCRT code or name)
    "room_name": "string",                   # GuestRoom/Description/Text, RoomTypeName
    "max_occupancy": "Int64",                # Occupancy@MaxOccupancy
    "max_adult_occupancy": "Int64",          # Occupancy@MaxAdultOccupancy
    "max_child_occupancy": "Int64",          # Occupancy@MaxChildOccupancy
    "max_child_payable_occupancy": "Int64",  # TPA_Extensions/Occupancy@MaxChildPayableOccupancy
    "max_infants": "Int64",                  # Rooms API occupancy_details.max_infants (no InvNotif attribute)
    "max_infants_on_top": "Int64",           # Rooms API occupancy_details.max_infants_on_top (idem)
    "quantity": "Int64",                     # Room@Quantity
    "non_smoking": "Int64",                  # Room@NonSmoking: 1, 0, 2
    "size_measurement": "Int64",             # Room@SizeMeasurement
    "size_measurement_unit": "string",       # Room@SizeMeasurementUnit: sqm, sqft
    "maximum_additional_guests": "Int64",    # Quantities@MaximumAdditionalGuests
    "max_cribs": "Int64",                    # Quantities@MaxCribs
    "max_rollaways": "Int64",                # Quantities@MaxRollaways
    "apartment_room_capacity": "Int64",      # (allows sub-rooms for other room types)
    "active": "Int64",                       # SellableProduct@InvStatusType: 1 Active, 0 Deactivated (NA = keep)
    "subroom_count": "Int64",                # the SubRooms sheet lists this many sub-rooms: all of the room's
    **_PROV,
}

#: The canonical sub-rooms frame: one row per (hotel, room, sub-room).
SUBROOMS_COLUMNS: dict[str, str] = {
    "hotel_code": "Int64", "inv_code": "string", "room_id": "string",
    "subroom": "string",                     # key within the room, e.g. "Bedroom 1"
    "subroom_type": "string",                # SubRoom@RoomType: Bedroom, Living room, Bathroom
    "max_guests": "Int64",                   # SubRoom@MaxGuests
    "number": "Int64",                       # SubRoom@Number
    "private_bathroom": "Int64",             # SubRoom@PrivateBathroom 0/1
    "remove": "boolean",                     # the analyst asks to remove this sub-room
    **_PROV,
}

#: The canonical room-amenities frame: one row per (hotel, room, [sub-room], amenity).
AMENITIES_COLUMNS: dict[str, str] = {
    "hotel_code": "Int64", "inv_code": "string", "room_id": "string",
    "subroom": "string",                     # NA = the room's own Amenities
    "amenity_code": "Int64",                 # AmenityCode (or RoomAmenityCode when only that is given)
    "room_amenity_code": "Int64",            # RoomAmenityCode as given (checked equal to AmenityCode)
    "value": "Int64",                        # Value / Quantity (NA = not given; 0 = remove)
    "configuration": "Int64",                # Configuration 1/2 (bed types only)
    "remove": "boolean",                     # Value 0 or the word `remove`
    **_PROV,
}


def empty_frame(columns: dict[str, str]) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in columns.items()})


# --- availability and restrictions (OTA_HotelAvailNotif; docs/availability.md) ---------------------------

#: The values an availability sheet may set, in the order of the mapping table (workbench.ota.avail_notif).
#: ``Field.name`` is the canonical restriction name (the ``restriction`` column of the frame).
AVAILABILITY_VALUE_FIELDS: tuple[Field, ...] = (
    _f("rooms_to_sell", "RoomsToSell", "BookingLimit", "allotment", "availability",
       description="rooms of the room type the platform may sell that night (0-254; 255 = unlimited); per room "
                   "type: leave RatePlanCode blank"),
    _f("closed", "Closed", "close", "stop_sell", "stopsell", "closed_room",
       description="1 closes the night (the room type when RatePlanCode is blank, else the room-rate), 0 opens it"),
    _f("closed_to_arrival", "ClosedToArrival", "CTA", "closed_on_arrival", "closedonarrival",
       description="1: no arrival that night, 0: arrivals allowed (room-rate)"),
    _f("closed_to_departure", "ClosedToDeparture", "CTD", "closed_on_departure", "closedondeparture",
       description="1: no departure that day, 0: departures allowed (room-rate)"),
    _f("min_stay_arrival", "MinStayArrival", "minimumstay_arrival", "min_los_arrival", "min_stay_on_arrival",
       description="fewest nights of a stay arriving that night (room-rate)"),
    _f("max_stay_arrival", "MaxStayArrival", "maximumstay_arrival", "max_los_arrival", "max_stay_on_arrival",
       description="most nights of a stay arriving that night (room-rate)"),
    _f("min_stay_through", "MinStayThrough", "min_los_through", "minimum_stay_through",
       description="fewest nights of any stay that includes that night (room-rate)"),
    _f("max_stay_through", "MaxStayThrough", "max_los_through", "maximum_stay_through",
       description="most nights of any stay that includes that night (room-rate)"),
)
#: The canonical restriction names, in table order (the order of a request's messages for one room-rate).
RESTRICTIONS: tuple[str, ...] = tuple(f.name for f in AVAILABILITY_VALUE_FIELDS)
#: Each restriction's column name as the workbook contract writes it (``RoomsToSell`` …).
RESTRICTION_HEADERS: dict[str, str] = {f.name: f.ota for f in AVAILABILITY_VALUE_FIELDS}
FLAG_RESTRICTIONS = frozenset({"closed", "closed_to_arrival", "closed_to_departure"})
STAY_RESTRICTIONS = frozenset({"min_stay_arrival", "max_stay_arrival", "min_stay_through", "max_stay_through"})

#: The canonical availability frame: one row per value set (hotel, room, [rate plan], night, restriction).
AVAILABILITY_COLUMNS: dict[str, str] = {
    "hotel_code": "Int64",          # AvailStatusMessages@HotelCode
    "inv_type_code": "string",      # StatusApplicationControl@InvTypeCode
    "rate_plan_code": "string",     # StatusApplicationControl@RatePlanCode (NA: the room type itself)
    "date": "datetime64[ns]",       # StatusApplicationControl Start..End, one night
    "restriction": "string",        # one of RESTRICTIONS: which value (and which message) this is
    "value": "Int64",               # rooms to sell, a 0/1 flag, or a number of nights
    **_PROV,
    "value_column": "string",       # header of the cell the value came from (a date in wide sheets)
}


def empty_availability() -> pd.DataFrame:
    return empty_frame(AVAILABILITY_COLUMNS)
