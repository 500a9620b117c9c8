"""Typing rates cells by distinct values gives exactly what typing each row did: the same frame (values,
dtypes, column order, headers, unread rows) and the same issues (rows, order, messages); and the header
split, which now leaves untouched the columns with nothing to trim, still trims as Arrow does.

The oracle is the per-row code as it was (``_rate_cells_reference.py``, loaded by path): each file is
read twice by ``read_rates``, once as shipped and once with the reference typing patched in.
"""

from __future__ import annotations

import csv
import importlib
import importlib.util
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from unittest import mock

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loaders import LoadError, read_rates
from loaders.sheets import split_header
from loaders.unread import unread_rows


def _helper(name: str):  # noqa: ANN202 - a module
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


REFERENCE = _helper("_rate_cells_reference")
RATES = importlib.import_module("loaders.rates")

LONG = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]
NIGHTS = ["2027-01-01", "2027-01-02", "2027-01-03"]


def _write(folder: Path, rows: Sequence[Sequence[object]], name: str = "rates.csv") -> Path:
    path = folder / name
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _read(path: Path, reference: bool) -> object:
    """``read_rates(path)`` (or the LoadError it raises), with the distinct or the per-row typing."""
    if not reference:
        return _attempt(path)
    with mock.patch.multiple(RATES, type_cells=REFERENCE.type_cells, RateSheet=REFERENCE.RateSheet,
                             _row_cells=REFERENCE._row_cells, _wide_cells=REFERENCE._wide_cells):
        return _attempt(path)


def _attempt(path: Path) -> object:
    try:
        return read_rates(path)
    except LoadError as exc:
        return exc


def assert_same_as_reference(path: Path) -> None:
    got, want = _read(path, reference=False), _read(path, reference=True)
    if isinstance(want, LoadError):
        assert isinstance(got, LoadError) and str(got) == str(want)
        return
    assert not isinstance(got, LoadError), got
    pd.testing.assert_frame_equal(got.frame, want.frame, check_exact=True)
    assert list(got.frame.dtypes) == list(want.frame.dtypes)
    assert got.frame.attrs["headers"] == want.frame.attrs["headers"]
    got_unread, want_unread = unread_rows(got.frame), unread_rows(want.frame)
    assert (got_unread is None) == (want_unread is None)
    if want_unread is not None:
        pd.testing.assert_frame_equal(got_unread, want_unread, check_exact=True)
    pd.testing.assert_frame_equal(got.issues, want.issues, check_exact=True)


def test_the_reference_is_the_per_row_code() -> None:
    """The oracle must not be the code under test (else every comparison below passes)."""
    assert REFERENCE.type_cells is not RATES.type_cells
    assert not hasattr(REFERENCE, "Distinct")


GOOD = ["1001", "101", "RO", "2027-01-01", "99.50", "EUR"]

MESSY_LONG = {
    "clean": [GOOD, GOOD[:3] + ["2027-01-02", "99.50", "EUR"]],
    "blank cells": [["", "101", "RO", "2027-01-01", "99", "EUR"], ["1001", "", "", "", "", ""],
                    ["1001", "101", "RO", "2027-01-02", "", "EUR"]],
    "letter O for zero": [GOOD[:4] + ["12O.50", "EUR"], GOOD[:4] + ["12O.50", "EUR"], GOOD],
    "clashing currency mark": [GOOD[:4] + ["€ 99,50", "USD"], GOOD[:4] + ["€ 99,50", "EUR"],
                               GOOD[:4] + ["$ 10", "eur"], GOOD[:4] + ["€ 99,50", "EURO"],
                               GOOD[:4] + ["€ 99,50", ""], GOOD[:4] + ["12,000 $", "CAD"]],
    "yes/no words in code columns": [["1001", "TRUE", "false", "2027-01-01", "99", "EUR"],
                                     ["TRUE", "Vrai", "FALSCH", "2027-01-02", "TRUE", "EUR"], GOOD],
    "bad dates": [GOOD[:3] + [d, "99", "EUR"] for d in
                  ("2027-02-30", "01/02/2027", "2027-01-01 10:00", "1800-01-01", "3000-01-01", "46388", "46388.0",
                   "2027-1-5")],
    "repeated values": [GOOD] * 5 + [GOOD[:4] + ["abc", "EUR"]] * 3 + [GOOD[:4] + ["1,250", "EUR"]] * 2,
    "unicode spaces": [["1001", "101\u00a0", "\u2009RO", "2027-01-01", "1\u202f250,00", " EUR"],
                       ["1001", "DBL", "RO", "2027-01-02", "1 250,00", "eur"]],
    "leading zeros and spreadsheet numbers in codes": [["1001", "0101", "007", "2027-01-01", "99", "EUR"],
                                                      ["1001.0", "101.0", "1.00", "2027-01-02", "99", "EUR"],
                                                      ["01001", "101.5", "0.0", "2027-01-03", "99", "EUR"]],
    "amounts": [GOOD[:3] + [f"2027-01-{i + 1:02d}", a, "EUR"] for i, a in enumerate(
        ("1.234,50", "1,234.50", "(10)", "-5", "0", "1e3", "12.3.4", "1,2,3", "99999999999999999", "0.0000000000000000001",
         "1.23456789012345678901"))],
    "whole numbers": [["1001.5", "101", "RO", "2027-01-01", "99", "EUR"],
                      ["99999999999999999999", "101", "RO", "2027-01-02", "99", "EUR"],
                      ["-3", "101", "RO", "2027-01-03", "99", "EUR"]],
}


@pytest.mark.parametrize("rows", MESSY_LONG.values(), ids=MESSY_LONG.keys())
def test_messy_long_sheets_read_as_row_by_row(tmp_path: Path, rows: list[list[str]]) -> None:
    assert_same_as_reference(_write(tmp_path, [LONG, *rows]))


OPTIONAL = {
    "decimal places": (["DecimalPlaces"], [["2"], ["0"], ["5"], ["-1"], ["x"], ["2.0"], [""], ["TRUE"]],
                       ["8550", "85.50", "8550", "12", "12", "8550", "85.5", "8500"]),
    "guests": (["NumberOfGuests"], [["2"], ["2.0"], ["two"], [""], ["TRUE"], ["-1"], ["3"], ["1"]],
               ["99"] * 8),
    "both amounts": (["AmountBeforeTax"], [["90"], [""], ["90"], ["abc"], [""], ["€ 5"], ["1,5"], ["8"]],
                     ["99", "", "", "99", "99", "", "", "99"]),
}


@pytest.mark.parametrize("extra", OPTIONAL.values(), ids=OPTIONAL.keys())
def test_optional_columns_read_as_row_by_row(tmp_path: Path, extra: tuple) -> None:
    header, cells, amounts = extra
    rows = [[*GOOD[:3], f"2027-01-{i + 1:02d}", a, "EUR", *c] for i, (c, a) in enumerate(zip(cells, amounts,
                                                                                              strict=True))]
    assert_same_as_reference(_write(tmp_path, [LONG + header, *rows]))


def test_wide_sheet_reads_as_row_by_row(tmp_path: Path) -> None:
    header = ["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", "AmountType", *NIGHTS]
    rows = [["1001", "101", "RO", "EUR", "", "99", "12O", ""], ["1001", "TRUE", "RO", "EUR", "BeforeTax", "€ 5", "", "7"],
            ["", "102", "RO", "usd", "gross", "1,250", "8", "9"], ["1002", "101.0", "0.0", "EUR", "", "", "", ""]]
    assert_same_as_reference(_write(tmp_path, [header, *rows]))


def test_range_sheet_reads_as_row_by_row(tmp_path: Path) -> None:
    header = ["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End", "Mon", "Sat", "AmountAfterTax",
              "CurrencyCode"]
    rows = [["1001", "101", "RO", "2027-01-01", "2027-01-10", "1", "", "99", "EUR"],
            ["1001", "101", "RO", "2027-01-10", "2027-01-01", "", "", "99", "EUR"],
            ["1001", "FALSE", "RO", "2027-01-01", "2027-02-30", "x", "0", "€ 9", "USD"],
            ["1001", "101", "BB", "2027-01-01", "2027-01-03", "", "", "12O", "EUR"]]
    assert_same_as_reference(_write(tmp_path, [header, *rows]))


# --- a property: random columns from a small alphabet of good and bad cell texts ----------------------

ALPHABET = {
    "HotelCode": ["1001", "1002", "", "1001.0", "10O1", "TRUE", "abc", "99999999999999999999", "-1"],
    "InvTypeCode": ["101", "101.0", "0101", "", "TRUE", "false", "DBL", "dbl\u00a0", "Vrai"],
    "RatePlanCode": ["RO", "BB", "", "FALSCH", "007", "1.0"],
    "Date": ["2027-01-01", "2027-01-02", "46388", "", "2027-02-30", "01/02/2027", "2027-01-01 10:00"],
    "AmountAfterTax": ["99.5", "12O.50", "€ 99,50", "$ 10", "1,250", "1.234,50", "", "TRUE", "8550", "85.50",
                       "(10)", "1\u202f250,00", "12,000 €", "abc"],
    "CurrencyCode": ["EUR", "eur", " USD", "", "EURO", "€", "GBP"],
    "NumberOfGuests": ["", "2", "2.0", "two", "TRUE"],
    "DecimalPlaces": ["", "2", "0", "5", "x", "2.0"],
    "AmountBeforeTax": ["", "", "", "90", "abc"],
}
REQUIRED = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]


@st.composite
def long_sheets(draw: st.DrawFn) -> list[list[str]]:
    optional = draw(st.lists(st.sampled_from(["NumberOfGuests", "DecimalPlaces", "AmountBeforeTax"]), unique=True))
    header = REQUIRED + optional
    n = draw(st.integers(1, 12))
    return [header] + [[draw(st.sampled_from(ALPHABET[h])) for h in header] for _ in range(n)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_sheets())
def test_random_long_sheets_read_as_row_by_row(rows: list[list[str]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        assert_same_as_reference(_write(Path(folder), rows))


@st.composite
def wide_sheets(draw: st.DrawFn) -> list[list[str]]:
    header = ["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", *NIGHTS]
    n = draw(st.integers(1, 8))
    rows = [[draw(st.sampled_from(ALPHABET[h])) for h in header[:4]]
            + [draw(st.sampled_from(ALPHABET["AmountAfterTax"])) for _ in NIGHTS] for _ in range(n)]
    return [header, *rows]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wide_sheets())
def test_random_wide_sheets_read_as_row_by_row(rows: list[list[str]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        assert_same_as_reference(_write(Path(folder), rows))


# --- the header split leaves a column untouched when no text needs trimming --------------------------

EDGE_TEXTS = ["101", " 101", "101 ", "\u00a0RO", "RO\u2009", "\t7", "7\n", "é", "ü ", "", "  ", "\u3000",
              "2027-01-01 00:00:00", "x\u3000", "\u200b1", "1\u202f250,00", None]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.sampled_from(EDGE_TEXTS), min_size=3, max_size=3), max_size=10), st.booleans(),
       st.integers(0, 2))
def test_header_split_trims_as_arrow_does(rows: list[list[str | None]], large: bool, split_at: int) -> None:
    """Body cells are Arrow's ``utf8_trim_whitespace`` of the cells, blank ones NA, blank rows dropped,
    whether or not a column needed trimming (string or large_string, in several chunks)."""
    kind = pa.large_string() if large else pa.string()
    header = ["HotelCode", "InvTypeCode", "Date"]
    table = pa.table({f"c{i}": pa.chunked_array([pa.array([h], kind), pa.array([r[i] for r in rows[:split_at]], kind),
                                                 pa.array([r[i] for r in rows[split_at:]], kind)])
                      for i, h in enumerate(header)})
    raw = split_header(Path("rates.csv"), "", table, first_row=1, header_at=0)
    assert raw is not None and raw.header == header
    trimmed = [[None if t is None or t == "" else t
                for t in pc.utf8_trim_whitespace(pa.array([r[i] for r in rows], pa.string())).to_pylist()]
               for i in range(len(header))]
    kept = [k for k in range(len(rows)) if any(col[k] is not None for col in trimmed)]
    assert raw.rows.tolist() == [k + 2 for k in kept]
    for i in range(len(header)):
        assert raw.body[i].dtype == "string"
        assert [None if pd.isna(v) else v for v in raw.body[i]] == [trimmed[i][k] for k in kept]


RANGE_ALPHABET = {"Start": ["2027-01-01", "2027-01-05", "", "2027-02-30", "46388"],
                  "End": ["2027-01-03", "2027-01-01", "", "x", "2027-01-05"],
                  "Mon": ["", "1", "0", "x"], "Sat": ["", "1", "no"]}


@st.composite
def range_sheets(draw: st.DrawFn) -> list[list[str]]:
    header = ["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End", "Mon", "Sat", "AmountAfterTax",
              "CurrencyCode"]
    alphabet = {**ALPHABET, **RANGE_ALPHABET}
    n = draw(st.integers(1, 8))
    return [header] + [[draw(st.sampled_from(alphabet[h])) for h in header] for _ in range(n)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(range_sheets())
def test_random_range_sheets_read_as_row_by_row(rows: list[list[str]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        assert_same_as_reference(_write(Path(folder), rows))
