"""The Python API speaks Python to a Python caller: `skip_invalid=True`, not a command-line flag alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench import BlockedByErrors, check_rates, dry_run, plan_rates
from workbench.paths import SAMPLES


def test_a_blocked_dry_run_names_the_argument(tmp_path: Path) -> None:
    check = check_rates(SAMPLES / "rates.xlsx", as_of="2026-12-01")
    with pytest.raises(BlockedByErrors, match=r"`skip_invalid=True`"):
        dry_run(check, tmp_path / "requests")
    assert "`skip_invalid=True`" in plan_rates(check, journal=tmp_path / "j.sqlite").blocked
