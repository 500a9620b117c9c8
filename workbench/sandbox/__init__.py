"""Local stand-ins of the platform's side, served over HTTPS on loopback.

The platform sandbox (hosts, Basic auth, limits, rates rules, lookups, fault injection):
``create_app(SandboxConfig(...))`` to mount in-process, ``run_sandbox(...)`` to serve it in a
thread, ``workbench sandbox serve`` from the shell. See docs/sandbox.md.

Names are imported lazily, so ``import workbench.sandbox.<module>`` (e.g. the notification and
car-search sandboxes in this package) does not load the platform sandbox.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.lazy import lazy_exports

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

__all__ = [
    "FXTable", "FaultSpec", "Registry", "RunningSandbox", "Sandbox", "SandboxConfig", "create_app",
    "load_registry", "read_fx_table", "run_sandbox", "settings_for",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # for type checkers and editors; at run time names load lazily
    from workbench.sandbox.app import Sandbox, SandboxConfig, create_app
    from workbench.sandbox.faults import FaultSpec
    from workbench.sandbox.fx import FXTable, read_fx_table
    from workbench.sandbox.seed import Registry, load_registry
    from workbench.sandbox.server import RunningSandbox, run_sandbox, settings_for
