"""Contacts (spec E4 ContactInfo, minimum to create, Tips): profiles, people, e-mails and phones.

Phone numbers are ``\\+[0-9]+`` and a real number of their country's numbering plan
(``phonenumbers``, Google's libphonenumber data); ``Extension`` only with ``PhoneTechType`` 1
(voice). Each distinct number is parsed once.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd

from expectations.content_frames import Checker, blank, each, listed, not_in
from loaders.content_schema import GENDERS, PROFILES

REQUIRED_PROFILES = ("general", "invoices", "PhysicalLocation")
PERSON_PROFILES = ("general", "invoices")
PHONE_TECH_TYPES = (1, 3, 5)  # OTA PTT: 1 voice, 3 fax, 5 mobile
PHONE_FORMAT = re.compile(r"\+[0-9]+")
EMAIL = re.compile(r"[^@\s;,]+@[^@\s;,]+\.[A-Za-z]{2,}")


@lru_cache(maxsize=65536)
def phone_problem(number: str) -> str | None:
    """Why ``number`` is not a phone number the platform takes, or ``None``."""
    import phonenumbers

    if not PHONE_FORMAT.fullmatch(number):
        hint = re.sub(r"[^\d+]", "", number)
        if hint.startswith("00"):
            hint = "+" + hint[2:]
        fix = f" (e.g. `{hint}`)" if hint.startswith("+") else ""
        return ("a phone number is `+` then digits only, with the country code (no spaces, dots, dashes or "
                f"leading 00): write it as +<country code><number>{fix}")
    try:
        parsed = phonenumbers.parse(number, None)
    except phonenumbers.NumberParseException:
        return "this is not a phone number of any country (unknown country code): check the number"
    if not phonenumbers.is_valid_number(parsed):
        region = phonenumbers.region_code_for_country_code(parsed.country_code or 0)
        return (f"this is not a valid number in {region}'s numbering plan (wrong length or prefix): check the number")
    return None


def check(c: Checker) -> None:
    contacts = c.parts["Contacts"]
    profile = contacts["profile_type"]
    c.flag("Contacts", blank(profile), "profile_type", "profile_type_required",
           f"ContactProfileType is required: one of {listed(PROFILES)}")
    c.flag("Contacts", not_in(profile, PROFILES), "profile_type", "profile_type_value",
           f"`ContactProfileType` is one of {listed(PROFILES)}: correct it")
    prof = profile.where(profile.isin(PROFILES))
    _profiles(c, prof)
    _physical_address(c, prof)
    c.flag("Contacts", not_in(contacts["gender"], GENDERS), "gender", "gender_value",
           "Gender is `Male` or `Female` (leave it blank otherwise)")
    email = contacts["email"]
    c.flag("Contacts", email.notna() & ~email.str.fullmatch(EMAIL.pattern).fillna(False), "email", "email_format",
           "this is not an e-mail address (name@domain.tld, one per cell): correct it")
    phone = contacts["phone"]
    problem = each(phone, phone_problem)
    rules = each(problem, lambda m: m.startswith("a phone number is")).astype(bool)  # per distinct message
    c.flag("Contacts", problem.notna() & rules, "phone", "phone_format", lambda sub: problem[sub.index])
    c.flag("Contacts", problem.notna() & ~rules, "phone", "phone_number_plan", lambda sub: problem[sub.index])
    tech = contacts["phone_tech_type"]
    c.flag("Contacts", not_in(tech, PHONE_TECH_TYPES), "phone_tech_type", "phone_tech_type_value",
           "PhoneTechType is 1 (voice), 3 (fax) or 5 (mobile)")
    c.flag("Contacts", contacts["phone_extension"].notna() & tech.ne(1).fillna(True), "phone_extension",
           "phone_extension", "an Extension is only allowed on a voice line (PhoneTechType 1): set PhoneTechType 1 "
           "or remove the extension")
    c.flag("Contacts", phone.isna() & (contacts["phone_extension"].notna() | tech.notna()), "phone", "phone_required",
           "PhoneTechType or Extension is given without a PhoneNumber: add the number or clear them")


#: what the address sent for PhysicalLocation must carry besides AddressLine, CityName, CountryName (spec E4
#: Address: ``HotelName`` "object, required", ``Language`` "required, default en")
ADDRESS_REQUIRED = (("address_hotel_name", "HotelName", "address_hotel_name_required",
                     "the property's name as the address writes it (in the address's language)"),
                    ("address_language", "Language", "address_language_required",
                     "the address's language (a language code such as `en`)"))
_ADDRESS_COLUMNS = ("address_language", "address_line", "city", "postcode", "country", "state_code",
                    "address_hotel_name")


def _physical_address(c: Checker, prof: pd.Series) -> None:
    """The PhysicalLocation address is taken whole from the first row of the contact that has an address
    column (``workbench.ota.content_notif``): that row must give HotelName and Language."""
    contacts = c.parts["Contacts"]
    physical = prof.eq("PhysicalLocation").fillna(False).astype(bool)
    addressed = physical & contacts[list(_ADDRESS_COLUMNS)].notna().any(axis=1)
    sent = addressed & ~contacts["property"].where(addressed).duplicated().to_numpy()
    for col, what, rule, meaning in ADDRESS_REQUIRED:
        c.flag("Contacts", sent & contacts[col].isna(), col, rule,
               f"the PhysicalLocation address needs its {what} ({meaning}; spec E4: required): fill it in on this "
               "row, the row the address is sent from")


def _profiles(c: Checker, prof: pd.Series) -> None:
    contacts = c.parts["Contacts"]
    have = pd.DataFrame({"property": contacts["property"], "profile": prof}).dropna()
    prop = c.parts["Property"]
    new = c.of_property("Property", "is_new").astype(bool)
    with_contacts = prop["property"].isin(set(contacts["property"].dropna()))
    without = {p: ~prop["property"].isin(set(have.loc[have["profile"] == p, "property"])) for p in REQUIRED_PROFILES}
    lacking = pd.concat(without, axis=1).any(axis=1)
    gaps = {p: w.to_numpy() for p, w in without.items()}  # the lists are built for the rows flagged only
    lists = np.empty(len(prop), dtype=object)
    for i in np.flatnonzero(lacking.to_numpy()):
        lists[i] = [p for p in REQUIRED_PROFILES if gaps[p][i]]
    missing = pd.Series(lists, index=prop.index, dtype=object)
    c.flag("Property", new & lacking, "property", "profile_required",
           lambda sub: [f"a new property needs the contacts {listed(missing[i])} (profiles general, invoices and "
                        "PhysicalLocation are required): add them on the Contacts sheet" for i in sub.index],
           value=prop["property"])
    c.flag("Property", ~new & with_contacts & lacking, "property", "profile_required_to_open",
           lambda sub: [f"the Contacts sheet has no {listed(missing[i])} contact for this property; the property "
                        "cannot be opened without the general, invoices and PhysicalLocation profiles"
                        for i in sub.index], severity="warning", value=prop["property"])
    # the minimum to create: the physical address, and a person reachable on general and invoices
    key = contacts["property"]
    is_new = c.of_property("Contacts", "is_new").fillna(False).astype(bool).to_numpy()
    physical = prof.eq("PhysicalLocation").fillna(False).astype(bool).to_numpy()
    first_physical = physical & ~(key.where(physical).duplicated().to_numpy())
    codes, keys = pd.factorize(key, use_na_sentinel=False)

    def among(selected: np.ndarray) -> np.ndarray:
        """The rows whose property has some ``selected`` row (one pass over the factorised keys)."""
        has = np.zeros(len(keys), dtype=bool)
        has[codes[selected]] = True
        return has[codes]
    for col, what in (("address_line", "AddressLine"), ("city", "CityName"), ("postcode", "PostalCode"),
                      ("country", "CountryName")):
        c.flag("Contacts", is_new & first_physical & ~among(physical & contacts[col].notna().to_numpy()), col,
               "physical_location_required",
               f"a new property's PhysicalLocation needs {what}: fill it in")
    for profile in PERSON_PROFILES:
        rows = prof.eq(profile).fillna(False).astype(bool).to_numpy()
        first = rows & ~(key.where(rows).duplicated().to_numpy())
        for col, what in (("given_name", "GivenName"), ("surname", "SurName"), ("email", "Email"),
                          ("phone", "PhoneNumber")):
            c.flag("Contacts", is_new & first & ~among(rows & contacts[col].notna().to_numpy()), col,
                   "contact_person_required",
                   f"a new property's `{profile}` contact needs a person with {what}: fill it in")
