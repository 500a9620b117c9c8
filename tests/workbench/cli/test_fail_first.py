"""Mistakes on the command line and in the settings are said before the files are read, not after
minutes of checks (issue 26): a push with no target, a dry-run folder that is a file."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from workbench.cli import app
from workbench.paths import SAMPLES

runner = CliRunner()
READERS = [("workbench.flows.rates", "check_rates"), ("workbench.flows.rooms", "check_rooms"),
           ("workbench.flows.content", "check_content"), ("workbench.flows.folders", "push_requests")]


@pytest.fixture
def no_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No platform in the settings (no .env in the working folder), and readers that fail the test."""
    monkeypatch.setenv("WORKBENCH_BASE_URL", "")
    monkeypatch.chdir(tmp_path)

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the inputs were read before the settings were checked")

    for module, name in READERS:
        monkeypatch.setattr(importlib.import_module(module), name, never)
    for name in ("rates.xlsx", "rooms.xlsx", "content.xlsx"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    (tmp_path / "requests").mkdir()
    return tmp_path


@pytest.mark.parametrize("args", [
    ["push", "rates", "rates.xlsx", "--skip-invalid"],
    ["push", "rates", "rates.xlsx", "--report", "push.html"],
    ["push", "rooms", "rooms.xlsx", "--report", "push.html"],
    ["push", "content", "content.xlsx", "--report", "push.html"],
    ["push", "requests", "requests", "--report", "push.html"],
])
def test_a_push_without_a_target_is_refused_before_reading(no_target: Path, args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "no platform is configured" in result.output or "no target" in result.output, result.output
    assert "Traceback" not in result.output
    if "--report" in args:  # the report says why nothing was sent
        text = (no_target / "push.html").read_text(encoding="utf-8")
        assert "WORKBENCH_BASE_URL" in text or "nothing was sent" in text, text


def test_a_dry_run_needs_no_target_and_a_folder_that_is_a_file_is_refused_first(no_target: Path) -> None:
    (no_target / "out").write_text("a file")
    result = runner.invoke(app, ["push", "rates", "rates.xlsx", "--dry-run", "out"])
    assert result.exit_code == 2 and "is a file, not a folder" in result.output, result.output

