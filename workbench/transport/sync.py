"""A blocking facade over :class:`PlatformClient` for notebooks and scripts.

It runs the async client on its own event loop in a background thread (so it also works
inside Jupyter, whose loop is already running). ``on_result`` callbacks run in the caller's
thread, so they may use objects (e.g. a SQLite connection) created there.
"""

from __future__ import annotations

import queue
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from workbench.aio import blocking_portal
from workbench.config import Settings
from workbench.transport.client import OnResult, PlatformClient, SendItem
from workbench.transport.operations import Operation
from workbench.transport.result import Result

T = TypeVar("T")


class SyncPlatformClient:
    """``with SyncPlatformClient(settings) as client: client.send(...)``; same options as the async client."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        self._portal_cm = blocking_portal()
        self._portal = self._portal_cm.__enter__()
        try:
            self._client: PlatformClient = self._portal.call(self._make, settings, options)
        except BaseException:
            self._portal_cm.__exit__(None, None, None)
            raise

    @staticmethod
    async def _make(settings: Settings, options: dict[str, Any]) -> PlatformClient:
        return PlatformClient(settings, **options)

    @property
    def client(self) -> PlatformClient:
        return self._client

    def __enter__(self) -> SyncPlatformClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._portal_cm is None:
            return
        try:
            self._portal.call(self._client.aclose)
        finally:
            self._portal_cm.__exit__(None, None, None)
            self._portal_cm = None  # type: ignore[assignment]

    def run(self, fn: Callable[[PlatformClient], Awaitable[T]]) -> T:
        """``await fn(client)`` on the client's loop (e.g. a send loop with callbacks); returns its result.
        The callbacks run on that loop's thread."""
        return self._portal.call(fn, self._client)

    def send(self, op: str | Operation, body: bytes, *, context: Any = None, idempotent: bool | None = None,
             method: str | None = None, path: str | None = None) -> Result:
        return self._portal.call(lambda: self._client.send(op, body, context=context, idempotent=idempotent,
                                                           method=method, path=path))

    def send_many(self, items: Iterable[SendItem | tuple[Any, ...]], on_result: OnResult | None = None, *,
                  stop_on_fatal: bool = True) -> list[Result]:
        """As :meth:`PlatformClient.send_many`; ``on_result`` runs here, in the calling thread."""
        arrived: queue.Queue[Result] = queue.Queue()
        future = self._portal.start_task_soon(
            lambda: self._client.send_many(list(items), on_result=arrived.put, stop_on_fatal=stop_on_fatal))
        try:
            while True:
                try:
                    result = arrived.get(timeout=0.05)
                except queue.Empty:
                    if future.done() and arrived.empty():
                        break
                    continue
                if on_result is not None:
                    on_result(result)
        except BaseException:
            future.cancel()
            raise
        return future.result()
