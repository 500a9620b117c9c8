"""Regenerate ``platform_rooms.xlsx`` (run: ``python data/samples/_generate_platform_rooms.py``).

The room-type facts the platform sandbox holds for the sample properties, on top of the
registry's ``Rooms`` (names and occupancy): room type codes, beds, amenities and sub-rooms. It is
the platform's side ("what is stored"), not an analyst's input; ``rooms.xlsx`` is that.
Codes: RoomType is a BCRT room type code (data/codes/room_types.csv), amenity codes are RMA
codes (data/codes/rma.csv, bed types in data/codes/bed_types.csv).
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

HERE = Path(__file__).resolve().parent

ROOM_TYPES = [
    # HotelCode, InvCode, RoomID, RoomType, NonSmoking, SizeMeasurement, SizeMeasurementUnit, Quantity,
    # MaxChildPayableOccupancy, MaximumAdditionalGuests, MaxCribs, MaxRollaways
    (1000001, "101", 11, "9", 1, 18, "sqm", 20, None, 1, 1, 1),
    (1000001, "102", 12, "5", 1, 35, "sqm", 4, 1, 2, 1, 1),
    (1000002, "201", 21, "9", 1, 16, "sqm", 8, None, None, None, None),
    (1000002, "202", 22, "7", 2, 22, "sqm", 4, 1, 1, 1, 0),
    (1000003, "301", 31, "8", 1, 215, "sqft", 12, 1, None, None, None),
    (1000003, "302", 32, "10", 1, 120, "sqft", 6, None, None, None, None),
    (1000004, "401", 41, "9", 1, 20, "sqm", 6, None, 1, 1, 0),
    (1000004, "402", 42, "1", 1, 70, "sqm", 2, 1, 1, 1, 0),
    (1000005, "501", 51, "12", 0, 28, "sqm", 3, None, None, None, None),
]
SUB_ROOMS = [
    # HotelCode, InvCode, SubRoom, RoomType, MaxGuests, Number, PrivateBathroom
    (1000004, "402", 1, "Bedroom", 2, None, 1),
    (1000004, "402", 2, "Bedroom", 2, None, 0),
    (1000004, "402", 3, "Living room", 1, 1, None),
    (1000004, "402", 4, "Bathroom", None, 2, None),
]
AMENITIES = [
    # HotelCode, InvCode, SubRoom (blank: the room itself), RoomAmenityCode, Quantity, Configuration, Name
    (1000001, "101", None, "33", 1, 1, "Double bed (standard arrangement)"),
    (1000001, "101", None, "113", 2, 2, "Twin beds (alternative arrangement)"),
    (1000001, "101", None, "2", None, None, "Air conditioning"),
    (1000001, "101", None, "123", None, None, "Wireless internet connection"),
    (1000001, "101", None, "50", None, None, "Hairdryer"),
    (1000001, "102", None, "58", 1, 1, "King bed (standard arrangement)"),
    (1000001, "102", None, "102", 1, 1, "Sofa bed (standard arrangement)"),
    (1000001, "102", None, "33", 1, 2, "Double bed (alternative arrangement)"),
    (1000001, "102", None, "102", 1, 2, "Sofa bed (alternative arrangement): the same code in both"),
    (1000001, "102", None, "2", None, None, "Air conditioning"),
    (1000001, "102", None, "69", None, None, "Minibar"),
    (1000001, "102", None, "13", None, None, "Bathtub"),
    (1000002, "201", None, "33", 1, None, "Double bed"),
    (1000002, "201", None, "142", None, None, "Shower"),
    (1000002, "202", None, "203", 3, None, "Single beds"),
    (1000002, "202", None, "142", None, None, "Shower"),
    (1000003, "301", None, "113", 2, None, "Twin beds"),
    (1000003, "301", None, "251", None, None, "TV"),
    (1000003, "302", None, "203", 1, None, "Single bed"),
    (1000004, "401", None, "86", 1, None, "Queen bed"),
    (1000004, "401", None, "92", None, None, "Safe"),
    (1000004, "401", None, "19", None, None, "Coffee/Tea maker"),
    (1000004, "402", None, "59", None, None, "Kitchen"),
    (1000004, "402", None, "2", None, None, "Air conditioning"),
    (1000004, "402", None, "123", None, None, "Wireless internet connection"),
    (1000004, "402", 1, "58", 1, None, "King bed in bedroom 1"),
    (1000004, "402", 2, "113", 2, None, "Twin beds in bedroom 2"),
    (1000004, "402", 3, "102", 1, None, "Sofa bed in the living room"),
    (1000005, "501", None, "61", None, None, "Kitchenette"),
    (1000005, "501", None, "86", 1, None, "Queen bed"),
]


def _sheet(wb: Workbook, title: str, header: list[str], rows: list[tuple]) -> None:
    ws = wb.create_sheet(title)
    ws.append(header)
    for row in rows:
        ws.append(list(row))
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.freeze_panes = "A2"


def write_platform_rooms(path: Path = HERE / "platform_rooms.xlsx") -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    _sheet(wb, "RoomTypes", ["HotelCode", "InvCode", "RoomID", "RoomType", "NonSmoking", "SizeMeasurement",
                             "SizeMeasurementUnit", "Quantity", "MaxChildPayableOccupancy", "MaximumAdditionalGuests",
                             "MaxCribs", "MaxRollaways"], ROOM_TYPES)
    _sheet(wb, "SubRooms", ["HotelCode", "InvCode", "SubRoom", "RoomType", "MaxGuests", "Number", "PrivateBathroom"],
           SUB_ROOMS)
    _sheet(wb, "Amenities", ["HotelCode", "InvCode", "SubRoom", "RoomAmenityCode", "Quantity", "Configuration", "Name"],
           AMENITIES)
    wb.save(path)
    return path


if __name__ == "__main__":
    print(write_platform_rooms())
