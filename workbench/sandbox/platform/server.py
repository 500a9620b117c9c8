"""Serve the sandbox over HTTPS on loopback and tell clients how to reach it.

:func:`run_sandbox` (a context manager, for tests, the demo and notebooks) and :func:`serve`
(the ``workbench sandbox serve`` command) both write ``STATE_DIR/connection.env`` with the
settings a client needs, and expose them as a :class:`~workbench.config.Settings`. Its paths
(the CA bundle) are absolute, so ``--env-file`` works from any working folder.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.config import Secret, Settings
from workbench.sandbox.platform.app import create_app
from workbench.sandbox.platform.config import SandboxConfig
from workbench.sandbox.platform.pipeline import Sandbox
from workbench.serving import (
    LOOPBACK,
    RunningServer,
    TLSFiles,
    bind,
    ensure_test_ca,
    serve_forever,
    serve_in_thread,
)
from workbench.transport.operations import EXCHANGE_PATH

CONNECTION_FILE = "connection.env"


@dataclass
class RunningSandbox:
    """A sandbox being served: its URLs, credentials, state and a ready :class:`Settings`."""

    sandbox: Sandbox
    base_url: str
    secure_base_url: str
    tls: TLSFiles
    state_dir: Path
    connection_file: Path
    server: RunningServer | None = None

    @property
    def settings(self) -> Settings:
        return settings_for(self)

    @property
    def rates_csv_url(self) -> str:
        return f"{self.base_url}/_sandbox/rates.csv"

    @property
    def requests_csv_url(self) -> str:
        return f"{self.base_url}/_sandbox/requests.csv"

    @property
    def rooms_csv_url(self) -> str:
        return f"{self.base_url}/_sandbox/rooms.csv"

    @property
    def amenities_csv_url(self) -> str:
        return f"{self.base_url}/_sandbox/amenities.csv"


def settings_for(running: RunningSandbox) -> Settings:
    """Client settings for the sandbox (limits included when they differ from the spec's). With
    ``auth="platform"``, token authentication: the exchange's URL, the client id and secret, and a token
    cache in the state folder (every process using this sandbox shares it; the user's cache stays clean)."""
    sb = running.sandbox
    limits = ",".join(f"{k}={v}" for k, v in sorted(sb.config.limits.items()))
    settings = Settings(base_url=running.base_url, secure_base_url=running.secure_base_url,
                        ca_bundle=str(running.tls.ca_bundle), username=sb.username, password=Secret(sb.password),
                        rate_limits=limits, rate_limit_window_seconds=sb.config.limit_window, auth="basic")
    if sb.tokens is None:
        return settings
    return settings.with_(auth="token", auth_url=running.base_url + EXCHANGE_PATH, client_id=sb.tokens.client_id,
                          client_secret=Secret(sb.tokens.secret), token_cache=str(running.state_dir / "tokens"),
                          provider_type=sb.config.provider_type)


def write_connection_env(running: RunningSandbox) -> Path:
    s = settings_for(running)
    lines = [
        "# written by `workbench sandbox serve`; load with Settings.from_file(this file)",
        f"WORKBENCH_BASE_URL={s.base_url}",
        f"WORKBENCH_SECURE_BASE_URL={s.secure_base_url}",
        f"WORKBENCH_CA_BUNDLE={s.ca_bundle}",
        f"WORKBENCH_AUTH={s.auth}",
        f"WORKBENCH_USERNAME={s.username}",
        f"WORKBENCH_PASSWORD={s.password.reveal()}",
    ]
    if s.auth == "token":
        lines += [f"WORKBENCH_AUTH_URL={s.auth_url}", f"WORKBENCH_CLIENT_ID={s.client_id}",
                  f"WORKBENCH_CLIENT_SECRET={s.client_secret.reveal()}", f"WORKBENCH_TOKEN_CACHE={s.token_cache}",
                  f"WORKBENCH_PROVIDER_TYPE={s.provider_type}"]
    if s.rate_limits:
        lines.append(f"WORKBENCH_RATE_LIMITS={s.rate_limits}")
    if s.rate_limit_window_seconds != 60.0:
        lines.append(f"WORKBENCH_RATE_LIMIT_WINDOW_SECONDS={s.rate_limit_window_seconds:g}")
    running.connection_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    running.connection_file.chmod(0o600)
    return running.connection_file


def _urls(config: SandboxConfig, port: int) -> tuple[str, str]:
    return f"https://{config.general_host}:{port}", f"https://{config.pci_host}:{port}"


@contextmanager
def run_sandbox(state_dir: str | Path | None = None, port: int = 0, **options: object) -> Iterator[RunningSandbox]:
    """Serve a sandbox in a background thread for the duration of the block.

    ``options`` are :class:`SandboxConfig` fields (``limits``, ``limit_window``, ``faults``,
    ``today``, ...). Without ``state_dir`` the state lives in a temporary directory removed
    at the end.
    """
    temp = None if state_dir else Path(tempfile.mkdtemp(prefix="workbench-sandbox-"))
    directory = Path(state_dir or temp).absolute()  # type: ignore[arg-type]  # connection.env works from anywhere
    directory.mkdir(parents=True, exist_ok=True)
    config = replace(SandboxConfig(), state_dir=directory, **options)  # type: ignore[arg-type]
    tls = ensure_test_ca(directory)
    app = create_app(config)
    sandbox: Sandbox = app.state.sandbox
    try:
        with serve_in_thread(app, tls, port=port) as server:
            sandbox.set_port(server.port)
            base, secure = _urls(config, server.port)
            running = RunningSandbox(sandbox, base, secure, tls, directory, directory / CONNECTION_FILE, server)
            write_connection_env(running)
            yield running
    finally:
        sandbox.store.close()
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)


def serve(config: SandboxConfig, port: int, announce: object = print) -> None:
    """Serve in the foreground until interrupted (the CLI command)."""
    assert config.state_dir is not None
    config = replace(config, state_dir=Path(config.state_dir).absolute())  # connection.env works from anywhere
    assert config.state_dir is not None
    config.state_dir.mkdir(parents=True, exist_ok=True)
    sock = bind(port, LOOPBACK)
    actual = sock.getsockname()[1]
    tls = ensure_test_ca(config.state_dir)
    app = create_app(config)
    sandbox: Sandbox = app.state.sandbox
    sandbox.set_port(actual)
    base, secure = _urls(config, actual)
    running = RunningSandbox(sandbox, base, secure, tls, Path(config.state_dir), Path(config.state_dir) / CONNECTION_FILE)
    write_connection_env(running)
    announce(running)  # type: ignore[operator]
    try:
        serve_forever(app, sock, tls)
    finally:
        sandbox.store.close()
