"""Taxes and Fees sheets <-> Charges API (property and room charges; replaces HDCN TaxPolicies/FeePolicies).

Forward (:func:`build_charges`): each Taxes or Fees row (except the fees that describe parking or internet,
which are facilities) is one charge. Code (OTA FTT, or a Booking.com extended code) -> ``charge_key.type``
through the Charges meta, for any guest origin and travel purpose; Amount or Percent (divided by
10^DecimalPlaces, as HDCN reads them) -> ``amount.value``; Percent -> mode PERCENTAGE of the net room price;
ChargeFrequency (CHG: 12 per stay, 19 per night, 20 per person per stay, 21 per person per night, the
default; 5000 "charges may vary") -> PER_STAY, PER_NIGHT, PER_PERSON_PER_STAY, PER_PERSON_PER_NIGHT,
INCALCULABLE; Type Exclusive -> ``excluded`` true, Inclusive -> false (Conditional: true, its conditions have
no field); InvCode -> ``room_charges[].room_id``. One period, from ``today`` on (the workbook has no dates).

Back (:func:`charges_rows`): a charge whose type ends in ``TAX`` (or is VAT) is a Taxes row, any other a
Fees row; the code is the first the meta lists for the type; ChargeFrequency 21 and DecimalPlaces come back
blank.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from workbench.modular.base import dump
from workbench.modular.building import Request, finish
from workbench.modular.cells import CellMap, issue
from workbench.modular.charges_api import Charge, Charges, ChargeType
from workbench.modular.meta import ModularMeta
from workbench.modular.rules import (
    CHARGE_KEPT,
    CODE_NOT_IN_META,
    META_NOT_READ,
    MODULAR_VALUE_REFUSED,
    not_sent,
)
from workbench.modular.workbook import PropertyRows, blank, integer, number, rows_with, text

__all__ = ["API", "MODES", "build_charges", "charges_rows", "is_tax"]

API = "Charges API"
META = "https://developers.booking.com/_spec/connectivity/docs/openapispecs/charges-api/charges-api-specification.yaml"
MODES = {12: "PER_STAY", 19: "PER_NIGHT", 20: "PER_PERSON_PER_STAY", 21: "PER_PERSON_PER_NIGHT", 5000: "INCALCULABLE"}
DEFAULT_FREQUENCY = 21
FACILITY_FEE_COLUMNS = ("parking_type", "parking_reservation", "parking_property", "internet_type",
                        "internet_coverage")


def is_tax(charge_type_id: str) -> bool:
    """Whether a charge type goes back to the Taxes sheet (VAT and every ``...TAX``) rather than Fees."""
    return charge_type_id == "VAT" or charge_type_id.endswith("TAX")


def _charge(p: PropertyRows, row: dict, ct: ChargeType, base: str, cells: CellMap, issues: list[dict],
            today: dt.date) -> dict:
    places = integer(row.get("decimal_places")) or 0
    amount, percent = number(row.get("amount")), number(row.get("percent"))
    frequency = integer(row.get("charge_frequency"))
    conf = f"{base}.charge_periods[0].configuration"
    if percent is not None and amount is None:
        value: dict[str, Any] = {"mode": "PERCENTAGE", "value": percent / 10 ** places, "base": ["NET_ROOM_PRICE"]}
        cells.at(f"{conf}.amount.value", p.cell(row, "percent"))
        cells.at(f"{conf}.amount.mode", p.cell(row, "percent"))
    else:
        mode = MODES.get(DEFAULT_FREQUENCY if frequency is None else frequency, f"CHG {frequency}")
        value = {"mode": mode, **({"value": amount / 10 ** places} if amount is not None and mode != "INCALCULABLE"
                                  else {})}
        cells.at(f"{conf}.amount.value", p.cell(row, "amount"))
        cells.at(f"{conf}.amount.mode", p.cell(row, "charge_frequency"))
        if ct.allowed_charge_modes and mode in MODES.values() and mode not in ct.allowed_charge_modes:
            issues.append(issue(p.cell(row, "charge_frequency"), MODULAR_VALUE_REFUSED,
                                f"{ct.charge_type_id} is charged {', '.join(ct.allowed_charge_modes)} (the Charges meta)"
                                f", not {mode}: correct ChargeFrequency"))
    kind = (text(row.get("type")) or "").casefold()
    excluded = {"exclusive": True, "inclusive": False, "conditional": True}.get(kind)
    if kind == "conditional" and row.get("conditions"):
        issues.append(not_sent(p.cell(row, "conditions"), "a charge of the Charges API has no conditions; the fee is "
                                                          "sent as excluded from the rate"))
    cells.at(base, p.cell(row, "code"))
    cells.at(f"{base}.charge_key", p.cell(row, "code"))
    cells.at(f"{base}.charge_key.type", p.cell(row, "code"))
    cells.at(f"{base}.charge_periods", p.cell(row, "code"))
    cells.at(conf, p.cell(row, "amount"))
    cells.at(f"{conf}.excluded", p.cell(row, "type"))
    configuration = {"amount": value, **({"excluded": excluded} if excluded is not None else {})}
    return {"charge_key": {"type": ct.charge_type_id, "guest_origin": "ANY", "travel_purpose": "ANY"},
            "charge_periods": [{"applicable": {"from": today.isoformat()}, "configuration": configuration}]}


def build_charges(p: PropertyRows, meta: ModularMeta, issues: list[dict], *, today: dt.date,
                  current: Charges | None = None, replace: bool = False) -> Request | None:
    """The charges body of one property (``None`` when it has no tax or fee a charge can carry).

    ``current`` (a GET answer): the charges the property has that no row gives (by room, type, guest origin and
    travel purpose) are sent back as they are (``charge_kept``, a warning), so a write keeps what the sheet does
    not mention whether the platform deletes the keys a write leaves out or not (NOT SHOWN), unless ``replace``."""
    rows = [r for part in ("Taxes", "Fees") for r in rows_with(p.part(part), "code")
            if not any(not blank(r.get(c)) for c in FACILITY_FEE_COLUMNS)]
    if not rows:
        return None
    if meta.charge_types is None:
        issues.append(issue(p.cell(rows[0], "code"), META_NOT_READ, "the Charges meta was not read, so fee and tax "
                                                                    "codes cannot be mapped to charge types: read "
                                                                    f"GET /charges-api/meta ({META})"))
        return None
    cells = CellMap(root=p.root())
    property_charges: list[dict] = []
    rooms: dict[str, dict] = {}
    seen: set[tuple[str, str]] = set()
    for row in rows:
        code = int(row["code"])
        ct = meta.charge_type_for_code(code)
        if ct is None:
            issues.append(issue(p.cell(row, "code"), CODE_NOT_IN_META,
                                f"fee/tax code {code} is not one the Charges meta maps (ota_fee_tax_types or "
                                "booking_extended_legacy_code): check the code against GET /charges-api/meta"))
            continue
        room = text(row.get("inv_code")) or ""
        if (room, ct.charge_type_id) in seen:
            issues.append(not_sent(p.cell(row, "code"), f"{ct.charge_type_id} is given by an earlier row for "
                                                        f"{'room ' + room if room else 'the property'}: one row per charge"))
            continue
        seen.add((room, ct.charge_type_id))
        if not room:
            property_charges.append(_charge(p, row, ct, f"property_charges[{len(property_charges)}]", cells, issues,
                                            today))
            continue
        if room not in rooms:
            k = len(rooms)
            rooms[room] = {"room_id": int(room) if room.isdigit() else room, "charges": []}
            cells.at(f"room_charges[{k}]", p.cell(row, "inv_code"))
            cells.at(f"room_charges[{k}].room_id", p.cell(row, "inv_code"))
        k = list(rooms).index(room)
        charges = rooms[room]["charges"]
        charges.append(_charge(p, row, ct, f"room_charges[{k}].charges[{len(charges)}]", cells, issues, today))
    if not property_charges and not rooms:
        return None
    if current is not None and not replace:
        _keep(current, property_charges, rooms, p, issues)
    payload = finish(Charges, {"property_charges": property_charges, "room_charges": list(rooms.values())}, cells,
                     issues, api=API)
    if payload is None:
        return None
    return Request(p.key, p.hotel_code, p.custom_id, "charges.write", payload, cells)


def _key(charge: dict, room: object = "") -> tuple[str, str, str, str]:
    k = charge.get("charge_key") or {}
    return (str(room), str(k.get("type")), str(k.get("guest_origin") or "ANY"), str(k.get("travel_purpose") or "ANY"))


def _keep(current: Charges, property_charges: list[dict], rooms: dict[str, dict], p: PropertyRows,
          issues: list[dict]) -> None:
    """Add the property's charges no row gives, as read (see :func:`build_charges`)."""
    built = {_key(c) for c in property_charges} | {_key(c, r) for r, room in rooms.items() for c in room["charges"]}
    kept: list[str] = []
    for charge in current.property_charges or []:
        got = dump(charge)
        if _key(got) not in built:
            property_charges.append(got)
            kept.append(str(got["charge_key"]["type"]))
    for room in current.room_charges or []:
        for charge in room.charges or []:
            got = dump(charge)
            rid = str(room.room_id)
            if _key(got, rid) not in built:
                rooms.setdefault(rid, {"room_id": room.room_id, "charges": []})["charges"].append(got)
                kept.append(f"{got['charge_key']['type']} (room {rid})")
    if kept:
        issues.append(issue(p.root(), CHARGE_KEPT, f"the property has charges no Taxes or Fees row gives "
                            f"({', '.join(kept)}): they are sent back unchanged; remove them with --replace",
                            severity="warning"))


def _row(charge: Charge, meta: ModularMeta, key: dict, room: int | None) -> tuple[str, dict]:
    ct = meta.charge_type(charge.charge_key.type)
    codes = [*ct.ota_fee_tax_types, *ct.booking_extended_legacy_code] if ct else []
    period = charge.charge_periods[-1] if charge.charge_periods else None
    conf = period.configuration if period else None
    row: dict[str, Any] = {**key, "code": codes[0] if codes else None, "inv_code": None if room is None else str(room)}
    if conf is not None:
        amount = conf.amount
        if amount.mode == "PERCENTAGE":
            row["percent"] = amount.value
        else:
            row["amount"] = amount.value
            code = {v: k for k, v in MODES.items()}.get(amount.mode or "")
            row["charge_frequency"] = None if code == DEFAULT_FREQUENCY else code
        row["type"] = None if conf.excluded is None else "Exclusive" if conf.excluded else "Inclusive"
    return ("Taxes" if is_tax(charge.charge_key.type or "") else "Fees"), row


def charges_rows(read: Charges, meta: ModularMeta, key: dict) -> dict[str, list[dict]]:
    """Taxes and Fees rows from a charges answer (the last period of each charge)."""
    out: dict[str, list[dict]] = {"Taxes": [], "Fees": []}
    for charge in read.property_charges or ():
        sheet, row = _row(charge, meta, key, None)
        out[sheet].append(row)
    for room in read.room_charges or ():
        for charge in room.charges or ():
            sheet, row = _row(charge, meta, key, room.room_id)
            out[sheet].append(row)
    return out
