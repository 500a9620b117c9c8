"""Integer keys for groups of columns, built from per-column codes (fast on ten million rows).

Rules that depend only on a few columns are checked once per distinct combination and the
verdict is mapped back to every row through these keys.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from loaders.text_codes import text_codes


@dataclass
class Keys:
    """``ids[row]`` is the group of each row; ``first[group]`` is the first row of each group."""

    ids: np.ndarray
    first: np.ndarray

    @property
    def size(self) -> int:
        return len(self.first)

    def rows_of(self, groups: np.ndarray | list[int]) -> np.ndarray:
        """Boolean mask of the rows belonging to any of ``groups``."""
        hit = np.zeros(self.size, dtype=bool)
        hit[np.asarray(groups, dtype=np.int64)] = True
        return hit[self.ids]


class Coder:
    """Caches one factorisation per column of a frame."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame
        self._codes: dict[str, tuple[np.ndarray, int]] = {}
        self._keys: dict[tuple[str, ...], Keys] = {}

    def codes(self, column: str) -> tuple[np.ndarray, int]:
        """A code per row (missing values one code of their own) and how many codes: any dense numbering
        serves, the groups are numbered from the combined codes (:meth:`keys`)."""
        if column not in self._codes:
            values = self.frame[column]
            if isinstance(values.array, pd.arrays.ArrowStringArray) and len(values):
                self._codes[column] = _text_codes(values)
            else:
                codes, uniques = pd.factorize(values, use_na_sentinel=False)
                self._codes[column] = (codes.astype(np.int64, copy=False), max(len(uniques), 1))
        return self._codes[column]

    def keys(self, *columns: str) -> Keys:
        """The groups of ``columns`` (numbered in order of first appearance); computed once per set."""
        if columns not in self._keys:
            self._keys[columns] = self._make_keys(columns)
        return self._keys[columns]

    def _make_keys(self, columns: tuple[str, ...]) -> Keys:
        key = np.zeros(len(self.frame), dtype=np.int64)
        span = 1
        for col in columns:
            codes, n = self.codes(col)
            if span * n >= 2**62:
                key, _ = pd.factorize(key)
                key = key.astype(np.int64)
                span = int(key.max()) + 1 if len(key) else 1
            key = key * n + codes
            span *= n
        if span <= max(DENSE_SPAN, 4 * len(key)):
            return Keys(*_dense_ids_and_first(key, span))
        ids, _ = pd.factorize(key)
        ids = ids.astype(np.int64, copy=False)
        k = int(ids.max()) + 1 if len(ids) else 0
        first = np.empty(k, dtype=np.int64)
        first[ids[::-1]] = np.arange(len(ids) - 1, -1, -1)
        return Keys(ids, first)


def _text_codes(values: pd.Series) -> tuple[np.ndarray, int]:
    """:meth:`Coder.codes` of a column of texts by Arrow's kernels (:func:`loaders.text_codes.text_codes`):
    missing texts take the code after the last text."""
    codes, texts = text_codes(values)
    missing = codes < 0
    codes[missing] = len(texts)
    return codes, len(texts) + int(missing.any())


DENSE_SPAN = 1 << 22  # keys below this (or 4x the rows) are numbered with an array, not a hash table


def _dense_ids_and_first(key: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize(key)[0]`` (groups numbered in order of first appearance) for keys in ``0..span-1``, with
    arrays of ``span`` instead of hashing every row, and the first row of each group. The rows that are the first of their key, in
    row order, are the groups in order of first appearance: no sort (1M rows, 8 key sets: 0.15 -> 0.09 s)."""
    rows = np.arange(len(key), dtype=np.int64)
    first_of_key = np.full(span, len(key), dtype=np.int64)
    first_of_key[key[::-1]] = rows[::-1]  # the last write wins: the first row of each key
    first = np.flatnonzero(first_of_key[key] == rows)  # each group's first row, in order of appearance
    order = np.empty(span, dtype=np.int64)
    order[key[first]] = np.arange(len(first), dtype=np.int64)
    return order[key], first
