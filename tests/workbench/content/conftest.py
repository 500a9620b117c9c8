"""Fixtures of the content push tests: ``frames`` (the hand-built frames module, see frames.py)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from workbench.config import Secret, Settings
from workbench.transport import SyncPlatformClient


def load_helper(name: str) -> ModuleType:
    """A helper module beside this file (the tests import in importlib mode: no package imports)."""
    spec = importlib.util.spec_from_file_location(f"content_{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


FRAMES = load_helper("frames")
FAKE = load_helper("fake_platform")
SETTINGS = Settings(base_url="https://platform.test", username="u", password=Secret("p"),
                    build_hotel_attempts=4, build_hotel_backoff_seconds=2.0)


@pytest.fixture
def frames() -> ModuleType:
    return FRAMES


@dataclass
class Fake:
    """The stand-in, a client that reaches it through ``httpx.MockTransport``, and the waits asked for."""

    platform: Any
    client: SyncPlatformClient
    settings: Settings
    sleeps: list[float]


@pytest.fixture
def fake() -> Iterator[Fake]:
    platform = FAKE.FakeContentPlatform()
    client = SyncPlatformClient(SETTINGS, transport=httpx.MockTransport(platform.handler))
    try:
        yield Fake(platform, client, SETTINGS, [])
    finally:
        client.close()
