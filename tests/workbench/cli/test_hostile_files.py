"""Hostile files at the command line: a bomb workbook is one line and exit 2, never a Rust
backtrace or exit 134; a million-character cell is printed cut, once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loaders import crafted_workbooks as X

ROOT = Path(__file__).resolve().parents[3]


STRAY = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'


@pytest.mark.parametrize(("command", "dimension"), [(["validate", "rates"], "A1:XFD1048576"),
                                                    (["validate", "rates"], None),
                                                    (["validate", "rooms"], None)])
def test_a_bomb_workbook_exits_2_with_one_line(command: list[str], dimension: str | None, tmp_path: Path,
                                               workbench) -> None:  # noqa: ANN001 - the fixture
    path = X.workbook(tmp_path / "big.xlsx", X.sheet_xml(X.header_row() + STRAY, dimension))
    assert path.stat().st_size < 5_000
    done = workbench([*command, str(path)], cwd=tmp_path, env={"RUST_BACKTRACE": "1"})
    verb = "declares" if dimension else "has"
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.splitlines() == [
        f"Error: `big.xlsx` sheet `Rates` {verb} cells up to XFD1048576 (16,384 columns x 1,048,576 rows): more than "
        "this workbench reads (limit 50,000,000 cells, up to XFD1048576); remove the stray cell or save only the "
        "used range"]
    assert "Traceback" not in done.stdout + done.stderr


def test_a_million_character_cell_is_printed_cut(tmp_path: Path, workbench) -> None:  # noqa: ANN001 - the fixture
    """Each long cell cut (to 200 characters where a message quotes it, saying how long it was):
    kilobytes of output, not megabytes."""
    big = "x" + "a" * 999_999
    rows = ["HotelCode,InvTypeCode,RatePlanCode,Date,AmountAfterTax,CurrencyCode",
            f"1000004,401,8001,2026-12-01,{big},EUR",
            f"1000004,401,8001,{'2' * 1_000_000},95,EUR",
            f"1000004,401,8001,2026-12-03,95,{'E' * 1_000_000}"]
    (tmp_path / "long.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    done = workbench(["validate", "rates", "long.csv", "--as-of", "2026-11-01"], cwd=tmp_path)
    assert done.returncode == 1, done.stderr[-2000:]
    out = done.stdout + done.stderr
    assert len(out) < 20_000
    assert "… (1,000,000 characters)` is not a date" in out  # the message quoting the cell says how long it is
    assert "a" * 201 not in out and "2" * 201 not in out and "E" * 201 not in out


def test_clip_says_how_long_the_value_was() -> None:
    from workbench.cli.console import clip

    assert clip("a" * 1_000_000) == "a" * 200 + "… (1,000,000 characters)"
    assert clip("short") == "short" and clip(None) == "" and clip(float("nan"), "—") == "—"
    assert clip("b" * 300, limit=2_000) == "b" * 300


def test_notify_list_prints_a_long_field_cut(tmp_path: Path) -> None:
    """A notification's fields come from the internet: a million-character type is printed cut."""
    import json
    from datetime import UTC, datetime

    from typer.testing import CliRunner

    from workbench.cli.notify import notify_app
    from workbench.notify import NotifyConfig, NotifyService
    from workbench.notify.store import Notification

    kind = "T" * 1_000_000
    with NotifyService(tmp_path / "s", NotifyConfig()) as svc:
        body = json.dumps({"metadata": {"uuid": "u1", "type": kind, "payloadVersion": "1.0"}, "payload": {}})
        svc.store.save(Notification("u1", kind, "1.0", datetime.now(UTC).timestamp(), "cns", body)).result(10)
    result = CliRunner().invoke(notify_app, ["list", "--state-dir", str(tmp_path / "s")], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert len(result.output) < 20_000
    assert "characters)" in result.output  # "… (1,000,000 characters)", folded in its column of the table
