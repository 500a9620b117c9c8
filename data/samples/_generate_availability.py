"""Regenerate ``availability.xlsx`` (run: ``.venv/bin/python data/samples/_generate_availability.py``).

An analyst's availability workbook for the sample properties (data/samples/registry.xlsx), in the
three layouts, with the deliberate problems listed in README.md. Dates are fixed (December 2026 to
March 2027); it is checked as of 2026-12-01.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

HERE = Path(__file__).resolve().parent
START, END = dt.date(2026, 12, 1), dt.date(2027, 2, 28)
LONG = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "Closed", "ClosedToArrival",
        "ClosedToDeparture", "MinStayArrival", "MaxStayArrival", "MinStayThrough", "MaxStayThrough"]

#: (what, the row's cells by column) appended at the end of the Amsterdam sheet, in this order.
PROBLEMS: list[tuple[str, dict[str, object]]] = [
    ("rooms_to_sell_range", {"InvTypeCode": "101", "Date": dt.date(2027, 3, 1), "RoomsToSell": 300}),
    ("rooms_to_sell_unlimited", {"InvTypeCode": "101", "Date": dt.date(2027, 3, 2), "RoomsToSell": 255}),
    ("rooms_to_sell_above_quantity", {"InvTypeCode": "102", "Date": dt.date(2027, 3, 1), "RoomsToSell": 30}),
    ("stay_nights", {"InvTypeCode": "101", "RatePlanCode": "5001", "Date": dt.date(2027, 3, 1), "MinStayArrival": 0}),
    ("min_above_max", {"InvTypeCode": "101", "RatePlanCode": "5001", "Date": dt.date(2027, 3, 2),
                       "MinStayArrival": 5, "MaxStayArrival": 3}),
    ("rate_plan_required", {"InvTypeCode": "101", "Date": dt.date(2027, 3, 3), "ClosedToArrival": 1}),
    ("rooms_to_sell_per_room_type", {"InvTypeCode": "101", "RatePlanCode": "5001", "Date": dt.date(2027, 3, 3),
                                     "RoomsToSell": 4}),
    ("child_rate_restriction", {"InvTypeCode": "101", "RatePlanCode": "5002", "Date": dt.date(2027, 3, 4),
                                "MinStayThrough": 2}),
    ("rate_not_active_for_room", {"InvTypeCode": "102", "RatePlanCode": "5003", "Date": dt.date(2027, 3, 4),
                                  "ClosedToDeparture": 1}),
    ("date_window", {"InvTypeCode": "101", "Date": dt.date(2026, 11, 15), "RoomsToSell": 5}),
    ("unknown_room", {"InvTypeCode": "103", "Date": dt.date(2027, 3, 5), "RoomsToSell": 2}),
    ("duplicate_key", {"InvTypeCode": "101", "Date": dt.date(2026, 12, 24), "RoomsToSell": 6}),
    ("not_a_number", {"InvTypeCode": "102", "Date": dt.date(2027, 3, 6), "RoomsToSell": "abc"}),
    ("not_a_flag", {"InvTypeCode": "102", "RatePlanCode": "5001", "Date": dt.date(2027, 3, 6), "Closed": "maybe"}),
]


def days(start: dt.date, end: dt.date) -> list[dt.date]:
    return [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]


def bold_header(ws) -> None:
    for cell in ws[1]:
        cell.font = Font(bold=True)


def amsterdam(ws) -> None:
    """Long layout: rooms to sell per room type and night (fewer at Christmas), the room-rates' stays and
    closures (two nights' minimum stay on arrival at weekends, closed to arrival on Sundays), then the
    problem rows."""
    ws.append(LONG)
    for day in days(START, END):
        christmas = dt.date(2026, 12, 20) <= day <= dt.date(2027, 1, 2)
        ws.append([1000001, "101", None, day, 4 if christmas else 12] + [None] * 7)
        ws.append([1000001, "102", None, day, 1 if christmas else 3] + [None] * 7)
        weekend = day.weekday() in (4, 5)
        ws.append([1000001, "101", "5001", day, None, 1 if day == dt.date(2026, 12, 31) else None,
                   1 if day.weekday() == 6 else None, None, 2 if weekend else None, 14, None, None])
    for _, cells in PROBLEMS:
        ws.append([cells.get(c, 1000001 if c == "HotelCode" else None) for c in LONG])
    for row in ws.iter_rows(min_row=2, min_col=4, max_col=4):
        row[0].number_format = "yyyy-mm-dd"
    bold_header(ws)


def lisbon_weekends(ws) -> None:
    """Range layout: Lisbon's weekends of the season and the LOS property's minimum stay (refused)."""
    ws.append(["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End", "Mon", "Tue", "Wed", "Thu", "Fri",
               "Sat", "Sun", "MinStayArrival", "ClosedToDeparture"])
    ws.append([1000004, "401", "8001", dt.date(2026, 12, 1), dt.date(2027, 2, 28), None, None, None, None, 1, 1, None,
               2, None])
    ws.append([1000004, "402", "8001", dt.date(2026, 12, 1), dt.date(2027, 2, 28), None, None, None, None, None,
               None, 1, None, 1])
    ws.append([1000005, "501", "9001", dt.date(2027, 1, 2), dt.date(2027, 1, 30), None, None, None, None, None, 1,
               None, 7, None])  # Zermatt is on LOS pricing: los_pricing_restriction
    bold_header(ws)


def rooms_to_sell_wide(ws) -> None:
    """Wide layout, one restriction per sheet named after it: Lisbon's rooms to sell in December."""
    nights = days(dt.date(2026, 12, 1), dt.date(2026, 12, 31))
    ws.append(["HotelCode", "InvTypeCode", "RatePlanCode", *[d.isoformat() for d in nights]])
    ws.append([1000004, "401", None, *[2 if d.weekday() in (4, 5) else 5 for d in nights]])
    ws.append([1000004, "402", None, *[1 if d.day < 24 else 0 for d in nights]])
    bold_header(ws)


def write() -> None:
    wb = Workbook()
    first = wb.active
    assert first is not None
    first.title = "Amsterdam"
    amsterdam(first)
    lisbon_weekends(wb.create_sheet("Lisbon weekends"))
    rooms_to_sell_wide(wb.create_sheet("RoomsToSell"))
    notes = wb.create_sheet("Notes")
    notes.append(["Availability for the winter season; blank cells keep what the platform has."])
    old = wb.create_sheet("Old")
    old.append(LONG)
    old.append([1000001, "101", None, dt.date(2026, 12, 1), 99] + [None] * 7)
    old.sheet_state = "hidden"
    wb.save(HERE / "availability.xlsx")


if __name__ == "__main__":
    write()
