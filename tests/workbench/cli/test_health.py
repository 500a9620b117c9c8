"""`workbench health` as a scheduler and an analyst run it: exit codes, reports, letters."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tests.workbench.health.conftest import nights, write_journal
from workbench.cli import app
from workbench.paths import SAMPLES

runner = CliRunner()
COMMON = ["--as-of", "2026-12-01", "--registry", str(SAMPLES / "registry.xlsx")]


def _journal(tmp_path: Path) -> Path:
    """Lisbon (1000004) priced a year ahead; Kraków's double room (1000002, 201/6001) only to 10 January."""
    cells = (nights("2026-12-01", "2027-11-30", hotel=1000004, room="401", rate="8001")
             + nights("2026-12-01", "2027-11-30", hotel=1000004, room="402", rate="8001")
             + nights("2026-12-01", "2027-01-10", hotel=1000002, room="201", rate="6001"))
    return write_journal(tmp_path / "journal.sqlite", cells)


def test_exit_0_when_nothing_blocks_bookings(tmp_path: Path) -> None:
    result = runner.invoke(app, ["health", "--hotel", "1000004", "--journal", str(_journal(tmp_path)), *COMMON])
    assert result.exit_code == 0, result.output
    assert "1 property, 2 room-rates" in result.output and "0 now, 0 soon" in " ".join(result.output.split())
    assert "the registry stands in" in result.output


def test_exit_1_with_reports_and_letters(tmp_path: Path) -> None:
    reports = [tmp_path / "h.html", tmp_path / "h.xlsx", tmp_path / "h.csv"]
    args = ["health", "--hotel", "1000002", "--hotel", "1000004", "--journal", str(_journal(tmp_path)),
            "--letters", str(tmp_path / "letters"), "--horizon", "60", *COMMON]
    for r in reports:
        args += ["--report", str(r)]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "ending_soon" in result.output and "no longer bookable after 2027-01-10" in result.output
    assert "not_priced" in result.output  # Kraków's other room-rates
    assert all(r.stat().st_size > 0 for r in reports)
    assert sorted(p.name for p in (tmp_path / "letters").iterdir()) == ["1000002.html", "1000002.md",
                                                                       "1000004.html", "1000004.md"]
    assert "Pensjonat Wawel Krakow" in (tmp_path / "letters" / "1000002.md").read_text(encoding="utf-8")


def test_exit_2_when_the_input_cannot_be_used(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    bad_date = runner.invoke(app, ["health", "--as-of", "1st of May", "--journal", str(journal)])
    assert bad_date.exit_code == 2 and "YYYY-MM-DD" in bad_date.output
    bad_horizon = runner.invoke(app, ["health", "--horizon", "0", "--journal", str(journal)])
    assert bad_horizon.exit_code == 2 and "at least 1 night" in bad_horizon.output
    missing = runner.invoke(app, ["health", "--rates", str(tmp_path / "none.xlsx"), "--journal", str(journal)])
    assert missing.exit_code == 2 and "does not exist" in missing.output and "Traceback" not in missing.output
    write_journal(journal, nights("2026-12-01", "2026-12-02", hotel=1000004), target="https://other.test")
    two = runner.invoke(app, ["health", "--journal", str(journal), *COMMON])
    assert two.exit_code == 2 and "holds accepted prices of 2 platforms" in two.output
    (tmp_path / "x").mkdir()
    report = runner.invoke(app, ["health", "--hotel", "1000004", "--journal", str(_journal(tmp_path / "x")),
                                 "--report", str(tmp_path / "h.pdf"), *COMMON])
    assert report.exit_code == 2 and ".csv, .xlsx or .html" in report.output
