"""No ``nan``, ``None``, ``NaT`` or ``<NA>`` in anything people read: every report kind (validation
and push; HTML, XLSX, CSV) and every CLI summary, rendered from realistic results that have missing
values (requests that got no answer, so no HTTP status and no ruid; rows the loader could not read;
issues without a sheet or row; room types not created; notifications missing fields)."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from workbench.cli import console as cli_console
from workbench.cli.rooms import request_issues
from workbench.flows.rates import check_rates, push_rates
from workbench.flows.rooms import RESULT_COLUMNS, RoomsPushResult
from workbench.paths import SAMPLES
from workbench.platform.registry import fetch_registry
from workbench.reports.push import NothingSent, write_push_report
from workbench.reports.text import money, text
from workbench.reports.validation import ReportContext, write_report
from workbench.sandbox import run_sandbox
from workbench.transport.backoff import RetryPolicy

AS_OF = dt.date(2026, 12, 1)
MISSING = re.compile(r"\b(nan|NaN|None|NaT)\b|<NA>")


def tokens(text_: str) -> list[str]:
    return sorted({m.group(0) for m in MISSING.finditer(text_)})


def xlsx_text(path: Path) -> str:
    wb = load_workbook(path)
    parts = [str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None]
    parts += [c.comment.text for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.comment]
    return "\n".join(parts)


def rendered(path: Path) -> str:
    return xlsx_text(path) if path.suffix == ".xlsx" else path.read_text(encoding="utf-8-sig")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """A validation with blank cells, a push where a third of the requests got no answer and some
    got a 503, and the rows left out for errors."""
    tmp = tmp_path_factory.mktemp("missing")
    blanks = tmp / "blanks.csv"
    pd.DataFrame({"HotelCode": [1000001, "", 1000001, 1000001], "InvTypeCode": ["101", "101", "", "101"],
                  "RatePlanCode": ["5001", "5001", "5001", ""], "Date": ["2027-05-01", "", "2027-05-03", "2027-05-04"],
                  "AmountAfterTax": ["", "120", "", "12O"], "CurrencyCode": ["EUR", "", "EUR", "EUR"]}
                 ).to_csv(blanks, index=False)
    files = [SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv", blanks]
    with run_sandbox(tmp / "sb", today=AS_OF) as sb:
        registry = fetch_registry(sb.settings, [1000001, 1000002, 1000003, 1000004])
        check = check_rates(files, registry=registry, as_of=AS_OF)
        sb.sandbox.faults.configure("drop=0.35,5xx=0.25,seed=4")
        pushed = push_rates(check, sb.settings, journal=tmp / "j.sqlite", skip_invalid=True, progress=False,
                            client_options={"retry": RetryPolicy(max_attempts=1, base_seconds=0.01)})
        sb.sandbox.faults.configure("")
    rooms = pd.DataFrame([
        [1000001, "New", pd.NA, "1003", "Deluxe Twin Room", "Room", "failed", "connection dropped", pd.NA],
        [1000004, "New", pd.NA, pd.NA, pd.NA, "Room", "rejected", pd.NA, "ruid-1=="],
        [1000001, "Overlay", "101", pd.NA, "Standard Double Room", "Amenities", "success", "", "ruid-2=="],
    ], columns=RESULT_COLUMNS)
    rooms_result = RoomsPushResult(None, rooms, pd.DataFrame())  # type: ignore[arg-type]
    # issues without a row: the room-type requests the platform refused, as `push rooms --report` lists them
    issues = pd.concat([check.issues, request_issues(rooms_result, SAMPLES / "rooms.xlsx")], ignore_index=True)
    yield {"check": check, "pushed": pushed, "rooms": rooms_result, "issues": issues, "tmp": tmp}


def test_the_results_really_have_missing_values(results) -> None:
    requests, check = results["pushed"].requests, results["check"]
    assert requests["http_status"].isna().any() and requests["ruid"].isna().any()  # no answer at all
    assert requests["http_status"].notna().any() and (requests["outcome"] == "success").any()
    assert check.issues["value"].isna().any() or (check.issues["value"] == "").any()
    assert results["pushed"].not_sent["hotel"].isna().any()  # a row without a hotel was not sent
    assert results["issues"]["row"].isna().any()


@pytest.mark.parametrize("ext", ["html", "xlsx", "csv"])
def test_validation_reports(results, tmp_path: Path, ext: str) -> None:
    check = results["check"]
    ctx = ReportContext(title="Rates validation", files=check.files, as_of=check.as_of, rows_checked=len(check.frame))
    assert tokens(rendered(write_report(results["issues"], tmp_path / f"v.{ext}", ctx, rates=check.frame))) == []


@pytest.mark.parametrize("ext", ["html", "xlsx", "csv"])
@pytest.mark.parametrize("kind", ["pushed", "nothing sent"])
def test_push_reports(results, tmp_path: Path, ext: str, kind: str) -> None:
    check = results["check"]
    result = results["pushed"] if kind == "pushed" else NothingSent("12 errors block the push", check.not_sent(),
                                                                    check.files)
    out = rendered(write_push_report(result, tmp_path / f"p.{ext}"))
    assert tokens(out) == []
    if kind == "pushed" and ext == "html":
        assert "no answer" in out  # what a request without an HTTP status shows instead


def test_cli_summaries(results) -> None:
    check, pushed = results["check"], results["pushed"]
    with cli_console.console.capture() as captured:
        cli_console.print_issues(results["issues"], rows=len(check.frame), limit=len(results["issues"]))
        cli_console.print_push_result(pushed, limit=len(pushed.requests))
        cli_console.print_rooms_result(results["rooms"])
    out = captured.get()
    assert tokens(out) == [], out
    assert "no answer from the platform" in out and "ruid " in out  # what is known, said plainly
    assert "(new room type)" in out


def test_cli_lines_of_the_notification_inbox(tmp_path: Path) -> None:
    from workbench.cli.notify import notify_app
    from workbench.notify import NotifyService
    from workbench.notify.store import Notification

    state = tmp_path / "s"
    now = datetime.now(UTC)
    with NotifyService(state) as svc:
        for i, (kind, payload) in enumerate([("REQUEST_TO_BOOK", {"request_id": "R-1", "hotel_id": 5}),
                                             ("PAYOUT_UPDATE", {}),
                                             ("REQUEST_TO_BOOK", {"request_id": "R-2", "checkin": (
                                                 now + timedelta(days=9)).date().isoformat()})]):
            body = json.dumps({"metadata": {"uuid": f"u{i}", "type": kind}, "payload": payload})
            svc.store.save(Notification(f"u{i}", kind, None, now.timestamp(), None, body)).result(10)
        svc.keyring.rotate()
    runner = CliRunner()
    for args in (["list"], ["requests", "--all"], ["keys", "list"], ["credentials", "list"], ["alerts"],
                 ["dead-letters"]):
        result = runner.invoke(notify_app, [*args, "--state-dir", str(state)], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        assert tokens(result.output) == [], result.output


@pytest.mark.parametrize(("value", "shown"), [
    (None, ""), (float("nan"), ""), (pd.NA, ""), (pd.NaT, ""), ("", ""), (3.0, "3"), (2.5, "2.5"), ("x", "x"),
    (pd.Timestamp("2027-01-02"), "2027-01-02"), (True, "yes"),
])
def test_text_of_a_value(value: object, shown: str) -> None:
    assert text(value) == shown


@pytest.mark.parametrize(("amounts", "currency", "shown"), [
    ([139.0, 169], "EUR", "139.00, 169.00 EUR"),
    (75000, "EUR", "75,000.00 EUR"),
    (9000, "JPY", "9,000 JPY"),
    (9000.5, "JPY", "9,000.5 JPY"),   # a fraction the currency does not have stays visible
    ([None, 12.5], "PLN", "—, 12.50 PLN"),
])
def test_prices_print_as_money(amounts: object, currency: str, shown: str) -> None:
    assert money(amounts, currency) == shown


def test_cli_lines_of_car_offers(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli.cars import print_offers

    offers = pd.DataFrame({"supplier_name": ["Hertz", pd.NA], "vehicle": ["Fiat 500", None],
                           "category": [pd.NA, "Compact"], "transmission": ["Manual", float("nan")],
                           "price_amount": [129.5, 9000.0], "currency": ["EUR", "JPY"],
                           "pickup_depot_name": [None, "Narita T1"]})
    print_offers(offers)
    out = capsys.readouterr().out
    assert tokens(out) == [], out
    assert "129.50" in out and "9,000" in out and "9,000.00" not in out


def test_the_line_of_a_request_that_got_no_answer() -> None:
    """What the push's progress bar and platform-read errors show for a request without an answer."""
    from workbench.transport.result import Outcome, Result

    lost = Result("OTA_HotelRateAmountNotif", Outcome.FAILED, None, None, None, 3, (), error="connection dropped")
    line = lost.summary()
    assert tokens(line) == [] and "HTTP None" not in line and "ruid" not in line
    assert line == "OTA_HotelRateAmountNotif: failed (no answer, 3 attempts, connection dropped)"
    answered = Result("roomrates", Outcome.REJECTED, 404, None, "abc==", 1, ())
    assert answered.summary() == "roomrates: rejected (HTTP 404, 1 attempt; ruid abc==)"
