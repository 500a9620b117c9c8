"""``workbench push content --api modular`` and ``workbench fetch content`` against the sandbox over HTTPS: the
default API by the platform's date (``--today``), ``--plan`` sending nothing, the sample there and back, and the
command line's refusals (exit 2)."""

from __future__ import annotations

import csv
import io
import ssl
from pathlib import Path
from typing import Any

import httpx
import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from workbench.cli import app
from workbench.sandbox import run_sandbox

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "samples" / "content_modular.xlsx"


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(tmp_path)  # the lookups cache (.workbench/) of the commands
    with run_sandbox(tmp_path / "sb") as sb:
        yield sb


def run(*args: object) -> Any:
    result = CliRunner().invoke(app, [str(a) for a in args])
    result.text = " ".join(result.output.split())  # the console wraps long lines
    return result


def table(sb: Any, name: str) -> list[dict[str, str]]:
    with httpx.Client(verify=ssl.create_default_context(cafile=str(sb.tls.ca_bundle))) as client:
        answer = client.get(f"{sb.base_url}/_sandbox/{name}.csv")
    return list(csv.DictReader(io.StringIO(answer.text)))


def log(sb: Any) -> list[str]:
    return [r["endpoint"] for r in table(sb, "requests")]


def push(sb: Any, tmp_path: Path, *args: object) -> Any:
    return run("push", "content", SAMPLE, "--env-file", sb.connection_file, "--journal", tmp_path / "j.sqlite", *args)


@pytest.mark.parametrize(("today", "api"), [("2026-12-30", "ota"), ("2026-12-31", "modular"),
                                            ("2027-03-01", "modular")])
def test_the_default_api_is_modular_from_the_sunset(sandbox: Any, tmp_path: Path, today: str, api: str) -> None:
    out = push(sandbox, tmp_path, "--today", today, "--plan")
    assert out.exit_code == 0, out.text
    calls = log(sandbox)
    assert ("property.meta" in calls) is (api == "modular")
    assert not [c for c in calls if c.endswith((".write", ".create", ".update")) or c.startswith("OTA_")]


def test_push_then_fetch_then_push_the_fetched_workbook_sends_nothing(sandbox: Any, tmp_path: Path) -> None:
    out = push(sandbox, tmp_path, "--api", "modular", "--report", tmp_path / "push.html")
    assert out.exit_code == 0, out.text
    assert "20 success; 4 created" in out.text and (tmp_path / "push.html").exists()
    assert log(sandbox).count("property.create") == 4 and "OTA_HotelDescriptiveContentNotif" not in log(sandbox)
    ids = [p["HotelCode"] for p in table(sandbox, "properties") if p["CustomID"]]
    fetched = tmp_path / "fetched.xlsx"
    args = [a for h in ["1000004", *ids] for a in ("--hotel", h)]
    out = run("fetch", "content", *args, "--out", fetched, "--env-file", sandbox.connection_file)
    assert out.exit_code == 0, out.text
    assert {"Property", "Contacts", "Taxes", "Fees"} <= set(load_workbook(fetched).sheetnames)
    again = run("push", "content", fetched, "--api", "modular", "--env-file", sandbox.connection_file,
                "--journal", tmp_path / "j.sqlite")
    assert again.exit_code == 0 and "nothing to send" in again.text, again.text
    assert run("fetch", "content", "--hotel", "1000004", "--out", fetched, "--env-file",
               sandbox.connection_file).exit_code == 2  # never over a workbook


@pytest.mark.parametrize(("args", "needle"), [
    (["--api", "xml"], "--api `xml`"),
    (["--today", "31/12/2026"], "--today `31/12/2026`"),
    (["--plan", "--dry-run", "out"], "use one"),
])
def test_command_line_refusals_exit_2(sandbox: Any, tmp_path: Path, args: list[str], needle: str) -> None:
    out = push(sandbox, tmp_path, *args)
    assert out.exit_code == 2 and needle in out.text, out.text


def test_fetch_refuses_another_api_and_another_suffix(sandbox: Any, tmp_path: Path) -> None:
    assert run("fetch", "content", "--hotel", "1", "--out", tmp_path / "x.xlsx", "--api", "ota",
               "--env-file", sandbox.connection_file).exit_code == 2
    assert run("fetch", "content", "--hotel", "1", "--out", tmp_path / "x.csv",
               "--env-file", sandbox.connection_file).exit_code == 2
