"""Label columns (a cell's source, sheet, restriction, header) as categories, for the request folders.

A million rows hold a handful of texts: as categories, Parquet writes each text once and a request takes
its cells by integer codes. ``Series.astype("category")`` hashes every row's text through pandas (16 ms
a million rows); :func:`as_category` gives the same column (categories sorted, blanks missing) with
Arrow's hashing (11 ms), or without hashing when the column holds one text on every row, as a sheet's
source and name do (5 ms).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc


def as_category(column: pd.Series) -> pd.Series:
    """``column.astype("category")``, equal to it (``assert_series_equal``), faster for Arrow strings."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column
    if not isinstance(column.array, pd.arrays.ArrowStringArray) or len(column) == 0:
        return column.astype("category")
    data = pa.array(column.array)
    if isinstance(data, pa.ChunkedArray):
        data = data.combine_chunks()
    first = data[0].as_py()
    if data.null_count == 0 and pc.all(pc.equal(data, first)).as_py():
        codes = np.zeros(len(data), dtype=np.int8)
        texts = [first]
    else:
        encoded = pc.dictionary_encode(data)
        found = encoded.dictionary.to_pylist()
        order = np.argsort(np.array(found, dtype=object), kind="stable")  # categories sorted, as pandas sorts them
        rank = np.empty(len(found) + 1, dtype=np.int64)
        rank[order] = np.arange(len(found))
        rank[-1] = -1  # a missing text
        codes = rank[encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False)]
        texts = [found[i] for i in order]
    dtype = pd.CategoricalDtype(pd.Index(texts, dtype=column.dtype))
    return pd.Series(pd.Categorical.from_codes(codes, dtype=dtype), index=column.index, name=column.name,
                     copy=False)
