"""``workbench sandbox serve``: flags, connection.env, HTTPS on loopback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from workbench.cli.sandbox import sandbox_app
from workbench.config import Settings
from workbench.transport import SyncPlatformClient


@pytest.mark.parametrize("args,needle", [
    (["--today", "01/12/2026"], "--today"),
    (["--limit-window", "0"], "--limit-window"),
    (["--faults", "5xx=7"], "outside"),
    (["--limits", "all=lots"], "NAME=CALLS"),
    (["--port", "70000"], "--port"),
])
def test_bad_flags_fail_cleanly(args, needle):
    result = CliRunner().invoke(sandbox_app, ["serve", *args])
    assert result.exit_code == 2
    assert needle in result.output and "Traceback" not in result.output


def test_serve_writes_connection_env_and_answers_over_https(tmp_path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "sandbox", "serve", "--port", "0",
                             "--state-dir", str(tmp_path), "--today", "2026-12-01", "--limit-window", "6",
                             "--limits", "OTA_HotelRateAmountNotif=75"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    try:
        conn = tmp_path / "connection.env"
        deadline = time.monotonic() + 60
        while not conn.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert conn.exists(), proc.stdout.read() if proc.poll() is not None else "no connection.env"
        time.sleep(0.5)
        settings = Settings.from_file(conn)
        assert settings.base_url.startswith("https://127.0.0.1:") and settings.secure_base_url.startswith("https://")
        assert settings.rate_limits == "OTA_HotelRateAmountNotif=75" and settings.rate_limit_window_seconds == 6
        assert settings.username and settings.password and os.stat(conn).st_mode & 0o077 == 0
        with SyncPlatformClient(settings) as client:
            deadline = time.monotonic() + 30
            while True:
                result = client.send("countries", b"")
                if result.ok or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert result.ok and result.ruid
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    assert "general host" in out and "connection.env" in out and settings.password.reveal() not in out
