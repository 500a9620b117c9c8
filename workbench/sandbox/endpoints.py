"""The platform's endpoints as the sandbox serves them: path, host, format and per-minute limit.

Facts from the spec (common rules, E1-E5, Limits). The transport keeps its own table; a test
checks that the two agree, so a typo in one is caught by the other.
"""

from __future__ import annotations

from dataclasses import dataclass

GENERAL = "general"
PCI = "pci"

#: Scope name of the limit over all endpoints.
ALL = "all"

XML_TYPES = ("application/xml", "text/xml")
BXML_TYPES = ("application/x-www-form-urlencoded", "application/xml", "text/xml")


@dataclass(frozen=True)
class Endpoint:
    """One operation: ``name`` is also the key of its rate limit."""

    name: str
    path: str
    host: str  # GENERAL or PCI
    fmt: str  # "ota" or "bxml"
    content_types: tuple[str, ...]
    limit_per_minute: int | None = None
    implemented: bool = False
    versioned: bool = False  # reads Accept-Version


def _ota(name: str, limit: int | None = None, implemented: bool = False, **kw: object) -> Endpoint:
    return Endpoint(name, f"/hotels/ota/{name}", GENERAL, "ota", XML_TYPES, limit, implemented, **kw)  # type: ignore[arg-type]


def _bxml(name: str, limit: int | None = None, implemented: bool = False, host: str = GENERAL) -> Endpoint:
    return Endpoint(name, f"/hotels/xml/{name}", host, "bxml", BXML_TYPES, limit, implemented)


ENDPOINTS: tuple[Endpoint, ...] = (
    # E3: the spec says Content-Type "must be application/xml" for rates
    Endpoint("OTA_HotelRateAmountNotif", "/hotels/ota/OTA_HotelRateAmountNotif", GENERAL, "ota",
             ("application/xml",), None, True, True),
    _ota("OTA_HotelInvNotif", 75, implemented=True),
    _ota("OTA_HotelDescriptiveInfo", 100, implemented=True),
    _ota("OTA_HotelDescriptiveContentNotif", 75, implemented=True),
    _ota("OTA_HotelProductNotif", 75),
    _ota("OTA_HotelSummaryNotif", 75),
    _bxml("roomrates", implemented=True),
    _bxml("currencies", implemented=True),
    _bxml("countries", implemented=True),
    _bxml("citytaxcategory", implemented=True),
    _bxml("reservationssummary", 700),
    # reservation retrieval and confirmation: PCI host only
    _bxml("reservations", host=PCI, implemented=True),
    Endpoint("OTA_HotelResNotif", "/hotels/ota/OTA_HotelResNotif", PCI, "ota", XML_TYPES, None, True),
)

BY_NAME: dict[str, Endpoint] = {e.name: e for e in ENDPOINTS}

#: The spec's Limits table (calls per minute) for the endpoints above, plus the overall limit.
DEFAULT_LIMITS: dict[str, int] = {ALL: 10000, **{e.name: e.limit_per_minute for e in ENDPOINTS
                                                   if e.limit_per_minute is not None}}


def routes_for(endpoint: Endpoint) -> tuple[str, ...]:
    """Paths the endpoint answers on: the full ``/hotels/...`` path and the short form the
    spec's tables use (``/xml/currencies``, ``/ota/OTA_HotelInvNotif``)."""
    return (endpoint.path, endpoint.path.removeprefix("/hotels"))
