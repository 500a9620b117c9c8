"""Rates from files to the platform, for notebooks and the CLI: load, check, dry-run, push.

>>> from workbench import check_rates, dry_run, push_rates
>>> check = check_rates(["data/samples/rates.xlsx"], registry="data/samples/registry.xlsx")
>>> check.summary()
>>> check_rates(frame, as_of="2026-12-01")        # a frame in the long layout, read like a sheet
>>> result = dry_run(check, "out/requests", skip_invalid=True)
>>> pushed = push_rates(check, settings, journal=".workbench/journal.sqlite", skip_invalid=True)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar, TypeAlias

import numpy as np
import pandas as pd

from expectations import FxTable, read_fx_table, validate_rates
from expectations.groups import missing_facts
from expectations.located import locate_issues
from expectations.rates import as_of_date, repeats
from expectations.waivers import apply_waivers, empty_waived
from loaders import RATES_COLUMNS, Registry, read_rates, read_registry
from loaders.issues import combine
from loaders.schemas import empty_rates as empty_rates_frame
from loaders.waivers import read_waivers
from workbench.config import Settings
from workbench.errors import BlockedByErrors
from workbench.flows.checked import IssuesView, refuse_other_kind
from workbench.flows.dry_runs import DryRun
from workbench.flows.frames import read_rates_frame
from workbench.reports.about import describe, names_from
from workbench.wording import agree, count, fact
from workbench.writers import (
    DEFAULT_JOURNAL,
    ROW_COLUMNS,
    PushResult,
    RateRequest,
    RatesPlan,
    folder_requests,
    held_lines,
    not_sent_rows,
    plan_requests,
    row_ranges,
    send_rates,
    write_folder,
)

PathLike = str | Path
RatesInput: TypeAlias = "str | Path | pd.DataFrame"  # a file, or a frame read like a sheet (workbench.flows.frames)
WaiversInput: TypeAlias = "str | Path | pd.DataFrame | Iterable[str | Path]"  # files, or a read_waivers frame


@dataclass(repr=False)
class RatesCheck(IssuesView):
    """A loaded and validated set of rates: the canonical ``frame`` and its ``issues``; ``waived``:
    the warnings waivers set aside (they count nowhere; see :meth:`waive`)."""

    frame: pd.DataFrame
    issues: pd.DataFrame
    registry: Registry
    as_of: dt.date
    files: list[Path] = field(default_factory=list)
    waived: pd.DataFrame = field(default_factory=empty_waived)
    title: ClassVar[str] = "Rates check"

    def facts(self) -> list[tuple[str, str]]:
        frames = sorted({str(s) for s in pd.concat([self.frame["source"], self.issues["source"]]).dropna()
                         if str(s).startswith("<DataFrame")})
        read = [p.name for p in self.files] + frames
        waived = [(f"{len(self.waived):,}", "warnings waived")] if len(self.waived) else []
        return [fact(len(self.frame), "night price", "night prices"), (", ".join(read) or "nothing", "read:"),
                (f"{self.as_of:%Y-%m-%d}", "as of:"), *waived]

    def waive(self, waivers: WaiversInput) -> RatesCheck:
        """This check with ``waivers`` applied (a waivers file, several, or a :func:`loaders.waivers.read_waivers`
        frame): matching warnings move to ``waived``; errors stay (a waiver on one is reported, as is an
        expired waiver). A bad waivers file raises :class:`~loaders.LoadError` naming its cells."""
        table = waivers if isinstance(waivers, pd.DataFrame) else read_waivers(waivers)
        done = apply_waivers(self.issues, locate_issues(self.issues, self.frame), table, self.as_of)
        waived = pd.concat([w for w in (self.waived, done.waived) if len(w)] or [empty_waived()], ignore_index=True)
        return replace(self, issues=done.issues, waived=waived)

    def invalid_mask(self) -> np.ndarray:
        """Rows of ``frame`` touched by an error: the whole sheet row, or for a wide sheet only the
        night whose cell the error is on."""
        f = self.frame
        err = self.errors[["source", "sheet", "row", "column"]].astype({"row": "int64"})
        if err.empty or f.empty:
            return np.zeros(len(f), dtype=bool)
        key = pd.MultiIndex.from_arrays([f["source"], f["sheet"], f["row"].astype("int64")])
        cell_key = pd.MultiIndex.from_arrays([f["source"], f["sheet"], f["row"].astype("int64"), f["amount_column"]])
        amount_cols = set(f["amount_column"].dropna().unique())
        wide_sheets = {k for k, v in f.attrs.get("headers", {}).items() if v.get("layout") == "wide"}
        is_cell = err["column"].isin(amount_cols) & pd.Series(
            [(s, h) in wide_sheets for s, h in zip(err["source"], err["sheet"], strict=True)], index=err.index)
        rows_err = pd.MultiIndex.from_frame(err.loc[~is_cell, ["source", "sheet", "row"]])
        cells_err = pd.MultiIndex.from_frame(err.loc[is_cell, ["source", "sheet", "row", "column"]])
        return np.asarray(key.isin(rows_err) | cell_key.isin(cells_err))

    def repeat_mask(self) -> np.ndarray:
        """Rows pricing a cell an earlier row (file order) already prices: never sent, whatever the
        flags (the platform would apply only the first; the ``duplicate_key`` warning says which)."""
        if self._repeats is None or len(self._repeats) != len(self.frame):
            if (self.issues["rule"] == "duplicate_key").any():
                self._repeats = repeats(self.frame)
            else:  # the checks found no cell priced twice (same key, same frame): no repeats to look for
                self._repeats = np.zeros(len(self.frame), dtype=bool)
        return self._repeats

    def not_sent(self) -> pd.DataFrame:
        """The spreadsheet rows with errors, as a push reports them (outcome ``not sent (errors)``)."""
        return not_sent_rows(self.frame[self.invalid_mask()], self.errors)
    def refused_mask(self) -> np.ndarray:
        """Rows of properties whose ``roomrates`` read the platform refused (``registry.refused``)."""
        refused = self.registry.refused["hotel_code"].dropna()
        return np.asarray(self.frame["hotel_code"].isin(refused), dtype=bool)

    def not_sent_mask(self) -> np.ndarray:
        """Rows a push with ``--skip-invalid`` leaves out: errors, repeats, refused properties."""
        return self.invalid_mask() | self.repeat_mask() | self.refused_mask()

    def valid_frame(self) -> pd.DataFrame:
        """The rows no error touches, without repeats: what ``--skip-invalid`` sends (the first
        occurrence of a repeated cell is kept)."""
        return self.frame[~(self.invalid_mask() | self.repeat_mask())]

    def not_checked(self) -> pd.DataFrame:
        """Per property: the rules that did not run (or ran on a guess) for lack of facts the
        platform does not send (``hotel_code, rules, why``); ``--registry FILE`` supplies them."""
        if not (self.issues["rule"] == "not_checked").any():
            return pd.DataFrame(columns=["hotel_code", "rules", "why"])
        return missing_facts(self.frame.reset_index(drop=True), self.registry)

    _repeats: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    #: what a push would change against a journal (``check_rates(..., journal=...)``): made once, its
    #: price-jump warnings among ``issues``, reused by ``push_rates`` with the same journal and target
    plan: RatesPlan | None = field(default=None, repr=False, compare=False)



def check_rates(files: RatesInput | Iterable[RatesInput], *, sheet: str | Sequence[str] | None = None,
                registry: Registry | PathLike | Iterable[PathLike] | None = None, as_of: dt.date | str | None = None,
                fx: FxTable | PathLike | None = None, encoding: str | None = None,
                header_row: int | None = None, waivers: WaiversInput | None = None,
                settings: Settings | None = None, journal: PathLike | None = None, price_jumps: bool = True,
                fetch_registry: bool = True, progress: Callable[[str], object] | None = None) -> RatesCheck:
    """Load rates files (or frames) and check them against the platform's rules: what
    ``workbench validate rates`` and ``workbench push rates`` do before sending, step for step.

    ``files`` are paths of CSV/Excel files and/or pandas frames; a frame is read like a sheet in the
    long layout, its issues pointing at ``<DataFrame 1>`` row = its position + 2 (see
    :mod:`workbench.flows.frames`). ``as_of`` is a date or ``YYYY-MM-DD`` text (default: today in CET).
    ``encoding`` and ``header_row`` apply to the files (see :func:`loaders.read_rates`).
    With ``settings`` naming a platform, the rooms and rate plans of the properties read are read from
    it (roomrates) and added to ``registry`` (``fetch_registry=False``: not). With ``journal``, the rows
    are compared with the prices it says were accepted (``check.plan``) and the price-jump warnings join
    the issues (``price_jumps=False``: not). ``waivers`` (a waivers file or frame) then set accepted
    warnings aside: see :meth:`RatesCheck.waive`. ``progress`` is told each step as it starts.
    """
    if isinstance(files, (pd.Series, pd.Index)) or not isinstance(files, (str, Path, pd.DataFrame, Iterable)):
        raise TypeError(f"check_rates reads a file path, a pandas DataFrame or a list of them, not a "
                        f"{type(files).__name__}" + (": give `series.to_frame()`" if isinstance(files, pd.Series)
                                                     else ""))
    say = progress or (lambda _: None)
    inputs = [files] if isinstance(files, (str, Path, pd.DataFrame)) else list(files)
    refuse_other_kind([p for p in inputs if isinstance(p, (str, Path))], "rates")
    say("Reading the files…")
    loaded = _load(inputs, sheet, encoding=encoding, header_row=header_row)
    reg = _registry(registry)
    if settings is not None and settings.base_url and fetch_registry:
        from workbench.platform import fetch_registry as read_platform

        hotels = sorted({int(h) for h in loaded[0]["hotel_code"].dropna().unique()})
        say(f"Reading the rooms and rate plans of {count(len(hotels), 'property', 'properties')} from the platform…")
        platform = read_platform(settings, hotels)
        reg = platform if reg is None else reg.merge(platform)
    say(f"Checking {count(len(loaded[0]), 'price')}…")
    check = check_loaded(loaded, [p for p in inputs if not isinstance(p, pd.DataFrame)], registry=reg, as_of=as_of,
                         fx=fx)
    if journal is not None and price_jumps:
        from workbench.flows.plan import plan_rates, with_warnings

        say("Comparing with the last accepted prices…")
        plan = plan_rates(check, settings, journal=journal, skip_invalid=True)
        check = with_warnings(check, plan.warnings)  # before the waivers: a price jump is a warning one may waive
        check.plan = plan
    return check if waivers is None else check.waive(waivers)


def _registry(registry: Registry | PathLike | Iterable[PathLike] | None) -> Registry | None:
    if registry is None or isinstance(registry, Registry):
        return registry
    return read_registry(registry)


def check_loaded(loaded: tuple[pd.DataFrame, pd.DataFrame], files: Iterable[PathLike] = (), *,
                 registry: Registry | PathLike | Iterable[PathLike] | None = None,
                 as_of: dt.date | str | None = None, fx: FxTable | PathLike | None = None,
                 waivers: WaiversInput | None = None) -> RatesCheck:
    """Check rates already read (``loaders.read_rates(...)``: the frame and the load issues) from
    ``files``; see :func:`check_rates` for the other arguments."""
    frame, load_issues = loaded
    as_of = as_of_date(as_of)
    reg = _registry(registry) or Registry()
    fx_table = fx if isinstance(fx, FxTable) else read_fx_table(fx)
    issues = validate_rates(frame, registry=reg, as_of=as_of, fx=fx_table, load_issues=load_issues)
    names = names_from(reg.properties)
    describe(issues, kind="rates", names=names)
    describe(frame, kind="rates", names=names)  # the plan and the push reports read them from the frame
    check = RatesCheck(frame, issues, reg, as_of, [Path(p) for p in files])
    return check if waivers is None else check.waive(waivers)


def _load(inputs: list[RatesInput], sheet: str | Sequence[str] | None, *, encoding: str | None = None,
          header_row: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every input read in the order given: runs of files by the loader, each frame as a sheet."""
    parts: list[tuple[pd.DataFrame, pd.DataFrame]] = []
    paths: list[Path] = []
    frames = 0
    for item in [*inputs, None]:
        if isinstance(item, (str, Path)):
            paths.append(Path(item))
            continue
        if paths:
            parts.append(read_rates(paths, sheet=sheet, encoding=encoding, header_row=header_row))
            paths = []
        if isinstance(item, pd.DataFrame):
            frames += 1
            parts.append(read_rates_frame(item, frames))
        elif item is not None:
            raise TypeError(f"check_rates reads file paths and pandas DataFrames, not {type(item).__name__}")
    if len(parts) == 1:
        return parts[0]
    headers = {k: v for f, _ in parts for k, v in f.attrs.get("headers", {}).items()}
    frame = pd.concat([f for f, _ in parts], ignore_index=True) if parts else empty_rates_frame()
    frame = frame.astype(RATES_COLUMNS)
    frame.attrs["headers"] = headers
    return frame, combine([i for _, i in parts])


def _blocked(check: RatesCheck, skip_invalid: bool) -> None:
    if not check.ok and not skip_invalid:
        raise BlockedByErrors(f"{count(len(check.errors), 'error')} {agree(len(check.errors), 'blocks', 'block')} "
                              "the push; fix them, or send only the rows "
                              "without errors with `skip_invalid=True` (`--skip-invalid` on the command line)")


def requests_for(check: RatesCheck, skip_invalid: bool = False, spelling: str = "ota") -> tuple[list[RateRequest], int]:
    """The requests a push would send (errors block unless ``skip_invalid``; repeats are never sent)
    and how many rows with errors were left out."""
    _blocked(check, skip_invalid)
    mask = check.invalid_mask()
    return plan_requests(check.frame[~(mask | check.repeat_mask())], spelling=spelling), int(mask.sum())


def dry_run(check: RatesCheck, directory: PathLike, skip_invalid: bool = False, spelling: str = "ota") -> DryRun:
    """Write the requests a push would send: ``<hotel>-<YYYY-MM>.xml`` each, plus ``manifest.csv``
    and ``cells.parquet`` (see :mod:`workbench.writers.request_folder`; ``push requests DIR`` sends
    them). ``spelling`` of the weekday flags: ``ota`` (Weds/Thur, default) or ``spec`` (Wed/Thu).
    An availability check (``check_availability``) writes its own requests
    (:func:`workbench.flows.availability.dry_run`)."""
    if not isinstance(check, RatesCheck):
        from workbench.flows.availability import dry_run as availability_dry_run

        return availability_dry_run(check, directory, skip_invalid=skip_invalid)
    _blocked(check, skip_invalid)
    mask = check.invalid_mask()
    requests, cells = folder_requests(check.frame[~(mask | check.repeat_mask())], spelling=spelling)
    written, manifest = write_folder(directory, requests, cells)
    return DryRun(Path(directory), written, manifest, int(mask.sum()), int(check.repeat_mask().sum()))


def push_rates(check: RatesCheck, settings: Settings, *, journal: PathLike = DEFAULT_JOURNAL,
               skip_invalid: bool = False, full: bool = False, progress: bool = True, command: str = "",
               client_options: dict | None = None, price_jumps: bool = True,
               lock_wait: float = 0.0, plan: RatesPlan | None = None) -> PushResult:
    """Send what changed since the platform last accepted it (everything with ``full``).

    Raises :class:`~workbench.errors.BlockedByErrors` when the check has errors and ``skip_invalid``
    was not asked for (nothing is sent then). Rows not sent are reported all the same: rows skipped
    for errors in ``result.not_sent`` (``not sent (errors)``); in ``result.rows``, repeats of an
    earlier row as ``not sent`` and rows of properties the platform refused to describe
    (``check.registry.refused``) as ``rejected`` with its text and ruid. ``result.plan`` is what the
    push was about to do (``plan_rates``); its price-jump warnings (unless ``price_jumps=False``) are
    on the lines of the cells sent (``price_jump`` / ``price_outlier`` in ``codes``). Another push on the
    same journal makes this one wait up to ``lock_wait`` seconds, then raise
    :class:`~workbench.writers.send_lock.JournalBusy` (see :mod:`workbench.writers.send_lock`).
    """
    _blocked(check, skip_invalid)
    invalid, repeated, refused = check.invalid_mask(), check.repeat_mask(), check.refused_mask()
    send = ~(invalid | repeated | refused)
    frame = check.frame.reset_index(drop=True)
    # errors skipped: ``not_sent`` ("not sent (errors)"); repeats and refused properties: ``held`` lines
    held = _held(check, frame, repeated & ~invalid & ~refused, refused & ~invalid)
    if plan is None and _reusable(check.plan, settings, journal, full, price_jumps):
        plan = check.plan
    plan = plan if plan is not None else _plan(check, settings, journal, skip_invalid, full, price_jumps)
    result = send_rates(frame[send], settings, journal=journal, full=full, progress=progress, command=command,
                        client_options=client_options, skipped_rows=int(invalid.sum()), files=check.files,
                        held=held, refused=_refused(check, frame, refused), not_sent=check.not_sent(),
                        lock_wait=lock_wait, plan=plan)
    result.plan = plan
    from workbench.flows.plan import with_row_warnings

    result.rows = with_row_warnings(result.rows, plan.warnings)
    return result


def _reusable(plan: RatesPlan | None, settings: Settings, journal: PathLike, full: bool, price_jumps: bool) -> bool:
    """The check's plan serves the push: made against the same journal and target, not ``full``."""
    from workbench.flows.plan import plan_target

    return (plan is not None and not full and price_jumps and Path(plan.journal) == Path(journal)
            and plan.target == plan_target(settings, journal))


def _plan(check: RatesCheck, settings: Settings, journal: PathLike, skip_invalid: bool, full: bool,
          price_jumps: bool) -> RatesPlan:
    """The plan every push starts with: its figures head the push's output."""
    from workbench.flows.plan import plan_rates

    return plan_rates(check, settings, journal=journal, skip_invalid=skip_invalid, full=full,
                      price_jumps=price_jumps)


def _held(check: RatesCheck, frame: pd.DataFrame, repeated: np.ndarray, refused: np.ndarray) -> pd.DataFrame:
    """The rows frame's lines for what is not sent besides skipped errors: repeats (``not sent``) and
    rows of refused properties (``rejected``)."""
    parts = []
    if repeated.any():
        rows = frame[repeated]
        dup = check.issues[check.issues["rule"] == "duplicate_key"]
        text = _issue_text(rows, dup, "not sent: repeats an earlier row of the same cell")
        parts.append(held_lines(rows, rows["amount_column"], outcome="not sent", severity="warning",
                                codes="duplicate_key", message=text))
    if refused.any():
        why = check.registry.refused.drop_duplicates("hotel_code").set_index("hotel_code")
        for hotel, rows in frame[refused].groupby("hotel_code", sort=True):
            r = why.loc[hotel]
            column = pd.Series([(frame.attrs.get("headers", {}).get((s, h), {}) or {}).get("hotel_code", "HotelCode")
                                for s, h in zip(rows["source"], rows["sheet"], strict=True)], index=rows.index)
            parts.append(held_lines(rows, column, outcome="rejected", severity="error",
                                    codes="" if pd.isna(r["code"]) else str(r["code"]),
                                    message=f"not sent: the platform refused to describe property {hotel} "
                                            f"(roomrates): {'' if pd.isna(r['text']) else r['text']}",
                                    ruid=None if pd.isna(r["ruid"]) else str(r["ruid"])))
    parts = [p for p in parts if len(p)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=ROW_COLUMNS)


def _issue_text(rows: pd.DataFrame, issues: pd.DataFrame, fallback: str) -> pd.Series:
    """The message of each row's issue (by source, sheet, row and cell), ``fallback`` when none."""
    found = issues.astype({"row": "int64"}).drop_duplicates(["source", "sheet", "row", "column"])
    found = found.set_index(["source", "sheet", "row", "column"])["message"]
    key = pd.MultiIndex.from_frame(rows[["source", "sheet", "row", "amount_column"]].astype({"row": "int64"}))
    return pd.Series(found.reindex(key).to_numpy(), index=rows.index).fillna(fallback).astype(str)


def _refused(check: RatesCheck, frame: pd.DataFrame, refused: np.ndarray) -> pd.DataFrame:
    """Per property the platform refused: its code, text, ruid, the cells not sent and their rows."""
    why = check.registry.refused.drop_duplicates("hotel_code")
    out = []
    for r in why.itertuples(index=False):
        rows = frame[refused & (frame["hotel_code"] == r.hotel_code).to_numpy()]
        if rows.empty:
            continue
        where = "; ".join(f"{src}{' ' + sheet if sheet else ''} {row_ranges(sorted(set(int(x) for x in g['row'])))}"
                          for (src, sheet), g in rows.groupby(["source", "sheet"], sort=True))
        out.append({"hotel_code": r.hotel_code, "code": r.code, "text": r.text, "ruid": r.ruid, "cells": len(rows),
                    "source_rows": where})
    return pd.DataFrame(out, columns=["hotel_code", "code", "text", "ruid", "cells", "source_rows"])
