"""Content cells in their canonical form, so the rules check what the request carries (issue 22).

An enumeration's cell that matches one of its values ignoring case and spaces (``"standard "``,
``"Buffet"``) is written in the platform's own spelling (``Standard``, ``buffet``); a cell that
matches none is left as written, for the rules to refuse on its cell. ISO codes are upper case
(``eur`` -> ``EUR``), language tags are cased as BCP 47 writes them (``PT-br`` -> ``pt-BR``), and a
state code gets its country's prefix (``11`` in ``PT`` -> ``PT-11``). Each distinct text is looked
at once. Which column takes which form is ``loaders.content_schema``'s (``choices``, ``canon``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pandas as pd

from loaders.content_schema import PART_FIELDS, ContentField

_SPACES = re.compile(r"\s+")


def _key(text: str) -> str:
    return _SPACES.sub(" ", text.strip()).casefold()


def language_tag(text: str) -> str:
    """``PT_br`` -> ``pt-BR``, ``zh-hant`` -> ``zh-Hant``, ``EN`` -> ``en``: the language lower case, a script
    title case, a region upper case."""
    head, *rest = text.strip().replace("_", "-").split("-")
    parts = [head.lower()]
    for sub in rest:
        parts.append(sub.title() if len(sub) == 4 and sub.isalpha() else sub.upper())
    return "-".join(parts)


def _spelling(f: ContentField) -> Callable[[str], str]:
    """The function giving a cell's text its canonical form (identity for a free-text column)."""
    if f.choices:
        own = {_key(c): c for c in f.choices}
        return lambda t: own.get(_key(t), t)
    if f.canon == "upper":
        return lambda t: t.strip().upper()
    if f.canon == "language":
        return language_tag
    return str


def _each(values: pd.Series, fn: Callable[[str], str]) -> pd.Series:
    """``fn`` of each distinct non-blank text, mapped back."""
    given = values.dropna()
    if given.empty:
        return values
    done = {t: fn(t) for t in given.unique().tolist()}
    return values.map(done, na_action="ignore").astype(values.dtype)


def canonical_column(f: ContentField, values: pd.Series) -> pd.Series:
    """One column of typed cells (text, or lists of texts) in its canonical form."""
    fn = _spelling(f)
    if fn is str:
        return values
    if f.kind == "list":
        return pd.Series([[fn(x) for x in xs] if isinstance(xs, list) else xs for xs in values.tolist()],
                         index=values.index, dtype=object)
    if f.kind != "str":
        return values
    return _each(values, fn)


def subdivisions(state: pd.Series, country: pd.Series) -> pd.Series:
    """ISO 3166-2 codes with their country's prefix: ``11`` (or ``pt-11``) in ``PT`` -> ``PT-11``."""
    code = state.str.strip().str.upper()
    bare = code.notna() & ~code.str.contains("-", regex=False).fillna(False) & country.str.fullmatch(
        r"[A-Z]{2}").fillna(False)
    return code.where(~bare, country + "-" + code).astype(state.dtype)


def canonical_frame(part: str, frame: pd.DataFrame) -> pd.DataFrame:
    """Every column of a part's frame in its canonical form (the frame is changed in place and returned)."""
    for f in PART_FIELDS[part]:
        if f.name in frame:
            frame[f.name] = canonical_column(f, frame[f.name])
    for f in PART_FIELDS[part]:
        if f.canon == "subdivision" and f.name in frame and "country" in frame:
            frame[f.name] = subdivisions(frame[f.name], frame["country"])
    return frame


__all__ = ["canonical_column", "canonical_frame", "language_tag", "subdivisions"]
