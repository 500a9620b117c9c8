"""The client's operation table and the sandbox's endpoint table must agree (each checks the other)."""

from __future__ import annotations

import pytest

from workbench.sandbox.platform.families import BY_NAME, DEFAULT_LIMITS
from workbench.transport import OPERATIONS, SPEC_LIMITS, operation


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_sandbox_serves_each_operation_as_the_client_sends_it(name):
    op = OPERATIONS[name]
    endpoint = BY_NAME[name]
    assert (endpoint.path, endpoint.host, endpoint.method) == (op.path, op.host, op.method)
    # a call without a body (a JSON API's GET or DELETE) has no Content-Type to check
    assert op.content_type in endpoint.content_types or (op.json and not endpoint.content_types
                                                         and op.method in ("GET", "DELETE"))
    assert endpoint.versioned == op.accept_version


def test_limits_agree_with_the_spec_table():
    assert {k: v for k, v in SPEC_LIMITS.items() if k in DEFAULT_LIMITS} == DEFAULT_LIMITS


@pytest.mark.parametrize("ref", ["OTA_HotelRateAmountNotif", "/hotels/ota/OTA_HotelRateAmountNotif",
                                 "/ota/OTA_HotelRateAmountNotif"])
def test_operations_by_name_or_path(ref):
    assert operation(ref).name == "OTA_HotelRateAmountNotif"


def test_public_api_is_pinned():
    import workbench.sandbox as sandbox
    import workbench.transport as transport
    assert transport.__all__ == sorted(transport.__all__, key=lambda n: (not n.isupper(), not n[0].isupper(), n))
    for name in transport.__all__:
        assert getattr(transport, name) is not None
    assert set(sandbox.__all__) == {"FXTable", "FaultSpec", "Registry", "RunningSandbox", "Sandbox", "SandboxConfig",
                                    "create_app", "load_registry", "read_fx_table", "run_sandbox", "settings_for"}
    for name in sandbox.__all__:
        assert getattr(sandbox, name) is not None
