"""Settings files and the paths in them: ``connection.env`` and ``notify.env`` hold absolute paths
(so ``--env-file`` works from any folder), and a file a setting names that does not exist is one
line naming the file and the setting (exit 2), never a traceback."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench.config import Settings
from workbench.errors import SettingsError
from workbench.paths import SAMPLES
from workbench.sandbox import run_sandbox

RATES = [str(SAMPLES / "rates.xlsx"), str(SAMPLES / "lisbon_seasons.csv")]


def test_a_sandbox_with_a_relative_state_dir_serves_settings_usable_from_any_folder(
        workbench, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "here").mkdir()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    with run_sandbox("sb", today=dt.date(2026, 12, 1)) as sb:
        settings = Settings.from_file(sb.connection_file)
        assert Path(settings.ca_bundle).is_absolute() and Path(settings.ca_bundle).is_file()
        assert sb.connection_file == tmp_path / "here" / "sb" / "connection.env"
        run = workbench(["push", "rates", *RATES, "--env-file", str(sb.connection_file), "--as-of", "2026-12-01",
                         "--registry", str(SAMPLES / "registry.xlsx"),  # what roomrates does not send
                         "--skip-invalid", "--journal", "j.sqlite"], cwd=tmp_path / "elsewhere")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "19 requests: 19 success" in run.stdout and (tmp_path / "elsewhere" / "j.sqlite").exists()


def test_notify_serve_writes_absolute_paths_in_notify_env(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "notify", "serve", "--state-dir", "rel/state",
                             "--port", "0"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    env_file = tmp_path / "rel" / "state" / "notify.env"
    try:
        deadline = time.monotonic() + 60
        while not env_file.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert env_file.exists(), proc.stdout.read() if proc.poll() is not None else "no notify.env"
        served = Settings.from_file(env_file)
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert Path(served.notify_ca_bundle).is_absolute() and Path(served.notify_ca_bundle).is_file()
    assert Path(served.notify_ca_bundle).is_relative_to(tmp_path / "rel" / "state")


@pytest.mark.parametrize(("command", "settings"), [
    (["push", "rates", *RATES, "--as-of", "2026-12-01"],
     "WORKBENCH_BASE_URL=https://127.0.0.1:9\nWORKBENCH_CA_BUNDLE={missing}\n"),
    (["push", "rooms", str(SAMPLES / "rooms.xlsx")], "WORKBENCH_BASE_URL=https://127.0.0.1:9\n"
                                                     "WORKBENCH_CA_BUNDLE={missing}\n"),
    (["fetch", "rooms", "--hotel", "1000001"], "WORKBENCH_BASE_URL=https://127.0.0.1:9\n"
                                               "WORKBENCH_CA_BUNDLE={missing}\n"),
    (["notify", "send", "--type", "PAYOUT_UPDATE"], "WORKBENCH_NOTIFY_URL=https://127.0.0.1:9/notifications\n"
                                                    "WORKBENCH_NOTIFY_TOKEN_URL=https://127.0.0.1:9/oauth/token\n"
                                                    "WORKBENCH_NOTIFY_CLIENT_ID=c\nWORKBENCH_NOTIFY_CLIENT_SECRET=s\n"
                                                    "WORKBENCH_NOTIFY_CA_BUNDLE={missing}\n"),
])
def test_a_missing_file_named_in_settings_is_one_line_naming_it_and_the_setting(
        workbench, tmp_path: Path, command: list[str], settings: str) -> None:
    missing = tmp_path / "gone" / "ca.pem"
    env_file = tmp_path / "connection.env"
    env_file.write_text(settings.format(missing=missing))
    run = workbench([*command, "--env-file", str(env_file)], cwd=tmp_path)
    assert run.returncode == 2, run.stdout + run.stderr
    error = run.stderr.strip()
    assert len(error.splitlines()) == 1 and "Traceback" not in run.stdout + run.stderr
    assert str(missing) in error and "_CA_BUNDLE`" in error and "does not exist" in error


def test_a_relative_ca_bundle_is_explained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SettingsError) as err:
        Settings(ca_bundle="sb/tls/ca.pem").check_files(source="sb/connection.env")
    message = str(err.value)
    assert "`WORKBENCH_CA_BUNDLE` names `sb/tls/ca.pem`" in message and f"`{tmp_path}`" in message
    assert "read from `sb/connection.env`" in message
    (tmp_path / "ca.pem").write_text("x")
    assert Settings(ca_bundle=str(tmp_path / "ca.pem")).check_files().ca_bundle  # an existing file passes
    assert Settings().check_files() == Settings()                                 # nothing set, nothing to check


@pytest.mark.parametrize(("key", "value", "kind"), [
    ("WORKBENCH_TIMEOUT_SECONDS", "soon", "number"),
    ("WORKBENCH_MAX_IN_FLIGHT", "many", "whole number"),
    ("WORKBENCH_RATE_LIMIT_WINDOW_SECONDS", "1m", "number"),
])
def test_a_setting_that_is_not_a_number_names_itself(key: str, value: str, kind: str) -> None:
    with pytest.raises(SettingsError, match=f"setting `{key}` = `{value}` is not a {kind}"):
        Settings.from_mapping({key: value})


def test_an_unreadable_settings_file_is_exit_2_with_the_setting(workbench, tmp_path: Path) -> None:
    env_file = tmp_path / "connection.env"
    env_file.write_text("WORKBENCH_BASE_URL=https://127.0.0.1:9\nWORKBENCH_TIMEOUT_SECONDS=soon\n")
    run = workbench(["push", "rates", *RATES, "--env-file", str(env_file)], cwd=tmp_path)
    assert run.returncode == 2 and "`WORKBENCH_TIMEOUT_SECONDS` = `soon`" in run.stderr, run.stderr
