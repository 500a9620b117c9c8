"""The content workbook <-> the modular APIs' bodies, for every property at once (pure: frames and data in).

:func:`build_modular_content` turns ``loaders.read_content``'s frames (and the meta crosswalks) into the
requests of each property (details, settings, contacts, facilities, charges), each with the cells behind
its values, and one issues frame: values the bodies refuse, codes the meta cannot map, what has no home
any more, what is not yet sendable. :func:`content_from_answers` turns the GET answers of each property
back into the same frames, so ``fetch content --api modular`` can write the workbook layout.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import pandas as pd

from expectations.hotel_amenities import FACILITY_NAMES
from loaders.content_schema import frames_from_rows
from loaders.issues import combine, issues_from_records
from workbench.modular.base import read_answer, read_answers
from workbench.modular.building import Request
from workbench.modular.charges_api import Charges
from workbench.modular.contacts_api import Contacts
from workbench.modular.facilities_api import PropertyFacility
from workbench.modular.map_charges import build_charges, charges_rows
from workbench.modular.map_contacts import build_contacts, contacts_rows
from workbench.modular.map_details import build_details, details_rows
from workbench.modular.map_facilities import build_facilities, facilities_rows
from workbench.modular.map_refused import refusals
from workbench.modular.map_settings import build_settings, settings_rows
from workbench.modular.meta import ModularMeta
from workbench.modular.property_api import PropertyInfoRead
from workbench.modular.settings_api import PropertySettingsGroups
from workbench.modular.workbook import split_workbook

__all__ = ["CREATE_ONLY", "NOT_KEPT", "Current", "ModularContent", "PropertyAnswers", "build_modular_content", "content_from_answers"]

_SUNSET = "sunset on 2023-06-30: no modular API takes it"
#: Property cells sent only to create a property (an update cannot change them: read back, they are the platform's);
#: a created property also comes back with its HotelCode.
CREATE_ONLY = ("target", "legal_entity_id")
#: the workbook cells the modular APIs do not keep (sent then read back, they differ or are gone), and why;
#: ``"*"``: the whole sheet. Cells reported ``modular_not_sent`` or refused are not kept either.
NOT_KEPT: dict[str, dict[str, str]] = {
    "Property": {
        "notif_type": "New/Overlay is HDCN's: a property without HotelCode is created, one with it updated",
        "exists_code": "HotelCategory@ExistsCode has no field",
        "prevent_likely_cancelled": "no published successor",
        "overwrite_future_fees": "the Charges API dates each charge instead",
        "empty_parts": "a workbench instruction, not content",
    },
    "Contacts": {
        "state_code": "the addresses have no state",
        "address_hotel_name": "kept only on a translation (a PhysicalLocation row in another language)",
        "name_language": "required by the Contacts API: a blank cell is sent as the property's LanguageCode",
    },
    "Policies": {
        "cancel_policy_code": "Policies API: not yet sendable (request body NOT SHOWN)",
        "no_show_penalty": "Policies API: not yet sendable (request body NOT SHOWN)",
        "guarantee_policy_code": "Policies API: not yet sendable (request body NOT SHOWN)",
        "prepayment_effective_from": "Policies API: not yet sendable (request body NOT SHOWN)",
        "total_guest_count": "no field",
    },
    "Taxes": {"decimal_places": "the value is sent divided by 10^DecimalPlaces and read back as the value"},
    "Fees": {
        "decimal_places": "the value is sent divided by 10^DecimalPlaces and read back as the value",
        "conditions": "a charge has no conditions (a Conditional fee comes back Exclusive)",
        "min_age": "the age ranges become the property's age_buckets, not the fee's",
        "max_age": "the age ranges become the property's age_buckets, not the fee's",
    },
    "Services": {
        "currency_code": "a price is in the property's currency",
        "features": "no field",
        "included": "kept only for facilities whose meta allows SurchargeDetails (not the meals)",
        "types": "kept when written as the API's names (CONTINENTAL); OTA codes have no published crosswalk",
        "breakfast_items": "kept when written as the API's names (BREAD); OTA codes have no published crosswalk",
    },
    "Invoice": {"birth_date": "brazil_tax_details has no birth date"},
    "Attractions": {"*": _SUNSET},
    "Transport": {"*": _SUNSET},
    "Awards": {"*": "the Property API keeps the star rating only (the Property sheet's StarRating)"},
}


@dataclass(frozen=True)
class Current:
    """What a property has on the platform (decoded GET ``data``), for the APIs whose PUT replaces a whole list."""

    contacts: object = None
    facilities: object = None
    charges: object = None


@dataclass(frozen=True)
class ModularContent:
    """Every property's requests and the one issues frame (an error on a property blocks its requests)."""

    requests: tuple[Request, ...]
    issues: pd.DataFrame

    def of(self, key: str) -> list[Request]:
        """The requests of one property (its workbook key: the HotelCode as text, else the ID)."""
        return [r for r in self.requests if r.property == key]


def build_modular_content(parts: Mapping[str, pd.DataFrame], meta: ModularMeta | None = None, *,
                          today: dt.date | None = None, current: Mapping[int, Current] | None = None,
                          replace: bool = False) -> ModularContent:
    """The modular requests of every property of ``parts`` (``loaders.read_content``'s frames).

    ``current`` (by HotelCode): the property's contacts, facilities and charges as read, so that the writes keep
    what the sheet does not mention (``replace``: they do not). ``today`` starts the charge periods (default: today).
    """
    meta = meta or ModularMeta()
    day = today or dt.date.today()
    requests: list[Request] = []
    records: list[dict] = []
    for p in split_workbook(parts):
        now = (current or {}).get(p.hotel_code) if p.hotel_code is not None else None
        contacts = read_answer(Contacts, now.contacts) if now is not None and now.contacts is not None else None
        facilities = read_answers(PropertyFacility, now.facilities) if now is not None and \
            now.facilities is not None else None
        charges = read_answer(Charges, now.charges) if now is not None and now.charges is not None else None
        built = (build_details(p, meta, records), build_settings(p, records),
                 build_contacts(p, records, current=contacts, replace=replace),
                 build_facilities(p, meta, records, current=facilities, replace=replace),
                 build_charges(p, meta, records, today=day, current=charges, replace=replace))
        requests += [r for r in built if r is not None]
        records += refusals(p)
    return ModularContent(tuple(requests), combine([issues_from_records(records)]))


@dataclass(frozen=True)
class PropertyAnswers:
    """The GET answers (decoded ``data``) of one property; ``None`` where that API was not read."""

    details: object = None
    settings: object = None
    contacts: object = None
    facilities: object = None
    charges: object = None
    key: Mapping[str, object] = field(default_factory=dict)


def content_from_answers(answers: Iterable[PropertyAnswers], meta: ModularMeta | None = None, *,
                         source: str = "platform") -> dict[str, pd.DataFrame]:
    """The content frames (``loaders.read_content``'s layout) of the properties' answers."""
    meta = meta or ModularMeta()
    sheets: dict[str, list[dict]] = {}

    def add(rows: Mapping[str, list[dict]]) -> None:
        for part, part_rows in rows.items():
            sheets.setdefault(part, []).extend(part_rows)

    for a in answers:
        details = read_answer(PropertyInfoRead, a.details) if a.details is not None else None
        key = dict(a.key) or {"hotel_code": details.property_id if details else None,
                              "custom_id": details.provider_property_id if details else None}
        prop: dict[str, object] = {}
        contacts = []
        if details is not None:
            got = details_rows(details, meta, key)
            prop |= got["Property"][0]
            contacts += got["Contacts"]
            add({"Languages": got["Languages"]})
        if a.settings is not None:
            got = settings_rows(read_answer(PropertySettingsGroups, a.settings), key)
            prop |= got.pop("Property")[0]
            add(got)
        if a.contacts is not None:
            contacts += contacts_rows(read_answer(Contacts, a.contacts), key)
        if prop:
            add({"Property": [{**key, **prop}]})
        add({"Contacts": contacts})
        if a.facilities is not None:
            add(facilities_rows(read_answers(PropertyFacility, a.facilities), meta, key))
        if a.charges is not None:
            add(charges_rows(read_answer(Charges, a.charges), meta, key))
    frames = frames_from_rows(sheets, source=source)
    frames["Services"].attrs[FACILITY_NAMES] = meta.facility_names()  # shown beside the codes (``.wb.show()``)
    return frames
