"""Finding the header row of a table: title rows above it, and headers written over two rows.

A reader describes the table it expects as a :class:`TableKind` (its fields, and which of them
hold numbers). The header is the first of the first :data:`HEADER_SEARCH_ROWS` non-blank rows
that names at least two of those fields; a row below the header that looks like more header
(no digits, and text under a blank header cell or naming a field) is a header over two rows,
which cannot be read without guessing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from loaders.headers import header_key
from loaders.schemas import Field

HEADER_SEARCH_ROWS = 20
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class TableKind:
    """What a reader expects: ``fields`` to recognise the header; ``numbers``, the fields holding
    amounts and counts (the fast reader is asked for their cells as text, so a boolean is never 1
    or 0), and whether header cells that are dates are such columns too (the wide rates layout);
    ``ids``, fields whose numbers are read typed but re-read as text if they could be booleans."""

    name: str
    fields: tuple[Field, ...]
    numbers: frozenset[str] = frozenset()
    ids: frozenset[str] = frozenset()
    date_columns_are_numbers: bool = False
    min_fields: int = 2

    def lookup(self) -> dict[str, Field]:
        out: dict[str, Field] = {}
        for f in self.fields:
            for alias in (f.name, f.ota, *f.aliases):
                out.setdefault(header_key(alias), f)
        return out

    def named_fields(self, cells: Sequence[str]) -> set[str]:
        """The fields the cells of a row name."""
        lookup = self.lookup()
        return {lookup[k].name for k in (header_key(c) for c in cells if c) if k in lookup}

    def is_header(self, cells: Sequence[str]) -> bool:
        return len(self.named_fields(cells)) >= self.min_fields

    def number_columns(self, header: Sequence[str]) -> set[int]:
        """Positions of the columns of amounts and counts (asked for as text)."""
        lookup = self.lookup()
        out = set()
        for pos, cell in enumerate(header):
            f = lookup.get(header_key(cell)) if cell else None
            if f is not None and f.name in self.numbers:
                out.add(pos)
            elif f is None and cell and self.date_columns_are_numbers and looks_like_date(cell):
                out.add(pos)
        return out

    def checked_columns(self, header: Sequence[str]) -> set[int]:
        """Positions of every column where a boolean must not pass for a number."""
        lookup = self.lookup()
        ids = {pos for pos, cell in enumerate(header)
               if cell and (f := lookup.get(header_key(cell))) is not None and f.name in self.ids}
        return self.number_columns(header) | ids


def looks_like_date(text: str) -> bool:
    return bool(re.match(r"^\d{4}-\d{1,2}-\d{1,2}", text.strip()))


def find_header(rows: Sequence[Sequence[str]], kind: TableKind | None) -> int | None:
    """Index (in ``rows``, non-blank rows in order) of the header row, or ``None``."""
    if kind is None:
        return 0 if rows else None
    for i, cells in enumerate(rows[:HEADER_SEARCH_ROWS]):
        if kind.is_header(cells):
            return i
    return None


def two_row_header(header: Sequence[str], other: Sequence[str] | None, kind: TableKind | None,
                   above: bool = False) -> bool:
    """Does ``other``, the row below the header (or above it), look like more header (merged or
    stacked headers)?

    It does when none of its cells holds a digit (data rows hold ids, dates and prices) and, below
    the header, it has text under a blank header cell or names a field of the table; above the
    header, it has text over a header cell that names no field (``Amount`` over ``AfterTax``).
    """
    if other is None or kind is None:
        return False
    texts = [(i, c) for i, c in enumerate(other) if c]
    if not texts or any(_DIGIT.search(c) for _, c in texts):
        return False
    if above:
        return any(i < len(header) and header[i] and not kind.named_fields([header[i]]) for i, _ in texts)
    under_blank = any(i >= len(header) or not header[i] for i, _ in texts)
    return under_blank or bool(kind.named_fields([c for _, c in texts]))
