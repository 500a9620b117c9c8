"""One explicit, frozen Settings object, read from the environment or a git-ignored ``.env``.

Nothing else in the project reads ``os.environ``: code receives a ``Settings`` (or one of its
sections). Secrets are ``Secret`` values whose ``repr``/``str`` are redacted, so a logged or
printed Settings never shows them; call ``.reveal()`` at the one place a secret is put on the wire.

``Settings`` is made of small frozen sections, each checked once when it is made, the way httpx
passes ``Timeout`` and ``Limits``: ``connection`` (hosts, TLS, authentication, what is sent),
``limits`` (rates, windows, in flight, timeouts), ``content``, ``health``, ``memory``, ``notify``
and ``cars``. Every setting keeps its flat name too::

    Settings(base_url="https://…", password=Secret("…"))      # or a section: connection=Connection(…)
    settings.base_url == settings.connection.base_url          # read either way
    settings.with_(client_id="…")                              # a copy with a change
    Settings.from_env()                                        # WORKBENCH_<FLAT NAME UPPERCASED>

A setting not in a section yet is a plain field at the end of ``Settings``: it works the same way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import MISSING, Field, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from dotenv import dotenv_values

from workbench.errors import SettingsError

PREFIX = "WORKBENCH_"
#: settings that name a file; when set, the file must exist (:meth:`Settings.check_files`)
FILE_SETTINGS = ("ca_bundle", "notify_ca_bundle", "demand_ca_bundle", "price_jumps_file")
#: Spellings of the weekday flags of a rate update (``Settings.weekday_spelling``).
WEEKDAY_SPELLINGS = ("ota", "spec")
#: How calls to the platform authenticate (``Settings.auth``; see :attr:`Connection.scheme`).
AUTH_SCHEMES = ("token", "basic")
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

    def __reduce__(self) -> tuple[type[Secret], tuple[str]]:  # to Dask workers, as itself
        return Secret, (self._value,)


def _secret(default: str = "") -> Secret:
    return field(default_factory=lambda: Secret(default), metadata={"secret": True})


@dataclass(frozen=True)
class _Section:
    """A section: a secret given as plain text becomes a :class:`Secret`."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.metadata.get("secret") and not isinstance(value, Secret):
                object.__setattr__(self, f.name, Secret(str(value or "")))


@dataclass(frozen=True)
class Connection(_Section):
    """Where to send, as whom, and what every call carries (spec E1-E5; docs/live-platform.md)."""

    # platform hosts (E1-E5); the sandbox's connection.env fills these
    base_url: str = ""
    secure_base_url: str = ""
    ca_bundle: str = ""
    # "token" (a machine account of type API token: the platform's only scheme since 2026-01-01) or "basic"
    # (the spec's username/password); empty: token, unless only a username/password is given
    auth: str = ""
    username: str = ""
    password: Secret = _secret()
    auth_url: str = ""  # the full URL of the token exchange (…/token-based-authentication/exchange)
    client_id: str = ""
    client_secret: Secret = _secret()
    token_cache: str = ""  # folder of the shared token cache (default: the user's cache folder)
    # the machine account's provider type ("Home" sees the Home sunsets); what the provider portal says
    provider_type: str = ""
    accept_version: str = "1.1"
    # StatusApplicationControl weekday names: "ota" (Weds/Thur: the OTA 2003B schema, what real clients
    # send; the default) or "spec" (Wed/Thu, as the spec's rates table writes them; fails the OTA schema)
    weekday_spelling: str = "ota"
    gzip_requests: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "weekday_spelling", str(self.weekday_spelling).strip().lower())
        if self.weekday_spelling not in WEEKDAY_SPELLINGS:
            raise SettingsError(f"WORKBENCH_WEEKDAY_SPELLING=`{self.weekday_spelling}` is not one of "
                                f"{', '.join(WEEKDAY_SPELLINGS)}: `ota` sends Weds/Thur (OTA 2003B), `spec` "
                                "sends Wed/Thu (the spec's table)")
        object.__setattr__(self, "auth", str(self.auth).strip().lower())
        if self.auth and self.auth not in AUTH_SCHEMES:
            raise SettingsError(f"WORKBENCH_AUTH=`{self.auth}` is not one of {', '.join(AUTH_SCHEMES)}: `token` "
                                "uses a machine account of type API token (WORKBENCH_CLIENT_ID, "
                                "WORKBENCH_CLIENT_SECRET), `basic` the spec's username and password")

    @property
    def scheme(self) -> str:
        """``token`` or ``basic``: ``auth`` when set; else token, unless only a username or password is given."""
        if self.auth:
            return self.auth
        return "basic" if (self.username or self.password) and not (self.client_id or self.client_secret) else "token"


@dataclass(frozen=True)
class Limits(_Section):
    """How fast and how long: the account's call limits, the calls in flight, the time one call may take."""

    # account-specific per-minute limits, e.g. "OTA_HotelRateAmountNotif=600,all=10000"
    rate_limits: str = ""
    rate_limit_window_seconds: float = 60.0  # the limits above count calls per this window
    max_in_flight: int = 64  # most requests in flight at once (the client uses fewer when that suffices)
    timeout_seconds: float = 60.0
    max_answer_bytes: int = 64 * 1024 * 1024  # an answer larger than this after decoding is a failed call
    request_deadline_seconds: float = 0.0  # a whole call (connect, send, the whole answer); 0: 2 x timeout_seconds


@dataclass(frozen=True)
class Content(_Section):
    """Property content (E4)."""

    # the provider has the feature `content_api_rtb_enabled` (spec, States: changing a property to request to book
    # through the content operation needs it); set it to what the provider portal says
    content_api_rtb_enabled: bool = False
    # a BuildHotel answer is resent as it was, up to this many sends in all, waiting about backoff * 2**(n-1)
    # seconds (capped at a minute) between them; then "contact support" with every ruid
    build_hotel_attempts: int = 5
    build_hotel_backoff_seconds: float = 5.0


@dataclass(frozen=True)
class Health(_Section):
    """Price-jump warnings (docs/rates.md): a price changing by more than this share of the last accepted
    one (0.5 = 50%), or more than this factor off its room-rate's median of the month; per property: a
    CSV/XLSX table (HotelCode, PriceJumpShare, PriceOutlierFactor) named here."""

    price_jump_share: float = 0.5
    price_outlier_factor: float = 10.0
    price_jumps_file: str = ""


@dataclass(frozen=True)
class Memory(_Section):
    """The allocator and collector settings of batch processes (:mod:`workbench.memory`)."""

    malloc_tuning: bool = True  # False leaves glibc's and Arrow's defaults as they are


@dataclass(frozen=True)
class Notify(_Section):
    """The partner's notification endpoints (E6)."""

    notify_token_url: str = ""
    notify_url: str = ""
    notify_ca_bundle: str = ""
    notify_client_id: str = ""
    notify_client_secret: Secret = _secret()
    database_url: str = ""


@dataclass(frozen=True)
class Cars(_Section):
    """Car search (E7)."""

    demand_base_url: str = ""
    affiliate_id: str = ""
    api_key: Secret = _secret()
    demand_ca_bundle: str = ""
    demand_api_version: str = "3.1"  # the version path segment, e.g. /3.1/search
    demand_cache_path: str = ""  # SQLite file for suppliers/depots/languages (default .workbench/cars-static.sqlite)
    demand_static_max_age_hours: float = 24.0  # refetch static data older than this


@dataclass(frozen=True)
class Availability(_Section):
    """Availability and restrictions (docs/availability.md)."""

    # what SetMinLOS/SetMaxLOS mean in OTA_HotelAvailNotif: "stay_through" (the platform's own older guide: minimum
    # and maximum stay through; SetForwardMinStay/SetForwardMaxStay then carry the stays on arrival; the default) or
    # "arrival" (other OTA users' reading: SetMinLOS/SetMaxLOS on arrival, the Forward ones stay-through)
    los_reading: str = "stay_through"

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "los_reading", str(self.los_reading).strip().lower())
        if self.los_reading not in LOS_READINGS:
            raise SettingsError(f"WORKBENCH_LOS_READING=`{self.los_reading}` is not one of {', '.join(LOS_READINGS)}: "
                                "`stay_through` sends MinStayThrough/MaxStayThrough as SetMinLOS/SetMaxLOS (the "
                                "platform's guide), `arrival` sends MinStayArrival/MaxStayArrival as them")


#: section name (an attribute of :class:`Settings`) -> its class
SECTIONS: dict[str, type[_Section]] = {"connection": Connection, "limits": Limits, "content": Content,
                                       "health": Health, "memory": Memory, "notify": Notify, "cars": Cars,
                                       "availability": Availability}
#: flat setting name -> the section holding it
FLAT: dict[str, str] = {f.name: name for name, cls in SECTIONS.items() for f in fields(cls)}


@dataclass(frozen=True, init=False)
class Settings:
    """Every setting, in sections. Each flat name maps to ``WORKBENCH_<NAME UPPERCASED>`` (module doc)."""

    connection: Connection = field(default_factory=Connection)
    limits: Limits = field(default_factory=Limits)
    content: Content = field(default_factory=Content)
    health: Health = field(default_factory=Health)
    memory: Memory = field(default_factory=Memory)
    notify: Notify = field(default_factory=Notify)
    cars: Cars = field(default_factory=Cars)
    availability: Availability = field(default_factory=Availability)
    # the command line
    log_dir: str = ""  # crash logs (traces of unexpected failures); default .workbench/logs

    def __init__(self, **values: Any) -> None:
        """Sections by name, settings by their flat name (a flat name beats its section given alongside)."""
        changes: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
        own = {f.name: f for f in fields(self) if f.name not in SECTIONS}
        for name, value in values.items():
            if name in FLAT:
                changes[FLAT[name]][name] = value
            elif name not in SECTIONS and name not in own:
                raise TypeError(f"unknown setting `{name}`")
        for name, cls in SECTIONS.items():
            base = values.get(name) or cls()
            if not isinstance(base, cls):
                raise TypeError(f"setting section `{name}` must be a {cls.__name__}, not {type(base).__name__}")
            object.__setattr__(self, name, replace(base, **changes[name]) if changes[name] else base)
        for name, f in own.items():
            object.__setattr__(self, name, values[name] if name in values else _default(f))

        self.__post_init__()

    def __post_init__(self) -> None:
        """The plain fields' own checks (the sections check themselves): none today."""

    if TYPE_CHECKING:  # the flat names (``settings.base_url``) are properties made below
        def __getattr__(self, name: str) -> Any: ...

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        env_file: str | os.PathLike[str] | None = ".env",
        **overrides: object,
    ) -> Settings:
        """Read settings: ``overrides`` beat the environment, which beats the ``.env`` file."""
        return cls.from_mapping(_environment(environ, env_file), **overrides)

    @classmethod
    def from_file(cls, env_file: str | os.PathLike[str], **overrides: object) -> Settings:
        """Read settings from one env file only (e.g. a sandbox's ``connection.env``)."""
        if not Path(env_file).is_file():
            raise FileNotFoundError(f"settings file `{env_file}` does not exist")
        values = {k: v for k, v in dotenv_values(env_file).items() if v is not None}
        return cls.from_mapping(values, **overrides)

    @classmethod
    def from_mapping(cls, values: Mapping[str, str], **overrides: object) -> Settings:
        known = flat_fields(cls)
        kwargs: dict[str, object] = _read(known, values)
        for name, value in overrides.items():
            f = known.get(name)
            if f is None and name not in SECTIONS:
                raise TypeError(f"unknown setting `{name}`")
            kwargs[name] = _coerce(f, value) if f is not None and isinstance(value, str) else value
        return cls(**kwargs)

    def with_(self, **changes: object) -> Settings:
        """A copy with ``changes`` (flat names or sections)."""
        return type(self)(**{**{f.name: getattr(self, f.name) for f in fields(self)}, **changes})

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
        """Every setting by its flat name, as text, secrets shown as ``**********`` (safe to print or log)."""
        return {name: repr(getattr(self, name)) if f.metadata.get("secret") else str(getattr(self, name))
                for name, f in flat_fields(type(self)).items()}


def _flat_property(name: str, section: str) -> property:
    return property(lambda self: getattr(getattr(self, section), name), doc=f"``settings.{section}.{name}``")


for _name, _section in FLAT.items():
    setattr(Settings, _name, _flat_property(_name, _section))


def flat_fields(cls: type[Settings] = Settings) -> dict[str, Field[Any]]:
    """Every setting by its flat name: the sections' fields, then the plain fields of ``cls``."""
    out = {f.name: f for section in SECTIONS.values() for f in fields(section)}
    out.update({f.name: f for f in fields(cls) if f.name not in SECTIONS})
    return out


S = TypeVar("S", bound=_Section)


def section_from_env(section: type[S], environ: Mapping[str, str] | None = None,
                     env_file: str | os.PathLike[str] | None = ".env") -> S:
    """One section read from the environment (and ``.env``), the others' values not even looked at: for a
    process that needs only it (the memory settings of a Dask worker)."""
    return section(**_read({f.name: f for f in fields(section)}, _environment(environ, env_file)))


def _environment(environ: Mapping[str, str] | None, env_file: str | os.PathLike[str] | None) -> dict[str, str]:
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    return values


def _read(known: Mapping[str, Field[Any]], values: Mapping[str, str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, f in known.items():
        key = PREFIX + name.upper()
        if key in values:
            try:
                out[name] = _coerce(f, values[key])
            except ValueError:
                raise SettingsError(f"setting `{key}` = `{values[key]}` is not a {_kind(f)}") from None
    return out


def _default(f: Field[Any]) -> Any:
    return f.default_factory() if f.default_factory is not MISSING else f.default


def _kind(f: object) -> str:
    return {"bool": "yes/no value", "float": "number", "int": "whole number"}.get(str(getattr(f, "type", "")), "value")


def _coerce(f: Field[Any], raw: object) -> object:
    name_type = getattr(f, "type", "")
    text = str(raw).strip()
    if getattr(f, "metadata", {}).get("secret"):
        return raw if isinstance(raw, Secret) else Secret(text)
    if name_type in ("bool", bool):
        return _default(f) if not text else text.lower() in {"1", "true", "yes", "on"}
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


def one_blas_thread() -> None:
    """Let numpy's OpenBLAS start one thread (the caller's), unless ``OPENBLAS_NUM_THREADS`` is already set.

    OpenBLAS starts a helper thread per core when numpy is imported, and each spins waiting for work for a
    while (about 0.1 s of CPU per ``workbench`` command); nothing in the workbench multiplies matrices, so the
    command line asks for none. It works only before numpy is first imported: the ``workbench`` console script
    calls it first (:func:`workbench.cli.main`). A value the user set (e.g. for a notebook's own algebra) is
    kept."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
