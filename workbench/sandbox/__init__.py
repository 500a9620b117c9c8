"""Local stand-ins of the platform's side, served over HTTPS on loopback.

The platform sandbox (hosts, Basic auth, limits, rates rules, lookups, fault injection):
``create_app(SandboxConfig(...))`` to mount in-process, ``run_sandbox(...)`` to serve it in a
thread, ``workbench sandbox serve`` from the shell. See docs/sandbox.md.

Names are imported lazily, so ``import workbench.sandbox.<module>`` (e.g. the notification and
car-search sandboxes in this package) does not load the platform sandbox.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Sandbox": "workbench.sandbox.app",
    "SandboxConfig": "workbench.sandbox.app",
    "create_app": "workbench.sandbox.app",
    "RunningSandbox": "workbench.sandbox.server",
    "run_sandbox": "workbench.sandbox.server",
    "settings_for": "workbench.sandbox.server",
    "FaultSpec": "workbench.sandbox.faults",
    "FXTable": "workbench.sandbox.fx",
    "read_fx_table": "workbench.sandbox.fx",
    "Registry": "workbench.sandbox.seed",
    "load_registry": "workbench.sandbox.seed",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'workbench.sandbox' has no attribute {name!r}")
    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return __all__
