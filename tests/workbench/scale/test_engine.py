"""The Dask engine gives what one process gives: the same issues, manifest and XML (apart from
``TimeStamp``), from CSV files and from Parquet datasets, on a 2-process LocalCluster."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.workbench.scale.conftest import AS_OF, random_rates, same_requests
from workbench.flows.rates import check_rates, dry_run
from workbench.scale.engine import dry_run_on, validate_on
from workbench.scale.storage import read_parquet_parts


def _single(files: list[Path], out: Path):
    check = check_rates(files, as_of=AS_OF)
    return check, dry_run(check, out, skip_invalid=True)


@pytest.mark.parametrize("size", [3])
def test_csv_files_give_the_single_process_results(client, tmp_path: Path, size: int) -> None:
    files = []
    for i, seed in enumerate((1, 2)):
        files.append(tmp_path / f"rates{i}.csv")
        random_rates(seed, hotels=4 + i, first=3 * i).to_csv(files[-1], index=False)
    check, single = _single(files, tmp_path / "single")
    run = dry_run_on(client, files, tmp_path / "dask", as_of=AS_OF, skip_invalid=True, size=size, progress=False)
    assert len(run.parts) == -(-8 // size)  # 8 distinct hotels (one of them in both files)
    pd.testing.assert_frame_equal(run.issues, check.issues)
    assert run.complete and run.errors == len(check.errors) > 0
    pd.testing.assert_frame_equal(run.manifest, single.manifest)
    assert pd.read_csv(tmp_path / "dask" / "manifest.csv").equals(pd.read_csv(tmp_path / "single" / "manifest.csv"))
    same_requests(tmp_path / "dask", tmp_path / "single", list(single.manifest["file"]))
    assert (run.skipped_rows, run.repeated_rows) == (single.skipped_rows, single.repeated_rows)
    parts = read_parquet_parts(str(tmp_path / "dask" / "issues"))
    assert parts is not None
    pd.testing.assert_frame_equal(parts.sort_values(["source", "sheet", "row", "column", "rule"]).reset_index(drop=True),
                                  check.issues.sort_values(["source", "sheet", "row", "column", "rule"])
                                  .reset_index(drop=True), check_dtype=False)


def test_the_cluster_folder_reads_back_as_the_single_process_folder(client, tmp_path: Path) -> None:
    """``cells.parquet`` is a folder of parts written by the workers (never joined on the client):
    ``push requests`` reads the same cells, requests and sheet headers from it as from one process's file."""
    from workbench.writers.request_folder import read_folder

    files = [tmp_path / "rates.csv"]
    random_rates(5, hotels=5).to_csv(files[0], index=False)
    _single(files, tmp_path / "single")
    dry_run_on(client, files, tmp_path / "dask", as_of=AS_OF, skip_invalid=True, size=2, progress=False)
    parts = sorted(p.name for p in (tmp_path / "dask" / "cells.parquet").iterdir())
    assert parts[0] == "_common_metadata" and len(parts) == 1 + 3  # 5 hotels in partitions of 2
    dask, single = read_folder(tmp_path / "dask"), read_folder(tmp_path / "single")
    assert dask.headers == single.headers and dask.headers
    assert {f: b - a for f, (a, b) in dask.spans.items()} == {f: b - a for f, (a, b) in single.spans.items()}
    assert [(r.key, r.messages, r.cells) for r in dask.requests] == [(r.key, r.messages, r.cells) for r in single.requests]

    def ordered(cells: pd.DataFrame) -> pd.DataFrame:
        out = cells.assign(file=cells["file"].astype(str), month=cells["month"].astype(str))
        return out.sort_values(["file", "locator", "row", "amount_column", "date"]).reset_index(drop=True)

    pd.testing.assert_frame_equal(ordered(dask.cells), ordered(single.cells), check_dtype=False)


def _as_parquet(frame: pd.DataFrame, path: Path, row_group: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path, row_group_size=row_group)


def test_a_parquet_dataset_gives_what_the_same_rows_as_csv_give(client, tmp_path: Path) -> None:
    """Row groups straddle partitions (rows shuffled); provenance is the file and its row, numbered
    as in the same rows written as CSV (first row 2)."""
    tables = [random_rates(3, hotels=5), random_rates(4, hotels=6, first=4)]
    csvs, names = [], []
    for i, t in enumerate(tables):
        csvs.append(tmp_path / f"r{i}.csv")
        t.to_csv(csvs[-1], index=False)
        _as_parquet(t, tmp_path / "ds" / f"r{i}.parquet", row_group=97)
        names.append(f"r{i}.parquet")
    check, single = _single(csvs, tmp_path / "single")
    run = dry_run_on(client, [tmp_path / "ds"], tmp_path / "dask", as_of=AS_OF, skip_invalid=True, size=4,
                     progress=False)
    expected = check.issues.copy()
    for csv, name in zip(csvs, names, strict=True):
        expected["message"] = expected["message"].str.replace(f"`{csv.name}`", f"`{name}`", regex=False)
        expected["source"] = expected["source"].replace(csv.name, name)
    pd.testing.assert_frame_equal(run.issues, expected)
    renamed = single.manifest.assign(source_rows=single.manifest["source_rows"].str.replace(".csv", ".parquet"))
    pd.testing.assert_frame_equal(run.manifest, renamed)
    same_requests(tmp_path / "dask", tmp_path / "single", list(single.manifest["file"]))


def test_a_hive_partitioned_dataset_is_read_by_hotel(client, tmp_path: Path) -> None:
    table = random_rates(5, hotels=6)
    table.to_csv(tmp_path / "r.csv", index=False)
    for hotel, rows in table.groupby("HotelCode", sort=True):
        _as_parquet(rows.drop(columns="HotelCode"), tmp_path / "hive" / f"HotelCode={hotel}" / "part-0.parquet", 50)
    check, single = _single([tmp_path / "r.csv"], tmp_path / "single")
    run = validate_on(client, [tmp_path / "hive"], as_of=AS_OF, size=4, progress=False)
    assert (run.rows, run.errors, run.warnings) == (len(check.frame), len(check.errors), len(check.warnings))
    assert set(run.issues["source"]) <= {f"HotelCode={h}/part-0.parquet" for h in table["HotelCode"].unique()}
    built = dry_run_on(client, [tmp_path / "hive"], tmp_path / "dask", as_of=AS_OF, skip_invalid=True, size=4,
                       progress=False)
    same_requests(tmp_path / "dask", tmp_path / "single", list(single.manifest["file"]))
    assert built.cells == single.cells


def test_errors_block_the_dry_run_and_leave_no_requests(client, tmp_path: Path) -> None:
    random_rates(6, hotels=4).to_csv(tmp_path / "r.csv", index=False)
    (tmp_path / "dask").mkdir()
    (tmp_path / "dask" / "1-2020-01.xml").write_text("stale")
    run = dry_run_on(client, [tmp_path / "r.csv"], tmp_path / "dask", as_of=AS_OF, size=2, progress=False)
    assert run.blocked and run.errors
    assert not list((tmp_path / "dask").glob("*.xml")) and not (tmp_path / "dask" / "manifest.csv").exists()
    assert list((tmp_path / "dask" / "issues").glob("part-*.parquet"))


def test_a_partition_reads_only_its_hotels_row_groups(tmp_path: Path) -> None:
    """Sorted by hotel, a file's row groups each hold few hotels: a slice reads only the ones that
    can hold its hotels (the footer's statistics), and numbers rows from the file's first."""
    from workbench.scale.parquet import FileSlice, parquet_files, read_slice, scan_hotels

    table = random_rates(8, hotels=6).sort_values("HotelCode", kind="stable").reset_index(drop=True)
    _as_parquet(table, tmp_path / "sorted.parquet", row_group=50)
    [f] = parquet_files(str(tmp_path / "sorted.parquet"))
    scan = scan_hotels(f)
    hotel = scan.hotels[2]
    frame, _ = read_slice(FileSlice(f, scan.column, hotel, hotel, owner=False))
    wanted = np.flatnonzero(table["HotelCode"].to_numpy() == hotel) + 2
    assert set(frame["hotel_code"]) == {hotel}
    assert set(frame["row"]) <= set(wanted) and frame["source"].eq("sorted.parquet").all()


def test_a_delta_dry_run_builds_only_the_cells_the_journal_has_not_accepted(client, tmp_path: Path) -> None:
    """December accepted (through the journal as a push records it), then one December price changed:
    the cluster builds January and February and that one night, from the journal's Parquet snapshot."""
    from workbench.writers.batches import plan_requests
    from workbench.writers.journal import Journal
    from workbench.writers.push import plan

    target = "https://platform.example"
    table = random_rates(9, hotels=4)
    table.to_csv(tmp_path / "before.csv", index=False)
    valid = check_rates([tmp_path / "before.csv"], as_of=AS_OF).valid_frame().reset_index(drop=True)
    december = valid[valid["date"] < "2027-01-01"].reset_index(drop=True)
    with Journal(tmp_path / "journal.sqlite") as j:
        run_id = j.start_run(target)
        requests, cells = plan(december)
        for rid in j.add_requests(run_id, target, requests, cells):
            j.record_result(rid, target, status="success", http_status=200, ruid="r", attempts=1, errors=[],
                            warnings=[], error=None)
    changed_row = int(np.flatnonzero(pd.to_datetime(table["Date"]) < "2027-01-01")[40])
    table.loc[changed_row, "AmountAfterTax"] = "333.33"
    table.to_csv(tmp_path / "after.csv", index=False)

    run = dry_run_on(client, [tmp_path / "after.csv"], tmp_path / "dask", as_of=AS_OF, skip_invalid=True, size=2,
                     journal=tmp_path / "journal.sqlite", target=target, progress=False)
    after = check_rates([tmp_path / "after.csv"], as_of=AS_OF).valid_frame()
    wanted = after[(after["date"] >= "2027-01-01") | (after["amount"] == 333.33)]
    assert run.accepted_cells == len(december) and run.cells == len(wanted) < len(after)
    expected = {f"{r.key}.xml": r.body for r in plan_requests(wanted)}
    assert (wanted["date"] < "2027-01-01").sum() == 1
    same_requests_as(tmp_path / "dask", expected)
    cells = pd.read_parquet(tmp_path / "dask" / "cells.parquet")
    assert len(cells) == run.cells and set(cells["file"]) == set(expected)


def same_requests_as(folder: Path, expected: dict[str, bytes]) -> None:
    from tests.workbench.scale.conftest import without_timestamp

    assert sorted(p.name for p in folder.glob("*.xml")) == sorted(expected)
    for name, body in expected.items():
        assert without_timestamp((folder / name).read_bytes()) == without_timestamp(body), name


def test_a_partition_that_fails_stops_the_others(client, tmp_path: Path) -> None:
    """A file gone between the scan and the read fails its partition on a worker: the run raises
    that error and the partitions not yet done are cancelled on the cluster (none left behind)."""
    import time

    from workbench.scale.engine import make_job, run
    from workbench.scale.parquet import parquet_files, scan_hotels
    from workbench.scale.partitions import parquet_partitions

    for i in range(6):
        _as_parquet(random_rates(20 + i, hotels=3, first=3 * i), tmp_path / "ds" / f"r{i}.parquet", row_group=100)
    parts = parquet_partitions([scan_hotels(f) for f in parquet_files(str(tmp_path / "ds"))], 1)
    (tmp_path / "ds" / "r0.parquet").unlink()
    with pytest.raises(FileNotFoundError) as failed:
        run(client, parts, make_job(None, AS_OF, None), progress=False)
    assert "r0.parquet" in str(failed.value)
    deadline = time.monotonic() + 10
    while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0


def test_the_workbench_cluster_gives_its_workers_the_batch_memory_settings() -> None:
    """``cluster()`` registers the worker plugin: freed memory kept (Arrow on the system allocator)
    and fewer collections, in every worker."""
    import gc

    import pyarrow as pa

    from workbench.scale.engine import cluster

    with cluster(workers=1) as c:
        seen = c.run(lambda: (pa.default_memory_pool().backend_name, gc.get_threshold()[0]))
    assert list(seen.values()) == [("system", 50_000)]
