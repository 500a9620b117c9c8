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
)
ROOM_RATE_FIELDS: tuple[Field, ...] = (
    Field("hotel_code", "HotelCode", ("HotelCode", "hotel_id"), "property id"),
    Field("inv_type_code", "InvTypeCode", ("InvTypeCode", "InvCode", "room_id"), "room type id"),
    Field("rate_plan_code", "RatePlanCode", ("RatePlanCode", "rate_plan_id", "rate_id"), "rate plan id"),
    Field("rate_name", "RateName", ("RateName", "rate_name"), "rate plan name"),
    Field("active", "Active", ("Active", "is_active"), "1 when the rate plan is active for the room"),
    Field("parent_rate_plan_code", "ParentRatePlanCode", ("ParentRatePlanCode", "parent_rate_id",
                                                          "parent_rate_plan_id", "parent"), "parent of a child rate"),
    Field("follows_price", "FollowsPrice", ("FollowsPrice", "follows_price"),
          "1 when a child rate inherits its parent's price"),
    Field("read_only", "ReadOnly", ("ReadOnly", "readonly", "read_only"), "1 when prices cannot be pushed"),
)
