"""For ``bench_availability.py``: where the journal keeps availability, measured both ways on the same values.

- **typed** (what the workbench does): ``avail_cells`` / ``avail_accepted`` (:mod:`workbench.writers.journal_avail`):
  a request's values as typed rows, accepted with one ``INSERT ... SELECT``, read back one row per series
  (``read_accepted_availability``) and compared as integer keys (``diff_availability``);
- **generic**: the tables every other kind uses (``request_items`` / ``request_rows`` / ``accepted_items``): each
  value an item ``<hotel>/<room>/<rate>/<night>/<restriction>`` (the texts built with pandas), its row with the
  item again, accepted by reading the request's items back and upserting them, read back as a dict
  (``accepted_items``) and compared item by item.

Each: record every request (before sending), accept every request (as answers arrive), then the delta of the
same values against what was accepted (a second push): CPU seconds of this process, and the file's size.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from workbench.writers.avail_deltas import diff_availability
from workbench.writers.avail_push import AvailabilityKind, avail_requests
from workbench.writers.avail_requests import item_keys
from workbench.writers.journal import Journal
from workbench.writers.journal_avail import read_accepted_availability
from workbench.writers.planned import Planned

TARGET = "https://bench.invalid"


def _lap(out: dict, name: str, start: float) -> float:
    now = time.process_time()
    out[name] = round(now - start, 3)
    return now


def _accept_all(j: Journal, ids: list[int], kind: str) -> None:
    for rid in ids:
        j.record_result(rid, TARGET, status="success", http_status=200, ruid="r", attempts=1, errors=[], warnings=[],
                        error=None, kind=kind)


def typed(frame: pd.DataFrame, folder: Path) -> dict:
    out: dict = {}
    t = time.process_time()
    planned = avail_requests(frame, "stay_through")
    t = _lap(out, "plan", t)
    with Journal(folder / "typed.sqlite") as j:
        run = j.start_run(TARGET, "bench", kind="availability")
        ids = AvailabilityKind().record(j, run, TARGET, planned)
        t = _lap(out, "record", t)
        _accept_all(j, ids, "availability")
        t = _lap(out, "accept", t)
    accepted = read_accepted_availability(folder / "typed.sqlite", TARGET, pd.unique(frame["hotel_code"]))
    changed = int(diff_availability(frame, accepted).send_mask.sum())
    _lap(out, "delta", t)
    out["changed"], out["mb"] = changed, round((folder / "typed.sqlite").stat().st_size / 2**20, 1)
    return out


def generic(frame: pd.DataFrame, folder: Path) -> dict:
    out: dict = {}
    t = time.process_time()
    planned = []
    for p in avail_requests(frame, "stay_through"):
        rows = p.rows
        items = item_keys(pd.Series(p.hotel_code, index=rows.index), rows["inv_type_code"], rows["rate_plan_code"],
                          rows["date"], rows["restriction"])
        values = rows["value"].astype(str)
        planned.append(Planned("availability_generic", p.operation, p.key, p.body, p.property, p.what,
                               hotel_code=p.hotel_code, messages=p.messages, items=p.items,
                               state=list(zip(items.tolist(), values.tolist(), strict=True)),
                               rows=rows.assign(item=items.to_numpy())))
    t = _lap(out, "plan", t)
    with Journal(folder / "generic.sqlite") as j:
        run = j.start_run(TARGET, "bench", kind="availability_generic")
        ids = j.add_planned(run, TARGET, planned)
        t = _lap(out, "record", t)
        _accept_all(j, ids, "availability_generic")
        t = _lap(out, "accept", t)
        accepted = j.accepted_items(TARGET, "availability_generic")
    keys = item_keys(frame["hotel_code"], frame["inv_type_code"], frame["rate_plan_code"], frame["date"],
                     frame["restriction"])
    values = frame["value"].astype(str).tolist()
    changed = int(sum(accepted.get(k) != v for k, v in zip(keys.tolist(), values, strict=True)))
    _lap(out, "delta", t)
    out["changed"], out["mb"] = changed, round((folder / "generic.sqlite").stat().st_size / 2**20, 1)
    return out


def journal_figures(frame: pd.DataFrame) -> dict:
    """Both ways on ``frame`` (canonical availability rows), in one temporary folder removed after."""
    with tempfile.TemporaryDirectory(prefix="workbench-avail-journal-") as tmp:
        folder = Path(tmp)
        result = {"values": len(frame), "typed": typed(frame, folder), "generic": generic(frame, folder)}
    for side in ("typed", "generic"):
        result[side]["total"] = round(float(np.sum([result[side][k] for k in ("record", "accept", "delta")])), 3)
    return result
