"""Every count shown to people is worded by one helper: separators always, the noun agreeing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from loaders.wording import NO_PLATFORM, agree, count, platform_text

COUNTS = [
    # (n, noun, plural, expected)
    (0, "error", None, "0 errors"),
    (1, "error", None, "1 error"),
    (2, "error", None, "2 errors"),
    (1000, "error", None, "1,000 errors"),
    (1183, "request", None, "1,183 requests"),
    (0, "property", "properties", "0 properties"),
    (1, "property", "properties", "1 property"),
    (2, "property", "properties", "2 properties"),
    (1000, "property", "properties", "1,000 properties"),
    (1183, "property", "properties", "1,183 properties"),
    (1, "room type", None, "1 room type"),
    (1183, "room type", None, "1,183 room types"),
    (1, "day", None, "1 day"),
    (20526, "price", None, "20,526 prices"),
    (np.int64(1183), "value", None, "1,183 values"),
    (np.int64(1), "value", None, "1 value"),
]


@pytest.mark.parametrize(("n", "noun", "plural", "expected"), COUNTS)
def test_count_reads_well(n, noun, plural, expected) -> None:
    assert count(n, noun, plural) == expected


@pytest.mark.parametrize("noun", ["property", "match", "box", "status", "was", "quiz", "dish"])
def test_a_plural_that_cannot_be_guessed_must_be_given(noun: str) -> None:
    with pytest.raises(ValueError, match="give the plural"):
        count(2, noun)


@pytest.mark.parametrize("n", [1.0, 2.5, "3"])
def test_only_whole_numbers_are_counted(n) -> None:
    with pytest.raises(TypeError):
        count(n, "error")


def test_agree_words_verbs_too() -> None:
    assert [agree(n, "was", "were") for n in (0, 1, 2)] == ["were", "was", "were"]
    assert [agree(n, "blocks", "block") for n in (1, 3)] == ["blocks", "block"]


def test_no_platform_is_said_one_way() -> None:
    assert platform_text("") == platform_text(None) == NO_PLATFORM == "no platform set"
    assert platform_text("https://platform.example") == "https://platform.example"


@given(st.integers(min_value=0, max_value=10**12))
def test_every_count_has_separators_and_agrees(n: int) -> None:
    text = count(n, "request")
    assert text == f"{n:,} " + ("request" if n == 1 else "requests")
    assert "(s)" not in text
