"""The connectivity workbench: the analyst's API.

    from workbench import check_rates, dry_run, push_rates, Settings
    check = check_rates(["rates.xlsx"], registry="registry.xlsx")
    check.summary()
    result = push_rates(check, Settings.from_file("sandbox/connection.env"), skip_invalid=True)

The stages (see docs/architecture.md)::

    cli ─→ flows ─→ platform, writers, reports ─→ ota, transport ─→ expectations ─→ loaders
           (check → plan → send → results, per kind of data)

``loaders`` (files → canonical frames) and ``expectations`` (frames → one issues frame) are the
pure sibling packages; this package holds everything that talks to the outside world. Names load
on first use, so ``import workbench`` stays instant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

_EXPORTS = {
    # settings and paths
    "Settings": "workbench.config",
    "Secret": "workbench.config",
    "ROOT": "workbench.paths",
    "DATA": "workbench.paths",
    "SAMPLES": "workbench.paths",
    # errors, grouped by what the caller can do (workbench.errors)
    "WorkbenchError": "workbench.errors",
    "InputError": "workbench.errors",
    "SettingsError": "workbench.errors",
    "TransientError": "workbench.errors",
    "TerminalError": "workbench.errors",
    "BlockedByErrors": "workbench.errors",
    "PlatformReadError": "workbench.errors",
    "OperationSunset": "workbench.errors",
    "LoadError": "loaders",
    # rates
    "check_rates": "workbench.flows.rates",
    "dry_run": "workbench.flows.rates",
    "push_rates": "workbench.flows.rates",
    "plan_rates": "workbench.flows.plan",
    "RatesPlan": "workbench.writers.plan",
    "write_plan_report": "workbench.reports.plan",
    "RatesCheck": "workbench.flows.rates",
    "DryRun": "workbench.flows.rates",
    "PushResult": "workbench.writers.push",
    # availability and restrictions (``dry_run`` writes an availability check's requests too)
    "check_availability": "workbench.flows.availability",
    "AvailabilityCheck": "workbench.flows.availability",
    "plan_availability": "workbench.flows.availability",
    "push_availability": "workbench.flows.availability",
    "fetch_availability": "workbench.flows.availability",
    "reconcile_availability": "workbench.flows.availability",
    "AvailabilityDryRun": "workbench.flows.availability",
    "AvailabilityPlan": "workbench.writers.avail_plan",
    "AvailabilityPushResult": "workbench.writers.avail_push",
    "AvailabilityReconciliation": "workbench.flows.availability_read",
    "PlatformAvailability": "workbench.platform.availability",
    # room types and amenities
    "check_rooms": "workbench.flows.rooms",
    "preview_rooms": "workbench.flows.rooms",
    "push_rooms": "workbench.flows.rooms",
    "write_rooms_workbook": "workbench.flows.rooms",
    "rooms_dry_run": "workbench.flows.rooms:dry_run",
    "RoomsCheck": "workbench.flows.rooms",
    "RoomsPushResult": "workbench.flows.rooms",
    "DeprecatedOperationWarning": "workbench.flows.rooms",
    "check_rooms_modular": "workbench.flows.rooms_modular",
    "default_rooms_api": "workbench.flows.rooms_modular:default_api",
    "fetch_rooms_modular": "workbench.flows.rooms_modular",
    "plan_rooms_modular": "workbench.flows.rooms_modular",
    "ModularRoomsPlan": "workbench.flows.rooms_modular",
    "push_rooms_modular": "workbench.flows.rooms_modular_push",
    "ModularRoomsPushResult": "workbench.flows.rooms_modular_push",
    "write_modular_rooms_workbook": "workbench.flows.rooms_modular_files",
    "modular_rooms_frames": "workbench.flows.rooms_modular_files",
    # property content (checking; pushing is workbench.flows.content_push)
    "check_content": "workbench.flows.content",
    "ContentCheck": "workbench.flows.content",
    # property content (E4)
    "preview_content": "workbench.flows.content_push",
    "push_content": "workbench.flows.content_push",
    "ContentPushResult": "workbench.flows.content_push",
    # property content through the modular JSON APIs (issue 24)
    "check_content_modular": "workbench.flows.content_modular",
    "plan_content_modular": "workbench.flows.content_modular",
    "push_content_modular": "workbench.flows.content_modular",
    "ModularPushResult": "workbench.flows.content_modular",
    "fetch_content_modular": "workbench.flows.modular_fetch",
    "write_content_workbook": "workbench.flows.modular_fetch",
    # property health
    "property_health": "workbench.flows.health",
    "PropertyHealth": "workbench.health",
    "write_health_report": "workbench.reports.health",
    "write_letters": "workbench.reports.health",
    # reads from the platform
    "fetch_registry": "workbench.platform.registry",
    "fetch_rooms": "workbench.platform.rooms",
    "PlatformRooms": "workbench.ota.descriptive_info",
    # reports for people
    "write_report": "workbench.reports",
    "write_push_report": "workbench.reports",
    "write_table": "workbench.reports",
    "ReportContext": "workbench.reports",
    # notifications (the partner's own endpoints)
    "NotifyService": "workbench.notify",
    "create_notify_app": "workbench.notify:create_app",
    "notifications_frame": "workbench.notify",
    "read_notifications": "workbench.notify",
    "expand_payload": "workbench.notify",
    "LateDecision": "workbench.notify",
    # car rental search
    "search_cars": "workbench.cars",
    "CarSearch": "workbench.cars",
    "SearchParams": "workbench.cars",
    "SearchParamsError": "workbench.cars",
    "affiliate_links": "workbench.cars",
    # local stand-ins and serving, for notebooks and tests
    "run_sandbox": "workbench.sandbox",
    "run_demand_sandbox": "workbench.sandbox.cars",
    "CnsClient": "workbench.sandbox.cns",
    "CnsConfig": "workbench.sandbox.cns",
    "notification": "workbench.sandbox.cns",
    "serve_in_thread": "workbench.serving",
    "ensure_test_ca": "workbench.serving",
    "xml_excerpt": "workbench.display",
}

__all__ = [
    "AvailabilityCheck", "AvailabilityDryRun", "AvailabilityPlan", "AvailabilityPushResult", "AvailabilityReconciliation",
    "BlockedByErrors", "CarSearch", "CnsClient", "CnsConfig", "ContentCheck", "ContentPushResult", "DATA",
    "DeprecatedOperationWarning",
    "DryRun", "InputError", "LateDecision", "LoadError", "ModularPushResult", "NotifyService", "OperationSunset",
    "ModularRoomsPlan", "ModularRoomsPushResult", "check_rooms_modular", "default_rooms_api", "fetch_rooms_modular",
    "modular_rooms_frames", "plan_rooms_modular", "push_rooms_modular", "write_modular_rooms_workbook",
    "PlatformReadError", "PlatformRooms", "PropertyHealth", "PushResult", "ROOT", "RatesCheck", "RatesPlan",
    "ReportContext",
    "RoomsCheck", "RoomsPushResult", "SAMPLES", "SearchParams", "SearchParamsError", "Secret", "Settings",
    "SettingsError", "TerminalError", "TransientError", "WorkbenchError", "affiliate_links", "check_availability",
    "check_content", "check_content_modular", "check_rates", "check_rooms", "create_notify_app", "dry_run",
    "ensure_test_ca", "expand_payload", "fetch_availability", "fetch_content_modular", "fetch_registry", "fetch_rooms",
    "notification", "notifications_frame", "plan_availability", "plan_content_modular", "plan_rates",
    "PlatformAvailability", "preview_content", "preview_rooms", "property_health", "push_availability",
    "push_content", "push_content_modular", "push_rates", "push_rooms", "read_notifications",
    "reconcile_availability", "rooms_dry_run", "run_demand_sandbox", "run_sandbox", "search_cars",
    "serve_in_thread", "write_health_report", "write_letters", "write_push_report", "write_report",
    "write_content_workbook", "write_plan_report", "write_rooms_workbook", "write_table", "xml_excerpt",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # for type checkers and editors; at run time names load lazily
    from loaders import LoadError
    from workbench.cars import CarSearch, SearchParams, SearchParamsError, affiliate_links, search_cars
    from workbench.config import Secret, Settings
    from workbench.display import xml_excerpt
    from workbench.errors import (
        BlockedByErrors,
        InputError,
        OperationSunset,
        PlatformReadError,
        SettingsError,
        TerminalError,
        TransientError,
        WorkbenchError,
    )
    from workbench.flows import (
        AvailabilityCheck,
        AvailabilityDryRun,
        AvailabilityReconciliation,
        ContentCheck,
        ContentPushResult,
        DeprecatedOperationWarning,
        DryRun,
        ModularPushResult,
        ModularRoomsPlan,
        ModularRoomsPushResult,
        RatesCheck,
        RoomsCheck,
        RoomsPushResult,
        check_availability,
        check_content,
        check_content_modular,
        check_rates,
        check_rooms,
        check_rooms_modular,
        fetch_availability,
        fetch_content_modular,
        fetch_rooms_modular,
        modular_rooms_frames,
        plan_availability,
        plan_content_modular,
        plan_rates,
        plan_rooms_modular,
        preview_content,
        preview_rooms,
        property_health,
        push_availability,
        push_content,
        push_content_modular,
        push_rates,
        push_rooms,
        push_rooms_modular,
        reconcile_availability,
        rooms_dry_run,
        write_content_workbook,
        write_modular_rooms_workbook,
        write_rooms_workbook,
    )
    from workbench.flows import default_api as default_rooms_api
    from workbench.flows import rates_dry_run as dry_run
    from workbench.health import PropertyHealth
    from workbench.notify import (
        LateDecision,
        NotifyService,
        expand_payload,
        notifications_frame,
        read_notifications,
    )
    from workbench.notify import create_app as create_notify_app
    from workbench.ota import PlatformRooms
    from workbench.paths import DATA, ROOT, SAMPLES
    from workbench.platform import PlatformAvailability, fetch_registry, fetch_rooms
    from workbench.reports import ReportContext, write_push_report, write_report, write_table
    from workbench.reports.health import write_health_report, write_letters
    from workbench.reports.plan import write_plan_report
    from workbench.sandbox import run_sandbox
    from workbench.sandbox.cars import run_demand_sandbox
    from workbench.sandbox.cns import CnsClient, CnsConfig, notification
    from workbench.serving import ensure_test_ca, serve_in_thread
    from workbench.writers import AvailabilityPlan, AvailabilityPushResult, PushResult, RatesPlan

if "pandas" in __import__("sys").modules:  # a notebook (pandas loaded first): `frame.wb.show()` works at once
    import workbench.display  # noqa: F401 - registers the `wb` accessor; never loads pandas on its own
