"""Ctrl-C and SIGTERM in the commands: one line, exit 130, and the reports written whole.

* :func:`sigterm_as_ctrl_c`: in the commands that send, SIGTERM (a ``kill``, a scheduler, a container
  stopping) is a Ctrl-C: the send driver journals what was in flight and the command still writes its
  reports of what was sent (``workbench.writers.driver.PushInterrupted``).
* :func:`finishing`: while a command writes its reports, a Ctrl-C or SIGTERM waits until they are all
  written (a second one stops at once), so an interrupted command never leaves one report written and
  another missing.

Signal handlers can only be set in the main thread; elsewhere (a notebook's worker thread) both are
no-ops.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

#: the line a command prints when stopped before it sent anything
NOTHING_SENT = "stopped: nothing was sent"


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """Inside the block, SIGTERM raises :class:`KeyboardInterrupt` as Ctrl-C does."""
    if not _main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def finishing() -> Iterator[None]:
    """Inside the block, Ctrl-C and SIGTERM are held back until it ends (then raised as
    :class:`KeyboardInterrupt`); a second one raises at once."""
    if not _main_thread():
        yield
        return
    came: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        if came:
            raise KeyboardInterrupt
        came.append(signum)

    previous = {s: signal.signal(s, hold) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if came:
        raise KeyboardInterrupt
