"""``workbench sandbox serve``: the platform sandbox over HTTPS on loopback."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from workbench.sandbox.platform.seed import Registry

sandbox_app = typer.Typer(help="Run a local stand-in of the platform (HTTPS on 127.0.0.1).", no_args_is_help=True)


class AuthMode(StrEnum):
    platform = "platform"
    spec = "spec"


@sandbox_app.callback()
def _group() -> None:
    """Run a local stand-in of the platform (HTTPS on 127.0.0.1)."""


def _fail(message: str) -> NoReturn:
    from workbench.cli.console import fail

    fail(message)


def _registry(paths: list[Path]) -> Registry:
    """Your registry files, read as `validate --registry` reads them, as the sandbox's seed; every
    missing fact the sandbox needs is named at once."""
    from loaders import LoadError, read_registry
    from workbench.cli.console import text
    from workbench.sandbox.platform.seed import PRICING_MODELS, Property, Registry, Room, RoomRate

    try:
        reg = read_registry(paths)
    except LoadError as exc:
        _fail(str(exc))
    source = ", ".join(f"`{p}`" for p in paths)
    if reg.properties.empty:
        _fail(f"--registry {source}: no properties found; the sandbox needs a `Properties` sheet (or CSV) with "
              "HotelCode, HotelName, CurrencyCode, PricingModel, CountryCode")
    problems: list[str] = []

    def need(value: object, what: str) -> str:
        shown = text(value)
        if not shown:
            problems.append(what)
        return shown

    def whole(value: object, what: str) -> int:
        shown = need(value, what)
        try:
            return int(float(shown)) if shown else 0
        except ValueError:
            problems.append(f"{what} (`{shown}` is not a whole number)")
            return 0

    props = []
    for p in reg.properties.itertuples(index=False):
        hotel = text(p.hotel_code)
        model = need(p.pricing_model, f"property {hotel}: PricingModel")
        if model and model not in PRICING_MODELS:
            problems.append(f"property {hotel}: PricingModel `{model}` (use Standard, OBP or LOS)")
        props.append(Property(whole(p.hotel_code, "a property's HotelCode"), text(p.hotel_name),
                              need(p.currency_code, f"property {hotel}: CurrencyCode").upper(), model or "Standard",
                              text(p.country_code).upper()))
    rooms = []
    for r in reg.rooms.itertuples(index=False):
        where = f"room {text(r.inv_type_code)} of property {text(r.hotel_code)}"
        rooms.append(Room(whole(r.hotel_code, where), text(r.inv_type_code), text(r.room_name),
                          whole(r.max_occupancy, f"{where}: MaxOccupancy"),
                          whole(r.max_adult_occupancy, f"{where}: MaxAdultOccupancy"),
                          whole(r.max_child_occupancy, f"{where}: MaxChildOccupancy")))
    links = []
    for r in reg.room_rates.itertuples(index=False):
        where = f"rate {text(r.rate_plan_code)} of room {text(r.inv_type_code)} at property {text(r.hotel_code)}"
        links.append(RoomRate(whole(r.hotel_code, where), text(r.inv_type_code), text(r.rate_plan_code),
                              text(r.rate_name), text(r.active) != "no", text(r.parent_rate_plan_code) or None,
                              text(r.follows_price) == "yes", text(r.read_only) == "yes"))
    if problems:
        shown = "; ".join(problems[:12]) + (f"; and {len(problems) - 12} more" if len(problems) > 12 else "")
        _fail(f"--registry {source}: the sandbox needs these facts, missing or not usable: {shown}")
    return Registry(tuple(props), tuple(rooms), tuple(links))


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
        "--today", help="Pin the sandbox's date (YYYY-MM-DD, CET) for the rate date window and the "
                        "sunsets (content, and OTA_HotelInvNotif for Home); default: today in Europe/Amsterdam.",
        show_default=False)] = None,
    registry: Annotated[list[Path] | None, typer.Option(
        "--registry", help="Your property registry (properties, rooms, room-rates: a workbook or CSV files, as "
                           "for `validate --registry`; may repeat) to seed a new state from; default: the "
                           "sample's data/samples/registry.xlsx.", show_default=False)] = None,
    rooms: Annotated[Path | None, typer.Option(
        "--rooms", help="Room-type facts for the registry's rooms (sheets RoomTypes, SubRooms, Amenities; see "
                        "data/samples/README.md); default: the registry's rooms alone (the sample's "
                        "platform_rooms.xlsx only with the sample registry).", show_default=False)] = None,
    fx: Annotated[Path | None, typer.Option(
        "--fx", help="FX table for the price cap (default: data/fx/eur_fx.csv).", show_default=False)] = None,
    provider_type: Annotated[str, typer.Option(
        "--provider-type", help="The machine account's provider type; `Home` sees OTA_HotelInvNotif deprecated "
                                "(a DEPRECATED_OPERATION warning before 2026-12-31, an error from then on).")] = "Hotel",
    rtb_enabled: Annotated[bool, typer.Option(
        "--rtb-enabled", help="Turn on the provider setting content_api_rtb_enabled: content may create "
                              "request-to-book properties (BookingModel RTB on New).")] = False,
    seed_bookings: Annotated[Path | None, typer.Option(
        "--seed-bookings", help="Booked and cancelled rooms to hold (CSV: HotelCode, InvTypeCode, RatePlanCode, "
                                "Date, Booked, Cancelled); roomrateavailability reads them back.",
        show_default=False)] = None,
    los_reading: Annotated[str, typer.Option(
        "--los-reading", help="What OTA_HotelAvailNotif's SetMinLOS/SetMaxLOS mean: stay_through (the platform's "
                              "guide) or arrival; the client's WORKBENCH_LOS_READING must agree.")] = "stay_through",
    auth: Annotated[AuthMode, typer.Option(
        "--auth", help="platform: as the platform is today (the token exchange, Bearer tokens, Basic refused "
                       "from 2026-01-01, every sunset and deprecation by the sandbox's date); spec: Basic only, "
                       "as the spec is written.")] = AuthMode.platform,
    token_lifetime: Annotated[float, typer.Option(
        "--token-lifetime", metavar="SECONDS", help="How long a token lives (the platform: one hour); set it "
                                                    "short to see renewals.")] = 3600.0,
) -> None:
    """Serve the platform sandbox until Ctrl-C; writes STATE_DIR/connection.env for clients."""
    import tempfile

    from workbench.cli.console import console
    from workbench.sandbox.platform.config import SandboxConfig
    from workbench.sandbox.platform.faults import FaultSpec
    from workbench.sandbox.platform.limits import parse_limits
    from workbench.sandbox.platform.server import RunningSandbox
    from workbench.sandbox.platform.server import serve as serve_sandbox
    from workbench.transport.operations import BASIC_AUTH_SUNSET, EXCHANGE_PATH

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
    if token_lifetime <= 0:
        _fail("--token-lifetime must be a positive number of seconds")
    if not provider_type.strip():
        _fail("--provider-type must not be empty (e.g. `Hotel` or `Home`)")
    for label, path in (("--rooms", rooms), ("--fx", fx), ("--seed-bookings", seed_bookings)):
        if path is not None and not path.is_file():
            _fail(f"{label} `{path}` does not exist")
    bookings = _bookings(seed_bookings, los_reading)
    seed = _registry(registry) if registry else None
    directory = state_dir or Path(tempfile.mkdtemp(prefix="workbench-sandbox-"))
    config = SandboxConfig(state_dir=directory, limits=custom, limit_window=limit_window, faults=faults,
                           auth=auth.value, token_lifetime=token_lifetime,
                           today=pinned, provider_type=provider_type.strip(), registry=seed,
                           rtb_enabled=rtb_enabled, los_reading=los_reading)
    if registry or rooms is not None:
        config.platform_rooms_path = rooms  # only what was named: never the sample's rooms for your registry
    if fx is not None:
        config.fx_path = fx
    origin = ("your registry" if registry else "kept in the state" if (directory / "sandbox.sqlite3").exists()
              else "the sample registry")

    def announce(running: RunningSandbox) -> None:
        sb = running.sandbox
        if bookings:
            from workbench.sandbox.platform.availability_state import AvailabilityStore

            sb.own(AvailabilityStore).seed_bookings(bookings)
        console.print(f"[bold]Platform sandbox[/] (state in {running.state_dir})")
        names = ", ".join(f"{p.hotel_code} {p.name}".strip() for p in sb.registry.properties[:5])
        more = f" and {len(sb.registry.properties) - 5} more" if len(sb.registry.properties) > 5 else ""
        console.print(f"  properties    {len(sb.registry.properties)}: {names}{more} "
                      f"({origin})")
        console.print(f"  general host  {running.base_url}")
        console.print(f"  PCI host      {running.secure_base_url}")
        console.print(f"  CA bundle     {running.tls.ca_bundle}")
        if sb.tokens is not None:
            gone = BASIC_AUTH_SUNSET.gone(None, sb.today())
            console.print(f"  auth          tokens: {running.base_url}{EXCHANGE_PATH} (client id {sb.tokens.client_id},"
                          f" secret in connection.env; a token lives {sb.tokens.lifetime:g} s, 30 an hour); Basic "
                          f"{'refused' if gone else 'taken until'} (sunset on {BASIC_AUTH_SUNSET.sunset:%Y-%m-%d})")
        else:
            console.print(f"  account       {sb.username} (Basic, as the spec; password in connection.env)")
        console.print(f"  date          {sb.today()} (rates from 1 day before to 5 years ahead)")
        console.print(f"  limits        per {sb.limits.window:g} s: "
                      + ", ".join(f"{k}={v}" for k, v in sorted(sb.limits.limits.items())))
        if sb.faults.spec.active:
            console.print(f"  faults        {faults}")
        console.print(f"  provider type {sb.config.provider_type}"
                      + (" (content_api_rtb_enabled on)" if sb.config.rtb_enabled else ""))
        console.print(f"  calendar      {running.rates_csv_url}")
        console.print(f"  room types    {running.base_url}/_sandbox/rooms.csv (amenities.csv, subrooms.csv)")
        console.print(f"  content       {running.base_url}/_sandbox/properties.csv (parts: /_sandbox/content/<part>.csv)")
        console.print(f"  availability  {running.base_url}/_sandbox/availability.csv (LOS reading "
                      f"{sb.config.los_reading})")
        console.print(f"  request log   {running.requests_csv_url}")
        console.print(f"Client settings: [bold]{running.connection_file}[/] (load with "
                      "Settings.from_file(path)). Ctrl-C stops.")

    try:
        serve_sandbox(config, port, announce)
    except OSError as exc:
        _fail(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc} (try another --port, or --port 0)")
    except (ValueError, FileNotFoundError) as exc:
        _fail(str(exc))


def _bookings(path: Path | None, los_reading: str) -> str:
    """The text of ``--seed-bookings`` once checked (exit 2 naming the line that cannot be read), and the
    LOS reading checked."""
    from workbench.sandbox.platform.availability_rules import LOS_READINGS

    if los_reading not in LOS_READINGS:
        _fail(f"--los-reading `{los_reading}` is not one of {', '.join(LOS_READINGS)}")
    if path is None:
        return ""
    from workbench.sandbox.platform.availability_state import AvailabilityStore
    from workbench.sandbox.platform.store import Store

    text = path.read_text(encoding="utf-8-sig")
    try:
        AvailabilityStore(Store(None)).seed_bookings(text)  # read once where a mistake costs nothing
    except ValueError as exc:
        _fail(f"--seed-bookings `{path}`: {exc}")
    return text
