"""The platform's endpoints as the sandbox serves them: method, path pattern, host, format, the
Content-Types taken, the per-minute limit and the Accept-Version read.

Facts from the spec (common rules, E1-E5, Limits). Each operation family declares its own
(:mod:`workbench.sandbox.platform.families`); the transport keeps its own table, and a test checks
that the two agree, so a typo in one is caught by the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

GENERAL = "general"
PCI = "pci"

#: Scope name of the limit over all endpoints, and that limit (calls per minute; spec: Limits).
ALL = "all"
ALL_LIMIT = 10000

XML_TYPES = ("application/xml", "text/xml")
BXML_TYPES = ("application/x-www-form-urlencoded", "application/xml", "text/xml")
JSON_TYPES = ("application/json",)

#: Accept-Version values the versioned XML operations take (rates); the first is the default.
SUPPORTED_VERSIONS = ("1.1",)
DEFAULT_VERSION = SUPPORTED_VERSIONS[0]

#: Formats: what the body is read as and how the answer (errors too) is written. OTA and B.XML are
#: XML; JSON answers in the modular APIs' envelope ``{data, warnings, errors, meta: {ruid}}``.
OTA, BXML, JSON = "ota", "bxml", "json"
#: Methods whose JSON call carries a body (and so a Content-Type to check).
BODY_METHODS = ("POST", "PUT", "PATCH")


@dataclass(frozen=True)
class Endpoint:
    """One operation. ``name`` is also the key of its rate limit, of ``ops=`` faults and the request
    log's ``endpoint``. ``path`` is a Starlette path pattern (``/property-api/properties/{propertyId}``):
    its ``{...}`` parts reach the handler as ``Call.path_params``. No ``content_types``: the call has no
    body to check (GET, DELETE). ``versions``: the Accept-Version values taken when ``versioned``,
    the first being the default. ``answer_root``: for B.XML, the element the answer (a fault too)
    comes in."""

    name: str
    path: str
    host: str  # GENERAL or PCI
    fmt: str  # OTA, BXML or JSON
    content_types: tuple[str, ...]
    limit_per_minute: int | None = None
    versioned: bool = False  # reads Accept-Version
    method: str = "POST"
    versions: tuple[str, ...] = SUPPORTED_VERSIONS
    answer_root: str | None = None


def ota(name: str, limit: int | None = None, *, host: str = GENERAL, content_types: tuple[str, ...] = XML_TYPES,
        versioned: bool = False) -> Endpoint:
    """An OTA operation: ``POST /hotels/ota/<name>``."""
    return Endpoint(name, f"/hotels/ota/{name}", host, OTA, content_types, limit, versioned)


def bxml(name: str, answer_root: str, limit: int | None = None, *, host: str = GENERAL) -> Endpoint:
    """A B.XML operation: ``POST /hotels/xml/<name>``, answered inside ``<answer_root>``."""
    return Endpoint(name, f"/hotels/xml/{name}", host, BXML, BXML_TYPES, limit,
                    answer_root=answer_root)


def json_api(name: str, method: str, path: str, limit: int | None = None, *, versions: tuple[str, ...] = ("1.0",),
             versioned: bool = False) -> Endpoint:
    """A call of a modular JSON API (``GET /property-api/properties/{propertyId}``) on the general
    host; a JSON body is checked for POST, PUT and PATCH."""
    method = method.upper()
    return Endpoint(name, path, GENERAL, JSON, JSON_TYPES if method in BODY_METHODS else (), limit, versioned,
                    method, versions)


def routes_for(endpoint: Endpoint) -> tuple[str, ...]:
    """Paths the endpoint answers on: its path and, for ``/hotels/...``, the short form the spec's
    tables use (``/xml/currencies``, ``/ota/OTA_HotelInvNotif``)."""
    short = endpoint.path.removeprefix("/hotels")
    return (endpoint.path,) if short == endpoint.path else (endpoint.path, short)


def limits_of(endpoints: Iterable[Endpoint]) -> dict[str, int]:
    """The spec's Limits table (calls per minute) for these endpoints, plus the overall limit."""
    return {ALL: ALL_LIMIT, **{e.name: e.limit_per_minute for e in endpoints if e.limit_per_minute is not None}}
