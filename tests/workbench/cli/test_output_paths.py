"""Output paths that are inputs, or cannot be written, are refused in one line (exit 2) before any work:
the analyst's own files are never written over (issue 26)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from workbench.cli import app
from workbench.paths import SAMPLES

runner = CliRunner()
#: the functions that read the inputs: none of them may run when an output path is refused
READERS = [("workbench.flows.rates", "check_rates"), ("workbench.flows.rooms", "check_rooms"),
           ("workbench.flows.content", "check_content"), ("workbench.flows.availability", "check_availability"),
           ("workbench.flows.health", "property_health"), ("workbench.flows.folders", "push_requests"),
           ("workbench.flows.rooms", "fetch_rooms")]


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copies of the samples in ``tmp_path/in`` (a folder of rates among them), and readers that fail the test."""
    folder = tmp_path / "in"
    (folder / "rates").mkdir(parents=True)
    for name in ("rates.xlsx", "rooms.xlsx", "content.xlsx", "availability.xlsx", "registry.xlsx"):
        shutil.copy(SAMPLES / name, folder / name)
    shutil.copy(SAMPLES / "lisbon_seasons.csv", folder / "rates" / "lisbon.csv")
    (folder / "link.xlsx").symlink_to(folder / "rates.xlsx")
    os.link(folder / "rooms.xlsx", folder / "hard.xlsx")
    (folder / "file.txt").write_text("a file, not a folder")

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the inputs were read before the output paths were checked")

    import importlib

    for module, name in READERS:
        monkeypatch.setattr(importlib.import_module(module), name, never)
    monkeypatch.chdir(tmp_path)
    return folder


def _args(template: list[str], folder: Path) -> list[str]:
    return [a.replace("IN/", f"{folder}/").replace("IN", str(folder)) for a in template]


REFUSED = [
    # the report is the workbook itself: by the same path, another spelling, a symbolic or a hard link
    (["validate", "rates", "IN/rates.xlsx", "--report", "IN/rates.xlsx"], "--report", "is the input"),
    (["validate", "rates", "IN/rates.xlsx", "--report", "IN/../in/./rates.xlsx"], "--report", "is the input"),
    (["validate", "rates", "IN/link.xlsx", "--report", "IN/rates.xlsx"], "--report", "is the input"),
    (["validate", "rooms", "IN/rooms.xlsx", "--report", "IN/hard.xlsx"], "--report", "is the input"),
    (["validate", "rates", "IN/rates.xlsx", "--registry", "IN/registry.xlsx", "--report", "IN/registry.xlsx"],
     "--report", "given with --registry"),
    (["validate", "content", "IN/content.xlsx", "--report", "IN/content.xlsx"], "--report", "is the input"),
    (["validate", "availability", "IN/availability.xlsx", "--report", "IN/availability.xlsx"], "--report",
     "is the input"),
    # an output inside an input folder would be read as data next time
    (["validate", "rates", "IN/rates", "--report", "IN/rates/issues.csv"], "--report", "inside the input folder"),
    # dry-run folders: the workbook as the folder, or a folder holding it
    (["push", "rates", "IN/rates.xlsx", "--dry-run", "IN/rates.xlsx"], "--dry-run", "is the input"),
    (["push", "rates", "IN/rates.xlsx", "--dry-run", "IN"], "--dry-run", "holds the input"),
    (["push", "rooms", "IN/rooms.xlsx", "--dry-run", "IN"], "--dry-run", "holds the input"),
    (["push", "content", "IN/content.xlsx", "--dry-run", "IN/content.xlsx"], "--dry-run", "is the input"),
    (["push", "rates", "IN/rates.xlsx", "--dry-run", "IN/file.txt"], "--dry-run", "is a file, not a folder"),
    # journals, mappings, filled copies, pushes' reports
    (["push", "rates", "IN/rates.xlsx", "--journal", "IN/rates.xlsx"], "--journal", "is the input"),
    (["push", "rates", "IN/rates.xlsx", "--report", "IN/rates.xlsx"], "--report", "is the input"),
    (["push", "rooms", "IN/rooms.xlsx", "--fill", "IN/rooms.xlsx"], "--fill", "is the input"),
    (["push", "rooms", "IN/rooms.xlsx", "--mapping", "IN/hard.xlsx"], "--mapping", "is the input"),
    (["push", "content", "IN/content.xlsx", "--report", "IN/content.xlsx"], "--report", "is the input"),
    (["push", "requests", "IN/rates", "--report", "IN/rates/report.csv"], "--report", "inside the input folder"),
    (["health", "--registry", "IN/registry.xlsx", "--report", "IN/registry.xlsx"], "--report", "is the input"),
    (["health", "--registry", "IN/registry.xlsx", "--letters", "IN"], "--letters", "holds the input"),
    (["health", "--rates", "IN/rates.xlsx", "--journal", "j.sqlite", "--report", "j.sqlite"], "--report",
     "given with --journal"),
    # two outputs on one path; a folder where a file goes
    (["push", "rates", "IN/rates.xlsx", "--report", "out.csv", "--journal", "out.csv"], "out.csv",
     "given to both --report and --journal"),
    (["validate", "rates", "IN/rates.xlsx", "--report", "IN/rates"], "--report", "is a folder"),
    (["validate", "rates", "IN/rates.xlsx", "--report", "IN/file.txt/r.csv"], "--report", "is a file"),
    (["fetch", "rooms", "--hotel", "1", "--out", "IN/file.txt/rooms.xlsx"], "--out", "is a file"),
]


@pytest.mark.parametrize(("template", "option", "needle"), REFUSED)
def test_an_output_that_is_an_input_is_refused_before_any_work(inputs: Path, template: list[str], option: str,
                                                                needle: str) -> None:
    before = {p: p.read_bytes() for p in inputs.rglob("*") if p.is_file()}
    result = runner.invoke(app, _args(template, inputs))
    assert result.exit_code == 2, result.output
    assert option in result.output and needle in result.output, result.output
    assert "Traceback" not in result.output
    assert {p: p.read_bytes() for p in inputs.rglob("*") if p.is_file()} == before


def test_an_unwritable_folder_is_refused_before_any_work(inputs: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import workbench.cli.paths as paths

    locked = tmp_path / "locked"
    locked.mkdir()
    real = os.access  # root may write anywhere: the folder is made unwritable as the check sees it
    monkeypatch.setattr(paths.os, "access", lambda p, mode: Path(p) != locked and real(p, mode))
    result = runner.invoke(app, ["validate", "rates", str(inputs / "rates.xlsx"), "--report",
                                 str(locked / "new" / "r.csv")])
    assert result.exit_code == 2 and "cannot be written" in result.output and str(locked) in result.output


@pytest.mark.parametrize("template", [
    ["validate", "rates", "IN/rates", "--report", "IN/rates/.hidden/r.csv"],  # not read by the folder's reader
    ["validate", "rates", "IN/rates.xlsx", "--report", "IN/rates.csv"],  # beside the input, not it
])
def test_outputs_beside_the_inputs_are_allowed(inputs: Path, template: list[str]) -> None:
    with pytest.raises(AssertionError, match="were read"):  # the check passed: the reader ran
        runner.invoke(app, _args(template, inputs), catch_exceptions=False)


def test_same_file_and_inputs_overlap(tmp_path: Path) -> None:
    from workbench.cli.paths import inputs_overlap, same_file

    a = tmp_path / "a.xlsx"
    a.write_text("x")
    (tmp_path / "l.xlsx").symlink_to(a)
    assert same_file(a, tmp_path / "l.xlsx") and same_file(tmp_path / "new.csv", tmp_path / "." / "new.csv")
    assert not same_file(a, tmp_path / "b.xlsx")
    assert inputs_overlap([tmp_path], [a]) == [(tmp_path, a)]
    assert inputs_overlap([tmp_path / "b.xlsx"], [a]) == []
