"""``text_codes``: the codes and texts give back the column, blanks as -1, in blocks (the runs) and not (Arrow's
hash table); sorted, the texts are in pandas' order."""

from __future__ import annotations

import random

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from loaders.text_codes import text_codes

texts = st.one_of(st.none(), st.sampled_from(["", "a", "B", "b ", "Zürich", "RoomsToSell", "900"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(texts, st.integers(1, 300)), min_size=1, max_size=10), st.booleans(), st.booleans())
def test_codes_and_texts_give_back_the_column(blocks: list[tuple[str | None, int]], shuffled: bool,
                                              sort: bool) -> None:
    values = [t for t, n in blocks for _ in range(n)]
    if shuffled:
        random.Random(len(values)).shuffle(values)
    codes, found = text_codes(pd.Series(values, dtype="string"), sort=sort)
    assert [None if c < 0 else found[c] for c in codes] == values
    assert len(found) == len(set(found)) == len({v for v in values if v is not None})
    if sort:
        assert found == sorted(found)
