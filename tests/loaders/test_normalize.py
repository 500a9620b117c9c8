"""Typing cells: exact amounts in the forms people type, and dates."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loaders.normalize import decimal_text, parse_decimal, split_decimal

GOOD = [("99.99", "99.99"), ("1,234.50", "1234.50"), ("1.234,50", "1234.50"), ("449,50", "449.50"),
        ("1 250,00", "1250.00"), ("1\u00a0250,00", "1250.00"), ("1.250.000", "1250000"), ("0,250", "0.250"),
        ("-10", "-10"), ("(10)", "-10"), ("0", "0"), ("12", "12"), ("1E+3", "1E+3")]


@pytest.mark.parametrize(("text", "expected"), GOOD)
def test_amounts_people_type(text: str, expected: str) -> None:
    assert parse_decimal(text) == (Decimal(expected), None)


BAD = [("12O.50", "`12O.50` is not a number (letter O instead of zero?)"),
       ("1,250", "`1,250` is ambiguous (1,250 could be 1250 or 1.25): write it as a number without a thousands "
                 "separator"),
       ("1,2,3", "`1,2,3` is not a number"), ("1.23.4", "`1.23.4` is not a number"), ("abc", "`abc` is not a number"),
       ("1.234,5,6", "`1.234,5,6` mixes `.` and `,` in a way that is not a number"), ("NaN", "`NaN` is not a number"),
       ("inf", "`inf` is not a number")]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_amounts_that_are_not_numbers(text: str, message: str) -> None:
    assert parse_decimal(text) == (None, message)


amounts = st.decimals(min_value=Decimal("-99999999"), max_value=Decimal("99999999"), places=2, allow_nan=False,
                      allow_infinity=False)


@given(amounts)
def test_money_is_exact_whatever_the_separators(value: Decimal) -> None:
    plain = f"{value:.2f}"
    english = f"{value:,.2f}"
    european = english.replace(",", " ").replace(".", ",")
    for text in (plain, english, european):
        parsed, err = parse_decimal(text)
        assert err is None and parsed == value, text
        minor, scale = split_decimal(parsed)
        assert Decimal(decimal_text(minor, scale)) == value


@given(st.floats(min_value=0, max_value=50000, allow_nan=False).map(lambda f: round(f, 2)))
def test_a_float_cell_is_read_as_it_shows(value: float) -> None:
    parsed, err = parse_decimal(repr(value))
    assert err is None and parsed == Decimal(repr(value))


# --- currency marks, booleans, numbers too large to represent --------------------------------------------

MONEY = [("€ 99,50", "99.50", {"EUR"}), ("99.99 EUR", "99.99", {"EUR"}), ("£99.50", "99.50", {"GBP"}),
         ("¥12,000", "12000", {"JPY", "CNY"}), ("CHF 120.-", "120", {"CHF"}), ("120,- CHF", "120", {"CHF"}),
         ("US$ 5", "5", {"USD"}), ("-€5", "-5", {"EUR"}), ("€ -5", "-5", {"EUR"}), ("1 250,00 zł", "1250.00", {"PLN"}),
         ("99.99", "99.99", None), ("12O.50", None, None)]


@pytest.mark.parametrize(("text", "value", "codes"), MONEY)
def test_currency_marks_are_taken_off_the_amount(text: str, value: str | None, codes: set[str] | None) -> None:
    from loaders.normalize import parse_money

    parsed, found, err = parse_money(text)
    assert parsed == (Decimal(value) if value else None)
    assert found == (frozenset(codes) if codes else None)
    assert (err is None) == (value is not None)


@pytest.mark.parametrize("text", ["RO", "R", "kr", "EUR", "Room 12", "€"])
def test_words_are_not_amounts(text: str) -> None:
    from loaders.normalize import parse_money

    assert parse_money(text)[0] is None


def test_ambiguous_thousands_stay_ambiguous_without_a_mark_or_with_a_three_decimal_currency() -> None:
    from loaders.normalize import parse_money

    assert parse_money("1,250")[2] is not None
    assert parse_money("KWD 1,250")[2] is not None
    assert parse_money("€ 1,250")[0] == Decimal("1250")


@pytest.mark.parametrize(("text", "fragment"), [
    ("1e20", "is beyond what the platform accepts"), ("1E+308", "is beyond what the platform accepts"),
    ("9999999999999999999", "is beyond what the platform accepts"), ("1e-30", "has more than 18 decimals"),
    ("TRUE", "is a yes/no value (TRUE/FALSE), not a number"), ("false", "is a yes/no value"),
    ("9" * 500, "too many digits"), ("183720799258.10175289", "has more than 18 significant digits"),
])
def test_what_cannot_be_an_amount(text: str, fragment: str) -> None:
    value, err = parse_decimal(text)
    assert value is None and err is not None and fragment in err


@given(st.decimals(allow_nan=False, allow_infinity=False) | st.floats(allow_nan=False, allow_infinity=False)
       | st.integers())
def test_any_number_is_read_or_refused_never_raised(number) -> None:
    """Whatever a cell holds, reading it returns a value that fits the frame's int64 units, or a reason."""
    import pandas as pd

    from loaders.normalize import parse_amounts

    frame, errors = parse_amounts(pd.Series([str(number), f"{number:,}" if not isinstance(number, Decimal) else
                                             str(number)], dtype="string"))
    for i in range(2):
        assert pd.isna(frame["minor"].iloc[i]) != pd.isna(errors.iloc[i])


def test_whole_numbers_too_large_or_boolean() -> None:
    import pandas as pd

    from loaders.normalize import parse_ints

    values, errors = parse_ints(pd.Series(["9223372036854775808", "TRUE", "3", "-3.0"], dtype="string"), "a count")
    assert errors.tolist()[:2] == ["`9223372036854775808` is too large for a count",
                                   "`TRUE` is a yes/no value (TRUE/FALSE), not a count"]
    assert values.tolist()[2:] == [3, -3]
