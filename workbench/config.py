"""One explicit, frozen Settings object, read from the environment or a git-ignored ``.env``.

Nothing else in the project reads ``os.environ``: code receives a ``Settings``. Secrets are
``Secret`` values whose ``repr``/``str`` are redacted, so a logged or printed Settings never
shows them; call ``.reveal()`` at the one place a secret is put on the wire.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from dotenv import dotenv_values

from workbench.errors import SettingsError

PREFIX = "WORKBENCH_"
#: settings that name a file; when set, the file must exist (:meth:`Settings.check_files`)
FILE_SETTINGS = ("ca_bundle", "notify_ca_bundle", "demand_ca_bundle", "price_jumps_file")
#: Spellings of the weekday flags of a rate update (``Settings.weekday_spelling``).
WEEKDAY_SPELLINGS = ("ota", "spec")
#: Readings of OTA_HotelAvailNotif's SetMinLOS/SetMaxLOS (``Settings.los_reading``; docs/availability.md).
LOS_READINGS = ("stay_through", "arrival")


class Secret:
    """A string that never shows itself in logs, reprs or reports."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('**********')" if self._value else "Secret('')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


def _secret(default: str = "") -> Secret:
    return field(default_factory=lambda: Secret(default), metadata={"secret": True})


@dataclass(frozen=True)
class Settings:
    """Where to send, and as whom. Every field maps to ``WORKBENCH_<FIELD NAME UPPERCASED>``."""

    # platform hosts (E1-E5); the sandbox's connection.env fills these
    base_url: str = ""
    secure_base_url: str = ""
    ca_bundle: str = ""
    username: str = ""
    password: Secret = _secret()
    accept_version: str = "1.1"
    # StatusApplicationControl weekday names: "ota" (Weds/Thur: the OTA 2003B schema, what real clients
    # send; the default) or "spec" (Wed/Thu, as the spec's rates table writes them; fails the OTA schema)
    weekday_spelling: str = "ota"
    gzip_requests: bool = False
    provider_type: str = ""
    # the provider has the feature `content_api_rtb_enabled` (spec, States: changing a property to request to book
    # through the content operation needs it); set it to what the provider portal says
    content_api_rtb_enabled: bool = False
    # account-specific per-minute limits, e.g. "OTA_HotelRateAmountNotif=600,all=10000"
    rate_limits: str = ""
    rate_limit_window_seconds: float = 60.0  # the limits above count calls per this window
    max_in_flight: int = 64  # most requests in flight at once (the client uses fewer when that suffices)
    timeout_seconds: float = 60.0
    # price-jump warnings (docs/rates.md): a price changing by more than this share of the last accepted
    # one (0.5 = 50%), or more than this factor off its room-rate's median of the month; per property:
    # a CSV/XLSX table (HotelCode, PriceJumpShare, PriceOutlierFactor) named here
    price_jump_share: float = 0.5
    price_outlier_factor: float = 10.0
    price_jumps_file: str = ""
    # property content (E4): a BuildHotel answer is resent as it was, up to this many sends in all, waiting
    # about backoff * 2**(n-1) seconds (capped at a minute) between them; then "contact support" with every ruid
    build_hotel_attempts: int = 5
    build_hotel_backoff_seconds: float = 5.0
    # notification endpoints (E6)
    notify_token_url: str = ""
    notify_url: str = ""
    notify_ca_bundle: str = ""
    notify_client_id: str = ""
    notify_client_secret: Secret = _secret()
    database_url: str = ""
    # car search (E7)
    demand_base_url: str = ""
    affiliate_id: str = ""
    api_key: Secret = _secret()
    demand_ca_bundle: str = ""
    demand_api_version: str = "3.1"  # the version path segment, e.g. /3.1/search
    demand_cache_path: str = ""  # SQLite file for suppliers/depots/languages (default .workbench/cars-static.sqlite)
    demand_static_max_age_hours: float = 24.0  # refetch static data older than this
    # the command line
    log_dir: str = ""  # crash logs (traces of unexpected failures); default .workbench/logs
    # answers (transport)
    max_answer_bytes: int = 64 * 1024 * 1024  # an answer larger than this after decoding is a failed call
    request_deadline_seconds: float = 0.0  # a whole call (connect, send, the whole answer); 0: 2 x timeout_seconds
    # availability
    # what SetMinLOS/SetMaxLOS mean in OTA_HotelAvailNotif: "stay_through" (the platform's own older guide: minimum
    # and maximum stay through; SetForwardMinStay/SetForwardMaxStay then carry the stays on arrival; the default) or
    # "arrival" (other OTA users' reading: SetMinLOS/SetMaxLOS on arrival, the Forward ones stay-through)
    los_reading: str = "stay_through"

    def __post_init__(self) -> None:
        object.__setattr__(self, "weekday_spelling", str(self.weekday_spelling).strip().lower())
        if self.weekday_spelling not in WEEKDAY_SPELLINGS:
            from workbench.errors import SettingsError

            raise SettingsError(f"WORKBENCH_WEEKDAY_SPELLING=`{self.weekday_spelling}` is not one of "
                                f"{', '.join(WEEKDAY_SPELLINGS)}: `ota` sends Weds/Thur (OTA 2003B), `spec` "
                                "sends Wed/Thu (the spec's table)")
        object.__setattr__(self, "los_reading", str(self.los_reading).strip().lower())
        if self.los_reading not in LOS_READINGS:
            from workbench.errors import SettingsError

            raise SettingsError(f"WORKBENCH_LOS_READING=`{self.los_reading}` is not one of {', '.join(LOS_READINGS)}: "
                                "`stay_through` sends MinStayThrough/MaxStayThrough as SetMinLOS/SetMaxLOS (the "
                                "platform's guide), `arrival` sends MinStayArrival/MaxStayArrival as them")

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        env_file: str | os.PathLike[str] | None = ".env",
        **overrides: object,
    ) -> Settings:
        """Read settings: ``overrides`` beat the environment, which beats the ``.env`` file."""
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        return cls.from_mapping(values, **overrides)

    @classmethod
    def from_file(cls, env_file: str | os.PathLike[str], **overrides: object) -> Settings:
        """Read settings from one env file only (e.g. a sandbox's ``connection.env``)."""
        if not Path(env_file).is_file():
            raise FileNotFoundError(f"settings file `{env_file}` does not exist")
        values = {k: v for k, v in dotenv_values(env_file).items() if v is not None}
        return cls.from_mapping(values, **overrides)

    @classmethod
    def from_mapping(cls, values: Mapping[str, str], **overrides: object) -> Settings:
        kwargs: dict[str, object] = {}
        for f in fields(cls):
            key = PREFIX + f.name.upper()
            if key in values:
                try:
                    kwargs[f.name] = _coerce(f, values[key])
                except ValueError:
                    raise SettingsError(f"setting `{key}` = `{values[key]}` is not a {_kind(f)}") from None
        for name, value in overrides.items():
            known = next((f for f in fields(cls) if f.name == name), None)
            if known is None:
                raise TypeError(f"unknown setting `{name}`")
            kwargs[name] = _coerce(known, value) if isinstance(value, str) else value
        return cls(**kwargs)  # type: ignore[arg-type]

    def with_(self, **changes: object) -> Settings:
        return replace(self, **changes)  # type: ignore[arg-type]

    def check_files(self, *names: str, source: str | os.PathLike[str] | None = None) -> Settings:
        """Raise :class:`~workbench.errors.SettingsError` when a setting among ``names`` (default: every
        one that names a file) is set to a file that does not exist; ``source`` names where the settings
        were read. Returns ``self``, so ``Settings.from_file(p).check_files(source=p)`` reads well."""
        problems = []
        for name in names or FILE_SETTINGS:
            value = str(getattr(self, name) or "")
            if value and not Path(value).expanduser().is_file():
                where = "" if Path(value).is_absolute() else f" (relative to the working folder `{Path.cwd()}`)"
                problems.append(f"setting `{PREFIX}{name.upper()}` names `{value}`{where}, which does not exist")
        if problems:
            origin = f" (read from `{source}`)" if source else ""
            raise SettingsError("; ".join(problems) + origin + ": fix the path, or start the server that "
                                "wrote the settings file again (it writes absolute paths)")
        return self

    def redacted(self) -> dict[str, str]:
        """Every setting as text, secrets shown as ``**********`` (safe to print or log)."""
        return {f.name: repr(getattr(self, f.name)) if f.metadata.get("secret") else str(getattr(self, f.name))
                for f in fields(self)}


def _kind(f: object) -> str:
    return {"bool": "yes/no value", "float": "number", "int": "whole number"}.get(str(getattr(f, "type", "")), "value")


def _coerce(f: object, raw: object) -> object:
    name_type = getattr(f, "type", "")
    text = str(raw).strip()
    if getattr(f, "metadata", {}).get("secret"):
        return raw if isinstance(raw, Secret) else Secret(text)
    if name_type in ("bool", bool):
        return text.lower() in {"1", "true", "yes", "on"}
    if name_type in ("float", float):
        return float(text)
    if name_type in ("int", int):
        return int(text)
    return text


#: where pushes keep their journal unless told otherwise (``WORKBENCH_JOURNAL`` moves it)
DEFAULT_JOURNAL_PATH = Path(".workbench") / "journal.sqlite"


def journal_path(given: str | os.PathLike[str] | None = None) -> Path:
    """The journal a push uses: ``given``, else ``WORKBENCH_JOURNAL``, else ``.workbench/journal.sqlite``
    under the working folder (the command line's ``--journal`` default)."""
    if given is not None:
        return Path(given)
    return Path(os.environ.get(PREFIX + "JOURNAL") or DEFAULT_JOURNAL_PATH)
