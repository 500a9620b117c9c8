"""The content family, property content in the sandbox: the ``OTA_HotelDescriptiveContentNotif`` handler (spec E4) and
the ``/xml/citytaxcategory`` lookup (E5).

- ``New`` creates a property: a HotelCode is assigned and answered as ``UniqueID Type="10" ID=…``
  with ``Success``; the custom ``ID`` is remembered, and a second ``New`` with an ``ID`` already
  created is refused naming the existing HotelCode.
- ``Overlay`` replaces the stored content of an existing property (registry or created) as a whole.
- ``BuildHotel`` (an injected fault, ``buildhotel=…``) fails the call and leaves the property Closed;
  resending the same request completes the same property (one property, created once). After every
  accepted call the property is Open when its content has all required contact profiles
  (general, invoices, PhysicalLocation), else Closed.
- The operation is deprecated (Versioning 6): a ``DEPRECATED_OPERATION`` warning before the sunset
  (the sandbox's CET ``today``), refused with HTTP 400 from that day on, naming the Property and Contacts interfaces.

A request with any error changes nothing (``Errors`` only, HTTP 200), as the other operations.
"""

from __future__ import annotations

from datetime import date

from lxml import etree

from workbench.ota import OTA_NS, localname
from workbench.sandbox.platform import city_tax
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.content_rules import REQUIRED_PROFILES, attr, check_content, path_all
from workbench.sandbox.platform.content_state import CLOSED, OPEN, ContentProperty, build_key
from workbench.sandbox.platform.endpoints import bxml, ota
from workbench.sandbox.platform.issues import Issue
from workbench.sandbox.platform.protocol import bxml_body, bxml_error, ota_body
from workbench.transport.operations import DEPRECATIONS

OPERATION = "OTA_HotelDescriptiveContentNotif"
CONTENT_NOTIF = ota(OPERATION, 75)
CITY_TAX = bxml("citytaxcategory", "citytaxcategories")
RS = OPERATION + "RS"
DEPRECATION = DEPRECATIONS[OPERATION]  # written once, in the operation catalogue
RESPONSE_VERSION = "1.0"


def deprecation(today: date) -> tuple[Issue, bool]:
    """``(issue, is_error)``: the content operation on ``today`` (the sandbox's CET date)."""
    sunset = DEPRECATION.sunset
    if today >= sunset:
        return Issue("DEPRECATED_OPERATION", f"OTA_HotelDescriptiveContentNotif was sunset on {sunset:%Y-%m-%d}; "
                     f"use {DEPRECATION.replacement}", f"today={today:%Y-%m-%d}"), True
    return Issue("DEPRECATED_OPERATION", f"OTA_HotelDescriptiveContentNotif is deprecated and is sunset on "
                 f"{sunset:%Y-%m-%d}; move to {DEPRECATION.replacement}", f"today={today:%Y-%m-%d}"), False


def _answer(call: Call, *, errors: list[Issue] | None = None, warnings: list[Issue] | None = None,
            hotel_code: int | None = None, target: str | None = None, status: int = 200) -> Reply:
    """``Success`` (+ ``Warnings``) + ``UniqueID Type="10" ID=…``, or ``Errors``; ``Target`` echoed."""
    extra = []
    if hotel_code is not None and not errors:
        extra.append(etree.Element(f"{{{OTA_NS}}}UniqueID", Type="10", ID=str(hotel_code)))
    body = ota_body(RS, call.ruid, errors=errors or [], warnings=warnings or [], version=RESPONSE_VERSION,
                    extra=extra)
    if target in ("Test", "Production"):  # the spec's RS attributes: TimeStamp, Target, Version
        body = body.replace(b' Version="', f' Target="{target}" Version="'.encode(), 1)
    outcome = "errors" if errors else ("warnings" if warnings else "success")
    return Reply(status, body, "rejected" if status >= 400 else outcome)


async def content_notif(sb: PlatformState, call: Call) -> Reply:
    """``OTA_HotelDescriptiveContentNotif``: checks, then create / overlay / BuildHotel."""
    root = call.root
    if root is None:
        return _answer(call, errors=[Issue("INVALID_REQUEST", "empty body")], status=400)
    if localname(root) != "OTA_HotelDescriptiveContentNotifRQ":
        return _answer(call, errors=[Issue("INVALID_REQUEST", f"expected OTA_HotelDescriptiveContentNotifRQ, got "
                                                              f"{localname(root)}")])
    notice, refused = deprecation(sb.today())
    if refused:  # from the sunset the operation is gone: HTTP 400 (the Property and Contacts APIs replace it)
        return _answer(call, errors=[notice], status=400)
    contents = path_all(root, "HotelDescriptiveContents/HotelDescriptiveContent")
    if not contents:
        return _answer(call, errors=[Issue("INVALID_REQUEST", "no HotelDescriptiveContents > "
                                                              "HotelDescriptiveContent in the request")])
    if len(contents) > 1:
        return _answer(call, errors=[Issue("MULTIPLE_HOTELS", f"send one HotelDescriptiveContent per request, not "
                                                              f"{len(contents)}")])
    hdc = contents[0]
    target = attr(hdc, "Target")
    hotel_raw, custom_id = attr(hdc, "HotelCode") or None, attr(hdc, "ID") or None
    kind = attr(hdc, "HotelDescriptiveContentNotifType") or ("Overlay" if hotel_raw else "New")
    store = sb.content
    existing: ContentProperty | None = None
    pending: ContentProperty | None = None
    key = build_key(hdc)
    if kind == "Overlay":
        if not hotel_raw:
            return _answer(call, errors=[Issue("MISSING_HOTEL_CODE", "an Overlay needs HotelDescriptiveContent@"
                                               "HotelCode (the property to update)", f"property={custom_id or ''}")],
                           target=target)
        hotel = int(hotel_raw) if hotel_raw.isdigit() else None
        known = hotel is not None and (hotel in {p.hotel_code for p in sb.registry.properties}
                                       or store.get(hotel) is not None)
        if not known:
            return _answer(call, errors=[Issue("UNKNOWN_HOTEL", f"HotelCode {hotel_raw} is not a property of this "
                                               "account; create it with New first", f"hotel_id={hotel_raw}")],
                           target=target)
        assert hotel is not None
        existing = store.get(hotel)
    elif kind == "New":
        pending = store.pending(key)
        done = store.by_custom_id(custom_id) if custom_id else None
        if done is not None and pending is None:
            return _answer(call, errors=[Issue(
                "PROPERTY_EXISTS", f"a property with ID `{custom_id}` was already created: HotelCode "
                f"{done.hotel_code}; send Overlay with HotelCode {done.hotel_code} to update it",
                f"property={custom_id}; hotel_id={done.hotel_code}")], target=target)
    outcome = check_content(hdc, notif_type=kind, today=sb.today(), rtb_enabled=sb.config.rtb_enabled,
                            tax_categories=city_tax.CITY_TAX_CATEGORIES,
                            property_currency=_currency_of(sb, existing, hotel_raw))
    if outcome.errors:
        return _answer(call, errors=outcome.errors, target=target)
    facts = outcome.facts
    if kind == "New":
        prop = pending or ContentProperty(store.next_hotel_code(sb.registry), custom_id, key, 0, CLOSED)
    else:
        code = int(hotel_raw or 0)
        prop = existing or ContentProperty(code, custom_id, key, 1, OPEN)
    if sb.faults.build_hotel((custom_id, str(prop.hotel_code) if kind == "Overlay" else None)):
        prop.status, prop.build_failures = CLOSED, prop.build_failures + 1
        if kind == "New":
            prop.name = prop.name or facts.name
        store.save(prop)
        return _answer(call, errors=[Issue(
            "BuildHotel", "BuildHotel: building the property failed and it is Closed; resend the same request until "
            "it succeeds (if it persists, contact support quoting the ruid)",
            f"property={custom_id or prop.hotel_code}; status={CLOSED}")], target=target)
    prop.custom_id = prop.custom_id or custom_id
    prop.built, prop.ruid = 1, call.ruid
    prop.status = OPEN if all(p in facts.profiles for p in REQUIRED_PROFILES) else CLOSED
    prop.name, prop.language, prop.currency, prop.target = facts.name, facts.language, facts.currency, facts.target
    prop.country, prop.city, prop.latitude, prop.longitude = facts.country, facts.city, facts.latitude, facts.longitude
    prop.booking_model = facts.booking_model
    prop.content = etree.tostring(hdc, encoding="unicode")
    store.save(prop)
    warnings = [notice, *outcome.warnings]
    return _answer(call, warnings=warnings, hotel_code=prop.hotel_code, target=target)


def _currency_of(sb: PlatformState, existing: ContentProperty | None, hotel_raw: str | None) -> str | None:
    """The property's currency as the platform holds it (content sent before, else the registry)."""
    if existing is not None and existing.currency:
        return existing.currency
    for p in sb.registry.properties:
        if hotel_raw and str(p.hotel_code) == hotel_raw:
            return p.currency
    return None


async def citytaxcategory(sb: PlatformState, call: Call) -> Reply:
    """``/xml/citytaxcategory``: the city tax categories, filtered by ``<country>``/``<city>``."""
    try:
        country, city = city_tax.filters(call.root)
    except city_tax.CityTaxRequestError as exc:
        return Reply(200, bxml_error(str(exc), call.ruid), "errors")
    return Reply(200, bxml_body(city_tax.citytaxcategories(country, city), call.ruid), "success")


FAMILY = Family("content", (CONTENT_NOTIF, CITY_TAX), {CONTENT_NOTIF.name: content_notif, CITY_TAX.name: citytaxcategory})
