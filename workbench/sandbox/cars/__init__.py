"""The car-search stand-in ({demand_base_url}): a Starlette app with synthetic inventory
(:mod:`workbench.sandbox.cars.app`), served by ``workbench cars sandbox`` and
:func:`run_demand_sandbox`."""

from __future__ import annotations

from workbench.sandbox.cars.app import (
    DemandSandbox,
    DemandSandboxConfig,
    RunningDemandSandbox,
    SandboxError,
    create_demand_app,
    run_demand_sandbox,
    sandbox_config,
    validate_search,
    write_env,
)

__all__ = ["DemandSandbox", "DemandSandboxConfig", "RunningDemandSandbox", "SandboxError", "create_demand_app",
           "run_demand_sandbox", "sandbox_config", "validate_search", "write_env"]
