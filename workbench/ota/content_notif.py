"""OTA_HotelDescriptiveContentNotifRQ (spec E4): one property's content, ``New`` or ``Overlay``.

:func:`build_content` turns the canonical part frames of one property (the columns of
``loaders.read_content``, see :data:`PART_COLUMNS`) into one request with one
``HotelDescriptiveContent`` (HDC); :func:`parse_content` reads a request back into the same
frames (canonical rows: see below), so ``parse_content(build_content(parts))`` gives the parts
back, and the journal keeps what was accepted in that form. :func:`parse_content_response`
reads the answer: ``UniqueID Type="10" ID=…`` is the property id.

How rows become elements (and come back):

- ``Property``: one row; its columns are spread over HDC's attributes, ``HotelInfo``,
  ``Policies/Policy`` and HDC's ``TPA_Extensions`` (each column's path in :data:`PART_COLUMNS`'s
  documentation, ``loaders.content_schema``).
- ``Contacts``: the rows of one ``profile_type`` form one ``ContactInfo``; address and name from the
  first row that has them, every e-mail and phone in row order (read back: address and name on
  the first row, the n-th e-mail and phone on the n-th row).
- ``Policies``: one ``CancelPenalty`` per row with ``cancel_policy_code``, one ``GuaranteePayment``
  per row with ``guarantee_policy_code``; pets and guest fields from the first row that has them.
- ``Restaurants``: the rows of one ``restaurant_name`` form one ``Restaurant`` (its own fields from
  its first row) with one ``OperationTime`` per row that has ``open_start``.
- ``Phrases``: the rows of one ``phrase_name`` form one ``StandardPhrase`` with one ``Option`` per
  row that has ``option_name`` (the option's value is the element's text).
- every other part: one element per row.

Elements follow the OTA 2014B order; the platform's ``TPA_Extensions`` and the attributes OTA does
not define (:data:`PLATFORM_ATTRIBUTES`) are removed by :func:`without_platform_extensions` before a
schema check.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from lxml import etree

from workbench.ota.ns import OTA_NS, child, children, localname, parse_xml
from workbench.ota.response import Notice, parse_response

VERSION = "1.0"
NEW, OVERLAY = "New", "Overlay"
NOTIF_TYPES = (NEW, OVERLAY)
STAR_RATING = "Star rating"
#: UniqueID@Type of the property id in the answer (OTA code list UIT 10 = hotel)
PROPERTY_ID_TYPE = "10"
BUILD_HOTEL = "BuildHotel"

KEY_COLUMNS = {"hotel_code": "Int64", "custom_id": "string", "property": "string"}
PROVENANCE = ("source", "sheet", "row")
_TAX = {"code": "Int64", "amount": "float64", "percent": "float64", "decimal_places": "Int64", "type": "string",
        "charge_frequency": "Int64", "inv_code": "string"}
_S, _I, _F, _L, _D = "string", "Int64", "float64", "object", "datetime64[ns]"

#: the columns of each part after its key (``hotel_code``, ``custom_id``, ``property``) and before its
#: provenance (``source``, ``sheet``, ``row``), with their dtypes: the contract of ``loaders.read_content``
PART_COLUMNS: dict[str, dict[str, str]] = {
    "Property": {
        "notif_type": _S, "hotel_name": _S, "language_code": _S, "currency_code": _S, "target": _S,
        "property_class_code": _I, "exists_code": _I, "sellable_units": _I, "latitude": _F, "longitude": _F,
        "legal_entity_id": _I, "check_in_time": _S, "check_out_time": _S, "star_rating": _I, "booking_model": _S,
        "pricing_type": _S, "total_floors": _I, "accept_long_stay": _I, "max_length_of_stay": _I, "grace_hours": _I,
        "grace_weeks": _I, "prevent_likely_cancelled": _I, "no_cvc": _I, "view_cc_details": _I,
        "require_guest_address": _I, "require_guest_contact_number": _I, "has_age_restriction": _I,
        "age_restriction_min": _I, "age_restriction_max": _I, "has_curfew": _I, "curfew_start": _S,
        "curfew_end": _S, "tax_registered_in_vcs": _I, "tax_has_vat": _I, "tax_declares_revenue": _I,
        "tax_category": _I, "tax_nature_category": _I, "overwrite_future_fees": _I, "empty_parts": _L},
    "Contacts": {
        "profile_type": _S, "hide_address": _I, "address_language": _S, "address_line": _S, "city": _S,
        "postcode": _S, "country": _S, "state_code": _S, "address_hotel_name": _S, "name_language": _S,
        "gender": _S, "given_name": _S, "surname": _S, "job_title": _S, "email": _S, "phone": _S,
        "phone_tech_type": _I, "phone_extension": _S},
    "Languages": {"language_code": _S},
    "Policies": {
        "cancel_policy_code": _I, "no_show_penalty": _S, "guarantee_policy_code": _I,
        "prepayment_effective_from": _S, "pets_allowed": _S, "pets_non_refundable_fee": _S,
        "total_guest_count": _I, "accepted_guest_type": _S, "min_guest_age": _I},
    "Taxes": dict(_TAX),
    "Fees": {**_TAX, "min_age": _I, "max_age": _I, "conditions": _L, "internet_type": _S,
             "internet_coverage": _S, "parking_type": _S, "parking_reservation": _S, "parking_property": _S},
    "Services": {"code": _I, "exists_code": _I, "included": _S, "price": _I, "currency_code": _S,
                 "features": _L, "types": _L, "breakfast_items": _L},
    "Restaurants": {
        "restaurant_name": _S, "offer_breakfast": _I, "offer_brunch": _I, "offer_dinner": _I, "offer_lunch": _I,
        "cuisines": _L, "features": _L, "ambiances": _L, "dietary_options": _L, "mon": _I, "tue": _I, "wed": _I,
        "thu": _I, "fri": _I, "sat": _I, "sun": _I, "open_start": _S, "open_end": _S},
    "Attractions": {"category_code": _I, "attraction_name": _S, "distance": _F, "distance_unit": _S,
                    "language_code": _S},
    "Transport": {
        "transport_type_code": _I, "journey_minutes": _I, "departure_interval": _I,
        "departure_upon_arrangement": _I, "junction_name": _S, "line_name": _S, "motorway_name": _S,
        "start_type": _S, "start_code": _S, "price_amount": _F, "price_currency": _S},
    "Payments": {"payment_type_code": _I},
    "Invoice": {"tax_type": _S, "tax_number": _S, "invoice_email": _S, "city_hall_id": _S, "birth_date": _D},
    "Phrases": {"phrase_name": _S, "enabled": _I, "option_name": _S, "option_value": _S},
    "Awards": {"provider": _S, "rating": _I},
}
PARTS: tuple[str, ...] = tuple(PART_COLUMNS)
#: parts that are lists of rows (every part but Property): the ones an Overlay can drop
LIST_PARTS: tuple[str, ...] = PARTS[1:]

#: (element, attribute) pairs the platform uses beyond OTA 2014B.
PLATFORM_ATTRIBUTES: frozenset[tuple[str, str]] = frozenset({
    ("HotelDescriptiveContent", "HotelDescriptiveContentNotifType"), ("HotelDescriptiveContent", "Target"),
    ("HotelDescriptiveContent", "LanguageCode"), ("HotelDescriptiveContent", "CurrencyCode"),
    ("ContactInfo", "ContactProfileType"), ("Phone", "Extension"),
    ("Restaurant", "OfferBreakfast"), ("Restaurant", "OfferBrunch"), ("Restaurant", "OfferDinner"),
    ("Restaurant", "OfferLunch"), ("Attraction", "Distance"), ("Attraction", "DistanceUnit"),
    ("Attraction", "LanguageCode"), ("FeePolicy", "MinAge"), ("FeePolicy", "MaxAge"), ("FeePolicy", "InvCode"),
    ("TaxPolicy", "InvCode"), ("Service", "Price"), ("Service", "CurrencyCode"), ("Service", "Included"),
    ("PolicyInfo", "AcceptedGuestType"), ("PolicyInfo", "MinGuestAge"), ("Language", "LanguageCode"),
    # OTA: xs:time; the platform: HH:MM (or HH:MM-HH:MM)
    ("PolicyInfo", "CheckInTime"), ("PolicyInfo", "CheckOutTime"), ("OperationTime", "Start"), ("OperationTime", "End"),
    ("Feature", "DescriptiveText"), ("PetsPolicy", "NonRefundableFee"),
})
#: the platform's spelling of OTA elements (spec E4: ``SurName``; OTA: ``Surname``), renamed for a schema check
PLATFORM_SPELLINGS: dict[str, str] = {"SurName": "Surname"}
#: elements the platform uses beyond OTA 2014B (besides TPA_Extensions), removed for a schema check
PLATFORM_ELEMENTS: frozenset[str] = frozenset({"HiddenAddress", "Types", "Items", "HotelName"})
_WEEKDAYS = (("mon", "Mon"), ("tue", "Tue"), ("wed", "Weds"), ("thu", "Thur"), ("fri", "Fri"), ("sat", "Sat"),
             ("sun", "Sun"))


def _q(tag: str) -> str:
    return f"{{{OTA_NS}}}{tag}"


def _missing(value: object) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    if isinstance(value, (list, tuple)):
        return False
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _text(value: object) -> str | None:
    """An attribute's text: whole numbers without ``.0``, decimals positional, dates ``YYYY-MM-DD``."""
    if _missing(value):
        return None
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return np.format_float_positional(float(value), trim="-")
    if isinstance(value, (pd.Timestamp, dt.datetime)):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _sub(parent: etree._Element, tag: str, attrs: Mapping[str, object] | None = None,
         text: object = None) -> etree._Element:
    el = etree.SubElement(parent, _q(tag), {k: t for k, v in (attrs or {}).items() if (t := _text(v)) is not None})
    if text is not None and not _missing(text):
        el.text = _text(text)
    return el


def _has(row: Mapping[str, object], *names: str) -> bool:
    return any(not _missing(row.get(n)) for n in names)


def _first(rows: list[dict], name: str) -> object:
    """The first value of ``name`` that is there (a non-empty list for list columns)."""
    for r in rows:
        v = r.get(name)
        if not _missing(v) and not (isinstance(v, list) and not v):
            return v
    return None


def _first_list(rows: list[dict], name: str) -> list[object]:
    value = _first(rows, name)
    return list(value) if isinstance(value, (list, tuple)) else []


def _records(frame: pd.DataFrame | list[dict] | None) -> list[dict]:
    if frame is None:
        return []
    if isinstance(frame, list):
        return frame
    return frame.to_dict("records") if len(frame) else []


def _groups(rows: list[dict], key: str) -> list[list[dict]]:
    """Rows grouped by ``key`` in the order each key first appears."""
    out: dict[object, list[dict]] = {}
    for r in rows:
        out.setdefault(_text(r.get(key)), []).append(r)
    return list(out.values())


# --- building -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Hdc:
    """The HDC being built and its optional children, created on first use in the schema's order."""

    hdc: etree._Element

    ORDER = ("HotelInfo", "FacilityInfo", "Policies", "AreaInfo", "AffiliationInfo", "ContactInfos",
             "TPA_Extensions")

    def get(self, tag: str) -> etree._Element:
        found = child(self.hdc, tag)
        if found is not None:
            return found
        el = etree.Element(_q(tag))
        rank = self.ORDER.index(tag)
        after = [c for c in self.hdc if localname(c) in self.ORDER and self.ORDER.index(localname(c)) > rank]
        if after:
            after[0].addprevious(el)
        else:
            self.hdc.append(el)
        return el


def build_content(parts: Mapping[str, pd.DataFrame] | Mapping[str, list[dict]], *, notif_type: str | None = None,
                  hotel_code: int | None = None, custom_id: str | None = None,
                  timestamp: dt.datetime | None = None) -> bytes:
    """One ``OTA_HotelDescriptiveContentNotifRQ`` for one property from its part frames, or their rows as
    dicts (missing parts and empty frames are left out). ``notif_type``, ``hotel_code`` and ``custom_id`` default to
    the ``Property`` row's (``New`` without a HotelCode, else ``Overlay``)."""
    prop = (_records(parts.get("Property")) or [{}])[0]
    hotel_code = hotel_code if hotel_code is not None else (None if _missing(prop.get("hotel_code"))
                                                            else int(prop["hotel_code"]))
    custom_id = custom_id if custom_id is not None else _text(prop.get("custom_id"))
    if notif_type is None:
        notif_type = _text(prop.get("notif_type")) or (NEW if hotel_code is None else OVERLAY)
    if notif_type not in NOTIF_TYPES:
        raise ValueError(f"HotelDescriptiveContentNotifType is New or Overlay, not `{notif_type}`")
    if notif_type == OVERLAY and hotel_code is None:
        raise ValueError("an Overlay needs the property's HotelCode")
    ts = (timestamp or dt.datetime.now(dt.UTC)).replace(microsecond=0).isoformat()
    root = etree.Element(_q("OTA_HotelDescriptiveContentNotifRQ"), nsmap={None: OTA_NS}, Version=VERSION,
                         TimeStamp=ts)
    hdcs = etree.SubElement(root, _q("HotelDescriptiveContents"))
    h = _Hdc(_sub(hdcs, "HotelDescriptiveContent", {
        "HotelDescriptiveContentNotifType": notif_type, "HotelCode": hotel_code, "ID": custom_id,
        "HotelName": prop.get("hotel_name"), "LanguageCode": prop.get("language_code"),
        "CurrencyCode": prop.get("currency_code"), "Target": prop.get("target")}))
    rows = {p: _records(parts.get(p)) for p in LIST_PARTS}
    _hotel_info(h, prop, rows, notif_type)
    _facility_info(h, rows["Restaurants"])
    _policies(h, prop, rows)
    _area_info(h, rows["Attractions"])
    _affiliation(h, prop, rows["Awards"])
    _contacts(h, rows["Contacts"])
    _hdc_extensions(h, prop, rows["Phrases"])
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _hotel_info(h: _Hdc, prop: dict, rows: dict[str, list[dict]], notif_type: str) -> None:
    # OTA 2014B HotelInfoType order: RelativePositions, CategoryCodes, Position, Services, OwnershipManagementInfos,
    # Languages; the platform's TPA_Extensions last
    info = h.get("HotelInfo")
    if rows["Transport"]:
        rel = _sub(_sub(info, "RelativePositions"), "RelativePosition")
        transports = _sub(rel, "Transportations")
        for r in rows["Transport"]:
            leg = _sub(_sub(_sub(_sub(transports, "Transportation"), "TPA_Extensions"), "Route"), "Leg")
            _sub(leg, "TransportType", {"Code": r.get("transport_type_code")})
            _sub(leg, "JourneyTime", {"Minutes": r.get("journey_minutes")})
            if _has(r, "departure_interval", "departure_upon_arrangement"):
                _sub(leg, "Departure", {"Interval": r.get("departure_interval"),
                                        "UponArrangement": r.get("departure_upon_arrangement")})
            for col, tag in (("junction_name", "Junction"), ("line_name", "Line"), ("motorway_name", "Motorway")):
                if _has(r, col):
                    _sub(leg, tag, {"Name": r.get(col)})
            if _has(r, "start_type", "start_code"):
                _sub(leg, "Start", {"Type": r.get("start_type"), "Code": r.get("start_code")})
            if _has(r, "price_amount", "price_currency"):
                _sub(leg, "Price", {"Amount": r.get("price_amount"), "CurrencyCode": r.get("price_currency")})
    if _has(prop, "property_class_code", "exists_code", "sellable_units"):
        codes = _sub(info, "CategoryCodes")
        if _has(prop, "property_class_code", "exists_code"):
            _sub(codes, "HotelCategory", {"Code": prop.get("property_class_code"),
                                          "ExistsCode": prop.get("exists_code")})
        if _has(prop, "sellable_units"):
            _sub(codes, "GuestRoomInfo", {"Quantity": prop.get("sellable_units")})
    if _has(prop, "latitude", "longitude"):
        _sub(info, "Position", {"Latitude": prop.get("latitude"), "Longitude": prop.get("longitude")})
    if rows["Services"]:
        services = _sub(info, "Services")
        for r in rows["Services"]:
            s = _sub(services, "Service", {"Code": r.get("code"), "ExistsCode": r.get("exists_code"),
                                           "Included": r.get("included"), "Price": r.get("price"),
                                           "CurrencyCode": r.get("currency_code")})
            for tag, item, attr, col in (("Features", "Feature", "DescriptiveText", "features"),
                                         ("Types", "Type", "Code", "types"),
                                         ("Items", "Item", "Code", "breakfast_items")):
                if r.get(col):
                    holder = _sub(s, tag)
                    for v in r[col]:
                        _sub(holder, item, {attr: v})
    if _has(prop, "legal_entity_id") or notif_type == NEW:  # "only for new properties; the array itself is required"
        owners = _sub(info, "OwnershipManagementInfos")
        if _has(prop, "legal_entity_id"):
            _sub(_sub(owners, "OwnershipManagementInfo"), "CompanyName", {"Code": prop.get("legal_entity_id")})
    if rows["Languages"]:
        langs = _sub(info, "Languages")
        for r in rows["Languages"]:
            _sub(langs, "Language", {"LanguageCode": r.get("language_code")})
    tpa_rows = rows["Payments"] or rows["Invoice"] or _has(prop, "no_cvc", "view_cc_details")
    if tpa_rows:
        tpa = _sub(info, "TPA_Extensions")
        if rows["Payments"]:
            pays = _sub(tpa, "AcceptedPayments")
            for r in rows["Payments"]:
                _sub(pays, "AcceptedPayment", {"PaymentTypeCode": r.get("payment_type_code")})
        if rows["Invoice"]:
            r = rows["Invoice"][0]
            inv = _sub(tpa, "InvoiceDetails")
            for col, tag, attr in (("tax_type", "InvoiceTaxType", "Type"), ("tax_number", "InvoiceTaxNumber", "Code"),
                                   ("invoice_email", "InvoiceAddress", "Email"),
                                   ("city_hall_id", "CityHallInfo", "Id"), ("birth_date", "BirthDate", "Date")):
                if _has(r, col):
                    _sub(inv, tag, {attr: r.get(col)})
        if _has(prop, "no_cvc", "view_cc_details"):
            _sub(tpa, "PaymentPreferences", {"NoCVC": prop.get("no_cvc"), "ViewCCDetails": prop.get("view_cc_details")})


def _facility_info(h: _Hdc, rows: list[dict]) -> None:
    if not rows:
        return
    restaurants = _sub(h.get("FacilityInfo"), "Restaurants")
    for group in _groups(rows, "restaurant_name"):
        first = group[0]
        rest = _sub(restaurants, "Restaurant", {
            "RestaurantName": first.get("restaurant_name"), "OfferBreakfast": _first(group, "offer_breakfast"),
            "OfferBrunch": _first(group, "offer_brunch"), "OfferDinner": _first(group, "offer_dinner"),
            "OfferLunch": _first(group, "offer_lunch")})
        # OTA 2014B RestaurantType order: OperationSchedules, CuisineCodes, TPA_Extensions; the Restaurants
        # extension adds Features after them
        times = [r for r in group if _has(r, "open_start")]
        if times:
            ops = _sub(_sub(_sub(rest, "OperationSchedules"), "OperationSchedule"), "OperationTimes")
            for r in times:
                _sub(ops, "OperationTime", {**{attr: r.get(col) for col, attr in _WEEKDAYS},
                                            "Start": r.get("open_start"), "End": r.get("open_end")})
        cuisines = _first_list(group, "cuisines")
        if cuisines:
            holder = _sub(rest, "CuisineCodes")
            for c in cuisines:
                _sub(holder, "CuisineCode", {"Code": c})
        ambiances, dietary = _first_list(group, "ambiances"), _first_list(group, "dietary_options")
        if ambiances or dietary:
            tpa = _sub(rest, "TPA_Extensions")
            if ambiances:
                holder = _sub(tpa, "Ambiances")
                for a in ambiances:
                    _sub(holder, "Ambiance", {"Name": a})
            if dietary:
                holder = _sub(tpa, "DietaryOptions")
                for d in dietary:
                    _sub(holder, "DietaryOption", {"Name": d})
        features = _first_list(group, "features")
        if features:
            holder = _sub(rest, "Features")
            for f in features:
                _sub(holder, "Feature", {"DescriptiveText": f})


def _policies(h: _Hdc, prop: dict, rows: dict[str, list[dict]]) -> None:
    pol_rows, taxes, fees = rows["Policies"], rows["Taxes"], rows["Fees"]
    if not (pol_rows or taxes or fees or _has(prop, "check_in_time", "check_out_time", "overwrite_future_fees")):
        return
    policy = _sub(h.get("Policies"), "Policy")
    # OTA 2014B Policy order: CancelPolicy, GuaranteePaymentPolicy, PolicyInfo, TaxPolicies, PetsPolicies,
    # FeePolicies; the platform's TPA_Extensions last
    penalties = [r for r in pol_rows if _has(r, "cancel_policy_code")]
    if penalties:
        cancel = _sub(policy, "CancelPolicy")
        for r in penalties:
            pen = _sub(cancel, "CancelPenalty", {"PolicyCode": r.get("cancel_policy_code")})
            if _has(r, "no_show_penalty"):
                _sub(_sub(pen, "TPA_Extensions"), "NoShowPolicy", {"Penalty": r.get("no_show_penalty")})
    guarantees = [r for r in pol_rows if _has(r, "guarantee_policy_code")]
    if guarantees:
        gpp = _sub(policy, "GuaranteePaymentPolicy")
        for r in guarantees:
            g = _sub(gpp, "GuaranteePayment", {"PolicyCode": r.get("guarantee_policy_code")})
            if _has(r, "prepayment_effective_from"):
                _sub(_sub(g, "TPA_Extensions"), "PrepaymentPolicy", {"EffectiveFrom": r.get("prepayment_effective_from")})
    info = {"CheckInTime": prop.get("check_in_time"), "CheckOutTime": prop.get("check_out_time"),
            "TotalGuestCount": _first(pol_rows, "total_guest_count"),
            "AcceptedGuestType": _first(pol_rows, "accepted_guest_type"),
            "MinGuestAge": _first(pol_rows, "min_guest_age")}
    if any(not _missing(v) for v in info.values()):
        _sub(policy, "PolicyInfo", info)
    if taxes:
        holder = _sub(policy, "TaxPolicies")
        for r in taxes:
            _sub(holder, "TaxPolicy", _tax_attrs(r))
    pets, fee = _first(pol_rows, "pets_allowed"), _first(pol_rows, "pets_non_refundable_fee")
    if pets is not None or fee is not None:
        holder = _sub(policy, "PetsPolicies", {"PetsAllowedCode": pets})
        if fee is not None:
            _sub(holder, "PetsPolicy", {"NonRefundableFee": fee})
    if fees:
        holder = _sub(policy, "FeePolicies")
        for r in fees:
            f = _sub(holder, "FeePolicy", {**_tax_attrs(r), "MinAge": r.get("min_age"), "MaxAge": r.get("max_age")})
            if r.get("conditions") or _has(r, "internet_type", "internet_coverage", "parking_type",
                                           "parking_reservation", "parking_property"):
                tpa = _sub(f, "TPA_Extensions")
                if r.get("conditions"):
                    holder_c = _sub(tpa, "Conditions")
                    for c in r["conditions"]:
                        _sub(holder_c, "Condition", {"Type": c})
                if _has(r, "internet_type", "internet_coverage"):
                    _sub(tpa, "InternetFeePolicy", {"InternetType": r.get("internet_type"),
                                                    "InternetCoverage": r.get("internet_coverage")})
                if _has(r, "parking_type", "parking_reservation", "parking_property"):
                    _sub(tpa, "ParkingFeePolicy", {"ParkingType": r.get("parking_type"),
                                                   "ParkingReservation": r.get("parking_reservation"),
                                                   "ParkingProperty": r.get("parking_property")})
    if _has(prop, "overwrite_future_fees"):
        _sub(policy, "TPA_Extensions", {"OverwriteFutureFees": prop.get("overwrite_future_fees")})


def _tax_attrs(r: dict) -> dict[str, object]:
    return {"Code": r.get("code"), "Amount": r.get("amount"), "Percent": r.get("percent"),
            "DecimalPlaces": r.get("decimal_places"), "Type": r.get("type"),
            "ChargeFrequency": r.get("charge_frequency"), "InvCode": r.get("inv_code")}


def _area_info(h: _Hdc, rows: list[dict]) -> None:
    if not rows:
        return
    holder = _sub(h.get("AreaInfo"), "Attractions")
    for r in rows:
        _sub(holder, "Attraction", {"AttractionCategoryCode": r.get("category_code"),
                                    "AttractionName": r.get("attraction_name"), "Distance": r.get("distance"),
                                    "DistanceUnit": r.get("distance_unit"), "LanguageCode": r.get("language_code")})


def _affiliation(h: _Hdc, prop: dict, rows: list[dict]) -> None:
    if not rows and not _has(prop, "star_rating"):
        return
    awards = _sub(h.get("AffiliationInfo"), "Awards")
    if _has(prop, "star_rating"):
        _sub(awards, "Award", {"Provider": STAR_RATING, "Rating": prop.get("star_rating")})
    for r in rows:
        _sub(awards, "Award", {"Provider": r.get("provider"), "Rating": r.get("rating")})


def _contacts(h: _Hdc, rows: list[dict]) -> None:
    if not rows:
        return
    infos = h.get("ContactInfos")
    address_cols = ("address_language", "address_line", "city", "postcode", "country", "state_code",
                    "address_hotel_name")
    name_cols = ("name_language", "gender", "given_name", "surname", "job_title")
    for group in _groups(rows, "profile_type"):
        info = _sub(infos, "ContactInfo", {"ContactProfileType": group[0].get("profile_type")})
        # ContactInfoType (OTA 2014B) order: Names, Addresses, Phones, Emails, ...; HiddenAddress is the platform's
        hide = _first(group, "hide_address")
        name = next((r for r in group if _has(r, *name_cols)), None)
        address = next((r for r in group if _has(r, *address_cols)), None)
        if name is not None:
            n = _sub(_sub(info, "Names"), "Name", {"Language": name.get("name_language"), "Gender": name.get("gender")})
            for col, tag in (("given_name", "GivenName"), ("surname", "SurName"), ("job_title", "JobTitle")):
                if _has(name, col):
                    _sub(n, tag, text=name.get(col))
        if address is not None:
            a = _sub(_sub(info, "Addresses"), "Address", {"Language": address.get("address_language")})
            if _has(address, "address_line"):
                _sub(a, "AddressLine", text=address.get("address_line"))
            if _has(address, "city"):
                _sub(a, "CityName", text=address.get("city"))
            if _has(address, "postcode"):
                _sub(a, "PostalCode", text=address.get("postcode"))
            if _has(address, "state_code"):
                _sub(a, "StateProv", {"StateCode": address.get("state_code")})
            if _has(address, "country"):
                _sub(a, "CountryName", text=address.get("country"))
            if _has(address, "address_hotel_name"):
                _sub(a, "HotelName", text=address.get("address_hotel_name"))
        phones = [r for r in group if _has(r, "phone")]
        if phones:
            holder = _sub(info, "Phones")
            for r in phones:
                _sub(holder, "Phone", {"PhoneNumber": r.get("phone"), "PhoneTechType": r.get("phone_tech_type"),
                                       "Extension": r.get("phone_extension")})
        emails = [r for r in group if _has(r, "email")]
        if emails:
            holder = _sub(info, "Emails")
            for r in emails:
                _sub(holder, "Email", text=r.get("email"))
        if hide is not None:
            _sub(info, "HiddenAddress", {"ShouldHideAddress": hide})


_GUEST_INFO = (("require_guest_address", "RequireGuestAddress"),
               ("require_guest_contact_number", "RequireGuestContactNumber"),
               ("has_age_restriction", "HasAgeRestriction"), ("age_restriction_min", "AgeRestrictionMin"),
               ("age_restriction_max", "AgeRestrictionMax"), ("has_curfew", "HasCurfew"),
               ("curfew_start", "CurfewStart"), ("curfew_end", "CurfewEnd"))
_TAX_INFO = (("tax_registered_in_vcs", "PropertyRegisteredInVcs"), ("tax_has_vat", "PropertyHasVat"),
             ("tax_declares_revenue", "PropertyDeclaresRevenue"), ("tax_category", "PropertyTaxCategory"),
             ("tax_nature_category", "PropertyNatureCategory"))
#: HDC/TPA_Extensions children that carry Property columns: (element, ((column, attribute), ...))
_HDC_TPA: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("GuestInformation", _GUEST_INFO),
    ("PropertyTaxInfo", _TAX_INFO),
    ("PreventLikelyToBeCancelledBookings", (("prevent_likely_cancelled", "Enabled"),)),
    ("CancellationGracePeriod", (("grace_hours", "HoursAfterBooking"), ("grace_weeks", "WeeksBeforeCheckIn"))),
    ("TotalNumberOfFloors", (("total_floors", "Number"),)),
    ("PricingType", (("pricing_type", "Value"),)),
    ("LongStayInfo", (("accept_long_stay", "AcceptLongStay"), ("max_length_of_stay", "MaxLengthOfStay"))),
    ("BookingModel", (("booking_model", "Type"),)),
)


def _hdc_extensions(h: _Hdc, prop: dict, phrases: list[dict]) -> None:
    used = [(tag, cols) for tag, cols in _HDC_TPA if _has(prop, *(c for c, _ in cols))]
    if not used and not phrases:
        return
    tpa = h.get("TPA_Extensions")
    if phrases:
        holder = _sub(tpa, "StandardPhrases")
        for group in _groups(phrases, "phrase_name"):
            p = _sub(holder, "StandardPhrase", {"Name": group[0].get("phrase_name"),
                                                "Enabled": _first(group, "enabled")})
            options = [r for r in group if _has(r, "option_name")]
            if options:
                ops = _sub(p, "Options")
                for r in options:
                    _sub(ops, "Option", {"Name": r.get("option_name")}, text=r.get("option_value"))
    for tag, cols in used:
        _sub(tpa, tag, {attr: prop.get(col) for col, attr in cols})


def without_platform_extensions(root: etree._Element) -> etree._Element:
    """A copy of a request without ``TPA_Extensions``, :data:`PLATFORM_ELEMENTS` and
    :data:`PLATFORM_ATTRIBUTES`, spelled as OTA spells it (:data:`PLATFORM_SPELLINGS`), for schema checks."""
    doc = etree.fromstring(etree.tostring(root))
    for el in [e for e in doc.iter(etree.Element) if localname(e) in {"TPA_Extensions", *PLATFORM_ELEMENTS}]:
        parent = el.getparent()
        if parent is not None:
            parent.remove(el)
    for el in doc.iter(etree.Element):
        for name in list(el.attrib):
            if (localname(el), name) in PLATFORM_ATTRIBUTES:
                del el.attrib[name]
        if localname(el) in PLATFORM_SPELLINGS:
            el.tag = _q(PLATFORM_SPELLINGS[localname(el)])
    return doc


# --- parsing a request ----------------------------------------------------------------------------------

def _int(text: str | None) -> object:
    return int(text) if text is not None and text.strip().lstrip("-").isdigit() else pd.NA


def _float(text: str | None) -> object:
    try:
        return float(text) if text is not None else np.nan
    except ValueError:
        return np.nan


def _path(el: etree._Element | None, *names: str) -> etree._Element | None:
    for n in names:
        if el is None:
            return None
        el = child(el, n)
    return el


def _all(el: etree._Element | None, *names: str) -> list[etree._Element]:
    """Every element at the path ``names`` under ``el`` (each step may repeat)."""
    level = [el] if el is not None else []
    for n in names:
        level = [c for e in level for c in children(e, n)]
    return level


def _attr(el: etree._Element | None, name: str) -> str | None:
    return el.get(name) if el is not None else None


def _el_text(el: etree._Element | None) -> str | None:
    return el.text if el is not None and el.text is not None else None


def empty_part(part: str) -> pd.DataFrame:
    """A part's frame with no rows (key and part columns, no provenance)."""
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in {**KEY_COLUMNS, **PART_COLUMNS[part]}.items()})


def _frame(part: str, rows: list[dict], key: Mapping[str, object]) -> pd.DataFrame:
    columns = {**KEY_COLUMNS, **PART_COLUMNS[part]}
    if not rows:
        return empty_part(part)
    data = {}
    for c, t in columns.items():
        values = [key[c] if c in key else r.get(c) for r in rows]
        if t == "object":
            data[c] = pd.Series([v if isinstance(v, list) else [] for v in values], dtype=object)
        elif t == "datetime64[ns]":
            data[c] = pd.to_datetime(pd.Series([None if _missing(v) else v for v in values], dtype=object)).astype(t)
        elif t == "float64":
            data[c] = pd.Series([np.nan if _missing(v) else v for v in values], dtype="float64")
        else:
            data[c] = pd.Series([pd.NA if _missing(v) else v for v in values], dtype=t)
    return pd.DataFrame(data)


def parse_content(body: bytes) -> dict[str, pd.DataFrame]:
    """The part frames of a request's (first) HDC, in the canonical rows the module docstring describes."""
    key, rows = read_content_rows(body)
    return {part: _frame(part, rows[part], key) for part in PARTS}


def read_content_rows(body: bytes) -> tuple[dict[str, object], dict[str, list[dict]]]:
    """The property's key (``hotel_code``, ``custom_id``, ``property``) and each part's canonical rows as dicts
    (the part's columns only; what :func:`parse_content` makes frames of, without pandas' cost per frame)."""
    root = parse_xml(body)
    hdc = _path(root, "HotelDescriptiveContents", "HotelDescriptiveContent")
    if hdc is None:
        raise ValueError("no HotelDescriptiveContents/HotelDescriptiveContent element")
    code = _int(hdc.get("HotelCode"))
    cid = hdc.get("ID")
    key: dict[str, object] = {"hotel_code": code, "custom_id": cid if cid is not None else pd.NA,
           "property": str(code) if not _missing(code) else (cid if cid is not None else pd.NA)}
    info, policy, tpa = child(hdc, "HotelInfo"), _path(hdc, "Policies", "Policy"), child(hdc, "TPA_Extensions")
    itpa = child(info, "TPA_Extensions") if info is not None else None
    pinfo = child(policy, "PolicyInfo") if policy is not None else None
    cat = _path(info, "CategoryCodes", "HotelCategory")
    pos = _path(info, "Position")
    awards = _all(hdc, "AffiliationInfo", "Awards", "Award")
    star = next((a for a in awards if a.get("Provider") == STAR_RATING), None)
    pay = _path(itpa, "PaymentPreferences")
    prop: dict[str, object] = {
        "notif_type": hdc.get("HotelDescriptiveContentNotifType"), "hotel_name": hdc.get("HotelName"),
        "language_code": hdc.get("LanguageCode"), "currency_code": hdc.get("CurrencyCode"),
        "target": hdc.get("Target"), "property_class_code": _int(_attr(cat, "Code")),
        "exists_code": _int(_attr(cat, "ExistsCode")),
        "sellable_units": _int(_attr(_path(info, "CategoryCodes", "GuestRoomInfo"), "Quantity")),
        "latitude": _float(_attr(pos, "Latitude")), "longitude": _float(_attr(pos, "Longitude")),
        "legal_entity_id": _int(_attr(_path(info, "OwnershipManagementInfos", "OwnershipManagementInfo",
                                            "CompanyName"), "Code")),
        "check_in_time": _attr(pinfo, "CheckInTime"), "check_out_time": _attr(pinfo, "CheckOutTime"),
        "star_rating": _int(_attr(star, "Rating")), "no_cvc": _int(_attr(pay, "NoCVC")),
        "view_cc_details": _int(_attr(pay, "ViewCCDetails")),
        "overwrite_future_fees": _int(_attr(_path(policy, "TPA_Extensions"), "OverwriteFutureFees")),
        "empty_parts": [],
    }
    for tag, cols in _HDC_TPA:
        el = _path(tpa, tag)
        for col, attr in cols:
            kind = PART_COLUMNS["Property"][col]
            prop[col] = _int(_attr(el, attr)) if kind == _I else _attr(el, attr)
    out: dict[str, list[dict]] = {"Property": [prop], "Contacts": _read_contacts(hdc)}
    out["Languages"] = [{"language_code": e.get("LanguageCode")} for e in _all(info, "Languages", "Language")]
    out["Policies"] = _read_policies(policy)
    out["Taxes"] = [_read_tax(e) for e in _all(policy, "TaxPolicies", "TaxPolicy")]
    out["Fees"] = [_read_fee(e) for e in _all(policy, "FeePolicies", "FeePolicy")]
    out["Services"] = [{
        "code": _int(e.get("Code")), "exists_code": _int(e.get("ExistsCode")), "included": e.get("Included"),
        "price": _int(e.get("Price")), "currency_code": e.get("CurrencyCode"),
        "features": [f.get("DescriptiveText") for f in _all(e, "Features", "Feature")],
        "types": [t.get("Code") for t in _all(e, "Types", "Type")],
        "breakfast_items": [i.get("Code") for i in _all(e, "Items", "Item")],
    } for e in _all(info, "Services", "Service")]
    out["Restaurants"] = _read_restaurants(hdc)
    out["Attractions"] = [{
        "category_code": _int(e.get("AttractionCategoryCode")), "attraction_name": e.get("AttractionName"),
        "distance": _float(e.get("Distance")), "distance_unit": e.get("DistanceUnit"),
        "language_code": e.get("LanguageCode")} for e in _all(hdc, "AreaInfo", "Attractions", "Attraction")]
    out["Transport"] = [_read_leg(e) for e in _all(
        info, "RelativePositions", "RelativePosition", "Transportations", "Transportation", "TPA_Extensions",
        "Route", "Leg")]
    out["Payments"] = [{"payment_type_code": _int(e.get("PaymentTypeCode"))}
                       for e in _all(itpa, "AcceptedPayments", "AcceptedPayment")]
    inv = _path(itpa, "InvoiceDetails")
    out["Invoice"] = [] if inv is None else [{
        "tax_type": _attr(child(inv, "InvoiceTaxType"), "Type"),
        "tax_number": _attr(child(inv, "InvoiceTaxNumber"), "Code"),
        "invoice_email": _attr(child(inv, "InvoiceAddress"), "Email"),
        "city_hall_id": _attr(child(inv, "CityHallInfo"), "Id"),
        "birth_date": _attr(child(inv, "BirthDate"), "Date")}]
    out["Phrases"] = _read_phrases(tpa)
    out["Awards"] = [{"provider": a.get("Provider"), "rating": _int(a.get("Rating"))} for a in awards if a is not star]
    return key, out


def _read_contacts(hdc: etree._Element) -> list[dict]:
    rows: list[dict] = []
    for info in _all(hdc, "ContactInfos", "ContactInfo"):
        base = {"profile_type": info.get("ContactProfileType"),
                "hide_address": _int(_attr(child(info, "HiddenAddress"), "ShouldHideAddress"))}
        name, addr = _path(info, "Names", "Name"), _path(info, "Addresses", "Address")
        first = dict(base)
        if name is not None:
            first.update(name_language=name.get("Language"), gender=name.get("Gender"),
                         given_name=_el_text(child(name, "GivenName")), surname=_el_text(child(name, "SurName")),
                         job_title=_el_text(child(name, "JobTitle")))
        if addr is not None:
            first.update(address_language=addr.get("Language"), address_line=_el_text(child(addr, "AddressLine")),
                         city=_el_text(child(addr, "CityName")), postcode=_el_text(child(addr, "PostalCode")),
                         country=_el_text(child(addr, "CountryName")),
                         state_code=_attr(child(addr, "StateProv"), "StateCode"),
                         address_hotel_name=_el_text(child(addr, "HotelName")))
        phones, emails = _all(info, "Phones", "Phone"), _all(info, "Emails", "Email")
        for i in range(max(1, len(phones), len(emails))):
            row = first if i == 0 else dict(base)
            if i < len(phones):
                row.update(phone=phones[i].get("PhoneNumber"), phone_tech_type=_int(phones[i].get("PhoneTechType")),
                           phone_extension=phones[i].get("Extension"))
            if i < len(emails):
                row["email"] = _el_text(emails[i])
            rows.append(row)
    return rows


def _read_policies(policy: etree._Element | None) -> list[dict]:
    penalties = _all(policy, "CancelPolicy", "CancelPenalty")
    guarantees = _all(policy, "GuaranteePaymentPolicy", "GuaranteePayment")
    pets, pinfo = _path(policy, "PetsPolicies"), _path(policy, "PolicyInfo")
    first = {"pets_allowed": _attr(pets, "PetsAllowedCode"),
             "pets_non_refundable_fee": _attr(_path(pets, "PetsPolicy"), "NonRefundableFee"),
             "total_guest_count": _int(_attr(pinfo, "TotalGuestCount")),
             "accepted_guest_type": _attr(pinfo, "AcceptedGuestType"),
             "min_guest_age": _int(_attr(pinfo, "MinGuestAge"))}
    n = max(len(penalties), len(guarantees), 1 if any(not _missing(v) for v in first.values()) else 0)
    rows = []
    for i in range(n):
        row = dict(first) if i == 0 else {}
        if i < len(penalties):
            row.update(cancel_policy_code=_int(penalties[i].get("PolicyCode")),
                       no_show_penalty=_attr(_path(penalties[i], "TPA_Extensions", "NoShowPolicy"), "Penalty"))
        if i < len(guarantees):
            row.update(guarantee_policy_code=_int(guarantees[i].get("PolicyCode")),
                       prepayment_effective_from=_attr(_path(guarantees[i], "TPA_Extensions", "PrepaymentPolicy"),
                                                       "EffectiveFrom"))
        rows.append(row)
    return rows


def _read_tax(e: etree._Element) -> dict:
    return {"code": _int(e.get("Code")), "amount": _float(e.get("Amount")), "percent": _float(e.get("Percent")),
            "decimal_places": _int(e.get("DecimalPlaces")), "type": e.get("Type"),
            "charge_frequency": _int(e.get("ChargeFrequency")), "inv_code": e.get("InvCode")}


def _read_fee(e: etree._Element) -> dict:
    tpa = child(e, "TPA_Extensions")
    net, park = _path(tpa, "InternetFeePolicy"), _path(tpa, "ParkingFeePolicy")
    return {**_read_tax(e), "min_age": _int(e.get("MinAge")), "max_age": _int(e.get("MaxAge")),
            "conditions": [c.get("Type") for c in _all(tpa, "Conditions", "Condition")],
            "internet_type": _attr(net, "InternetType"), "internet_coverage": _attr(net, "InternetCoverage"),
            "parking_type": _attr(park, "ParkingType"), "parking_reservation": _attr(park, "ParkingReservation"),
            "parking_property": _attr(park, "ParkingProperty")}


def _read_restaurants(hdc: etree._Element) -> list[dict]:
    rows = []
    for rest in _all(hdc, "FacilityInfo", "Restaurants", "Restaurant"):
        own = {"restaurant_name": rest.get("RestaurantName"),
               **{c: _int(rest.get(a)) for c, a in (("offer_breakfast", "OfferBreakfast"),
                                                    ("offer_brunch", "OfferBrunch"), ("offer_dinner", "OfferDinner"),
                                                    ("offer_lunch", "OfferLunch"))},
               "cuisines": [c.get("Code") for c in _all(rest, "CuisineCodes", "CuisineCode")],
               "features": [f.get("DescriptiveText") for f in _all(rest, "Features", "Feature")],
               "ambiances": [a.get("Name") for a in _all(rest, "TPA_Extensions", "Ambiances", "Ambiance")],
               "dietary_options": [d.get("Name") for d in _all(rest, "TPA_Extensions", "DietaryOptions",
                                                               "DietaryOption")]}
        times = _all(rest, "OperationSchedules", "OperationSchedule", "OperationTimes", "OperationTime")
        for t in times or [None]:
            row = dict(own)
            if t is not None:
                row.update({c: _int(t.get(a)) for c, a in _WEEKDAYS}, open_start=t.get("Start"), open_end=t.get("End"))
            rows.append(row)
    return rows


def _read_leg(e: etree._Element) -> dict:
    dep, start, price = child(e, "Departure"), child(e, "Start"), child(e, "Price")
    return {"transport_type_code": _int(_attr(child(e, "TransportType"), "Code")),
            "journey_minutes": _int(_attr(child(e, "JourneyTime"), "Minutes")),
            "departure_interval": _int(_attr(dep, "Interval")),
            "departure_upon_arrangement": _int(_attr(dep, "UponArrangement")),
            "junction_name": _attr(child(e, "Junction"), "Name"), "line_name": _attr(child(e, "Line"), "Name"),
            "motorway_name": _attr(child(e, "Motorway"), "Name"), "start_type": _attr(start, "Type"),
            "start_code": _attr(start, "Code"), "price_amount": _float(_attr(price, "Amount")),
            "price_currency": _attr(price, "CurrencyCode")}


def _read_phrases(tpa: etree._Element | None) -> list[dict]:
    rows = []
    for p in _all(tpa, "StandardPhrases", "StandardPhrase"):
        own = {"phrase_name": p.get("Name"), "enabled": _int(p.get("Enabled"))}
        options = _all(p, "Options", "Option")
        rows += [{**own, "option_name": o.get("Name"), "option_value": o.text} for o in options] or [own]
    return rows


# --- the answer -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ContentAnswer:
    """What an ``OTA_HotelDescriptiveContentNotifRS`` says: the property id (``UniqueID Type="10"``),
    success, warnings, errors, ruid, and whether an error is ``BuildHotel`` (resend the same request)."""

    property_id: int | None
    success: bool
    warnings: tuple[Notice, ...]
    errors: tuple[Notice, ...]
    ruid: str | None

    @property
    def build_hotel(self) -> bool:
        return any(is_build_hotel(n) for n in self.errors)


def is_build_hotel(notice: Notice) -> bool:
    """An Error that names ``BuildHotel`` in its Code, ShortText, text or details (spec, Errors / States)."""
    return any(BUILD_HOTEL.casefold() in (t or "").casefold()
               for t in (notice.code, notice.short_text, notice.text, notice.details))


def parse_content_response(body: bytes) -> ContentAnswer:
    """Read an answer of E4 (tolerant of extra elements and attributes, with or without the namespace)."""
    envelope = parse_response(body)
    root = parse_xml(body)
    ids = [el.get("ID") for el in root.iter(etree.Element)
           if localname(el) == "UniqueID" and (el.get("Type") or "").strip() == PROPERTY_ID_TYPE]
    pid = ids[0].strip() if ids and ids[0] else ""
    return ContentAnswer(int(pid) if pid.isdigit() else None, envelope.success, envelope.warnings, envelope.errors,
                         envelope.ruid)


def part_rows(frame: pd.DataFrame | list[dict] | None) -> list[dict[str, str | list[str]]]:
    """A part's rows (a frame, or dicts) without key, provenance and blank cells, values as text (for comparing,
    showing and the journal)."""
    skip = {*KEY_COLUMNS, *PROVENANCE, "empty_parts"}
    out = []
    for r in _records(frame):
        row = {str(k): (str(_text(v)) if not isinstance(v, list) else [str(x) for x in v])
               for k, v in r.items() if k not in skip and not _missing(v) and not (isinstance(v, list) and not v)}
        if row:
            out.append(row)
    return out


def canonical_rows(body: bytes) -> dict[str, list[dict[str, str | list[str]]]]:
    """:func:`part_rows` of each part a request carries (what the journal keeps, the dry run compares)."""
    return {part: part_rows(rows) for part, rows in read_content_rows(body)[1].items()}


__all__ = ["BUILD_HOTEL", "ContentAnswer", "KEY_COLUMNS", "LIST_PARTS", "NEW", "OVERLAY", "PARTS", "PART_COLUMNS",
           "PLATFORM_ATTRIBUTES", "PROVENANCE", "build_content", "canonical_rows", "empty_part", "is_build_hotel",
           "parse_content", "parse_content_response", "part_rows", "read_content_rows", "without_platform_extensions"]
