"""Where the car search service is and who we are to it, built from ``Settings``.

The version is a path segment (``/3.1/search``); it is configurable (``WORKBENCH_DEMAND_API_VERSION``)
and every endpoint path is a template with ``{version}``. Credentials are the affiliate id and a
Bearer API key; legacy XML credentials (username/password) are refused with a clear message.
"""

from __future__ import annotations

import re
import ssl
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlsplit

from workbench.cars.errors import CarsConfigError, LegacyCredentialsError
from workbench.config import Secret, Settings
from workbench.transport.answer import ACCEPT_ENCODING, AnswerLimits

_VERSION = re.compile(r"^\d+(\.\d+)*$")
_VERSION_AT_END = re.compile(r"/\d+\.\d+/?$")
_HEADER_SAFE = re.compile(r"^[\x21-\x7e]+$")  # visible ASCII, no spaces or line breaks


@dataclass(frozen=True)
class Endpoints:
    """Path templates below the base URL. ``/common/languages`` is unversioned, as the spec names it."""

    search: str = "/{version}/search"
    languages: str = "/common/languages"
    suppliers: str = "/{version}/suppliers"
    depots: str = "/{version}/depots"

    def path(self, name: str, version: str) -> str:
        return str(getattr(self, name)).format(version=version)


@dataclass(frozen=True)
class DemandConnection:
    """Base URL, version, credentials and CA for the car search host; ``repr`` hides the key."""

    base_url: str
    affiliate_id: str
    api_key: Secret = field(repr=False)
    api_version: str = "3.1"
    ca_bundle: str = ""
    timeout_seconds: float = 60.0
    endpoints: Endpoints = field(default_factory=Endpoints)
    answers: AnswerLimits = AnswerLimits(64 << 20, 120.0)  # the largest answer and the longest call

    @classmethod
    def from_settings(cls, settings: Settings, endpoints: Endpoints | None = None) -> DemandConnection:
        """Check the settings and build the connection; raises :class:`CarsConfigError` naming the setting."""
        key = settings.api_key.reveal().strip()
        if not key and (settings.username or settings.password):
            raise LegacyCredentialsError(
                "car search does not accept the legacy XML credentials (`WORKBENCH_USERNAME`/`WORKBENCH_PASSWORD`): "
                "it needs the API key generated in the partner centre as `WORKBENCH_API_KEY` (sent as a Bearer token) "
                "and your affiliate id as `WORKBENCH_AFFILIATE_ID`")
        if key.lower().startswith("basic ") or (":" in key and " " not in key and len(key.split(":")) == 2):
            raise LegacyCredentialsError(
                "`WORKBENCH_API_KEY` looks like legacy `username:password` / Basic credentials; car search accepts "
                "only the API key from the partner centre (it is sent as `Authorization: Bearer <key>`)")
        if key.lower().startswith("bearer "):
            key = key[7:].strip()
        problems = []
        if not settings.demand_base_url:
            problems.append("`WORKBENCH_DEMAND_BASE_URL` is empty (e.g. `https://demand.example.com`, or run "
                            "`workbench cars sandbox serve` and pass `--env-file <dir>/demand.env`)")
        if not key:
            problems.append("`WORKBENCH_API_KEY` is empty (the car search API key from the partner centre)")
        elif not _HEADER_SAFE.match(key):
            problems.append("`WORKBENCH_API_KEY` contains spaces or line breaks; paste the key alone")
        if not settings.affiliate_id:
            problems.append("`WORKBENCH_AFFILIATE_ID` is empty (your affiliate id, sent as `X-Affiliate-Id`)")
        elif not _HEADER_SAFE.match(settings.affiliate_id):
            problems.append(f"`WORKBENCH_AFFILIATE_ID` `{settings.affiliate_id}` contains spaces or line breaks")
        version = settings.demand_api_version.strip().strip("/")
        if not _VERSION.match(version):
            problems.append(f"`WORKBENCH_DEMAND_API_VERSION` `{settings.demand_api_version}` is not a version like `3.1`")
        base = settings.demand_base_url.strip().rstrip("/")
        if base:
            parts = urlsplit(base)
            if parts.scheme != "https" or not parts.netloc:
                problems.append(f"`WORKBENCH_DEMAND_BASE_URL` `{base}` must be an https:// URL")
            elif _VERSION_AT_END.search(parts.path + "/"):
                problems.append(f"`WORKBENCH_DEMAND_BASE_URL` `{base}` ends with a version segment; drop it and set "
                                "`WORKBENCH_DEMAND_API_VERSION` instead (the client adds `/<version>/search`)")
        if settings.demand_ca_bundle and not _is_file(settings.demand_ca_bundle):
            problems.append(f"`WORKBENCH_DEMAND_CA_BUNDLE` `{settings.demand_ca_bundle}` does not exist")
        try:
            answers = AnswerLimits.from_settings(settings)
        except ValueError as exc:
            problems.append(str(exc))
        if problems:
            raise CarsConfigError("car search settings cannot be used:\n" + "\n".join(f"  - {p}" for p in problems))
        return cls(base_url=base, affiliate_id=settings.affiliate_id.strip(), api_key=Secret(key),
                   api_version=version, ca_bundle=settings.demand_ca_bundle,
                   timeout_seconds=settings.timeout_seconds, endpoints=endpoints or Endpoints(), answers=answers)

    def url(self, name: str) -> str:
        """Absolute URL of endpoint ``name`` (``search``, ``languages``, ``suppliers``, ``depots``)."""
        return self.base_url + self.endpoints.path(name, self.api_version)

    def headers(self) -> dict[str, str]:
        """Request headers, the one place the key is revealed (never log the result)."""
        return {"Authorization": f"Bearer {self.api_key.reveal()}", "X-Affiliate-Id": self.affiliate_id,
                "Accept": "application/json", "Accept-Encoding": ACCEPT_ENCODING,
                "User-Agent": "connectivity-workbench-cars/0.1"}

    @cached_property
    def verify(self) -> ssl.SSLContext | bool:
        """TLS verification: the configured CA bundle, else the system's trust store."""
        if self.ca_bundle:
            return ssl.create_default_context(cafile=self.ca_bundle)
        return True


def _is_file(path: str) -> bool:
    from pathlib import Path

    return Path(path).is_file()
