"""The ``meta`` answers of the sandbox's modular APIs: the code crosswalks a workbook written with OTA codes needs.

Shapes from the published descriptions (platform-now.md 3.1, 3.3-3.5): property categories with their OTA
codes (``GET /property-api/meta``), facilities with their OTA HAC / RMA codes and detail lists, bathroom
configurations (``GET /facilities-api/meta``), charge types with their OTA fee/tax codes and charge modes
(``GET /charges-api/meta``), unit types per property category, unit names and bed types (``GET
/rooms-api/meta``). The ids the descriptions name are theirs (parking 2, restaurant 3, internet 47, swimming
pool 433, breakfast 9111, lunch 9114, kid meals 176, kids pool 258; room linen 125, cot 175); the other ids and
codes are the sandbox's examples in the published shape (the real crosswalk is read from the platform).
"""

from __future__ import annotations

from typing import Any

PROPERTY_CATEGORIES: list[dict[str, Any]] = [
    {"code": 204, "name": "Hotel", "code_ota": 20, "additional_ota_mappings": [{"code": 204, "name": "Hotel",
                                                                              "code_ota": 21}]},
    {"code": 216, "name": "Guest house", "code_ota": 16},
    {"code": 201, "name": "Apartment", "code_ota": 3},
    {"code": 203, "name": "Hostel", "code_ota": 9},
    {"code": 220, "name": "Holiday home", "code_booking_extended": 5006},
]


def _facility(fid: int, name: str, allowed: list[str], required: list[str] | None = None, *, hac: int | None = None,
              legacy: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"facility_id": fid, "facility_name": name, "allowed_details_list": allowed,
                           "required_details_list": required or []}
    if hac is not None:
        out["ota_hotel_amenity_type"] = hac
    if legacy is not None:
        out["booking_extended_legacy_code"] = legacy
    return out


PROPERTY_FACILITIES: list[dict[str, Any]] = [
    _facility(2, "Parking", ["ParkingDetails", "PaymentDetails"], ["ParkingDetails", "PaymentDetails"], hac=68),
    _facility(3, "Restaurant", ["RestaurantDetails", "ScheduleDetails", "TemporarilyClosedDetails"],
              ["RestaurantDetails"], hac=76),
    _facility(47, "Internet services", ["InternetDetails", "PaymentDetails"], ["InternetDetails", "PaymentDetails"],
              hac=178),
    _facility(76, "Cycling", ["OnsiteDetails", "SurchargeDetails"], hac=5044),
    _facility(109, "Business centre", [], hac=228),
    _facility(110, "Sauna", ["SurchargeDetails"], legacy=5032),
    _facility(176, "Kid meals", ["AgeLimitDetails"], legacy=5040),
    _facility(258, "Kids pool", ["KidsPoolDetails"], legacy=5041),
    _facility(433, "Swimming pool", ["SwimmingPoolDetails", "SurchargeDetails", "ScheduleDetails",
                                     "TemporarilyClosedDetails"], ["SwimmingPoolDetails"], hac=71),
    _facility(9111, "Breakfast", ["MealDetails", "ScheduleDetails"], ["MealDetails"], hac=173),
    _facility(9114, "Lunch", ["MealDetails"], ["MealDetails"], legacy=6000),
    _facility(9115, "Dinner", ["MealDetails"], ["MealDetails"], legacy=6001),
    _facility(500, "Laundry", ["SurchargeDetails", "ScheduleDetails"], hac=262),
    _facility(501, "Fitness centre", ["OnsiteDetails", "SurchargeDetails"], hac=35),
    _facility(502, "Airport shuttle", ["SurchargeDetails"], hac=282),
]

ROOM_FACILITIES: list[dict[str, Any]] = [
    {"room_facility_id": 11, "ota_room_amenity_type": 2, "room_facility_name": "Air conditioning",
     "allowed_details_list": []},
    {"room_facility_id": 38, "ota_room_amenity_type": 92, "room_facility_name": "Safe", "allowed_details_list": []},
    {"room_facility_id": 63, "ota_room_amenity_type": 123, "room_facility_name": "Wi-Fi", "allowed_details_list": []},
    {"room_facility_id": 80, "ota_room_amenity_type": 251, "room_facility_name": "TV", "allowed_details_list": []},
    {"room_facility_id": 93, "ota_room_amenity_type": 228, "room_facility_name": "Balcony",
     "allowed_details_list": []},
    {"room_facility_id": 125, "booking_extended_legacy_code": 5090, "room_facility_name": "Linen",
     "allowed_details_list": ["LinenDetails"]},
    {"room_facility_id": 175, "ota_room_amenity_type": 166, "room_facility_name": "Cot",
     "allowed_details_list": ["CribDetails"]},
]

BATHROOM_CONFIGURATIONS: list[dict[str, Any]] = [
    {"unit_type_id": 1, "unit_type_name": "Apartment", "allowed_options": [
        {"bathroom_type": "PRIVATE", "bathroom_locations": ["ENSUITE", "NEXT_DOOR"]}]},
    {"unit_type_id": 26, "unit_type_name": "Bed in dormitory", "allowed_options": [
        {"bathroom_type": "PRIVATE", "bathroom_locations": []},
        {"bathroom_type": "SHARED", "bathroom_locations": ["DOWN_THE_HALL", "IN_THE_HALLWAY"]}]},
]


def _charge(cid: str, name: str, category: str, modes: list[str], *, ota: list[int] | None = None,
            legacy: list[int] | None = None, **extra: Any) -> dict[str, Any]:
    return {"charge_type_id": cid, "charge_type_name": name, "ota_fee_tax_types": ota or [],
            "booking_extended_legacy_code": legacy or [], "charge_category": category, "allowed_charge_modes": modes,
            **extra}


_ANY_MODE = ["PERCENTAGE", "PER_STAY", "PER_NIGHT", "PER_PERSON_PER_STAY", "PER_PERSON_PER_NIGHT"]
_FEE_MODES = ["PER_STAY", "PER_NIGHT", "PER_PERSON_PER_STAY", "PER_PERSON_PER_NIGHT", "INCALCULABLE"]
CHARGE_TYPES: list[dict[str, Any]] = [
    _charge("VAT", "VAT", "TAXES", ["PERCENTAGE"], ota=[19, 36]),
    _charge("TAX", "Tax", "TAXES", _ANY_MODE, ota=[13]),
    _charge("GOODS_AND_SERVICES_TAX", "Goods and services tax", "TAXES", ["PERCENTAGE"], ota=[8]),
    _charge("CITYTAX", "City tax", "LOCALITY_CHARGES", _ANY_MODE, ota=[3]),
    _charge("TOURISMFEE", "Tourism fee", "LOCALITY_CHARGES", _ANY_MODE, ota=[10]),
    _charge("SERVICECHARGE", "Service charge", "PROPERTY_CHARGES", _ANY_MODE, ota=[14]),
    _charge("RESORTFEE", "Resort fee", "PROPERTY_CHARGES", _FEE_MODES, ota=[12]),
    _charge("CLEANINGFEE", "Cleaning fee", "PROPERTY_CHARGES", _FEE_MODES, legacy=[5009]),
    _charge("ELECTRICITYFEE", "Electricity fee", "PROPERTY_CHARGES", ["PER_STAY", "INCALCULABLE"], legacy=[5007]),
    _charge("TOWELFEE", "Towel fee", "PROPERTY_CHARGES", _FEE_MODES, legacy=[5010]),
    _charge("INTERNETFEE", "Internet fee", "FACILITY_CHARGES", ["PER_STAY", "PER_NIGHT"], legacy=[5035]),
    _charge("PARKINGFEE", "Parking fee", "FACILITY_CHARGES", ["PER_STAY", "PER_NIGHT"], legacy=[5036]),
    _charge("SUSTAINABILITYFEE", "Sustainability fee", "PROPERTY_CHARGES", _FEE_MODES, legacy=[5042]),
    _charge("SERVICECHARGE_ASIA", "Service charge", "PROPERTY_CHARGES", ["PERCENTAGE"], ota=[], legacy=[],
            discontinued=True, discontinuation_notice="use SERVICECHARGE"),
]

UNIT_TYPES: list[dict[str, Any]] = [
    {"unit_type_id": 1, "unit_type_name": "Apartment", "is_multi_room": True, "is_active": True,
     "valid_property_categories": [201, 204, 216, 220], "suggested_unit_names": [{"unit_name_id": 865,
                                                                                "unit_name": "Two-Bedroom Apartment"}]},
    {"unit_type_id": 7, "unit_type_name": "Triple", "is_multi_room": False, "is_active": True,
     "valid_property_categories": [203, 204, 216], "suggested_unit_names": [{"unit_name_id": 400,
                                                                           "unit_name": "Triple Room"}]},
    {"unit_type_id": 8, "unit_type_name": "Twin", "is_multi_room": False, "is_active": True,
     "valid_property_categories": [203, 204, 216], "suggested_unit_names": [{"unit_name_id": 300,
                                                                           "unit_name": "Twin Room"}]},
    {"unit_type_id": 9, "unit_type_name": "Double", "is_multi_room": False, "is_active": True,
     "valid_property_categories": [201, 203, 204, 216], "suggested_unit_names": [
         {"unit_name_id": 255, "unit_name": "Double Room"}, {"unit_name_id": 256, "unit_name": "Deluxe Double Room"}]},
    {"unit_type_id": 10, "unit_type_name": "Single", "is_multi_room": False, "is_active": True,
     "valid_property_categories": [203, 204, 216], "suggested_unit_names": [{"unit_name_id": 69,
                                                                           "unit_name": "Single Room"}]},
    {"unit_type_id": 12, "unit_type_name": "Suite", "is_multi_room": True, "is_active": True,
     "valid_property_categories": [204, 216], "suggested_unit_names": [{"unit_name_id": 500,
                                                                      "unit_name": "Junior Suite"}]},
    {"unit_type_id": 13, "unit_type_name": "Family", "is_multi_room": False, "is_active": True,
     "valid_property_categories": [203, 204, 216], "suggested_unit_names": [{"unit_name_id": 600,
                                                                           "unit_name": "Family Room"}]},
    {"unit_type_id": 26, "unit_type_name": "Bed in dormitory", "is_multi_room": False, "is_active": True,
     "valid_property_categories": [203], "suggested_unit_names": [{"unit_name_id": 700,
                                                                 "unit_name": "Bed in 6-Bed Dormitory"}]},
    {"unit_type_id": 31, "unit_type_name": "Villa", "is_multi_room": True, "is_active": False,
     "valid_property_categories": [220], "suggested_unit_names": []},
]

UNIT_NAMES: list[dict[str, Any]] = [{"unit_name_id": i, "unit_name": n} for i, n in (
    (69, "Single Room"), (255, "Double Room"), (256, "Deluxe Double Room"), (300, "Twin Room"), (400, "Triple Room"),
    (500, "Junior Suite"), (600, "Family Room"), (700, "Bed in 6-Bed Dormitory"), (865, "Two-Bedroom Apartment"))]

BED_TYPES: list[dict[str, Any]] = [
    {"bed_type_id": 1, "bed_type_name": "Single bed", "bed_type_description": "90-130 cm wide",
     "bed_type_description_imperial": "35-51 inches wide", "is_active": True},
    {"bed_type_id": 3, "bed_type_name": "Double bed", "bed_type_description": "131-150 cm wide", "is_active": True},
    {"bed_type_id": 4, "bed_type_name": "Large double bed", "bed_type_description": "151-180 cm wide",
     "is_active": True},
    {"bed_type_id": 6, "bed_type_name": "Extra-large double bed", "bed_type_description": "181-210 cm wide",
     "is_active": True},
    {"bed_type_id": 5, "bed_type_name": "Sofa bed", "bed_type_description": "Variable size", "is_active": True},
    {"bed_type_id": 8, "bed_type_name": "Bunk bed", "bed_type_description": "Variable size", "is_active": True},
    {"bed_type_id": 7, "bed_type_name": "Futon", "is_active": False},
]

UNIT_CATEGORIES: list[dict[str, Any]] = [{"category_id": 4, "category_name": "Standard"},
                                         {"category_id": 5, "category_name": "Deluxe"}]


def facility(facility_id: object) -> dict[str, Any] | None:
    return next((f for f in PROPERTY_FACILITIES if f["facility_id"] == facility_id), None)


def room_facility(room_facility_id: object) -> dict[str, Any] | None:
    return next((f for f in ROOM_FACILITIES if f["room_facility_id"] == room_facility_id), None)


def charge_type(charge_type_id: object) -> dict[str, Any] | None:
    return next((c for c in CHARGE_TYPES if c["charge_type_id"] == charge_type_id), None)


def unit_type(unit_type_id: object) -> dict[str, Any] | None:
    return next((u for u in UNIT_TYPES if u["unit_type_id"] == unit_type_id), None)


def bed_type(bed_type_id: object) -> dict[str, Any] | None:
    return next((b for b in BED_TYPES if b["bed_type_id"] == bed_type_id), None)


def category_of(property_category: object, booking_category: object) -> int | None:
    """The platform's category (``code``) of a property: its ``booking_property_category``, else the category of
    its OTA ``property_category``."""
    if isinstance(booking_category, int) and any(c["code"] == booking_category for c in PROPERTY_CATEGORIES):
        return booking_category
    if property_category is None:
        return None
    for c in PROPERTY_CATEGORIES:
        ota = [c.get("code_ota"), *(m["code_ota"] for m in c.get("additional_ota_mappings", []))]
        if property_category in ota:
            return int(c["code"])
    return None


def details_key(name: str) -> str:
    """A detail type as the meta names it (``ParkingDetails``) -> the instance's member (``parking_details``)."""
    out = "".join(f"_{ch.lower()}" if ch.isupper() else ch for ch in name).lstrip("_")
    return out.replace("onsite_details", "on_site_details")
