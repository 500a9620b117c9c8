"""The multi-instance facilities the workbook describes: restaurants, parking and internet (and back).

Restaurants (one per RestaurantName, facility 3): OfferBreakfast/Brunch/Lunch/Dinner -> open_for_meals_list;
CuisineCodes (by name: ``Portuguese`` -> PORTUGUESE; a numeric OTA code has no published crosswalk and is not
sent) -> cuisines_list; Features ``a la carte``, ``buffet``, ``guests only``, ``accepts reservations``,
``outdoor seating`` -> is_alacarte, is_buffet, guests_only, accept_reservations, outdoor_seating; Ambiances ->
ambiances_list; DietaryOptions -> meal_types_list; each row's Mon..Sun with Start-End -> schedule_details.
Fees rows carrying ParkingType / ParkingReservation / ParkingProperty (HDCN ``ParkingFeePolicy``) -> a parking
instance (facility 2: ``on_site``/``location_nearby`` -> ON_SITE/NEARBY, ``none`` -> state MISSING;
``needed``/``not_needed``/``not_available`` -> NEEDED/NOT_NEEDED/NOT_POSSIBLE; ``private``/``public`` ->
ONLY_GUESTS/GENERAL_PUBLIC) and rows carrying InternetType / InternetCoverage (HDCN ``InternetFeePolicy``) ->
an internet instance (facility 47); their Amount -> payment_details (0: FREE, more: PAID with the price and
the ChargeFrequency 12 -> PER_STAY, 19 -> PER_DAY). The ids 2, 3 and 47 are the ones the Facilities
description names in ``InstanceRequest``.
"""

from __future__ import annotations

from typing import Any

from workbench.modular.cells import CellMap
from workbench.modular.facilities_api import CUISINES, Instance
from workbench.modular.rules import not_sent
from workbench.modular.workbook import PropertyRows, flag, integer, number, text

__all__ = ["INTERNET", "PARKING", "RESTAURANT", "WEEKDAYS", "internet_instance", "internet_row", "parking_instance",
           "parking_row", "restaurant_instance", "restaurant_rows"]

PARKING, RESTAURANT, INTERNET = 2, 3, 47
WEEKDAYS = (("mon", "MONDAY"), ("tue", "TUESDAY"), ("wed", "WEDNESDAY"), ("thu", "THURSDAY"), ("fri", "FRIDAY"),
            ("sat", "SATURDAY"), ("sun", "SUNDAY"))
MEALS = (("offer_breakfast", "BREAKFAST"), ("offer_brunch", "BRUNCH"), ("offer_lunch", "LUNCH"),
         ("offer_dinner", "DINNER"))
FEATURES = (("a la carte", "is_alacarte"), ("buffet", "is_buffet"), ("guests only", "guests_only"),
            ("accepts reservations", "accept_reservations"), ("outdoor seating", "outdoor_seating"))
AMBIANCES = {"family/kids friendly": "FAMILY_KIDS_FRIENDLY", "modern": "MODERN", "romantic": "ROMANTIC",
             "traditional": "TRADITIONAL"}
DIETS = {"dairy free": "DAIRY_FREE", "gluten free": "GLUTEN_FREE", "halal": "HALAL", "kosher": "KOSHER",
         "vegan": "VEGAN", "vegetarian": "VEGETARIAN"}
PARKING_LOCATION = {"on_site": "ON_SITE", "location_nearby": "NEARBY"}
PARKING_RESERVATION = {"needed": "NEEDED", "not_needed": "NOT_NEEDED", "not_available": "NOT_POSSIBLE"}
PARKING_ACCESS = {"private": "ONLY_GUESTS", "public": "GENERAL_PUBLIC"}
INTERNET_TYPE = {"wired": "WIRED", "wifi": "WIFI", "none": "NONE"}
INTERNET_AREA = {"entire_property": "ENTIRE_PROPERTY", "public_areas": "PUBLIC_AREAS", "all_rooms": "ALL_ROOMS",
                 "some_rooms": "SOME_ROOMS", "business_centre": "BUSINESS_CENTER"}
FREQUENCY = {12: "PER_STAY", 19: "PER_DAY"}


def _back(table: dict[str, str]) -> dict[str, str]:
    return {v: k for k, v in table.items()}


def _enum(value: str, table: dict[str, str]) -> str:
    return table.get(value.strip().casefold(), value.strip())


def cuisine(name: str) -> str | None:
    """``Portuguese`` -> ``PORTUGUESE``, ``Tex-Mex`` -> ``TEXMEX``; ``None`` for a code or a name not listed."""
    key = name.strip().upper().replace(" ", "_").replace("-", "").replace("&", "_")
    return key if key in CUISINES else None


def _daytime(value: str | None) -> dict | None:
    if not value or ":" not in value:
        return None
    h, _, m = value.partition(":")
    return {"hours": int(h), "minutes": int(m)} if h.isdigit() and m.isdigit() else None


def restaurant_instance(p: PropertyRows, rows: list[dict], base: str, cells: CellMap, issues: list[dict]) -> dict:
    """One restaurant (its rows share the RestaurantName) -> ``{restaurant_details, schedule_details}``."""
    first = rows[0]
    details: dict[str, Any] = {"name": text(first.get("restaurant_name"))}
    d = f"{base}.restaurant_details"
    cells.at(base, p.cell(first, "restaurant_name"))
    cells.at(d, p.cell(first, "restaurant_name"))
    cells.at(f"{d}.name", p.cell(first, "restaurant_name"))
    meals = [meal for col, meal in MEALS if any(flag(r.get(col)) for r in rows)]
    if meals:
        details["open_for_meals_list"] = meals
        cells.at(f"{d}.open_for_meals_list", p.cell(first, "offer_breakfast"))
    lists: dict[str, list[str]] = {}
    for row in rows:
        for name in row.get("cuisines") or []:
            code = cuisine(str(name))
            if code is None:
                issues.append(not_sent(p.cell(row, "cuisines"), f"cuisine `{name}` is not one the Facilities API "
                                                                "lists (by name, e.g. PORTUGUESE; no code crosswalk "
                                                                "is published)"))
            else:
                lists.setdefault("cuisines_list", []).append(code)
                cells.at(f"{d}.cuisines_list", p.cell(row, "cuisines"))
        for col, key, table in (("ambiances", "ambiances_list", AMBIANCES), ("dietary_options", "meal_types_list", DIETS)):
            for name in row.get(col) or []:
                lists.setdefault(key, []).append(_enum(str(name), table))
                cells.at(f"{d}.{key}", p.cell(row, col))
        for name in row.get("features") or []:
            feature = dict(FEATURES).get(str(name).strip().casefold())
            if feature is None:
                issues.append(not_sent(p.cell(row, "features"), f"restaurant feature `{name}` has no field in the "
                                                                "Facilities API"))
            else:
                details[feature] = True
                cells.at(f"{d}.{feature}", p.cell(row, "features"))
    details |= {k: list(dict.fromkeys(v)) for k, v in lists.items()}
    instance: dict[str, Any] = {"restaurant_details": details}
    schedule: list[dict] = []
    for row in rows:
        start, end = _daytime(text(row.get("open_start"))), _daytime(text(row.get("open_end")))
        if start is None and end is None:
            continue
        for col, day in WEEKDAYS:
            if flag(row.get(col)):
                cells.at(f"{base}.schedule_details.schedule[{len(schedule)}]", p.cell(row, "open_start"))
                schedule.append({"day_of_week": day, "from": start, "to": end})
    if schedule:
        instance["schedule_details"] = {"schedule": schedule}
    return instance


def restaurant_rows(instance: Instance, key: dict) -> list[dict]:
    """A restaurant instance -> its rows: the first carries the restaurant's cells, one row per distinct time range."""
    d = instance.restaurant_details
    if d is None:
        return []
    meals = set(d.open_for_meals_list or ())
    head: dict[str, Any] = {**key, "restaurant_name": d.name,
                            **{col: 1 for col, meal in MEALS if meal in meals},
                            "cuisines": [c.replace("_", " ").title() for c in d.cuisines_list or ()],
                            "features": [f for f, attr in FEATURES if getattr(d, attr)],
                            "ambiances": [_back(AMBIANCES).get(a, a) for a in d.ambiances_list or ()],
                            "dietary_options": [_back(DIETS).get(m, m) for m in d.meal_types_list or ()]}
    ranges: dict[tuple[str, str], dict] = {}
    days = dict((day, col) for col, day in WEEKDAYS)
    for entry in (instance.schedule_details.schedule if instance.schedule_details else []) or []:
        start, end = (f"{t.hours:02d}:{t.minutes:02d}" if t else "" for t in (entry.from_, entry.to))
        row = ranges.setdefault((start, end), {"open_start": start or None, "open_end": end or None})
        if entry.day_of_week in days:
            row[days[entry.day_of_week]] = 1
    rows = list(ranges.values()) or [{}]
    return [{**head, **rows[0]}, *({**key, "restaurant_name": d.name, **r} for r in rows[1:])]


def _payment(p: PropertyRows, row: dict, base: str, cells: CellMap, issues: list[dict]) -> dict:
    amount = number(row.get("amount"))
    places = integer(row.get("decimal_places"))
    if amount is not None and places:
        amount = amount / 10 ** places
    cells.at(f"{base}.payment_details", p.cell(row, "amount"))
    cells.at(f"{base}.payment_details.charge_mode", p.cell(row, "amount"))
    if amount is None:
        return {"charge_mode": "CHARGES_MAY_APPLY"}
    if amount == 0:
        return {"charge_mode": "FREE"}
    charge: dict[str, Any] = {"price": amount}
    cells.at(f"{base}.payment_details.charge_details.price", p.cell(row, "amount"))
    code = integer(row.get("charge_frequency"))
    if code in FREQUENCY:
        charge["frequency"] = FREQUENCY[code]
    elif code is not None:
        issues.append(not_sent(p.cell(row, "charge_frequency"), f"charge frequency {code} has no counterpart in the "
                                                                "Facilities API's payment (12 per stay, 19 per night)"))
    return {"charge_mode": "PAID", "charge_details": charge}


def parking_instance(p: PropertyRows, row: dict, base: str, name: str, cells: CellMap, issues: list[dict]) -> dict | None:
    """A Fees row with parking cells -> a parking instance (``None``: ParkingType ``none``, the facility is MISSING)."""
    kind = (text(row.get("parking_type")) or "").casefold()
    if kind == "none":
        return None
    reservation, access = text(row.get("parking_reservation")), text(row.get("parking_property"))
    details = {"name": name, "parking_location": _enum(kind, PARKING_LOCATION) if kind else None,
               "parking_reservation": _enum(reservation, PARKING_RESERVATION) if reservation else None,
               "parking_access": _enum(access, PARKING_ACCESS) if access else None}
    d = f"{base}.parking_details"
    for key, col in (("", "parking_type"), (".name", "code"), (".parking_location", "parking_type"),
                     (".parking_reservation", "parking_reservation"), (".parking_access", "parking_property")):
        cells.at(f"{d}{key}", p.cell(row, col))
    cells.at(base, p.cell(row, "parking_type"))
    return {"parking_details": {k: v for k, v in details.items() if v is not None},
            "payment_details": _payment(p, row, base, cells, issues)}


def internet_instance(p: PropertyRows, row: dict, base: str, cells: CellMap, issues: list[dict]) -> dict:
    """A Fees row with internet cells -> an internet instance (HDCN defaults: wifi, entire property)."""
    kind, area = text(row.get("internet_type")) or "wifi", text(row.get("internet_coverage")) or "entire_property"
    d = f"{base}.internet_details"
    for key, col in (("", "internet_type"), (".type", "internet_type"), (".area", "internet_coverage")):
        cells.at(f"{d}{key}", p.cell(row, col))
    cells.at(base, p.cell(row, "internet_type"))
    return {"internet_details": {"type": _enum(kind, INTERNET_TYPE), "area": _enum(area, INTERNET_AREA)},
            "payment_details": _payment(p, row, base, cells, issues)}


def _amount(instance: Instance) -> float | None:
    pay = instance.payment_details
    if pay is None:
        return None
    if pay.charge_mode == "FREE":
        return 0.0
    return pay.charge_details.price if pay.charge_details else None


_FREQUENCY_CODE = {v: k for k, v in FREQUENCY.items()}


def _frequency(instance: Instance) -> int | None:
    pay = instance.payment_details
    freq = pay.charge_details.frequency if pay and pay.charge_details else None
    return _FREQUENCY_CODE.get(freq) if freq else None


def parking_row(instance: Instance, key: dict, code: int | None) -> dict:
    d = instance.parking_details
    return {**key, "code": code, "amount": _amount(instance), "charge_frequency": _frequency(instance),
            "parking_type": _back(PARKING_LOCATION).get(d.parking_location or "") if d else None,
            "parking_reservation": _back(PARKING_RESERVATION).get(d.parking_reservation or "") if d else None,
            "parking_property": _back(PARKING_ACCESS).get(d.parking_access or "") if d else None}


def internet_row(instance: Instance, key: dict, code: int | None) -> dict:
    d = instance.internet_details
    return {**key, "code": code, "amount": _amount(instance), "charge_frequency": _frequency(instance),
            "internet_type": _back(INTERNET_TYPE).get(d.type or "") if d else None,
            "internet_coverage": _back(INTERNET_AREA).get(d.area or "") if d else None}
