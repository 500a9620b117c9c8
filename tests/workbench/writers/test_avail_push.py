"""Availability through the one push path, against the sandbox mounted in-process (the same app as over
HTTPS): what is sent is what the workbook says, a second push sends only what changed, an answer refusing
some messages (partial success) accepts the others, a dry-run folder is sent by ``push requests``, and the
plan counts what a push would change."""

from __future__ import annotations

import csv
import datetime as dt
import io
import sqlite3
from pathlib import Path

import httpx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench
from loaders.schemas import AVAILABILITY_COLUMNS, RESTRICTION_HEADERS
from workbench.config import Secret, Settings
from workbench.flows.availability import check_availability, plan_availability, push_availability
from workbench.flows.folders import push_requests
from workbench.sandbox import SandboxConfig, create_app
from workbench.sandbox.platform.availability_state import AvailabilityStore
from workbench.writers.avail_deltas import diff_availability
from workbench.writers.journal_avail import read_accepted_availability

AS_OF = dt.date(2026, 12, 1)
SAMPLES = Path(__file__).resolve().parents[3] / "data" / "samples"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "avail_notif"
#: room types and the room-rates of each (every one active in the sample registry)
ROOMS = {(1000001, "101"): ("5001", "5003"), (1000001, "102"): ("5001",), (1000004, "401"): ("8001",),
         (1000004, "402"): ("8001",)}
HEADER = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "Closed", "MinStayArrival"]


def year_availability(path: Path, seed: int = 0, change: float = 0.0, base: pd.DataFrame | None = None,
                      first: str = "2027-01-01", last: str = "2027-12-31") -> pd.DataFrame:
    """A year of rooms to sell per room type and Closed / MinStayArrival per room-rate, as a CSV (long layout)."""
    rng = np.random.default_rng(seed)
    if base is None:
        rows = []
        for (hotel, room), rates in ROOMS.items():
            for day in pd.date_range(first, last):
                weekend = day.weekday() >= 4
                rows.append([hotel, room, "", day.date().isoformat(), 8 - 3 * weekend + int(rng.random() < 0.1), "", ""])
                for rate in rates:
                    rows.append([hotel, room, rate, day.date().isoformat(), "", int(day.day == 24 and day.month == 12),
                                 2 if weekend else 1])
        base = pd.DataFrame(rows, columns=HEADER)
    frame = base.copy()
    if change:
        rooms = frame.index[frame["RoomsToSell"] != ""]
        idx = rng.choice(rooms, size=max(1, int(len(rooms) * change)), replace=False)
        frame.loc[idx, "RoomsToSell"] = frame.loc[idx, "RoomsToSell"].astype(int) + 1
    frame.to_csv(path, index=False)
    return frame


def intent(frame: pd.DataFrame) -> dict[tuple, int]:
    """What the workbook sets: (hotel, room, rate ('' for the room type), night, column) -> value."""
    out = {}
    for r in frame.itertuples(index=False):
        for col in HEADER[4:]:
            v = getattr(r, col)
            if v != "" and not pd.isna(v):
                out[(int(r.HotelCode), str(r.InvTypeCode), str(r.RatePlanCode or ""), str(r.Date), col)] = int(v)
    return out


def held(text: str) -> dict[tuple, int]:
    """What ``/_sandbox/availability.csv`` holds, keyed as :func:`intent` (bookings left out)."""
    out = {}
    for r in csv.DictReader(io.StringIO(text)):
        for col, v in r.items():
            if col in RESTRICTION_HEADERS.values() and v != "":
                out[(int(r["HotelCode"]), r["InvTypeCode"], r["RatePlanCode"], r["Date"], col)] = int(v)
    return out


class Box:
    """An in-process sandbox, the settings and client options that reach it, and a journal."""

    def __init__(self, tmp_path: Path) -> None:
        self.app = create_app(SandboxConfig(password="pw", today=AS_OF))
        self.settings = Settings(base_url="https://127.0.0.1", username="sandbox", password=Secret("pw"))
        self.journal = tmp_path / "j.sqlite"

    @property
    def options(self) -> dict:
        return {"transport": httpx.ASGITransport(app=self.app)}

    def held(self) -> dict[tuple, int]:
        return held(self.app.state.sandbox.own(AvailabilityStore).csv())

    def push(self, check, **kw):
        return push_availability(check, self.settings, journal=self.journal, progress=False,
                                 client_options=self.options, **kw)

    def run_cells(self, run_id: int) -> int:
        with sqlite3.connect(self.journal) as db:
            return db.execute("SELECT count(*) FROM avail_cells JOIN requests USING (request_id) WHERE run_id=?",
                              (run_id,)).fetchone()[0]


@pytest.fixture
def box(tmp_path: Path) -> Box:
    return Box(tmp_path)


def _check(path: Path):
    return check_availability(path, registry=SAMPLES / "registry.xlsx", as_of=AS_OF)


def test_a_push_applies_every_value_and_a_second_sends_nothing(box, tmp_path) -> None:
    wanted = year_availability(tmp_path / "avail.csv")
    check = _check(tmp_path / "avail.csv")
    assert check.ok, check.errors
    first = box.push(check)
    assert first.ok and len(first.requests) == 24  # two properties x 12 months
    assert (first.requests["http_status"] == 200).all() and first.requests["ruid"].notna().all()
    assert box.held() == intent(wanted)
    assert (first.rows["outcome"] == "success").all() and set(first.rows["source"]) == {"avail.csv"}
    again = box.push(check)
    assert again.ok and again.requests.empty and again.values_changed == 0
    assert again.verdict().startswith("nothing to send")


def test_a_changed_workbook_sends_only_the_values_that_changed(box, tmp_path) -> None:
    base = year_availability(tmp_path / "avail.csv")
    box.push(_check(tmp_path / "avail.csv"))
    changed = year_availability(tmp_path / "avail.csv", seed=3, change=0.01, base=base)
    moved = len(set(intent(changed).items()) - set(intent(base).items()))
    result = box.push(_check(tmp_path / "avail.csv"))
    assert result.ok and result.values_changed == moved == box.run_cells(result.run_id)
    assert 0 < len(result.requests) < 24
    assert box.held() == intent(changed)
    full = box.push(_check(tmp_path / "avail.csv"), full=True)
    assert full.ok and len(full.requests) == 24 and full.values_changed == len(intent(changed))


def _frame(rows: list[tuple]) -> pd.DataFrame:
    out = [{"hotel_code": h, "inv_type_code": room, "rate_plan_code": rate, "date": pd.Timestamp(day),
            "restriction": r, "value": v, "source": "a.xlsx", "sheet": "S", "row": i + 2,
            "value_column": RESTRICTION_HEADERS[r]} for i, (h, room, rate, day, r, v) in enumerate(rows)]
    return pd.DataFrame(out, columns=list(AVAILABILITY_COLUMNS)).astype(AVAILABILITY_COLUMNS)


def test_a_partly_applied_request_accepts_only_the_messages_the_platform_applied(box, tmp_path) -> None:
    """Rate 5003 is not active for room 102 on the platform: the sandbox refuses that message and applies the
    others (HTTP 200 with Errors): the request is ``partial``, the refused cells ``rejected`` on their rate plan,
    the journal accepts the rest, and the next push sends only the refused values again."""
    path = tmp_path / "partial.csv"
    path.write_text("HotelCode,InvTypeCode,RatePlanCode,Date,RoomsToSell,Closed\n"
                    "1000001,101,,2027-01-05,4,\n1000001,101,,2027-01-06,4,\n"
                    "1000001,102,5003,2027-01-05,,1\n1000001,101,5001,2027-01-06,,1\n", encoding="utf-8")
    check = check_availability(path, as_of=AS_OF)  # no registry: the check cannot know 5003 is inactive for 102
    result = box.push(check)
    assert result.requests["outcome"].tolist() == ["partial"] and not result.ok
    assert "applied in part: 2 of 3 messages applied" in result.requests["texts"].iloc[0]
    rows = result.rows.set_index(["row", "column"])
    assert rows.loc[(4, "RatePlanCode"), "outcome"] == "rejected"
    assert rows.loc[(4, "RatePlanCode"), "codes"] == "RATE_NOT_ACTIVE_FOR_ROOM"
    assert rows.loc[(2, "RoomsToSell"), "outcome"] == rows.loc[(5, "Closed"), "outcome"] == "success"
    accepted = read_accepted_availability(box.journal, box.settings.base_url)
    assert sorted(zip(accepted["inv_type_code"].astype(str), accepted["rate_plan_code"].astype(str),
                      accepted["restriction"].astype(str), strict=True)) == [
        ("101", "", "rooms_to_sell"), ("101", "", "rooms_to_sell"), ("101", "5001", "closed")]
    assert box.held() == {(1000001, "101", "", "2027-01-05", "RoomsToSell"): 4,
                          (1000001, "101", "", "2027-01-06", "RoomsToSell"): 4,
                          (1000001, "101", "5001", "2027-01-06", "Closed"): 1}
    again = box.push(check)  # only the refused value goes again (and is refused again)
    assert box.run_cells(again.run_id) == 1 and again.requests["outcome"].tolist() == ["rejected"]


def _answer_with(body: bytes, status: int = 200) -> dict:
    return {"transport": httpx.MockTransport(lambda request: httpx.Response(
        status, content=body, headers={"Content-Type": "application/xml"}))}


THREE = [(1000001, "101", None, "2027-01-04", "rooms_to_sell", 3), (1000001, "101", "5001", "2027-01-04", "closed", 1),
         (1000001, "101", "5001", "2027-01-04", "min_stay_arrival", 2)]


def _accepted(journal: Path) -> set[str]:
    got = read_accepted_availability(journal, "https://127.0.0.1")
    return set(got["restriction"].astype(str))


def test_a_hand_written_partial_success_answer_accepts_every_message_but_the_one_it_names(box, tmp_path) -> None:
    """The fixture: HTTP 200, no Success, an Error with RecordID 2 (the Closed message, LocatorID 2)."""
    from workbench.writers.avail_push import send_availability

    answer = (FIXTURES / "partial_success.xml").read_bytes()
    result = send_availability(_frame(THREE), box.settings, journal=box.journal, progress=False,
                               client_options=_answer_with(answer))
    assert result.requests["outcome"].tolist() == ["partial"]
    assert result.requests["ruid"].iloc[0].startswith("UmFuZG9tSVYk")
    assert _accepted(box.journal) == {"rooms_to_sell", "min_stay_arrival"}
    rows = result.rows.set_index("restriction")
    assert rows.at["closed", "outcome"] == "rejected" and rows.at["closed", "codes"] == "RATE_NOT_ACTIVE_FOR_ROOM"
    assert rows.at["closed", "column"] == "RatePlanCode" and rows.at["closed", "severity"] == "error"
    assert (rows.loc[["rooms_to_sell", "min_stay_arrival"], "outcome"] == "success").all()


@pytest.mark.parametrize(("record", "status"), [("", 200), ("7", 200), ("2", 400)],
                         ids=["no RecordID", "a RecordID the request does not have", "HTTP 400"])
def test_an_error_naming_no_message_of_the_request_refuses_it_whole(box, record, status) -> None:
    from workbench.writers.avail_push import send_availability

    answer = (FIXTURES / "partial_success.xml").read_bytes().replace(b'RecordID="2"', f'RecordID="{record}"'.encode())
    result = send_availability(_frame(THREE), box.settings, journal=box.journal, progress=False,
                               client_options=_answer_with(answer, status))
    assert result.requests["outcome"].tolist() == ["rejected"]
    assert _accepted(box.journal) == set()
    assert (result.rows["outcome"] == "rejected").all()


def test_push_requests_sends_an_availability_dry_run_folder_once(box, tmp_path) -> None:
    wanted = year_availability(tmp_path / "avail.csv")
    check = _check(tmp_path / "avail.csv")
    done = workbench.dry_run(check, tmp_path / "dry")  # the one name writes an availability check's requests
    manifest = pd.read_csv(tmp_path / "dry" / "manifest.csv")
    assert set(manifest["kind"]) == {"availability"} and set(manifest["operation"]) == {"OTA_HotelAvailNotif"}
    assert len(done.requests) == 24 and done.cells == len(intent(wanted))
    sent = push_requests(tmp_path / "dry", box.settings, journal=box.journal, progress=False,
                         client_options=box.options)
    assert sent.ok and len(sent.requests) == 24 and box.held() == intent(wanted)
    again = push_requests(tmp_path / "dry", box.settings, journal=box.journal, progress=False,
                          client_options=box.options)
    assert again.requests.empty
    assert box.push(check).requests.empty  # the folder's accepted values are the push's


def test_the_plan_counts_what_a_push_would_change(box, tmp_path) -> None:
    base = year_availability(tmp_path / "avail.csv", last="2027-06-30")
    box.push(_check(tmp_path / "avail.csv"))
    grown = year_availability(tmp_path / "avail.csv", seed=4, change=0.02, base=base)
    extra = pd.DataFrame([[1000001, "101", "", "2027-07-01", 3, "", ""]], columns=HEADER)
    pd.concat([grown, extra]).to_csv(tmp_path / "avail.csv", index=False)
    plan = plan_availability(_check(tmp_path / "avail.csv"), box.settings, journal=box.journal)
    moved = len(set(intent(grown).items()) - set(intent(base).items()))
    assert (plan.count("added"), plan.count("changed")) == (1, moved)
    assert plan.count("unchanged") == len(intent(base)) - moved
    changes = plan.changes()
    assert set(changes["change"]) == {"added", "changed"} and len(changes) == moved + 1
    assert changes.loc[changes["change"] == "changed", "before"].notna().all()
    assert plan.requests == len(pd.concat([changes["hotel_code"].astype(str) + changes["date"].dt.strftime("%Y-%m")])
                                .unique())
    with sqlite3.connect(box.journal) as db:  # a plan writes nothing
        assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 1


@st.composite
def _values(draw: st.DrawFn) -> tuple[dict, dict]:
    keys = st.tuples(st.sampled_from([1, 2]), st.sampled_from(["A", "B"]), st.sampled_from([None, "R"]),
                     st.integers(0, 40), st.sampled_from(["rooms_to_sell", "closed", "min_stay_arrival"]))
    sheet = draw(st.dictionaries(keys, st.integers(0, 5), max_size=60))
    accepted = draw(st.dictionaries(keys, st.integers(0, 5), max_size=60))
    return sheet, accepted


@settings(max_examples=150, deadline=None)
@given(_values())
def test_the_delta_sends_exactly_the_values_not_accepted_as_they_are(values) -> None:
    sheet, accepted = values
    day = pd.Timestamp("2027-01-01")
    frame = _frame([(h, room, rate, day + pd.Timedelta(days=d), r, v) for (h, room, rate, d, r), v in sheet.items()])
    acc = _frame([(h, room, rate, day + pd.Timedelta(days=d), r, v) for (h, room, rate, d, r), v in accepted.items()])
    acc = acc.assign(rate_plan_code=acc["rate_plan_code"].fillna(""))
    diff = diff_availability(frame, acc)
    expected = [0 if k not in accepted else 2 if accepted[k] == v else 1 for k, v in sheet.items()]
    assert diff.change.tolist() == expected
    assert diff.before.tolist() == [accepted.get(k, -1) for k in sheet]


def test_the_push_report_shows_the_refused_nights_as_ranges(box, tmp_path) -> None:
    """A month of nights refused (rate 5003 is not active for room 102) is one line of the HTML report, with its
    first and last night, not thirty."""
    from workbench.reports.push import flagged_ranges, write_push_report

    path = tmp_path / "month.csv"
    days = pd.date_range("2027-01-01", "2027-01-31").strftime("%Y-%m-%d")
    path.write_text("HotelCode,InvTypeCode,RatePlanCode,Date,Closed\n"
                    + "".join(f"1000001,102,5003,{d},1\n" for d in days), encoding="utf-8")
    result = box.push(check_availability(path, as_of=AS_OF))
    assert len(result.rows) == 31 and (result.rows["outcome"] == "rejected").all()
    lines = flagged_ranges(result)
    assert len(lines) == 1 and lines["nights"].iloc[0] == 31 and lines["rule"].iloc[0] == "RATE_NOT_ACTIVE_FOR_ROOM"
    page = write_push_report(result, tmp_path / "push.html").read_text(encoding="utf-8")
    assert "as ranges of nights" in page and "2027-01-01 – 2027-01-31" in page


def test_fetch_reads_31_nights_a_call_and_says_which_calls_failed(box, tmp_path) -> None:
    from workbench.flows.availability import fetch_availability

    held = fetch_availability(box.settings, [1000001, 999], start="2027-01-01", days=40, progress=False,
                              client_options=box.options)
    assert len(held.results) == 4  # two properties x (31 + 9 nights)
    assert set(held.frame["hotel_code"]) == {1000001} and held.frame["date"].nunique() == 40
    assert held.problems[["hotel_code", "start", "days"]].values.tolist() == [[999, "2027-01-01", 31],
                                                                              [999, "2027-02-01", 9]]
    assert "Availability on the platform" in held._repr_html_() and not held.ok
    table = held.table()
    assert list(table.columns) == ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "Booked",
                                   "Cancelled", "Closed"]
