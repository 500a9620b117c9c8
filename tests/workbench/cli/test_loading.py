"""Each command's module is imported when the command is first used (``workbench.cli.COMMANDS``,
``workbench.cli.loading``): a dry run imports only what it uses, help still lists every command, a name not
in the table is still refused with typer's "Did you mean ...?", and the console script asks numpy's OpenBLAS
for no helper threads."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.core import TyperCommand
from typer.testing import CliRunner

import workbench.cli
from tests.workbench.cli.conftest import run_cli
from workbench.cli import COMMANDS, app
from workbench.cli.loading import Commands
from workbench.paths import SAMPLES

runner = CliRunner()
ROOT_COMMANDS = ["health", "demo", "runs", "notify", "validate", "push", "fetch", "reconcile", "cars", "sandbox"]
#: the modules of workbench.cli that hold commands (the others are what the commands share)
COMMAND_MODULES = {"availability", "availability_read", "cars", "content", "content_fetch", "content_push", "demo",
                   "health", "notify", "rates", "rooms", "runs", "sandbox"}
#: run with the workbench's arguments: at exit, write the modules imported (JSON) to the file $MODULES_OUT
RECORDING = """
import atexit, json, os, sys
atexit.register(lambda: open(os.environ["MODULES_OUT"], "w").write(json.dumps(sorted(sys.modules))))
from workbench.cli import main
sys.argv = ["workbench", *sys.argv[1:]]
main()
"""


def _imported(args: list[str], tmp_path: Path) -> tuple[set[str], str]:
    out = tmp_path / "modules.json"
    done = run_cli(args, cwd=tmp_path, code=RECORDING, env={"MODULES_OUT": str(out)})
    assert done.returncode == 0, done.stdout + done.stderr
    return set(json.loads(out.read_text())), done.stdout


def _command_modules(modules: set[str]) -> set[str]:
    return {m.removeprefix("workbench.cli.") for m in modules if m.startswith("workbench.cli.")} & COMMAND_MODULES


def test_a_dry_run_imports_the_availability_commands_and_none_of_the_push(tmp_path: Path) -> None:
    modules, out = _imported(["push", "availability", str(SAMPLES / "availability.xlsx"), "--registry",
                              str(SAMPLES / "registry.xlsx"), "--as-of", "2026-12-01", "--skip-invalid", "--dry-run",
                              str(tmp_path / "dry")], tmp_path)
    assert "Wrote 7 requests" in out
    assert _command_modules(modules) == {"availability"}
    never = {"httpx", "filelock", "workbench.transport", "workbench.transport.limiter", "workbench.transport.estimate",
             "workbench.flows.rates", "workbench.flows.availability_push", "workbench.writers.driver",
             "workbench.writers.journal", "workbench.writers.send_lock", "workbench.writers.plan",
             "workbench.writers.push", "workbench.writers.outcome", "workbench.reports.push",
             # the other kinds' readers and rules (the loaders and expectations faces load a name on first use)
             "loaders.rooms", "loaders.content", "expectations.rooms", "expectations.content"}
    assert modules & never == set()


def test_help_and_usage_errors_import_no_command_behind_the_groups(tmp_path: Path) -> None:
    modules, out = _imported(["--help"], tmp_path)
    assert all(name in out for name in ROOT_COMMANDS)
    assert _command_modules(modules) == {"cars", "demo", "health", "notify", "runs", "sandbox"}  # their one line
    assert not {"numpy", "pandas", "pydantic"} & modules
    modules, out = _imported(["--version"], tmp_path)
    assert out.startswith("workbench ") and _command_modules(modules) == set()
    done = run_cli(["push", "availabilty"], cwd=tmp_path)
    assert done.returncode == 2 and "Did you mean 'availability'?" in done.stderr


def test_help_lists_every_command_group_and_command_in_order() -> None:
    listed = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert listed.exit_code == 0
    rows = [m.group(1) for line in listed.output.splitlines() if (m := re.match(r"│ (\w\S*) ", line))]
    assert rows == ROOT_COMMANDS
    for group in ("validate", "push", "fetch", "reconcile"):
        members = COMMANDS[group][1]
        shown = runner.invoke(app, [group, "--help"], env={"COLUMNS": "200"})
        assert shown.exit_code == 0 and all(f"│ {name} " in shown.output for name in members), shown.output


def test_the_table_names_every_command_a_module_registers() -> None:
    """A command added to a shared group (``@push_app.command(...)``) without its line in ``COMMANDS`` would
    never be found: every module's commands are in the table, and the table's are each module's."""
    for info in pkgutil.iter_modules(workbench.cli.__path__):
        importlib.import_module(f"workbench.cli.{info.name}")
    for group, where in COMMANDS.items():
        if isinstance(where, str):
            continue
        typer_at, members = where
        module, _, attribute = typer_at.partition(":")
        shared = getattr(importlib.import_module(f"workbench.cli.{module}"), attribute)
        registered = {i.name: i.callback.__module__ for i in shared.registered_commands}
        assert registered == {name: f"workbench.cli.{m}" for name, m in members.items()}, group


@pytest.mark.parametrize("command", [[g, c] for g, w in COMMANDS.items() if not isinstance(w, str) for c in w[1]]
                         + [[g] for g, w in COMMANDS.items() if isinstance(w, str)])
def test_every_command_loads(command: list[str]) -> None:
    shown = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert shown.exit_code == 0 and "Usage: workbench " + " ".join(command) in shown.output, shown.output


def test_the_commands_mapping_builds_a_command_only_when_it_is_looked_up() -> None:
    built: list[str] = []

    def loader(name: str) -> Callable[[], TyperCommand]:
        def build() -> TyperCommand:
            built.append(name)
            return TyperCommand(name=name)
        return build

    commands = Commands({"a": loader("a"), "b": loader("b")})
    assert list(commands) == ["a", "b"] and "a" in commands and "z" not in commands and len(commands) == 2
    assert commands.get("z") is None and built == []
    assert commands["b"] is commands["b"] and commands["b"].name == "b" and built == ["b"]  # built once, then kept


def test_the_console_script_leaves_numpy_with_one_blas_thread(tmp_path: Path) -> None:
    """OpenBLAS's helper threads spin for ~0.1 s of CPU per command; ``main()`` asks for none before numpy is
    imported, unless the user set OPENBLAS_NUM_THREADS."""
    probe = """
import ctypes, json, os, sys
os.environ.pop("OPENBLAS_NUM_THREADS", None) if sys.argv[1] == "unset" else None
from workbench.cli import main
sys.argv = ["workbench", "--version"]
try:
    main()
except SystemExit:
    pass
import numpy
libs = sorted({line.split()[-1] for line in open("/proc/self/maps") if "openblas" in line.lower()})
threads = None
for lib in libs:
    for name in ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_", "openblas_get_num_threads"):
        threads = threads or getattr(ctypes.CDLL(lib), name, lambda: None)()
print(json.dumps({"env": os.environ.get("OPENBLAS_NUM_THREADS"), "threads": threads}))
"""
    done = run_cli(["unset"], cwd=tmp_path, code=probe)
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["env"] == "1", done.stderr
    if seen["threads"] is not None:  # the OpenBLAS numpy bundles (on Linux) says how many threads it runs
        assert seen["threads"] == 1
    if (os.cpu_count() or 1) > 1:
        kept = json.loads(run_cli(["kept"], cwd=tmp_path, code=probe, env={"OPENBLAS_NUM_THREADS": "2"})
                          .stdout.splitlines()[-1])
        assert kept["env"] == "2" and kept["threads"] in (2, None)
