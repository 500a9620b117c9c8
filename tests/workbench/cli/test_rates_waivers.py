"""``--waivers FILE`` on the rates commands: waived warnings count nowhere, a bad file exits 2 naming its cell."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from workbench.cli import app

runner = CliRunner()
HEADER = ["rule", "property", "room", "rate", "start", "end", "reason", "who", "expires"]


def rates(write_csv) -> Path:
    """Clean prices but for one repeated night (a duplicate_key warning) and one negative price (an error)."""
    rows = [["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]]
    rows += [[1, "A", "R", f"2027-01-{d:02d}", "100", "EUR"] for d in range(1, 5)]
    rows += [[1, "A", "R", "2027-01-02", "120", "EUR"], [1, "B", "R", "2027-01-03", "-1", "EUR"]]
    return write_csv(rows)


def test_validate_counts_waived_warnings_nowhere_and_reports_them(write_csv, tmp_path: Path) -> None:
    prices = rates(write_csv)
    waivers = write_csv([HEADER, ["duplicate_key", 1, "A", "R", "", "", "known repeat", "Ana", "2027-06-30"],
                         ["price_negative", "", "", "", "", "", "wrong", "Bob", "2027-06-30"]], name="waivers.csv")
    plain = runner.invoke(app, ["validate", "rates", str(prices), "--as-of", "2026-12-01"])
    report = tmp_path / "r.csv"
    waived = runner.invoke(app, ["validate", "rates", str(prices), "--as-of", "2026-12-01", "--waivers", str(waivers),
                                 "--report", str(report)])
    assert plain.exit_code == waived.exit_code == 1  # the error stays: errors are never waived
    n_plain = int(re.search(r"errors?, (\d+) warnings?", plain.output)[1])  # type: ignore[index]
    n_waived = int(re.search(r"errors?, (\d+) warnings?", waived.output)[1])  # type: ignore[index]
    assert n_waived == n_plain - 1 + 1  # the repeat is waived; the waiver on the error is itself a warning
    assert "1 warning waived by waivers.csv" in waived.output
    back = pd.read_csv(report, keep_default_na=False, encoding="utf-8-sig")
    assert back.loc[back["waived"] == "yes", "rule"].tolist() == ["duplicate_key"]
    assert "waiver_on_error" in set(back["rule"]) and (back["rule"] == "price_negative").sum() == 1


def test_a_bad_waivers_file_exits_2_naming_the_cell(write_csv) -> None:
    waivers = write_csv([HEADER, ["duplicate_key", "one", "", "", "", "", "r", "Ana", "2027-06-30"]], name="w.csv")
    for command in (["validate", "rates"], ["push", "rates", "--dry-run", "out"]):
        result = runner.invoke(app, [*command, str(rates(write_csv)), "--as-of", "2026-12-01", "--waivers",
                                     str(waivers)])
        assert result.exit_code == 2, result.output
        assert "`w.csv` row 2, column `property`: `one` is not a property id" in result.output
        assert "Traceback" not in result.output
