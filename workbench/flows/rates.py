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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, TypeAlias

import numpy as np
import pandas as pd

from expectations import FxTable, read_fx_table, validate_rates
from expectations.rates import as_of_date
from loaders import RATES_COLUMNS, Registry, read_rates, read_registry
from loaders.issues import combine
from loaders.schemas import empty_rates as empty_rates_frame
from workbench.config import Settings
from workbench.display import Summary, Table
from workbench.errors import BlockedByErrors
from workbench.flows.checked import IssuesView
from workbench.flows.frames import read_rates_frame
from workbench.writers.batches import RateRequest, plan_requests
from workbench.writers.push import DEFAULT_JOURNAL, PushResult, not_sent_rows, send_rates

PathLike = str | Path
DRY_RUN_ROWS = 10  # requests a dry run's summary lists
RatesInput: TypeAlias = "str | Path | pd.DataFrame"  # a file, or a frame read like a sheet (workbench.flows.frames)


@dataclass(repr=False)
class RatesCheck(IssuesView):
    """A loaded and validated set of rates: the canonical ``frame`` and its ``issues``."""

    frame: pd.DataFrame
    issues: pd.DataFrame
    registry: Registry
    as_of: dt.date
    files: list[Path] = field(default_factory=list)
    title: ClassVar[str] = "Rates check"

    def facts(self) -> list[tuple[str, str]]:
        frames = sorted({str(s) for s in pd.concat([self.frame["source"], self.issues["source"]]).dropna()
                         if str(s).startswith("<DataFrame")})
        read = [p.name for p in self.files] + frames
        return [(f"{len(self.frame):,}", "night prices"), (", ".join(read) or "nothing", "read:"),
                (f"{self.as_of:%Y-%m-%d}", "as of:")]

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

    def valid_frame(self) -> pd.DataFrame:
        """The rows no error touches: what ``--skip-invalid`` sends."""
        return self.frame[~self.invalid_mask()]

    def not_sent(self) -> pd.DataFrame:
        """The spreadsheet rows with errors, as a push reports them (outcome ``not sent (errors)``)."""
        return not_sent_rows(self.frame[self.invalid_mask()], self.errors)



def check_rates(files: RatesInput | Iterable[RatesInput], *, sheet: str | Sequence[str] | None = None,
                registry: Registry | PathLike | Iterable[PathLike] | None = None, as_of: dt.date | str | None = None,
                fx: FxTable | PathLike | None = None, encoding: str | None = None,
                header_row: int | None = None) -> RatesCheck:
    """Load rates files (or frames) and check them against the platform's rules.

    ``files`` are paths of CSV/Excel files and/or pandas frames; a frame is read like a sheet in the
    long layout, its issues pointing at ``<DataFrame 1>`` row = its position + 2 (see
    :mod:`workbench.flows.frames`). ``as_of`` is a date or ``YYYY-MM-DD`` text (default: today in CET).
    ``encoding`` and ``header_row`` apply to the files (see :func:`loaders.read_rates`).
    """
    inputs = [files] if isinstance(files, (str, Path, pd.DataFrame)) else list(files)
    as_of = as_of_date(as_of)
    if registry is None:
        reg = Registry()
    elif isinstance(registry, Registry):
        reg = registry
    else:
        reg = read_registry(registry)
    fx_table = fx if isinstance(fx, FxTable) else read_fx_table(fx)
    frame, load_issues = _load(inputs, sheet, encoding=encoding, header_row=header_row)
    issues = validate_rates(frame, registry=reg, as_of=as_of, fx=fx_table, load_issues=load_issues)
    return RatesCheck(frame, issues, reg, as_of, [Path(p) for p in inputs if not isinstance(p, pd.DataFrame)])


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


@dataclass(repr=False)
class DryRun:
    """Requests written to ``directory``: one ``.xml`` per request and ``manifest.csv``."""

    directory: Path
    requests: list[RateRequest]
    manifest: pd.DataFrame
    skipped_rows: int

    def _repr_html_(self) -> str:
        facts = [(f"{len(self.requests):,}", "requests"), (f"{self.messages:,}", "messages"),
                 (f"{self.cells:,}", "prices"), (f"{self.skipped_rows:,}", "prices with errors left out"),
                 (str(self.directory), "written to:")]
        shown = self.manifest.head(DRY_RUN_ROWS)
        note = (f"{len(shown)} of {len(self.manifest):,} requests shown; all of them: `.manifest`"
                if len(shown) < len(self.manifest) else "")
        tables = [Table("Requests (nothing was sent)", shown, note=note, wide=("source_rows",))] if len(shown) else []
        verdict = "written, nothing sent" if self.requests else "nothing to send"
        return Summary("Dry run", verdict, "info", facts, tables).html()

    def __repr__(self) -> str:
        return (f"<DryRun: {len(self.requests):,} requests, {self.messages:,} messages, {self.cells:,} prices "
                f"written to {self.directory}; {self.skipped_rows:,} prices with errors left out>")

    @property
    def cells(self) -> int:
        return int(self.manifest["cells"].sum()) if len(self.manifest) else 0

    @property
    def messages(self) -> int:
        return int(self.manifest["messages"].sum()) if len(self.manifest) else 0


def manifest_of(requests: Sequence[RateRequest]) -> pd.DataFrame:
    return pd.DataFrame({
        "file": [f"{r.key}.xml" for r in requests],
        "hotel": [r.hotel_code for r in requests],
        "month": [r.month for r in requests],
        "messages": [r.messages for r in requests],
        "cells": [r.cells for r in requests],
        "source_rows": [r.source_rows() for r in requests],
    }, columns=["file", "hotel", "month", "messages", "cells", "source_rows"])


def _blocked(check: RatesCheck, skip_invalid: bool) -> None:
    if not check.ok and not skip_invalid:
        raise BlockedByErrors(f"{len(check.errors)} error(s) block the push; fix them, or send only the rows "
                              "without errors with --skip-invalid")


def requests_for(check: RatesCheck, skip_invalid: bool = False) -> tuple[list[RateRequest], int]:
    _blocked(check, skip_invalid)
    mask = check.invalid_mask()
    return plan_requests(check.frame[~mask]), int(mask.sum())


def dry_run(check: RatesCheck, directory: PathLike, skip_invalid: bool = False) -> DryRun:
    """Write the requests a push would send: ``<hotel>-<YYYY-MM>.xml`` each, plus ``manifest.csv``."""
    requests, skipped = requests_for(check, skip_invalid)
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.xml"):
        old.unlink()
    for r in requests:
        (out / f"{r.key}.xml").write_bytes(r.body)
    manifest = manifest_of(requests)
    manifest.to_csv(out / "manifest.csv", index=False)
    return DryRun(out, requests, manifest, skipped)


def push_rates(check: RatesCheck, settings: Settings, *, journal: PathLike = DEFAULT_JOURNAL,
               skip_invalid: bool = False, full: bool = False, progress: bool = True, command: str = "",
               client_options: dict | None = None) -> PushResult:
    """Send what changed since the platform last accepted it (everything with ``full``).

    Raises :class:`~workbench.errors.BlockedByErrors` when the check has errors and ``skip_invalid``
    was not asked for (nothing is sent then).
    """
    _blocked(check, skip_invalid)
    invalid = check.invalid_mask()
    return send_rates(check.frame[~invalid], settings, journal=journal, full=full, progress=progress,
                      command=command, client_options=client_options, skipped_rows=int(invalid.sum()),
                      files=check.files, not_sent=check.not_sent())
