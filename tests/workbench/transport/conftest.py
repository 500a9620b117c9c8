"""Hostile HTTPS servers on loopback for the client's tests (``tests/workbench/transport/hostile_server.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from ssl import SSLContext

import pytest

from tests.workbench.transport.hostile_server import Answer, Certificates, HostileServer


@pytest.fixture(scope="session")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    return Certificates(Path(tmp_path_factory.mktemp("hostile-ca")))


@pytest.fixture
def serve(certificates: Certificates) -> Iterator[Callable[..., HostileServer]]:
    """``serve(answer, context=None)`` starts a hostile server, stopped when the test ends."""
    started: list[HostileServer] = []

    def start(answer: Answer, context: SSLContext | None = None) -> HostileServer:
        server = HostileServer(answer, certificates, context).__enter__()
        started.append(server)
        return server

    yield start
    for server in started:
        server.__exit__(None, None, None)
