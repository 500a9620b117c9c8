"""The vectorised screen in front of Great Expectations: it may say "passes" only when GX finds no
failure, and a clean calendar is checked without importing GX at all."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from expectations.engine import Rule, passes, run_suite

RR = "expectations.rate_rules"
NAN = np.nan
# kind, class, kwargs, column values (one column "x", or "a"/"b" for the pair)
CASES = [
    ("between", "ExpectPriceNotNegative", {"column": "x", "min_value": 0}, {"x": [0.0, 5.0, NAN]}),
    ("between", "ExpectPriceNotNegative", {"column": "x", "min_value": 0}, {"x": [0.0, -0.01, NAN]}),
    ("between", "ExpectPriceWithinPlatformCap", {"column": "x", "max_value": 50_000}, {"x": [50_000.0, NAN]}),
    ("between", "ExpectPriceWithinPlatformCap", {"column": "x", "max_value": 50_000}, {"x": [50_000.5, 1.0]}),
    ("between", "ExpectGuestsAtLeastOne", {"column": "x", "min_value": 1},
     {"x": pd.array([1, None, 3], dtype="Int64")}),
    ("between", "ExpectGuestsAtLeastOne", {"column": "x", "min_value": 1},
     {"x": pd.array([1, 0, None], dtype="Int64")}),
    ("between", "ExpectStayDateWithinPlatformWindow",
     {"column": "x", "min_value": pd.Timestamp("2026-01-01"), "max_value": pd.Timestamp("2026-12-31")},
     {"x": pd.to_datetime(["2026-01-01", "2026-12-31"])}),
    ("between", "ExpectStayDateWithinPlatformWindow",
     {"column": "x", "min_value": pd.Timestamp("2026-01-01"), "max_value": pd.Timestamp("2026-12-31")},
     {"x": pd.to_datetime(["2025-12-31", "2026-06-01"])}),
    ("in_set", "ExpectIsoCurrency", {"column": "x", "value_set": ["EUR", "JPY"]},
     {"x": pd.array(["EUR", None, "JPY"], dtype="string")}),
    ("in_set", "ExpectIsoCurrency", {"column": "x", "value_set": ["EUR", "JPY"]},
     {"x": pd.array(["EUR", "XXX"], dtype="string")}),
    ("pair_equal", "ExpectPropertyCurrency",
     {"column_A": "a", "column_B": "b", "ignore_row_if": "either_value_is_missing"},
     {"a": pd.array(["EUR", "EUR", None], dtype="string"), "b": pd.array(["EUR", None, "JPY"], dtype="string")}),
    ("pair_equal", "ExpectPropertyCurrency",
     {"column_A": "a", "column_B": "b", "ignore_row_if": "either_value_is_missing"},
     {"a": pd.array(["EUR", "JPY"], dtype="string"), "b": pd.array(["EUR", "EUR"], dtype="string")}),
    ("null", "ExpectKnownRoom", {"column": "x"}, {"x": pd.array([None, None], dtype="string")}),
    ("null", "ExpectKnownRoom", {"column": "x"}, {"x": pd.array([None, "A"], dtype="string")}),
    ("unique", "ExpectUniqueRateCell", {"column": "x"}, {"x": [1, 2, 3]}),
    ("unique", "ExpectUniqueRateCell", {"column": "x"}, {"x": [1, 2, 1]}),
]


@pytest.mark.parametrize(("kind", "name", "kwargs", "columns"), CASES)
def test_the_screen_passes_exactly_when_gx_finds_no_failure(kind, name, kwargs, columns) -> None:
    frame = pd.DataFrame(columns)
    rule = Rule(RR, name, kind, {**kwargs, "meta": {"rule": "r"}})
    from_gx = run_suite("screen", frame, [rule.build()])  # a built expectation always runs in GX
    assert passes(frame, rule) == (from_gx == [])
    assert run_suite("screen", frame, [rule]) == from_gx


def test_arguments_the_screen_does_not_know_go_to_gx() -> None:
    frame = pd.DataFrame({"x": [0.0, -1.0]})
    rule = Rule(RR, "ExpectPriceNotNegative", "between", {"column": "x", "min_value": 0, "mostly": 0.4})
    assert not passes(frame, rule)
    assert run_suite("screen", frame, [rule]) == []  # GX decides: 50% of rows pass, mostly 0.4


def test_a_rule_naming_the_wrong_built_in_is_refused() -> None:
    with pytest.raises(TypeError, match="does not refine ExpectColumnValuesToBeNull"):
        Rule(RR, "ExpectPriceNotNegative", "null", {"column": "x"}).build()


def test_a_clean_calendar_is_checked_without_importing_great_expectations(tmp_path) -> None:
    csv = tmp_path / "rates.csv"
    csv.write_text("HotelCode,InvTypeCode,RatePlanCode,Date,AmountAfterTax,CurrencyCode\n"
                   "1,A,R,2027-01-01,100,EUR\n1,A,R,2027-01-02,120.50,EUR\n")
    script = textwrap.dedent(f"""
        import sys
        from expectations import validate_rates
        from loaders import read_rates
        frame, load_issues = read_rates({str(csv)!r})
        issues = validate_rates(frame, as_of="2026-12-01", load_issues=load_issues)
        assert not issues["severity"].eq("error").any(), issues.to_dict("records")
        print(sorted(m for m in sys.modules if m.startswith("great_expectations")))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
