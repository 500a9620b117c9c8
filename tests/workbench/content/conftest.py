"""Fixtures of the content push tests: ``frames`` (the hand-built frames module, see frames.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest


def load_helper(name: str) -> ModuleType:
    """A helper module beside this file (the tests import in importlib mode: no package imports)."""
    spec = importlib.util.spec_from_file_location(f"content_{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


FRAMES = load_helper("frames")


@pytest.fixture
def frames() -> ModuleType:
    return FRAMES
