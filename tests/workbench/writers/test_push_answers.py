"""What the platform answers reaches the right rows and cells (issue 10, findings 1, 7 and 8).

The sandbox is mounted in-process (``httpx.ASGITransport``): the same app as over HTTPS, answering
in the shapes the platform publishes (``RecordID`` = the message's ``LocatorID``, B.XML ``<error>``).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import sqlite3
from pathlib import Path

import httpx
import pandas as pd
import pytest

from workbench.config import Secret, Settings
from workbench.flows.rates import check_rates, push_rates
from workbench.platform.registry import fetch_registry
from workbench.sandbox import SandboxConfig, create_app
from workbench.writers.attribution import field_of, parse_details, targets
from workbench.writers.journal import Journal
from workbench.writers.push import plan, rows_frame

AS_OF = dt.date(2026, 12, 1)
LONG = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]
SNAKE = ["hotel_id", "room_id", "rate_plan_id", "date", "price", "currency"]


class Box:
    """An in-process sandbox and the settings and client options that reach it."""

    def __init__(self) -> None:
        self.app = create_app(SandboxConfig(password="pw", today=AS_OF))
        self.settings = Settings(base_url="https://127.0.0.1", username="sandbox", password=Secret("pw"))

    @property
    def options(self) -> dict:
        return {"transport": httpx.ASGITransport(app=self.app)}

    def calendar(self) -> dict[tuple[str, str, str], str]:
        rows = csv.DictReader(io.StringIO(self.app.state.sandbox.store.rates_csv()))
        return {(r["InvTypeCode"], r["RatePlanCode"], r["Date"]): r["Amount"] for r in rows}

    def push(self, check, tmp_path: Path, **kw):
        return push_rates(check, self.settings, journal=tmp_path / "j.sqlite", progress=False,
                          client_options=self.options, **kw)


@pytest.fixture
def box() -> Box:
    return Box()


@pytest.mark.parametrize("header", [LONG, SNAKE], ids=["ota headers", "snake headers"])
def test_an_unknown_room_and_an_inactive_rate_mark_only_their_own_row_and_cell(box, write_csv, tmp_path,
                                                                               header) -> None:
    """Finding 8: both rows used to get both codes, on the amount cell."""
    path = write_csv([header,
                      [1000001, "101", "5001", "2027-01-01", "100", "EUR"],    # row 2: fine
                      [1000001, "999", "5001", "2027-01-02", "100", "EUR"],    # row 3: no such room
                      [1000001, "102", "5003", "2027-01-03", "100", "EUR"],    # row 4: 5003 inactive for 102
                      [1000001, "101", "5001", "2027-01-04", "130", "EUR"]])   # row 5: fine
    check = check_rates(path, as_of=AS_OF)  # no registry: the checks cannot catch these, the platform does
    result = box.push(check, tmp_path)
    assert result.requests["outcome"].tolist() == ["rejected"] and box.calendar() == {}
    rows = result.rows.set_index("row")
    room, rate = header[1], header[2]
    assert (rows.at[3, "column"], rows.at[3, "codes"], rows.at[3, "severity"]) == (room, "UNKNOWN_ROOM", "error")
    assert (rows.at[4, "column"], rows.at[4, "codes"]) == (rate, "RATE_NOT_ACTIVE_FOR_ROOM")
    assert "room_id=999" in rows.at[3, "message"] and "5003" not in rows.at[3, "message"]
    assert "rate_id=5003" in rows.at[4, "message"] and "999" not in rows.at[4, "message"]
    for other in (2, 5):  # not applied, and never another row's error
        assert (rows.at[other, "column"], rows.at[other, "codes"], rows.at[other, "outcome"]) == (
            header[4], "", "rejected")
        assert rows.at[other, "message"].startswith("not applied: the platform refused this request because of its "
                                                    "other messages")
    assert len(result.rows) == 4


def test_a_warning_goes_to_the_nights_its_message_and_dates_name(write_csv, tmp_path) -> None:
    path = write_csv([LONG] + [[1000001, "101", "5001", f"2027-02-{d:02d}", "100", "EUR"] for d in range(1, 4)]
                     + [[1000001, "102", "5001", "2027-02-01", "90", "EUR"]])
    check = check_rates(path, as_of=AS_OF)
    requests, cells = plan(check.frame)
    (request,) = requests
    assert request.locators.groupby("locator")["row"].apply(list).to_dict() == {1: [2, 3, 4], 2: [5]}
    with Journal(tmp_path / "j.sqlite") as j:
        run = j.start_run("https://x")
        (rid,) = j.add_requests(run, "https://x", requests, cells)
        j.record_result(rid, "https://x", status="success", http_status=200, ruid="r==", attempts=1, errors=[],
                        warnings=[{"code": "WARN_DUPLICATE_DATES", "short_text": "repeated", "record_id": "1",
                                   "details": "hotel_id=1000001; room_id=101; rate_id=5001; dates=2027-02-02"}],
                        error=None)
        rows = rows_frame(j, run, check.frame.attrs["headers"]).set_index("row")
    assert rows["severity"].to_dict() == {2: "ok", 3: "warning", 4: "ok", 5: "ok"}
    assert (rows.at[3, "codes"], rows.at[3, "column"], rows.at[3, "outcome"]) == ("WARN_DUPLICATE_DATES",
                                                                                 "AmountAfterTax", "success")


def test_a_repeated_night_is_sent_once_the_first_in_file_order_and_the_repeat_reported(box, write_csv,
                                                                                       tmp_path) -> None:
    """Finding 7: a repeat used to be an error on both rows, so with --skip-invalid the night was not priced."""
    path = write_csv([LONG,
                      [1000001, "101", "5001", "2027-03-01", "129", "EUR"],
                      [1000001, "101", "5001", "2027-03-02", "129", "EUR"],
                      [1000001, "101", "5001", "2027-03-01", "135", "EUR"]])
    check = check_rates(path, as_of=AS_OF)
    assert check.ok  # a warning: nothing blocks the push
    assert check.valid_frame()["row"].tolist() == [2, 3]
    for skip in (False, True):
        result = box.push(check, tmp_path / str(skip), skip_invalid=skip, full=True)
        assert result.ok and box.calendar()[("101", "5001", "2027-03-01")] == "129"
        rows = result.rows.set_index("row")
        assert (rows.at[4, "outcome"], rows.at[4, "severity"], rows.at[4, "codes"]) == ("not sent", "warning",
                                                                                       "duplicate_key")
        assert rows.at[4, "message"].startswith("not sent: repeats row 2 ")
        assert rows.at[2, "outcome"] == "success" and result.cells_total == 2
        assert "1 cell not sent" in result.summary()


def test_rows_skipped_for_errors_are_reported_not_sent(box, write_csv, tmp_path) -> None:
    path = write_csv([LONG, [1000001, "101", "5001", "2027-03-01", "129", "EUR"],
                      [1000001, "101", "5001", "2027-03-02", "-1", "EUR"]])
    result = box.push(check_rates(path, as_of=AS_OF), tmp_path, skip_invalid=True)
    held = result.not_sent.set_index("row")  # rows left out for errors: ``not sent (errors)``, each located
    assert result.ok and (held.at[3, "outcome"], held.at[3, "codes"], held.at[3, "column"]) == (
        "not sent (errors)", "price_negative", "AmountAfterTax")
    assert "a price cannot be negative" in held.at[3, "message"]
    assert 3 not in set(result.rows["row"])


def test_a_property_the_platform_refuses_is_reported_refused_with_its_text_and_ruid(box, write_csv, tmp_path) -> None:
    """Finding 1: the platform's B.XML ``<error>`` comes in a 200; the push says so, on the rows of that property."""
    path = write_csv([LONG, [1000001, "101", "5001", "2027-04-01", "129", "EUR"],
                      [1000009, "901", "9901", "2027-04-01", "99", "EUR"],
                      [1000009, "901", "9901", "2027-04-02", "99", "EUR"]])
    registry = fetch_registry(box.settings, [1000001, 1000009], client_options=box.options)
    assert registry.refused["hotel_code"].tolist() == [1000009]
    check = check_rates(path, registry=registry, as_of=AS_OF)
    result = box.push(check, tmp_path, skip_invalid=True)
    assert not result.ok
    refused = result.requests[result.requests["hotel"] == 1000009].iloc[0]
    assert refused["outcome"] == "rejected" and refused["ruid"]
    assert "reading room rates hasn't been enabled for hotel 1000009" in refused["texts"]
    assert refused["source_rows"] == "rates.csv 3-4"
    rows = result.rows.set_index("row")
    for r in (3, 4):
        assert (rows.at[r, "outcome"], rows.at[r, "severity"], rows.at[r, "column"]) == ("rejected", "error",
                                                                                         "HotelCode")
        assert "hasn't been enabled for hotel 1000009" in rows.at[r, "message"] and rows.at[r, "ruid"] == refused["ruid"]
    assert rows.at[2, "outcome"] == "success" and set(box.calendar()) == {("101", "5001", "2027-04-01")}


def test_an_old_journal_gains_the_locator_column(tmp_path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE request_cells (request_id INTEGER NOT NULL, inv_type_code TEXT NOT NULL, "
                   "rate_plan_code TEXT NOT NULL, date TEXT NOT NULL, guests INTEGER NOT NULL, price TEXT NOT NULL, "
                   "source TEXT, sheet TEXT, row INTEGER, col TEXT)")
    with Journal(path) as j:
        assert "locator" in {r[1] for r in j.db.execute("PRAGMA table_info(request_cells)")}


# --- the attribution rules, one by one -------------------------------------------------------------------

CELLS = pd.DataFrame({"request_id": 1, "inv_type_code": ["101", "101", "102", "102"],
                      "rate_plan_code": ["5001", "5001", "5003", "5003"],
                      "date": ["2027-01-01", "2027-01-02", "2027-01-01", "2027-01-02"], "locator": [1, 1, 2, 2]})


@pytest.mark.parametrize(("notice", "expected"), [
    ({"record_id": "2"}, [False, False, True, True]),
    ({"record_id": "1", "details": "dates=2027-01-02"}, [False, True, False, False]),
    ({"record_id": "9", "details": "room_id=102; rate_id=5003"}, [False, False, True, True]),  # no such locator
    ({"details": "hotel_id=1; room_ids=101,102; dates=2027-01-01..2027-01-01"}, [True, False, True, False]),
    ({"details": "rate_id=5001"}, [True, True, False, False]),
    ({"details": "room_id=777"}, [True, True, True, True]),  # names nothing here: the whole request
    ({"code": "X"}, [True, True, True, True]),
])
def test_which_cells_a_notice_concerns(notice, expected) -> None:
    assert targets(notice, CELLS).tolist() == expected


@pytest.mark.parametrize(("code", "field"), [
    ("UNKNOWN_ROOM", "inv_type_code"), ("RATE_NOT_ACTIVE_FOR_ROOM", "rate_plan_code"),
    ("CHILD_RATE_FOLLOWS_PRICE", "rate_plan_code"), ("RATE_READ_ONLY", "rate_plan_code"),
    ("CURRENCY_MISMATCH", "currency_code"), ("GUESTS_ABOVE_MAX_ADULTS", "number_of_guests"),
    ("DATE_OUT_OF_RANGE", "date"), ("WARN_DUPLICATE_DATES", "amount"), ("PRICE_ABOVE_MAXIMUM", "amount"),
    ("SOME_NEW_ROOM_CODE", "inv_type_code"), ("", "amount"), (None, "amount"),
])
def test_which_cell_a_code_is_about(code, field) -> None:
    assert field_of(code) == field


def test_details_in_singular_and_plural_forms() -> None:
    assert parse_details("hotel_ids=1,2; room_id=101; rate_ids=5001, 5002; dates=2027-01-01..2027-01-03,2027-02-01") \
        == {"hotel_id": ["1", "2"], "room_id": ["101"], "rate_id": ["5001", "5002"],
            "dates": ["2027-01-01..2027-01-03", "2027-02-01"]}


def test_the_push_report_marks_the_cell_each_code_concerns(box, write_csv, tmp_path) -> None:
    from openpyxl import load_workbook

    from workbench.reports.push import write_push_report

    path = write_csv([LONG, [1000001, "101", "5001", "2027-01-01", "100", "EUR"],
                      [1000001, "999", "5001", "2027-01-02", "100", "EUR"],
                      [1000001, "102", "5003", "2027-01-03", "100", "EUR"]])
    result = box.push(check_rates(path, as_of=AS_OF), tmp_path)
    ws = load_workbook(write_push_report(result, tmp_path / "push.xlsx"))["rates"]
    marked = {(c.row, ws.cell(1, c.column).value): c.comment.text for row in ws.iter_rows() for c in row if c.comment}
    assert set(marked) == {(2, "AmountAfterTax"), (3, "InvTypeCode"), (4, "RatePlanCode")}
    assert "UNKNOWN_ROOM" in marked[(3, "InvTypeCode")] and "RATE_NOT_ACTIVE" not in marked[(3, "InvTypeCode")]
    assert "RATE_NOT_ACTIVE_FOR_ROOM" in marked[(4, "RatePlanCode")] and "UNKNOWN_ROOM" not in marked[
        (4, "RatePlanCode")]
    page = write_push_report(result, tmp_path / "push.html").read_text()
    assert "<th>Cell</th>" in page and "<td>InvTypeCode</td>" in page and "<td>RatePlanCode</td>" in page


def test_child_rates_read_from_the_platform_are_not_priced_unless_the_registry_says_so(box, write_csv) -> None:
    """Finding 6 end to end: the platform flags 5002 and 5004 as child rates and says no more."""
    from loaders import read_registry
    from workbench.paths import SAMPLES

    path = write_csv([LONG, [1000001, "101", "5002", "2027-01-05", "119", "EUR"],
                      [1000001, "101", "5004", "2027-01-05", "109", "EUR"],
                      [1000001, "102", "5005", "2027-01-05", "99", "EUR"]])
    platform = fetch_registry(box.settings, [1000001], client_options=box.options)
    issues = check_rates(path, registry=platform, as_of=AS_OF).errors
    assert issues[["row", "column", "rule"]].values.tolist() == [
        [2, "RatePlanCode", "child_rate_follows_price"], [3, "RatePlanCode", "child_rate_follows_price"],
        [4, "RatePlanCode", "read_only_rate"]]
    both = read_registry(SAMPLES / "registry.xlsx").merge(platform)  # 5004: FollowsPrice 0; 5002: follows 5001
    issues = check_rates(path, registry=both, as_of=AS_OF).errors
    assert issues[["row", "rule"]].values.tolist() == [[2, "child_rate_follows_price"], [4, "read_only_rate"]]
    assert "price rate plan 5001 instead" in issues["message"].iloc[0]
