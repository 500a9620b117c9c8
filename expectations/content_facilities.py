"""Restaurants, attractions, transport, awards and payments (spec E4 FacilityInfo, AreaInfo,
RelativePositions, AffiliationInfo, AcceptedPayments)."""

from __future__ import annotations

from expectations.content_frames import Checker, blank, listed, nonempty, not_in, outside
from expectations.content_property import CLOCK_RE, HOTEL_CLASS
from loaders.content_schema import (
    AMBIANCES,
    DIETARY,
    DISTANCE_UNITS,
    RESTAURANT_FEATURES,
    STAR_RATING,
    START_TYPES,
)

JUNCTION_MOTORWAY = (5,)
LINE_TYPES = (3, 10, 18, 22, 5001)
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
STAR_PROVIDER = STAR_RATING


def check(c: Checker) -> None:
    _restaurants(c)
    _attractions(c)
    _transport(c)
    a = c.parts["Awards"]
    stars = a["provider"].eq(STAR_PROVIDER).fillna(False)
    c.flag("Awards", blank(a["provider"]), "provider", "award_provider_required", "an award needs its Provider")
    c.flag("Awards", stars & a["rating"].notna() & ~a["rating"].between(0, 5).fillna(True), "rating",
           "star_rating_range", "the star rating is 0 to 5")
    hotel = c.of_property("Awards", "property_class_code")
    c.flag("Awards", stars & hotel.ne(HOTEL_CLASS).fillna(False), "rating", "stars_only_hotels",
           f"stars are only for the hotel property class (HotelCategory {HOTEL_CLASS}): remove the star rating, "
           "or correct the property class")
    pay = c.parts["Payments"]
    c.flag("Payments", pay["payment_type_code"].isna(), "payment_type_code", "payment_type_required",
           "an accepted payment needs its PaymentTypeCode")


def _enum_list(c: Checker, part: str, col: str, allowed: tuple[str, ...], rule: str) -> None:
    bad = outside(c.parts[part][col], allowed.__contains__)
    c.flag(part, nonempty(bad), col, rule,
           lambda sub: [f"{listed(bad[i])} is not one of {listed(allowed)}" for i in sub.index])


def _restaurants(c: Checker) -> None:
    r = c.parts["Restaurants"]
    _enum_list(c, "Restaurants", "features", RESTAURANT_FEATURES, "restaurant_feature_value")
    _enum_list(c, "Restaurants", "ambiances", AMBIANCES, "restaurant_ambiance_value")
    _enum_list(c, "Restaurants", "dietary_options", DIETARY, "restaurant_dietary_value")
    c.flag("Restaurants", blank(r["restaurant_name"]), "restaurant_name", "restaurant_name_required",
           "a restaurant row needs its RestaurantName (rows with the same name form one restaurant)")
    for col in ("open_start", "open_end"):
        t = r[col]
        c.flag("Restaurants", t.notna() & ~t.str.fullmatch(CLOCK_RE.pattern).fillna(False), col,
               "restaurant_time_format", "opening times are `HH:MM` (24-hour clock)")
    has_time = r["open_start"].notna() | r["open_end"].notna()
    c.flag("Restaurants", has_time & (r["open_start"].isna() | r["open_end"].isna()), "open_start",
           "restaurant_time_required", "an OperationTime needs both Start and End")
    days = r[list(DAYS)].fillna(0).sum(axis=1) > 0
    c.flag("Restaurants", days & ~has_time, "open_start", "restaurant_time_required",
           "weekdays are ticked but no opening time is given: add Start and End")
    key = (r["property"].astype("string") + "\x00" + r["restaurant_name"].astype("string")).astype(object)
    breakfast = set(key[r["offer_breakfast"].eq(1).fillna(False)].dropna())
    c.flag("Restaurants", has_time & ~key.isin(breakfast), "open_start", "restaurant_schedule_breakfast_only",
           "opening times are for breakfast only: set OfferBreakfast 1 for this restaurant, or remove the times")


def _attractions(c: Checker) -> None:
    a = c.parts["Attractions"]
    for col, what in (("category_code", "AttractionCategoryCode"), ("attraction_name", "AttractionName"),
                      ("distance", "Distance")):
        c.flag("Attractions", blank(a[col]), col, "attraction_required",
               f"an attraction needs its {what} (category, name and distance are required)")
    c.flag("Attractions", a["distance"].notna() & (a["distance"] < 0), "distance", "attraction_distance_value",
           "a distance cannot be negative")
    c.flag("Attractions", not_in(a["distance_unit"], DISTANCE_UNITS), "distance_unit", "distance_unit_value",
           f"DistanceUnit is {listed(DISTANCE_UNITS)} (default meters)")


def _transport(c: Checker) -> None:
    t = c.parts["Transport"]
    code = t["transport_type_code"]
    c.flag("Transport", code.isna(), "transport_type_code", "transport_type_required",
           "a route leg needs its TransportType code")
    c.flag("Transport", t["journey_minutes"].isna(), "journey_minutes", "journey_time_required",
           "a route leg needs its JourneyTime in minutes")
    for col, what, allowed in (("junction_name", "Junction", JUNCTION_MOTORWAY),
                               ("motorway_name", "Motorway", JUNCTION_MOTORWAY),
                               ("line_name", "Line", LINE_TYPES)):
        c.flag("Transport", t[col].notna() & ~code.isin(allowed).fillna(False), col, "transport_name_not_allowed",
               f"a {what} name is only for TransportType {', '.join(map(str, allowed))}: clear it")
    c.flag("Transport", not_in(t["start_type"], START_TYPES), "start_type", "transport_start_value",
           "Start@Type is `airport`")
    start = t["start_code"]
    c.flag("Transport", start.notna() & ~start.str.fullmatch(r"[A-Za-z]{3}").fillna(False), "start_code",
           "transport_start_value", "Start@Code is a three-letter airport code such as `LIS`")
    c.flag("Transport", t["price_amount"].notna() & t["price_currency"].isna(), "price_currency",
           "transport_price_currency", "a price needs its CurrencyCode")
    c.flag("Transport", t["price_currency"].notna()
           & ~t["price_currency"].str.fullmatch(r"[A-Za-z]{3}").fillna(False), "price_currency",
           "transport_price_currency", "CurrencyCode is an ISO 4217 code such as `EUR`")

