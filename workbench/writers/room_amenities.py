"""Amenities of a room type and of its sub-rooms, merged with what the platform stores.

An amenity is identified by its code **and** its ``Configuration``: the same bed may be stored
in the standard arrangement (1) and in the alternative one (2), and the two are different
facts. A sheet row without ``Configuration`` means the one stored arrangement of that code; when
the code is stored in both, the row is ambiguous and is reported, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from expectations.rooms import amenity_names
from workbench.ota import Amenity
from workbench.writers.room_values import integer, value

Key = tuple[int, int | None]             # (code, Configuration)
State = dict[Key, int | None]            # -> count (None: present without a count)


def state_of(rows: pd.DataFrame) -> State:
    """Stored (or sheet) amenity rows as a state; removal rows are left out."""
    out: State = {}
    for _, r in rows.iterrows():
        code = integer(r["amenity_code"])
        if code is None or bool(value(r.get("remove")) or False):
            continue
        out[(code, integer(r["configuration"]))] = integer(r["value"])
    return out


@dataclass
class Applied:
    """The sheet's rows over a stored state."""

    desired: State
    removed: set[Key] = field(default_factory=set)           # stored keys the sheet removes
    ambiguous: list[pd.Series] = field(default_factory=list)  # rows naming a code stored in both arrangements
    conflicts: list[tuple[pd.Series, Key]] = field(default_factory=list)  # rows giving what another row removes

    def touched(self, current: State) -> list[Key]:
        keys = {k for k, v in self.desired.items() if k not in current or current[k] != v} | self.removed
        return sorted(keys, key=lambda k: (k[0], k[1] or 0))


def apply_rows(current: State, rows: pd.DataFrame) -> Applied:
    """The sheet's amenity rows applied to ``current``: a blank count keeps the stored one; a removal
    without ``Configuration`` removes every stored arrangement of the code. A row that gives an
    amenity another row of the sheet removes is a conflict (the sheet says both: nothing is guessed)."""
    out = Applied(dict(current))
    given: dict[Key, pd.Series] = {}
    for _, r in rows.iterrows():
        code = integer(r["amenity_code"])
        if code is None:
            continue
        conf = integer(r["configuration"])
        stored = [k for k in current if k[0] == code and (conf is None or k[1] == conf)]
        if bool(value(r["remove"]) or False):
            for k in stored:
                out.desired.pop(k, None)
                out.removed.add(k)
            continue
        if conf is None and len(stored) > 1:
            out.ambiguous.append(r)
            continue
        key = stored[0] if conf is None and stored else (code, conf)
        count = integer(r["value"])
        out.desired[key] = count if count is not None else current.get(key)
        given.setdefault(key, r)
    out.conflicts = [(r, key) for key, r in given.items() if key in out.removed]
    return out


def conflict_text(key: Key, where: str) -> str:
    code, conf = key
    return (f"amenity {code}" + (f" (configuration {conf})" if conf is not None else "") + f" of {where} is "
            "removed by another row of the sheet (Value 0 or Remove) and given on this one: keep one of the two "
            "rows (AMENITY_CONFLICT)")


def amenities_of(state: State, keys: list[Key] | None = None) -> tuple[Amenity, ...]:
    return tuple(Amenity(code, count, conf) for (code, conf), count in state.items() if keys is None
                 or (code, conf) in keys)


def label(code: int) -> str:
    return amenity_names().get(code, "")


def show(count: int | None, conf: int | None) -> str:
    """``1 (configuration 2)``; ``yes`` for an amenity without a count."""
    text = "yes" if count is None else str(count)
    return text + (f" (configuration {conf})" if conf is not None else "")


def render(state: State | None) -> str:
    """A whole amenity list for the parts frame: ``2, 33×1 (configuration 1), 123``."""
    if state is None:
        return "(not in the platform's read)"
    if not state:
        return "(none)"
    items = []
    for (code, conf), count in sorted(state.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        items.append(f"{code}" + (f"×{count}" if count is not None else "")
                     + (f" (configuration {conf})" if conf is not None else ""))
    return ", ".join(items)
