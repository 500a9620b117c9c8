"""Matching header cells to canonical fields, ignoring case, spaces, hyphens and underscores."""

from __future__ import annotations

import re
from collections.abc import Sequence

from loaders.errors import LoadError
from loaders.schemas import Field
from loaders.wording import agree


def header_key(text: str) -> str:
    return re.sub(r"[\s_\-.]+", "", text).casefold()


def match_headers(header: Sequence[str], fields: Sequence[Field], *, source: str, sheet: str) -> dict[str, int]:
    """Map field name -> column position for the headers that name a known field."""
    lookup: dict[str, Field] = {}
    for f in fields:
        for alias in (f.name, f.ota, *f.aliases):
            lookup.setdefault(header_key(alias), f)
    found: dict[str, int] = {}
    for pos, cell in enumerate(header):
        matched = lookup.get(header_key(cell)) if cell else None
        if matched is None:
            continue
        if matched.name in found:
            first = header[found[matched.name]]
            raise LoadError(
                f"{where(source, sheet)}: columns `{first}` and `{cell}` both mean `{matched.ota}`; keep one of them.",
                source=source, sheet=sheet)
        found[matched.name] = pos
    return found


def accepted_names(f: Field) -> str:
    names = dict.fromkeys([f.ota, *f.aliases])
    return ", ".join(f"`{n}`" for n in names)


def missing_columns_error(missing: Sequence[Field], *, source: str, sheet: str, header: Sequence[str],
                          extra: str = "") -> LoadError:
    parts = [f"{f.ota} (accepted names: {accepted_names(f)})" for f in missing]
    seen = ", ".join(f"`{h}`" for h in header if h) or "none"
    return LoadError(
        f"{where(source, sheet)} is missing required {agree(len(missing), 'column')}: "
        + "; ".join(parts) + f". Headers found: {seen}." + (f" {extra}" if extra else ""),
        source=source, sheet=sheet)


def where(source: str, sheet: str) -> str:
    return f"`{source}` sheet `{sheet}`" if sheet else f"`{source}`"
