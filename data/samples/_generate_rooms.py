"""Regenerate ``rooms.xlsx`` (run: ``python data/samples/_generate_rooms.py``).

An analyst's room-type workbook "as received": sheets ``Rooms``, ``SubRooms`` and ``Amenities``
for the sample properties (see ``registry.xlsx``), with the deliberate problems listed in
README.md here. The first rows of each sheet are clean; the problems follow them.
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

HERE = Path(__file__).resolve().parent

ROOMS_HEADER = ["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "MaxOccupancy", "MaxAdultOccupancy",
                "MaxChildOccupancy", "MaxChildPayableOccupancy", "Quantity", "NonSmoking", "SizeMeasurement",
                "SizeMeasurementUnit", "MaximumAdditionalGuests", "MaxCribs", "MaxRollaways", "Active", "SubRoomCount"]
ROOMS = [
    # clean: an existing room (overlay: every attribute of its Room part stated, RoomID included, because the
    # platform's read does not give RoomID, size or units) and two room types to create
    (1000001, "101", 11, 9, "Standard Double Room", 3, 2, 1, 1, 12, 1, 18, "sqm", 1, 1, 1),
    (1000001, None, 1003, "Twin", "Deluxe Twin Room", 2, 2, 0, None, 4, 1, 22, "sqm", None, None, None),
    (1000004, None, 4003, "Apartment", "Two-Bedroom Apartment", 4, 4, 2, 2, 2, 2, 65, "sqm", 1, 1, 0),
    # problems (rows 5-10)
    (1000002, "201", None, 9, "Double Room", 4, 2, 1, None, None, 1, None, None, None, None, None),  # total
    (1000002, "202", None, 7, "Triple Room", 2, 2, 2, 3, None, 1, None, None, None, None, None),  # children
    (1000003, None, 3003, None, "Japanese Style Room", 4, 4, 2, None, 1, 1, None, None, None, None, None),
    (1000005, None, 5002, "Apartment", "Studio Apartment", 2, 2, 0, None, 1, 3, 30, "m", 2, 1, 1),
    (1000005, None, 5003, "Igloo", "Snow Igloo", 2, 2, 0, None, 1, 1, None, None, None, None, None),
    (1000003, "301", None, 8, "Twin Room", 3, 3, 1, None, None, 1, None, None, 1, 2, 0),
    # problems (rows 11-12)
    (1000004, "402", None, None, None, None, None, None, None, None, None, None, None, None, None, None, None, 4),
    (1000002, None, 2003, "Double", "Garden Double", 2, 2, 0, None, 1, 1, None, None, None, None, None, 0),
]

SUBROOMS_HEADER = ["HotelCode", "InvCode", "RoomID", "SubRoom", "RoomType", "MaxGuests", "Number",
                   "PrivateBathroom"]
SUBROOMS = [
    (1000004, None, 4003, "Bedroom 1", "Bedroom", 2, None, 1),
    (1000004, None, 4003, "Bedroom 2", "Bedroom", 2, None, 0),
    (1000004, None, 4003, "Bathroom 1", "Bathroom", None, 2, None),
    (1000004, None, 4003, "Living room 1", "Living room", 1, 1, None),
    # problems (rows 6-7)
    (1000001, "101", None, "Bedroom 1", "Bedroom", 2, None, None),  # Double room: no sub-rooms
    (1000004, None, 4003, "Bedroom 3", "Bedroom", 2, 2, 0),  # Number on a Bedroom
]

AMENITIES_HEADER = ["HotelCode", "InvCode", "RoomID", "SubRoom", "AmenityCode", "RoomAmenityCode", "Value",
                    "Configuration"]
AMENITIES = [
    (1000001, "101", None, None, 2, None, None, None),      # air conditioning
    (1000001, "101", None, None, 69, None, None, None),     # minibar
    (1000001, "101", None, None, 86, None, 1, 1),           # queen bed, standard arrangement
    (1000001, "101", None, None, 3, None, "remove", None),  # remove the alarm clock
    (1000001, None, 1003, None, 113, None, 2, None),        # two twin beds
    (1000001, None, 1003, None, 2, 2, None, None),
    (1000004, None, 4003, "Bedroom 1", 33, None, 1, None),
    (1000004, None, 4003, "Bedroom 2", 113, None, 2, None),
    (1000004, None, 4003, "Living room 1", 102, None, 1, None),
    (1000004, None, 4003, None, 59, None, None, None),      # kitchen
    # problems (rows 12-18)
    (1000004, None, 4003, "Bedroom 1", 69, None, 1, None),  # minibar in a bedroom
    (1000004, None, 4003, None, 58, None, 1, None),         # king bed in the apartment's own amenities
    (1000001, "101", None, None, 5, None, None, 1),         # Configuration on a radio
    (1000001, None, 1003, None, 5, 6, None, None),          # AmenityCode and RoomAmenityCode differ
    (1000001, None, 1003, None, 9999, None, None, None),    # unknown code
    (1000004, None, 4003, "Bedroom 2", 86, None, 1, 2),     # Configuration in a multi-room room
    (1000001, None, None, None, 2, None, None, None),       # no room given
]


def write(path: Path = HERE / "rooms.xlsx") -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for title, header, rows in (("Rooms", ROOMS_HEADER, ROOMS), ("SubRooms", SUBROOMS_HEADER, SUBROOMS),
                                ("Amenities", AMENITIES_HEADER, AMENITIES)):
        ws = wb.create_sheet(title)
        ws.append(header)
        for cell in ws[1]:
            cell.font = Font(bold=True)
        for row in rows:
            ws.append(list(row) + [None] * (len(header) - len(row)))
        ws.freeze_panes = "A2"
    wb.save(path)
    return path


if __name__ == "__main__":
    print(write())
