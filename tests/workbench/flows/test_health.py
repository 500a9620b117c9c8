"""`property_health` reading the platform (the sandbox over HTTPS: roomrates, DescriptiveInfo)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.workbench.health.conftest import AS_OF, nights, write_journal
from workbench import property_health
from workbench.paths import SAMPLES
from workbench.sandbox import run_sandbox

AMSTERDAM = 1000001


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    with run_sandbox(tmp_path_factory.mktemp("sandbox"), today=AS_OF) as sb:
        yield sb


def _journal(tmp_path: Path, target: str) -> Path:
    h = AMSTERDAM
    cells = (nights("2026-12-01", "2027-11-30", hotel=h, room="101", rate="5001")
             + nights("2026-12-01", "2026-12-31", hotel=h, room="101", rate="5002")   # child, follows 5001
             + nights("2026-12-01", "2026-12-31", hotel=h, room="102", rate="5005")   # read-only
             + nights("2026-12-01", "2026-12-31", hotel=h, room="101", rate="5009"))  # no such rate
    return write_journal(tmp_path / "journal.sqlite", cells, target=target)


def _found(health) -> list[tuple]:
    return sorted((r.inv_type_code, r.rate_plan_code, r.finding) for r in health.findings.itertuples(index=False)
                  if r.finding != "short_of_year")


def test_the_platforms_room_rates_and_flags(sandbox, tmp_path: Path) -> None:
    target = sandbox.settings.base_url.rstrip("/")
    health = property_health(sandbox.settings, hotels=[AMSTERDAM], journal=_journal(tmp_path, target), as_of=AS_OF)
    assert _found(health) == [
        ("101", "5002", "child_rate_priced"), ("101", "5003", "not_priced"), ("101", "5009", "unknown_to_platform"),
        ("102", "5001", "not_priced"), ("102", "5005", "read_only_rate_priced")]
    # roomrates says 5004 is a child rate but not whether it follows its parent's price: not asked to be priced
    assert not health.notes
    rr = health.room_rates.set_index(["inv_type_code", "rate_plan_code"])
    assert rr.loc[("101", "5004"), "role"] == "child" and rr.loc[("102", "5005"), "role"] == "read_only"
    assert rr.loc[("101", "5001"), "hotel_name"] == "Hotel Aurora Amsterdam"


def test_the_registry_says_what_roomrates_does_not(sandbox, tmp_path: Path) -> None:
    """The registry: member rate 5004 is a child rate with its own prices, so it must be priced."""
    target = sandbox.settings.base_url.rstrip("/")
    health = property_health(sandbox.settings, hotels=[AMSTERDAM], journal=_journal(tmp_path, target), as_of=AS_OF,
                             registry=SAMPLES / "registry.xlsx")
    assert ("101", "5004", "not_priced") in _found(health)
    assert health.room_rates.set_index(["inv_type_code", "rate_plan_code"]).loc[("101", "5004"), "rate_name"] \
        == "Member rate"


def test_a_property_the_platform_does_not_know_is_noted(sandbox, tmp_path: Path) -> None:
    health = property_health(sandbox.settings, hotels=[9999999], journal=None, as_of=AS_OF)
    assert health.findings.empty
    assert any("9999999" in n and "could not be read" in n for n in health.notes)


def test_child_rates_are_told_apart_by_the_platforms_flag_and_by_a_parent() -> None:
    """roomrates flags child rates with ``is_child_rate`` and names no parent; a registry may name one."""
    import pandas as pd

    from workbench.flows.health import _child_flag

    platform = pd.DataFrame({"is_child_rate": pd.array([1, 0, None], dtype="Int64"),
                             "parent_rate_plan_code": pd.array([None, None, None], dtype="string")})
    assert _child_flag(platform).tolist() == [True, False, False]
    registry = pd.DataFrame({"is_child_rate": pd.array([None, False], dtype="boolean"),
                             "parent_rate_plan_code": pd.array(["5001", None], dtype="string")})
    assert _child_flag(registry).tolist() == [True, False]
