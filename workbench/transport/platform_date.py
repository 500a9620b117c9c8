"""The platform's calendar as the client meets it (the facts are the catalogue's,
:data:`workbench.transport.operations.CATALOGUE`):

- before sending: an ``Accept-Version`` other than the current one is refused (:func:`check_accept_version`);
- in an answer's headers: a deprecation warning (``Warning: 299 …``, RFC 9745 ``Deprecation``, RFC 8594
  ``Sunset``) becomes a warning of the result, shown with the platform's own warnings in reports
  (:func:`header_notices`);
- in an HTTP 400: the refusal of a sunset operation or version, reported as ``sunset: use …`` and not
  retried (:func:`sunset_refusal`);
- in an HTTP 401 to Basic credentials that says the scheme is sunset: how to switch to tokens
  (:func:`basic_refused`).

The platform's pages say a deprecated endpoint warns in a response header and a sunset one answers
HTTP 400, but show neither the header's name nor the 400's body: the standard headers above are
read, and a 400 counts as a sunset when the catalogue has a sunset for that call and either the day
has come (CET) or the answer says "sunset".
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from workbench.ota import Notice
from workbench.transport.errors import ConfigurationError
from workbench.transport.operations import (
    BASIC_AUTH_SUNSET,
    CURRENT_VERSION,
    OPERATIONS,
    cet_today,
    deprecations_of,
)
from workbench.transport.result import Result

#: the code of a result's warning taken from the answer's headers
DEPRECATED = "DEPRECATED"
#: the code of the error the client adds to a sunset's refusal (``sunset: use …``)
SUNSET = "SUNSET"
_WARNING = re.compile(r'^\s*(\d{3})\s+\S+\s+"((?:[^"\\]|\\.)*)"')


@dataclass(frozen=True)
class Dated:
    """What the calendar adds to a result: the deprecation its answer's headers announce (warnings), what to
    use instead of a sunset operation (said first among its errors), a settings problem that stops a run."""

    deprecations: tuple[Notice, ...] = ()
    refusals: tuple[Notice, ...] = ()
    stop: Exception | None = None

    def on(self, result: Result) -> Result:
        if not (self.deprecations or self.refusals or self.stop is not None):
            return result
        extra = {**result.extra, "stop": self.stop} if self.stop is not None else result.extra
        return replace(result, deprecations=self.deprecations, refusals=self.refusals, extra=extra)


UNDATED = Dated()


def read_calendar(status: int, said: str, headers: Mapping[str, str], *, operation: str, version: str,
                  provider_type: str | None, basic: bool) -> tuple[str | None, Dated]:
    """What an answer says of the platform's calendar: the error to give instead of the answer's own (None:
    keep it; a sunset, or Basic refused) and what to add to the result."""
    sunset = sunset_refusal(operation, status, said, headers, provider_type=provider_type, version=version)
    if sunset:  # the Sunset header of a refusal is no deprecation warning
        return sunset, Dated(refusals=(Notice("error", SUNSET, sunset),))
    if status == 401 and basic:
        error, scheme_gone = basic_refused(said)
        return error, Dated(header_notices(headers), stop=ConfigurationError(error) if scheme_gone else None)
    return None, Dated(header_notices(headers))


def check_accept_version(version: str, today: dt.date | None = None) -> None:
    """Raise :class:`ConfigurationError` (naming ``WORKBENCH_ACCEPT_VERSION``) for a version the platform no
    longer takes: the catalogue's sunset when it has one, else that only the current version exists."""
    version = (version or CURRENT_VERSION).strip()
    if version == CURRENT_VERSION:
        return
    day = today or cet_today()
    for name, op in OPERATIONS.items():
        gone = [d for d in deprecations_of(name, version=version) if d.version and op.accept_version
                and d.gone(None, day)]
        if gone:
            raise ConfigurationError(f"WORKBENCH_ACCEPT_VERSION={version}: {gone[0].sunset_text()}: set "
                                     f"WORKBENCH_ACCEPT_VERSION={CURRENT_VERSION} (or leave it out)")
    raise ConfigurationError(f"WORKBENCH_ACCEPT_VERSION={version}: the platform takes only version {CURRENT_VERSION} "
                             f"of the rate updates: set WORKBENCH_ACCEPT_VERSION={CURRENT_VERSION} (or leave it out)")


def header_notices(headers: Mapping[str, str]) -> tuple[Notice, ...]:
    """The deprecation an answer's headers announce, as warnings (none when they announce nothing)."""
    texts = [m.group(2).replace('\\"', '"') for value in _all(headers, "warning")
             for m in [_WARNING.match(value)] if m and m.group(1) == "299"]
    if not texts and (headers.get("deprecation") or headers.get("sunset")):
        sunset = _http_date(headers.get("sunset") or "")
        texts = ["deprecated by the platform" + (f"; sunset on {sunset:%Y-%m-%d}" if sunset else "")]
    return tuple(Notice("warning", DEPRECATED, text) for text in texts)


def sunset_refusal(operation: str, status: int, said: str, headers: Mapping[str, str], *, provider_type: str | None,
                   version: str = "", today: dt.date | None = None) -> str | None:
    """``sunset: use …`` when an HTTP 400 answer is the platform refusing a sunset operation or version;
    ``said``: what the answer said (its error text)."""
    if status != 400:
        return None
    entries = deprecations_of(operation, version=version, provider_type=provider_type)
    if not entries:
        return None
    day = today or cet_today()
    gone = [d for d in entries if day >= d.gone_from]
    if not gone and "sunset" not in said.lower() and not headers.get("sunset"):
        return None
    entry = sorted(gone or entries, key=lambda d: (not d.version, d.sunset))[0]
    return f"sunset: use {entry.replacement} ({entry.subject} was sunset on {entry.sunset:%Y-%m-%d}{entry.whom})"


def basic_refused(said: str) -> tuple[str, bool]:
    """The error of a 401 to Basic credentials, and whether it is the scheme itself the platform refuses (the
    answer says it is sunset: no call can succeed, so the run stops and says how to switch); any other 401
    keeps the answer's own words (wrong credentials, as before)."""
    said = said or "HTTP 401"
    if "sunset" in said.lower():
        return (f"the platform no longer takes Basic authentication (sunset on {BASIC_AUTH_SUNSET.sunset:%Y-%m-%d}): "
                f"switch to {BASIC_AUTH_SUNSET.replacement}"), True
    return said, False


def _all(headers: Mapping[str, str], name: str) -> list[str]:
    get_list = getattr(headers, "get_list", None)
    if get_list is not None:  # httpx.Headers: every header of that name
        return list(get_list(name, split_commas=False))
    value = headers.get(name)
    return [value] if value else []


def _http_date(text: str) -> dt.date | None:
    from email.utils import parsedate_to_datetime

    try:
        return parsedate_to_datetime(text).date() if text.strip() else None
    except (TypeError, ValueError):
        return None
