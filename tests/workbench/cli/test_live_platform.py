"""The workbench against `workbench sandbox serve` in its default mode, as the live platform is today
(docs/live-platform.md): real processes over HTTPS on loopback. Every command authenticates with the
account's one token, shared by processes and Dask workers; the cache survives kill -9; a 401 renews once;
the 31st exchange of an hour is never attempted; Basic gets one line on how to switch; what is already
gone is refused before sending; sunsets answer 400 and are reported as such; no secret or token leaks."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sqlite3
import ssl
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.workbench.cli.conftest import ROOT, run_cli
from workbench.config import Settings
from workbench.paths import SAMPLES
from workbench.transport.token_cache import BUDGET

pytestmark = pytest.mark.slow

RATES = str(SAMPLES / "rates.xlsx")
DAY = "2026-12-01"
EXCHANGE = "token-exchange"


@dataclass
class Live:
    """A sandbox process: its state folder, connection.env, the settings in it, its output."""

    state: Path
    env_file: Path
    settings: Settings
    process: subprocess.Popen[str]

    def log(self) -> list[dict[str, str]]:
        """The sandbox's request log (``/_sandbox/requests.csv``)."""
        ctx = ssl.create_default_context(cafile=self.settings.ca_bundle)
        answer = httpx.get(f"{self.settings.base_url}/_sandbox/requests.csv", verify=ctx, timeout=30)
        answer.raise_for_status()
        return list(csv.DictReader(io.StringIO(answer.text)))

    def exchanges(self) -> list[dict[str, str]]:
        return [r for r in self.log() if r["endpoint"] == EXCHANGE]

    def calls(self, endpoint: str | None = None) -> list[dict[str, str]]:
        return [r for r in self.log() if r["endpoint"] != EXCHANGE and endpoint in (None, r["endpoint"])]

    def cli(self, *args: str, cwd: Path, env_file: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return run_cli([*args, "--env-file", str(env_file or self.env_file)], cwd=cwd, env=env)

    def env_with(self, path: Path, **settings: str) -> Path:
        """A copy of connection.env with these settings (``WORKBENCH_<NAME>``) set."""
        keep = [ln for ln in self.env_file.read_text().splitlines()
                if ln.split("=", 1)[0] not in {f"WORKBENCH_{k.upper()}" for k in settings}]
        path.write_text("\n".join([*keep, *(f"WORKBENCH_{k.upper()}={v}" for k, v in settings.items())]) + "\n")
        return path

    def token(self) -> str:
        """The token in the shared cache (to look for it where it must never be)."""
        [cached] = Path(self.settings.token_cache).glob("*.json")
        return json.loads(cached.read_text())["token"]["value"]


def new_room(tmp_path: Path) -> Path:
    """A rooms workbook with no error: one new room type for the sample's property 1000005."""
    from openpyxl import Workbook

    path = tmp_path / "new-room.xlsx"
    wb = Workbook()
    wb.active.title = "Rooms"
    wb.active.append(["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "MaxOccupancy",
                      "MaxAdultOccupancy", "MaxChildOccupancy", "NonSmoking"])
    wb.active.append([1000005, None, 5101, "Chalet", "Family Chalet", 6, 4, 2, 1])
    wb.save(path)
    return path


def errors(run: subprocess.CompletedProcess[str]) -> list[str]:
    """The error lines of a command (its progress bars share stderr)."""
    return [ln for ln in run.stderr.splitlines() if ln.startswith("Error:")]


@contextmanager
def serve(tmp_path: Path, *args: str, name: str = "sb") -> Iterator[Live]:
    state = tmp_path / name
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "200"}
    process = subprocess.Popen([sys.executable, "-m", "workbench.cli", "sandbox", "serve", "--state-dir", str(state),
                                "--port", "0", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    connection = state / "connection.env"
    deadline = time.monotonic() + 90
    try:
        while not (connection.is_file() and "WORKBENCH_" in connection.read_text()):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the sandbox did not start: {process.stdout.read() if process.stdout else ''}")
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written whole before serving: give the socket a moment
        yield Live(state, connection, Settings.from_file(connection), process)
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def test_commands_and_dask_workers_share_one_token_per_lifetime(tmp_path: Path) -> None:
    with serve(tmp_path, "--today", DAY, "--token-lifetime", "60") as sb:
        s = sb.settings
        assert (s.auth, s.connection.scheme) == ("token", "token") and s.auth_url.endswith(
            "/token-based-authentication/exchange")
        push = subprocess.Popen([sys.executable, "-m", "workbench.cli", "push", "rates", RATES, "--skip-invalid",
                                 "--as-of", DAY, "--journal", str(tmp_path / "j1.sqlite"), "--env-file",
                                 str(sb.env_file)], cwd=tmp_path, text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        dask = sb.cli("push", "rates", RATES, "--engine", "dask", "--workers", "2", "--dry-run", str(tmp_path / "out"),
                      "--skip-invalid", "--as-of", DAY, cwd=tmp_path)
        out, _ = push.communicate(timeout=300)
        assert push.returncode in (0, 1), out  # 1: the sample's requests the sandbox refuses
        assert dask.returncode == 0, dask.stdout + dask.stderr
        [first] = sb.exchanges()
        roomrates = sb.calls("roomrates")
        assert len({r["account"] for r in roomrates}) == 1 and len(roomrates) >= 2  # the workers' reads too
        assert sb.calls("OTA_HotelRateAmountNotif")
        assert all(r["account"] == s.client_id and r["status"] != "401" for r in sb.calls())
        # the token's renewal comes less than 6 s (a tenth of its lifetime) before its end: one more exchange
        issued = time.time()
        time.sleep(max(0.0, 55 - (time.time() - issued)))
        for cmd in (["fetch", "rooms", "--hotel", "1000001", "--out", str(tmp_path / "r.xlsx")],
                    ["health", "--hotel", "1000004", "--journal", str(tmp_path / "j1.sqlite")]):
            run = sb.cli(*cmd, cwd=tmp_path)
            assert run.returncode in (0, 1), run.stdout + run.stderr
        assert len(sb.exchanges()) == 2 and sb.exchanges()[0] == first


def test_rooms_content_and_health_authenticate_with_the_token(tmp_path: Path) -> None:
    from workbench.cli.demo import fixed_content

    content = fixed_content(tmp_path / "content.xlsx")
    with serve(tmp_path, "--today", DAY, "--rtb-enabled") as sb:
        rtb = sb.env_with(tmp_path / "rtb.env", content_api_rtb_enabled="true")
        for cmd in (["push", "rooms", str(new_room(tmp_path)), "--mapping", str(tmp_path / "mapping.csv")],
                    ["fetch", "rooms", "--hotel", "1000001", "--out", str(tmp_path / "rooms.xlsx")],
                    ["push", "content", str(content), "--journal", str(tmp_path / "content.sqlite"), "--report",
                     str(tmp_path / "content.csv")],
                    ["health", "--hotel", "1000004", "--journal", str(tmp_path / "j.sqlite")]):
            run = sb.cli(*cmd, cwd=tmp_path, env_file=rtb)
            assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stdout + run.stderr
        # the content operation is deprecated: the sandbox's warning header, read by the client, is in the report
        report = (tmp_path / "content.csv").read_text(encoding="utf-8-sig")
        assert "OTA_HotelDescriptiveContentNotif is deprecated and is sunset on 2026-12-31 (30 days left): move " \
               "to the Property and Contacts interfaces" in report  # the header's text (the body's has no days)
        called = {r["endpoint"] for r in sb.calls()}
        assert {"OTA_HotelInvNotif", "OTA_HotelDescriptiveInfo", "OTA_HotelDescriptiveContentNotif"} <= called
        assert all(r["account"] == sb.settings.client_id and r["status"] != "401" for r in sb.calls())
        assert len(sb.exchanges()) == 1


def test_the_cache_survives_kill_9_of_a_process_holding_its_lock(tmp_path: Path) -> None:
    holder = """
import asyncio, sys, time
from workbench.config import Settings
from workbench.transport import ssl_context
from workbench.transport.token_auth import TokenSource
settings = Settings.from_file(sys.argv[1])
source = TokenSource(settings.connection, verify=ssl_context(settings.ca_bundle))
asyncio.run(source.token())
source.cache.lock.acquire()
print("holding", flush=True)
time.sleep(120)
"""
    with serve(tmp_path, "--today", DAY) as sb:
        proc = subprocess.Popen([sys.executable, "-c", holder, str(sb.env_file)], stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert proc.stdout is not None and proc.stdout.readline().strip() == "holding"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        started = time.monotonic()
        run = sb.cli("fetch", "rooms", "--hotel", "1000001", "--out", str(tmp_path / "r.xlsx"), cwd=tmp_path)
        assert run.returncode == 0, run.stdout + run.stderr
        assert time.monotonic() - started < 60  # not stuck behind the dead holder's lock
        assert len(sb.exchanges()) == 1  # the killed process's token, from the cache


def test_a_401_with_an_expired_token_renews_it_once(tmp_path: Path) -> None:
    with serve(tmp_path, "--today", DAY, "--token-lifetime", "3") as sb:
        first = sb.cli("fetch", "rooms", "--hotel", "1000001", "--out", str(tmp_path / "a.xlsx"), cwd=tmp_path)
        assert first.returncode == 0, first.stdout + first.stderr
        [cached] = Path(sb.settings.token_cache).glob("*.json")
        data = json.loads(cached.read_text())
        data["token"]["expires_at"] = time.time() + 3600  # this machine thinks it is still good
        cached.write_text(json.dumps(data))
        time.sleep(4)  # the platform's clock: expired
        again = sb.cli("fetch", "rooms", "--hotel", "1000001", "--out", str(tmp_path / "b.xlsx"), cwd=tmp_path)
        assert again.returncode == 0, again.stdout + again.stderr
        assert len(sb.exchanges()) == 2
        assert [r["status"] for r in sb.calls()].count("401") == 1


def test_the_31st_exchange_of_an_hour_is_never_attempted(tmp_path: Path) -> None:
    code = """
import asyncio, sys
from workbench.config import Settings
from workbench.transport import TokenBudgetExhausted, ssl_context
from workbench.transport.token_auth import TokenSource
from workbench.transport.token_cache import CacheState
settings = Settings.from_file(sys.argv[1])
for n in range(31):  # a new process each time, the token lost: only the count is kept
    source = TokenSource(settings.connection, verify=ssl_context(settings.ca_bundle))
    source.cache.write(CacheState(None, source.cache.read().exchanges))
    try:
        asyncio.run(source.token())
    except TokenBudgetExhausted as exc:
        print("refused", n, exc)
"""
    with serve(tmp_path, "--today", DAY) as sb:
        run = run_cli([sb.env_file.as_posix()], code=code, cwd=tmp_path)
        assert run.returncode == 0 and run.stdout.startswith(f"refused {BUDGET} "), run.stdout + run.stderr
        assert len(sb.exchanges()) == BUDGET and all(r["status"] == "200" for r in sb.exchanges())
        journal = tmp_path / "journal.sqlite"
        push = sb.cli("push", "rates", RATES, "--skip-invalid", "--as-of", DAY, "--journal", str(journal),
                      "--no-fetch-registry", cwd=tmp_path)
        assert push.returncode == 2, push.stdout + push.stderr
        [line] = errors(push)
        assert "made its 30 token exchanges of the last hour" in line and "next is allowed at" in line
        assert len(sb.exchanges()) == BUDGET and not sb.calls("OTA_HotelRateAmountNotif")
        with sqlite3.connect(journal) as db:
            statuses = {s for (s,) in db.execute("SELECT status FROM requests")}
        assert "success" not in statuses and "sending" not in statuses  # the journal says nothing went


def test_basic_after_2025_gets_one_line_on_how_to_switch(tmp_path: Path) -> None:
    with serve(tmp_path, "--today", DAY) as sb:
        s = sb.settings
        basic = sb.env_with(tmp_path / "basic.env", auth="basic")  # the username and password are valid
        run = sb.cli("push", "rates", RATES, "--skip-invalid", "--as-of", DAY, "--no-fetch-registry", "--journal",
                     str(tmp_path / "j.sqlite"), cwd=tmp_path, env_file=basic)
        assert run.returncode == 2, run.stdout + run.stderr
        [line] = errors(run)
        assert "no longer takes Basic authentication (sunset on 2025-12-31)" in line
        assert "WORKBENCH_AUTH=token" in line and "WORKBENCH_CLIENT_ID" in line
        assert {r["status"] for r in sb.calls()} == {"401"} and len(sb.calls()) <= s.max_in_flight
    with serve(tmp_path, "--today", "2025-12-31", name="before") as sb:  # the last day Basic is taken
        run = sb.cli("fetch", "rooms", "--hotel", "1000001", "--out", str(tmp_path / "r.xlsx"), cwd=tmp_path,
                     env_file=sb.env_with(tmp_path / "basic-before.env", auth="basic"))
        assert run.returncode == 0 and sb.exchanges() == [], run.stdout + run.stderr
    with serve(tmp_path, "--auth", "spec", name="spec") as sb:  # the spec's scheme: Basic only
        assert sb.settings.connection.scheme == "basic" and not sb.settings.client_id
        run = sb.cli("fetch", "rooms", "--hotel", "1000001", "--out", str(tmp_path / "s.xlsx"), cwd=tmp_path)
        assert run.returncode == 0 and sb.exchanges() == [], run.stdout + run.stderr


def test_what_is_gone_is_refused_before_sending(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from workbench.cli.demo import fixed_content

    content = fixed_content(tmp_path / "content.xlsx")
    wb = load_workbook(content)
    ws = wb["Attractions"]
    headers = [c.value for c in ws[1]]
    ws.append([{"HotelCode": 1000004, "AttractionCategoryCode": 5, "AttractionName": "Tower"}.get(h) for h in headers])
    wb.save(content)
    with serve(tmp_path, "--today", DAY, "--rtb-enabled") as sb:
        rtb = sb.env_with(tmp_path / "rtb.env", content_api_rtb_enabled="true")
        run = sb.cli("push", "content", str(content), "--journal", str(tmp_path / "c.sqlite"), cwd=tmp_path,
                     env_file=rtb)
        assert run.returncode == 1, run.stdout + run.stderr
        said = " ".join(run.stdout.split())
        assert "Attractions row 2, AttractionCategoryCode = 5 sunset_element `AreaInfo/Attractions` was sunset on " \
               "2023-06-30" in said, said
        assert not sb.calls("OTA_HotelDescriptiveContentNotif")
        old = sb.cli("push", "rates", RATES, "--skip-invalid", "--as-of", DAY, "--journal", str(tmp_path / "j.sqlite"),
                     cwd=tmp_path, env_file=sb.env_with(tmp_path / "v10.env", accept_version="1.0"))
        assert old.returncode == 2, old.stdout + old.stderr
        [line] = errors(old)
        assert "WORKBENCH_ACCEPT_VERSION=1.0" in line and "2024-02-14" in line and "=1.1" in line
        assert not sb.calls("OTA_HotelRateAmountNotif")


def test_sunset_operations_answer_400_and_are_reported_as_sunset(tmp_path: Path) -> None:
    from workbench.cli.demo import fixed_content
    from workbench.sandbox.testing import inv_notif_request, product
    from workbench.transport import Outcome, SyncPlatformClient

    content = fixed_content(tmp_path / "content.xlsx")
    rooms = new_room(tmp_path)
    with serve(tmp_path, "--today", "2026-12-31", "--provider-type", "Home", "--rtb-enabled") as sb:
        assert sb.settings.provider_type == "Home"  # connection.env says so
        rtb = sb.env_with(tmp_path / "rtb.env", content_api_rtb_enabled="true")
        runs = {  # what each command reports, and the operation the sandbox refused
            ("OTA_HotelDescriptiveContentNotif", "the Property and Contacts interfaces"): sb.cli(
                "push", "content", str(content), "--journal", str(tmp_path / "c.sqlite"), cwd=tmp_path, env_file=rtb),
            ("OTA_HotelDescriptiveInfo", "the modular interfaces' reads"): sb.cli(
                "fetch", "rooms", "--hotel", "1000001", "--out", str(tmp_path / "r.xlsx"), cwd=tmp_path),
            ("OTA_HotelDescriptiveInfo", "the modular interfaces' reads "): sb.cli(  # push rooms reads them first
                "push", "rooms", str(rooms), "--mapping", str(tmp_path / "m.csv"), cwd=tmp_path),
        }
        for (op, instead), run in runs.items():
            said = " ".join((run.stdout + run.stderr).split())
            assert run.returncode in (1, 2) and "Traceback" not in said, said
            assert "sunset" in said and f"use {instead.strip()}" in said, said
            assert {r["status"] for r in sb.calls(op)} == {"400"}
        with SyncPlatformClient(sb.settings) as client:
            result = client.send("OTA_HotelInvNotif", inv_notif_request(1000001, [product("Overlay", "101")]))
        assert (result.outcome, result.status, result.attempts, result.fatal) == (Outcome.REJECTED, 400, 1, True)
        assert (result.error or "").startswith("sunset: use the modular Rooms and Facilities interfaces "
                                               "(OTA_HotelInvNotif was sunset on 2026-12-31 for the Home provider")
        content_calls = sb.calls("OTA_HotelDescriptiveContentNotif")
        assert len(content_calls) <= 5  # one per property at most: a sunset is never retried


def test_no_secret_or_token_in_outputs_logs_journals_or_reports(tmp_path: Path) -> None:
    forced = """
import sys
import workbench.cli.console as console
def broken(result, *args, **kwargs):
    raise RuntimeError(f"boom: {result!r}")
console.print_push_result = broken
import workbench.cli.rates as rates
rates.print_push_result = broken
from workbench.cli import main
sys.argv = ["workbench", *sys.argv[1:]]
main()
"""
    logs = tmp_path / "logs"
    with serve(tmp_path, "--today", DAY) as sb:
        secret = sb.settings.client_secret.reveal()
        reports = [tmp_path / f"push.{ext}" for ext in ("html", "csv", "xlsx")]
        push = sb.cli("push", "rates", RATES, "--skip-invalid", "--as-of", DAY, "--journal", str(tmp_path / "j.sqlite"),
                      *[a for r in reports for a in ("--report", str(r))], cwd=tmp_path,
                      env={"WORKBENCH_LOG_DIR": str(logs)})
        crash = run_cli(["push", "rates", RATES, "--skip-invalid", "--as-of", DAY, "--journal",
                         str(tmp_path / "j2.sqlite"), "--env-file", str(sb.env_file)], cwd=tmp_path, code=forced,
                        env={"WORKBENCH_LOG_DIR": str(logs)})
        assert crash.returncode == 3, crash.stdout + crash.stderr
        notebook = _run_notebook(tmp_path, sb.env_file)
        token = sb.token()
        sb.process.terminate()
        served, _ = sb.process.communicate(timeout=20)
    texts = {"push output": push.stdout + push.stderr, "crash output": crash.stdout + crash.stderr,
             "sandbox output": served, "notebook": notebook}
    texts.update({f"report {r.name}": _text_of(r) for r in reports})
    texts.update({f"crash log {p.name}": p.read_text() for p in logs.glob("*.log")})
    texts.update({f"journal {p.name}": p.read_bytes().decode("latin-1") for p in tmp_path.glob("j*.sqlite*")})
    # (the sandbox's own state holds the secret: it is the platform, which issued it)
    assert any(k.startswith("crash log") for k in texts) and "boom" in texts["crash output"]
    leaks = [where for where, text in texts.items() for needle in (secret, token) if needle in text]
    assert leaks == []


def _text_of(path: Path) -> str:
    if path.suffix == ".xlsx":
        with zipfile.ZipFile(path) as z:
            return "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())
    return path.read_text(encoding="utf-8")


def _run_notebook(tmp_path: Path, env_file: Path) -> str:
    """A notebook that reads the settings, shows them, calls the sandbox and shows the result: its outputs."""
    import nbformat
    from nbclient import NotebookClient

    cells = [f"from workbench.config import Settings\nsettings = Settings.from_file({str(env_file)!r})\nsettings",
             "print(settings.redacted()); settings.connection",
             "from workbench.transport import SyncPlatformClient\n"
             "with SyncPlatformClient(settings) as client:\n    result = client.send('roomrates', b'<request/>')\n"
             "result",
             "import logging; logging.basicConfig(level=logging.DEBUG)\n"
             "with SyncPlatformClient(settings) as client:\n    print(client.send('roomrates', b'<request/>').summary())\n"
             "from workbench.transport import auth_for\nauth_for(settings)"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    return json.dumps([c.get("outputs", []) for c in nb.cells])
