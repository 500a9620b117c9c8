"""Facilities API bodies: property facilities, room facilities, bathrooms and the meta (OTA HAC/RMA crosswalk).

Source: [O] https://developers.booking.com/connectivity/docs/openapispecs/facilities-api/facilities-api-specification
(version 1.0, server ``https://supply-xml.booking.com/``), read through the mirror ``api-evangelist/booking-com``
``openapi/_original/booking-com-facilities-api-openapi.yml`` (commit 88c438fa, archived 2026-09-26).

Transcribed: ``PropertyFacilityRequest`` (facility_id and state required, ``instances``) with every detail
object of ``InstanceRequest`` and its required fields and enums; ``RoomFacilityRequest`` with linen and crib
details; ``BathroomDetailsRequest`` (hotel group: both states and ``number_of_bathrooms`` 0..20 required, the
count 0 exactly when both states are MISSING; homes and hostels: ``bathrooms`` 0..20, hostel facilities
``count`` 1..100); the meta (``property_facility_metas`` with ``ota_hotel_amenity_type``, ``room_facility_metas``
with ``ota_room_amenity_type``, ``bathroom_configurations``). The PUT bodies are arrays; the answers' error
paths name them ``property_facility_list[i]`` and ``room_facility_list[i]``.
Semantics stated by the description: a property PUT replaces every instance of each facility it names (an
existing instance left out is deleted; send ``instance_id`` to keep one) and leaves other facilities alone;
``state: MISSING`` removes a facility; a bathrooms PUT replaces them all.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, model_validator

from workbench.modular.base import Body, Text, is_answer

__all__ = ["DETAILS_FIELD", "PROPERTY_FACILITY_LIST", "ROOM_FACILITY_LIST", "AgeLimitDetails", "Bathroom",
           "BathroomConfiguration", "BathroomDetails", "ChargeDetails", "CribDetails", "Daytime", "FacilityMeta",
           "HotelBathroomDetails", "Instance", "InternetDetails", "KidsPoolDetails", "LinenDetails", "MealDetails",
           "OnsiteDetails", "ParkingDetails", "PaymentDetails", "PropertyFacility", "PropertyFacilityMeta",
           "RestaurantDetails", "RoomFacility", "RoomFacilityInstance", "RoomFacilityMeta", "ScheduleDetails",
           "SurchargeDetails", "SwimmingPoolDetails", "TemporarilyClosedDetails", "WeekTime"]

#: how the answers' error paths name the elements of the two PUT arrays
PROPERTY_FACILITY_LIST, ROOM_FACILITY_LIST = "property_facility_list", "room_facility_list"
State = Literal["MISSING", "PRESENT"]
Presence = Literal["NOT_SPECIFIED", "PRESENT", "MISSING"]
Day = Literal["UNKNOWN_DAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]
CUISINES = ("UNKNOWN_CUISINE", "AFRICAN", "AMERICAN", "ARGENTINIAN", "BELGIAN", "BRAZILIAN", "CAJUN_CREOLE",
            "CAMBODIAN", "CANTONESE", "CARIBBEAN", "CATALAN", "CHINESE", "DUTCH", "BRITISH", "ETHIOPIAN", "FRENCH",
            "GREEK", "INDIAN", "INDONESIAN", "IRISH", "ITALIAN", "JAPANESE", "KOREAN", "MALAYSIAN", "MEDITERRANEAN",
            "MEXICAN", "MIDDLE_EASTERN", "MOROCCAN", "NEPALESE", "PERUVIAN", "PIZZA", "POLISH", "PORTUGUESE",
            "SCOTTISH", "SEAFOOD", "SICHUAN", "SINGAPOREAN", "SPANISH", "STEAKHOUSE", "SUSHI", "TEXMEX", "THAI",
            "TURKISH", "VIETNAMESE", "AUSTRIAN", "AUSTRALIAN", "GERMAN", "RUSSIAN", "LOCAL", "ASIAN", "INTERNATIONAL",
            "LATIN_AMERICAN", "EUROPEAN", "CROATIAN", "HUNGARIAN", "GRILL_BBQ", "SOUTH_AFRICAN")
BREAKFAST_TYPES = ("CONTINENTAL", "ITALIAN", "FULL_ENGLISH", "VEGETARIAN", "VEGAN", "HALAL", "GLUTEN_FREE", "KOSHER",
                   "ASIAN", "AMERICAN", "BUFFET", "A_LA_CARTE", "BREAKFAST_TO_GO")
BREAKFAST_ITEMS = ("BREAD", "PASTRIES", "PANCAKES", "BUTTER", "CHEESE", "COLD_MEAT", "EGGS", "YOGURT", "FRUITS",
                   "COFFEE", "TEA", "HOT_CHOCOLATE", "CHAMPAGNE", "A_LA_CARTE", "LOCAL_SPECIALITY", "COOKED_MEAL",
                   "JUICE", "JAM", "CEREAL")
#: the meta's detail type names -> the instance member that carries them
DETAILS_FIELD = {"AgeLimitDetails": "age_limit_details", "CribDetails": "crib_details",
                 "InternetDetails": "internet_details", "KidsPoolDetails": "kids_pool_details",
                 "LinenDetails": "linen_details", "MealDetails": "meal_details", "OnsiteDetails": "on_site_details",
                 "ParkingDetails": "parking_details", "PaymentDetails": "payment_details",
                 "RestaurantDetails": "restaurant_details", "ScheduleDetails": "schedule_details",
                 "SurchargeDetails": "surcharge_details", "SwimmingPoolDetails": "swimming_pool_details",
                 "TemporarilyClosedDetails": "temporarily_closed_details"}


class AgeLimitDetails(Body):
    age_limit: Literal["AGE_1", "AGE_2", "AGE_3", "AGE_4", "AGE_5", "AGE_6", "AGE_7", "AGE_8", "AGE_9", "AGE_10",
                       "AGE_11", "AGE_12", "NO_RESTRICTION"] | None = None


class ChargeDetails(Body):
    price: float | None = None
    frequency: Literal["UNKNOWN_FREQUENCY", "PER_STAY", "PER_MINUTE", "PER_HALF_HOUR", "PER_HOUR", "PER_DAY",
                       "PER_WEEK"] | None = None


class PaymentDetails(Body):
    charge_mode: Literal["UNKNOWN_CHARGE_MODE", "FREE", "PAID", "CHARGES_MAY_APPLY"]
    charge_details: ChargeDetails | None = None


class Daytime(Body):
    hours: Annotated[int, Field(ge=0, le=23)]
    minutes: Annotated[int, Field(ge=0, le=59)]


class WeekTime(Body):
    """Opening hours on one day of the week (HDCN ``OperationTimes``)."""

    day_of_week: Day
    from_: Daytime = Field(alias="from")
    to: Daytime


class ScheduleDetails(Body):
    schedule: list[WeekTime] = []


class SurchargeDetails(Body):
    surcharge_type: Literal["DEFAULT", "FREE", "PAID"] | None = None


class OnsiteDetails(Body):
    onsite_type: Literal["DEFAULT", "ONSITE", "OFFSITE"] | None = None


class WifiInfo(Body):
    network_name: str | None = None
    speed_download: float | None = None
    speed_upload: float | None = None


class InternetDetails(Body):
    """Internet (facility 47), with ``payment_details``; HDCN ``InternetFeePolicy``."""

    area: Literal["UNKNOWN_COVERAGE", "ALL_ROOMS", "SOME_ROOMS", "PUBLIC_AREAS", "BUSINESS_CENTER", "ENTIRE_PROPERTY"]
    type: Literal["NONE", "WIRED", "WIFI"]
    wifi_info: WifiInfo | None = None


class PoolDimensions(Body):
    length: float | None = None
    width: float | None = None
    depth_min: float | None = None
    depth_max: float | None = None
    unit: Literal["METER"] | None = None


class KidsPoolDetails(Body):
    swimming_pool_dimensions: PoolDimensions | None = None
    has_shallow_end: bool | None = None


class MealDetails(Body):
    """Breakfast (9111), lunch (9114), dinner (9115): the price is required."""

    price: Annotated[float, Field(ge=0.1, le=99999999999999.98)]
    breakfast_types: list[Literal[BREAKFAST_TYPES]] | None = None  # type: ignore[valid-type]
    breakfast_food_item_types: list[Literal[BREAKFAST_ITEMS]] | None = None  # type: ignore[valid-type]


class ParkingDetails(Body):
    """Parking (facility 2), always with ``payment_details``; the name is unique among the property's parkings.
    HDCN ``ParkingFeePolicy`` (ParkingType, ParkingProperty, ParkingReservation)."""

    name: Text
    parking_location: Literal["ON_SITE", "NEARBY"]
    parking_access: Literal["ONLY_GUESTS", "GENERAL_PUBLIC"]
    parking_reservation: Literal["NEEDED", "NOT_NEEDED", "NOT_POSSIBLE"]
    parking_type: Literal["UNKNOWN_PARKING_TYPE", "PARKING_GARAGE", "PARKING_LOT", "STREET_PARKING"] | None = None
    max_height_m: Annotated[float, Field(ge=0, le=200)] | None = None
    has_valet_service: Presence | None = None
    has_onsite_staff: Presence | None = None
    has_gated_parking: Presence | None = None
    has_security_cameras: Presence | None = None
    has_ev_charging_station: Presence | None = None
    has_accessible_parking_spots: Presence | None = None


class RestaurantDetails(Body):
    """Restaurant (facility 3); the name is unique among the property's restaurants. HDCN ``Restaurant``."""

    name: Text
    guests_only: bool | None = None
    accept_reservations: bool | None = None
    outdoor_seating: bool | None = None
    meal_types_list: list[Literal["UNKNOWN_MEAL_TYPE", "HALAL", "KOSHER", "VEGETARIAN", "VEGAN", "GLUTEN_FREE",
                                  "DAIRY_FREE"]] | None = None
    ambiances_list: list[Literal["UNKNOWN_AMBIANCE", "FAMILY_KIDS_FRIENDLY", "TRADITIONAL", "MODERN",
                                 "ROMANTIC"]] | None = None
    open_for_meals_list: list[Literal["UNKNOWN_OPEN_FOR_MEALS", "BREAKFAST", "BRUNCH", "LUNCH", "DINNER", "HIGH_TEA",
                                      "COCKTAIL_HOUR"]] | None = None
    cuisines_list: list[Literal[CUISINES]] | None = None  # type: ignore[valid-type]
    is_buffet: bool | None = None
    is_alacarte: bool | None = None


class SwimmingPoolDetails(Body):
    """Swimming pool (facility 433); the name is unique among the property's pools."""

    name: Text
    swimming_pool_type: Literal["UNKNOWN_POOL_TYPE", "INDOOR", "OUTDOOR", "INDOOR_AND_OUTDOOR"]
    availability_type: Literal["UNKNOWN_AVAILABILITY", "ALL_SEASON", "SEASONABLE"] | None = None
    allowed_age_type: Literal["UNKNOWN_AGE_TYPE", "ADULTS_ONLY", "KIDS_ONLY", "ALL_AGES"] | None = None
    has_loungers: bool | None = None
    has_water_slide: bool | None = None
    has_pool_bar: bool | None = None
    has_pool_cover: bool | None = None
    has_free_towels: bool | None = None
    has_pool_toys: bool | None = None
    has_sun_umbrellas: bool | None = None
    has_fence_around_pool: bool | None = None
    has_snake_trap: bool | None = None
    is_shared: bool | None = None
    is_rooftop: bool | None = None
    is_shallow_end: bool | None = None
    is_infinity: bool | None = None
    is_heated: bool | None = None
    is_salt_water: bool | None = None
    is_pool_with_view: bool | None = None
    is_plunge_pool: bool | None = None


class Timestamp(Body):
    epoch_seconds: int | None = None


class ClosedPeriod(Body):
    start_date: Timestamp | None = None
    end_date: Timestamp | None = None


class TemporarilyClosedDetails(Body):
    closed: list[ClosedPeriod] = []


class Instance(Body):
    """One instance of a property facility: the detail objects the meta allows for its facility."""

    instance_id: int | None = None
    restaurant_details: RestaurantDetails | None = None
    parking_details: ParkingDetails | None = None
    payment_details: PaymentDetails | None = None
    swimming_pool_details: SwimmingPoolDetails | None = None
    internet_details: InternetDetails | None = None
    kids_pool_details: KidsPoolDetails | None = None
    on_site_details: OnsiteDetails | None = None
    age_limit_details: AgeLimitDetails | None = None
    schedule_details: ScheduleDetails | None = None
    temporarily_closed_details: TemporarilyClosedDetails | None = None
    surcharge_details: SurchargeDetails | None = None
    meal_details: MealDetails | None = None


class PropertyFacilityMeta(Body):
    facility_id: int
    ota_hotel_amenity_type: int | None = None
    booking_extended_legacy_code: int | None = None
    facility_name: str | None = None
    allowed_details_list: list[str] | None = None
    required_details_list: list[str] | None = None


class PropertyFacility(Body):
    """An element of the property PUT body (and of the GET's ``data``)."""

    facility_id: int
    state: State
    instances: list[Instance] | None = None
    property_facility_meta: PropertyFacilityMeta | None = None  # read only, with ``debugInfo=true``


class LinenDetails(Body):
    has_crib_linen: bool | None = None
    has_fitted_sheet: bool | None = None
    has_top_sheet: bool | None = None
    has_blanket: bool | None = None
    has_extra_blankets: bool | None = None
    has_pillow: bool | None = None
    has_mattress_protector: bool | None = None


class CribDetails(Body):
    is_foldable: bool | None = None
    is_standalone: bool | None = None


class RoomFacilityInstance(Body):
    linen_details: LinenDetails | None = None
    crib_details: CribDetails | None = None


class RoomFacilityMeta(Body):
    room_facility_id: int
    ota_room_amenity_type: int | None = None
    booking_extended_legacy_code: int | None = None
    room_facility_name: str | None = None
    allowed_details_list: list[str] | None = None


class RoomFacility(Body):
    """An element of the room PUT body (and of its GET's ``data``)."""

    room_facility_id: int
    state: State
    room_facility_instances: list[RoomFacilityInstance] | None = None
    room_facility_meta: RoomFacilityMeta | None = None  # read only, with ``debugInfo=true``


BathroomLocation = Literal["ENSUITE", "NEXT_DOOR", "DOWN_THE_HALL", "OPPOSITE_THE_ROOM", "IN_THE_HALLWAY", "OTHER",
                           "INSIDE_THE_UNIT"]


class HostelBathroomFacility(Body):
    type: Literal["SHOWER", "TOILET", "SINK", "BATH", "TOILET_PAPER", "HAIR_DRYER", "SLIPPERS", "BIDET", "TOOTHBRUSH",
                  "SHAMPOO", "CONDITIONER", "BODY_SOAP", "TOWEL", "HOT_WATER"]
    count: Annotated[int, Field(ge=1, le=100)] | None = None
    is_paid: bool | None = None


class HostelBathroomDetails(Body):
    bathroom_facilities: Annotated[list[HostelBathroomFacility], Field(min_length=1)]
    gender: Literal["FEMALE", "MALE", "MIXED"] | None = None
    num_guests_with_access_type: Literal["NUMBER_LESS_THAN_5", "NUMBER_5_TO_10", "NUMBER_11_TO_20", "NUMBER_21_TO_30",
                                         "NUMBER_31_TO_40", "NUMBER_41_TO_50", "NUMBER_MORE_THAN_50"] | None = None


class Bathroom(Body):
    bathroom_type: Literal["PRIVATE", "SHARED"]
    id: int | None = None
    bathroom_location: BathroomLocation | None = None
    hostel_bathroom_details: HostelBathroomDetails | None = None


class PropertyBathroomDetails(Body):
    """Homes and hostels."""

    bathrooms: Annotated[list[Bathroom], Field(max_length=20)]


class PrivateBathroomDetails(Body):
    type: Literal["DEFAULT", "EXTERNAL_BATHROOM", "ATTACHED_BATHROOM"] | None = None
    location_type: Literal["DEFAULT", "NEXT_DOOR", "DOWN_THE_HALL", "ACROSS_FROM_THE_ROOM", "IN_THE_LOBBY",
                           "OTHER"] | None = None
    location_other: str | None = None


class HotelBathroomDetails(Body):
    """Hotels: both states and the count (private + shared) are required."""

    private_bathroom_state: State
    shared_bathroom_state: State
    number_of_bathrooms: Annotated[int, Field(ge=0, le=20)]
    private_bathroom_details: PrivateBathroomDetails | None = None

    @model_validator(mode="after")
    def _count_matches_states(self, info: ValidationInfo) -> HotelBathroomDetails:
        none = self.private_bathroom_state == "MISSING" and self.shared_bathroom_state == "MISSING"
        if not is_answer(info) and none != (self.number_of_bathrooms == 0):
            raise ValueError("number_of_bathrooms is 0 exactly when both bathroom states are MISSING")
        return self


class BathroomDetails(Body):
    """The bathrooms PUT body (and its GET's ``data``)."""

    property_bathroom_details: PropertyBathroomDetails | None = None
    hotel_bathroom_details: HotelBathroomDetails | None = None


class BathroomOption(Body):
    bathroom_type: Literal["PRIVATE", "SHARED"] | None = None
    bathroom_locations: list[BathroomLocation] | None = None


class BathroomConfiguration(Body):
    unit_type_id: int
    unit_type_name: str | None = None
    allowed_options: list[BathroomOption] | None = None


class FacilityMeta(Body):
    """``GET /facilities-api/meta``."""

    property_facility_metas: list[PropertyFacilityMeta] = []
    room_facility_metas: list[RoomFacilityMeta] = []
    bathroom_configurations: list[BathroomConfiguration] = []
