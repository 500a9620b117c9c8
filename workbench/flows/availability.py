"""Availability and restrictions from files, checked: load + the platform's rules, nothing sent.

>>> from workbench import check_availability
>>> check = check_availability("data/samples/availability.xlsx", registry="data/samples/registry.xlsx",
...                            as_of="2026-12-01")
>>> check              # in Jupyter: the verdict, counts by rule and the first issues
>>> check.valid_frame()  # what --skip-invalid would send: no errors, no repeats
>>> check.calendar()     # one row per room (room-rate) and night, one column per value set

Sending goes through the one push path with availability as one more kind (the requests are built by
:mod:`workbench.writers.avail_requests`, sent by :mod:`workbench.writers.avail_push`):

>>> dry_run(check, "out/availability")            # the requests, nothing sent
>>> plan_availability(check, settings)            # what a push would change against the journal
>>> push_availability(check, settings, skip_invalid=True)
>>> fetch_availability(settings, [1000001], start="2027-01-01", days=90)   # what the platform holds
>>> reconcile_availability(settings, [1000001], journal=".workbench/journal.sqlite")
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypeAlias

import numpy as np
import pandas as pd

from expectations.availability import for_rules, quantities, validate_availability
from expectations.availability_groups import availability_repeats, missing_facts
from expectations.located import locate_issues
from expectations.rates import as_of_date
from expectations.waivers import apply_waivers, empty_waived
from loaders import Registry, read_registry
from loaders.availability import read_availability
from loaders.lazy import lazy_exports
from loaders.schemas import RESTRICTION_HEADERS, RESTRICTIONS
from loaders.waivers import read_waivers
from workbench.flows.checked import IssuesView, refuse_other_kind

if TYPE_CHECKING:  # for type checkers; at run time loaded on first use (checking needs none of them)
    from workbench.flows.availability_dry import AvailabilityDryRun, dry_run
    from workbench.flows.availability_push import (
        plan_availability,
        push_availability,
        push_availability_folder,
    )
    from workbench.flows.availability_read import fetch_availability, reconcile_availability

PathLike = str | Path
WaiversInput: TypeAlias = "str | Path | pd.DataFrame | Iterable[str | Path]"
RoomsInput: TypeAlias = "pd.DataFrame | PathLike | Iterable[PathLike] | None"
#: Columns of :meth:`AvailabilityCheck.calendar`: the keys, then one column per value (``RoomsToSell`` …).
CALENDAR_KEYS = ["hotel_code", "inv_type_code", "rate_plan_code", "date"]


@dataclass(repr=False)
class AvailabilityCheck(IssuesView):
    """Loaded and checked availability: the canonical ``frame`` (one row per value set) and its
    ``issues``; ``waived``: the warnings waivers set aside (they count nowhere)."""

    frame: pd.DataFrame
    issues: pd.DataFrame
    as_of: dt.date
    registry: Registry
    quantities: pd.DataFrame | None = None  # each room type's units (registry, rooms)
    files: list[Path] = field(default_factory=list)
    waived: pd.DataFrame = field(default_factory=empty_waived)
    title: ClassVar[str] = "Availability check"

    def facts(self) -> list[tuple[str, str]]:
        waived = [(f"{len(self.waived):,}", "warnings waived")] if len(self.waived) else []
        return [(f"{len(self.frame):,}", "values set"), (", ".join(p.name for p in self.files) or "nothing", "read:"),
                (f"{self.as_of:%Y-%m-%d}", "as of:"), *waived]

    def located(self) -> pd.DataFrame:
        """Each issue's property, room type, rate plan and nights (same index as ``issues``)."""
        return locate_issues(self.issues, for_rules(self.frame))

    def waive(self, waivers: WaiversInput) -> AvailabilityCheck:
        """This check with ``waivers`` applied (a waivers file, several, or a ``read_waivers`` frame): matching
        warnings move to ``waived``; errors stay (a waiver on one is reported, as is an expired waiver)."""
        table = waivers if isinstance(waivers, pd.DataFrame) else read_waivers(waivers)
        done = apply_waivers(self.issues, self.located(), table, self.as_of)
        waived = pd.concat([w for w in (self.waived, done.waived) if len(w)] or [empty_waived()], ignore_index=True)
        return replace(self, issues=done.issues, waived=waived)

    def invalid_mask(self) -> np.ndarray:
        """Rows of ``frame`` an error touches: every value of the sheet row when the error is on a key cell
        (property, room, rate plan, night), only the value itself when it is on the value's cell."""
        f = self.frame
        err = self.errors[["source", "sheet", "row", "column"]].dropna(subset=["row"]).astype({"row": "int64"})
        if err.empty or f.empty:
            return np.zeros(len(f), dtype=bool)
        row = pd.MultiIndex.from_arrays([f["source"], f["sheet"], f["row"].astype("int64")])
        cell = pd.MultiIndex.from_arrays([f["source"], f["sheet"], f["row"].astype("int64"), f["value_column"]])
        on_value = err["column"].isin(set(f["value_column"].dropna().unique()))
        rows = pd.MultiIndex.from_frame(err.loc[~on_value, ["source", "sheet", "row"]])
        cells = pd.MultiIndex.from_frame(err.loc[on_value, ["source", "sheet", "row", "column"]])
        return np.asarray(row.isin(rows) | cell.isin(cells))

    def repeat_mask(self) -> np.ndarray:
        """Rows setting a value an earlier row (file order) already sets: never sent (the first is)."""
        if not (self.issues["rule"] == "duplicate_key").any():
            return np.zeros(len(self.frame), dtype=bool)
        return availability_repeats(self.frame)

    def not_sent(self) -> pd.DataFrame:
        """The cells with errors, as a push reports them (outcome ``not sent (errors)``)."""
        from workbench.writers import avail_not_sent_rows as not_sent_rows

        return not_sent_rows(self.frame[self.invalid_mask()], self.errors)

    def not_sent_mask(self) -> np.ndarray:
        """Rows a push with ``--skip-invalid`` leaves out: errors and repeats."""
        return self.invalid_mask() | self.repeat_mask()

    def valid_frame(self) -> pd.DataFrame:
        """The values no error touches, without repeats: what ``--skip-invalid`` sends."""
        left_out = self.not_sent_mask()
        return self.frame[~left_out] if left_out.any() else self.frame  # a clean file: no copy of a million rows

    def not_checked(self) -> pd.DataFrame:
        """Per property: the rules that did not run for lack of facts (``hotel_code, rules, why``)."""
        if not (self.issues["rule"] == "not_checked").any():
            return pd.DataFrame(columns=["hotel_code", "rules", "why"])
        units = self.quantities if self.quantities is not None else quantities(self.registry)
        return missing_facts(self.frame.reset_index(drop=True), self.registry, units)

    def calendar(self, valid_only: bool = True) -> pd.DataFrame:
        """One row per room type (blank rate plan) or room-rate and night, one column per value
        (``RoomsToSell``, ``Closed`` …, blank where not set): the valid values (all with ``valid_only=False``;
        a repeated cell shows its first value). For a heatmap or a look before sending."""
        f = self.valid_frame() if valid_only else self.frame[~self.repeat_mask()]
        keyed = f.assign(rate_plan_code=f["rate_plan_code"].fillna(""))
        wide = keyed.pivot_table(index=CALENDAR_KEYS, columns="restriction", values="value", aggfunc="first",
                                 observed=True)
        wide = wide.reindex(columns=[r for r in RESTRICTIONS if r in wide.columns]).reset_index()
        wide["rate_plan_code"] = wide["rate_plan_code"].replace("", pd.NA).astype("string")
        wide.columns.name = None
        return wide.rename(columns=RESTRICTION_HEADERS).astype({RESTRICTION_HEADERS[r]: "Int64" for r in RESTRICTIONS
                                                                if r in f["restriction"].unique()})


def check_availability(files: PathLike | Iterable[PathLike], *, sheet: str | Sequence[str] | None = None,
                       registry: Registry | PathLike | Iterable[PathLike] | None = None,
                       rooms: RoomsInput = None, rates: pd.DataFrame | None = None,
                       as_of: dt.date | str | None = None, encoding: str | None = None,
                       header_row: int | None = None, waivers: WaiversInput | None = None) -> AvailabilityCheck:
    """Load availability files (CSV/Excel/Parquet, or folders of them) and check them against the
    platform's rules.

    ``registry`` (a ``Registry`` or registry files) gives pricing models, rooms (with ``Quantity``) and
    rate plans; ``rooms`` a rooms frame or rooms workbooks (``read_rooms``) whose ``Quantity`` is each
    room type's units; ``rates`` a canonical rates frame (``check_rates(...).frame``) for the ``coverage``
    warning. ``as_of`` is a date or ``YYYY-MM-DD`` text (default: today in CET); ``encoding`` and
    ``header_row`` apply to the files; ``waivers`` set accepted warnings aside (:meth:`AvailabilityCheck.waive`).
    """
    paths = [Path(files)] if isinstance(files, (str, Path)) else [Path(p) for p in files]
    refuse_other_kind(paths, "availability")
    loaded = read_availability(paths, sheet=sheet, encoding=encoding, header_row=header_row)
    return check_loaded_availability(loaded, paths, registry=registry, rooms=rooms, rates=rates, as_of=as_of,
                                     waivers=waivers)


def check_loaded_availability(loaded: tuple[pd.DataFrame, pd.DataFrame], files: Iterable[PathLike] = (), *,
                              registry: Registry | PathLike | Iterable[PathLike] | None = None,
                              rooms: RoomsInput = None, rates: pd.DataFrame | None = None,
                              as_of: dt.date | str | None = None,
                              waivers: WaiversInput | None = None) -> AvailabilityCheck:
    """Check availability already read (``read_availability(...)``: the frame and the load issues) from
    ``files``; see :func:`check_availability` for the other arguments."""
    frame, load_issues = loaded
    day = as_of_date(as_of)
    reg = registry if isinstance(registry, Registry) else read_registry(registry) if registry is not None \
        else Registry()
    if isinstance(rooms, pd.DataFrame) or rooms is None:
        room_frame = rooms
    else:  # rooms workbooks given: only then is the rooms reader loaded
        from loaders import read_rooms

        room_frame = read_rooms(rooms).rooms
    issues = validate_availability(frame, registry=reg, as_of=day, rooms=room_frame, rates=rates,
                                   load_issues=load_issues)
    check = AvailabilityCheck(frame, issues, day, reg, quantities(reg, room_frame), [Path(p) for p in files])
    return check if waivers is None else check.waive(waivers)


__all__ = ["AvailabilityCheck", "AvailabilityDryRun", "CALENDAR_KEYS", "check_availability", "check_loaded_availability",
           "dry_run", "fetch_availability", "plan_availability", "push_availability", "push_availability_folder",
           "reconcile_availability"]
__getattr__, __dir__ = lazy_exports(__name__, {
    "AvailabilityDryRun": "workbench.flows.availability_dry", "dry_run": "workbench.flows.availability_dry",
    "plan_availability": "workbench.flows.availability_push", "push_availability": "workbench.flows.availability_push",
    "push_availability_folder": "workbench.flows.availability_push",
    "fetch_availability": "workbench.flows.availability_read",
    "reconcile_availability": "workbench.flows.availability_read"})
