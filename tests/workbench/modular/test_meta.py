"""The meta crosswalks: OTA codes (and Booking.com extended codes) to the modular ids, and back."""

from __future__ import annotations

from workbench.modular.meta import ModularMeta


def test_property_categories_by_ota_code_and_remapped_codes(meta: ModularMeta) -> None:
    assert meta.category_for_ota(20).code == 204
    assert meta.category_for_ota(21).code == 204  # an additional OTA mapping
    assert meta.category_for_ota(99) is None
    assert meta.category(216).code_ota == 16


def test_facilities_by_hac_or_extended_code(meta: ModularMeta) -> None:
    assert meta.facility_for_code(173).facility_id == 9111
    assert meta.facility_for_code(5032).facility_id == 110  # booking_extended_legacy_code
    assert meta.facility_for_code(1) is None
    assert meta.facility(9111).required_details_list == ["MealDetails"]
    assert meta.room_facility_for_code(166).room_facility_id == 175
    assert meta.room_facility_for_code(5090).room_facility_id == 125
    assert meta.room_facility(11).ota_room_amenity_type == 2


def test_charge_types_by_either_legacy_code(meta: ModularMeta) -> None:
    assert meta.charge_type_for_code(19).charge_type_id == "VAT"
    assert meta.charge_type_for_code(36).charge_type_id == "VAT"
    assert meta.charge_type_for_code(5009).charge_type_id == "CLEANINGFEE"
    assert meta.charge_type("SNOWFEE").booking_extended_legacy_code == [5099]  # a type newer than the enum
    assert meta.charge_type_for_code(12345) is None


def test_rooms_meta(meta: ModularMeta) -> None:
    assert meta.unit_type(9).is_multi_room is False and meta.unit_type(31).is_active is False
    assert meta.unit_name(865).unit_name == "Two-Bedroom Apartment"
    assert meta.unit_name_for_text("  double room ").unit_name_id == 255
    assert meta.bed_type(7).is_active is False


def test_nothing_read_maps_nothing() -> None:
    empty = ModularMeta()
    assert empty.facility_for_code(173) is None and empty.charge_type_for_code(36) is None
    assert empty.category_for_ota(20) is None and empty.unit_type(9) is None
