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
