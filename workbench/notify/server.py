"""Run the notification service: HTTPS on loopback (test CA) or with the operator's certificate."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from workbench.notify.app import create_app
from workbench.notify.service import NotifyService
from workbench.serving import LOOPBACK, TLSFiles, bind, ensure_test_ca, serve_forever

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
    tmp.write_text(f"WORKBENCH_NOTIFY_TOKEN_URL={ep.token_url}\nWORKBENCH_NOTIFY_URL={ep.notify_url}\n"
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


def serve(service: NotifyService, port: int = 8443, host: str = LOOPBACK, cert: Path | None = None,
          key: Path | None = None, log_level: str = "warning") -> None:
    """Bind, write ``notify.env``, and serve until interrupted."""
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
    serve_forever(create_app(service), sock, tls, log_level=log_level)
