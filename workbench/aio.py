"""The one bridge from blocking code (scripts, notebooks, the CLI) to the async clients.

Both helpers run the event loop on a helper thread (anyio's blocking portal), so they work the
same in a plain script and inside Jupyter, whose own loop is already running in this thread.
Callbacks handed to the async code run on that helper thread: objects they touch must allow it
(the journal's and stores' SQLite connections are opened with ``check_same_thread=False``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from typing import TypeVar

from anyio.from_thread import BlockingPortal, start_blocking_portal

T = TypeVar("T")


def blocking_portal() -> AbstractContextManager[BlockingPortal]:
    """A portal kept open across many calls (``with blocking_portal() as portal: portal.call(...)``)."""
    return start_blocking_portal(backend="asyncio")


def run_blocking(fn: Callable[..., Awaitable[T]], *args: object) -> T:
    """Run ``await fn(*args)`` to completion and return its result."""
    with blocking_portal() as portal:
        return portal.call(fn, *args)
