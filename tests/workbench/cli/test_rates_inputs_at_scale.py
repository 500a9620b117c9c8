"""``validate rates`` and ``push rates --dry-run`` on a Parquet dataset and on a folder of CSV/Excel
files, as a person runs them: exit codes, reports that point at the file inside the folder, and the
same requests as from the spreadsheets."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pytest

from tests.workbench.cli.conftest import run_cli

COLUMNS = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]
AS_OF = ["--as-of", "2026-12-01"]


def _prices(bad: bool = False) -> pd.DataFrame:
    rows = [[h, "101", "RO", d.date().isoformat(), f"{100 + (d.day % 7 in (5, 6)) * 20:.2f}", "EUR"]
            for h in (1001, 1002) for d in pd.date_range("2027-01-01", "2027-02-28")]
    frame = pd.DataFrame(rows, columns=COLUMNS)
    if bad:
        frame.loc[frame.index[frame["HotelCode"] == 1002][3], "AmountAfterTax"] = "-5.00"  # 4th row of its file
    return frame


def _dataset(root: Path, bad: bool = False) -> Path:
    table = pa.Table.from_pandas(_prices(bad), preserve_index=False)
    ds.write_dataset(table, root / "ds", format="parquet", partitioning=["HotelCode"], partitioning_flavor="hive",
                     basename_template="part-{i}.parquet")
    return root / "ds"


def test_validate_a_hive_dataset_points_the_report_at_the_file_and_row(tmp_path: Path) -> None:
    folder = _dataset(tmp_path, bad=True)
    r = run_cli(["validate", "rates", str(folder), *AS_OF, "--report", str(tmp_path / "r.csv"),
                 "--report", str(tmp_path / "r.xlsx")])
    assert r.returncode == 1, r.stdout + r.stderr
    issues = pd.read_csv(tmp_path / "r.csv")
    errors = issues[issues["severity"] == "error"]
    assert errors[["source", "row", "column"]].values.tolist() == [["HotelCode=1002/part-0.parquet", 5,
                                                                    "AmountAfterTax"]]
    assert (tmp_path / "r.xlsx").stat().st_size > 0


@pytest.mark.parametrize("kind", ["parquet", "folder of CSV and XLSX"])
def test_dry_run_from_a_dataset_or_folder_writes_the_requests_the_spreadsheet_gives(tmp_path: Path, kind: str) -> None:
    prices = _prices()
    prices.to_csv(tmp_path / "all.csv", index=False)
    if kind == "parquet":
        source = _dataset(tmp_path)
    else:
        source = tmp_path / "in"
        (source / "b").mkdir(parents=True)
        prices[prices["HotelCode"] == 1001].to_csv(source / "a.csv", index=False)
        prices[prices["HotelCode"] == 1002].to_excel(source / "b" / "hotel.xlsx", index=False, sheet_name="Rates")
    for name, given in (("ref", tmp_path / "all.csv"), ("got", source)):
        r = run_cli(["push", "rates", str(given), "--dry-run", str(tmp_path / name), *AS_OF])
        assert r.returncode == 0, r.stdout + r.stderr
    ref, got = pd.read_csv(tmp_path / "ref" / "manifest.csv"), pd.read_csv(tmp_path / "got" / "manifest.csv")
    assert ref[["file", "hotel", "month", "messages", "cells"]].equals(got[["file", "hotel", "month", "messages",
                                                                             "cells"]])
    if kind == "parquet":
        assert got["source_rows"].iloc[0] == "HotelCode=1001/part-0.parquet 2-32"
    else:
        assert set(got["source_rows"]) >= {"a.csv 2-32", "b/hotel.xlsx Rates 2-32"}
    for file in ref["file"]:
        assert _no_timestamp(tmp_path / "ref" / file) == _no_timestamp(tmp_path / "got" / file)


def _no_timestamp(path: Path) -> bytes:
    return re.sub(rb'TimeStamp="[^"]*"', b"", path.read_bytes())


def test_an_empty_folder_exits_2_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    r = run_cli(["validate", "rates", str(tmp_path / "in"), *AS_OF])
    assert r.returncode == 2 and "is empty" in r.stderr and "Traceback" not in r.stderr + r.stdout
