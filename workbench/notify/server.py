"""Run the notification service: HTTPS on loopback (test CA) or with the operator's certificate.

The server faces the internet: its uvicorn runs the guarded h11 protocol (request deadlines,
connection caps, bounded close; :mod:`workbench.notify.guard`) with the ``[server]`` settings, and
every file it creates is private to its user (umask 077).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.notify.app import create_app
from workbench.notify.guard import guarded_protocol, raise_open_file_limit
from workbench.notify.service import NotifyService
from workbench.serving import LOOPBACK, TLSFiles, bind, ensure_test_ca, make_server

ENV_FILE = "notify.env"


@dataclass(frozen=True)
class Endpoints:
    """Where the platform's notification service must be pointed (provider portal)."""

    token_url: str
    notify_url: str
    ca_bundle: str


def endpoints(host: str, port: int, ca_bundle: str) -> Endpoints:
    shown = LOOPBACK if host in ("", "0.0.0.0", "::") else host
    base = f"https://{shown}:{port}"
    return Endpoints(f"{base}/oauth/token", f"{base}/notifications", ca_bundle)


def write_env(state_dir: Path, ep: Endpoints) -> Path:
    """Write ``state_dir/notify.env`` atomically (read it with ``Settings.from_file``)."""
    path = state_dir / ENV_FILE
    tmp = path.with_suffix(".env.tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(f"WORKBENCH_NOTIFY_TOKEN_URL={ep.token_url}\nWORKBENCH_NOTIFY_URL={ep.notify_url}\n"
                 f"WORKBENCH_NOTIFY_CA_BUNDLE={ep.ca_bundle}\n")
    os.replace(tmp, path)
    return path


def tls_files(state_dir: Path, cert: Path | None, key: Path | None) -> TLSFiles:
    """The operator's certificate and key, or the state directory's test CA."""
    if (cert is None) != (key is None):
        raise ValueError("give both `--cert FILE` and `--key FILE`, or neither (a test CA is then used)")
    if cert is not None and key is not None:
        for label, path in (("--cert", cert), ("--key", key)):
            if not path.is_file():
                raise ValueError(f"`{label} {path}`: no such file")
        return TLSFiles(ca_bundle=Path(""), cert_file=cert, key_file=key)
    return ensure_test_ca(state_dir)


def server_options(service: NotifyService) -> dict[str, Any]:
    """uvicorn options from the ``[server]`` settings (see docs/notify.md, "Exposing the endpoints")."""
    sc = service.config.server
    return {"http": guarded_protocol(sc, service.metrics), "timeout_keep_alive": sc.keep_alive_seconds,
            "h11_max_incomplete_event_size": sc.max_header_bytes,
            "timeout_graceful_shutdown": sc.shutdown_timeout_seconds,
            "proxy_headers": bool(sc.trusted_proxies), "forwarded_allow_ips": list(sc.trusted_proxies) or None}


def serve(service: NotifyService, port: int = 8443, host: str = LOOPBACK, cert: Path | None = None,
          key: Path | None = None, log_level: str = "warning") -> None:
    """Bind, write ``notify.env``, and serve until interrupted (SIGTERM or Ctrl-C)."""
    os.umask(0o077)  # keys, TLS files, notify.env, the database: this user's only
    limit_note = raise_open_file_limit(service.config.server.max_connections)
    if limit_note:
        print(f"warning: {limit_note}", flush=True)
    tls = tls_files(service.state_dir, cert, key)
    try:
        sock = bind(port, host)
    except OSError as exc:
        raise ValueError(f"cannot listen on {host}:{port} ({exc.strerror}); pick another `--port` "
                         "or `--port 0` for any free one") from None
    actual = sock.getsockname()[1]
    ca = str(tls.ca_bundle) if str(tls.ca_bundle) not in ("", ".") else ""
    ep = endpoints(host, actual, ca)
    env = write_env(service.state_dir, ep)
    print(f"serving {ep.notify_url}\n  token endpoint {ep.token_url}\n  settings written to {env}", flush=True)
    from workbench.memory import serving

    serving()  # Python's own collector thresholds: this process runs for days
    make_server(create_app(service), tls, log_level=log_level, **server_options(service)).run(sockets=[sock])
