"""The platform operations the client can call: path, host, Content-Type, Accept-Version,
whether a resend is harmless, and the spec's per-minute limits (Limits table).

The modular JSON APIs (Property, Contacts, Facilities, Charges, Policies, Rooms: platform-now.md 3.0-3.6)
are catalogued here too, under the names of ``workbench.modular.endpoints.OPERATIONS`` (``property.create``,
``contacts.write``...): method, path template (``{property_id}``, ``{room_id}``, ``{unit_id}``; the caller
fills the ids in), JSON, ``idempotent`` for GET/PUT/PATCH/DELETE and for a POST that creates nothing,
``read`` for GET. Their published pages show no per-API limit: they count against the overall one (``all``).
A test pins that the two catalogues agree."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from workbench.errors import OperationSunset

GENERAL = "general"
PCI = "pci"
ALL = "all"
XML = "application/xml"
JSON = "application/json"
FORM = "application/x-www-form-urlencoded"  # the spec's Content-Type for B.XML endpoints
#: the only ``Accept-Version`` of the rate updates the platform still takes (1.0 was sunset in 2024)
CURRENT_VERSION = "1.1"


@dataclass(frozen=True)
class Operation:
    """One endpoint. ``idempotent``: sending it twice has the same effect as once, so an
    ambiguous failure (dropped connection, 500, unreadable answer) may be retried."""

    name: str
    path: str
    host: str = GENERAL
    content_type: str = XML
    accept_version: bool = False
    idempotent: bool = True
    read: bool = False  # a read succeeds on its content; a write only on an explicit Success / <ok/>
    method: str = "POST"
    limit: str | None = None  # the limiter's scope when it is not the operation's own (``all``)

    @property
    def limit_key(self) -> str:
        return self.limit or self.name

    @property
    def json(self) -> bool:
        """A modular JSON API's operation: answered in the ``{data, warnings, errors, meta}`` envelope."""
        return self.content_type == JSON


def _ota(name: str, **kw: object) -> Operation:
    return Operation(name, f"/hotels/ota/{name}", **kw)  # type: ignore[arg-type]


def _bxml(name: str, **kw: object) -> Operation:
    return Operation(name, f"/hotels/xml/{name}", content_type=FORM, **kw)  # type: ignore[arg-type]


def _json(name: str, method: str, path: str, *, creates: bool = False) -> Operation:
    """A modular JSON API's operation: ``creates`` when a resend could make a second thing (a POST create)."""
    method = method.upper()
    return Operation(name, path, content_type=JSON, idempotent=not creates, read=method == "GET", method=method,
                     limit=ALL)


_PROPERTY = "/property-api/properties/{property_id}"
_FACILITIES = "/facilities-api/properties/{property_id}"
_UNITS = "/rooms-api/properties/{property_id}/units"
_CONTACTS = "/contacts-api/properties/{property_id}/contacts"
_CHARGES = "/charges-api/properties/{property_id}/charges"

#: The modular operations the workbench calls (sources: platform-now.md 3.1-3.6; docs/modular.md).
MODULAR: tuple[Operation, ...] = (
    _json("property.create", "POST", "/property-api/properties", creates=True),
    _json("property.update", "PATCH", _PROPERTY),
    _json("property.read", "GET", _PROPERTY),
    _json("property.meta", "GET", "/property-api/meta"),
    _json("settings.write", "POST", f"{_PROPERTY}/settings"),  # create or update: a resend sets the same
    _json("settings.read", "GET", f"{_PROPERTY}/settings"),
    _json("status.write", "POST", f"{_PROPERTY}/status"),
    _json("description.write", "PUT", f"{_PROPERTY}/description"),
    _json("description.read", "GET", f"{_PROPERTY}/description"),
    _json("description.delete", "DELETE", f"{_PROPERTY}/description"),
    _json("contacts.write", "PUT", _CONTACTS),
    _json("contacts.read", "GET", _CONTACTS),
    _json("facilities.write", "PUT", _FACILITIES),
    _json("facilities.read", "GET", _FACILITIES),
    _json("room_facilities.write", "PUT", f"{_FACILITIES}/rooms/{{room_id}}"),
    _json("room_facilities.read", "GET", f"{_FACILITIES}/rooms/{{room_id}}"),
    _json("bathrooms.write", "PUT", f"{_FACILITIES}/rooms/{{room_id}}/bathrooms"),
    _json("bathrooms.read", "GET", f"{_FACILITIES}/rooms/{{room_id}}/bathrooms"),
    _json("facilities.meta", "GET", "/facilities-api/meta"),
    _json("charges.write", "POST", _CHARGES),  # the mirror's method; the charges replace the property's
    _json("charges.read", "GET", _CHARGES),
    _json("charges.meta", "GET", "/charges-api/meta"),
    _json("policies.create", "POST", "/policy-api/properties/{property_id}/policies", creates=True),
    _json("units.read", "GET", _UNITS),
    _json("units.deleted", "GET", "/rooms-api/properties/{property_id}/deleted-units"),
    _json("unit.create", "POST", _UNITS, creates=True),
    _json("unit.update", "PATCH", f"{_UNITS}/{{unit_id}}"),
    _json("unit.delete", "DELETE", f"{_UNITS}/{{unit_id}}"),
    _json("units.bulk_create", "POST", "/rooms-api/units", creates=True),
    _json("units.bulk_update", "PATCH", "/rooms-api/units"),
    _json("units.bulk_delete", "DELETE", "/rooms-api/units"),
    _json("rooms.meta", "GET", "/rooms-api/meta"),
)

OPERATIONS: dict[str, Operation] = {op.name: op for op in (
    _ota("OTA_HotelRateAmountNotif", accept_version=True),
    _ota("OTA_HotelInvNotif", idempotent=False),  # InvNotifType=New creates a room type
    _ota("OTA_HotelDescriptiveInfo", read=True),
    _ota("OTA_HotelDescriptiveContentNotif", idempotent=False),  # New creates a property
    _ota("OTA_HotelProductNotif"),
    _ota("OTA_HotelSummaryNotif"),
    _bxml("roomrates", read=True),
    _ota("OTA_HotelAvailNotif", accept_version=True),  # rooms to sell and restrictions: setting a value is idempotent
    _bxml("roomrateavailability", read=True),  # availability per room (room-rate) and night, 31 nights a call
    _bxml("currencies", read=True),
    _bxml("countries", read=True),
    _bxml("citytaxcategory", read=True),
    _bxml("reservationssummary", read=True),
    _bxml("reservations", host=PCI, read=True),
    _ota("OTA_HotelResNotif", host=PCI, idempotent=False),
    *MODULAR,
)}

#: Calls per minute from the spec's Limits table (keys: operation names, ``all``, and the
#: interfaces this client does not call yet).
SPEC_LIMITS: dict[str, int] = {
    ALL: 10000,
    "reservationssummary": 700,
    "OTA_HotelDescriptiveContentNotif": 75,
    "OTA_HotelInvNotif": 75,
    "OTA_HotelProductNotif": 75,
    "OTA_HotelSummaryNotif": 75,
    "OTA_HotelDescriptiveInfo": 100,
    "photos_pending": 100,
    "property_profile_photo": 150,
    "request_to_book": 200,
}


#: the platform's calendar (spec: Central European Time, with summer time): sunsets are CET days
CET = ZoneInfo("Europe/Amsterdam")


def cet_today(now: dt.datetime | None = None) -> dt.date:
    """Today's date in CET, whatever the machine's time zone (``now`` without a zone is taken as UTC)."""
    now = now or dt.datetime.now(dt.UTC)
    return (now if now.tzinfo else now.replace(tzinfo=dt.UTC)).astimezone(CET).date()


#: the spec's scheme (Authentication 1): the name the catalogue gives HTTP Basic with username and password
BASIC_AUTH = "Basic authentication"
#: where a machine account of type API token gets its token (the path; the host is the platform's auth host)
EXCHANGE_PATH = "/token-based-authentication/exchange"
EXCHANGE_PATH_HINT = f"exchange its client id and secret at POST {EXCHANGE_PATH}"


@dataclass(frozen=True)
class Deprecation:
    """What the platform deprecates and when it is gone (a CET day): an operation, one ``version`` of it (its
    ``Accept-Version``), an ``element`` of its body (a path such as ``AreaInfo/Attractions``), or the
    :data:`BASIC_AUTH` scheme; for the provider types named (every account when ``provider_types`` is empty;
    ``audience`` names them). From ``refused_from`` (default: the ``sunset`` day itself) the platform
    answers HTTP 400 (a scheme: 401); from ``deprecated`` it warns. ``versioning`` is the spec's Versioning
    item when the spec gives the sunset (0: the spec does not; ``source`` names the platform's page)."""

    operation: str
    sunset: dt.date
    replacement: str
    provider_types: frozenset[str] = frozenset()
    audience: str = ""
    versioning: int = 0
    deprecated: dt.date | None = None
    version: str = ""
    element: str = ""
    refused_from: dt.date | None = None
    source: str = ""

    @property
    def subject(self) -> str:
        """What is gone, for people: ``OTA_HotelRateAmountNotif version 1.0``, ``AreaInfo/Attractions in …``."""
        if self.version:
            return f"{self.operation} version {self.version}"
        return f"{self.element} in {self.operation}" if self.element else self.operation

    @property
    def gone_from(self) -> dt.date:
        """The first CET day the platform refuses it."""
        return self.refused_from or self.sunset

    @property
    def why(self) -> str:
        return f"spec, Versioning {self.versioning}" if self.versioning else (self.source or "the platform's docs")

    def applies_to(self, provider_type: str | None) -> bool:
        return not self.provider_types or (provider_type or "").strip().casefold() in self.provider_types

    def gone(self, provider_type: str | None, day: dt.date) -> bool:
        """Refused on ``day`` for this provider type."""
        return self.applies_to(provider_type) and day >= self.gone_from

    def notice(self, provider_type: str | None = None, today: dt.date | None = None, *,
               now: dt.datetime | None = None) -> str | None:
        """The warning to give on a call before the sunset (None when it does not apply to this provider
        type); raises :class:`~workbench.errors.OperationSunset` from the sunset on. The day is ``today``,
        else the CET day of ``now`` (default: this moment), never the machine's local date."""
        if not self.applies_to(provider_type):
            return None
        day = today if today is not None else cet_today(now)
        if day >= self.gone_from:
            raise OperationSunset(self.sunset_text())
        left = (self.sunset - day).days
        return (f"{self.subject} is deprecated{self.whom} and is sunset on {self.sunset:%Y-%m-%d} ({left} day"
                f"{'s' if left != 1 else ''} left): move to {self.replacement}")

    @property
    def whom(self) -> str:
        return f" for {self.audience}" if self.audience else ""

    def sunset_text(self) -> str:
        """``<subject> was sunset on <day>[ for <audience>] (<why>): use <replacement>``."""
        return f"{self.subject} was sunset on {self.sunset:%Y-%m-%d}{self.whom} ({self.why}): use {self.replacement}"


_HOME = frozenset({"home"}), "the Home provider type"
_DEPRECATION_PAGE = "the platform's deprecation and sunsetting page"

#: The one place the platform's calendar is written: the client warns and refuses by it, validation refuses
#: what is gone on the analyst's cell, the sandbox answers by it (docs/live-platform.md lists it).
CATALOGUE: tuple[Deprecation, ...] = (
    Deprecation("OTA_HotelInvNotif", dt.date(2026, 12, 31), "the modular Rooms and Facilities interfaces",
                *_HOME, versioning=5, deprecated=dt.date(2024, 12, 31)),
    Deprecation("OTA_HotelDescriptiveContentNotif", dt.date(2026, 12, 31), "the Property and Contacts interfaces",
                versioning=6, deprecated=dt.date(2024, 12, 31)),
    Deprecation("OTA_HotelSummaryNotif", dt.date(2026, 12, 31), "the Property API's status "
                "(POST /property-api/properties/{id}/status)", deprecated=dt.date(2024, 12, 31),
                source=_DEPRECATION_PAGE),
    Deprecation("OTA_HotelDescriptiveInfo", dt.date(2026, 12, 31), "the modular interfaces' reads (Property, "
                "Rooms, Facilities, Contacts)", *_HOME, deprecated=dt.date(2024, 12, 31), source=_DEPRECATION_PAGE),
    Deprecation("currencies", dt.date(2025, 9, 22), "ISO 4217 (the workbench ships the list)",
                source=_DEPRECATION_PAGE),
    Deprecation("OTA_HotelRateAmountNotif", dt.date(2024, 2, 14), "version 1.1 (WORKBENCH_ACCEPT_VERSION=1.1)",
                version="1.0", source=_DEPRECATION_PAGE),
    Deprecation("OTA_HotelAvailNotif", dt.date(2024, 2, 14), "version 1.1", version="1.0", source=_DEPRECATION_PAGE),
    Deprecation("availability", dt.date(2024, 1, 15), "version 1.1", version="1.0", source=_DEPRECATION_PAGE),
    Deprecation("los_pricing", dt.date(2024, 6, 10), "version 1.1", version="1.0", source=_DEPRECATION_PAGE),
    Deprecation("OTA_HotelDescriptiveContentNotif", dt.date(2023, 6, 30), "nothing: leave these rows out "
                "(clear the sheet); the platform no longer takes attractions", element="AreaInfo/Attractions", source=_DEPRECATION_PAGE),
    Deprecation("OTA_HotelDescriptiveContentNotif", dt.date(2023, 6, 30), "nothing: leave these rows out "
                "(clear the sheet); the platform no longer takes the property's relative positions (transport)",
                element="HotelInfo/RelativePositions", source=_DEPRECATION_PAGE),
    Deprecation(BASIC_AUTH, dt.date(2025, 12, 31), "token-based authentication: a machine account of type API "
                "token (WORKBENCH_AUTH=token, WORKBENCH_CLIENT_ID, WORKBENCH_CLIENT_SECRET, WORKBENCH_AUTH_URL; "
                "docs/live-platform.md)", deprecated=dt.date(2025, 6, 30), refused_from=dt.date(2026, 1, 1),
                source="the platform's authentication page"),
)

#: The operations' own deprecations (not a version's, an element's or a scheme's), by operation.
DEPRECATIONS: dict[str, Deprecation] = {d.operation: d for d in CATALOGUE
                                        if d.operation in OPERATIONS and not d.version and not d.element}
#: The Basic scheme's sunset.
BASIC_AUTH_SUNSET = next(d for d in CATALOGUE if d.operation == BASIC_AUTH)


def deprecations_of(name: str, *, version: str = "", provider_type: str | None = None,
                    spec_only: bool = False) -> list[Deprecation]:
    """The catalogue's entries for a call of operation ``name`` (an operation's own and its ``version``'s;
    not its elements'), for this provider type; ``spec_only``: only the sunsets the spec gives."""
    version = (version or "").strip()
    return [d for d in CATALOGUE if d.operation == name and not d.element and d.applies_to(provider_type)
            and (not d.version or d.version == version) and (d.versioning or not spec_only)]


def gone_elements(name: str, provider_type: str | None, day: dt.date) -> list[Deprecation]:
    """The elements of operation ``name``'s body the platform refuses on ``day``."""
    return [d for d in CATALOGUE if d.operation == name and d.element and d.gone(provider_type, day)]


def deprecation_notice(name: str, provider_type: str | None = None, today: dt.date | None = None, *,
                       now: dt.datetime | None = None) -> str | None:
    """:meth:`Deprecation.notice` of operation ``name`` (None for an operation that is not deprecated)."""
    dep = DEPRECATIONS.get(operation(name).name)
    return dep.notice(provider_type, today, now=now) if dep is not None else None


def operation(name_or_op: str | Operation) -> Operation:
    """Look an operation up by name (``OTA_HotelRateAmountNotif``, ``contacts.write``) or path (``/ota/...``)."""
    if isinstance(name_or_op, Operation):
        return name_or_op
    key = name_or_op.rsplit("/", 1)[-1]
    try:
        return OPERATIONS[key]
    except KeyError:
        raise ValueError(f"unknown operation `{name_or_op}`; known: {', '.join(OPERATIONS)}") from None


def parse_limits(spec: str | None) -> dict[str, int]:
    """``Settings.rate_limits`` text (``"OTA_HotelRateAmountNotif=600,all=10000"``) -> dict."""
    out: dict[str, int] = {}
    for part in (spec or "").replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = (s.strip() for s in part.partition("="))
        name = name.rsplit("/", 1)[-1]
        if not sep or not name or not value.isdigit() or int(value) <= 0:
            raise ValueError(f"rate limit `{part}` is not `NAME=CALLS` with a positive whole number "
                             "(e.g. WORKBENCH_RATE_LIMITS=OTA_HotelRateAmountNotif=600,all=10000)")
        out[name] = int(value)
    return out
