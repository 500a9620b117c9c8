"""Group keys of the rules: the dense path (arrays over the key range) numbers the groups exactly as
a hash table does (``pd.factorize``: in order of first appearance), for any columns."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from expectations._keys import Coder, _dense_ids_and_first

values = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from(["a", "b", "EUR", ""]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(values, values, values), max_size=60))
def test_keys_number_groups_in_order_of_first_appearance(rows: list[tuple]) -> None:
    frame = pd.DataFrame(rows, columns=["x", "y", "z"], dtype=object)
    coder = Coder(frame)
    for columns in (("x",), ("x", "y"), ("x", "y", "z")):
        keys = coder.keys(*columns)
        expected, _ = pd.factorize(pd.Series(list(zip(*(frame[c] for c in columns), strict=True)), dtype=object))
        assert keys.ids.tolist() == expected.tolist()
        assert keys.first.tolist() == [int(np.flatnonzero(expected == g)[0]) for g in range(keys.size)]
        assert coder.keys(*columns) is keys  # computed once


@given(st.lists(st.integers(0, 40), max_size=200), st.integers(41, 5000))
def test_dense_ids_equal_factorize(key: list[int], span: int) -> None:
    k = np.asarray(key, dtype=np.int64)
    assert _dense_ids_and_first(k, span)[0].tolist() == pd.factorize(k)[0].tolist()


@given(st.lists(st.integers(0, 40), max_size=200), st.integers(41, 5000))
def test_dense_first_rows_are_each_groups_first(key: list[int], span: int) -> None:
    k = np.asarray(key, dtype=np.int64)
    ids, first = _dense_ids_and_first(k, span)
    expected, _ = pd.factorize(k)
    assert ids.tolist() == expected.tolist()
    assert first.tolist() == [int(np.flatnonzero(expected == g)[0]) for g in range(len(set(key)))]


texts = st.one_of(st.none(), st.sampled_from(["", "a", "b", "EUR", "Zürich", "RoomsToSell"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(texts, st.integers(1, 120)), max_size=12), st.lists(texts, max_size=40), st.booleans())
def test_texts_number_groups_as_any_column_does(blocks: list[tuple[str | None, int]], scattered: list[str | None],
                                                arrow: bool) -> None:
    """Columns of texts (Arrow's strings: in blocks, or not) give the groups pandas' factorisation gives."""
    column = [t for t, n in blocks for _ in range(n)] + scattered
    other = [i % 3 for i in range(len(column))]
    frame = pd.DataFrame({"t": pd.Series(column, dtype="string" if arrow else object), "o": other})
    keys = Coder(frame).keys("t", "o")
    expected, _ = pd.factorize(pd.Series(list(zip(column, other, strict=True)), dtype=object))
    assert keys.ids.tolist() == expected.tolist()
    codes, n = Coder(frame).codes("t")
    assert len(set(codes.tolist())) == len({None if v is None else v for v in column}) <= n
    assert codes.max(initial=-1) < n
