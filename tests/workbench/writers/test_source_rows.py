"""A dry-run folder's ``source_rows``: the same whether the cells' files and sheets are texts or categories
(availability keeps them as categories: the fast path renumbers their codes instead of making a million texts)."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.writers.request_folder import source_rows

_cells = st.lists(st.tuples(st.sampled_from(["b.xml", "a.xml", "c.xml"]), st.sampled_from(["z.xlsx", "b.csv", "m.xlsx"]),
                            st.sampled_from(["S2", None, "A", ""]), st.integers(2, 60)), min_size=1, max_size=200)


@settings(max_examples=150, deadline=None)
@given(_cells)
def test_categories_give_the_same_source_rows_as_texts(rows) -> None:
    cells = pd.DataFrame(rows, columns=["file", "source", "sheet", "row"])
    plain = source_rows(cells)
    assert source_rows(cells.astype({"source": "category", "sheet": "category", "file": "category"})).equals(plain)
    for file, text in plain.items():  # every row of the file is in its ranges
        mine = cells[cells["file"] == file]
        assert all(str(src) in text for src in mine["source"])
