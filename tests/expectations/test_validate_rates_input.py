"""``validate_rates`` takes the as-of date as text or a date (like ``check_rates``), works in
``frame.pipe(...)``, and names the canonical columns a frame lacks instead of failing deep inside."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest

from expectations import validate_rates
from expectations.rates import as_of_date
from loaders import LoadError, read_rates
from workbench.paths import SAMPLES


@pytest.fixture(scope="module")
def loaded() -> tuple[pd.DataFrame, pd.DataFrame]:
    return read_rates(SAMPLES / "rates.xlsx")


@pytest.mark.parametrize("value", ["2026-12-01", " 2026-12-01 ", "20261201", dt.date(2026, 12, 1),
                                   dt.datetime(2026, 12, 1, 23, 59), pd.Timestamp("2026-12-01 08:00"),
                                   np.datetime64("2026-12-01")])
def test_as_of_is_a_date_whatever_it_was_given_as(value: object) -> None:
    assert as_of_date(value) == dt.date(2026, 12, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize(("value", "error", "message"), [
    ("2026-13-01", ValueError, "as_of `2026-13-01` is not a date: write it as YYYY-MM-DD"),
    ("01/12/2026", ValueError, "as_of `01/12/2026` is not a date"),
    ("", ValueError, "as_of `` is not a date"),
    (20261201, TypeError, "as_of must be a date or YYYY-MM-DD text, not int"),
])
def test_a_bad_as_of_says_how_to_write_it(value: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        as_of_date(value)  # type: ignore[arg-type]


def test_no_as_of_means_today_in_cet() -> None:
    from expectations import cet_today

    assert as_of_date(None) == cet_today()


def test_validate_rates_takes_text_and_works_in_a_pipe(loaded) -> None:
    frame, load_issues = loaded
    by_date = validate_rates(frame, as_of=dt.date(2026, 12, 1), load_issues=load_issues)
    by_text = frame.pipe(validate_rates, as_of="2026-12-01", load_issues=load_issues)
    pd.testing.assert_frame_equal(by_text, by_date)
    later = frame.pipe(validate_rates, as_of="2027-02-01")  # the date window moved: more nights are in the past
    assert (later["rule"] == "date_window").sum() > (by_date["rule"] == "date_window").sum()


def test_a_frame_that_is_not_canonical_gets_the_missing_columns_named() -> None:
    sheet_like = pd.DataFrame({"HotelCode": [1], "InvTypeCode": ["101"], "RatePlanCode": ["5001"],
                               "Date": ["2027-01-01"], "AmountAfterTax": [99.0], "CurrencyCode": ["EUR"]})
    with pytest.raises(LoadError) as err:
        validate_rates(sheet_like, as_of="2026-12-01")
    text = str(err.value)
    assert "`hotel_code`" in text and "`amount_minor`" in text and "`row`" in text
    assert "`check_rates`" in text  # where such a frame goes instead


def test_validate_rates_refuses_what_is_not_a_frame() -> None:
    with pytest.raises(TypeError, match="pandas DataFrame, not list"):
        validate_rates([1, 2], as_of="2026-12-01")  # type: ignore[arg-type]
