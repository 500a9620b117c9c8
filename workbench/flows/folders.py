"""``push requests DIR``: send a dry-run folder of any kind through the one push path.

A folder says its kind in ``manifest.csv`` (:mod:`workbench.writers.folder`; a folder without one holds
rates). Each kind's flow sends its own folders (:data:`SENDERS`): its requests as written (an edited one
is refused), through the journal, deltas and creates as a push of that kind does them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from workbench.config import Settings
from workbench.errors import InputError
from workbench.writers import PushOutcome, folder_kind, read_requests


def _rates(directory: Path, settings: Settings, **options: Any) -> PushOutcome:
    from workbench.writers import send_folder

    options.pop("client", None)
    return send_folder(directory, settings, **options)


def _rooms(directory: Path, settings: Settings, **options: Any) -> PushOutcome:
    from workbench.flows.rooms import push_rooms_folder

    options.pop("client_options", None)
    return push_rooms_folder(read_requests(directory), settings, **options)


def _content(directory: Path, settings: Settings, **options: Any) -> PushOutcome:
    from workbench.flows.content_push import push_content_folder

    options.pop("client_options", None)
    return push_content_folder(read_requests(directory), settings, **options)


def _content_modular(directory: Path, settings: Settings, **options: Any) -> PushOutcome:
    from workbench.flows.content_modular import send_modular_folder

    for unused in ("client_options", "full"):
        options.pop(unused, None)
    return send_modular_folder(read_requests(directory), settings, **options)


def _availability(directory: Path, settings: Settings, **options: Any) -> PushOutcome:
    from workbench.flows.availability_push import push_availability_folder

    return push_availability_folder(directory, settings, **options)


def _units(directory: Path, settings: Settings, **options: Any) -> PushOutcome:
    from workbench.flows.rooms_modular_push import push_units_folder

    options.pop("client_options", None)
    return push_units_folder(read_requests(directory), settings, **options)


#: kind -> how its folders are sent (a new kind adds its line)
SENDERS: dict[str, Callable[..., PushOutcome]] = {"rates": _rates, "rooms": _rooms, "content": _content,
                                                  "modular": _content_modular, "availability": _availability,
                                                  "units": _units}


def push_requests(directory: str | Path, settings: Settings, *, journal: str | Path, full: bool = False,
                  progress: bool = True, command: str = "", lock_wait: float = 0.0,
                  client_options: dict | None = None, client: object | None = None) -> PushOutcome:
    """Send the requests of a dry-run folder of any kind that the platform has not accepted yet (all of
    them with ``full``); returns that kind's push result."""
    kind = folder_kind(directory)
    sender = SENDERS.get(kind)
    if sender is None:
        raise InputError(f"`{directory}` holds requests of the kind `{kind}`, which this workbench cannot send "
                         f"(it sends {', '.join(sorted(SENDERS))}): write the folder again with `push ... --dry-run`")
    options: dict[str, Any] = {"journal": journal, "full": full, "progress": progress, "command": command,
                               "lock_wait": lock_wait, "client_options": client_options, "client": client}
    return sender(Path(directory), settings, **options)
