"""Contacts sheet <-> Contacts API (``PUT`` replaces every contact: what the property has is read first).

Forward (:func:`build_contacts`): the rows of one ``ContactProfileType`` form one contact (as they form one
ContactInfo today): GivenName and SurName -> ``contact_person.name`` (one field: "given/full name");
NameLanguage (else the Property sheet's LanguageCode) -> ``contact_person.language_code``; Gender -> gender
(lower case); JobTitle -> job_title; the first Email -> email (one per contact: more are not sent); every
PhoneNumber with its PhoneTechType and Extension -> phones; the first address -> address (Language, else
``en``). ``PhysicalLocation`` rows are the Property API's ``physical_address`` (map_details); ``contract`` is
refused (the troubleshooting page answers it with 450). With the property's current contacts (a GET
answer), a type the property has and the sheet leaves out is refused on the property's first contact
row (the PUT would delete it) unless ``replace``.

Back (:func:`contacts_rows`): each contact gives one group of rows per profile type it carries; the name
is split at its first space (given name, surname).
"""

from __future__ import annotations

from typing import Any

from workbench.modular.building import Request, finish
from workbench.modular.cells import CellMap, issue
from workbench.modular.contacts_api import Contacts
from workbench.modular.map_details import PHYSICAL
from workbench.modular.rules import CONTACT_TYPE_DROPPED, CONTACT_TYPE_REFUSED, not_sent
from workbench.modular.workbook import PropertyRows, blank, integer, rows_with, text
from workbench.wording import agree

__all__ = ["API", "build_contacts", "contact_groups", "contacts_rows"]

API = "Contacts API"
TROUBLESHOOTING = "https://developers.booking.com/connectivity/docs/contacts-api/troubleshooting-contacts-api"


def contact_groups(p: PropertyRows) -> dict[str, list[dict]]:
    """The contact rows of a property by profile type (lower case), PhysicalLocation left out."""
    groups: dict[str, list[dict]] = {}
    for row in p.part("Contacts"):
        kind = (text(row.get("profile_type")) or "").casefold()
        if kind != PHYSICAL:
            groups.setdefault(kind, []).append(row)
    return groups


def _contact(p: PropertyRows, i: int, kind: str, rows: list[dict], cells: CellMap, issues: list[dict]) -> dict:
    base = f"contacts[{i}]"
    first = rows[0]
    cells.at(base, p.cell(first, "profile_type"))
    cells.at(f"{base}.contact_profiles", p.cell(first, "profile_type"))
    cells.at(f"{base}.contact_profiles[0].type", p.cell(first, "profile_type"))
    named = next((r for r in rows if not (blank(r.get("given_name")) and blank(r.get("surname")))), first)
    prop = next(iter(p.part("Property")), None)
    language = text(named.get("name_language"))
    language_cell = p.cell(named, "name_language")
    if language is None and prop is not None and text(prop.get("language_code")):
        language, language_cell = text(prop.get("language_code")), p.cell(prop, "language_code")
    gender = text(named.get("gender"))
    person = {"name": " ".join(x for x in (text(named.get("given_name")), text(named.get("surname"))) if x) or None,
              "language_code": language.lower() if language else None,
              "gender": gender.lower() if gender else None, "job_title": text(named.get("job_title"))}
    for key, cell in (("contact_person", p.cell(named, "given_name")), ("contact_person.name", p.cell(named, "given_name")),
                      ("contact_person.language_code", language_cell),
                      ("contact_person.gender", p.cell(named, "gender")),
                      ("contact_person.job_title", p.cell(named, "job_title"))):
        cells.at(f"{base}.{key}", cell)
    emails = rows_with(rows, "email")
    for extra in emails[1:]:
        if text(extra.get("email")) != text(emails[0].get("email")):
            issues.append(not_sent(p.cell(extra, "email"), "a contact of the Contacts API has one e-mail; the first "
                                                          f"of this `{kind}` contact is sent"))
    cells.at(f"{base}.email", p.cell(emails[0] if emails else first, "email"))
    phones: list[dict] = []
    for row in rows_with(rows, "phone"):
        j = len(phones)
        phones.append({k: v for k, v in (("phone_number", text(row.get("phone"))),
                                         ("phone_tech_type", integer(row.get("phone_tech_type"))),
                                         ("extension", text(row.get("phone_extension")))) if v is not None})
        for key, col in (("", "phone"), (".phone_number", "phone"), (".phone_tech_type", "phone_tech_type"),
                         (".extension", "phone_extension")):
            cells.at(f"{base}.phones[{j}]{key}", p.cell(row, col))
    cells.at(f"{base}.phones", p.cell(first, "phone"))
    contact: dict[str, Any] = {"contact_profiles": [{"type": kind or text(first.get("profile_type"))}],
                               "contact_person": {k: v for k, v in person.items() if v is not None},
                               "email": text(emails[0].get("email")) if emails else None, "phones": phones}
    located = next((r for r in rows if not (blank(r.get("address_line")) and blank(r.get("country")))), None)
    if located is not None:
        country = text(located.get("country"))
        address = {"country_code": country.upper() if country else None,
                   "language_code": (text(located.get("address_language")) or "en").lower(),
                   "city_name": text(located.get("city")), "postal_code": text(located.get("postcode")),
                   "address_line": text(located.get("address_line"))}
        contact["address"] = {k: v for k, v in address.items() if v is not None}
        for key, col in (("", "address_line"), (".country_code", "country"), (".language_code", "address_language"),
                         (".city_name", "city"), (".postal_code", "postcode"), (".address_line", "address_line")):
            cells.at(f"{base}.address{key}", p.cell(located, col))
    return {k: v for k, v in contact.items() if v is not None}


def build_contacts(p: PropertyRows, issues: list[dict], *, current: Contacts | None = None,
                   replace: bool = False) -> Request | None:
    """The contacts body of one property (``None`` when the sheet has no contact for it)."""
    groups = contact_groups(p)
    if not groups:
        return None
    cells = CellMap(root=p.root())
    contacts: list[dict] = []
    for kind, rows in groups.items():
        if kind == "contract":
            issues.append(issue(p.cell(rows[0], "profile_type"), CONTACT_TYPE_REFUSED,
                                "the Contacts API does not take the `contract` profile type (it answers 450, "
                                f"{TROUBLESHOOTING}): use another profile type or remove these rows"))
            continue
        contacts.append(_contact(p, len(contacts), kind, rows, cells, issues))
    if current is not None and not replace:
        having = {t.type for c in current.contacts for t in c.contact_profiles}
        dropped = sorted(t for t in having if t not in groups)
        if dropped:
            first = next(iter(groups.values()))[0]
            names = ", ".join(f"`{t}`" for t in dropped)
            issues.append(issue(p.cell(first, "profile_type"), CONTACT_TYPE_DROPPED,
                                f"the property has {names} {agree(len(dropped), 'contact')} that the Contacts sheet "
                                "leaves out, and a PUT of "
                                "the Contacts API replaces every contact (those would be deleted): add their rows, or "
                                "send with --replace to delete them"))
    if not contacts:
        return None
    payload = finish(Contacts, {"contacts": contacts}, cells, issues, api=API)
    if payload is None or not payload.get("contacts"):
        return None
    return Request(p.key, p.hotel_code, p.custom_id, "contacts.write", payload, cells)


def contacts_rows(read: Contacts, key: dict) -> list[dict]:
    """Contacts rows from a contacts answer: one group of rows per profile type of each contact."""
    out = []
    for contact in read.contacts:
        person = contact.contact_person
        given, _, surname = (person.name or "").partition(" ") if person else ("", "", "")
        address = contact.address
        head = {"given_name": given or None, "surname": surname or None,
                "name_language": person.language_code if person else None,
                "gender": (person.gender or "").title() or None if person else None,
                "job_title": person.job_title if person else None, "email": contact.email}
        if address is not None:
            head |= {"address_language": address.language_code, "address_line": address.address_line,
                     "city": address.city_name, "postcode": address.postal_code, "country": address.country_code}
        for profile in contact.contact_profiles or ():
            phones = contact.phones or []
            for j, phone in enumerate(phones or [None]):
                row = {**key, "profile_type": profile.type, **(head if j == 0 else {})}
                if phone is not None:
                    row |= {"phone": phone.phone_number, "phone_tech_type": phone.phone_tech_type,
                            "phone_extension": phone.extension}
                out.append(row)
    return out
