"""`workbench notify ...` commands: credentials, keys, inbox listing and exports, requests,
decisions, sending with the CNS stand-in, and the server as its own process."""

from __future__ import annotations

import json
import re
import signal
import ssl
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pandas as pd
import pytest
from typer.testing import CliRunner

from workbench.cli.notify import notify_app
from workbench.config import Settings
from workbench.notify import NotifyConfig, NotifyService, RequestToBookConfig
from workbench.notify.store import Notification

runner = CliRunner()


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(notify_app, list(args), env={"COLUMNS": "160"})
    return result.exit_code, result.output


def seed(state: Path) -> None:
    now = datetime.now(UTC)
    with NotifyService(state, NotifyConfig(request_to_book=RequestToBookConfig(check_interval_seconds=0))) as svc:
        for i, (t, payload) in enumerate([
            ("PAYOUT_UPDATE", {"amount": "10.00"}),
            ("REQUEST_TO_BOOK", {"request_id": "R-9", "hotel_id": 5, "checkin": (now + timedelta(days=9)).date()
                                 .isoformat(), "requested_at": (now - timedelta(hours=22)).isoformat()}),
        ]):
            body = json.dumps({"metadata": {"uuid": f"s{i}", "type": t, "payloadVersion": "1.0"}, "payload": payload})
            svc.store.save(Notification(f"s{i}", t, "1.0", now.timestamp(), "cns", body)).result(10)


def test_credentials_lifecycle(tmp_path: Path) -> None:
    state, env = tmp_path / "s", tmp_path / "cns.env"
    code, out = cli("credentials", "create", "--state-dir", str(state), "--client-id", "cns-cli", "--env-file", str(env))
    assert code == 0, out
    secret = re.search(r"client_secret: (\S+)", out).group(1)
    assert Settings.from_file(env).notify_client_secret.reveal() == secret
    assert env.stat().st_mode & 0o077 == 0
    code, out = cli("credentials", "rotate", "--state-dir", str(state), "--client-id", "cns-cli")
    assert code == 0 and "stays valid" in out and secret not in out
    code, out = cli("credentials", "list", "--state-dir", str(state))
    assert code == 0 and out.count("cns-cli") == 2 and secret not in out
    code, out = cli("credentials", "retire", "--state-dir", str(state), "--client-id", "cns-cli")
    assert code == 0 and "retired" in out


@pytest.mark.parametrize(("args", "message"), [
    (["credentials", "rotate", "--client-id", "nobody"], "no client `nobody`"),
    (["credentials", "create", "--client-id", "a b"], "is not valid"),
    (["list", "--since", "last tuesday"], "is not a time"),
    (["list", "--out", "inbox.pdf"], "use a file name ending in .csv or .xlsx"),
    (["decide", "R-none", "accept"], "no request-to-book request"),
    (["decide", "R-9", "perhaps"], "`accept` or `decline`"),
    (["send"], "nothing to send"),
    (["send", "--type", "A", "--payload", "{oops"], "is not JSON"),
])
def test_bad_input_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                     message: str) -> None:
    monkeypatch.chdir(tmp_path)
    seed(tmp_path / "s")
    code, out = cli(*args, "--state-dir", str(tmp_path / "s"))
    assert code == 2  # the input cannot be used (1 is kept for errors found, e.g. deliveries that failed)
    assert message in " ".join(out.split()) and "Traceback" not in out


def test_list_and_exports(tmp_path: Path) -> None:
    state = tmp_path / "s"
    seed(state)
    code, out = cli("list", "--state-dir", str(state), "--out", str(tmp_path / "inbox.csv"))
    assert code == 0 and "2 notifications" in out and "PAYOUT_UPDATE" in out
    frame = pd.read_csv(tmp_path / "inbox.csv", encoding="utf-8-sig")
    assert frame["uuid"].tolist() == ["s0", "s1"] and "body" in frame.columns
    code, out = cli("list", "--state-dir", str(state), "--type", "REQUEST_TO_BOOK", "--since", "1h",
                    "--out", str(tmp_path / "rtb.xlsx"))
    assert code == 0
    assert pd.read_excel(tmp_path / "rtb.xlsx", engine="openpyxl")["uuid"].tolist() == ["s1"]


def test_requests_and_decide(tmp_path: Path) -> None:
    state = tmp_path / "s"
    seed(state)
    code, out = cli("requests", "--state-dir", str(state), "--out", str(tmp_path / "open.csv"))
    assert code == 0 and "R-9" in out and "awaiting_partner_decision" in out
    assert "near their deadline: R-9" in out
    code, out = cli("decide", "R-9", "accept", "--state-dir", str(state), "--note", "room held")
    assert code == 0 and "now awaiting_guest_confirmation" in out
    code, out = cli("decide", "R-9", "decline", "--state-dir", str(state))
    assert code == 2 and "already accepted" in out
    code, out = cli("requests", "--all", "--state-dir", str(state))
    assert "awaiting_guest_confirmation" in out


def test_keys_rotate_and_list(tmp_path: Path) -> None:
    state = tmp_path / "s"
    assert cli("keys", "rotate", "--state-dir", str(state))[0] == 0
    code, out = cli("keys", "rotate", "--state-dir", str(state))
    assert code == 0
    code, out = cli("keys", "list", "--state-dir", str(state))
    assert code == 0 and "signing keys" in out and len([line for line in out.splitlines() if "UTC" in line
                                                         or "+00:00" in line]) >= 2


def test_dead_letters_and_alerts_commands(tmp_path: Path) -> None:
    state = tmp_path / "s"
    seed(state)
    code, out = cli("dead-letters", "--state-dir", str(state), "--out", str(tmp_path / "dl.csv"))
    assert code == 0 and "0 dead letters" in out and (tmp_path / "dl.csv").exists()
    code, out = cli("alerts", "--state-dir", str(state))
    assert code == 0 and "0 alerts" in out


def test_serve_as_a_process_then_send_with_the_cns_standin(tmp_path: Path) -> None:
    """The real command line: serve writes notify.env; send delivers; SIGTERM stops it cleanly."""
    state, env = tmp_path / "s", tmp_path / "cns.env"
    assert cli("credentials", "create", "--state-dir", str(state), "--env-file", str(env))[0] == 0
    proc = subprocess.Popen([sys.executable, "-m", "workbench.notify", "serve", "--state-dir", str(state),
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while not (state / "notify.env").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        served = Settings.from_file(state / "notify.env")
        assert served.notify_url.startswith("https://127.0.0.1:") and served.notify_url.endswith("/notifications")
        ctx = ssl.create_default_context(cafile=served.notify_ca_bundle)
        health_url = served.notify_url.replace("/notifications", "/health")
        while time.monotonic() < deadline:
            try:
                if httpx.get(health_url, verify=ctx, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        envelope = tmp_path / "n.json"
        envelope.write_text(json.dumps([{"metadata": {"uuid": "cli-1", "type": "PAYOUT_UPDATE",
                                                      "payloadVersion": "1.0"}, "payload": {}}] * 2))
        code, out = cli("send", str(envelope), "--state-dir", str(state), "--env-file", str(env))
        assert code == 0, out
        assert out.count("cli-1: delivered") == 2 and "accepted" in out and "duplicate" in out
        assert (stat_mode := (state / "keys").stat().st_mode & 0o777) == 0o700, oct(stat_mode)
    finally:
        proc.send_signal(signal.SIGTERM)
        output = proc.communicate(timeout=15)[0]
    assert proc.returncode in (0, -signal.SIGTERM), output  # uvicorn re-raises SIGTERM after a clean stop
    assert "serving https://127.0.0.1:" in output
    code, out = cli("list", "--state-dir", str(state))
    assert "1 notification" in out


def test_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        code, out = cli("serve", "--state-dir", str(tmp_path / "s"), "--port", str(busy.getsockname()[1]))
    assert code == 2 and "cannot listen on" in " ".join(out.split())


def test_cert_without_key_is_refused(tmp_path: Path) -> None:
    code, out = cli("serve", "--state-dir", str(tmp_path / "s"), "--cert", str(tmp_path / "c.pem"))
    assert code == 2 and "give both" in " ".join(out.split())
