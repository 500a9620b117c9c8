"""The waivers file: read from CSV or Excel; a file that cannot be used is refused naming each bad cell."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from loaders import LoadError
from loaders.waivers import read_waivers

HEADER = ["rule", "property", "room", "rate", "start", "end", "reason", "who", "expires"]
GOOD = ["duplicate_key", 1000001, "101", "5001", "2027-03-01", "2027-03-31", "known repeat", "Ana", "2027-06-30"]


def test_reads_csv_and_excel_alike(write_csv, write_xlsx) -> None:
    blank_any = ["coverage", "", "", "", "", "", "winter only", "Bob", "2027-01-31"]
    from_csv = read_waivers(write_csv([HEADER, GOOD, blank_any], name="w.csv"))
    xlsx_row = [*GOOD[:4], dt.date(2027, 3, 1), dt.date(2027, 3, 31), *GOOD[6:8], dt.date(2027, 6, 30)]
    from_xlsx = read_waivers(write_xlsx({"Waivers": [HEADER, xlsx_row, [*blank_any[:1], *[None] * 5, *blank_any[6:]]]},
                                        name="w.xlsx"))
    for w in (from_csv, from_xlsx):
        assert w["rule"].tolist() == ["duplicate_key", "coverage"]
        assert w["hotel_code"].iloc[0] == 1000001 and pd.isna(w["hotel_code"].iloc[1])
        assert w["start"].iloc[0] == pd.Timestamp("2027-03-01") and pd.isna(w["end"].iloc[1])
        assert w["expires"].tolist() == [pd.Timestamp("2027-06-30"), pd.Timestamp("2027-01-31")]
        assert w["row"].tolist() == [2, 3]
    assert from_xlsx["sheet"].iloc[0] == "Waivers" and from_csv["sheet"].iloc[0] == ""


def test_other_header_spellings(write_csv) -> None:
    w = read_waivers(write_csv([["Rule", "HotelCode", "InvTypeCode", "RatePlanCode", "From", "To", "Why", "Waived By",
                                 "Valid Until"], GOOD], name="w.csv"))
    assert w.iloc[0]["inv_type_code"] == "101" and w.iloc[0]["who"] == "Ana"


@pytest.mark.parametrize(("row", "header", "expected"), [
    (GOOD, [h for h in HEADER if h != "expires"], "is missing required column: expires"),
    ([*GOOD[:1], "Hotel One", *GOOD[2:]], HEADER, "row 3, column `property`: `Hotel One` is not a property id"),
    ([*GOOD[:4], "1/3/2027", *GOOD[5:]], HEADER, "row 3, column `start`: `1/3/2027` is not a date"),
    ([*GOOD[:8], ""], HEADER, "row 3, column `expires`: is blank (every waiver needs `expires`)"),
    ([*GOOD[:6], "", *GOOD[7:]], HEADER, "row 3, column `reason`: is blank"),
    (["", *GOOD[1:]], HEADER, "row 3, column `rule`: is blank"),
    ([*GOOD[:4], "2027-03-31", "2027-03-01", *GOOD[6:]], HEADER, "row 3: `end` 2027-03-01 is before `start` 2027-03-31"),
], ids=["no expires column", "property not a number", "start not a date", "no expiry", "no reason", "no rule",
        "end before start"])
def test_a_bad_waivers_file_is_refused_naming_the_cell(write_csv, row, header, expected) -> None:
    cells = row if len(row) == len(header) else [v for h, v in zip(HEADER, row, strict=True) if h in header]
    with pytest.raises(LoadError) as caught:  # a good row first: the bad one is Excel row 3
        read_waivers(write_csv([header, [v for h, v in zip(HEADER, GOOD, strict=True) if h in header], cells],
                               name="w.csv"))
    assert expected in str(caught.value) and "`w.csv`" in str(caught.value)


def test_every_bad_cell_is_named_at_once(write_csv) -> None:
    rows = [HEADER, [*GOOD[:1], "x", *GOOD[2:]], [*GOOD[:8], "soon"]]
    with pytest.raises(LoadError) as caught:
        read_waivers(write_csv(rows, name="w.csv"))
    assert "row 2, column `property`" in str(caught.value) and "row 3, column `expires`" in str(caught.value)
