"""One catalogue of the modular operations: ``workbench.modular.endpoints`` names each by its transport operation
(the same key), and the two agree on method and path; the transport says what a resend does and what is a read."""

from __future__ import annotations

import pytest

from workbench.modular.endpoints import OPERATIONS as MODULAR
from workbench.transport import OPERATIONS, operation
from workbench.transport.operations import JSON


@pytest.mark.parametrize("name", sorted(MODULAR))
def test_each_modular_operation_is_its_transport_operation(name: str) -> None:
    op, modular = operation(name), MODULAR[name]
    assert (op.method, op.path, op.content_type) == (modular.method, modular.path, JSON)


def test_the_transport_catalogues_no_json_operation_the_modular_layer_does_not_know() -> None:
    assert {n for n, op in OPERATIONS.items() if op.json} == set(MODULAR)


@pytest.mark.parametrize("name", sorted(MODULAR))
def test_resends_and_reads_follow_the_method(name: str) -> None:
    op = OPERATIONS[name]
    creates = name in {"property.create", "unit.create", "units.bulk_create", "policies.create"}
    assert op.idempotent is (not creates)  # a POST that creates is never resent blindly; settings/status/charges are
    assert op.read is (op.method == "GET")
    assert not creates or op.method == "POST"
