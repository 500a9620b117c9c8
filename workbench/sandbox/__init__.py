"""Local stand-ins of the platform's side, served over HTTPS on loopback, one sub-package each:

- :mod:`workbench.sandbox.platform`: the platform (hosts, Basic auth, limits, the operation
  families, fault injection): ``create_app(SandboxConfig(...))`` to mount in-process,
  ``run_sandbox(...)`` to serve it in a thread, ``workbench sandbox serve`` from the shell;
- :mod:`workbench.sandbox.cars`: the car-search API;
- :mod:`workbench.sandbox.cns`: the notification sender (CNS).

They share only the plumbing at this package's root (``lzw``); ``testing`` holds helpers for tests
of the platform stand-in. See docs/sandbox.md.

Names are imported lazily, so ``import workbench.sandbox.cns`` (or ``.cars``) does not load the
platform sandbox.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

_EXPORTS = {
    "Sandbox": "workbench.sandbox.platform.pipeline",
    "SandboxConfig": "workbench.sandbox.platform.config",
    "create_app": "workbench.sandbox.platform.app",
    "RunningSandbox": "workbench.sandbox.platform.server",
    "run_sandbox": "workbench.sandbox.platform.server",
    "settings_for": "workbench.sandbox.platform.server",
    "FaultSpec": "workbench.sandbox.platform.faults",
    "FXTable": "workbench.sandbox.platform.fx",
    "read_fx_table": "workbench.sandbox.platform.fx",
    "Registry": "workbench.sandbox.platform.seed",
    "load_registry": "workbench.sandbox.platform.seed",
}

__all__ = [
    "FXTable", "FaultSpec", "Registry", "RunningSandbox", "Sandbox", "SandboxConfig", "create_app",
    "load_registry", "read_fx_table", "run_sandbox", "settings_for",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # for type checkers and editors; at run time names load lazily
    from workbench.sandbox.platform.app import create_app
    from workbench.sandbox.platform.config import SandboxConfig
    from workbench.sandbox.platform.faults import FaultSpec
    from workbench.sandbox.platform.fx import FXTable, read_fx_table
    from workbench.sandbox.platform.pipeline import Sandbox
    from workbench.sandbox.platform.seed import Registry, load_registry
    from workbench.sandbox.platform.server import RunningSandbox, run_sandbox, settings_for
