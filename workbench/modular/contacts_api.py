"""Contacts API bodies: ``PUT|GET /contacts-api/properties/{id}/contacts`` (a PUT replaces every contact).

Sources: [O] https://developers.booking.com/connectivity/docs/openapispecs/contacts-api/contacts-api-specification
(the "Overlay multiple Contacts" operation as the docs corpus shows it; the mirror ``api-evangelist/booking-com``
has no Contacts description); [D] https://developers.booking.com/connectivity/docs/contacts-api/implementing-contacts-api-ga
and .../contacts-api/troubleshooting-contacts-api; platform-now.md 3.2.

Transcribed: ``contacts[]`` with ``contact_profiles[].type`` (enum below), ``contact_person`` (name and
language_code required; gender ``male|female``; job_title a BCJT code), ``email``, ``phones`` (not empty;
``phone_tech_type`` 1 voice, 3 fax, 5 mobile; type 1 at most three times and types 3 and 5 at most once each
within a contact; ``extension`` only on type 1) and the optional ``address`` (country_code and language_code
required; address_line 1..255). A profile type may not repeat across the array; General at most once.
``contract`` is in the description's enum but answered with 450 ("not supported while using the Contacts
API"); ``PhysicalLocation`` is no contact type any more (the address is the Property API's
``physical_address``).
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, model_validator

from workbench.modular.base import Body, Text

__all__ = ["PHONE_LIMITS", "PROFILE_TYPES", "Contact", "ContactAddress", "ContactPerson", "ContactProfile",
           "Contacts", "Phone"]

PROFILE_TYPES = ("general", "contract", "reservations", "invoices", "availability", "site_content", "parity",
                 "requests", "central_reservations")
#: how many phones of each ``phone_tech_type`` one contact may carry
PHONE_LIMITS = {1: 3, 3: 1, 5: 1}


class ContactProfile(Body):
    type: Literal[PROFILE_TYPES]  # type: ignore[valid-type]


class ContactPerson(Body):
    name: Text
    language_code: Text
    gender: Literal["male", "female"] | None = None
    job_title: str | None = None


class Phone(Body):
    phone_number: Text
    phone_tech_type: Literal[1, 3, 5]
    extension: str | None = None

    @model_validator(mode="after")
    def _extension_on_voice_only(self, info: ValidationInfo) -> Phone:
        if self.extension and self.phone_tech_type != 1 and not (info.context or {}).get("answer"):
            raise ValueError("an extension is only allowed on phone_tech_type 1 (voice)")
        return self


class ContactAddress(Body):
    country_code: Text
    language_code: Text = "en"
    city_name: str | None = None
    postal_code: str | None = None
    address_line: Annotated[str, Field(min_length=1, max_length=255)] | None = None


class Contact(Body):
    contact_profiles: Annotated[list[ContactProfile], Field(min_length=1)]
    contact_person: ContactPerson
    email: Text
    phones: Annotated[list[Phone], Field(min_length=1)]
    address: ContactAddress | None = None

    @model_validator(mode="after")
    def _phone_counts(self, info: ValidationInfo) -> Contact:
        if (info.context or {}).get("answer"):
            return self
        counts = Counter(p.phone_tech_type for p in self.phones)
        over = [f"{n} phones of type {t} (at most {PHONE_LIMITS[t]})" for t, n in counts.items()
                if t in PHONE_LIMITS and n > PHONE_LIMITS[t]]
        if over:
            raise ValueError("; ".join(over))
        return self


class Contacts(Body):
    """The PUT body and the ``data`` of the GET: every contact of the property."""

    contacts: list[Contact] = []

    @model_validator(mode="after")
    def _types_once(self, info: ValidationInfo) -> Contacts:
        if (info.context or {}).get("answer"):
            return self
        seen = Counter(p.type for c in self.contacts for p in c.contact_profiles)
        again = sorted(t for t, n in seen.items() if n > 1)
        if again:
            raise ValueError(f"contact profile types given more than once: {', '.join(again)}")
        return self
