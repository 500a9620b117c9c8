"""``workbench sandbox serve``: the platform sandbox over HTTPS on loopback."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer

sandbox_app = typer.Typer(help="Run a local stand-in of the platform (HTTPS on 127.0.0.1).", no_args_is_help=True)


@sandbox_app.callback()
def _group() -> None:
    """Run a local stand-in of the platform (HTTPS on 127.0.0.1)."""


def _fail(message: str) -> None:
    from workbench.cli.console import fail

    fail(message)


@sandbox_app.command("serve")
def serve(
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1 (0 picks a free one).")] = 8443,
    state_dir: Annotated[Path | None, typer.Option(
        "--state-dir", help="Keep state, TLS files and connection.env here (kept across restarts); "
                            "default: a new temporary directory.", show_default=False)] = None,
    limit_window: Annotated[float, typer.Option(
        "--limit-window", help="Seconds over which calls are counted (the spec's limits are per 60 s).")] = 60.0,
    limits: Annotated[str, typer.Option(
        "--limits", help="Override limits per window, e.g. `OTA_HotelRateAmountNotif=75,all=10000`.")] = "",
    faults: Annotated[str, typer.Option(
        "--faults", help="Fault injection, e.g. `latency=50ms,5xx=0.1,429=0.05x3,drop=0.05,malformed=0.02` "
                         "(see docs/sandbox.md).")] = "",
    today: Annotated[str | None, typer.Option(
        "--today", help="Pin the sandbox's date (YYYY-MM-DD, CET) for the rate date window; default: "
                        "today in Europe/Amsterdam.", show_default=False)] = None,
    registry: Annotated[Path | None, typer.Option(
        "--registry", help="Registry workbook to seed a new state from (default: data/samples/registry.xlsx).",
        show_default=False)] = None,
    fx: Annotated[Path | None, typer.Option(
        "--fx", help="FX table for the price cap (default: data/fx/eur_fx.csv).", show_default=False)] = None,
    provider_type: Annotated[str, typer.Option(
        "--provider-type", help="The machine account's provider type; `Home` sees OTA_HotelInvNotif deprecated "
                                "(a DEPRECATED_OPERATION warning before 2026-12-31, an error from then on).")] = "Hotel",
) -> None:
    """Serve the platform sandbox until Ctrl-C; writes STATE_DIR/connection.env for clients."""
    import tempfile

    from workbench.cli.console import console
    from workbench.sandbox.app import SandboxConfig
    from workbench.sandbox.faults import FaultSpec
    from workbench.sandbox.limits import parse_limits
    from workbench.sandbox.server import RunningSandbox
    from workbench.sandbox.server import serve as serve_sandbox

    try:
        pinned = dt.date.fromisoformat(today) if today else None
    except ValueError:
        _fail(f"--today `{today}` is not a date: write it as YYYY-MM-DD")
        return
    if limit_window <= 0:
        _fail("--limit-window must be a positive number of seconds")
    if not 0 <= port <= 65535:
        _fail(f"--port {port} is not a port number (0 to 65535)")
    try:
        FaultSpec.parse(faults)
        custom = parse_limits(limits)
    except ValueError as exc:
        _fail(str(exc))
        return
    if not provider_type.strip():
        _fail("--provider-type must not be empty (e.g. `Hotel` or `Home`)")
    directory = state_dir or Path(tempfile.mkdtemp(prefix="workbench-sandbox-"))
    config = SandboxConfig(state_dir=directory, limits=custom, limit_window=limit_window, faults=faults,
                           today=pinned, provider_type=provider_type.strip())
    if registry is not None:
        config.registry_path = registry
    if fx is not None:
        config.fx_path = fx

    def announce(running: RunningSandbox) -> None:
        sb = running.sandbox
        console.print(f"[bold]Platform sandbox[/] (state in {running.state_dir})")
        console.print(f"  general host  {running.base_url}")
        console.print(f"  PCI host      {running.secure_base_url}")
        console.print(f"  CA bundle     {running.tls.ca_bundle}")
        console.print(f"  account       {sb.username} (password in connection.env)")
        console.print(f"  date          {sb.today()} (rates from 1 day before to 5 years ahead)")
        console.print(f"  limits        per {sb.limits.window:g} s: "
                      + ", ".join(f"{k}={v}" for k, v in sorted(sb.limits.limits.items())))
        if sb.faults.spec.active:
            console.print(f"  faults        {faults}")
        console.print(f"  provider type {sb.config.provider_type}")
        console.print(f"  calendar      {running.rates_csv_url}")
        console.print(f"  room types    {running.base_url}/_sandbox/rooms.csv (amenities.csv, subrooms.csv)")
        console.print(f"  request log   {running.requests_csv_url}")
        console.print(f"Client settings: [bold]{running.connection_file}[/] (load with "
                      "Settings.from_file(path)). Ctrl-C stops.")

    try:
        serve_sandbox(config, port, announce)
    except OSError as exc:
        _fail(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc} (try another --port, or --port 0)")
    except (ValueError, FileNotFoundError) as exc:
        _fail(str(exc))
