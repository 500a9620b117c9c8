"""Rates from files to the platform, for notebooks and the CLI: load, check, dry-run, push.

>>> from workbench import check_rates, dry_run, push_rates
>>> check = check_rates(["data/samples/rates.xlsx"], registry="data/samples/registry.xlsx")
>>> check.summary()
>>> result = dry_run(check, "out/requests", skip_invalid=True)
>>> pushed = push_rates(check, settings, journal=".workbench/journal.sqlite", skip_invalid=True)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from expectations import FxTable, cet_today, read_fx_table, validate_rates
from expectations.groups import missing_facts
from expectations.rates import repeats
from loaders import Registry, read_rates, read_registry
from workbench.config import Settings
from workbench.errors import BlockedByErrors
from workbench.flows.checked import IssuesView
from workbench.writers.batches import RateRequest, plan_requests, row_ranges
from workbench.writers.push import DEFAULT_JOURNAL, ROW_COLUMNS, PushResult, held_lines, send_rates

PathLike = str | Path


@dataclass
class RatesCheck(IssuesView):
    """A loaded and validated set of rates: the canonical ``frame`` and its ``issues``."""

    frame: pd.DataFrame
    issues: pd.DataFrame
    registry: Registry
    as_of: dt.date
    files: list[Path] = field(default_factory=list)

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
            self._repeats = repeats(self.frame)
        return self._repeats

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


def check_rates(files: PathLike | Iterable[PathLike], *, sheet: str | Sequence[str] | None = None,
                registry: Registry | PathLike | Iterable[PathLike] | None = None, as_of: dt.date | str | None = None,
                fx: FxTable | PathLike | None = None) -> RatesCheck:
    """Load rates files and check them against the platform's rules."""
    paths = [Path(files)] if isinstance(files, (str, Path)) else [Path(p) for p in files]
    if isinstance(as_of, str):
        as_of = dt.date.fromisoformat(as_of)
    as_of = as_of or cet_today()
    if registry is None:
        reg = Registry()
    elif isinstance(registry, Registry):
        reg = registry
    else:
        reg = read_registry(registry)
    fx_table = fx if isinstance(fx, FxTable) else read_fx_table(fx)
    frame, load_issues = read_rates(paths, sheet=sheet)
    issues = validate_rates(frame, registry=reg, as_of=as_of, fx=fx_table, load_issues=load_issues)
    return RatesCheck(frame, issues, reg, as_of, paths)


@dataclass
class DryRun:
    """Requests written to ``directory``: one ``.xml`` per request and ``manifest.csv``."""

    directory: Path
    requests: list[RateRequest]
    manifest: pd.DataFrame
    skipped_rows: int
    repeated_rows: int = 0  # prices repeating an earlier row's cell: not written (the first is)

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


def requests_for(check: RatesCheck, skip_invalid: bool = False, spelling: str = "ota") -> tuple[list[RateRequest], int]:
    """The requests a push would send (errors block unless ``skip_invalid``; repeats are never sent)
    and how many rows with errors were left out."""
    _blocked(check, skip_invalid)
    mask = check.invalid_mask()
    return plan_requests(check.frame[~(mask | check.repeat_mask())], spelling=spelling), int(mask.sum())


def dry_run(check: RatesCheck, directory: PathLike, skip_invalid: bool = False, spelling: str = "ota") -> DryRun:
    """Write the requests a push would send: ``<hotel>-<YYYY-MM>.xml`` each, plus ``manifest.csv``.
    ``spelling`` of the weekday flags: ``ota`` (Weds/Thur, default) or ``spec`` (Wed/Thu)."""
    requests, skipped = requests_for(check, skip_invalid, spelling)
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.xml"):
        old.unlink()
    for r in requests:
        (out / f"{r.key}.xml").write_bytes(r.body)
    manifest = manifest_of(requests)
    manifest.to_csv(out / "manifest.csv", index=False)
    return DryRun(out, requests, manifest, skipped, int(check.repeat_mask().sum()))


def push_rates(check: RatesCheck, settings: Settings, *, journal: PathLike = DEFAULT_JOURNAL,
               skip_invalid: bool = False, full: bool = False, progress: bool = True, command: str = "",
               client_options: dict | None = None) -> PushResult:
    """Send what changed since the platform last accepted it (everything with ``full``).

    Raises :class:`~workbench.errors.BlockedByErrors` when the check has errors and ``skip_invalid``
    was not asked for (nothing is sent then). Rows not sent are in ``result.rows`` all the same:
    repeats of an earlier row and rows skipped for errors as ``not sent``, rows of properties the
    platform refused to describe (``check.registry.refused``) as ``rejected`` with its text and ruid.
    """
    _blocked(check, skip_invalid)
    frame = check.frame.reset_index(drop=True)
    invalid, repeated, refused = check.invalid_mask(), check.repeat_mask(), check.refused_mask()
    send = ~(invalid | repeated | refused)
    held = _held(check, frame, invalid & ~refused, repeated & ~invalid & ~refused, refused)
    return send_rates(frame[send], settings, journal=journal, full=full, progress=progress, command=command,
                      client_options=client_options, skipped_rows=int(invalid.sum()), files=check.files,
                      held=held, refused=_refused(check, frame, refused))


def _held(check: RatesCheck, frame: pd.DataFrame, invalid: np.ndarray, repeated: np.ndarray,
          refused: np.ndarray) -> pd.DataFrame:
    """The rows frame's lines for what is not sent: repeats and skipped errors (``not sent``), rows of
    refused properties (``rejected``)."""
    parts = []
    if repeated.any():
        rows = frame[repeated]
        dup = check.issues[check.issues["rule"] == "duplicate_key"]
        text = _issue_text(rows, dup, "not sent: repeats an earlier row of the same cell")
        parts.append(held_lines(rows, rows["amount_column"], outcome="not sent", severity="warning",
                                codes="duplicate_key", message=text))
    if invalid.any():
        errors = check.errors
        rows = frame[invalid]
        key = pd.MultiIndex.from_frame(rows[["source", "sheet", "row"]].astype({"row": "int64"}))
        first = errors.drop_duplicates(["source", "sheet", "row"]).astype({"row": "int64"})
        first = first.set_index(["source", "sheet", "row"])
        column = pd.Series(first["column"].reindex(key).to_numpy(), index=rows.index).fillna(rows["amount_column"])
        cells = pd.MultiIndex.from_frame(errors[["source", "sheet", "row", "column"]].astype({"row": "int64"}))
        own_cell = pd.MultiIndex.from_frame(rows[["source", "sheet", "row", "amount_column"]].astype(
            {"row": "int64"})).isin(cells)  # e.g. a wide sheet's night: the error is on that very cell
        column = column.where(~own_cell, rows["amount_column"])
        codes = errors.groupby(["source", "sheet", "row"])["rule"].agg(lambda v: ", ".join(dict.fromkeys(v)))
        texts = errors.groupby(["source", "sheet", "row"])["message"].agg(lambda v: " | ".join(dict.fromkeys(v)))
        codes.index = codes.index.set_levels(codes.index.levels[2].astype("int64"), level=2)
        texts.index = texts.index.set_levels(texts.index.levels[2].astype("int64"), level=2)
        parts.append(held_lines(rows, column, outcome="not sent", severity="error",
                                codes=pd.Series(codes.reindex(key).fillna("").to_numpy(), index=rows.index),
                                message="not sent (--skip-invalid): " + pd.Series(
                                    texts.reindex(key).fillna("").to_numpy(), index=rows.index)))
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
