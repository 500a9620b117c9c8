"""Knobs of the notification service, with documented defaults, read from ``notify.toml``.

The spec fixes the token format and the request-to-book windows, but not the message types or
payload fields of notifications ("not shown"), so the request-to-book types and field paths are
configuration. A ``notify.toml`` in the state directory (or ``--config FILE``) overrides any
default; unknown sections or keys are refused with a message naming them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from workbench.notify.errors import NotifyConfigError

CONFIG_FILE = "notify.toml"


@dataclass(frozen=True)
class TokenConfig:
    """Token issuance (spec, Authentication §2-4)."""

    issuer: str = "workbench-notify"
    lifetime_seconds: int = 3600          # the spec recommends one hour
    clock_skew_seconds: int = 30          # leeway for exp/iat between the two clocks
    requests_per_minute: float = 60.0     # per client id and address; 0 turns the limit off
    burst: int = 10
    key_size: int = 2048
    key_max_age_days: float = 90.0        # rotate the signing key automatically; 0 = only on command


@dataclass(frozen=True)
class ReceiverConfig:
    """The notification receiver."""

    max_body_bytes: int = 1_048_576
    max_batch: int = 256                  # notifications committed together (group commit)
    write_timeout_seconds: float = 30.0   # answer 503 (CNS retries) when the store is slower
    sqlite_synchronous: str = "FULL"      # FULL: fsync at every commit (survives power loss);
                                          # NORMAL: survives a killed process, not a power cut


@dataclass(frozen=True)
class ServerConfig:
    """Connections of ``notify serve``: the endpoints face the internet, so every wait has a deadline.

    Defaults suit one partner server taking the platform's notifications directly; behind a reverse
    proxy every connection comes from the proxy's address (raise ``max_connections_per_address`` or
    set it to 0 and let the proxy cap per client). See docs/notify.md, "Exposing the endpoints".
    """

    header_timeout_seconds: float = 10.0      # request line and headers, from the connection or first byte
    body_timeout_seconds: float = 30.0        # the whole body, once the headers are in
    keep_alive_seconds: int = 30              # an idle keep-alive connection is closed after this
    max_connections: int = 2048               # open connections in all; more are answered 503; 0 = no cap
    max_connections_per_address: int = 64     # per client address (IPv6: per /64); more get 429; 0 = no cap
    max_header_bytes: int = 16384             # request line + headers (uvicorn's h11 limit); more get 400
    shutdown_timeout_seconds: int = 10        # SIGTERM: time left to requests in flight (idle ones close at once)
    trusted_proxies: tuple[str, ...] = ()     # addresses whose X-Forwarded-For / -Proto are believed


@dataclass(frozen=True)
class AlertConfig:
    """Monitoring: an alert when 401 answers pass a threshold in a window (Authentication §4)."""

    unauthorized_threshold: int = 20
    unauthorized_window_seconds: float = 300.0


@dataclass(frozen=True)
class RequestToBookConfig:
    """Which notifications drive the request-to-book tracker, and where their fields are.

    Field names are dotted paths into ``payload`` (``"stay.checkin"`` reads
    ``payload["stay"]["checkin"]``). Windows are the spec's (States and transitions, Limits).
    """

    request_types: tuple[str, ...] = ("REQUEST_TO_BOOK",)
    booked_types: tuple[str, ...] = ("REQUEST_TO_BOOK_BOOKED",)
    expired_types: tuple[str, ...] = ("REQUEST_TO_BOOK_EXPIRED",)
    cancelled_types: tuple[str, ...] = ("REQUEST_TO_BOOK_CANCELLED",)
    request_id_field: str = "request_id"
    hotel_id_field: str = "hotel_id"
    checkin_field: str = "checkin"
    checkout_field: str = "checkout"
    requested_at_field: str = "requested_at"   # missing -> the time the notification arrived
    decision_hours: float = 24.0
    confirmation_hours: float = 24.0
    min_days_ahead: int = 3
    warn_before_hours: float = 3.0
    check_interval_seconds: float = 60.0

    @property
    def all_types(self) -> frozenset[str]:
        return frozenset((*self.request_types, *self.booked_types, *self.expired_types, *self.cancelled_types))


@dataclass(frozen=True)
class NotifyConfig:
    """Everything configurable about the service; ``NotifyConfig()`` is the documented default."""

    tokens: TokenConfig = field(default_factory=TokenConfig)
    receiver: ReceiverConfig = field(default_factory=ReceiverConfig)
    alerts: AlertConfig = field(default_factory=AlertConfig)
    server: ServerConfig = field(default_factory=ServerConfig)
    request_to_book: RequestToBookConfig = field(default_factory=RequestToBookConfig)

    @classmethod
    def load(cls, state_dir: str | Path | None = None, config_file: str | Path | None = None) -> NotifyConfig:
        """``config_file`` if given, else ``state_dir/notify.toml`` if present, else defaults."""
        if config_file is not None:
            path = Path(config_file)
            if not path.is_file():
                raise NotifyConfigError(f"configuration file `{path}` does not exist")
            return cls.from_toml(path)
        if state_dir is not None and (Path(state_dir) / CONFIG_FILE).is_file():
            return cls.from_toml(Path(state_dir) / CONFIG_FILE)
        return cls()

    @classmethod
    def from_toml(cls, path: str | Path) -> NotifyConfig:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise NotifyConfigError(f"`{path}` is not valid TOML: {exc}") from None
        return cls.from_dict(data, source=str(path))

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "configuration") -> NotifyConfig:
        sections = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(sections))
        if unknown:
            raise NotifyConfigError(f"`{source}`: unknown section [{unknown[0]}]; known: "
                                    + ", ".join(f"[{s}]" for s in sections))
        config = cls()
        for name, values in data.items():
            if not isinstance(values, dict):
                raise NotifyConfigError(f"`{source}`: [{name}] must be a table of keys")
            config = replace(config, **{name: _section(getattr(config, name), values, name, source)})
        return config


def _section(default: Any, values: dict[str, Any], name: str, source: str) -> Any:
    known = {f.name: getattr(default, f.name) for f in fields(default)}
    changes: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise NotifyConfigError(f"`{source}`: unknown key `{key}` in [{name}]; known: {', '.join(known)}")
        changes[key] = _coerce(value, known[key], f"[{name}] {key}", source)
    return replace(default, **changes)


def _coerce(value: Any, default: Any, where: str, source: str) -> Any:
    bad = NotifyConfigError(f"`{source}`: {where} = {value!r} should be {type(default).__name__}"
                            + (" (a list of strings)" if isinstance(default, tuple) else ""))
    if isinstance(default, tuple):
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise bad
        return tuple(value)
    if isinstance(default, bool) or isinstance(value, bool):
        raise bad
    if isinstance(default, int):
        if not isinstance(value, int) or value < 0:
            raise bad
        return value
    if isinstance(default, float):
        if not isinstance(value, (int, float)) or value < 0:
            raise bad
        return float(value)
    if not isinstance(value, str) or not value:
        raise bad
    if where.endswith("sqlite_synchronous") and value.upper() not in ("FULL", "NORMAL", "EXTRA"):
        raise NotifyConfigError(f"`{source}`: {where} must be FULL, EXTRA or NORMAL, not {value!r}")
    return value.upper() if where.endswith("sqlite_synchronous") else value
