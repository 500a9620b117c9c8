"""``push requests DIR``: a dry-run folder sent from one place, over real HTTPS on loopback to the
sandbox server; resume after kill -9; the folder checks; the journal's send lock between real processes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.workbench.writers.test_push import (
    AS_OF,
    calendar_cells,
    cells_of,
    sandbox_calendar,
    sandbox_requests,
    year_calendar,
)
from workbench.errors import InputError
from workbench.flows.rates import check_rates, dry_run
from workbench.sandbox import run_sandbox
from workbench.writers.batches import plan_requests
from workbench.writers.push_folder import send_folder
from workbench.writers.request_folder import (
    DELTA_COLUMNS,
    plan_folder,
    read_folder,
    source_rows,
    write_folder,
)

EXE = Path(sys.executable).with_name("workbench")


def _folder(tmp_path: Path, seed: int = 5) -> tuple[pd.DataFrame, Path]:
    intended = year_calendar(tmp_path / "prices.csv", seed=seed)
    dry_run(check_rates(tmp_path / "prices.csv", as_of=AS_OF), tmp_path / "out")
    return intended, tmp_path / "out"


def _applied(sb) -> pd.DataFrame:
    log = sandbox_requests(sb)
    return log[log["endpoint"].str.contains("RateAmountNotif") & (log["status"] == 200)]


def test_push_requests_sends_each_request_once_and_resends_nothing(tmp_path: Path) -> None:
    intended, out = _folder(tmp_path)
    manifest = pd.read_csv(out / "manifest.csv")
    with run_sandbox(tmp_path / "sb", today=AS_OF) as sb:
        env = sb.connection_file
        cmd = [str(EXE), "push", "requests", str(out), "--env-file", str(env), "--journal", str(tmp_path / "j.sqlite"),
               "--report", str(tmp_path / "push.csv")]
        first = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert first.returncode == 0, first.stdout + first.stderr
        assert calendar_cells(sandbox_calendar(sb)) == cells_of(intended)
        assert len(_applied(sb)) == len(manifest)  # the sandbox's own count: one call per request
        report = pd.read_csv(tmp_path / "push.csv")
        assert set(report["source"].dropna()) == {"prices.csv"}  # traced back to the spreadsheet rows
        again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stdout + again.stderr
        assert len(_applied(sb)) == len(manifest)  # the journal says all were accepted: nothing sent
        # the journal's accepted prices are shared with `push rates`: its delta is empty too
        check = check_rates(tmp_path / "prices.csv", as_of=AS_OF)
        from workbench.flows.rates import push_rates

        delta = push_rates(check, sb.settings, journal=tmp_path / "j.sqlite", progress=False)
        assert delta.requests.empty and delta.cells_changed == 0


def test_push_requests_sends_only_the_requests_with_a_changed_price(tmp_path: Path) -> None:
    base, out = _folder(tmp_path)
    with run_sandbox(tmp_path / "sb", today=AS_OF) as sb:
        j = tmp_path / "j.sqlite"
        assert send_folder(out, sb.settings, journal=j, progress=False).ok
        year_calendar(tmp_path / "prices.csv", seed=1, change=0.001, base=base)
        dry_run(check_rates(tmp_path / "prices.csv", as_of=AS_OF), out)
        changed = send_folder(out, sb.settings, journal=j, progress=False)
        assert changed.ok and 0 < len(changed.requests) < len(read_folder(out).requests)
        assert len(send_folder(out, sb.settings, journal=j, full=True, progress=False).requests) == \
            len(read_folder(out).requests)


@pytest.mark.slow
def test_kill_9_mid_push_requests_then_resume_accepts_each_request_once(tmp_path: Path) -> None:
    intended, out = _folder(tmp_path)
    journal = tmp_path / "journal.sqlite"
    in_flight = 2
    with run_sandbox(tmp_path / "sb", today=AS_OF, faults="latency=400ms,seed=2") as sb:
        env_file = tmp_path / "push.env"
        env_file.write_text(sb.connection_file.read_text() + f"WORKBENCH_MAX_IN_FLIGHT={in_flight}\n")
        cmd = [str(EXE), "push", "requests", str(out), "--env-file", str(env_file), "--journal", str(journal)]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline, done = time.monotonic() + 120, 0
        while time.monotonic() < deadline and done < 5:
            if journal.exists():
                with sqlite3.connect(journal) as db:
                    try:
                        done = db.execute("SELECT count(*) FROM requests WHERE status='success'").fetchone()[0]
                    except sqlite3.OperationalError:
                        done = 0
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        with sqlite3.connect(journal) as db:
            first_ok = dict(db.execute("SELECT hotel_code || '-' || month, ruid FROM requests "
                                       "WHERE run_id=1 AND status='success'").fetchall())
            unsure = db.execute("SELECT count(*) FROM requests WHERE run_id=1 AND status='sending'").fetchone()[0]
            total = db.execute("SELECT count(*) FROM requests WHERE run_id=1").fetchone()[0]
        assert 5 <= len(first_ok) < total, "the kill should land mid-push"
        again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stdout + again.stderr
        with sqlite3.connect(journal) as db:
            resent = dict(db.execute("SELECT hotel_code || '-' || month, ruid FROM requests WHERE run_id=2").fetchall())
        assert not (set(first_ok) & set(resent)), "a request the journal recorded as accepted was sent again"
        assert len(first_ok) + len(resent) == total
        assert calendar_cells(sandbox_calendar(sb)) == cells_of(intended)
        applied = _applied(sb)
        counts = applied["ruid"].value_counts()
        # the sandbox's log: every accepted request of either run was applied exactly once, under its ruid ...
        assert all(counts.get(r, 0) == 1 for r in [*first_ok.values(), *resent.values()])
        # ... and the only other calls are the ones in flight at the kill (their answers never arrived)
        assert len(applied) - total <= unsure <= in_flight


def test_two_sends_on_one_journal_the_second_refuses_naming_the_first(tmp_path: Path) -> None:
    _, out = _folder(tmp_path)
    journal = tmp_path / "journal.sqlite"
    with run_sandbox(tmp_path / "sb", today=AS_OF, faults="latency=300ms,seed=1") as sb:
        base = _one_at_a_time(sb, tmp_path, out, journal)
        first = subprocess.Popen(base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for_holder(journal)
        second = subprocess.run(base, capture_output=True, text=True, timeout=120)
        assert second.returncode == 2
        said = " ".join((second.stdout + second.stderr).split())
        assert f"pid {first.pid}" in said and "push requests" in said and "sending since" in said
        assert "--wait" in said
        assert first.wait(timeout=300) == 0
        with sqlite3.connect(journal) as db:  # the refused one never started a run
            assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 1


def test_two_sends_on_one_journal_the_second_waits_and_never_overlaps(tmp_path: Path) -> None:
    _, out = _folder(tmp_path)
    journal = tmp_path / "journal.sqlite"
    with run_sandbox(tmp_path / "sb", today=AS_OF, faults="latency=200ms,seed=1") as sb:
        base = _one_at_a_time(sb, tmp_path, out, journal, "--full")
        first = subprocess.Popen(base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for_holder(journal)
        second = subprocess.run([*base, "--wait", "300"], capture_output=True, text=True, timeout=400)
        assert second.returncode == 0, second.stdout + second.stderr
        assert first.wait(timeout=300) == 0
        with sqlite3.connect(journal) as db:
            runs = db.execute("SELECT run_id, started, finished FROM runs ORDER BY run_id").fetchall()
            spans = db.execute("SELECT run_id, min(sent), max(done) FROM requests GROUP BY run_id ORDER BY run_id"
                               ).fetchall()
        assert len(runs) == 2 and runs[0][2] <= runs[1][1], "the second run started before the first finished"
        assert spans[0][2] <= spans[1][1], "the two runs' calls overlapped"


def _one_at_a_time(sb, tmp_path: Path, out: Path, journal: Path, *extra: str) -> list[str]:
    """``push requests`` sending one request at a time to ``sb`` (slow enough to be caught sending)."""
    env_file = tmp_path / "push.env"
    env_file.write_text(sb.connection_file.read_text() + "WORKBENCH_MAX_IN_FLIGHT=1\n")
    return [str(EXE), "push", "requests", str(out), "--env-file", str(env_file), "--journal", str(journal), *extra]


def _wait_for_holder(journal: Path) -> None:
    holder = journal.with_name(journal.name + ".lock.json")
    deadline = time.monotonic() + 120
    while not holder.exists():
        assert time.monotonic() < deadline, "the first push never took the journal's lock"
        time.sleep(0.05)


# --- the folder ---------------------------------------------------------------------------------------------

def _break_manifest(out: Path) -> None:
    (out / "manifest.csv").unlink()


def _break_xml(out: Path) -> None:
    next(out.glob("*.xml")).unlink()


def _break_cells(out: Path) -> None:
    (out / "cells.parquet").unlink()


def _break_count(out: Path) -> None:
    m = pd.read_csv(out / "manifest.csv")
    m.loc[0, "cells"] += 1
    m.to_csv(out / "manifest.csv", index=False)


def _break_columns(out: Path) -> None:
    pd.read_csv(out / "manifest.csv").drop(columns=["messages"]).to_csv(out / "manifest.csv", index=False)


@pytest.mark.parametrize(("damage", "expected"), [
    (_break_manifest, "has no manifest.csv"),
    (_break_xml, "which is not in the folder"),
    (_break_cells, "has no cells.parquet"),
    (_break_count, "the folder was changed after it was written"),
    (_break_columns, "lacks the column `messages`"),
])
def test_a_damaged_folder_is_refused_before_anything_is_sent(tmp_path: Path, damage, expected: str) -> None:
    _, out = _folder(tmp_path)
    damage(out)
    with pytest.raises(InputError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        read_folder(out)


def test_a_folder_that_does_not_exist_fails_in_one_line(tmp_path: Path) -> None:
    env = tmp_path / "c.env"
    env.write_text("WORKBENCH_BASE_URL=https://127.0.0.1:9\n")
    r = subprocess.run([str(EXE), "push", "requests", str(tmp_path / "nope"), "--env-file", str(env)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "is not a folder of requests" in r.stderr and "Traceback" not in r.stderr


def test_source_rows_in_one_pass_equal_each_requests_own() -> None:
    rows = []
    for sheet, offset in (("A", 2), ("B", 40)):
        for i, day in enumerate(pd.date_range("2027-01-25", "2027-02-10")):
            if i % 5 == 3:
                continue  # gaps make several ranges
            rows.append({"hotel_code": 7, "inv_type_code": "R", "rate_plan_code": "P", "date": day,
                         "number_of_guests": pd.NA, "amount": 10.0 + i % 3, "amount_minor": 1000 + 100 * (i % 3),
                         "amount_scale": 2, "amount_type": "AfterTax", "decimal_places": pd.NA,
                         "currency_code": "EUR", "source": "t.xlsx", "sheet": sheet, "row": offset + i,
                         "amount_column": "AmountAfterTax"})
    from loaders import RATES_COLUMNS

    frame = pd.DataFrame(rows).astype(RATES_COLUMNS)
    requests, cells = plan_folder(frame)
    fast = source_rows(cells)
    assert {f"{r.key}.xml": r.source_rows() for r in plan_requests(frame)} == fast.to_dict()
    assert fast["7-2027-01.xml"] == "t.xlsx A 2-4,6-8; t.xlsx B 40-42,44-46"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["a.csv", "b.xlsx"]), st.sampled_from(["", "S", "T"]),
                          st.integers(2, 60), st.integers(0, 75)), min_size=1, max_size=80))
def test_source_rows_in_one_pass_equal_each_requests_own_on_any_rows(cells: list[tuple]) -> None:
    from loaders import RATES_COLUMNS

    seen, rows = set(), []
    for hotel, source, sheet, row, night in cells:
        day = pd.Timestamp("2027-01-20") + pd.Timedelta(days=night)
        key = (hotel, day)
        if key in seen:
            continue  # one price per cell, as the checks leave it
        seen.add(key)
        rows.append({"hotel_code": 1000 + hotel, "inv_type_code": "R", "rate_plan_code": "P", "date": day,
                     "number_of_guests": pd.NA, "amount": 10.0, "amount_minor": 1000, "amount_scale": 2,
                     "amount_type": "AfterTax", "decimal_places": pd.NA, "currency_code": "EUR", "source": source,
                     "sheet": sheet, "row": row, "amount_column": "AmountAfterTax"})
    frame = pd.DataFrame(rows).astype(RATES_COLUMNS)
    _, folder_cells = plan_folder(frame)
    assert {f"{r.key}.xml": r.source_rows() for r in plan_requests(frame)} == source_rows(folder_cells).to_dict()


def test_a_folder_with_nothing_to_send_sends_nothing(tmp_path: Path) -> None:
    from loaders.schemas import empty_rates
    from workbench.config import Settings
    from workbench.writers.request_folder import write_folder

    requests, cells = plan_folder(empty_rates())
    write_folder(tmp_path / "out", requests, cells)
    env = tmp_path / "c.env"
    env.write_text("WORKBENCH_BASE_URL=https://127.0.0.1:9\n")  # nothing listens there: nothing may be sent
    result = send_folder(tmp_path / "out", Settings.from_file(env), journal=tmp_path / "j.sqlite", progress=False)
    assert result.ok and result.requests.empty and result.cells_total == 0


def test_a_second_dry_run_into_the_same_folder_leaves_only_its_own_requests(tmp_path: Path) -> None:
    """Files of the same name are overwritten, the ones the new run does not write are removed, and
    the manifest and cells are the new run's."""
    from workbench.writers.request_folder import write_folder

    _, out = _folder(tmp_path)
    first = set(pd.read_csv(out / "manifest.csv")["file"])
    frame = check_rates(tmp_path / "prices.csv", as_of=AS_OF).frame
    first_month = frame[frame["date"] < frame["date"].min() + pd.offsets.MonthBegin(1)]
    kept = first_month.assign(amount_minor=first_month["amount_minor"] + 1, amount=first_month["amount"] + 0.01)
    requests, cells = plan_folder(kept)
    write_folder(out, requests, cells)
    again = read_folder(out)
    assert {p.name for p in out.glob("*.xml")} == set(again.manifest["file"]) == {f"{r.key}.xml" for r in requests}
    assert set(again.manifest["file"]) < first
    assert [r.body for r in again.requests] == [r.body for r in requests]  # overwritten with the new prices
    assert len(again.cells) == len(kept)


def test_an_interrupted_dry_run_leaves_a_folder_push_requests_refuses(tmp_path: Path) -> None:
    from workbench.writers.request_folder import write_folder

    _, out = _folder(tmp_path)
    requests, cells = plan_folder(check_rates(tmp_path / "prices.csv", as_of=AS_OF).frame)

    def broken():
        yield requests[0]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_folder(out, broken(), cells)
    with pytest.raises(InputError, match="has no manifest.csv"):
        read_folder(out)


def test_cells_parquet_is_written_without_column_statistics_and_reads_back_whole(tmp_path: Path) -> None:
    """``read_folder`` reads ``cells.parquet`` whole, never filtering by min/max: the statistics are not
    computed (half the time of writing a million cells' texts), and every cell still reads back."""
    import pyarrow.parquet as pq

    intended, out = _folder(tmp_path)
    meta = pq.ParquetFile(out / "cells.parquet").metadata
    columns = [meta.row_group(g).column(c) for g in range(meta.num_row_groups) for c in range(meta.num_columns)]
    assert columns and all(not c.is_stats_set for c in columns)
    folder = read_folder(out)
    assert len(folder.cells) == int(folder.manifest["cells"].sum()) == len(intended)


def test_sheet_rows_are_written_as_deltas_and_read_back_as_they_were(tmp_path: Path) -> None:
    """``row`` counts up along a sheet: written as deltas (no dictionary of every row built and thrown away),
    the other columns through dictionaries; what ``read_folder`` reads back is the cells written."""
    import pyarrow.parquet as pq

    _, out = _folder(tmp_path)
    meta = pq.ParquetFile(out / "cells.parquet").metadata
    encodings = {meta.row_group(0).column(c).path_in_schema: meta.row_group(0).column(c) for c in
                 range(meta.num_columns)}
    assert "DELTA_BINARY_PACKED" in encodings["row"].encodings and not encodings["row"].has_dictionary_page
    assert all(c.has_dictionary_page for name, c in encodings.items() if name not in DELTA_COLUMNS)
    requests, cells = plan_folder(check_rates(tmp_path / "prices.csv", as_of=AS_OF).frame)
    write_folder(tmp_path / "again", requests, cells)
    back = read_folder(tmp_path / "again").cells
    assert back["row"].dtype == cells["row"].dtype
    shared = [c for c in ("file", "row", "date", "hotel_code", "inv_type_code", "rate_plan_code") if c in cells]
    def key(f: pd.DataFrame) -> list[tuple]:
        return sorted(map(tuple, f[shared].astype(str).itertuples(index=False)))
    assert len(back) == len(cells) and key(back) == key(cells)
