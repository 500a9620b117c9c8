"""``repeated_blocks``: texts repeated in consecutive blocks, built from Arrow buffers, hold exactly what a
column of those texts holds (any texts: empty, non-ASCII, blocks of none)."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from loaders.rate_cells import repeated, repeated_blocks


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=12), st.integers(0, 30)), max_size=6))
def test_blocks_hold_each_text_on_its_rows(blocks: list[tuple[str, int]]) -> None:
    texts, sizes = [t for t, _ in blocks], [n for _, n in blocks]
    index = pd.RangeIndex(sum(sizes))
    got = repeated_blocks(texts, sizes, index)
    expected = pd.Series([t for t, n in blocks for _ in range(n)], index=index, dtype="string")
    pd.testing.assert_series_equal(got, expected)


def test_repeated_is_one_block() -> None:
    index = pd.RangeIndex(5, 9)
    pd.testing.assert_series_equal(repeated("Zürich prices", index),
                                   pd.Series(["Zürich prices"] * 4, index=index, dtype="string"))
    assert repeated("x", pd.RangeIndex(0)).empty
