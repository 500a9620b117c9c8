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

from loaders.content_schema import CONTENT_COLUMNS, PART_FIELDS, STAR_RATING
from workbench.ota.ns import OTA_NS, child, children, localname, parse_xml
from workbench.ota.response import Notice, parse_response

VERSION = "1.0"
NEW, OVERLAY = "New", "Overlay"
NOTIF_TYPES = (NEW, OVERLAY)
#: UniqueID@Type of the property id in the answer (OTA code list UIT 10 = hotel)
PROPERTY_ID_TYPE = "10"
BUILD_HOTEL = "BuildHotel"

KEY_COLUMNS = {"hotel_code": "Int64", "custom_id": "string", "property": "string"}
PROVENANCE = ("source", "sheet", "row")
_I = "Int64"

#: the columns of each part after its key (``hotel_code``, ``custom_id``, ``property``) and before its
#: provenance (``source``, ``sheet``, ``row``), with their dtypes: ``loaders.content_schema``'s, the one
#: declaration of the columns and of the OTA path of each
PART_COLUMNS: dict[str, dict[str, str]] = {
    part: {c: t for c, t in columns.items() if c not in {*KEY_COLUMNS, *PROVENANCE}}
    for part, columns in CONTENT_COLUMNS.items()}


def _attribute_index() -> dict[tuple[str, str], tuple[tuple[str, str], ...]]:
    out: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
    for part, fields in PART_FIELDS.items():
        for f in fields:
            if f.attribute is not None and not f.not_sent and f.kind != "list":
                out[(part, f.element)] = (*out.get((part, f.element), ()), (f.name, f.attribute))
    return out


#: (part, element path under HDC) -> the (column, attribute) pairs the schema puts on that element
_ATTRIBUTES = _attribute_index()
_LEG = ("HotelInfo/RelativePositions/RelativePosition/Transportations/Transportation/TPA_Extensions/Route/Leg")
_LEG_CHILDREN = ("TransportType", "JourneyTime", "Departure", "Junction", "Line", "Motorway", "Start", "Price")
_SERVICE = "HotelInfo/Services/Service"
_COMPANY = "HotelInfo/OwnershipManagementInfos/OwnershipManagementInfo/CompanyName"
_ITPA = "HotelInfo/TPA_Extensions"
_REST = "FacilityInfo/Restaurants/Restaurant"
_OPERATION_TIME = f"{_REST}/OperationSchedules/OperationSchedule/OperationTimes/OperationTime"
_PENALTY = "Policies/Policy/CancelPolicy/CancelPenalty"
_GUARANTEE = "Policies/Policy/GuaranteePaymentPolicy/GuaranteePayment"
_POLICY_INFO = "Policies/Policy/PolicyInfo"
_FEE = "Policies/Policy/FeePolicies/FeePolicy"
_ADDRESS = "ContactInfos/ContactInfo/Addresses/Address"
_HIDDEN = "ContactInfos/ContactInfo/HiddenAddress"
_PHRASE = "TPA_Extensions/StandardPhrases/StandardPhrase"
_WEEKDAYS = tuple((c, a) for c, a in _ATTRIBUTES[("Restaurants", _OPERATION_TIME)] if c not in ("open_start", "open_end"))
#: (part, column) -> (holder path, item tag, attribute) of a list column: one item element per value
_LISTS: dict[tuple[str, str], tuple[str, str, str]] = {
    (part, f.name): (f.element.rpartition("/")[0], f.element.rpartition("/")[2], str(f.attribute))
    for part, fields in PART_FIELDS.items() for f in fields if f.kind == "list" and not f.not_sent}
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


def _attrs(part: str, element: str, row: Mapping[str, object]) -> dict[str, object]:
    """The attributes the schema puts on ``element`` (a path under HDC), with the row's values."""
    return {attr: row.get(col) for col, attr in _ATTRIBUTES[(part, element)]}


def _items(parent: etree._Element, parent_path: str, part: str, column: str, values: list[object]) -> None:
    """A list column's values, one item element each, under the holder its schema path names below ``parent``."""
    if not values:
        return
    holder_path, item, attr = _LISTS[(part, column)]
    holder = parent
    for tag in holder_path.removeprefix(parent_path).strip("/").split("/"):
        holder = child(holder, tag) if child(holder, tag) is not None else _sub(holder, tag)
    for v in values:
        _sub(holder, item, {attr: v})


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
    own = _attrs("Property", "", prop)
    h = _Hdc(_sub(hdcs, "HotelDescriptiveContent", {
        "HotelDescriptiveContentNotifType": notif_type, "HotelCode": hotel_code, "ID": custom_id,
        **{a: v for a, v in own.items() if a != "HotelDescriptiveContentNotifType"}}))
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
            for tag in _LEG_CHILDREN:  # TransportType and JourneyTime are required; the others when given
                attrs = _attrs("Transport", f"{_LEG}/{tag}", r)
                if tag in ("TransportType", "JourneyTime") or any(not _missing(v) for v in attrs.values()):
                    _sub(leg, tag, attrs)
    if _has(prop, "property_class_code", "exists_code", "sellable_units"):
        codes = _sub(info, "CategoryCodes")
        if _has(prop, "property_class_code", "exists_code"):
            _sub(codes, "HotelCategory", _attrs("Property", "HotelInfo/CategoryCodes/HotelCategory", prop))
        if _has(prop, "sellable_units"):
            _sub(codes, "GuestRoomInfo", _attrs("Property", "HotelInfo/CategoryCodes/GuestRoomInfo", prop))
    if _has(prop, "latitude", "longitude"):
        _sub(info, "Position", _attrs("Property", "HotelInfo/Position", prop))
    if rows["Services"]:
        services = _sub(info, "Services")
        for r in rows["Services"]:
            s = _sub(services, "Service", _attrs("Services", _SERVICE, r))
            for col in ("features", "types", "breakfast_items"):
                _items(s, _SERVICE, "Services", col, r.get(col) or [])
    if _has(prop, "legal_entity_id") or notif_type == NEW:  # "only for new properties; the array itself is required"
        owners = _sub(info, "OwnershipManagementInfos")
        if _has(prop, "legal_entity_id"):
            _sub(_sub(owners, "OwnershipManagementInfo"), "CompanyName", _attrs("Property", _COMPANY, prop))
    if rows["Languages"]:
        langs = _sub(info, "Languages")
        for r in rows["Languages"]:
            _sub(langs, "Language", _attrs("Languages", "HotelInfo/Languages/Language", r))
    tpa_rows = rows["Payments"] or rows["Invoice"] or _has(prop, "no_cvc", "view_cc_details")
    if tpa_rows:
        tpa = _sub(info, "TPA_Extensions")
        if rows["Payments"]:
            pays = _sub(tpa, "AcceptedPayments")
            for r in rows["Payments"]:
                _sub(pays, "AcceptedPayment", _attrs("Payments", f"{_ITPA}/AcceptedPayments/AcceptedPayment", r))
        if rows["Invoice"]:
            r = rows["Invoice"][0]
            inv = _sub(tpa, "InvoiceDetails")
            for tag in ("InvoiceTaxType", "InvoiceTaxNumber", "InvoiceAddress", "CityHallInfo", "BirthDate"):
                attrs = _attrs("Invoice", f"{_ITPA}/InvoiceDetails/{tag}", r)
                if any(not _missing(v) for v in attrs.values()):
                    _sub(inv, tag, attrs)
        if _has(prop, "no_cvc", "view_cc_details"):
            _sub(tpa, "PaymentPreferences", _attrs("Property", f"{_ITPA}/PaymentPreferences", prop))


def _facility_info(h: _Hdc, rows: list[dict]) -> None:
    if not rows:
        return
    restaurants = _sub(h.get("FacilityInfo"), "Restaurants")
    for group in _groups(rows, "restaurant_name"):
        first = group[0]
        rest = _sub(restaurants, "Restaurant", {attr: first.get(col) if col == "restaurant_name" else _first(group, col)
                                                for col, attr in _ATTRIBUTES[("Restaurants", _REST)]})
        # OTA 2014B RestaurantType order: OperationSchedules, CuisineCodes, TPA_Extensions; the Restaurants
        # extension adds Features after them
        times = [r for r in group if _has(r, "open_start")]
        if times:
            ops = _sub(_sub(_sub(rest, "OperationSchedules"), "OperationSchedule"), "OperationTimes")
            for r in times:
                _sub(ops, "OperationTime", _attrs("Restaurants", _OPERATION_TIME, r))
        for col in ("cuisines", "ambiances", "dietary_options", "features"):
            _items(rest, _REST, "Restaurants", col, _first_list(group, col))


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
            pen = _sub(cancel, "CancelPenalty", _attrs("Policies", _PENALTY, r))
            if _has(r, "no_show_penalty"):
                _sub(_sub(pen, "TPA_Extensions"), "NoShowPolicy",
                     _attrs("Policies", f"{_PENALTY}/TPA_Extensions/NoShowPolicy", r))
    guarantees = [r for r in pol_rows if _has(r, "guarantee_policy_code")]
    if guarantees:
        gpp = _sub(policy, "GuaranteePaymentPolicy")
        for r in guarantees:
            g = _sub(gpp, "GuaranteePayment", _attrs("Policies", _GUARANTEE, r))
            if _has(r, "prepayment_effective_from"):
                _sub(_sub(g, "TPA_Extensions"), "PrepaymentPolicy",
                     _attrs("Policies", f"{_GUARANTEE}/TPA_Extensions/PrepaymentPolicy", r))
    info = {**_attrs("Property", _POLICY_INFO, prop),
            **{attr: _first(pol_rows, col) for col, attr in _ATTRIBUTES[("Policies", _POLICY_INFO)]}}
    if any(not _missing(v) for v in info.values()):
        _sub(policy, "PolicyInfo", info)
    if taxes:
        holder = _sub(policy, "TaxPolicies")
        for r in taxes:
            _sub(holder, "TaxPolicy", _attrs("Taxes", "Policies/Policy/TaxPolicies/TaxPolicy", r))
    pets, fee = _first(pol_rows, "pets_allowed"), _first(pol_rows, "pets_non_refundable_fee")
    if pets is not None or fee is not None:
        holder = _sub(policy, "PetsPolicies", {"PetsAllowedCode": pets})
        if fee is not None:
            _sub(holder, "PetsPolicy", {"NonRefundableFee": fee})
    if fees:
        holder = _sub(policy, "FeePolicies")
        for r in fees:
            f = _sub(holder, "FeePolicy", _attrs("Fees", _FEE, r))
            _items(f, _FEE, "Fees", "conditions", r.get("conditions") or [])
            for tag in ("InternetFeePolicy", "ParkingFeePolicy"):
                attrs = _attrs("Fees", f"{_FEE}/TPA_Extensions/{tag}", r)
                if any(not _missing(v) for v in attrs.values()):
                    _sub(child(f, "TPA_Extensions") if child(f, "TPA_Extensions") is not None
                         else _sub(f, "TPA_Extensions"), tag, attrs)
    if _has(prop, "overwrite_future_fees"):
        _sub(policy, "TPA_Extensions", _attrs("Property", "Policies/Policy/TPA_Extensions", prop))


def _area_info(h: _Hdc, rows: list[dict]) -> None:
    if not rows:
        return
    holder = _sub(h.get("AreaInfo"), "Attractions")
    for r in rows:
        _sub(holder, "Attraction", _attrs("Attractions", "AreaInfo/Attractions/Attraction", r))


def _affiliation(h: _Hdc, prop: dict, rows: list[dict]) -> None:
    if not rows and not _has(prop, "star_rating"):
        return
    awards = _sub(h.get("AffiliationInfo"), "Awards")
    if _has(prop, "star_rating"):
        _sub(awards, "Award", {"Provider": STAR_RATING, "Rating": prop.get("star_rating")})
    for r in rows:
        _sub(awards, "Award", _attrs("Awards", "AffiliationInfo/Awards/Award", r))


def _contacts(h: _Hdc, rows: list[dict]) -> None:
    if not rows:
        return
    infos = h.get("ContactInfos")
    address_cols = ("address_language", "address_line", "city", "postcode", "country", "state_code",
                    "address_hotel_name")
    name_cols = ("name_language", "gender", "given_name", "surname", "job_title")
    for group in _groups(rows, "profile_type"):
        info = _sub(infos, "ContactInfo", _attrs("Contacts", "ContactInfos/ContactInfo", group[0]))
        # ContactInfoType (OTA 2014B) order: Names, Addresses, Phones, Emails, ...; HiddenAddress is the platform's
        hide = _first(group, "hide_address")
        name = next((r for r in group if _has(r, *name_cols)), None)
        address = next((r for r in group if _has(r, *address_cols)), None)
        if name is not None:
            n = _sub(_sub(info, "Names"), "Name", _attrs("Contacts", "ContactInfos/ContactInfo/Names/Name", name))
            for col, tag in (("given_name", "GivenName"), ("surname", "SurName"), ("job_title", "JobTitle")):
                if _has(name, col):
                    _sub(n, tag, text=name.get(col))
        if address is not None:
            a = _sub(_sub(info, "Addresses"), "Address", _attrs("Contacts", _ADDRESS, address))
            if _has(address, "address_line"):
                _sub(a, "AddressLine", text=address.get("address_line"))
            if _has(address, "city"):
                _sub(a, "CityName", text=address.get("city"))
            if _has(address, "postcode"):
                _sub(a, "PostalCode", text=address.get("postcode"))
            if _has(address, "state_code"):
                _sub(a, "StateProv", _attrs("Contacts", f"{_ADDRESS}/StateProv", address))
            if _has(address, "country"):
                _sub(a, "CountryName", text=address.get("country"))
            if _has(address, "address_hotel_name"):
                _sub(a, "HotelName", text=address.get("address_hotel_name"))
        phones = [r for r in group if _has(r, "phone")]
        if phones:
            holder = _sub(info, "Phones")
            for r in phones:
                _sub(holder, "Phone", _attrs("Contacts", "ContactInfos/ContactInfo/Phones/Phone", r))
        emails = [r for r in group if _has(r, "email")]
        if emails:
            holder = _sub(info, "Emails")
            for r in emails:
                _sub(holder, "Email", text=r.get("email"))
        if hide is not None:
            _sub(info, "HiddenAddress", {attr: hide for _, attr in _ATTRIBUTES[("Contacts", _HIDDEN)]})


#: HDC/TPA_Extensions children that carry Property columns: (element, ((column, attribute), ...)), the
#: attributes as the schema declares them
_HDC_TPA: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = tuple(
    (tag, _ATTRIBUTES[("Property", f"TPA_Extensions/{tag}")])
    for tag in ("GuestInformation", "PropertyTaxInfo", "PreventLikelyToBeCancelledBookings", "CancellationGracePeriod",
                "TotalNumberOfFloors", "PricingType", "LongStayInfo", "BookingModel"))


def _hdc_extensions(h: _Hdc, prop: dict, phrases: list[dict]) -> None:
    used = [(tag, cols) for tag, cols in _HDC_TPA if _has(prop, *(c for c, _ in cols))]
    if not used and not phrases:
        return
    tpa = h.get("TPA_Extensions")
    if phrases:
        holder = _sub(tpa, "StandardPhrases")
        for group in _groups(phrases, "phrase_name"):
            p = _sub(holder, "StandardPhrase", {attr: group[0].get(col) if col == "phrase_name" else _first(group, col)
                                                for col, attr in _ATTRIBUTES[("Phrases", _PHRASE)]})
            options = [r for r in group if _has(r, "option_name")]
            if options:
                ops = _sub(p, "Options")
                for r in options:
                    _sub(ops, "Option", _attrs("Phrases", f"{_PHRASE}/Options/Option", r), text=r.get("option_value"))
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
