"""``workbench push|fetch|reconcile availability`` as a person runs them: exit codes, one-line refusals, the
reports, and the three commands against a sandbox served over HTTPS on loopback."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from openpyxl import load_workbook

from tests.workbench.writers.test_avail_push import intent, year_availability
from workbench.paths import SAMPLES
from workbench.sandbox import run_sandbox

SAMPLE = str(SAMPLES / "availability.xlsx")
FACTS = ["--registry", str(SAMPLES / "registry.xlsx"), "--as-of", "2026-12-01"]
AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(("extra", "needle"), [
    (["--engine", "dask"], "--engine dask cannot take availability yet"),
    (["--plan", "--dry-run", "out"], "give --dry-run DIR or --plan, not both"),
    (["--report", "push.pdf"], "use a name ending in .csv, .xlsx or .html"),
    (["--as-of", "2026-13-01"], "is not a date"),
])
def test_a_command_line_that_cannot_be_used_exits_2_in_one_line(workbench, tmp_path, extra, needle) -> None:
    done = workbench(["push", "availability", SAMPLE, *extra], cwd=tmp_path)
    assert done.returncode == 2 and needle in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2


def test_errors_block_the_push_and_the_report_says_nothing_was_sent(workbench, tmp_path) -> None:
    env = tmp_path / "x.env"
    env.write_text("WORKBENCH_BASE_URL=https://127.0.0.1:9\n", encoding="utf-8")
    done = workbench(["push", "availability", SAMPLE, *FACTS, "--env-file", str(env), "--journal",
                      str(tmp_path / "j.sqlite"), "--report", str(tmp_path / "push.csv")])
    assert done.returncode == 1 and "11 errors block the push" in " ".join(done.stdout.split())
    report = pd.read_csv(tmp_path / "push.csv")
    assert report["outcome"].iloc[0] == "nothing sent"
    not_sent = report[report["outcome"] == "not sent (errors)"]
    assert len(not_sent) == 11 and set(not_sent["restriction"].dropna()) >= {"rooms_to_sell", "min_stay_arrival"}
    assert not (tmp_path / "j.sqlite").exists()


def test_a_dry_run_writes_an_availability_folder_and_sends_nothing(workbench, tmp_path) -> None:
    done = workbench(["push", "availability", SAMPLE, *FACTS, "--skip-invalid", "--dry-run", str(tmp_path / "dry")],
                     cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Wrote 7 requests with 54 messages for 415 values" in " ".join(done.stdout.split())
    manifest = pd.read_csv(tmp_path / "dry" / "manifest.csv")
    assert set(manifest["kind"]) == {"availability"} and len(list((tmp_path / "dry").glob("*.xml"))) == 7


@pytest.mark.slow
def test_push_plan_and_partial_success_from_the_command_line(workbench, tmp_path) -> None:
    wanted = year_availability(tmp_path / "avail.csv", last="2027-03-31")
    with run_sandbox(tmp_path / "sb", today=AS_OF) as sb:
        env = ["--env-file", str(sb.connection_file), "--journal", str(tmp_path / "j.sqlite")]
        plan = workbench(["push", "availability", str(tmp_path / "avail.csv"), *FACTS, *env, "--plan",
                          "--report", str(tmp_path / "plan.csv")])
        assert plan.returncode == 0, plan.stdout + plan.stderr
        assert f"{len(intent(wanted)):,} added, 0 changed, 0 unchanged; 6 requests" in " ".join(plan.stdout.split())
        assert len(pd.read_csv(tmp_path / "plan.csv")) == len(intent(wanted))
        push = workbench(["push", "availability", str(tmp_path / "avail.csv"), *FACTS, *env,
                          "--report", str(tmp_path / "push.html")])
        assert push.returncode == 0, push.stdout + push.stderr
        assert "6 requests: 6 success" in " ".join(push.stdout.split())
        assert "Push results" in (tmp_path / "push.html").read_text(encoding="utf-8")
        # a room-rate the platform does not have (5003 is inactive for 102): that message is refused, the rest apply
        bad = tmp_path / "bad.csv"
        bad.write_text("HotelCode,InvTypeCode,RatePlanCode,Date,RoomsToSell,Closed\n"
                       "1000001,101,,2027-01-05,2,\n1000001,102,5003,2027-01-06,,1\n", encoding="utf-8")
        partial = workbench(["push", "availability", str(bad), "--as-of", "2026-12-01", *env,
                             "--report", str(tmp_path / "partial.xlsx"), "--report", str(tmp_path / "partial.csv")])
        assert partial.returncode == 1, partial.stdout + partial.stderr
        assert "1 partial" in partial.stdout and "RATE_NOT_ACTIVE_FOR_ROOM" in partial.stdout
        rows = pd.read_csv(tmp_path / "partial.csv").set_index("row")
        assert rows.at[3, "outcome"] == "rejected" and rows.at[3, "column"] == "RatePlanCode"
        assert rows.at[2, "outcome"] == "success"
        marked = load_workbook(tmp_path / "partial.xlsx")
        assert "Problems" in marked.sheetnames and "Requests" in marked.sheetnames


@pytest.mark.slow
def test_fetch_and_reconcile_find_each_difference_and_fix_sends_the_accepted_values(workbench, tmp_path) -> None:
    from workbench.transport.sync import SyncPlatformClient
    from workbench.writers.avail_requests import plan_availability_requests

    wanted = intent(year_availability(tmp_path / "avail.csv", first="2027-01-01", last="2027-01-31"))
    sent = wanted[(1000001, "101", "", "2027-01-04", "RoomsToSell")]
    with run_sandbox(tmp_path / "sb", today=AS_OF) as sb:
        env = ["--env-file", str(sb.connection_file)]
        journal = ["--journal", str(tmp_path / "j.sqlite")]
        assert workbench(["push", "availability", str(tmp_path / "avail.csv"), *FACTS, *env, *journal]).returncode == 0
        fetched = workbench(["fetch", "availability", "--hotel", "1000001", "--from", "2027-01-01", "--days", "40",
                             "--out", str(tmp_path / "held.csv"), *env])
        assert fetched.returncode == 0, fetched.stdout + fetched.stderr
        table = pd.read_csv(tmp_path / "held.csv", dtype={"InvTypeCode": str, "RatePlanCode": str})
        assert list(table.columns) == ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "RoomsToSell", "Booked",
                                       "Cancelled", "Closed"]
        room = table[table["RatePlanCode"].isna() & (table["InvTypeCode"] == "101")].set_index("Date")
        assert room.at["2027-01-04", "RoomsToSell"] == sent and room.at["2027-02-09", "RoomsToSell"] == 0
        # on the platform, behind the journal's back: one night changed, and a night the journal never sent a value for
        frame = pd.DataFrame({"hotel_code": 1000001, "inv_type_code": "101", "rate_plan_code": None,
                              "date": pd.to_datetime(["2027-01-04", "2027-02-05"]), "restriction": "rooms_to_sell",
                              "value": [17, 6], "source": "x", "sheet": "", "row": 2, "value_column": "RoomsToSell"})
        from loaders.schemas import AVAILABILITY_COLUMNS

        with SyncPlatformClient(sb.settings) as client:
            for req in plan_availability_requests(frame.astype(AVAILABILITY_COLUMNS)):
                assert client.send("OTA_HotelAvailNotif", req.body).ok
        rec = workbench(["reconcile", "availability", "--hotel", "1000001", "--from", "2027-01-01", "--days", "40",
                         *journal, *env, "--report", str(tmp_path / "rec.xlsx"), "--report", str(tmp_path / "rec.csv")])
        assert rec.returncode == 1, rec.stdout + rec.stderr
        diff = pd.read_csv(tmp_path / "rec.csv", dtype={"inv_type_code": str}).set_index("date")
        assert diff.at["2027-01-04", "difference"] == "changed on the platform"
        assert (diff.at["2027-01-04", "platform"], diff.at["2027-01-04", "accepted"]) == (17, sent)
        assert diff.at["2027-01-04", "source"] == "avail.csv" and diff.at["2027-01-04", "column"] == "RoomsToSell"
        assert diff.at["2027-02-05", "difference"] == "never sent" and len(diff) == 2
        assert "Differences" in load_workbook(tmp_path / "rec.xlsx").sheetnames
        fixed = workbench(["reconcile", "availability", "--hotel", "1000001", "--from", "2027-01-01", "--days", "40",
                           *journal, *env, "--fix"])
        assert fixed.returncode == 1, fixed.stdout + fixed.stderr  # the night never sent is left to the workbook
        assert "1 request: 1 success" in " ".join(fixed.stdout.split())
        after = workbench(["reconcile", "availability", "--hotel", "1000001", "--from", "2027-01-01", "--days", "40",
                           *journal, *env, "--report", str(tmp_path / "after.csv")])
        assert set(pd.read_csv(tmp_path / "after.csv")["difference"]) == {"never sent"}
        assert after.returncode == 1


@pytest.mark.slow
def test_health_reads_availability_and_finds_a_room_running_out(workbench, tmp_path) -> None:
    low = tmp_path / "low.csv"
    low.write_text("HotelCode,InvTypeCode,RatePlanCode,Date,RoomsToSell\n1000001,101,,2026-12-03,1\n"
                   "1000001,101,,2026-12-04,6\n", encoding="utf-8")
    with run_sandbox(tmp_path / "sb", today=AS_OF) as sb:
        env = ["--env-file", str(sb.connection_file), "--journal", str(tmp_path / "j.sqlite")]
        assert workbench(["push", "availability", str(low), "--as-of", "2026-12-01", *env]).returncode == 0
        plain = workbench(["health", "--hotel", "1000001", "--as-of", "2026-12-01", *env])
        assert "low_availability" not in plain.stdout
        done = workbench(["health", "--hotel", "1000001", "--as-of", "2026-12-01", "--availability", *env,
                          "--report", str(tmp_path / "health.csv")])
    assert done.returncode == 1, done.stdout + done.stderr
    found = pd.read_csv(tmp_path / "health.csv", dtype={"inv_type_code": str})
    low_rows = found[found["finding"] == "low_availability"]
    assert low_rows[["inv_type_code", "from_date", "to_date", "nights"]].values.tolist() == [
        ["101", "2026-12-03", "2026-12-03", 1]]
