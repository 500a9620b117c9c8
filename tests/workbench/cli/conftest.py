"""Run ``workbench`` as a person does: a subprocess of this worktree's code, its exit code and output."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def run_cli(args: list[str], cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 300,
            module: str = "workbench.cli", code: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m workbench.cli ARGS`` (or ``python -c CODE ARGS``) with this worktree first on the path."""
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "NO_COLOR": "1", **(env or {})}
    if "WORKBENCH_LOG_DIR" not in (env or {}):
        environ.pop("WORKBENCH_LOG_DIR", None)
    command = [sys.executable, "-c", code, *args] if code is not None else [sys.executable, "-m", module, *args]
    return subprocess.run(command, cwd=cwd, env=environ, capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def workbench() -> Callable[..., subprocess.CompletedProcess[str]]:
    return run_cli
