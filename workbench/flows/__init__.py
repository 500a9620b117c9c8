"""What an analyst does end to end, per kind of data: check -> plan -> send -> results.

``rates`` (check_rates, dry_run, push_rates), ``availability`` (check, plan, push, fetch, reconcile),
``rooms`` (check_rooms, preview_rooms, push_rooms; ``rooms_modular`` through the Rooms APIs), ``content``
(check, preview, push; ``content_modular`` through the modular APIs), ``health``, ``folders`` (``push requests
DIR`` of any kind). A flow ties the pure stages (``loaders``, ``expectations``) to the writers and the
platform reads; it holds no parsing, no message building and no HTTP of its own.

The names other packages use, each loaded on first use (:mod:`loaders.lazy`); a module
outside this package imports them from here, never from the modules behind them
(``tests/test_faces.py`` keeps it so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

if TYPE_CHECKING:
    from workbench.flows.availability import (
        AvailabilityCheck,
        check_availability,
    )
    from workbench.flows.availability_dry import (
        AvailabilityDryRun,
    )
    from workbench.flows.availability_dry import (
        dry_run as availability_dry_run,
    )
    from workbench.flows.availability_push import (
        plan_availability,
        push_availability,
    )
    from workbench.flows.availability_read import (
        AvailabilityReconciliation,
        fetch_availability,
        reconcile_availability,
    )
    from workbench.flows.content import (
        ContentCheck,
        check_content,
    )
    from workbench.flows.content_modular import (
        check_content_modular,
        modular_default,
        plan_content_modular,
        push_content_modular,
    )
    from workbench.flows.content_push import (
        ContentPushResult,
        preview_content,
        push_content,
    )
    from workbench.flows.dry_runs import (
        DryRun,
    )
    from workbench.flows.folders import (
        push_requests,
    )
    from workbench.flows.frames import (
        CANONICAL,
        frame_source,
        read_rates_frame,
    )
    from workbench.flows.health import (
        property_health,
    )
    from workbench.flows.modular_fetch import (
        fetch_content_modular,
        write_content_workbook,
    )
    from workbench.flows.modular_results import (
        ModularPushResult,
    )
    from workbench.flows.plan import (
        as_pushed,
        plan_rates,
    )
    from workbench.flows.rates import (
        RatesCheck,
        check_rates,
        push_rates,
    )
    from workbench.flows.rates import (
        dry_run as rates_dry_run,
    )
    from workbench.flows.room_files import (
        not_in_read,
        write_rooms_workbook,
    )
    from workbench.flows.rooms import (
        BlockedByErrors,
        DeprecatedOperationWarning,
        OperationSunset,
        PlatformReadError,
        RoomsCheck,
        RoomsPushResult,
        check_rooms,
        fetch_rooms,
        preview_rooms,
        push_rooms,
    )
    from workbench.flows.rooms import (
        dry_run as rooms_dry_run,
    )
    from workbench.flows.rooms_modular import (
        API_CHOICES,
        HOME_SUNSET,
        ModularRoomsPlan,
        check_rooms_modular,
        default_api,
        fetch_rooms_modular,
        plan_rooms_modular,
    )
    from workbench.flows.rooms_modular_files import (
        modular_dry_run,
        modular_rooms_frames,
        write_modular_rooms_workbook,
    )
    from workbench.flows.rooms_modular_push import (
        ModularRoomsPushResult,
        push_rooms_modular,
    )

__getattr__, __dir__ = lazy_exports(__name__, {
    "availability_dry_run": "workbench.flows.availability_dry:dry_run",
    "AvailabilityCheck": "workbench.flows.availability",
    "check_availability": "workbench.flows.availability",
    "AvailabilityDryRun": "workbench.flows.availability_dry",
    "plan_availability": "workbench.flows.availability_push",
    "push_availability": "workbench.flows.availability_push",
    "AvailabilityReconciliation": "workbench.flows.availability_read",
    "fetch_availability": "workbench.flows.availability_read",
    "reconcile_availability": "workbench.flows.availability_read",
    "check_content": "workbench.flows.content",
    "ContentCheck": "workbench.flows.content",
    "check_content_modular": "workbench.flows.content_modular",
    "modular_default": "workbench.flows.content_modular",
    "plan_content_modular": "workbench.flows.content_modular",
    "push_content_modular": "workbench.flows.content_modular",
    "ContentPushResult": "workbench.flows.content_push",
    "preview_content": "workbench.flows.content_push",
    "push_content": "workbench.flows.content_push",
    "push_requests": "workbench.flows.folders",
    "CANONICAL": "workbench.flows.frames",
    "frame_source": "workbench.flows.frames",
    "read_rates_frame": "workbench.flows.frames",
    "property_health": "workbench.flows.health",
    "fetch_content_modular": "workbench.flows.modular_fetch",
    "write_content_workbook": "workbench.flows.modular_fetch",
    "ModularPushResult": "workbench.flows.modular_results",
    "as_pushed": "workbench.flows.plan",
    "plan_rates": "workbench.flows.plan",
    "check_rates": "workbench.flows.rates",
    "DryRun": "workbench.flows.dry_runs",
    "push_rates": "workbench.flows.rates",
    "rates_dry_run": "workbench.flows.rates:dry_run",
    "RatesCheck": "workbench.flows.rates",
    "not_in_read": "workbench.flows.room_files",
    "write_rooms_workbook": "workbench.flows.room_files",
    "BlockedByErrors": "workbench.flows.rooms",
    "check_rooms": "workbench.flows.rooms",
    "DeprecatedOperationWarning": "workbench.flows.rooms",
    "fetch_rooms": "workbench.flows.rooms",
    "OperationSunset": "workbench.flows.rooms",
    "PlatformReadError": "workbench.flows.rooms",
    "preview_rooms": "workbench.flows.rooms",
    "push_rooms": "workbench.flows.rooms",
    "rooms_dry_run": "workbench.flows.rooms:dry_run",
    "RoomsCheck": "workbench.flows.rooms",
    "RoomsPushResult": "workbench.flows.rooms",
    "API_CHOICES": "workbench.flows.rooms_modular",
    "check_rooms_modular": "workbench.flows.rooms_modular",
    "default_api": "workbench.flows.rooms_modular",
    "fetch_rooms_modular": "workbench.flows.rooms_modular",
    "HOME_SUNSET": "workbench.flows.rooms_modular",
    "ModularRoomsPlan": "workbench.flows.rooms_modular",
    "plan_rooms_modular": "workbench.flows.rooms_modular",
    "modular_dry_run": "workbench.flows.rooms_modular_files",
    "modular_rooms_frames": "workbench.flows.rooms_modular_files",
    "write_modular_rooms_workbook": "workbench.flows.rooms_modular_files",
    "ModularRoomsPushResult": "workbench.flows.rooms_modular_push",
    "push_rooms_modular": "workbench.flows.rooms_modular_push",
})

__all__ = [
    "API_CHOICES",
    "AvailabilityCheck",
    "AvailabilityDryRun",
    "AvailabilityReconciliation",
    "BlockedByErrors",
    "CANONICAL",
    "ContentCheck",
    "ContentPushResult",
    "DeprecatedOperationWarning",
    "DryRun",
    "HOME_SUNSET",
    "ModularPushResult",
    "ModularRoomsPlan",
    "ModularRoomsPushResult",
    "OperationSunset",
    "PlatformReadError",
    "RatesCheck",
    "RoomsCheck",
    "RoomsPushResult",
    "as_pushed",
    "availability_dry_run",
    "check_availability",
    "check_content",
    "check_content_modular",
    "check_rates",
    "check_rooms",
    "check_rooms_modular",
    "default_api",
    "fetch_availability",
    "fetch_content_modular",
    "fetch_rooms",
    "fetch_rooms_modular",
    "frame_source",
    "modular_default",
    "modular_dry_run",
    "modular_rooms_frames",
    "not_in_read",
    "plan_availability",
    "plan_content_modular",
    "plan_rates",
    "plan_rooms_modular",
    "preview_content",
    "preview_rooms",
    "property_health",
    "push_availability",
    "push_content",
    "push_content_modular",
    "push_rates",
    "push_requests",
    "push_rooms",
    "push_rooms_modular",
    "rates_dry_run",
    "read_rates_frame",
    "reconcile_availability",
    "rooms_dry_run",
    "write_content_workbook",
    "write_modular_rooms_workbook",
    "write_rooms_workbook",
]
