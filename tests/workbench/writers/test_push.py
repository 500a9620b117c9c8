"""Live pushes to the sandbox over real HTTPS on loopback: results, deltas, faults, kill -9."""

from __future__ import annotations

import datetime as dt
import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import numpy as np
import pandas as pd
import pytest

from loaders import read_registry
from workbench.flows.rates import check_rates, push_rates
from workbench.paths import SAMPLES
from workbench.platform.registry import fetch_registry
from workbench.sandbox import run_sandbox

AS_OF = dt.date(2026, 12, 1)
ROOM_RATES = [(1000001, "101", "5001"), (1000001, "102", "5001"), (1000002, "201", "6001"),
              (1000002, "202", "6001"), (1000004, "401", "8001"), (1000004, "402", "8001")]
CURRENCY = {1000001: "EUR", 1000002: "PLN", 1000004: "EUR"}


def year_calendar(path: Path, seed: int = 0, change: float = 0.0, base: pd.DataFrame | None = None) -> pd.DataFrame:
    """A year of nightly prices for six room-rates (weekday/weekend seasons with noise), as CSV."""
    rng = np.random.default_rng(seed)
    if base is None:
        rows = []
        for hotel, room, rate in ROOM_RATES:
            for day in pd.date_range("2027-01-01", "2027-12-31"):
                price = 100 + 20 * (day.month in (6, 7, 8)) + 30 * (day.weekday() in (4, 5))
                price += int(rng.integers(0, 3)) * 5 if rng.random() < 0.1 else 0
                rows.append([hotel, room, rate, day.date().isoformat(), f"{price:.2f}", CURRENCY[hotel]])
        base = pd.DataFrame(rows, columns=["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax",
                                           "CurrencyCode"])
    frame = base.copy()
    if change:
        idx = rng.choice(len(frame), size=int(len(frame) * change), replace=False)
        frame.loc[idx, "AmountAfterTax"] = (frame.loc[idx, "AmountAfterTax"].astype(float) + 7).map("{:.2f}".format)
    frame.to_csv(path, index=False)
    return frame


def sandbox_calendar(sb) -> pd.DataFrame:
    s = sb.settings
    r = httpx.get(sb.rates_csv_url, verify=str(sb.tls.ca_bundle), auth=(s.username, s.password.reveal()))
    r.raise_for_status()
    return pd.read_csv(io.BytesIO(r.content), dtype={"InvTypeCode": str, "RatePlanCode": str})


def sandbox_requests(sb) -> pd.DataFrame:
    s = sb.settings
    r = httpx.get(sb.requests_csv_url, verify=str(sb.tls.ca_bundle), auth=(s.username, s.password.reveal()))
    r.raise_for_status()
    return pd.read_csv(io.BytesIO(r.content))


def cells_of(frame: pd.DataFrame) -> set[tuple]:
    return {(int(h), str(r), str(p), str(d)[:10], float(a)) for h, r, p, d, a in
            frame[["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax"]].itertuples(index=False)}


def calendar_cells(cal: pd.DataFrame) -> set[tuple]:
    return {(int(h), str(r), str(p), str(d)[:10], float(a)) for h, r, p, d, a in
            cal[["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "Amount"]].itertuples(index=False)}


def test_push_samples_applies_every_valid_price_and_traces_rows(tmp_path: Path) -> None:
    with run_sandbox(tmp_path / "sb", today=AS_OF) as sb:
        platform = fetch_registry(sb.settings, [1000001, 1000002, 1000003, 1000004])
        assert platform.room_rates.query("rate_plan_code == '5002'")["is_child_rate"].all()
        assert platform.room_rates["follows_price"].isna().all()  # the platform never says
        registry = read_registry(SAMPLES / "registry.xlsx").merge(platform)  # the workbook does
        check = check_rates([SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"], registry=registry, as_of=AS_OF)
        assert "not_checked" not in set(check.issues["rule"])
        result = push_rates(check, sb.settings, journal=tmp_path / "j.sqlite", skip_invalid=True, progress=False)
        assert result.ok and len(result.requests) > 10
        assert result.requests["ruid"].notna().all() and (result.requests["http_status"] == 200).all()
        valid = check.valid_frame()
        got = sandbox_calendar(sb)
        assert len(got) == len(valid) == result.cells_changed
        assert set(result.rows["source"]) == {"rates.xlsx", "lisbon_seasons.csv"}
        sent = result.rows[result.rows["outcome"] != "not sent"]
        assert (sent["outcome"] == "success").all() and sent["ruid"].notna().all()
        held = result.rows[result.rows["outcome"] == "not sent"]  # repeats: the first occurrence was sent
        assert set(held["codes"]) == {"duplicate_key"}
        skipped = set(result.not_sent["codes"].str.split(", ").explode())  # rows left out for errors
        assert skipped >= {"read_only_rate", "child_rate_follows_price"}


def test_deltas_send_nothing_twice_and_only_what_changed(tmp_path: Path) -> None:
    first = year_calendar(tmp_path / "prices.csv")
    with run_sandbox(tmp_path / "sb", today=AS_OF) as sb:
        j = tmp_path / "j.sqlite"
        check = check_rates(tmp_path / "prices.csv", as_of=AS_OF)
        r1 = push_rates(check, sb.settings, journal=j, progress=False)
        assert r1.ok and r1.cells_changed == len(first) == 6 * 365
        again = push_rates(check, sb.settings, journal=j, progress=False)
        assert again.requests.empty and again.cells_changed == 0
        changed = year_calendar(tmp_path / "prices.csv", seed=1, change=0.01, base=first)
        r2 = push_rates(check_rates(tmp_path / "prices.csv", as_of=AS_OF), sb.settings, journal=j, progress=False)
        assert r2.ok and r2.cells_changed == int(len(first) * 0.01)
        assert r2.requests["cells"].sum() <= 0.02 * len(first)
        assert calendar_cells(sandbox_calendar(sb)) == cells_of(changed)
        full = push_rates(check_rates(tmp_path / "prices.csv", as_of=AS_OF), sb.settings, journal=j, full=True,
                          progress=False)
        assert full.cells_changed == len(first)


def test_with_20_percent_faults_the_calendar_still_equals_the_intended_one(tmp_path: Path) -> None:
    intended = year_calendar(tmp_path / "prices.csv", seed=3)
    faults = "5xx=0.08,429=0.06x2,drop=0.06,seed=11"
    with run_sandbox(tmp_path / "sb", today=AS_OF, faults=faults) as sb:
        from workbench.transport import RetryPolicy

        check = check_rates(tmp_path / "prices.csv", as_of=AS_OF)
        result = push_rates(check, sb.settings, journal=tmp_path / "j.sqlite", progress=False,
                            client_options={"retry": RetryPolicy(max_attempts=10, base_seconds=0.05, cap_seconds=0.5)})
        assert result.ok, result.requests[["hotel", "month", "outcome", "error"]]
        assert result.requests["attempts"].max() > 1  # faults did happen
        log = sandbox_requests(sb)
        assert (log["status"] != 200).sum() > 0
        assert calendar_cells(sandbox_calendar(sb)) == cells_of(intended)


@pytest.mark.slow
def test_kill_9_mid_push_then_resume_completes_without_resending_successes(tmp_path: Path) -> None:
    intended = year_calendar(tmp_path / "prices.csv", seed=5)
    journal = tmp_path / "journal.sqlite"
    exe = Path(sys.executable).with_name("workbench")
    with run_sandbox(tmp_path / "sb", today=AS_OF, faults="latency=400ms,seed=2") as sb:
        env_file = tmp_path / "push.env"
        env_file.write_text(sb.connection_file.read_text() + "WORKBENCH_MAX_IN_FLIGHT=4\n")
        cmd = [str(exe), "push", "rates", str(tmp_path / "prices.csv"), "--as-of", AS_OF.isoformat(),
               "--env-file", str(env_file), "--journal", str(journal)]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 120
        done = 0
        while time.monotonic() < deadline:
            if journal.exists():
                with sqlite3.connect(journal) as db:
                    try:
                        done = db.execute("SELECT count(*) FROM requests WHERE status='success'").fetchone()[0]
                    except sqlite3.OperationalError:
                        done = 0
            if done >= 5:
                break
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        with sqlite3.connect(journal) as db:
            first_ok = {(h, m) for h, m in db.execute(
                "SELECT hotel_code, month FROM requests WHERE run_id=1 AND status='success'")}
            total = db.execute("SELECT count(*) FROM requests WHERE run_id=1").fetchone()[0]
        assert 5 <= len(first_ok) < total, "the kill should land mid-push"
        again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stdout + again.stderr
        with sqlite3.connect(journal) as db:
            resent = {(h, m) for h, m in db.execute(
                "SELECT hotel_code, month FROM requests WHERE run_id=2")}
            interrupted = db.execute("SELECT count(*) FROM requests WHERE run_id=1 AND status='interrupted'"
                                     ).fetchone()[0]
        assert not (first_ok & resent), "a request recorded as succeeded was sent again"
        assert len(first_ok) + len(resent) == total and interrupted == total - len(first_ok)
        assert calendar_cells(sandbox_calendar(sb)) == cells_of(intended)
        log = sandbox_requests(sb)
        applied = log[(log["endpoint"].str.contains("RateAmountNotif")) & (log["status"] == 200)]
        assert len(applied) <= total + 4  # at most the requests in flight at the kill were applied twice
