"""``check_rates`` takes pandas frames beside files: a frame reads exactly as the same table in a sheet,
its issues point at ``<DataFrame n>`` and the row the frame has when written with
``to_excel(index=False)``, and a frame in no layout gets a clear ``LoadError`` naming every column it lacks."""

from __future__ import annotations

import datetime as dt
import decimal
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loaders import LoadError, read_rates
from workbench.flows.frames import read_rates_frame
from workbench.flows.rates import check_rates
from workbench.paths import SAMPLES

AS_OF = dt.date(2026, 12, 1)
SAME = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "number_of_guests", "amount", "amount_minor",
        "amount_scale", "amount_type", "decimal_places", "currency_code", "row", "amount_column"]
ISSUE_KEY = ["row", "column", "value", "rule", "severity", "message"]


def long_frame(**overrides: object) -> pd.DataFrame:
    data: dict[str, object] = {"HotelCode": [1000001] * 3, "InvTypeCode": ["101"] * 3, "RatePlanCode": ["5001"] * 3,
                               "Date": pd.date_range("2027-01-01", periods=3), "AmountAfterTax": [99.99, 120, 130.5],
                               "CurrencyCode": ["EUR"] * 3}
    data.update(overrides)
    return pd.DataFrame(data)


def sheet_of(frame: pd.DataFrame, tmp_path: Path, name: str = "same.xlsx") -> Path:
    path = tmp_path / name
    frame.to_excel(path, index=False)
    return path


def test_a_frame_reads_like_the_same_table_in_a_sheet(tmp_path: Path) -> None:
    frame = long_frame(AmountAfterTax=[99.99, "12O.50", 130.5], NumberOfGuests=pd.array([None, 2, 2], dtype="Int64"))
    frame = frame.set_index(pd.Index([10, 20, 30]))  # the index is not read: rows count from the top
    from_frame = check_rates(frame, as_of=AS_OF)
    from_sheet = check_rates(sheet_of(frame, tmp_path), as_of=AS_OF)
    pd.testing.assert_frame_equal(from_frame.frame[SAME], from_sheet.frame[SAME])
    pd.testing.assert_frame_equal(from_frame.issues[ISSUE_KEY], from_sheet.issues[ISSUE_KEY])
    assert set(from_frame.frame["source"]) == {"<DataFrame 1>"} and set(from_frame.frame["sheet"]) == {""}
    bad = from_frame.issues[from_frame.issues["rule"] == "not_a_number"].iloc[0]
    assert (bad["source"], bad["row"], bad["column"], bad["value"]) == ("<DataFrame 1>", 3, "AmountAfterTax", "12O.50")
    assert frame.iloc[bad["row"] - 2]["AmountAfterTax"] == "12O.50"  # row - 2 is the frame's position
    assert from_frame.files == []


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prices=st.lists(st.one_of(st.decimals(min_value=-100, max_value=99_999, places=2, allow_nan=False),
                                 st.sampled_from(["12O.50", "1.234,50", "", " 99,99 ", "abc"]),
                                 st.sampled_from([0.1 + 0.2, 129.95000000000002, 1e-7])),  # as Excel shows them
                       min_size=1, max_size=6),
       as_float=st.booleans())
def test_every_cell_reads_as_it_would_from_the_sheet(tmp_path: Path, prices: list[object], as_float: bool) -> None:
    """What the loader makes of a frame (frame and issues) is what it makes of the frame written to Excel."""
    amounts = [float(p) if as_float and isinstance(p, decimal.Decimal) else p for p in prices]
    n = len(prices)
    frame = long_frame(HotelCode=[1000001] * n, InvTypeCode=["101"] * n, RatePlanCode=["5001"] * n,
                       Date=pd.date_range("2027-01-01", periods=n), AmountAfterTax=amounts, CurrencyCode=["EUR"] * n)
    from_frame = read_rates_frame(frame, 1)
    written = frame.assign(AmountAfterTax=[float(p) if isinstance(p, decimal.Decimal) else p for p in amounts])
    from_sheet = read_rates(sheet_of(written, tmp_path))
    pd.testing.assert_frame_equal(from_frame.frame[SAME], from_sheet.frame[SAME])
    pd.testing.assert_frame_equal(from_frame.issues[ISSUE_KEY], from_sheet.issues[ISSUE_KEY])
    read = dict(zip(from_frame.frame["row"], zip(from_frame.frame["amount_minor"], from_frame.frame["amount_scale"],
                                                 strict=True), strict=True))
    for row, p in enumerate(prices, start=2):  # money is exact
        if isinstance(p, decimal.Decimal):
            minor, scale = read[row]
            assert decimal.Decimal(int(minor)).scaleb(-int(scale)) == p


@pytest.mark.parametrize("dates", [
    pd.date_range("2027-01-01", periods=3),
    [dt.date(2027, 1, 1), dt.date(2027, 1, 2), dt.date(2027, 1, 3)],
    ["2027-01-01", "2027-01-02", "2027-01-03"],
    pd.date_range("2027-01-01", periods=3, tz="Europe/Amsterdam"),
    pd.Series(pd.date_range("2027-01-01", periods=3)).astype("category"),
], ids=["datetime64", "date objects", "text", "tz-aware", "category"])
def test_dates_of_any_kind_read_as_the_nights_they_show(dates: object) -> None:
    check = check_rates(long_frame(Date=dates), as_of=AS_OF)
    assert list(check.frame["date"].dt.strftime("%Y-%m-%d")) == ["2027-01-01", "2027-01-02", "2027-01-03"]
    assert check.errors.empty


def test_sheet_names_or_snake_case_names_alike() -> None:
    snake = long_frame().rename(columns={"HotelCode": "hotel_code", "InvTypeCode": "inv_type_code",
                                         "RatePlanCode": "rate_plan_code", "Date": "date", "AmountAfterTax": "amount",
                                         "CurrencyCode": "currency_code"})
    from_snake, from_sheet_names = check_rates(snake, as_of=AS_OF).frame, check_rates(long_frame(), as_of=AS_OF).frame
    same = [c for c in SAME if c != "amount_column"]  # the header as written: `amount` / `AmountAfterTax`
    pd.testing.assert_frame_equal(from_snake[same], from_sheet_names[same])
    assert set(from_snake["amount_column"]) == {"amount"}


def test_decimal_places_and_before_tax_columns_work_as_in_a_sheet() -> None:
    frame = long_frame(AmountAfterTax=[None, None, None], AmountBeforeTax=[8550, 9000, 12345],
                       DecimalPlaces=[2, 2, 2])
    check = check_rates(frame, as_of=AS_OF)
    assert list(check.frame["amount"]) == [85.5, 90.0, 123.45]
    assert set(check.frame["amount_type"]) == {"BeforeTax"}


def test_a_canonical_frame_reads_back_as_the_same_prices() -> None:
    """``check.frame`` (filtered, edited) goes back in: BeforeTax prices stay BeforeTax, amounts stay exact."""
    first = check_rates([SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"], as_of=AS_OF)
    again = check_rates(first.frame, as_of=AS_OF)
    cols = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "number_of_guests", "amount", "amount_minor",
            "amount_scale", "amount_type", "currency_code"]
    pd.testing.assert_frame_equal(again.frame[cols], first.frame[cols])
    assert set(again.frame["amount_type"]) == {"AfterTax", "BeforeTax"}
    assert list(again.frame["row"]) == list(range(2, len(first.frame) + 2))


def test_frames_are_numbered_in_the_order_given_and_files_keep_their_names() -> None:
    lisbon, _ = read_rates(SAMPLES / "lisbon_seasons.csv")
    check = check_rates([long_frame(), SAMPLES / "lisbon_seasons.csv", lisbon.head(3)], as_of=AS_OF)
    assert list(dict.fromkeys(check.frame["source"])) == ["<DataFrame 1>", "lisbon_seasons.csv", "<DataFrame 2>"]
    assert check.files == [SAMPLES / "lisbon_seasons.csv"]
    assert set(check.frame.attrs["headers"]) == {("<DataFrame 1>", ""), ("lisbon_seasons.csv", ""),
                                                 ("<DataFrame 2>", "")}


def test_rules_over_rows_point_at_the_frame() -> None:
    frame = long_frame(Date=["2027-01-01", "2027-01-01", "2027-01-02"])  # a night priced twice
    dupes = check_rates(frame, as_of=AS_OF).issues.query("rule == 'duplicate_key'")
    assert list(dupes["row"]) == [3]  # the repeat; the first occurrence is sent (issue 10)
    assert "row 2" in dupes["message"].iloc[0] and dupes["severity"].iloc[0] == "warning"


def test_skip_invalid_leaves_out_the_frame_rows_with_errors() -> None:
    check = check_rates(long_frame(AmountAfterTax=[99.99, 75_000, 130.5]), as_of=AS_OF)
    assert list(check.valid_frame()["row"]) == [2, 4]


def test_a_frame_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    check_rates(long_frame(), as_of=AS_OF)
    with pytest.raises(LoadError):
        check_rates(pd.DataFrame({"hotel": [1]}), as_of=AS_OF)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("frame", "missing", "not_named"), [
    (pd.DataFrame({"hotel": [1], "price": [3]}), ["InvTypeCode", "RatePlanCode", "Date", "CurrencyCode"],
     ["HotelCode", "AmountAfterTax ("]),
    (pd.DataFrame({"a": [1]}), ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"],
     []),
    (long_frame().drop(columns=["Date"]), ["Date"], ["HotelCode (", "CurrencyCode ("]),
    (long_frame().drop(columns=["Date", "CurrencyCode"]), ["Date", "CurrencyCode"], ["HotelCode ("]),
    (long_frame().drop(columns=["HotelCode"]), ["HotelCode"], ["Date ("]),
    (long_frame(AmountBeforeTax=1).drop(columns=["AmountAfterTax", "Date"]), ["Date"], ["AmountAfterTax ("]),
], ids=["two unknown columns", "nothing known", "no Date", "no Date nor currency", "no HotelCode", "before tax"])
def test_a_frame_not_in_the_long_layout_gets_a_load_error_naming_what_it_lacks(
        frame: pd.DataFrame, missing: list[str], not_named: list[str]) -> None:
    with pytest.raises(LoadError) as err:
        check_rates(frame, as_of=AS_OF)
    text = str(err.value)
    assert text.startswith("`<DataFrame 1>` is missing required column")
    for name in missing:
        assert f"{name} (accepted names" in text
    for name in not_named:
        assert name not in text
    assert "workbench-frame" not in text and err.value.source == "<DataFrame 1>"


def test_a_frame_without_columns_or_of_another_type_is_refused_clearly() -> None:
    with pytest.raises(LoadError, match="`<DataFrame 1>` has no columns"):
        check_rates(pd.DataFrame(), as_of=AS_OF)
    with pytest.raises(TypeError, match="file paths and pandas DataFrames, not dict"):
        check_rates([{"HotelCode": 1}], as_of=AS_OF)  # type: ignore[list-item]


def test_an_empty_frame_with_the_columns_is_an_empty_check() -> None:
    check = check_rates(long_frame().iloc[0:0], as_of=AS_OF)
    assert check.frame.empty and check.ok  # nothing blocks; the one warning says there is nothing to send
    assert check.issues[["rule", "severity"]].values.tolist() == [["no_prices", "warning"]]


@pytest.mark.parametrize("as_of", ["2026-12-01", dt.date(2026, 12, 1), dt.datetime(2026, 12, 1, 18, 30),
                                   pd.Timestamp("2026-12-01"), np.datetime64("2026-12-01")])
def test_check_rates_takes_the_as_of_date_as_text_or_a_date(as_of: object) -> None:
    assert check_rates(long_frame(), as_of=as_of).as_of == dt.date(2026, 12, 1)  # type: ignore[arg-type]
