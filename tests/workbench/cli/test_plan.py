"""``workbench push rates FILE --plan``: sends nothing, writes no journal, shows and reports the plan."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from workbench.flows.rates import check_rates
from workbench.writers.deltas import cell_keys
from workbench.writers.journal import Journal

TARGET = "https://platform.test"


def write_sheet(path: Path, prices: dict[str, float]) -> Path:
    pd.DataFrame({"HotelCode": 1000001, "InvTypeCode": "101", "RatePlanCode": "5001", "Date": list(prices),
                  "AmountAfterTax": [f"{p:.2f}" for p in prices.values()], "CurrencyCode": "EUR"}).to_csv(path,
                                                                                                       index=False)
    return path


def march(price: float, **special: float) -> dict[str, float]:
    days = {f"{d:%Y-%m-%d}": price for d in pd.date_range("2027-03-01", "2027-03-31")}
    return {**days, **special}


def seed_journal(path: Path, sheet: Path) -> None:
    keys = cell_keys(check_rates([sheet], as_of="2026-12-01").frame)
    with Journal(path) as j, j._tx() as db:
        db.executemany("INSERT INTO accepted(target, hotel_code, inv_type_code, rate_plan_code, date, guests, price) "
                       "VALUES (?,?,?,?,?,?,?)", ((TARGET, *t) for t in keys[[
                           "hotel_code", "inv_type_code", "rate_plan_code", "date", "guests", "price"]]
                           .itertuples(index=False, name=None)))


def plan_args(sheet: Path, journal: Path, *extra: str) -> list[str]:
    return ["push", "rates", str(sheet), "--plan", "--journal", str(journal), "--as-of", "2026-12-01",
            "--no-fetch-registry", *extra]


def test_plan_shows_the_changes_and_writes_its_reports(tmp_path: Path, workbench) -> None:
    journal = tmp_path / "journal.sqlite"
    seed_journal(journal, write_sheet(tmp_path / "old.csv", march(100.0)))
    new = write_sheet(tmp_path / "new.csv", march(100.0, **{"2027-03-05": 160.0, "2027-03-06": 150.0}))
    before = journal.read_bytes()
    done = workbench(plan_args(new, journal, "--report", "plan.csv", "--report", "plan.html", "--report",
                               "plan.xlsx"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = " ".join(done.stdout.split())
    assert ("Plan: 0 added, 2 changed, 29 unchanged, 0 removed from the sheet; 2 prices to send in 1 request "
            "with 2 messages") in out
    assert "room 101 / rate 5001: 100.00 → 160.00 EUR (+60.0%), 5 Mar 2027" in out
    assert "room 101 / rate 5001: 100.00 → 150.00 EUR (+50.0%), 6 Mar 2027" in out
    # 60% is a price jump; exactly 50% is not
    assert out.count("price_jump") == 1 and "160.00 EUR is 60.0% above 100.00 EUR" in out
    assert journal.read_bytes() == before   # nothing sent, nothing written
    lines = pd.read_csv(tmp_path / "plan.csv")
    assert lines["text"].tolist() == ["room 101 / rate 5001: 100.00 → 160.00 EUR (+60.0%), 5 Mar 2027",
                                      "room 101 / rate 5001: 100.00 → 150.00 EUR (+50.0%), 6 Mar 2027"]
    assert "Plan (nothing sent)" in (tmp_path / "plan.html").read_text(encoding="utf-8")
    book = pd.read_excel(tmp_path / "plan.xlsx", sheet_name=None, engine="openpyxl")
    assert list(book) == ["Plan", "Room-rates", "Changes", "Cells", "Warnings"]
    assert book["Warnings"][["row", "column", "rule"]].values.tolist() == [[6, "AmountAfterTax", "price_jump"]]
    assert book["Room-rates"][["changed", "unchanged"]].values.tolist() == [[2, 29]]


def test_no_price_jumps_switches_the_warnings_off(tmp_path: Path, workbench) -> None:
    journal = tmp_path / "journal.sqlite"
    seed_journal(journal, write_sheet(tmp_path / "old.csv", march(100.0)))
    new = write_sheet(tmp_path / "new.csv", march(100.0, **{"2027-03-05": 1600.0}))
    done = workbench(plan_args(new, journal, "--no-price-jumps"), cwd=tmp_path)
    assert done.returncode == 0 and "price_jump" not in done.stdout and "price_outlier" not in done.stdout
    warned = workbench(plan_args(new, journal), cwd=tmp_path)
    assert "price_jump" in warned.stdout and "price_outlier" in warned.stdout


def test_per_property_table_from_the_settings(tmp_path: Path, workbench) -> None:
    journal = tmp_path / "journal.sqlite"
    seed_journal(journal, write_sheet(tmp_path / "old.csv", march(100.0)))
    new = write_sheet(tmp_path / "new.csv", march(100.0, **{"2027-03-05": 120.0}))
    (tmp_path / "jumps.csv").write_text("HotelCode,PriceJumpShare\n1000001,10%\n", encoding="utf-8")
    done = workbench(plan_args(new, journal), cwd=tmp_path, env={"WORKBENCH_PRICE_JUMPS_FILE": "jumps.csv"})
    assert done.returncode == 0 and "20.0% above 100.00 EUR" in " ".join(done.stdout.split())
    missing = workbench(plan_args(new, journal), cwd=tmp_path, env={"WORKBENCH_PRICE_JUMPS_FILE": "nope.csv"})
    assert missing.returncode == 2 and "WORKBENCH_PRICE_JUMPS_FILE" in missing.stdout + missing.stderr


def test_plan_with_errors_exits_1_and_says_a_push_stops(tmp_path: Path, workbench) -> None:
    new = write_sheet(tmp_path / "new.csv", march(100.0, **{"2027-03-05": -1.0}))
    done = workbench(plan_args(new, tmp_path / "none.sqlite", "--report", "plan.csv"), cwd=tmp_path)
    assert done.returncode == 1
    out = " ".join(done.stdout.split())
    assert "A push stops here: 1 error blocks the push" in out and "30 added" in out
    assert not (tmp_path / "none.sqlite").exists() and (tmp_path / "plan.csv").exists()
    assert "every price counts as added" in out


def test_plan_report_extension_is_checked_first(tmp_path: Path, workbench) -> None:
    new = write_sheet(tmp_path / "new.csv", march(100.0))
    done = workbench(plan_args(new, tmp_path / "j.sqlite", "--report", "plan.pdf"), cwd=tmp_path)
    assert done.returncode == 2 and "plan.pdf" in done.stdout + done.stderr


def test_a_live_push_starts_with_its_plan_and_marks_price_jumps(tmp_path: Path) -> None:
    import datetime as dt

    from typer.testing import CliRunner

    from workbench.cli import app
    from workbench.paths import SAMPLES
    from workbench.sandbox import run_sandbox

    runner = CliRunner()
    journal = tmp_path / "journal.sqlite"
    old = write_sheet(tmp_path / "old.csv", march(100.0))
    new = write_sheet(tmp_path / "new.csv", march(100.0, **{"2027-03-05": 160.0}))
    with run_sandbox(tmp_path / "sb", today=dt.date(2026, 12, 1)) as sb:
        common = ["--as-of", "2026-12-01", "--env-file", str(sb.connection_file), "--journal", str(journal),
                  "--registry", str(SAMPLES / "registry.xlsx")]
        first = runner.invoke(app, ["push", "rates", str(old), *common])
        assert first.exit_code == 0, first.output
        assert "Plan: 31 added, 0 changed, 0 unchanged" in " ".join(first.output.split())
        planned = runner.invoke(app, ["push", "rates", str(new), *common, "--plan"])
        assert "Plan: 0 added, 1 changed, 30 unchanged" in " ".join(planned.output.split())
        second = runner.invoke(app, ["push", "rates", str(new), *common, "--report", str(tmp_path / "push.csv")])
    out = " ".join(second.output.split())
    assert second.exit_code == 0, second.output
    assert "Plan: 0 added, 1 changed, 30 unchanged, 0 removed from the sheet; 1 price to send in 1 request" in out
    assert out.index("Plan: 0 added") < out.index("1 request: 1 success")
    report = pd.read_csv(tmp_path / "push.csv", encoding="utf-8-sig")
    jumped = report[report["codes"].fillna("").str.contains("price_jump")]
    assert jumped[["row", "column", "outcome", "severity"]].values.tolist() == [[6, "AmountAfterTax", "success",
                                                                                 "warning"]]
    assert "160.00 EUR is 60.0% above 100.00 EUR" in jumped["message"].iloc[0]
