"""``workbench cars …``: search, static data, affiliate links and the local car-search sandbox.

Settings come from ``--env-file`` (e.g. the sandbox's ``demand.env``) or the environment / ``.env``.
Heavy imports happen inside the commands. Exit codes: 0 done, 1 the service failed, 2 bad input
or settings. The API key is never printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from workbench.wording import count

if TYPE_CHECKING:
    import pandas as pd

    from workbench.cars.links import LinkKind
    from workbench.cars.search import CarSearch
    from workbench.config import Settings

app = typer.Typer(help="Car rental search (spec E7): search across pages, static data, affiliate links, sandbox.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
sandbox_app = typer.Typer(help="The local car-search sandbox (demand host stand-in).", no_args_is_help=True)
app.add_typer(sandbox_app, name="sandbox")

ENV_FILE = typer.Option(None, "--env-file", help="Settings file, e.g. <state-dir>/demand.env from `cars sandbox serve`; "
                                                 "default: the environment and ./.env")
CACHE = typer.Option(None, "--cache", help="SQLite file for suppliers/depots/languages "
                                           "(default WORKBENCH_DEMAND_CACHE_PATH or .workbench/cars-static.sqlite)")
API_VERSION = typer.Option(None, "--api-version", help="Version path segment, e.g. 3.1 (default "
                                                       "WORKBENCH_DEMAND_API_VERSION or 3.1)")
DEFAULT_STATE_DIR = Path(".workbench") / "demand-sandbox"
OUT = typer.Option(None, "--out", help="Write the table to a .csv or .xlsx file")


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def _fail(message: str, code: int) -> typer.Exit:
    _console(stderr=True).print(f"[bold red]error:[/] {message}", markup=True, soft_wrap=True)
    return typer.Exit(code)


def _settings(env_file: Path | None, api_version: str | None) -> Settings:
    from workbench.config import Settings

    if env_file is not None:
        if not env_file.is_file():
            raise _fail(f"settings file `{env_file}` does not exist (start the sandbox with "
                        "`workbench cars sandbox serve --state-dir DIR` to create DIR/demand.env)", 2)
    try:
        settings = Settings.from_file(env_file) if env_file is not None else Settings.from_env()
    except ValueError as exc:  # e.g. a number setting that is not a number
        raise _fail(f"settings cannot be read: {exc}", 2) from None
    return settings.with_(demand_api_version=api_version) if api_version else settings


def _run(fn: Any) -> Any:
    """Run ``fn()``, turning car-search errors into a clear message and an exit code (no traceback)."""
    from workbench.cars.errors import CarsConfigError, CarsError, SearchParamsError

    try:
        return fn()
    except (SearchParamsError, CarsConfigError) as exc:
        raise _fail(str(exc), 2) from None
    except CarsError as exc:
        raise _fail(str(exc), 1) from None
    except ValueError as exc:  # e.g. a bad --out extension or link
        raise _fail(str(exc), 2) from None


def _session(env_file: Path | None, cache: Path | None, api_version: str | None) -> CarSearch:
    from workbench.cars.search import CarSearch

    settings = _settings(env_file, api_version)
    return _run(lambda: CarSearch(settings, cache_path=cache))


def _write(frame: pd.DataFrame, out: Path | None) -> None:
    if out is not None:
        from workbench.reports import write_table

        path = _run(lambda: write_table(frame, out))
        _console().print(f"wrote {count(len(frame), 'row')} to {path}", soft_wrap=True)


@app.command()
def search(
    country: Annotated[str, typer.Option("--country", help="Booker country, ISO 3166-1 alpha-2 (e.g. nl)")],
    language: Annotated[list[str], typer.Option("--language", help="IETF language tag; repeat for several (en-gb, nl)")],
    pickup: Annotated[str, typer.Option("--pickup", help="Pick-up date-time, local at the place: 2026-07-01T10:00")],
    dropoff: Annotated[str, typer.Option("--dropoff", help="Drop-off date-time, after the pick-up")],
    location: str | None = typer.Option(None, "--location", "--pickup-location",
                                        help="Pick-up place: airport (AMS), lat,lon (52.31,4.76) or depot:<id>; "
                                             "default: the booker country's main airport"),
    dropoff_location: str | None = typer.Option(None, "--dropoff-location", help="Drop-off place (default: pick-up place)"),
    driver_age: int = typer.Option(30, "--driver-age", help="Driver age in years (18..99)"),
    currency: str = typer.Option("EUR", "--currency", help="ISO 4217 currency for prices"),
    transmission: str | None = typer.Option(None, "--transmission", help="automatic or manual"),
    supplier: Annotated[list[str] | None, typer.Option("--supplier", help="Only these supplier ids (repeatable)")] = None,
    category: Annotated[list[str] | None, typer.Option("--category", help="Only these car categories (repeatable), "
                                                                          "e.g. compact")] = None,
    label: str | None = typer.Option(None, "--label", help="Campaign label added to every booking link"),
    max_pages: int = typer.Option(50, "--max-pages", help="Stop after this many pages (page cap)"),
    show: int = typer.Option(15, "--show", help="Print the N cheapest offers (0: none)"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar while paging"),
    refresh_static: bool = typer.Option(False, "--refresh-static", help="Refetch suppliers, depots and languages"),
    out: Path | None = OUT, env_file: Path | None = ENV_FILE, cache: Path | None = CACHE,
    api_version: str | None = API_VERSION,
) -> None:
    """Search cars across every page; print the cheapest and optionally write all to --out."""
    from workbench.cars.links import affiliate_links
    from workbench.cars.params import SearchParams, default_location

    if location is None:
        location = default_location(country)
        if location is None:
            raise _fail(f"give `--location` (airport code, lat,lon or depot:<id>): there is no default pick-up "
                        f"place for booker country `{country}`", 2)
        _console(stderr=True).print(f"no --location given: searching at {location}, the main airport for "
                                    f"booker country {country.lower()} (pass --location to choose)", soft_wrap=True)
    params = SearchParams(country=country, languages=tuple(language), pickup=pickup, dropoff=dropoff,
                          pickup_location=location, dropoff_location=dropoff_location, driver_age=driver_age,
                          currency=currency, transmission=transmission, suppliers=tuple(supplier or ()),
                          categories=tuple(category or ()))
    with _session(env_file, cache, api_version) as session:
        result = _run(lambda: session.search(params, max_pages=max_pages, progress=progress,
                                             refresh_static=refresh_static))
        frame = result.frame
        if label is not None:
            frame = _run(lambda: affiliate_links(frame, affiliate_id=session.client.connection.affiliate_id,
                                                 label=label))
    console = _console()
    priced = frame["price"].dropna()
    span = f", prices {priced.min():.2f}–{priced.max():.2f} {currency.upper()}" if len(priced) else ""
    console.print(f"{count(len(frame), 'offer')} from {count(result.pages, 'page')}, "
                  f"{count(frame['supplier_id'].nunique(), 'supplier')}{span}; "
                  f"{count(result.duplicates, 'duplicate')} dropped", soft_wrap=True)
    for w in result.warnings:
        _console(stderr=True).print(f"[yellow]warning:[/] {w}", markup=True, soft_wrap=True)
    if show and len(frame):
        print_offers(frame.sort_values("price", na_position="last").head(show))
    _write(frame, out)


def print_offers(frame: pd.DataFrame) -> None:
    from rich.table import Table

    table = Table(show_lines=False)
    for header in ("supplier", "vehicle", "category", "gearbox", "price", "currency", "pick-up desk"):
        table.add_column(header, justify="right" if header == "price" else "left")
    from workbench.reports.text import amount, text

    for row in frame.itertuples(index=False):
        currency = text(row.currency)
        price = amount(row.price_amount, currency or None) if text(row.price_amount) else ""
        table.add_row(*(text(v) for v in (row.supplier_name, row.vehicle, row.category, row.transmission)),
                      price, currency, text(row.pickup_depot_name))
    _console().print(table)


def _static_command(kind: str, refresh: bool, out: Path | None, env_file: Path | None, cache: Path | None,
                    api_version: str | None) -> None:
    with _session(env_file, cache, api_version) as session:
        frame = _run(lambda: getattr(session, kind)(refresh=refresh))
        when = session.cache.fetched_at(kind, session.source)
    stamp = when.isoformat(timespec="seconds") if when else "never"
    _console().print(f"{len(frame)} {kind} (fetched {stamp})")
    if out is None:
        shown = frame.astype(object).where(frame.notna(), "")  # blanks, never NaN / <NA>
        _console().print(shown.to_string(index=False, max_rows=60))
    _write(frame, out)


@app.command()
def languages(refresh: bool = typer.Option(False, "--refresh", help="Refetch now"), out: Path | None = OUT,
              env_file: Path | None = ENV_FILE, cache: Path | None = CACHE,
              api_version: str | None = API_VERSION) -> None:
    """Language tags the service supports (from /common/languages, cached)."""
    _static_command("languages", refresh, out, env_file, cache, api_version)


@app.command()
def suppliers(refresh: bool = typer.Option(False, "--refresh", help="Refetch now"), out: Path | None = OUT,
              env_file: Path | None = ENV_FILE, cache: Path | None = CACHE,
              api_version: str | None = API_VERSION) -> None:
    """Rental companies (cached; refetched when older than WORKBENCH_DEMAND_STATIC_MAX_AGE_HOURS)."""
    _static_command("suppliers", refresh, out, env_file, cache, api_version)


@app.command()
def depots(refresh: bool = typer.Option(False, "--refresh", help="Refetch now"), out: Path | None = OUT,
           env_file: Path | None = ENV_FILE, cache: Path | None = CACHE,
           api_version: str | None = API_VERSION) -> None:
    """Rental desks with their supplier and place (cached like suppliers)."""
    _static_command("depots", refresh, out, env_file, cache, api_version)


@app.command()
def link(
    url: str = typer.Argument(..., help="A result's url.web or url.app"),
    label: str | None = typer.Option(None, "--label", help="Campaign label to set"),
    affiliate_id: str | None = typer.Option(None, "--affiliate-id", help="Affiliate id to put in (default: keep)"),
    kind: str | None = typer.Option(None, "--kind", help="web (aid) or app (affiliate_id); default: guessed"),
) -> None:
    """Print URL with the affiliate id replaced and a label added; every other parameter kept."""
    from workbench.cars.links import with_affiliate

    if kind is None:
        kind = "app" if "affiliate_id=" in url or not url.lower().startswith(("http://", "https://")) else "web"
    typer.echo(_run(lambda: with_affiliate(url, kind=_link_kind(kind), affiliate_id=affiliate_id, label=label)))


def _link_kind(text: str) -> LinkKind:
    """``--kind`` as a link kind; anything else is a ``ValueError`` (worded as ``with_affiliate`` does)."""
    if text == "web":
        return "web"
    if text == "app":
        return "app"
    raise ValueError(f"link kind must be `web` or `app`, got `{text}`")


@sandbox_app.command("serve")
def sandbox_serve(
    port: int = typer.Option(0, "--port", help="Port on 127.0.0.1 (0: any free port; demand.env records it)"),
    state_dir: Annotated[Path, typer.Option("--state-dir", help="Keeps the test CA, the credentials and "
                                                               "demand.env")] = DEFAULT_STATE_DIR,
    page_size: int = typer.Option(25, "--page-size", help="Offers per search page"),
    rate_limit: int | None = typer.Option(None, "--rate-limit", help="Answer 429 past this many requests a minute"),
    pagination: str = typer.Option("token", "--pagination", help="token (metadata.next_page) or offset"),
) -> None:
    """Serve the car-search sandbox over HTTPS on loopback and write <state-dir>/demand.env."""
    import socket

    from workbench.sandbox.cars import create_demand_app, sandbox_config, write_env
    from workbench.serving import bind, ensure_test_ca, serve_forever

    if pagination not in ("token", "offset"):
        raise _fail("`--pagination` must be `token` or `offset`", 2)
    if page_size < 1 or (rate_limit is not None and rate_limit < 1):
        raise _fail("`--page-size` and `--rate-limit` must be at least 1", 2)
    tls = ensure_test_ca(state_dir)
    config = sandbox_config(state_dir, page_size=page_size, rate_limit_per_minute=rate_limit,
                            pagination=pagination)
    sock = bind(port)
    # accepted connections inherit this; without it each HTTPS answer waits ~40 ms for a delayed ACK
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    url = f"https://127.0.0.1:{sock.getsockname()[1]}"
    env = write_env(state_dir, url, tls.ca_bundle, config)
    typer.echo(f"car search sandbox on {url} (version {config.version}); settings in {env}")
    typer.echo(f"try: workbench cars search --country nl --language en-gb --location AMS "
               f"--pickup <date>T10:00 --dropoff <date>T10:00 --env-file {env}")
    serve_forever(create_demand_app(config), sock, tls)


if __name__ == "__main__":
    app()
