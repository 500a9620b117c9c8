"""The types every handler works with: the checked request (:class:`Call`), its answer
(:class:`Reply`), the state a handler may read and change (:class:`PlatformState`) and an operation
family (:class:`Family`: endpoints and the handler of each).

Handlers import these; the pipeline (:mod:`workbench.sandbox.platform.pipeline`) makes the calls
and writes the replies, and the app (:mod:`workbench.sandbox.platform.app`) routes to the families.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol, TypeVar

from lxml import etree

from workbench.sandbox.platform.config import SandboxConfig
from workbench.sandbox.platform.content_state import ContentStore
from workbench.sandbox.platform.endpoints import Endpoint
from workbench.sandbox.platform.faults import FaultInjector
from workbench.sandbox.platform.rate_rules import RateRules
from workbench.sandbox.platform.room_codes import RoomCodes
from workbench.sandbox.platform.room_state import RoomTypeStore
from workbench.sandbox.platform.seed import Registry
from workbench.sandbox.platform.store import Store

T = TypeVar("T")


@dataclass
class Call:
    """What a handler gets: the checked request. ``root`` is the XML body (OTA, B.XML; None when
    empty), ``json`` the JSON body (JSON endpoints; None when empty); ``path_params`` the ``{...}``
    parts of the endpoint's path pattern, ``query`` the query string."""

    endpoint: Endpoint
    account: str
    ruid: str
    body: bytes
    root: etree._Element | None
    version: str
    method: str = "POST"
    path: str = ""
    path_params: Mapping[str, str] = field(default_factory=dict)
    query: Mapping[str, str] = field(default_factory=dict)
    json: Any = None


@dataclass
class Reply:
    """A handler's answer: HTTP status, body (in the endpoint's format) and the request log's outcome
    (``success``, ``warnings``, ``errors``, ``rejected``...)."""

    status: int
    body: bytes
    outcome: str


class PlatformState(Protocol):
    """What handlers see of the sandbox (:class:`~workbench.sandbox.platform.pipeline.Sandbox`).
    A family with state of its own keeps it in :meth:`own`, made once from the shared store."""

    config: SandboxConfig
    store: Store
    registry: Registry
    rules: RateRules
    room_types: RoomTypeStore
    room_codes: RoomCodes
    content: ContentStore
    faults: FaultInjector

    def today(self) -> date:
        """The platform's date (CET), or the configured one."""
        ...

    def own(self, make: Callable[[Store], T]) -> T:
        """The state object ``make(store)`` (e.g. a class keeping its own tables), made on first use
        and the same object afterwards."""
        ...


Handler = Callable[[PlatformState, Call], Awaitable[Reply]]


@dataclass(frozen=True)
class Family:
    """An operation family: the endpoints it serves and the handler of each (by endpoint name). An
    endpoint without a handler is catalogued but answered 501 ``SANDBOX_NOT_IMPLEMENTED``."""

    name: str
    endpoints: tuple[Endpoint, ...]
    handlers: Mapping[str, Handler] = field(default_factory=dict)
