"""The workbook's settings cells <-> the Property API settings groups.

Forward (:func:`build_settings`): one ``POST /properties/{id}/settings`` body with the groups the workbook
fills. Back (:func:`settings_rows`): a settings answer -> the Property row's settings cells and the
Policies, Payments, Invoice and Phrases rows.

Where each cell goes (docs/modular.md): NoCVC -> property_settings.require_cvc (negated); ViewCCDetails ->
view_cc_details; RequireGuestAddress / RequireGuestContactNumber -> require_booker_address /
require_booker_phone_number; HasAgeRestriction, AgeRestrictionMin/Max -> age_restriction; HasCurfew,
CurfewStart/End -> curfew; AcceptLongStay, MaxLengthOfStay -> long_stay; PricingType -> pricing_type (upper
case); BookingModel -> booking_model.type; HoursAfterBooking 0/1/4/24 -> cancellation_exceptions.grace_period
(0: disabled), WeeksBeforeCheckIn 0/4/8/12 -> advance_cancellation; PropertyRegisteredInVcs, PropertyHasVat,
PropertyDeclaresRevenue, PropertyTaxCategory, PropertyNatureCategory -> french_tax_details; Policies
PetsAllowedCode / NonRefundableFee -> pets; AcceptedGuestType / MinGuestAge -> children_policies
(allow_children, min_age); Payments -> accepted_payment_types.codes; Invoice -> invoice_settings.
brazil_tax_details; Phrases -> standard_phrases (names the API lists), ``Renovation`` (options RenovationFrom,
RenovationUntil) -> renovation, ``HotelChainBedLinen`` (HotelChainBedLinenAmount) -> bed_linen_policy;
Fees MinAge/MaxAge -> age_buckets (the distinct age ranges, the workbench's reading: NOT SHOWN by the
platform).
"""

from __future__ import annotations

from typing import Any

from workbench.modular.building import Request, finish
from workbench.modular.cells import CellMap
from workbench.modular.rules import not_sent
from workbench.modular.settings_api import STANDARD_PHRASES, PropertySettingsGroups
from workbench.modular.workbook import PropertyRows, blank, flag, integer, rows_with, text

__all__ = ["API", "build_settings", "settings_rows"]

API = "Property settings API"
PETS = {"pets allowed": "PETS_ALLOWED", "pets not allowed": "PETS_NOT_ALLOWED",
        "pets by arrangements": "PETS_ALLOWED_ON_REQUEST"}
PETS_FEE = {"free": "FREE", "charges_may_apply": "CHARGES_MAY_APPLY"}
GUESTS = {"childrenallowed": True, "adultonly": False}
_SETTINGS = (("require_booker_address", "require_guest_address"),
             ("require_booker_phone_number", "require_guest_contact_number"), ("view_cc_details", "view_cc_details"))
_FRENCH = (("registered_in_rcs", "tax_registered_in_vcs"), ("has_vat", "tax_has_vat"),
           ("declare_revenue", "tax_declares_revenue"))
#: (group, its enabled flag, its low and high columns, their keys in the group)
_GROUPS: tuple[tuple[str, str, str, str | None, str, str | None], ...] = (
    ("age_restriction", "has_age_restriction", "age_restriction_min", "age_restriction_max", "min", "max"),
    ("curfew", "has_curfew", "curfew_start", "curfew_end", "start", "end"),
    ("long_stay", "accept_long_stay", "max_length_of_stay", None, "max_length_of_stay", None))
_PHRASE_GROUPS = {"renovation": ("renovation", "RenovationFrom", "RenovationUntil"),
                  "hotelchainbedlinen": ("bed_linen_policy", "HotelChainBedLinenAmount", None)}


def _put(group: dict, key: str, value: object, cells: CellMap, path: str, cell: Any) -> None:
    if value is not None:
        group[key] = value
        cells.at(path, cell)


def _property_settings(p: PropertyRows, prop: dict, cells: CellMap) -> dict:
    ps: dict[str, Any] = {}
    base = "property_settings"
    no_cvc = flag(prop.get("no_cvc"))
    _put(ps, "require_cvc", None if no_cvc is None else not no_cvc, cells, f"{base}.require_cvc",
         p.cell(prop, "no_cvc"))
    for key, col in _SETTINGS:
        _put(ps, key, flag(prop.get(col)), cells, f"{base}.{key}", p.cell(prop, col))
    for group, enabled, low, high, lo_key, hi_key in _GROUPS:
        sub: dict[str, Any] = {}
        path = f"{base}.{group}"
        _put(sub, "enabled", flag(prop.get(enabled)), cells, f"{path}.enabled", p.cell(prop, enabled))
        for name, column in ((lo_key, low), (hi_key, high)):
            if name and column:
                value: object = integer(prop.get(column)) if group != "curfew" else text(prop.get(column))
                _put(sub, name, value, cells, f"{path}.{name}", p.cell(prop, column))
        if sub:
            ps[group] = sub
            cells.at(path, p.cell(prop, enabled))
    pricing = text(prop.get("pricing_type"))
    _put(ps, "pricing_type", pricing.upper() if pricing else None, cells, f"{base}.pricing_type",
         p.cell(prop, "pricing_type"))
    return ps


def _exceptions(p: PropertyRows, prop: dict, cells: CellMap) -> dict:
    out: dict[str, Any] = {}
    for group, col, key, prefix in (("grace_period", "grace_hours", "after_booking", "HOURS_"),
                                    ("advance_cancellation", "grace_weeks", "before_check_in", "WEEKS_")):
        value = integer(prop.get(col))
        if value is None:
            continue
        out[group] = {"enabled": value != 0, **({key: f"{prefix}{value}"} if value else {})}
        for path in (f"cancellation_exceptions.{group}", f"cancellation_exceptions.{group}.{key}"):
            cells.at(path, p.cell(prop, col))
    return out


def _policies(p: PropertyRows, body: dict, cells: CellMap) -> None:
    for row in p.part("Policies"):
        pets = text(row.get("pets_allowed"))
        if pets and "pets" not in body:
            fee = text(row.get("pets_non_refundable_fee"))
            body["pets"] = {"pets_allowed": PETS.get(pets.casefold(), pets),
                            **({"pets_price_type": PETS_FEE.get(fee.casefold(), fee)} if fee else {})}
            cells.at("pets", p.cell(row, "pets_allowed"))
            cells.at("pets.pets_allowed", p.cell(row, "pets_allowed"))
            cells.at("pets.pets_price_type", p.cell(row, "pets_non_refundable_fee"))
        guests = text(row.get("accepted_guest_type"))
        if (guests or not blank(row.get("min_guest_age"))) and "children_policies" not in body:
            allow = GUESTS.get((guests or "").casefold())
            body["children_policies"] = {k: v for k, v in (("allow_children", allow),
                                                           ("min_age", integer(row.get("min_guest_age")))) if v is not None}
            cells.at("children_policies", p.cell(row, "accepted_guest_type"))
            cells.at("children_policies.allow_children", p.cell(row, "accepted_guest_type"))
            cells.at("children_policies.min_age", p.cell(row, "min_guest_age"))


def _phrases(p: PropertyRows, body: dict, cells: CellMap, issues: list[dict]) -> None:
    groups: dict[str, list[dict]] = {}
    for row in rows_with(p.part("Phrases"), "phrase_name"):
        groups.setdefault(str(row["phrase_name"]).strip(), []).append(row)
    phrases: list[dict] = []
    for name, rows in groups.items():
        first = rows[0]
        options = {text(r.get("option_name")): r for r in rows if text(r.get("option_name"))}
        special = _PHRASE_GROUPS.get(name.casefold())
        if special:
            group, low, high = special
            value: dict[str, Any] = {"enabled": flag(first.get("enabled"))}
            keys = (("start", low), ("end", high)) if group == "renovation" else (("amount", low),)
            for key, option in keys:
                if option and option in options:
                    raw = text(options[option].get("option_value"))
                    value[key] = float(raw) if key == "amount" and raw and _is_number(raw) else raw
                    cells.at(f"{group}.{key}", p.cell(options[option], "option_value"))
            body[group] = value
            cells.at(group, p.cell(first, "phrase_name"))
            cells.at(f"{group}.enabled", p.cell(first, "enabled"))
        elif name in STANDARD_PHRASES:
            cells.at(f"standard_phrases[{len(phrases)}]", p.cell(first, "phrase_name"))
            cells.at(f"standard_phrases[{len(phrases)}].enabled", p.cell(first, "enabled"))
            phrases.append({"name": name, "enabled": flag(first.get("enabled"))})
        else:
            issues.append(not_sent(p.cell(first, "phrase_name"),
                                   f"the settings' standard_phrases have no phrase `{name}` (nor does any other "
                                   "settings group take it)"))
    if phrases:
        body["standard_phrases"] = phrases


def _is_number(raw: str) -> bool:
    try:
        float(raw)
    except ValueError:
        return False
    return True


def _lists(p: PropertyRows, body: dict, cells: CellMap) -> None:
    pays = rows_with(p.part("Payments"), "payment_type_code")
    if pays:
        body["accepted_payment_types"] = {"codes": [int(r["payment_type_code"]) for r in pays]}
        for i, r in enumerate(pays):
            cells.at(f"accepted_payment_types.codes[{i}]", p.cell(r, "payment_type_code"))
    invoice = next(iter(p.part("Invoice")), None)
    if invoice is not None:
        details = {"tax_payer_number_type": (text(invoice.get("tax_type")) or "").upper() or None,
                   "tax_payer_number": text(invoice.get("tax_number")), "city_hall_id": text(invoice.get("city_hall_id")),
                   "email": text(invoice.get("invoice_email"))}
        body["invoice_settings"] = {"brazil_tax_details": {k: v for k, v in details.items() if v is not None}}
        base = "invoice_settings.brazil_tax_details"
        cells.at("invoice_settings", p.cell(invoice, "tax_type"))
        cells.at(base, p.cell(invoice, "tax_type"))
        for key, col in (("tax_payer_number_type", "tax_type"), ("tax_payer_number", "tax_number"),
                         ("city_hall_id", "city_hall_id"), ("email", "invoice_email")):
            cells.at(f"{base}.{key}", p.cell(invoice, col))
    ranges: dict[tuple[int | None, int | None], dict] = {}
    for row in p.part("Fees"):
        if not (blank(row.get("min_age")) and blank(row.get("max_age"))):
            ranges.setdefault((integer(row.get("min_age")), integer(row.get("max_age"))), row)
    if ranges:
        body["age_buckets"] = [{"min_age": lo, "max_age": hi} for lo, hi in ranges]
        for i, row in enumerate(ranges.values()):
            cells.at(f"age_buckets[{i}]", p.cell(row, "min_age"))
            cells.at(f"age_buckets[{i}].min_age", p.cell(row, "min_age"))
            cells.at(f"age_buckets[{i}].max_age", p.cell(row, "max_age"))
        cells.at("age_buckets", p.cell(next(iter(ranges.values())), "min_age"))


def build_settings(p: PropertyRows, issues: list[dict]) -> Request | None:
    """The settings body of one property (``None`` when the workbook fills no group)."""
    prop = next(iter(p.part("Property")), None)
    cells = CellMap(root=p.root())
    body: dict[str, Any] = {}
    if prop is not None:
        ps = _property_settings(p, prop, cells)
        if ps:
            body["property_settings"] = ps
        model = text(prop.get("booking_model"))
        if model:
            body["booking_model"] = {"type": model.upper()}
            cells.at("booking_model", p.cell(prop, "booking_model"))
            cells.at("booking_model.type", p.cell(prop, "booking_model"))
        exceptions = _exceptions(p, prop, cells)
        if exceptions:
            body["cancellation_exceptions"] = exceptions
        answers = {key: flag(prop.get(col)) for key, col in _FRENCH}
        if any(v is not None for v in answers.values()):
            french: dict[str, Any] = {k: v for k, v in answers.items() if v is not None}
            for key, col in (("category_id", "tax_category"), ("nature_id", "tax_nature_category")):
                if not blank(prop.get(col)):
                    french[key] = text(prop.get(col))
            body["french_tax_details"] = french
            cells.at("french_tax_details", p.cell(prop, "tax_declares_revenue"))
            for key, col in (*_FRENCH, ("category_id", "tax_category"), ("nature_id", "tax_nature_category")):
                cells.at(f"french_tax_details.{key}", p.cell(prop, col))
    _policies(p, body, cells)
    _phrases(p, body, cells, issues)
    _lists(p, body, cells)
    if not body:
        return None
    payload = finish(PropertySettingsGroups, body, cells, issues, api=API)
    if not payload:
        return None
    return Request(p.key, p.hotel_code, p.custom_id, "settings.write", payload, cells)


def _off_or(value: str | None, prefix: str, enabled: bool | None) -> int | None:
    if enabled is False:
        return 0
    return int(value[len(prefix):]) if value and value.startswith(prefix) else None


def settings_rows(read: PropertySettingsGroups, key: dict) -> dict[str, list[dict]]:
    """The settings cells of the Property row (``Property``: one partial row) and the rows of the other sheets."""
    row: dict[str, Any] = {}
    ps = read.property_settings
    if ps is not None:
        row["no_cvc"] = None if ps.require_cvc is None else int(not ps.require_cvc)
        for attr, col in _SETTINGS:
            value = getattr(ps, attr)
            row[col] = None if value is None else int(value)
        for group, enabled, low, high, lo_key, hi_key in _GROUPS:
            sub = getattr(ps, group)
            if sub is None:
                continue
            row[enabled] = None if sub.enabled is None else int(sub.enabled)
            row[low] = getattr(sub, lo_key)
            if high and hi_key:
                row[high] = getattr(sub, hi_key)
        row["pricing_type"] = {"STANDARD": "Standard"}.get((ps.pricing_type or "").upper(), ps.pricing_type)
    if read.booking_model is not None:
        row["booking_model"] = read.booking_model.type
    ce = read.cancellation_exceptions
    if ce is not None:
        if ce.grace_period is not None:
            row["grace_hours"] = _off_or(ce.grace_period.after_booking, "HOURS_", ce.grace_period.enabled)
        if ce.advance_cancellation is not None:
            row["grace_weeks"] = _off_or(ce.advance_cancellation.before_check_in, "WEEKS_",
                                         ce.advance_cancellation.enabled)
    fr = read.french_tax_details
    if fr is not None:
        for attr, col in _FRENCH:
            value = getattr(fr, attr)
            row[col] = None if value is None else int(value)
        row["tax_category"] = None if fr.category_id in (None, "") else int(fr.category_id)
        row["tax_nature_category"] = None if fr.nature_id in (None, "") else int(fr.nature_id)
    out: dict[str, list[dict]] = {"Property": [{**key, **row}], "Policies": [], "Payments": [], "Invoice": [],
                                  "Phrases": []}
    policy: dict[str, Any] = {}
    if read.pets is not None:
        policy["pets_allowed"] = {v: k.title() for k, v in PETS.items()}.get(read.pets.pets_allowed or "",
                                                                            read.pets.pets_allowed)
        policy["pets_non_refundable_fee"] = {v: k for k, v in PETS_FEE.items()}.get(read.pets.pets_price_type or "")
    cp = read.children_policies
    if cp is not None:
        policy["accepted_guest_type"] = {True: "ChildrenAllowed", False: "AdultOnly"}.get(cp.allow_children)  # type: ignore[arg-type]
        policy["min_guest_age"] = cp.min_age
    if policy:
        out["Policies"].append({**key, **policy})
    if read.accepted_payment_types is not None:
        out["Payments"] = [{**key, "payment_type_code": c} for c in read.accepted_payment_types.codes or ()]
    inv = read.invoice_settings
    if inv is not None and inv.brazil_tax_details is not None:
        b = inv.brazil_tax_details
        out["Invoice"].append({**key, "tax_type": b.tax_payer_number_type, "tax_number": b.tax_payer_number,
                               "city_hall_id": b.city_hall_id, "invoice_email": b.email})
    for phrase in read.standard_phrases or ():
        out["Phrases"].append({**key, "phrase_name": phrase.name, "enabled": int(bool(phrase.enabled))})
    if read.renovation is not None:
        ren = read.renovation
        base = {**key, "phrase_name": "Renovation", "enabled": int(bool(ren.enabled))}
        opts = [(o, v) for o, v in (("RenovationFrom", ren.start), ("RenovationUntil", ren.end)) if v]
        out["Phrases"] += [{**base, "option_name": o, "option_value": v} for o, v in opts] or [base]
    if read.bed_linen_policy is not None:
        bl = read.bed_linen_policy
        base = {**key, "phrase_name": "HotelChainBedLinen", "enabled": int(bool(bl.enabled))}
        out["Phrases"].append({**base, "option_name": "HotelChainBedLinenAmount", "option_value": f"{bl.amount:g}"}
                              if bl.amount is not None else base)
    return out
