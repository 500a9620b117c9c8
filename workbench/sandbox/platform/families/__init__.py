"""The platform's operation families, one module each: the endpoints a family serves and their
handlers, as a ``FAMILY`` (:class:`~workbench.sandbox.platform.calls.Family`). The app serves
:data:`FAMILIES`; a new family is a module here and one line below (docs/sandbox.md, "How to add an
operation family to the sandbox"). Families do not import each other (checked by lint-imports).
"""

from __future__ import annotations

from workbench.sandbox.platform.calls import Family
from workbench.sandbox.platform.endpoints import Endpoint, limits_of
from workbench.sandbox.platform.families import (
    availability,
    catalogued,
    charges_api,
    contacts_api,
    content,
    facilities_api,
    lookups,
    policy_api,
    property_api,
    rates,
    reservations,
    roomrates,
    rooms,
    rooms_api,
)

FAMILIES: tuple[Family, ...] = (
    rates.FAMILY,  # OTA_HotelRateAmountNotif
    rooms.FAMILY,  # OTA_HotelInvNotif, OTA_HotelDescriptiveInfo
    content.FAMILY,  # OTA_HotelDescriptiveContentNotif, citytaxcategory
    catalogued.FAMILY,  # OTA_HotelProductNotif, OTA_HotelSummaryNotif (not served)
    roomrates.FAMILY,  # roomrates
    lookups.FAMILY,  # currencies, countries
    reservations.FAMILY,  # reservationssummary (not served), reservations, OTA_HotelResNotif
    availability.FAMILY,  # OTA_HotelAvailNotif, roomrateavailability
    # the modular JSON APIs (platform-now.md 3.1-3.6), each under its published path prefix
    property_api.FAMILY,  # /property-api/: details, settings, status, description, meta
    contacts_api.FAMILY,  # /contacts-api/
    facilities_api.FAMILY,  # /facilities-api/: property and room facilities, bathrooms, meta
    charges_api.FAMILY,  # /charges-api/
    policy_api.FAMILY,  # /policy-api/
    rooms_api.FAMILY,  # /rooms-api/: units (one and bulk), deleted units, meta
)

#: Every endpoint the platform's families declare, by name, and the spec's limits for them.
ENDPOINTS: tuple[Endpoint, ...] = tuple(e for f in FAMILIES for e in f.endpoints)
BY_NAME: dict[str, Endpoint] = {e.name: e for e in ENDPOINTS}
DEFAULT_LIMITS: dict[str, int] = limits_of(ENDPOINTS)
