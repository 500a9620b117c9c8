"""How a platform sandbox behaves (:class:`SandboxConfig`) and which files seed its state."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from workbench.sandbox.platform.fx import DEFAULT_FX_FILE
from workbench.sandbox.platform.room_state import DEFAULT_PLATFORM_ROOMS
from workbench.sandbox.platform.seed import DEFAULT_REGISTRY, Registry

#: the sandbox's modes of authentication (``SandboxConfig.auth``)
AUTH_MODES = ("platform", "spec")


@dataclass
class SandboxConfig:
    """How a sandbox behaves. ``limits`` (calls per ``limit_window`` seconds) override the
    spec's table by endpoint name or ``all``; ``today`` pins the CET date of the rate window and of
    the ``OTA_HotelInvNotif`` sunset; ``provider_type`` is the machine account's provider type
    (``Home`` sees ``OTA_HotelInvNotif`` deprecated); ``platform_rooms_path`` adds amenities, beds
    and sub-rooms to the seeded room types (None: none); ``rtb_enabled`` is the provider setting
    ``content_api_rtb_enabled`` (content may create request-to-book properties); ``auth`` is ``spec``
    (Basic, as the spec is written; the default here) or ``platform`` (as the platform is today: tokens,
    and the operation catalogue's sunsets by ``today``; ``workbench sandbox serve``'s default).

    A new state is seeded from ``registry`` (properties, rooms, room-rates already read, e.g. by
    ``workbench sandbox serve --registry``) or else the workbook at ``registry_path``. The sample
    room facts (the default ``platform_rooms_path``) are read only with the sample registry: a
    sandbox of your own properties never reads a file you did not name."""

    state_dir: Path | None = None
    registry: Registry | None = None
    registry_path: Path = DEFAULT_REGISTRY
    fx_path: Path = DEFAULT_FX_FILE
    limits: dict[str, int] = field(default_factory=dict)
    limit_window: float = 60.0
    faults: str = ""
    today: date | None = None
    general_host: str = "127.0.0.1"
    pci_host: str = "localhost"
    username: str = "sandbox"
    password: str | None = None  # None: generated once and kept in the state
    provider_type: str = "Hotel"
    platform_rooms_path: Path | None = DEFAULT_PLATFORM_ROOMS
    rtb_enabled: bool = False  # the provider setting content_api_rtb_enabled (BookingModel RTB on New)
    # what OTA_HotelAvailNotif's SetMinLOS/SetMaxLOS mean: "stay_through" (the platform's older guide, the
    # default) or "arrival" (docs/availability.md); the client's WORKBENCH_LOS_READING must agree
    los_reading: str = "stay_through"
    # "spec": Basic only, the spec's sunsets only (as the spec is written); "platform": as the platform is
    # today (docs/live-platform.md): the token exchange, Bearer tokens, Basic refused from 2026-01-01, and
    # every sunset and deprecation of the operation catalogue by the sandbox's date
    auth: str = "spec"
    token_lifetime: float = 3600.0  # seconds a token lives ("platform")
    client_id: str = "sandbox-api-token"  # the machine account of type API token ("platform")
    client_secret: str | None = None  # None: generated once and kept in the state

    def __post_init__(self) -> None:
        if self.auth not in AUTH_MODES:
            raise ValueError(f"auth `{self.auth}` is not one of {', '.join(AUTH_MODES)}")
        if self.token_lifetime <= 0:
            raise ValueError("the token lifetime must be a positive number of seconds")


def registry_asked(config: SandboxConfig) -> bool:
    """Whether the configuration names a registry (a read one, or a workbook other than the sample)."""
    return config.registry is not None or Path(config.registry_path) != DEFAULT_REGISTRY


def rooms_seed(config: SandboxConfig) -> Path | None:
    """The room facts to seed room types with: the sample's only with the sample registry (the default
    ``platform_rooms_path`` object), else what was named (None: the registry's rooms alone)."""
    path = config.platform_rooms_path
    if path is DEFAULT_PLATFORM_ROOMS and registry_asked(config):
        return None
    return path
