"""Property sheet (+ the PhysicalLocation contact and the Languages sheet) <-> Property API details.

Forward (:func:`build_details`): ``POST /properties`` for a property without a HotelCode, else the full
detail set for ``PATCH /properties/{id}`` (the description still marks five fields required for a
"partial" update). Back (:func:`details_rows`): a ``GET /properties/{id}`` answer -> the Property row,
the PhysicalLocation contact rows and the Languages rows.

Cell by cell (docs/modular.md, "Where each cell goes"): HotelName -> property_name; LanguageCode ->
primary_language; CurrencyCode -> currency_code; Target -> target (lower case; create only); HotelCategory
-> property_category (the OTA PCT code; a ``booking_property_category`` read back is mapped to its OTA code
through the meta); SellableUnits -> room_count; Latitude/Longitude -> position; LegalEntityID ->
legal_entity_id (create only); CheckInTime ``HH:MM`` or ``HH:MM-HH:MM`` -> check_in ``from`` (``until``);
CheckOutTime ``HH:MM`` -> check_out ``until`` (a range -> ``from`` and ``until``); StarRating (else the
Awards row of provider ``Star rating``) -> stars; TotalNumberOfFloors -> floor_count; ID -> provider_property_id;
the PhysicalLocation contact -> physical_address (AddressLine, CityName, PostalCode, CountryName,
ShouldHideAddress as the negation of display_address) and, for each PhysicalLocation row in another language
than English, a translation (with AddressHotelName, else HotelName, as its property_name); Languages ->
languages_spoken.
"""

from __future__ import annotations

from typing import Any

from workbench.modular.building import Request, finish
from workbench.modular.cells import CellMap, issue
from workbench.modular.meta import ModularMeta
from workbench.modular.property_api import PropertyInfoCreate, PropertyInfoRead, PropertyInfoUpdate
from workbench.modular.rules import CODE_NOT_IN_META, not_sent
from workbench.modular.workbook import PropertyRows, blank, flag, number, rows_with, text

__all__ = ["API", "build_details", "details_rows", "join_times", "split_times"]

API = "Property API"
ENGLISH = ("en", "en-gb", "en-us")
PHYSICAL = "physicallocation"


def split_times(value: str | None) -> tuple[str | None, str | None]:
    """``14:00`` -> (``14:00``, None); ``14:00-22:00`` -> both."""
    if not value:
        return None, None
    first, sep, second = value.partition("-")
    return first.strip() or None, (second.strip() or None) if sep else None


def join_times(first: str | None, second: str | None) -> str | None:
    return f"{first}-{second}" if first and second else first or second


def _stars(p: PropertyRows, prop: dict) -> tuple[str | None, dict]:
    if not blank(prop.get("star_rating")):
        return text(prop["star_rating"]), prop
    for award in p.part("Awards"):
        if str(award.get("provider") or "").strip().casefold() == "star rating" and not blank(award.get("rating")):
            return text(award["rating"]), award
    return None, prop


def physical_rows(p: PropertyRows) -> list[dict]:
    return [r for r in p.part("Contacts") if str(r.get("profile_type") or "").strip().casefold() == PHYSICAL]


def _address(p: PropertyRows, cells: CellMap, prop: dict) -> tuple[dict | None, list[dict]]:
    located = physical_rows(p)
    if not located:
        return None, []
    main = next((r for r in located if (text(r.get("address_language")) or "en").casefold() in ENGLISH), located[0])
    address: dict[str, Any] = {"address_line": text(main.get("address_line")), "city_name": text(main.get("city")),
                               "country_code": (text(main.get("country")) or "").upper() or None,
                               "postal_code": text(main.get("postcode"))}
    hide = flag(main.get("hide_address"))
    if hide is not None:
        address["display_address"] = not hide
    cells.at("physical_address", p.cell(main, "profile_type"))
    for key, col in (("address_line", "address_line"), ("city_name", "city"), ("country_code", "country"),
                     ("postal_code", "postcode"), ("display_address", "hide_address")):
        cells.at(f"physical_address.{key}", p.cell(main, col))
    translations: list[dict] = []
    for row in located:
        if row is main:
            continue
        i = len(translations)
        translations.append({"language_code": (text(row.get("address_language")) or "").lower(),
                             "property_name": text(row.get("address_hotel_name")) or text(prop.get("hotel_name")),
                             "address_line": text(row.get("address_line")), "city_name": text(row.get("city"))})
        for key, col in (("language_code", "address_language"), ("property_name", "address_hotel_name"),
                         ("address_line", "address_line"), ("city_name", "city")):
            cells.at(f"translations[{i}].{key}", p.cell(row, col))
    return {k: v for k, v in address.items() if v is not None}, translations


def build_details(p: PropertyRows, meta: ModularMeta, issues: list[dict]) -> Request | None:
    """The create or full-update body of one property (``None`` when it cannot be built; the issues say why)."""
    props = p.part("Property")
    if not props:
        return None
    prop = props[0]
    cells = CellMap(root=p.root())
    create = p.hotel_code is None
    check_in, check_out = split_times(text(prop.get("check_in_time"))), split_times(text(prop.get("check_out_time")))
    stars, stars_row = _stars(p, prop)
    address, translations = _address(p, cells, prop)
    body: dict[str, Any] = {
        "property_name": text(prop.get("hotel_name")), "physical_address": address,
        "position": {"latitude": number(prop.get("latitude")), "longitude": number(prop.get("longitude"))},
        "check_in": {k: v for k, v in (("from", check_in[0]), ("until", check_in[1])) if v},
        "check_out": None if not (check_out[0] or check_out[1]) else
        {"from": check_out[0], "until": check_out[1]} if check_out[1] else {"until": check_out[0]},
        "room_count": None if blank(prop.get("sellable_units")) else int(prop["sellable_units"]),
        "translations": translations or None,
        "property_category": None if blank(prop.get("property_class_code")) else int(prop["property_class_code"]),
        "primary_language": (text(prop.get("language_code")) or "").lower() or None,
        "languages_spoken": [(text(r["language_code"]) or "").lower() for r in rows_with(p.part("Languages"),
                                                                             "language_code")] or None,
        "floor_count": None if blank(prop.get("total_floors")) else int(prop["total_floors"]),
        "provider_property_id": p.custom_id, "currency_code": text(prop.get("currency_code")), "stars": stars,
    }
    for key, col in (("property_name", "hotel_name"), ("position", "latitude"), ("position.latitude", "latitude"),
                     ("position.longitude", "longitude"), ("check_in", "check_in_time"),
                     ("check_in.from", "check_in_time"), ("check_in.until", "check_in_time"),
                     ("check_out", "check_out_time"), ("check_out.from", "check_out_time"),
                     ("check_out.until", "check_out_time"), ("room_count", "sellable_units"),
                     ("property_category", "property_class_code"), ("booking_property_category", "property_class_code"),
                     ("primary_language", "language_code"), ("floor_count", "total_floors"),
                     ("provider_property_id", "custom_id"), ("currency_code", "currency_code"),
                     ("target", "target"), ("legal_entity_id", "legal_entity_id")):
        cells.at(key, p.cell(prop, col))
    cells.at("stars", p.cell(stars_row, "star_rating" if stars_row is prop else "rating"))
    for i, row in enumerate(rows_with(p.part("Languages"), "language_code")):
        cells.at(f"languages_spoken[{i}]", p.cell(row, "language_code"))
    if meta.property_categories is not None and body["property_category"] is not None \
            and meta.category_for_ota(body["property_category"]) is None:
        issues.append(issue(p.cell(prop, "property_class_code"), CODE_NOT_IN_META,
                            f"property class {body['property_category']} is not one the Property API's meta maps "
                            "(property_categories[].code_ota): use a property class code it lists"))
    if create:
        body["target"] = (text(prop.get("target")) or "").lower() or None
        body["legal_entity_id"] = None if blank(prop.get("legal_entity_id")) else int(prop["legal_entity_id"])
    elif not blank(prop.get("legal_entity_id")):
        issues.append(not_sent(p.cell(prop, "legal_entity_id"), "the legal entity is given only when a property is "
                                                                 "created (the update body has no legal_entity_id)"))
    body = {k: v for k, v in body.items() if v is not None}
    model = PropertyInfoCreate if create else PropertyInfoUpdate
    payload = finish(model, body, cells, issues, api=API)
    if payload is None:
        return None
    return Request(p.key, p.hotel_code, p.custom_id, "property.create" if create else "property.update", payload,
                   cells)


def details_rows(read: PropertyInfoRead, meta: ModularMeta, key: dict) -> dict[str, list[dict]]:
    """Property, PhysicalLocation contact and Languages rows from a details answer (``key``: hotel_code/custom_id)."""
    category = read.property_category
    if category is None and read.booking_property_category is not None:
        found = meta.category(read.booking_property_category)
        category = found.code_ota if found else None
    check_out = read.check_out
    stars = read.stars
    row = {**key, "hotel_name": read.property_name, "language_code": read.primary_language,
           "currency_code": read.currency_code, "target": (read.target or "").title() or None,
           "property_class_code": category, "sellable_units": read.room_count,
           "latitude": read.position.latitude if read.position else None,
           "longitude": read.position.longitude if read.position else None,
           "legal_entity_id": read.legal_entity_id,
           "check_in_time": join_times(read.check_in.from_, read.check_in.until) if read.check_in else None,
           "check_out_time": join_times(check_out.from_, check_out.until) if check_out else None,
           "star_rating": int(float(stars)) if stars is not None and float(stars).is_integer() else None,
           "total_floors": read.floor_count}
    out: dict[str, list[dict]] = {"Property": [row], "Contacts": [], "Languages": []}
    address = read.physical_address
    if address is not None:
        out["Contacts"].append({**key, "profile_type": "PhysicalLocation", "address_language": "en",
                                "address_line": address.address_line, "city": address.city_name,
                                "postcode": address.postal_code, "country": address.country_code,
                                "hide_address": None if address.display_address is None
                                else int(not address.display_address)})
    for t in read.translations or ():
        out["Contacts"].append({**key, "profile_type": "PhysicalLocation", "address_language": t.language_code,
                                "address_line": t.address_line, "city": t.city_name,
                                "address_hotel_name": t.property_name})
    out["Languages"] = [{**key, "language_code": code} for code in read.languages_spoken or ()]
    return out
