"""The platform operations the client can call: path, host, Content-Type, Accept-Version,
whether a resend is harmless, and the spec's per-minute limits (Limits table)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from workbench.errors import OperationSunset

GENERAL = "general"
PCI = "pci"
ALL = "all"
XML = "application/xml"
FORM = "application/x-www-form-urlencoded"  # the spec's Content-Type for B.XML endpoints


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

    @property
    def limit_key(self) -> str:
        return self.name


def _ota(name: str, **kw: object) -> Operation:
    return Operation(name, f"/hotels/ota/{name}", **kw)  # type: ignore[arg-type]


def _bxml(name: str, **kw: object) -> Operation:
    return Operation(name, f"/hotels/xml/{name}", content_type=FORM, **kw)  # type: ignore[arg-type]


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


@dataclass(frozen=True)
class Deprecation:
    """An operation's deprecation (spec, Versioning ``versioning``): from ``sunset`` (a CET day) it is refused
    for the provider types named (every account when ``provider_types`` is empty; ``audience`` names them)."""

    operation: str
    sunset: dt.date
    replacement: str
    provider_types: frozenset[str] = frozenset()
    audience: str = ""
    versioning: int = 0

    def applies_to(self, provider_type: str | None) -> bool:
        return not self.provider_types or (provider_type or "").strip().casefold() in self.provider_types

    def notice(self, provider_type: str | None = None, today: dt.date | None = None, *,
               now: dt.datetime | None = None) -> str | None:
        """The warning to give on a call before the sunset (None when it does not apply to this provider
        type); raises :class:`~workbench.errors.OperationSunset` from the sunset on. The day is ``today``,
        else the CET day of ``now`` (default: this moment), never the machine's local date."""
        if not self.applies_to(provider_type):
            return None
        day = today if today is not None else cet_today(now)
        whom = f" for {self.audience}" if self.audience else ""
        if day >= self.sunset:
            raise OperationSunset(f"{self.operation} was sunset on {self.sunset:%Y-%m-%d}{whom} (spec, Versioning "
                                  f"{self.versioning}): use {self.replacement}")
        left = (self.sunset - day).days
        return (f"{self.operation} is deprecated{whom} and is sunset on {self.sunset:%Y-%m-%d} ({left} day"
                f"{'s' if left != 1 else ''} left): move to {self.replacement}")


#: The one place the sunsets are written; the client warns and refuses by them, the sandbox answers by them.
DEPRECATIONS: dict[str, Deprecation] = {d.operation: d for d in (
    Deprecation("OTA_HotelInvNotif", dt.date(2026, 12, 31), "the modular Rooms and Facilities interfaces",
                frozenset({"home"}), "the Home provider type", versioning=5),
    Deprecation("OTA_HotelDescriptiveContentNotif", dt.date(2026, 12, 31), "the Property and Contacts interfaces",
                versioning=6),
)}


def deprecation_notice(name: str, provider_type: str | None = None, today: dt.date | None = None, *,
                       now: dt.datetime | None = None) -> str | None:
    """:meth:`Deprecation.notice` of operation ``name`` (None for an operation that is not deprecated)."""
    dep = DEPRECATIONS.get(operation(name).name)
    return dep.notice(provider_type, today, now=now) if dep is not None else None


def operation(name_or_op: str | Operation) -> Operation:
    """Look an operation up by name (``OTA_HotelRateAmountNotif``) or path (``/ota/...``)."""
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
