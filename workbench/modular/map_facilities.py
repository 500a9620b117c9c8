"""Services, Restaurants and the parking/internet fees <-> Facilities API property facilities.

Forward (:func:`build_facilities`): one ``PUT /facilities-api/properties/{id}`` array. A Services row's
Code (OTA HAC, or a Booking.com extended code) is a facility id through the Facilities meta; ExistsCode 2
-> state MISSING; a meal facility (its meta allows ``MealDetails``: breakfast, lunch, dinner) takes Price as
``meal_details.price`` and Types/Items given by name (``CONTINENTAL``, ``BREAD``; the OTA codes have no
published crosswalk) as breakfast_types / breakfast_food_item_types; Included -> surcharge_details (true FREE,
false PAID) where the meta allows it. Restaurants, parking and internet: :mod:`facility_instances`.

The PUT replaces every instance of each facility it names: given the property's facilities (a GET answer,
``current``), the instances the sheet describes take the ids of the ones they match (restaurants by name,
parking and internet by position) and the others are sent back unchanged, so nothing the sheet does not
mention is deleted, unless ``replace``.

Back (:func:`facilities_rows`): a GET answer -> Services, Restaurants and Fees rows.
"""

from __future__ import annotations

from typing import Any

from workbench.modular.base import dump
from workbench.modular.building import Request, finish
from workbench.modular.cells import CellMap, issue
from workbench.modular.facilities_api import (
    BREAKFAST_ITEMS,
    BREAKFAST_TYPES,
    DETAILS_FIELD,
    PROPERTY_FACILITY_LIST,
    PropertyFacility,
)
from workbench.modular.facility_instances import (
    INTERNET,
    PARKING,
    RESTAURANT,
    internet_instance,
    internet_row,
    parking_instance,
    parking_row,
    restaurant_instance,
    restaurant_rows,
)
from workbench.modular.meta import ModularMeta
from workbench.modular.rules import (
    CODE_NOT_IN_META,
    INSTANCE_KEPT,
    META_NOT_READ,
    MODULAR_VALUE_REFUSED,
    not_sent,
)
from workbench.modular.workbook import PropertyRows, blank, number, rows_with, text

__all__ = ["API", "build_facilities", "facilities_rows"]

API = "Facilities API"
META = "https://developers.booking.com/connectivity/docs/openapispecs/facilities-api/facilities-api-specification"
_PARKING_COLS = ("parking_type", "parking_reservation", "parking_property")
_INTERNET_COLS = ("internet_type", "internet_coverage")


class _Entries:
    """The facilities of the body in the order met, each with its path."""

    def __init__(self, p: PropertyRows) -> None:
        self.p = p
        self.items: list[dict] = []
        self.at: dict[int, int] = {}
        self.cells = CellMap(root=p.root())

    def get(self, facility_id: int, cell: Any, state: str = "PRESENT") -> tuple[dict, str]:
        i = self.at.get(facility_id)
        if i is None:
            i = self.at[facility_id] = len(self.items)
            self.items.append({"facility_id": facility_id, "state": state})
            base = f"{PROPERTY_FACILITY_LIST}[{i}]"
            self.cells.at(base, cell)
            self.cells.at(f"{base}.facility_id", cell)
            self.cells.at(f"{base}.state", cell)
            self.cells.hint("facility_id", facility_id, base)
        return self.items[i], f"{PROPERTY_FACILITY_LIST}[{i}]"

    def instance(self, facility_id: int, cell: Any) -> str:
        entry, base = self.get(facility_id, cell)
        entry["state"] = "PRESENT"
        entry.setdefault("instances", [])
        return f"{base}.instances[{len(entry['instances'])}]"


def _names(values: list, allowed: tuple[str, ...]) -> tuple[list[str], list[str]]:
    ok = [str(v).strip().upper() for v in values if str(v).strip().upper() in allowed]
    return ok, [str(v) for v in values if str(v).strip().upper() not in allowed]


def _service(p: PropertyRows, row: dict, meta: ModularMeta, e: _Entries, issues: list[dict]) -> None:
    code, code_cell = int(row["code"]), p.cell(row, "code")
    fm = meta.facility_for_code(code)
    if fm is None:
        issues.append(issue(code_cell, CODE_NOT_IN_META, f"service code {code} is not one the Facilities meta maps "
                                                         "(ota_hotel_amenity_type or booking_extended_legacy_code): "
                                                         "check the code against GET /facilities-api/meta"))
        return
    if fm.facility_id in e.at:
        issues.append(not_sent(code_cell, f"facility {fm.facility_id} is given by an earlier row; one row per facility"))
        return
    missing = str(text(row.get("exists_code"))) == "2"
    entry, base = e.get(fm.facility_id, code_cell, "MISSING" if missing else "PRESENT")
    e.cells.at(f"{base}.state", p.cell(row, "exists_code"))
    if missing:
        return
    allowed = set(fm.allowed_details_list or ())
    inst: dict[str, Any] = {}
    ib = f"{base}.instances[0]"
    price = number(row.get("price"))
    if "MealDetails" in allowed and price is not None:
        meal: dict[str, Any] = {"price": price}
        for col, key, names in (("types", "breakfast_types", BREAKFAST_TYPES),
                                ("breakfast_items", "breakfast_food_item_types", BREAKFAST_ITEMS)):
            ok, other = _names(row.get(col) or [], names)
            if ok:
                meal[key] = ok
                e.cells.at(f"{ib}.meal_details.{key}", p.cell(row, col))
            if other:
                issues.append(not_sent(p.cell(row, col), f"{', '.join(other)}: the Facilities API names these "
                                                         f"(e.g. {names[0]}); no crosswalk from the OTA codes is "
                                                         "published"))
        inst["meal_details"] = meal
        e.cells.at(f"{ib}.meal_details", p.cell(row, "price"))
        e.cells.at(f"{ib}.meal_details.price", p.cell(row, "price"))
    elif price is not None:
        issues.append(not_sent(p.cell(row, "price"), f"facility {fm.facility_id} takes no price"))
    included = (text(row.get("included")) or "").casefold()
    if included in ("true", "false"):
        if "SurchargeDetails" in allowed:
            inst["surcharge_details"] = {"surcharge_type": "FREE" if included == "true" else "PAID"}
            e.cells.at(f"{ib}.surcharge_details", p.cell(row, "included"))
        else:
            issues.append(not_sent(p.cell(row, "included"), f"facility {fm.facility_id} has no surcharge details"))
    if row.get("features"):
        issues.append(not_sent(p.cell(row, "features"), "service features have no field in the Facilities API"))
    lacking = [d for d in fm.required_details_list or () if DETAILS_FIELD.get(d) not in inst]
    if lacking:
        issues.append(issue(code_cell, MODULAR_VALUE_REFUSED, f"facility {fm.facility_id} needs its {', '.join(lacking)} "
                                                              "(the Facilities meta's required_details_list), which "
                                                              "the Services sheet cannot give: remove the row"))
        entry["state"] = "MISSING"  # never sent: the error blocks the property
    if inst:
        entry["instances"] = [inst]


def _keep_current(e: _Entries, current: list[PropertyFacility], replace: bool, issues: list[dict]) -> None:
    by_id = {f.facility_id: f for f in current}
    for entry in e.items:
        cur = by_id.get(entry["facility_id"])
        if cur is None or not cur.instances or entry["state"] != "PRESENT":
            continue
        mine = entry.setdefault("instances", [])
        taken: set[int] = set()
        for pos, inst in enumerate(mine):
            name = (inst.get("restaurant_details") or {}).get("name")
            match = next((i for i, c in enumerate(cur.instances) if i not in taken and
                          (c.restaurant_details.name == name if entry["facility_id"] == RESTAURANT and
                           c.restaurant_details else i == pos)), None)
            if match is not None:
                taken.add(match)
                inst["instance_id"] = cur.instances[match].instance_id
                was = cur.instances[match].parking_details
                if entry["facility_id"] == PARKING and was is not None:
                    inst["parking_details"]["name"] = was.name
        if replace:
            continue
        for i, c in enumerate(cur.instances):
            if i not in taken:
                mine.append(dump(c))
                issues.append(issue(e.cells.locate(f"{PROPERTY_FACILITY_LIST}[{e.at[entry['facility_id']]}]"),
                                    INSTANCE_KEPT, f"instance {c.instance_id} of facility {entry['facility_id']} is "
                                    "not on the sheet: it is sent back unchanged (a PUT deletes the instances it "
                                    "leaves out); send with --replace to delete it", severity="warning"))


def build_facilities(p: PropertyRows, meta: ModularMeta, issues: list[dict], *,
                     current: list[PropertyFacility] | None = None, replace: bool = False) -> Request | None:
    """The property facilities body of one property (``None`` when the sheet describes none)."""
    e = _Entries(p)
    services = rows_with(p.part("Services"), "code")
    if services and meta.facilities is None:
        issues.append(issue(p.cell(services[0], "code"), META_NOT_READ, "the Facilities meta was not read, so service "
                                                                        "codes cannot be mapped to facility ids: read "
                                                                        f"GET /facilities-api/meta ({META})"))
    elif services:
        for row in services:
            _service(p, row, meta, e, issues)
    groups: dict[str, list[dict]] = {}
    for row in rows_with(p.part("Restaurants"), "restaurant_name"):
        groups.setdefault(str(row["restaurant_name"]).strip(), []).append(row)
    for rows in groups.values():
        base = e.instance(RESTAURANT, p.cell(rows[0], "restaurant_name"))
        e.items[e.at[RESTAURANT]]["instances"].append(restaurant_instance(p, rows, base, e.cells, issues))
    parkings = 0
    for row in p.part("Fees"):
        if any(not blank(row.get(c)) for c in _PARKING_COLS):
            parkings += 1
            if (text(row.get("parking_type")) or "").casefold() == "none":
                e.get(PARKING, p.cell(row, "parking_type"), "MISSING")
                continue
            base = e.instance(PARKING, p.cell(row, "parking_type"))
            made = parking_instance(p, row, base, f"Parking {parkings}", e.cells, issues)
            e.items[e.at[PARKING]]["instances"].append(made)
        elif any(not blank(row.get(c)) for c in _INTERNET_COLS):
            base = e.instance(INTERNET, p.cell(row, "internet_type"))
            e.items[e.at[INTERNET]]["instances"].append(internet_instance(p, row, base, e.cells, issues))
    if not e.items:
        return None
    if current is not None:
        _keep_current(e, current, replace, issues)
    payload = finish(list[PropertyFacility], e.items, e.cells, issues, api=API, root=PROPERTY_FACILITY_LIST)
    if not payload:
        return None
    return Request(p.key, p.hotel_code, p.custom_id, "facilities.write", payload, e.cells)


def facilities_rows(read: list[PropertyFacility], meta: ModularMeta, key: dict) -> dict[str, list[dict]]:
    """Services, Restaurants and Fees rows from a property facilities answer."""
    out: dict[str, list[dict]] = {"Services": [], "Restaurants": [], "Fees": []}
    parking_fee = meta.charge_type("PARKINGFEE")
    internet_fee = meta.charge_type("INTERNETFEE")

    def fee_code(t: Any) -> int | None:
        return next(iter([*t.ota_fee_tax_types, *t.booking_extended_legacy_code]), None) if t else None

    for f in read:
        instances = f.instances or []
        if f.facility_id == RESTAURANT:
            for inst in instances:
                out["Restaurants"] += restaurant_rows(inst, key)
        elif f.facility_id == PARKING:
            if f.state == "MISSING":
                out["Fees"].append({**key, "code": fee_code(parking_fee), "parking_type": "none"})
            out["Fees"] += [parking_row(inst, key, fee_code(parking_fee)) for inst in instances]
        elif f.facility_id == INTERNET:
            out["Fees"] += [internet_row(inst, key, fee_code(internet_fee)) for inst in instances]
        else:
            fm = meta.facility(f.facility_id)
            code = (fm.ota_hotel_amenity_type or fm.booking_extended_legacy_code) if fm else None
            row: dict[str, Any] = {**key, "code": code, "exists_code": 2 if f.state == "MISSING" else None}
            first = instances[0] if instances else None
            if first is not None and first.meal_details is not None:
                price = first.meal_details.price
                row["price"] = int(price) if price is not None and float(price).is_integer() else None
                row["types"] = list(first.meal_details.breakfast_types or [])
                row["breakfast_items"] = list(first.meal_details.breakfast_food_item_types or [])
            if first is not None and first.surcharge_details is not None:
                row["included"] = {"FREE": "true", "PAID": "false"}.get(first.surcharge_details.surcharge_type or "")
            out["Services"].append(row)
    return out
