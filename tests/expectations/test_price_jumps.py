"""Price-jump warnings at their thresholds: more than the share is a jump, exactly the share is not."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from expectations.price_jumps import (
    PriceJumpLimits,
    price_jumps,
    price_outliers,
    read_price_jump_table,
)
from loaders import RATES_COLUMNS, LoadError


def rates(rows: list[tuple[int, int, int, str, str]]) -> pd.DataFrame:
    """Canonical rows ``(hotel, amount_minor, amount_scale, currency, date)`` of room 101 / rate 5001."""
    f = pd.DataFrame({
        "hotel_code": [r[0] for r in rows], "inv_type_code": "101", "rate_plan_code": "5001",
        "date": pd.to_datetime([r[4] for r in rows]), "number_of_guests": pd.NA,
        "amount": [r[1] / 10 ** r[2] for r in rows], "amount_minor": [r[1] for r in rows],
        "amount_scale": [r[2] for r in rows], "amount_type": "AfterTax", "decimal_places": pd.NA,
        "currency_code": [r[3] for r in rows], "source": "rates.csv", "sheet": "",
        "row": range(2, len(rows) + 2), "amount_column": "AmountAfterTax"})
    return f.astype(RATES_COLUMNS)


def before(rows: list[tuple[int | None, int | None, str | None]]) -> pd.DataFrame:
    return pd.DataFrame({"amount_minor": pd.array([r[0] for r in rows], dtype="Int64"),
                         "amount_scale": pd.array([r[1] for r in rows], dtype="Int64"),
                         "currency_code": pd.array([r[2] for r in rows], dtype="string")})


# (new minor, new scale, new currency, old minor, old scale, old currency, share, jump?)
JUMP_CASES = [
    (15000, 2, "EUR", 10000, 2, "EUR", 0.5, False),    # exactly +50%: not a jump
    (15001, 2, "EUR", 10000, 2, "EUR", 0.5, True),     # +50.01%
    (5000, 2, "EUR", 10000, 2, "EUR", 0.5, False),     # exactly -50%
    (4999, 2, "EUR", 10000, 2, "EUR", 0.5, True),      # -50.01%
    (150005, 3, "EUR", 100, 0, "EUR", 0.5, True),      # scales differ: 150.005 against 100
    (150, 0, "EUR", 10000, 2, "EUR", 0.5, False),      # 150 against 100.00: exactly 50%
    (0, 0, "EUR", 10000, 2, "EUR", 0.5, False),        # closing a night is not a price jump
    (50000, 2, "EUR", 0, 0, "EUR", 0.5, False),        # nor is opening one
    (99900, 2, "GBP", 10000, 2, "EUR", 0.5, False),    # another currency: not compared
    (13000, 2, "EUR", 10000, 2, "EUR", 0.3, False),    # exactly 30% (0.3 is no exact binary fraction)
    (13001, 2, "EUR", 10000, 2, "EUR", 0.3, True),
    (100000, 2, "EUR", 10000, 2, "EUR", 9.0, False),   # a share of 9 (900%): 1,000.00 is exactly 900% above
    (100001, 2, "EUR", 10000, 2, "EUR", 9.0, True),
]


@pytest.mark.parametrize(("nm", "ns", "nc", "om", "os_", "oc", "share", "jump"), JUMP_CASES)
def test_price_jump_threshold(nm: int, ns: int, nc: str, om: int, os_: int, oc: str, share: float,
                              jump: bool) -> None:
    issues = price_jumps(rates([(1000001, nm, ns, nc, "2027-03-05")]), before([(om, os_, oc)]),
                         PriceJumpLimits(share=share))
    assert (len(issues) == 1) is jump
    if jump:
        i = issues.iloc[0]
        assert (i["rule"], i["severity"], i["column"], i["row"]) == ("price_jump", "warning", "AmountAfterTax", 2)


def test_price_jump_message_has_both_prices() -> None:
    issues = price_jumps(rates([(1000001, 18000, 2, "EUR", "2027-03-05")]), before([(10000, 2, "EUR")]))
    assert issues["message"].iloc[0].startswith("180.00 EUR is 80.0% above 100.00 EUR, the last price the platform "
                                                "accepted for this night (room 101, rate 5001, 2027-03-05)")
    assert issues["value"].iloc[0] == "180.00"


def test_no_accepted_price_is_no_jump() -> None:
    assert price_jumps(rates([(1000001, 99999, 2, "EUR", "2027-03-05")]), before([(None, None, None)])).empty


def test_per_property_share_and_off() -> None:
    table = pd.DataFrame({"hotel_code": [1000002, 1000003], "share": [0.1, float("inf")],
                          "outlier_factor": [float("nan"), float("nan")]})
    limits = PriceJumpLimits(per_property=table)
    f = rates([(1000001, 12000, 2, "EUR", "2027-03-05"), (1000002, 12000, 2, "EUR", "2027-03-05"),
               (1000003, 99000, 2, "EUR", "2027-03-05")])
    issues = price_jumps(f, before([(10000, 2, "EUR")] * 3), limits)
    assert issues["row"].tolist() == [3]   # +20%: a jump only where the share is 10%; off for 1000003


def month(prices: list[int], odd: int) -> pd.DataFrame:
    """Ten nights of March 2027 at ``prices`` (minor units, scale 2), the last at ``odd``."""
    return rates([(1000001, p, 2, "EUR", f"2027-03-{d:02d}") for d, p in enumerate([*prices, odd], start=1)])


@pytest.mark.parametrize(("odd", "flagged"), [
    (100000, False),   # 1,000.00 is exactly 10x the median (100.00): not an outlier
    (100001, True),    # 1,000.01
    (1000, False),     # 10.00 is exactly a tenth
    (999, True),       # 9.99
    (0, False),        # 0 closes the night
])
def test_price_outlier_threshold(odd: int, flagged: bool) -> None:
    issues = price_outliers(month([10000] * 9, odd))
    assert issues["row"].tolist() == ([11] if flagged else [])
    if flagged:
        assert issues["rule"].iloc[0] == "price_outlier"
        assert "the median of its month (100.00 EUR; room 101, rate 5001, Mar 2027)" in issues["message"].iloc[0]


def test_outliers_compare_within_one_month_only() -> None:
    f = rates([(1000001, 10000, 2, "EUR", f"2027-03-{d:02d}") for d in range(1, 11)]
              + [(1000001, 200000, 2, "EUR", f"2027-04-{d:02d}") for d in range(1, 4)])
    assert price_outliers(f).empty   # April's 2,000.00 are April's median


def test_read_price_jump_table(tmp_path: Path) -> None:
    path = tmp_path / "jumps.csv"
    path.write_text("HotelCode,PriceJumpShare,PriceOutlierFactor\n1000001,30%,\n1000002,off,5\n", encoding="utf-8")
    limits = read_price_jump_table(path, share=0.5, outlier_factor=10)
    assert limits.for_rows(pd.Series([1000001, 1000002, 1000009]), "share").tolist() == [0.3, float("inf"), 0.5]
    assert limits.for_rows(pd.Series([1000001, 1000002]), "outlier_factor").tolist() == [10.0, 5.0]


@pytest.mark.parametrize(("content", "says"), [
    ("Hotel,PriceJumpShare\n1,0.5\n", "has no HotelCode column"),
    ("HotelCode,PriceJumpShare\nabc,0.5\n", "row 2: HotelCode `abc` is not a property id"),
    ("HotelCode,PriceJumpShare\n1000001,-1\n", "row 2, PriceJumpShare: `-1` is not a number above 0"),
    ("HotelCode,PriceOutlierFactor\n1000001,1\n", "row 2, PriceOutlierFactor: `1` is not a number above 1"),
])
def test_bad_price_jump_tables_say_where(tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "jumps.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(LoadError) as info:
        read_price_jump_table(path)
    assert says in str(info.value)
