"""Over real HTTPS on loopback (uvicorn via workbench.serving): Python API, retries, TLS trust and the CLI."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from workbench.cars import CarsConnectionError, CarSearch, SearchParams, search_cars
from workbench.cli.cars import app as cars_app
from workbench.config import Settings
from workbench.sandbox.cars import DemandSandbox, create_demand_app, sandbox_config, write_env
from workbench.serving import RunningServer, ensure_test_ca, serve_in_thread
from workbench.transport.backoff import RetryPolicy

PICKUP = (datetime.now() + timedelta(days=30)).replace(hour=10, minute=0, second=0, microsecond=0)
DROPOFF = PICKUP + timedelta(days=5)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, DemandSandbox, Path]]:
    state = tmp_path_factory.mktemp("demand")
    tls = ensure_test_ca(state)
    config = sandbox_config(state, page_size=15)
    app = create_demand_app(config)
    with serve_in_thread(app, tls) as server:
        env = write_env(state, server.url, tls.ca_bundle, config)
        yield server, app.state.sandbox, env


def test_search_cars_over_https_returns_every_offer_with_names_and_labels(served: Any, tmp_path: Path) -> None:
    server, sandbox, env = served
    settings = Settings.from_file(env)
    frame = search_cars(country="nl", languages=["en-gb", "nl"], pickup=PICKUP, dropoff=DROPOFF, location="AMS",
                        settings=settings, cache_path=tmp_path / "static.sqlite", label="summer & more",
                        progress=False)
    truth = sandbox._offers(SearchParams(country="nl", languages=("en-gb", "nl"), pickup=PICKUP, dropoff=DROPOFF,
                                         pickup_location="AMS").to_body())
    assert frame["offer_id"].tolist() == [o["id"] for o in truth]
    assert frame.attrs["pages"] == -(-len(truth) // 15) > 1 and frame.attrs["truncated"] is False
    assert frame["supplier_name"].notna().all() and frame["dropoff_depot_name"].notna().all()
    assert frame["url_web"].str.contains(f"aid={settings.affiliate_id}&").all()
    assert frame["url_web"].str.endswith("&label=summer%20%26%20more").all()
    assert frame["url_app"].str.contains(f"affiliate_id={settings.affiliate_id}&").all()


def test_server_errors_are_retried_over_the_wire(served: Any, tmp_path: Path) -> None:
    _, sandbox, env = served
    slept: list[float] = []
    with CarSearch(Settings.from_file(env), cache_path=tmp_path / "s.sqlite", sleep=slept.append) as session:
        session.languages()
        sandbox.inject_faults(503, 502, retry_after=1)
        result = session.search(SearchParams(country="nl", languages=("en-gb",), pickup=PICKUP, dropoff=DROPOFF,
                                             pickup_location="RTM"))
    assert len(result.frame) > 0 and len(slept) == 2 and slept[0] >= 1


def test_an_untrusted_certificate_is_a_connection_error(served: Any, tmp_path: Path) -> None:
    _, _, env = served
    untrusting = Settings.from_file(env).with_(demand_ca_bundle="")
    with CarSearch(untrusting, cache_path=tmp_path / "s.sqlite", retry=RetryPolicy(max_attempts=1)) as session:
        with pytest.raises(CarsConnectionError, match="CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
            session.languages()


def test_cli_search_writes_csv_and_never_prints_the_key(served: Any, tmp_path: Path) -> None:
    _, sandbox, env = served
    key = Settings.from_file(env).api_key.reveal()
    out = tmp_path / "results.csv"
    result = CliRunner().invoke(cars_app, [
        "search", "--country", "nl", "--language", "en-gb", "--language", "nl", "--pickup", PICKUP.isoformat(),
        "--dropoff", DROPOFF.isoformat(), "--location", "AMS", "--out", str(out), "--env-file", str(env),
        "--cache", str(tmp_path / "s.sqlite"), "--label", "q3-newsletter", "--no-progress", "--show", "3"])
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(out, dtype=str, encoding="utf-8-sig")
    assert frame["offer_id"].is_unique and len(frame) > 15
    assert frame["url_web"].str.endswith("&label=q3-newsletter").all()
    assert frame["price_amount"].str.fullmatch(r"\d+\.\d{1,2}").all()
    assert f"{len(frame)} offers from" in result.output and "Amsterdam" in result.output
    assert key not in result.output and key not in out.read_text(encoding="utf-8-sig")


def test_cli_defaults_the_location_and_says_so(served: Any, tmp_path: Path) -> None:
    _, _, env = served
    result = CliRunner().invoke(cars_app, [
        "search", "--country", "nl", "--language", "en-gb", "--pickup", PICKUP.isoformat(), "--dropoff",
        DROPOFF.isoformat(), "--env-file", str(env), "--cache", str(tmp_path / "s.sqlite"), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "no --location given: searching at AMS" in result.output


def test_cli_refuses_an_unknown_output_format_after_saying_what_it_found(served: Any, tmp_path: Path) -> None:
    _, _, env = served
    result = CliRunner().invoke(cars_app, [
        "search", "--country", "nl", "--language", "en-gb", "--pickup", PICKUP.isoformat(), "--dropoff",
        DROPOFF.isoformat(), "--location", "AMS", "--env-file", str(env), "--cache", str(tmp_path / "s.sqlite"),
        "--no-progress", "--out", str(tmp_path / "results.txt")])
    assert result.exit_code == 2 and "use a file name ending in .csv or .xlsx" in result.output
    assert "Traceback" not in result.output


def test_cli_static_lists_and_xlsx(served: Any, tmp_path: Path) -> None:
    _, _, env = served
    runner, cache = CliRunner(), str(tmp_path / "s.sqlite")
    languages = runner.invoke(cars_app, ["languages", "--env-file", str(env), "--cache", cache])
    assert languages.exit_code == 0 and "en-gb" in languages.output and "languages (fetched" in languages.output
    out = tmp_path / "depots.xlsx"
    depots = runner.invoke(cars_app, ["depots", "--env-file", str(env), "--cache", cache, "--out", str(out)])
    assert depots.exit_code == 0, depots.output
    frame = pd.read_excel(out, engine="openpyxl")
    assert {"depot_id", "depot_name", "supplier_id", "airport"} <= set(frame.columns) and frame["depot_id"].is_unique


def test_sandbox_serve_command_writes_demand_env_that_search_uses(tmp_path: Path) -> None:
    state = tmp_path / "sbx"
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli.cars", "sandbox", "serve", "--port", "0",
                             "--state-dir", str(state), "--page-size", "10"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        env = state / "demand.env"
        deadline = time.monotonic() + 60
        while not env.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert env.exists(), "sandbox did not start"
        assert oct(env.stat().st_mode & 0o777) == "0o600"
        settings = Settings.from_file(env)
        assert settings.demand_base_url.startswith("https://127.0.0.1:") and settings.api_key
        for _ in range(100):  # the env file is written just before the server accepts connections
            result = CliRunner().invoke(cars_app, [
                "search", "--country", "nl", "--language", "en-gb", "--pickup", PICKUP.isoformat(),
                "--dropoff", DROPOFF.isoformat(), "--location", "EDI", "--env-file", str(env),
                "--cache", str(tmp_path / "s.sqlite"), "--no-progress", "--show", "0"])
            if "could not reach" not in result.output:
                break
            time.sleep(0.1)
        assert result.exit_code == 0, result.output
        assert "offers from" in result.output
        assert settings.api_key.reveal() not in result.output
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    assert settings.api_key.reveal() not in (proc.stdout.read() if proc.stdout else "")
