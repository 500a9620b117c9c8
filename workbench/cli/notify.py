"""``workbench notify ...``: serve the endpoints, manage credentials and keys, read the inbox.

Imports of the service stay inside the commands so ``workbench --help`` stays fast.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from workbench.wording import count

if TYPE_CHECKING:
    import pandas as pd

    from workbench.notify.service import NotifyService

DEFAULT_STATE = Path(".workbench/notify")
StateDir = Annotated[Path, typer.Option("--state-dir", help="Keys, TLS files, notify.env and (by default) notify.db.")]
DatabaseUrl = Annotated[str | None, typer.Option(
    "--database-url", help="postgresql://... or sqlite:///...; default WORKBENCH_DATABASE_URL, else SQLite in the "
    "state directory.")]
ConfigFile = Annotated[Path | None, typer.Option(
    "--config", help="A notify.toml (default: STATE_DIR/notify.toml if present).")]
Out = Annotated[Path | None, typer.Option(help="Write every row to FILE.csv or FILE.xlsx.")]
EnvFile = Annotated[Path | None, typer.Option(
    help="Also set WORKBENCH_NOTIFY_CLIENT_ID/SECRET in this env file (mode 0600), e.g. for the CNS stand-in.")]

notify_app = typer.Typer(help="The partner's notification endpoints (token issuance, receiver, request to book).",
                         no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
credentials_app = typer.Typer(help="Client credentials for the platform's notification service.",
                              no_args_is_help=True)
keys_app = typer.Typer(help="The RSA keys that sign access tokens.", no_args_is_help=True)
notify_app.add_typer(credentials_app, name="credentials")
notify_app.add_typer(keys_app, name="keys")


def _fail(message: str, code: int = 2) -> typer.Exit:
    """One line on stderr; exit 2 (what was asked cannot be done with this input or state)."""
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {escape(message)}", highlight=False, markup=True)
    return typer.Exit(code)


def _service(state_dir: Path, database_url: str | None, config: Path | None = None, *, create: bool = False,
             **kw: Any) -> NotifyService:
    """The service over ``state_dir``; unless ``create``, a state that was never served is an error."""
    from workbench.config import Settings
    from workbench.notify.config import NotifyConfig
    from workbench.notify.service import NotifyService

    def open_service() -> NotifyService:
        url = database_url or Settings.from_env().database_url or None
        return NotifyService(state_dir, NotifyConfig.load(state_dir, config), database_url=url, create=create, **kw)

    service: NotifyService = _run(open_service)
    for line in service.permission_fixes:
        typer.echo(line, err=True)
    return service


def _run(fn: Any) -> Any:
    """Call ``fn``; data and configuration problems become a one-line error (exit 2), not a traceback."""
    from workbench.notify.errors import NotifyError
    from workbench.sandbox.cns import CnsError

    try:
        return fn()
    except (NotifyError, CnsError, ValueError, OSError) as exc:
        raise _fail(str(exc)) from None


def main() -> None:
    """``python -m workbench.notify``: the same exit codes as ``workbench notify``."""
    from workbench.cli.exits import run

    run(notify_app, prog_name="workbench notify")


def _show(frame: pd.DataFrame, title: str, limit: int | None = None) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, show_lines=False)
    shown = frame.tail(limit) if limit else frame
    for col in shown.columns:
        table.add_column(Text(_visible(str(col))), overflow="fold", max_width=48)
    from workbench.cli.console import clip

    for row in shown.itertuples(index=False):  # cells are text, never markup: bodies come from the internet
        table.add_row(*(Text("" if _isna(v) else _visible(clip(str(v)))) for v in row))
    Console().print(table)
    if limit and len(frame) > limit:
        Console().print(f"(last {limit:,} of {count(len(frame), 'row')}; use --out FILE.csv for all)")


def _visible(text: str) -> str:
    """``text`` with control characters shown as escapes (a body must not drive the terminal)."""
    return "".join(c if c.isprintable() or c == " " else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
                   for c in text)


def _unreadable_lines() -> tuple[list[Any], Any]:
    """A list that collects unreadable stored bodies, and the callback that fills it."""
    found: list[Any] = []
    return found, found.append


def _report_unreadable(found: list[Any]) -> None:
    for item in found:
        typer.echo(f"WARNING: {_visible(item.message())}", err=True)


def _isna(value: Any) -> bool:
    try:
        import pandas as pd

        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _left(value: Any) -> str:
    if _isna(value):
        return ""
    minutes = int(value.total_seconds() // 60)
    return f"{minutes // 60} h {minutes % 60:02d} min"


def _check_out(out: Path | None) -> None:
    """Refuse an ``--out`` name that cannot be written before any work starts (exit 2)."""
    if out is not None:
        from workbench.reports.tables import check_table_path

        _run(lambda: check_table_path(out))


def _export(frame: pd.DataFrame, out: Path | None) -> None:
    if out is not None:
        from workbench.reports import write_table

        path = _run(lambda: write_table(frame, out))
        typer.echo(f"wrote {count(len(frame), 'row')} to {path}")


@notify_app.command()
def serve(port: Annotated[int, typer.Option(help="TCP port; 0 picks a free one (see notify.env).")] = 8443,
          host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
          state_dir: StateDir = DEFAULT_STATE,
          cert: Annotated[Path | None, typer.Option(help="Server certificate chain (PEM).")] = None,
          key: Annotated[Path | None, typer.Option(help="Its private key (PEM).")] = None,
          database_url: DatabaseUrl = None, config: ConfigFile = None,
          alert_command: Annotated[str | None, typer.Option(
              help="Shell command run with each alert as JSON on stdin.")] = None,
          log_level: Annotated[str, typer.Option(help="uvicorn/app log level.")] = "warning") -> None:
    """Serve POST /oauth/token and POST /notifications over HTTPS; writes STATE_DIR/notify.env."""
    import logging

    from workbench.notify.monitor import command_hook
    from workbench.notify.server import serve as run_server

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    hooks = [command_hook(alert_command)] if alert_command else []
    service = _service(state_dir, database_url, config, create=True, alert_hooks=hooks)
    try:
        _run(lambda: run_server(service, port=port, host=host, cert=cert, key=key, log_level=log_level))
    finally:
        service.close()


@credentials_app.command("create")
def credentials_create(state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None,
                       client_id: Annotated[str | None, typer.Option(
                           help="Default: cns-<random>.")] = None,
                       note: Annotated[str, typer.Option(help="Free text kept with the client.")] = "",
                       env_file: EnvFile = None) -> None:
    """Create a client id and a UUID4 secret; the secret is printed once and stored only as a hash."""
    with _service(state_dir, database_url, create=True) as svc:
        issued = _run(lambda: svc.credentials.create(client_id, note))
    _print_secret(issued, env_file)


@credentials_app.command("rotate")
def credentials_rotate(client_id: Annotated[str, typer.Option(help="The client to add a secret to.")],
                       state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None,
                       env_file: EnvFile = None) -> None:
    """Add a new secret; the old one stays valid until `retire`."""
    with _service(state_dir, database_url) as svc:
        issued = _run(lambda: svc.credentials.rotate(client_id))
    _print_secret(issued, env_file)
    typer.echo("the previous secret stays valid: run `workbench notify credentials retire "
               f"--client-id {client_id}` once the platform uses the new one")


@credentials_app.command("retire")
def credentials_retire(client_id: Annotated[str, typer.Option(help="The client whose secrets to retire.")],
                       secret_id: Annotated[str | None, typer.Option(
                           help="Retire this secret; default: every live secret but the newest.")] = None,
                       state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None) -> None:
    """Retire old secrets of a client (they stop working at once)."""
    with _service(state_dir, database_url) as svc:
        retired = _run(lambda: svc.credentials.retire(client_id, secret_id))
    typer.echo(f"retired {', '.join(retired)} of {client_id}")


@notify_app.command("revoke")
def revoke(client_id: Annotated[str, typer.Option(help="The client whose secret leaked.")],
           secret_id: Annotated[str | None, typer.Option(
               help="The leaked secret (see `credentials list`).")] = None,
           all_: Annotated[bool, typer.Option("--all", help="Every secret of the client.")] = False,
           state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None) -> None:
    """Cut off a leaked client secret now: it mints no token, and its tokens are refused (401) at once."""
    if (secret_id is None) == (not all_):
        raise _fail("give `--secret-id S` (see `workbench notify credentials list`) or `--all`, not both")
    with _service(state_dir, database_url) as svc:
        revoked = _run(lambda: svc.credentials.revoke(client_id, secret_id))
        live = svc.credentials.frame().query("client_id == @client_id and live")
    typer.echo(f"revoked {', '.join(revoked)} of {client_id}: tokens minted with it are refused from now on")
    if live.empty:
        typer.echo(f"{client_id} has no live secret now: `workbench notify credentials rotate --client-id "
                   f"{client_id}` issues one; enter it in the provider portal")


@credentials_app.command("list")
def credentials_list(state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None) -> None:
    """Clients and their secrets (ids and dates only)."""
    with _service(state_dir, database_url) as svc:
        _show(svc.credentials.frame(), "client credentials")


def _print_secret(issued: Any, env_file: Path | None) -> None:
    typer.echo(f"client_id:     {issued.client_id}\nclient_secret: {issued.secret}\nsecret_id:     {issued.secret_id}")
    typer.echo("the secret is shown only this once; enter both in the provider portal")
    if env_file is not None:
        from dotenv import set_key

        env_file.parent.mkdir(parents=True, exist_ok=True)
        env_file.touch(mode=0o600, exist_ok=True)
        os.chmod(env_file, 0o600)
        set_key(str(env_file), "WORKBENCH_NOTIFY_CLIENT_ID", issued.client_id)
        set_key(str(env_file), "WORKBENCH_NOTIFY_CLIENT_SECRET", issued.secret)
        typer.echo(f"also written to {env_file}")


@keys_app.command("rotate")
def keys_rotate(state_dir: StateDir = DEFAULT_STATE, config: ConfigFile = None) -> None:
    """New signing key now; the old one verifies until its tokens have expired."""
    with _service(state_dir, None, config, create=True) as svc:
        key = svc.keyring.rotate()
    typer.echo(f"new signing key {key.kid}")


@keys_app.command("list")
def keys_list(state_dir: StateDir = DEFAULT_STATE, config: ConfigFile = None) -> None:
    """Signing keys: created, retired, verifying until."""
    import pandas as pd

    with _service(state_dir, None, config) as svc:
        keys = svc.keyring.keys()
    frame = pd.DataFrame([{"kid": k.kid, "created_at": k.created_at, "retired_at": k.retired_at,
                           "verify_until": k.verify_until} for k in keys],
                         columns=["kid", "created_at", "retired_at", "verify_until"])
    for col in ("created_at", "retired_at", "verify_until"):
        frame[col] = pd.to_datetime(frame[col].astype("float64"), unit="s", utc=True)
    _show(frame, "signing keys (newest first)")


@notify_app.command("list")
def list_notifications(state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None,
                       since: Annotated[str | None, typer.Option(
                           help="`2h`, `7d` or an ISO date/time (UTC).")] = None,
                       type_: Annotated[list[str] | None, typer.Option(
                           "--type", help="Only this type (repeatable).")] = None,
                       out: Out = None,
                       limit: Annotated[int, typer.Option(help="Rows shown on screen.")] = 20) -> None:
    """The received notifications (flattened metadata, raw payload)."""
    _check_out(out)
    from workbench.notify.frames import notifications_frame, parse_since

    since_ts = _run(lambda: parse_since(since)) if since else None
    unreadable, collect = _unreadable_lines()
    with _service(state_dir, database_url) as svc:
        frame = notifications_frame(svc.store, since=since_ts, types=type_ or None, on_unreadable=collect)
    screen = frame[["received_at", "uuid", "type", "payload_version", "client_id", "payload"]].copy()
    screen["received_at"] = screen["received_at"].dt.strftime("%Y-%m-%d %H:%M:%S")
    screen["payload"] = screen["payload"].str.slice(0, 60)
    _show(screen, count(len(frame), "notification"), limit)
    _report_unreadable(unreadable)
    _export(frame, out)


@notify_app.command("dead-letters")
def dead_letters(state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None, out: Out = None) -> None:
    """Bodies refused for lacking a usable metadata.uuid, kept for inspection."""
    _check_out(out)
    from workbench.notify.frames import dead_letters_frame

    with _service(state_dir, database_url) as svc:
        frame = dead_letters_frame(svc.store)
    _show(frame, f"{len(frame)} dead letters", 20)
    _export(frame, out)


@notify_app.command("alerts")
def alerts(state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None, out: Out = None) -> None:
    """Alerts raised by the service (401 bursts, request-to-book deadlines)."""
    _check_out(out)
    from workbench.notify.frames import alerts_frame

    with _service(state_dir, database_url) as svc:
        frame = alerts_frame(svc.store)
    _show(frame.drop(columns=["details"]), count(len(frame), "alert"), 20)
    _export(frame, out)


@notify_app.command("requests")
def requests_(state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None, config: ConfigFile = None,
              all_: Annotated[bool, typer.Option("--all", help="Also closed requests (booked, declined, ...).")] = False,
              out: Out = None) -> None:
    """Request-to-book requests: state, deadline and time left (open ones first)."""
    _check_out(out)
    unreadable, collect = _unreadable_lines()
    with _service(state_dir, database_url, config) as svc:
        frame = svc.requests.frame(open_only=not all_, on_unreadable=collect)
    screen = frame[["request_id", "hotel_id", "state", "checkin", "deadline", "time_left", "decision", "note"]].copy()
    screen["deadline"] = screen["deadline"].dt.strftime("%Y-%m-%d %H:%M")
    screen["time_left"] = [_left(v) for v in screen["time_left"]]
    _show(screen, count(len(frame), f"{'' if all_ else 'open '}request") + " to book")
    near = frame[frame["near_deadline"]]
    if len(near):
        typer.echo(f"WARNING: {count(len(near), 'request')} near their deadline: "
                   f"{_visible(', '.join(near['request_id']))}")
    _report_unreadable(unreadable)
    _export(frame, out)


@notify_app.command("decide")
def decide(request_id: Annotated[str, typer.Argument(help="The request's id (see `workbench notify requests`).")],
           decision: Annotated[str, typer.Argument(help="accept or decline")],
           note: Annotated[str, typer.Option(help="Kept with the decision.")] = "",
           state_dir: StateDir = DEFAULT_STATE, database_url: DatabaseUrl = None, config: ConfigFile = None) -> None:
    """Record the partner's decision on a request to book (refused after the 24 h window)."""
    with _service(state_dir, database_url, config) as svc:
        state = _run(lambda: svc.requests.decide(request_id, decision.lower(), note))
    typer.echo(f"request {request_id}: {decision.lower()} recorded; now {state.state}")


@notify_app.command("send")
def send(files: Annotated[list[Path] | None, typer.Argument(
             help="JSON files, each an envelope or a list of envelopes.")] = None,
         type_: Annotated[str | None, typer.Option(
             "--type", help="Send one notification of this type instead.")] = None,
         payload: Annotated[str, typer.Option(help="Its payload (JSON).")] = "{}",
         state_dir: StateDir = DEFAULT_STATE,
         env_file: Annotated[Path | None, typer.Option(
             help="Settings with WORKBENCH_NOTIFY_* (default: environment, .env, then STATE_DIR/notify.env for "
                  "the URLs).")] = None,
         concurrency: Annotated[int, typer.Option(help="Deliveries in flight.")] = 4) -> None:
    """Deliver notifications as the platform's notification service would (the CNS stand-in)."""
    from workbench.config import Settings
    from workbench.sandbox.cns import CnsClient, CnsConfig, notification

    def load() -> list[dict[str, Any]]:
        envelopes: list[dict[str, Any]] = []
        for f in files or []:
            try:
                data = json.loads(f.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ValueError(f"`{f}`: cannot read JSON ({exc})") from None
            envelopes.extend(data if isinstance(data, list) else [data])
        if type_:
            try:
                envelopes.append(notification(type_, json.loads(payload)))
            except ValueError:
                raise ValueError(f"`--payload {payload}` is not JSON") from None
        if not envelopes:
            raise ValueError("nothing to send: give JSON files or `--type TYPE --payload JSON`")
        return envelopes

    envelopes = _run(load)
    if env_file is not None and not env_file.is_file():
        raise _fail(f"settings file `{env_file}` does not exist (`workbench notify credentials create --env-file "
                    f"{env_file}` writes one)")
    settings = _run(lambda: Settings.from_env(env_file=env_file) if env_file else Settings.from_env())
    source: Path | None = env_file
    endpoint_file = state_dir / "notify.env"
    if endpoint_file.is_file() and not settings.notify_url:
        served = _run(lambda: Settings.from_file(endpoint_file))
        settings = settings.with_(notify_token_url=served.notify_token_url, notify_url=served.notify_url,
                                  notify_ca_bundle=served.notify_ca_bundle)
        source = endpoint_file
    config = _run(lambda: CnsConfig.from_settings(settings.check_files("notify_ca_bundle", source=source)))
    results = _run(lambda: CnsClient.deliver_all(config, envelopes, concurrency))
    for r in results:
        status = (r.response or {}).get("status", "") if r.delivered else r.error
        typer.echo(f"{r.uuid}: {'delivered' if r.delivered else 'FAILED'} ({r.status_code}, "
                   f"{count(r.attempts, 'attempt')}) {status}")
    if not all(r.delivered for r in results):
        raise typer.Exit(1)  # errors found: some notifications were not delivered
