"""``as_category`` is ``astype("category")``: the same categories (sorted), codes, blanks, index and name,
for every column of texts; only faster."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loaders.rate_cells import repeated
from workbench.writers.categories import as_category

texts = st.one_of(st.none(), st.sampled_from(["", "Availability", "rates.xlsx", "Zürich", "a", "B", "b "]))


def _same(column: pd.Series) -> None:
    pd.testing.assert_series_equal(as_category(column), column.astype("category"))


@pytest.mark.parametrize("column", [
    pd.Series([], dtype="string"),
    pd.Series(["x"], dtype="string"),
    pd.Series(["x", "x", "x"], dtype="string", name="sheet"),
    pd.Series(["b", "a", "b", "c"], dtype="string", index=[5, 6, 7, 8]),
    pd.Series([None, "a", None], dtype="string"),
    pd.Series([None, None], dtype="string"),
    pd.Series(["", "", ""], dtype="string"),
    pd.Series(["MinStayArrival", "Closed", "RoomsToSell", "Closed"], dtype="string"),
    pd.Series(["a", "b"], dtype=object),
    pd.Series([1, 2, 1]),
    pd.Series(["a", "b"], dtype="category"),
], ids=lambda c: repr(c.tolist())[:40])
def test_as_category_equals_astype(column: pd.Series) -> None:
    _same(column)


def test_a_repeated_text_is_one_category() -> None:
    column = repeated("Availability", pd.RangeIndex(10_000)).rename("sheet")
    got = as_category(column)
    _same(column)
    assert got.cat.categories.tolist() == ["Availability"] and (got.cat.codes == 0).all()


@settings(max_examples=200, deadline=None)
@given(st.lists(texts, max_size=40))
def test_as_category_equals_astype_for_any_texts(values: list[str | None]) -> None:
    _same(pd.Series(values, dtype="string"))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(texts, st.integers(1, 400)), min_size=1, max_size=12), st.booleans())
def test_long_columns_in_blocks_or_shuffled(blocks: list[tuple[str | None, int]], shuffled: bool) -> None:
    """Blocks (the runs path) and the same rows shuffled (past one run in 64 rows: the hashing path)."""
    import random

    values = [t for t, n in blocks for _ in range(n)]
    if shuffled:
        random.Random(len(values)).shuffle(values)
    _same(pd.Series(values, dtype="string", name="restriction"))
