"""What the platform's calendar makes a call answer on the sandbox's date (``--auth platform``): the facts
are the operation catalogue's (``workbench.transport.operations.CATALOGUE``), written once for the client,
validation and the sandbox.

- an operation or version gone for this provider type: HTTP 400, code ``OPERATION_SUNSET`` (a version:
  ``UNSUPPORTED_VERSION``), with a ``Sunset`` header;
- one deprecated and not gone yet: answered as usual, with ``Warning: 299 - "…"``, ``Deprecation``
  (RFC 9745) and ``Sunset`` (RFC 8594) headers. The platform says a deprecated endpoint warns in a header
  without naming it: these are the standard ones;
- Basic credentials from the day after the scheme's sunset: 401 saying so.
"""

from __future__ import annotations

import datetime as dt
from email.utils import format_datetime

from workbench.sandbox.platform.issues import Misuse
from workbench.transport.operations import BASIC_AUTH_SUNSET, EXCHANGE_PATH_HINT, deprecations_of

BEARER_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="platform sandbox"'}


def calendar_headers(name: str, version: str, provider_type: str, today: dt.date) -> dict[str, str]:
    """The deprecation headers of a call of ``name`` (and its ``version``) on ``today``; raises :class:`Misuse`
    400 when the catalogue says it is gone for this provider type."""
    entries = deprecations_of(name, version=version, provider_type=provider_type)
    gone = [d for d in entries if d.gone(provider_type, today)]
    if gone:
        code = "UNSUPPORTED_VERSION" if gone[0].version else "OPERATION_SUNSET"
        raise Misuse(400, code, gone[0].sunset_text(), {"Sunset": _http_date(gone[0].sunset)})
    warned = [d for d in entries if d.deprecated is not None and today >= d.deprecated]
    if not warned:
        return {}
    d = warned[0]
    assert d.deprecated is not None
    left = (d.sunset - today).days
    text = (f"{d.subject} is deprecated{d.whom} and is sunset on {d.sunset:%Y-%m-%d} ({left} day"
            f"{'s' if left != 1 else ''} left): move to {d.replacement}")
    stamp = int(dt.datetime.combine(d.deprecated, dt.time(), dt.UTC).timestamp())
    return {"Warning": f'299 - "{text}"', "Deprecation": f"@{stamp}", "Sunset": _http_date(d.sunset)}


def refuse_sunset_basic(today: dt.date) -> None:
    """:class:`Misuse` 401 for Basic credentials once the platform no longer takes them."""
    if BASIC_AUTH_SUNSET.gone(None, today):
        raise Misuse(401, "401", f"Basic authentication was sunset on {BASIC_AUTH_SUNSET.sunset:%Y-%m-%d}: use "
                     f"token-based authentication (a machine account of type API token; {EXCHANGE_PATH_HINT})",
                     BEARER_CHALLENGE)


def _http_date(day: dt.date) -> str:
    return format_datetime(dt.datetime.combine(day, dt.time(), dt.UTC), usegmt=True)
