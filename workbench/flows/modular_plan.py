"""One round of a push through the modular APIs, planned (``workbench.flows.content_modular``): every property's
bodies with the ids known and what each property has, the requests the driver takes, the ones an error holds back,
and the delta against the journal's accepted state per API and property."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from workbench.modular.content import build_modular_content
from workbench.modular.meta import ModularMeta
from workbench.platform import Reads
from workbench.writers import KIND, Journal, Planned, cell_rows, planned_modular


@dataclass
class RoundPlan:
    """One round's requests: to send, held back (and why), unchanged, and the issues behind them."""

    send: list[Planned]
    held: list[tuple[Planned, str]]
    unchanged: list[Planned]
    issues: pd.DataFrame


def _row_property(parts: Mapping[str, pd.DataFrame]) -> dict[tuple[str, str, int], str]:
    out: dict[tuple[str, str, int], str] = {}
    for frame in parts.values():
        if len(frame):
            for src, sheet, row, prop in zip(frame["source"], frame["sheet"], frame["row"], frame["property"],
                                             strict=True):
                if not pd.isna(row) and not pd.isna(prop):
                    out[(str(src), str(sheet), int(row))] = str(prop)
    return out


#: rules that refuse a value on its cell without holding the property's requests back (what has no home any more)
CELL_ONLY_RULES = frozenset({"modular_sunset", "contact_type_refused"})


def _blocked(planned: Sequence[Planned], issues: pd.DataFrame, parts: Mapping[str, pd.DataFrame]
             ) -> dict[int, str]:
    """``index -> why`` of the requests an error holds back: an error on a row the request carries; an error on a
    row no request carries holds every request of its property (unless it refuses only its cell:
    :data:`CELL_ONLY_RULES`)."""
    errors = issues[issues["severity"] == "error"] if len(issues) else issues
    if errors.empty:
        return {}
    carried: dict[tuple[str, str, int], list[int]] = {}
    for i, p in enumerate(planned):
        cells = p.source.cells
        for c in ([cells.root] if cells.root is not None else []) + list(cells.cells.values()):
            carried.setdefault((c.source, c.sheet, int(c.row)), []).append(i)
    owner = _row_property(parts)
    out: dict[int, str] = {}
    for e in errors.itertuples(index=False):
        if pd.isna(e.row):
            continue
        where = (str(e.source), str(e.sheet), int(e.row))
        why = f"held back: {e.sheet} row {int(e.row)} {e.column}: {e.message}"
        hit = carried.get(where)
        if hit is None and e.rule not in CELL_ONLY_RULES:
            hit = [i for i, p in enumerate(planned) if p.property == owner.get(where)]
        for i in dict.fromkeys(hit or []):
            out.setdefault(i, why)
    return out


def plan_round(parts: Mapping[str, pd.DataFrame], meta: ModularMeta, reads: Reads, ids: Mapping[str, int], *,
          journal: Journal | None, target: str, replace: bool, full: bool, today: dt.date,
          only: Callable[[Planned], bool]) -> RoundPlan:
    """One round's plan (pure but for the journal's accepted state): the bodies of every property with the ids known
    (``ids``) and what each has (``reads``), the requests ``only`` keeps, each sent, held back (an error on a row it
    carries) or unchanged (the journal accepted the same state)."""
    known = with_ids(parts, ids)
    built = build_modular_content(known, meta, today=today, replace=replace,
                                  current={p: reads.current(p) for p in {k for k, _ in reads.data}})
    planned = [p for p in planned_modular(built.requests, ids, rows=False) if only(p)]
    issues = built.issues
    blocked = _blocked(planned, issues, parts)
    accepted = journal.accepted_items(target, KIND) if journal is not None and not full else {}
    send, held, unchanged = [], [], []
    for i, p in enumerate(planned):
        if i in blocked:
            held.append((p, blocked[i]))
        elif p.state and all(accepted.get(k) == v for k, v in p.state):
            unchanged.append(p)
        else:
            send.append(p)
    return RoundPlan(send, held, unchanged, issues)


def with_rows(planned: Sequence[Planned]) -> list[Planned]:
    """The requests with the cells they carry as rows (what the journal keeps of each): given only to what is
    sent, after planning."""
    for p in planned:
        if p.rows is None:
            p.rows = cell_rows(p.source)
    return list(planned)


def with_ids(parts: Mapping[str, pd.DataFrame], ids: Mapping[str, int]) -> dict[str, pd.DataFrame]:
    """The parts with the HotelCode of each property the journal knows by its custom ID filled in."""
    if not ids:
        return dict(parts)
    out = {}
    for name, frame in parts.items():
        if len(frame) and "custom_id" in frame:
            f = frame.copy()
            fill = f["hotel_code"].isna() & f["custom_id"].isin(list(ids))
            f.loc[fill, "hotel_code"] = f.loc[fill, "custom_id"].map(ids).astype("Int64")
            f.attrs = frame.attrs
            out[name] = f
        else:
            out[name] = frame
    return out


__all__ = ["CELL_ONLY_RULES", "RoundPlan", "plan_round", "with_ids", "with_rows"]
