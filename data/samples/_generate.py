"""Regenerate the sample inputs in this folder (run: ``python data/samples/_generate.py``).

The samples are inputs "as received" from a hotel group; they carry a few deliberate problems
(see README.md here). Dates are fixed in 2027 and the demo runs with ``--as-of 2026-12-01``,
so the samples stay meaningful whatever today's date is.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

HERE = Path(__file__).resolve().parent
AS_OF = dt.date(2026, 12, 1)

PROPERTIES = [
    # HotelCode, HotelName, CurrencyCode, PricingModel, CountryCode
    (1000001, "Hotel Aurora Amsterdam", "EUR", "Standard", "NL"),
    (1000002, "Pensjonat Wawel Krakow", "PLN", "Standard", "PL"),
    (1000003, "Tokyo Bay Inn", "JPY", "OBP", "JP"),
    (1000004, "Casa do Rio Lisboa", "EUR", "Standard", "PT"),
    (1000005, "Chalet Edelweiss Zermatt", "CHF", "LOS", "CH"),
]
ROOMS = [
    # HotelCode, InvTypeCode, RoomName, MaxOccupancy, MaxAdultOccupancy, MaxChildOccupancy
    (1000001, "101", "Standard Double Room", 3, 2, 1),
    (1000001, "102", "Junior Suite", 5, 4, 2),
    (1000002, "201", "Double Room", 2, 2, 0),
    (1000002, "202", "Triple Room", 4, 3, 1),
    (1000003, "301", "Twin Room", 3, 3, 1),
    (1000003, "302", "Single Room", 1, 1, 0),
    (1000004, "401", "Double Room with River View", 2, 2, 0),
    (1000004, "402", "Family Apartment", 5, 4, 2),
    (1000005, "501", "Chalet Studio", 2, 2, 0),
]
ROOM_RATES = [
    # HotelCode, InvTypeCode, RatePlanCode, RateName, Active, ParentRatePlanCode, FollowsPrice, ReadOnly
    (1000001, "101", "5001", "Standard rate", 1, None, 0, 0),
    (1000001, "102", "5001", "Standard rate", 1, None, 0, 0),
    (1000001, "101", "5002", "Non-refundable", 1, "5001", 1, 0),
    (1000001, "102", "5002", "Non-refundable", 1, "5001", 1, 0),
    (1000001, "101", "5003", "Bed and breakfast", 1, None, 0, 0),
    (1000001, "102", "5003", "Bed and breakfast", 0, None, 0, 0),
    (1000001, "101", "5004", "Member rate", 1, "5001", 0, 0),
    (1000001, "102", "5005", "Opaque partner rate", 1, None, 0, 1),
    (1000002, "201", "6001", "Flexible", 1, None, 0, 0),
    (1000002, "202", "6001", "Flexible", 1, None, 0, 0),
    (1000002, "201", "6002", "Weekly saver", 1, None, 0, 0),
    (1000003, "301", "7001", "Room only", 1, None, 0, 0),
    (1000003, "302", "7001", "Room only", 1, None, 0, 0),
    (1000004, "401", "8001", "Best available", 1, None, 0, 0),
    (1000004, "402", "8001", "Best available", 1, None, 0, 0),
    (1000005, "501", "9001", "Ski week", 1, None, 0, 0),
]


def days(start: dt.date, end: dt.date):
    d = start
    while d <= end:
        yield d
        d += dt.timedelta(days=1)


def bold_header(ws) -> None:
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.freeze_panes = "A2"


def write_registry() -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Properties"
    ws.append(["HotelCode", "HotelName", "CurrencyCode", "PricingModel", "CountryCode"])
    for row in PROPERTIES:
        ws.append(list(row))
    bold_header(ws)
    ws = wb.create_sheet("Rooms")
    ws.append(["HotelCode", "InvTypeCode", "RoomName", "MaxOccupancy", "MaxAdultOccupancy", "MaxChildOccupancy"])
    for row in ROOMS:
        ws.append(list(row))
    bold_header(ws)
    ws = wb.create_sheet("RoomRates")
    ws.append(["HotelCode", "InvTypeCode", "RatePlanCode", "RateName", "Active", "ParentRatePlanCode",
               "FollowsPrice", "ReadOnly"])
    for row in ROOM_RATES:
        ws.append(list(row))
    bold_header(ws)
    wb.save(HERE / "registry.xlsx")


def amsterdam(ws) -> None:
    ws.append(["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"])
    for room, rate, weekday, weekend in (("101", "5001", 129, 159), ("102", "5001", 219.5, 249.5),
                                         ("101", "5003", 144, 174)):
        for d in days(dt.date(2027, 1, 1), dt.date(2027, 3, 31)):
            amount = weekend if d.weekday() in (4, 5) else weekday
            ws.append([1000001, room, rate, d, amount, "EUR"])
    # deliberate problems
    ws.append([1000001, "101", "5001", dt.date(2027, 2, 14), "12O.50", "EUR"])      # letter O in amount
    ws.append([1000001, "101", "5001", dt.date(2027, 3, 1), 135, "EUR"])           # duplicate key
    ws.append([1000001, "102", "5003", dt.date(2027, 1, 15), 260, "EUR"])          # rate not active for room
    ws.append([1000001, "101", "5002", dt.date(2027, 1, 15), 119, "EUR"])          # child rate follows price
    ws.append([1000001, "102", "5001", dt.date(2026, 11, 15), 219.5, "EUR"])        # date in the past
    ws.append([1000001, "101", "5004", dt.date(2027, 1, 10), 75000, "EUR"])        # above the price cap
    ws.append([1000001, "101", "5004", dt.date(2027, 1, 11), 119, "PLN"])          # not the hotel's currency
    ws.append([1000001, "102", "5005", dt.date(2027, 1, 12), 199, "EUR"])          # a read-only rate
    bold_header(ws)


def krakow(ws) -> None:
    dates = list(days(dt.date(2027, 1, 1), dt.date(2027, 1, 31)))
    ws.append(["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", *dates])
    for room, rate, weekday, weekend in (("201", "6001", 420, 480), ("202", "6001", 540, 610),
                                         ("201", "6002", 380, 430)):
        cells = []
        for d in dates:
            cells.append(weekend if d.weekday() in (4, 5) else weekday)
        ws.append([1000002, room, rate, "PLN", *cells])
    ws.cell(row=2, column=5 + 9).value = "449,50"      # decimal comma, read as 449.50
    ws.cell(row=3, column=5 + 20).value = "1 250,00"   # thousands separator and decimal comma
    ws.cell(row=4, column=5 + 3).value = -10           # negative price
    for c in ws[1][4:]:
        c.number_format = "yyyy-mm-dd"
    bold_header(ws)


def tokyo(ws) -> None:
    ws.append(["hotel_id", "room_id", "rate_plan_id", "date", "guests", "amount_after_tax", "currency"])
    for d in days(dt.date(2027, 1, 1), dt.date(2027, 1, 31)):
        weekend = d.weekday() in (4, 5)
        for guests, price in ((1, 12000), (2, 15000), (3, 18000)):
            ws.append([1000003, "301", "7001", d.isoformat(), guests, price + (3000 if weekend else 0), "JPY"])
        ws.append([1000003, "302", "7001", d.isoformat(), 1, 9000 + (1500 if weekend else 0), "JPY"])
    ws.append([1000003, "301", "7001", "2027-02-01", 4, 21000, "JPY"])    # more guests than MaxAdultOccupancy
    ws.append([1000003, "302", "7001", "2027-02-01", 1, 9000.5, "JPY"])   # JPY has no minor unit
    bold_header(ws)


def write_rates() -> None:
    wb = Workbook()
    amsterdam(wb.active)
    wb.active.title = "Amsterdam"
    krakow(wb.create_sheet("Krakow"))
    tokyo(wb.create_sheet("Tokyo OBP"))
    wb.save(HERE / "rates.xlsx")


def write_seasons() -> None:
    header = ["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End",
              "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "AmountBeforeTax", "CurrencyCode"]
    rows = []
    seasons = [("2026-12-01", "2027-03-31", 95, 120), ("2027-04-01", "2027-06-30", 130, 165),
               ("2027-07-01", "2027-09-15", 180, 210), ("2027-09-16", "2027-12-31", 110, 140)]
    for room, factor in (("401", 1.0), ("402", 1.6)):
        for start, end, weekday, weekend in seasons:
            rows.append([1000004, room, "8001", start, end, 1, 1, 1, 1, 0, 0, 1, f"{weekday * factor:.2f}", "EUR"])
            rows.append([1000004, room, "8001", start, end, "", "", "", "", 1, 1, "", f"{weekend * factor:.2f}", "EUR"])
    rows.append([1000004, "401", "8001", "2027-05-10", "2027-05-03", "", "", "", "", "", "", "", "150.00", "EUR"])
    with open(HERE / "lisbon_seasons.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


if __name__ == "__main__":
    write_registry()
    write_rates()
    write_seasons()
    print("wrote registry.xlsx, rates.xlsx, lisbon_seasons.csv")
