"""One sender per journal: a push holds ``<journal>.lock`` while it sends, so two pushes on one
journal never run side by side (which would double the call rate against the account's quota).

The lock is an OS file lock (``filelock``: ``flock`` on Unix), released by the kernel when its
process ends, ``kill -9`` included: a lock is never left behind. Whoever holds it writes who
they are into ``<journal>.lock.json`` (pid, host, command, since), so the one who has to wait
or give up can say who is sending.

    with send_lock(journal, wait=0, command="push rates prices.csv"):
        ...  # send
"""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from workbench.errors import TransientError


class JournalBusy(TransientError):
    """Another push is sending with the same journal; try again when it has finished (or wait
    for it with ``--wait SECONDS``)."""

    def __init__(self, message: str, holder: dict[str, object]) -> None:
        super().__init__(message)
        self.holder = holder


def lock_path(journal: str | Path) -> Path:
    """The lock file of a journal: ``<journal>.lock``."""
    journal = Path(journal)
    return journal.with_name(journal.name + ".lock")


def holder_path(journal: str | Path) -> Path:
    """Who holds the journal's lock: ``<journal>.lock.json``."""
    journal = Path(journal)
    return journal.with_name(journal.name + ".lock.json")


def read_holder(journal: str | Path) -> dict[str, object]:
    """What the holder wrote about itself (empty when nothing, or nothing readable, was written)."""
    try:
        found = json.loads(holder_path(journal).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def describe(holder: dict[str, object]) -> str:
    """``pid 4242 on host-1 (`workbench push rates a.csv`), sending since 2026-11-25 21:30:02 UTC``."""
    if not holder:
        return "another process (it has not said who it is yet)"
    command = f" (`{holder['command']}`)" if holder.get("command") else ""
    return (f"pid {holder.get('pid', '?')} on {holder.get('host', '?')}{command}, sending since "
            f"{holder.get('since', '?')}")


@contextmanager
def send_lock(journal: str | Path, *, wait: float = 0.0, command: str = "") -> Iterator[None]:
    """Hold the journal's send lock for the block. ``wait``: how many seconds to wait for another
    sender to finish (0: refuse at once). Raises :class:`JournalBusy` naming the holder when the
    lock is still held after ``wait`` seconds."""
    if wait < 0:
        raise ValueError(f"the wait for the journal lock must be 0 or more seconds, not {wait}")
    path = lock_path(journal)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(path, is_singleton=False)
    try:
        lock.acquire(timeout=wait, poll_interval=0.05)
    except Timeout:
        holder = read_holder(journal)
        waited = f"after waiting {wait:g} s " if wait else ""
        raise JournalBusy(
            f"the journal `{journal}` is in use {waited}by {describe(holder)}: two pushes on one journal would "
            "double the call rate against the account's quota. Let it finish and run this again, or wait for "
            "it with --wait SECONDS.", holder) from None
    try:
        me = {"pid": os.getpid(), "host": socket.gethostname(), "command": command,
              "since": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")}
        holder_path(journal).write_text(json.dumps(me), encoding="utf-8")
        yield
    finally:
        try:
            holder_path(journal).unlink(missing_ok=True)
        finally:
            lock.release()
