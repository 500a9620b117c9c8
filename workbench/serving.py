"""Serve a Starlette app over HTTPS on loopback with a locally generated test CA.

Shared by the platform sandbox, the notification service and the car-search sandbox.
The CA and the server certificate are kept in a state directory, so a restarted server
keeps a CA that clients already trust.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trustme
import uvicorn

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class TLSFiles:
    """PEM files: the CA clients trust, and the server's certificate chain and key."""

    ca_bundle: Path
    cert_file: Path
    key_file: Path


def ensure_test_ca(state_dir: str | Path, hostnames: tuple[str, ...] = ()) -> TLSFiles:
    """Create (once) a test CA and a server certificate for loopback and ``hostnames``.

    Reuses the files already in ``state_dir`` when they cover the requested names.
    """
    d = Path(state_dir) / "tls"
    d.mkdir(parents=True, exist_ok=True)
    files = TLSFiles(d / "ca.pem", d / "server-chain.pem", d / "server-key.pem")
    names = ("localhost", LOOPBACK, *hostnames)
    names_file = d / "names.txt"
    wanted = "\n".join(sorted(set(names)))
    if all(p.exists() for p in (files.ca_bundle, files.cert_file, files.key_file)) and (
        names_file.exists() and names_file.read_text() == wanted
    ):
        return files
    ca = trustme.CA(organization_name="Connectivity workbench test CA")
    cert = ca.issue_cert(*sorted(set(names)))
    ca.cert_pem.write_to_path(str(files.ca_bundle))
    cert.private_key_pem.write_to_path(str(files.key_file))
    with open(files.cert_file, "wb") as fh:
        for blob in cert.cert_chain_pems:
            fh.write(blob.bytes())
    files.key_file.chmod(0o600)
    names_file.write_text(wanted)
    return files


def bind(port: int = 0, host: str = LOOPBACK) -> socket.socket:
    """A listening TCP socket; port 0 picks a free one (read it with ``getsockname()``)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # without it small answers wait ~40 ms for a delayed ACK (measured: 45.8 ms -> 3.2 ms per request)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def make_server(app: Callable[..., Any], tls: TLSFiles | None, log_level: str = "warning", **config: object) -> uvicorn.Server:
    """A uvicorn server for ``app`` with TLS 1.2 as the minimum protocol version."""
    ssl_kwargs: dict[str, object] = {}
    if tls is not None:
        ssl_kwargs = {"ssl_certfile": str(tls.cert_file), "ssl_keyfile": str(tls.key_file),
                      "ssl_version": ssl.PROTOCOL_TLS_SERVER}
    options = {"timeout_keep_alive": 30, **ssl_kwargs, **config}  # a caller's options win
    cfg = uvicorn.Config(app, log_level=log_level, lifespan="on", access_log=False, **options)  # type: ignore[arg-type]
    return uvicorn.Server(cfg)


def serve_forever(app: Callable[..., Any], sock: socket.socket, tls: TLSFiles | None, log_level: str = "warning") -> None:
    """Serve until interrupted (Ctrl-C / SIGTERM), with Python's own collector thresholds (a server runs for days)."""
    from workbench.memory import serving

    serving()
    make_server(app, tls, log_level=log_level).run(sockets=[sock])


@dataclass
class RunningServer:
    """A server started by :func:`serve_in_thread`."""

    url: str
    port: int
    tls: TLSFiles | None
    server: uvicorn.Server
    thread: threading.Thread


@contextmanager
def serve_in_thread(app: Callable[..., Any], tls: TLSFiles | None, port: int = 0,
                    host: str = LOOPBACK, startup_timeout: float = 30.0) -> Iterator[RunningServer]:
    """Run ``app`` on loopback in a background thread for the duration of the block."""
    sock = bind(port, host)
    actual_port = sock.getsockname()[1]
    server = make_server(app, tls)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True,
                              name=f"uvicorn-{actual_port}")
    thread.start()
    deadline = time.monotonic() + startup_timeout
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError(f"server on port {actual_port} failed to start")
        if time.monotonic() > deadline:
            raise TimeoutError(f"server on port {actual_port} did not start in {startup_timeout}s")
        time.sleep(0.01)
    scheme = "https" if tls else "http"
    try:
        yield RunningServer(f"{scheme}://{host}:{actual_port}", actual_port, tls, server, thread)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
