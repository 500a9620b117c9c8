"""From valid canonical frames to what the platform receives, and the record of what it accepted.

The one push path: ``driver`` (the one send loop of every kind), ``kind`` / ``planned`` / ``outcome`` /
``folder`` (what a kind tells the driver, one request, one result model, one dry-run folder), ``journal``
(SQLite: runs and requests of every kind, accepted values, resume); the kinds beside it: rates (``push``,
``compress``, ``batches``, ``deltas``, ``plan``), availability (``avail_*``), room types (``rooms_push``,
``overlay`` and the ``room_*`` parts), content (``content_push``), the modular APIs (``modular_content``,
``modular_rooms``). Writers take frames, not flow objects.

The names other packages use, each loaded on first use (:mod:`loaders.lazy`); a module
outside this package imports them from here, never from the modules behind them
(``tests/test_faces.py`` keeps it so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

if TYPE_CHECKING:
    from workbench.writers.accepted import (
        empty_accepted,
        journal_mark,
        journal_targets,
        read_accepted,
    )
    from workbench.writers.avail_deltas import (
        changed_availability,
        diff_availability,
    )
    from workbench.writers.avail_plan import (
        AvailabilityPlan,
    )
    from workbench.writers.avail_push import (
        AvailabilityKind,
        AvailabilityPushResult,
        availability_result,
        send_availability,
    )
    from workbench.writers.avail_requests import (
        OPERATION as AVAILABILITY_OPERATION,
    )
    from workbench.writers.avail_requests import (
        availability_folder_plan,
        compress_availability,
        planned_availability,
    )
    from workbench.writers.avail_rows import (
        AVAILABILITY,
    )
    from workbench.writers.avail_rows import (
        held_lines as avail_held_lines,
    )
    from workbench.writers.avail_rows import (
        not_sent_rows as avail_not_sent_rows,
    )
    from workbench.writers.batches import (
        RateRequest,
        plan_requests,
        row_ranges,
    )
    from workbench.writers.content_plan import (
        PARTS_COLUMNS,
        ContentPlan,
        ContentRequest,
        comparable,
        plan_content,
    )
    from workbench.writers.content_push import (
        CONTENT,
        BuildHotelResend,
        ContentKind,
        planned_content,
        results_frame,
    )
    from workbench.writers.content_push import (
        OPERATION as CONTENT_OPERATION,
    )
    from workbench.writers.content_push import (
        RESULT_COLUMNS as CONTENT_RESULT_COLUMNS,
    )
    from workbench.writers.deltas import (
        cell_keys,
        changed_against,
    )
    from workbench.writers.driver import (
        NOT_SENT,
        Held,
        PushInterrupted,
        Sent,
        requests_frame,
        result_when_stopped,
        send,
        target_of,
    )
    from workbench.writers.folder import (
        Folder,
        folder_kind,
        read_requests,
        write_requests,
    )
    from workbench.writers.journal import (
        DEFAULT_JOURNAL,
        Journal,
    )
    from workbench.writers.journal_avail import (
        AVAIL_KIND,
        read_accepted_availability,
    )
    from workbench.writers.modular_content import (
        CREATE,
        KIND,
        MODULAR,
        OWN_COLUMNS,
        ModularContentKind,
        cell_rows,
        modular_touched,
        planned_modular,
        refuse_mixed,
    )
    from workbench.writers.modular_content import (
        folder_planned as modular_folder_planned,
    )
    from workbench.writers.modular_rooms import (
        BULK,
        UNITS,
        UnitsKind,
        bulk_units,
        journal_units,
        made_units,
        planned_units,
        units_folder_planned,
        unsettled_bulks,
    )
    from workbench.writers.outcome import (
        NOT_SENT_ERRORS,
        OUTCOME_COLUMNS,
        KindInfo,
        PushOutcome,
        notice_message,
    )
    from workbench.writers.overlay import (
        RoomsPlan,
        plan_rooms,
    )
    from workbench.writers.plan import (
        RatesPlan,
        count_messages,
        diff_cells,
        parse_price_keys,
    )
    from workbench.writers.planned import (
        Planned,
    )
    from workbench.writers.push import (
        RATES,
        ROW_COLUMNS,
        PushResult,
        held_lines,
        not_sent_rows,
        send_rates,
    )
    from workbench.writers.push_folder import (
        send_folder,
    )
    from workbench.writers.request_folder import (
        CELL_COLUMNS,
        CELLS,
        HEADERS_KEY,
        folder_requests,
        manifest,
        plan_folder,
        read_folder,
        write_folder,
    )
    from workbench.writers.room_sent import (
        sent_rooms,
    )
    from workbench.writers.rooms_push import (
        RESULT_COLUMNS as ROOMS_RESULT_COLUMNS,
    )
    from workbench.writers.rooms_push import (
        ROOMS,
        RoomsKind,
        accepted_rooms,
        planned_rooms,
        room_ref,
        unchanged,
    )
    from workbench.writers.rooms_push import (
        folder_planned as rooms_folder_planned,
    )
    from workbench.writers.snapshot import (
        export_accepted,
    )
    from workbench.writers.snapshot import (
        read_accepted as read_accepted_snapshot,
    )

__getattr__, __dir__ = lazy_exports(__name__, {
    "read_accepted": "workbench.writers.accepted:read_accepted",
    "empty_accepted": "workbench.writers.accepted",
    "journal_mark": "workbench.writers.accepted",
    "journal_targets": "workbench.writers.accepted",
    "changed_availability": "workbench.writers.avail_deltas",
    "diff_availability": "workbench.writers.avail_deltas",
    "AvailabilityPlan": "workbench.writers.avail_plan",
    "availability_result": "workbench.writers.avail_push",
    "AvailabilityKind": "workbench.writers.avail_push",
    "AvailabilityPushResult": "workbench.writers.avail_push",
    "send_availability": "workbench.writers.avail_push",
    "AVAILABILITY_OPERATION": "workbench.writers.avail_requests:OPERATION",
    "availability_folder_plan": "workbench.writers.avail_requests",
    "compress_availability": "workbench.writers.avail_requests",
    "planned_availability": "workbench.writers.avail_requests",
    "avail_held_lines": "workbench.writers.avail_rows:held_lines",
    "avail_not_sent_rows": "workbench.writers.avail_rows:not_sent_rows",
    "AVAILABILITY": "workbench.writers.avail_rows",
    "plan_requests": "workbench.writers.batches",
    "RateRequest": "workbench.writers.batches",
    "row_ranges": "workbench.writers.batches",
    "comparable": "workbench.writers.content_plan",
    "ContentPlan": "workbench.writers.content_plan",
    "ContentRequest": "workbench.writers.content_plan",
    "PARTS_COLUMNS": "workbench.writers.content_plan",
    "plan_content": "workbench.writers.content_plan",
    "BuildHotelResend": "workbench.writers.content_push",
    "CONTENT": "workbench.writers.content_push",
    "CONTENT_OPERATION": "workbench.writers.content_push:OPERATION",
    "CONTENT_RESULT_COLUMNS": "workbench.writers.content_push:RESULT_COLUMNS",
    "ContentKind": "workbench.writers.content_push",
    "planned_content": "workbench.writers.content_push",
    "results_frame": "workbench.writers.content_push",
    "cell_keys": "workbench.writers.deltas",
    "changed_against": "workbench.writers.deltas",
    "PushInterrupted": "workbench.writers.driver",
    "target_of": "workbench.writers.driver",
    "Held": "workbench.writers.driver",
    "NOT_SENT": "workbench.writers.driver",
    "result_when_stopped": "workbench.writers.driver",
    "send": "workbench.writers.driver",
    "Sent": "workbench.writers.driver",
    "requests_frame": "workbench.writers.driver",
    "Folder": "workbench.writers.folder",
    "folder_kind": "workbench.writers.folder",
    "read_requests": "workbench.writers.folder",
    "write_requests": "workbench.writers.folder",
    "DEFAULT_JOURNAL": "workbench.writers.journal",
    "Journal": "workbench.writers.journal",
    "AVAIL_KIND": "workbench.writers.journal_avail",
    "read_accepted_availability": "workbench.writers.journal_avail",
    "cell_rows": "workbench.writers.modular_content",
    "CREATE": "workbench.writers.modular_content",
    "KIND": "workbench.writers.modular_content",
    "MODULAR": "workbench.writers.modular_content",
    "modular_folder_planned": "workbench.writers.modular_content:folder_planned",
    "modular_touched": "workbench.writers.modular_content",
    "ModularContentKind": "workbench.writers.modular_content",
    "OWN_COLUMNS": "workbench.writers.modular_content",
    "planned_modular": "workbench.writers.modular_content",
    "refuse_mixed": "workbench.writers.modular_content",
    "BULK": "workbench.writers.modular_rooms",
    "bulk_units": "workbench.writers.modular_rooms",
    "journal_units": "workbench.writers.modular_rooms",
    "made_units": "workbench.writers.modular_rooms",
    "planned_units": "workbench.writers.modular_rooms",
    "units_folder_planned": "workbench.writers.modular_rooms",
    "UNITS": "workbench.writers.modular_rooms",
    "UnitsKind": "workbench.writers.modular_rooms",
    "unsettled_bulks": "workbench.writers.modular_rooms",
    "KindInfo": "workbench.writers.outcome",
    "NOT_SENT_ERRORS": "workbench.writers.outcome",
    "notice_message": "workbench.writers.outcome",
    "OUTCOME_COLUMNS": "workbench.writers.outcome",
    "PushOutcome": "workbench.writers.outcome",
    "plan_rooms": "workbench.writers.overlay",
    "RoomsPlan": "workbench.writers.overlay",
    "count_messages": "workbench.writers.plan",
    "diff_cells": "workbench.writers.plan",
    "parse_price_keys": "workbench.writers.plan",
    "RatesPlan": "workbench.writers.plan",
    "Planned": "workbench.writers.planned",
    "held_lines": "workbench.writers.push:held_lines",
    "not_sent_rows": "workbench.writers.push:not_sent_rows",
    "PushResult": "workbench.writers.push",
    "RATES": "workbench.writers.push",
    "ROW_COLUMNS": "workbench.writers.push",
    "send_rates": "workbench.writers.push",
    "send_folder": "workbench.writers.push_folder",
    "CELL_COLUMNS": "workbench.writers.request_folder",
    "CELLS": "workbench.writers.request_folder",
    "folder_requests": "workbench.writers.request_folder",
    "HEADERS_KEY": "workbench.writers.request_folder",
    "manifest": "workbench.writers.request_folder",
    "plan_folder": "workbench.writers.request_folder",
    "read_folder": "workbench.writers.request_folder",
    "write_folder": "workbench.writers.request_folder",
    "sent_rooms": "workbench.writers.room_sent",
    "accepted_rooms": "workbench.writers.rooms_push",
    "planned_rooms": "workbench.writers.rooms_push",
    "room_ref": "workbench.writers.rooms_push",
    "ROOMS": "workbench.writers.rooms_push",
    "rooms_folder_planned": "workbench.writers.rooms_push:folder_planned",
    "ROOMS_RESULT_COLUMNS": "workbench.writers.rooms_push:RESULT_COLUMNS",
    "RoomsKind": "workbench.writers.rooms_push",
    "unchanged": "workbench.writers.rooms_push",
    "export_accepted": "workbench.writers.snapshot",
    "read_accepted_snapshot": "workbench.writers.snapshot:read_accepted",
})

__all__ = [
    "AVAILABILITY",
    "AVAILABILITY_OPERATION",
    "AVAIL_KIND",
    "AvailabilityKind",
    "AvailabilityPlan",
    "AvailabilityPushResult",
    "BULK",
    "BuildHotelResend",
    "CELLS",
    "CELL_COLUMNS",
    "CONTENT",
    "CONTENT_OPERATION",
    "CONTENT_RESULT_COLUMNS",
    "CREATE",
    "ContentKind",
    "ContentPlan",
    "ContentRequest",
    "DEFAULT_JOURNAL",
    "Folder",
    "HEADERS_KEY",
    "Held",
    "Journal",
    "KIND",
    "KindInfo",
    "MODULAR",
    "ModularContentKind",
    "NOT_SENT",
    "NOT_SENT_ERRORS",
    "OUTCOME_COLUMNS",
    "OWN_COLUMNS",
    "PARTS_COLUMNS",
    "Planned",
    "PushInterrupted",
    "PushOutcome",
    "PushResult",
    "RATES",
    "ROOMS",
    "ROOMS_RESULT_COLUMNS",
    "ROW_COLUMNS",
    "RateRequest",
    "RatesPlan",
    "RoomsKind",
    "RoomsPlan",
    "Sent",
    "UNITS",
    "UnitsKind",
    "accepted_rooms",
    "avail_held_lines",
    "avail_not_sent_rows",
    "availability_folder_plan",
    "availability_result",
    "bulk_units",
    "cell_keys",
    "cell_rows",
    "changed_against",
    "changed_availability",
    "comparable",
    "compress_availability",
    "count_messages",
    "diff_availability",
    "diff_cells",
    "empty_accepted",
    "export_accepted",
    "folder_kind",
    "folder_requests",
    "held_lines",
    "journal_mark",
    "journal_targets",
    "journal_units",
    "made_units",
    "manifest",
    "modular_folder_planned",
    "modular_touched",
    "not_sent_rows",
    "notice_message",
    "parse_price_keys",
    "plan_content",
    "plan_folder",
    "plan_requests",
    "plan_rooms",
    "planned_availability",
    "planned_content",
    "planned_modular",
    "planned_rooms",
    "planned_units",
    "read_accepted",
    "read_accepted_availability",
    "read_accepted_snapshot",
    "read_folder",
    "read_requests",
    "refuse_mixed",
    "requests_frame",
    "result_when_stopped",
    "results_frame",
    "room_ref",
    "rooms_folder_planned",
    "row_ranges",
    "send",
    "send_availability",
    "send_folder",
    "send_rates",
    "sent_rooms",
    "target_of",
    "unchanged",
    "units_folder_planned",
    "unsettled_bulks",
    "write_folder",
    "write_requests",
]
