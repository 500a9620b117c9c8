"""What every content rule module uses: the parts, each property's context, and the issue collector.

A rule is a mask over one part's frame: :meth:`Checker.flag` turns the rows it selects into
issues on the analyst's cell (the header text the sheet used for the column, else the OTA name),
with the value and a message built only for the failing rows (so a rule costs a vectorised mask,
whatever the number of properties).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
import pandas as pd

from loaders.content_schema import CONTENT_COLUMNS, PARTS, fields_of
from loaders.issues import empty_issues, issues_where
from loaders.schemas import empty_frame

Message: TypeAlias = str | pd.Series | Callable[[pd.DataFrame], Iterable[str]]  # a Series: indexed like the part
_OTA = {part: {f.name: f.field.ota for f in fields_of(part)} for part in PARTS}


@dataclass(frozen=True)
class ContentLookups:
    """What the platform lists (spec E5 lookups); ``None`` = not known, the rules needing it are not run.

    ``city_tax_categories`` has columns ``country``, ``city``, ``category_id`` (Int64), ``name``.
    """

    currencies: frozenset[str] | None = None
    countries: frozenset[str] | None = None
    city_tax_categories: pd.DataFrame | None = None


@dataclass
class Checker:
    """The parts being checked, each property's context (``ctx``), and the issues found so far."""

    parts: dict[str, pd.DataFrame]
    lookups: ContentLookups
    rtb_enabled: bool
    today: pd.Timestamp
    ctx: pd.DataFrame = field(default_factory=pd.DataFrame)
    headers: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    found: list[pd.DataFrame] = field(default_factory=list)
    _at: dict[str, np.ndarray] = field(default_factory=dict)  # each part's rows' positions in ``ctx``

    @classmethod
    def of(cls, parts: dict[str, pd.DataFrame], lookups: ContentLookups, rtb_enabled: bool,
           today: pd.Timestamp) -> Checker:
        full = {}
        headers: dict[tuple[str, str], dict[str, str]] = {}
        for part in PARTS:
            frame = parts.get(part)
            if frame is None:
                frame = empty_frame(CONTENT_COLUMNS[part])
            headers.update(frame.attrs.get("headers", {}))
            full[part] = frame.reset_index(drop=True)
            full[part].attrs = {}
            # the join key as Python objects: membership tests against 10,000s of keys use a hash table
            # (on Arrow strings, ``isin`` goes value by value through Python)
            full[part]["property"] = full[part]["property"].astype(object)  # pandas deep-copies attrs on every operation: the headers are kept aside
        checker = cls(full, lookups, rtb_enabled, today, headers=headers)
        checker.ctx = property_context(full)
        return checker

    def of_property(self, part: str, column: str) -> pd.Series:
        """``ctx[column]`` for each row of ``part`` (by its property)."""
        frame = self.parts[part]
        if not len(frame):
            return pd.Series(dtype=object)
        at = self._at.get(part)
        if at is None:
            at = self._at[part] = self.ctx.index.get_indexer(frame["property"])
        if (at < 0).any():  # a blank key: ``map`` gives NaN there (and its dtype)
            return frame["property"].map(self.ctx[column])
        # every key known: one positional take per call, the key lookup done once per part
        return pd.Series(self.ctx[column].array.take(at), index=frame.index, name="property")

    def flag(self, part: str, mask: pd.Series | np.ndarray, column: str, rule: str, message: Message, *,
             severity: str = "error", value: pd.Series | None = None) -> None:
        """Issues for the rows of ``part`` selected by ``mask``, on the cell of ``column``."""
        frame = self.parts[part]
        if not len(frame):
            mask = np.zeros(0, dtype=bool)
        elif isinstance(mask, np.ndarray) and mask.dtype == bool:
            pass
        elif isinstance(mask, pd.Series) and mask.dtype == bool:
            mask = mask.to_numpy()
        elif isinstance(mask, pd.Series) and isinstance(mask.dtype, pd.BooleanDtype):
            mask = mask.to_numpy(dtype=bool, na_value=False)
        else:
            mask = np.asarray(pd.Series(mask).fillna(False), dtype=bool)
        if not mask.any():
            return
        sub = frame[mask]
        fallback = _OTA[part].get(column, column)
        headers = self.headers
        if column == "property":  # the property's own key cell: HotelCode, else ID
            cols = [headers.get((s, sh), {}).get("hotel_code" if not pd.isna(h) else "custom_id",
                                                   "HotelCode" if not pd.isna(h) else "ID")
                    for s, sh, h in zip(sub["source"], sub["sheet"], sub["hotel_code"], strict=True)]
        else:
            cols = [headers.get((s, sh), {}).get(column, fallback) for s, sh in zip(sub["source"], sub["sheet"],
                                                                                   strict=True)]
        shown = (value if value is not None else sub[column] if column in sub else pd.Series("", index=sub.index))
        shown = shown.reindex(sub.index).map(_text)
        if isinstance(message, str):
            text = [message] * len(sub)
        elif isinstance(message, pd.Series):
            text = list(message[sub.index])
        else:
            text = list(message(sub))
        self.found.append(issues_where(frame, mask, column=pd.Series(cols, index=sub.index),
                                       value=shown.astype("string"), rule=rule, severity=severity,
                                       message=pd.Series(text, index=sub.index)))

    def not_checked(self, part: str, column: str, rows: pd.Series, what: str, rule: str) -> None:
        """One warning, on the first of ``rows``: a rule needing a platform fact that is not known was not run."""
        frame = self.parts[part]
        at = np.flatnonzero(np.asarray(rows.fillna(False), dtype=bool))
        if not len(at):
            return
        first = np.zeros(len(frame), dtype=bool)
        first[at[0]] = True
        self.flag(part, first, column, "not_checked",
                  f"{what} is not known (the platform's list was not read), so `{rule}` was not checked: "
                  "check with the platform's lookups (`workbench validate content` reads them when it can reach "
                  "the platform)", severity="warning", value=pd.Series(rule, index=frame.index))

    def issues(self) -> list[pd.DataFrame]:
        return self.found or [empty_issues()]


def _text(v: object) -> str:
    if isinstance(v, list):
        return "; ".join(str(x) for x in v)
    if v is None or (not isinstance(v, (list, np.ndarray)) and pd.isna(v)):
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, pd.Timestamp):
        return v.strftime("%Y-%m-%d")
    return str(v)


def property_context(parts: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per property named anywhere: is it new, and the facts rules elsewhere need."""
    # each part's distinct keys first (same first-seen order as the keys of all rows, at a fraction of the cost)
    names = pd.concat([pd.Series(p["property"].unique(), dtype=p["property"].dtype) for p in parts.values() if len(p)]
                      or [pd.Series(dtype="string")])
    ctx = pd.DataFrame(index=pd.Index(names.dropna().unique(), name="property", dtype=object))
    prop = parts["Property"].drop_duplicates("property")
    prop = prop[prop["property"].notna()].set_index("property")
    notif = prop["notif_type"].reindex(ctx.index)
    has_code = pd.Series(ctx.index.isin(_has_code(parts)), index=ctx.index, dtype=bool)
    ctx["is_new"] = (notif.eq("New").fillna(False) | (notif.isna() & ~has_code)).astype(bool)
    ctx["on_property_sheet"] = ctx.index.isin(prop.index)
    for col in ("currency_code", "property_class_code", "booking_model", "hotel_name"):
        ctx[col] = prop[col].reindex(ctx.index)
    contacts = parts["Contacts"]
    located = contacts[contacts["profile_type"].eq("PhysicalLocation").fillna(False)]
    located = located[located["country"].notna()].drop_duplicates("property").set_index("property")
    any_country = contacts[contacts["country"].notna()].drop_duplicates("property").set_index("property")
    for col in ("country", "city", "postcode"):
        ctx[col] = located[col].reindex(ctx.index).fillna(any_country[col].reindex(ctx.index))
    return ctx


def _has_code(parts: dict[str, pd.DataFrame]) -> set[str]:
    """The properties of which some row gives the HotelCode."""
    out: set[str] = set()
    for f in parts.values():
        out.update(f["property"].to_numpy()[f["hotel_code"].notna().to_numpy()].tolist())
    return out


def each(s: pd.Series, fn: Callable[[Any], Any]) -> pd.Series:
    """``fn`` of each distinct non-blank value of ``s``, mapped back (object dtype; ``None`` where blank).

    Costs one call per distinct value: a phone number or a postcode shared by 1,000 rows is judged once.
    """
    codes, uniques = pd.factorize(s, use_na_sentinel=True)
    results = np.empty(len(uniques) + 1, dtype=object)
    results[:-1] = [fn(u) for u in np.asarray(uniques, dtype=object).tolist()]  # Arrow strings iterate slowly
    results[-1] = None
    return pd.Series(results[codes], index=s.index, dtype=object)


def blank(s: pd.Series) -> pd.Series:
    """Blank cells (NA, or an empty list in a list column)."""
    if s.dtype == object and len(s) and isinstance(s.iloc[0], list):
        return pd.Series([not xs for xs in s.tolist()], index=s.index, dtype=bool)
    return s.isna()


def outside(s: pd.Series, keep: Callable[[str], bool]) -> pd.Series:
    """For a list column: the items of each cell that ``keep`` refuses (an empty list where all pass).
    A plain loop over the lists: pandas' ``map`` would try to infer a dtype from lists, row by row."""
    return pd.Series([[x for x in xs if not keep(x)] if xs else [] for xs in s.tolist()], index=s.index,
                     dtype=object)


def nonempty(s: pd.Series) -> pd.Series:
    """For a list column: the cells that hold at least one item."""
    return pd.Series([bool(xs) for xs in s.tolist()], index=s.index, dtype=bool)


def not_in(s: pd.Series, allowed: Iterable[object]) -> pd.Series:
    """Given and not one of ``allowed``, exactly: the loader has written every enumeration in its own spelling
    (``loaders.content_schema``), so what passes here is what is sent."""
    return s.notna() & ~s.isin(list(allowed)).fillna(False)


def listed(values: Iterable[object]) -> str:
    return ", ".join(f"`{v}`" for v in values)
