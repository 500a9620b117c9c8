"""Rates from Parquet files and datasets (hive-partitioned or not) and from folders of CSV/Excel
files: the same frame as the spreadsheets, exact provenance, and one clear error per unusable input."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from loaders import LoadError, read_rates

COLUMNS = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]


def _rows(hotels: tuple[int, ...] = (1001, 1002), nights: int = 3) -> pd.DataFrame:
    rows = [[h, "101", "RO", dt.date(2027, 1, 1) + dt.timedelta(days=d), 100 + d + (h % 10) / 4, "EUR"]
            for h in hotels for d in range(nights)]
    return pd.DataFrame(rows, columns=COLUMNS)


def _canonical(frame: pd.DataFrame) -> list[tuple]:
    cols = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "amount_minor", "amount_scale", "currency_code"]
    return sorted(map(tuple, frame[cols].astype(str).to_numpy().tolist()))


def test_a_parquet_file_reads_like_the_same_csv(tmp_path: Path) -> None:
    rows = _rows()
    rows.to_csv(tmp_path / "rates.csv", index=False)
    pq.write_table(pa.Table.from_pandas(rows, preserve_index=False), tmp_path / "rates.parquet")
    from_csv, csv_issues = read_rates(tmp_path / "rates.csv")
    from_parquet, issues = read_rates(tmp_path / "rates.parquet")
    assert issues.empty and csv_issues.empty
    assert _canonical(from_parquet) == _canonical(from_csv)
    assert from_parquet["source"].unique().tolist() == ["rates.parquet"]
    assert from_parquet["sheet"].unique().tolist() == [""]
    assert from_parquet["row"].tolist() == from_csv["row"].tolist() == list(range(2, 2 + len(rows)))


def test_a_hive_partitioned_dataset_names_each_file_and_its_rows(tmp_path: Path) -> None:
    rows = _rows(hotels=(1001, 1002, 1003), nights=4)
    ds.write_dataset(pa.Table.from_pandas(rows, preserve_index=False), tmp_path / "ds", format="parquet",
                     partitioning=["HotelCode"], partitioning_flavor="hive",
                     basename_template="part-{i}.parquet")
    (tmp_path / "ds" / "_SUCCESS").write_text("")  # a writer's marker: not data
    frame, issues = read_rates(tmp_path / "ds")
    assert issues.empty
    assert _canonical(frame) == _canonical(read_rates(_csv(tmp_path, rows))[0])
    assert sorted(frame["source"].unique()) == [f"HotelCode={h}/part-0.parquet" for h in (1001, 1002, 1003)]
    assert (frame.groupby("source")["row"].apply(list) == [[2, 3, 4, 5]] * 3).all()


def test_a_dataset_partitioned_by_hotel_with_several_row_groups_keeps_rows_exact(tmp_path: Path) -> None:
    rows = _rows(hotels=(1001,), nights=10)
    rows.loc[7, "AmountAfterTax"] = -5.0  # the 8th row of the file: row 9, in the 3rd row group of 3 rows
    folder = tmp_path / "ds" / "hotel_code=1001"
    folder.mkdir(parents=True)
    pq.write_table(pa.Table.from_pandas(rows.drop(columns="HotelCode"), preserve_index=False),
                   folder / "part-0.parquet", row_group_size=3)
    frame, issues = read_rates(tmp_path / "ds")
    assert frame["hotel_code"].unique().tolist() == [1001]  # from the partition folder
    assert frame["row"].tolist() == list(range(2, 12))
    bad = issues[issues["severity"] == "error"] if len(issues) else issues
    assert len(frame) == 10 and frame.loc[frame["row"] == 9, "amount"].tolist() == [-5.0]
    assert bad.empty  # a negative price is the checks' business, not the loader's


def test_a_folder_of_csv_and_xlsx_files_reads_each_named_by_its_path(tmp_path: Path, write_xlsx) -> None:
    rows = _rows(hotels=(1001, 1002))
    folder = tmp_path / "in"
    (folder / "north").mkdir(parents=True)
    rows.iloc[:3].to_csv(folder / "north" / "a.csv", index=False)
    xlsx = write_xlsx({"Rates": [COLUMNS, *rows.iloc[3:].astype(object).to_numpy().tolist()]})
    xlsx.replace(folder / "b.xlsx")
    (folder / ".DS_Store").write_bytes(b"\0")
    (folder / "~$b.xlsx").write_bytes(b"\0")  # Excel's lock file
    frame, issues = read_rates(folder)
    assert issues.empty
    assert _canonical(frame) == _canonical(read_rates(_csv(tmp_path, rows))[0])
    assert frame.groupby(["source", "sheet"])["row"].apply(list).to_dict() == {
        ("b.xlsx", "Rates"): [2, 3, 4], ("north/a.csv", ""): [2, 3, 4]}


def test_an_issue_in_a_folder_points_at_the_file_inside_it(tmp_path: Path) -> None:
    rows = _rows(hotels=(1001,)).astype(str)
    rows.loc[1, "AmountAfterTax"] = "12O.50"
    (tmp_path / "in" / "north").mkdir(parents=True)
    rows.to_csv(tmp_path / "in" / "north" / "a.csv", index=False)
    _, issues = read_rates(tmp_path / "in")
    bad = issues[issues["severity"] == "error"]
    assert bad[["source", "row", "column"]].values.tolist() == [["north/a.csv", 3, "AmountAfterTax"]]


def _csv(tmp_path: Path, rows: pd.DataFrame) -> Path:
    path = tmp_path / "reference.csv"
    rows.to_csv(path, index=False)
    return path


# --- unusable inputs: one clear error each ------------------------------------------------------------------

def _empty(root: Path) -> Path:
    (root / "in" / "sub").mkdir(parents=True)
    (root / "in" / "_SUCCESS").write_text("")
    return root / "in"


def _unreadable_kind(root: Path) -> Path:
    (root / "in").mkdir()
    _rows().to_csv(root / "in" / "a.csv", index=False)
    (root / "in" / "notes.docx").write_bytes(b"PK")
    return root / "in"


def _mixed_kinds(root: Path) -> Path:
    (root / "in").mkdir()
    _rows().to_csv(root / "in" / "a.csv", index=False)
    pq.write_table(pa.Table.from_pandas(_rows(), preserve_index=False), root / "in" / "b.parquet")
    return root / "in"


def _corrupt_parquet(root: Path) -> Path:
    (root / "in" / "hotel_code=1").mkdir(parents=True)
    pq.write_table(pa.Table.from_pandas(_rows(), preserve_index=False), root / "in" / "hotel_code=1" / "a.parquet")
    (root / "in" / "hotel_code=2").mkdir()
    (root / "in" / "hotel_code=2" / "b.parquet").write_bytes(b"PAR1 not really")
    return root / "in"


def _mixed_schemas(root: Path) -> Path:
    (root / "in").mkdir()
    pq.write_table(pa.Table.from_pandas(_rows(), preserve_index=False), root / "in" / "a.parquet")
    other = _rows().rename(columns={"AmountAfterTax": "AmountBeforeTax"})
    pq.write_table(pa.Table.from_pandas(other, preserve_index=False), root / "in" / "b.parquet")
    return root / "in"


def _bad_file_in_folder(root: Path) -> Path:
    (root / "in" / "north").mkdir(parents=True)
    _rows().drop(columns="CurrencyCode").to_csv(root / "in" / "north" / "a.csv", index=False)
    return root / "in"


def _corrupt_workbook_in_folder(root: Path) -> Path:
    (root / "in" / "south").mkdir(parents=True)
    _rows().to_csv(root / "in" / "a.csv", index=False)
    (root / "in" / "south" / "b.xlsx").write_bytes(b"not a zip file")
    return root / "in"


def _unknown_file(root: Path) -> Path:
    (root / "rates.json").write_text("{}")
    return root / "rates.json"


def _parquet_without_rates_columns(root: Path) -> Path:
    pq.write_table(pa.table({"x": [1, 2]}), root / "x.parquet")
    return root / "x.parquet"


BAD_INPUTS: list[tuple[Callable[[Path], Path], str]] = [
    (_empty, "is empty: it holds no CSV, Excel or Parquet files"),
    (_unreadable_kind, "holds files this tool cannot read: `notes.docx`"),
    (_mixed_kinds, "mixes Parquet files (`b.parquet`) with CSV/Excel files (`a.csv`)"),
    (_corrupt_parquet, "`hotel_code=2/b.parquet` cannot be read as a Parquet file"),
    (_mixed_schemas, "do not share one schema: `b.parquet` has other columns than `a.parquet` (it has "
                     "`AmountBeforeTax` which `a.parquet` has not; it lacks `AmountAfterTax`)"),
    (_bad_file_in_folder, "`north/a.csv` is missing required column: CurrencyCode"),
    (_corrupt_workbook_in_folder, "file `south/b.xlsx`: `b.xlsx` cannot be read as a workbook"),
    (_unknown_file, "`rates.json` is not a spreadsheet this tool reads"),
    (_parquet_without_rates_columns, "`x.parquet` is missing required column"),
]


@pytest.mark.parametrize(("make", "expected"), BAD_INPUTS, ids=[m.__name__.strip("_") for m, _ in BAD_INPUTS])
def test_an_unusable_input_is_one_clear_error(tmp_path: Path, make: Callable[[Path], Path], expected: str) -> None:
    with pytest.raises(LoadError) as caught:
        read_rates(make(tmp_path))
    assert expected in str(caught.value)
