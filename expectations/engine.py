"""Running Great Expectations suites on in-memory frames, quietly and once per process.

GX is imported lazily (it takes seconds); the ephemeral context and its pandas data source
are created once and reused. Results come back as the failing row positions per expectation.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pandas as pd


@lru_cache(maxsize=1)
def _context() -> Any:
    import great_expectations as gx

    for name in ("great_expectations", "great_expectations.core", "great_expectations.data_context"):
        logging.getLogger(name).setLevel(logging.ERROR)
    ctx = gx.get_context(mode="ephemeral")
    # GX annotates ProgressBarsConfig but stores and reads the value as a mapping (Validator checks keys)
    ctx.variables.progress_bars = {"globally": False, "metric_calculations": False}  # type: ignore[assignment]
    return ctx


_assets: dict[str, Any] = {}


def _batch_definition(name: str) -> Any:
    if name not in _assets:
        ctx = _context()
        source_name = "workbench"
        try:
            source = ctx.data_sources.get(source_name)
        except (KeyError, ValueError):
            source = ctx.data_sources.add_pandas(source_name)
        asset = source.add_dataframe_asset(name)
        _assets[name] = asset.add_batch_definition_whole_dataframe("whole")
    return _assets[name]


@dataclass(frozen=True)
class Failure:
    """One expectation's outcome: its ``meta`` and the positions of the rows that failed it."""

    meta: dict[str, Any]
    expectation_type: str
    positions: list[int]


def run_suite(name: str, frame: pd.DataFrame, expectations: list[Any]) -> list[Failure]:
    """Validate ``frame`` (default RangeIndex) against ``expectations``; return the failures."""
    if frame.empty or not expectations:
        return []
    import great_expectations as gx

    suite = gx.ExpectationSuite(name=name, expectations=[e.copy() if hasattr(e, "copy") else e
                                                         for e in expectations])
    batch = _batch_definition(name).get_batch(batch_parameters={"dataframe": frame})
    result = batch.validate(suite, result_format={"result_format": "COMPLETE"})
    out = []
    for r in result.results:
        if r.exception_info and r.exception_info.get("raised_exception"):
            msg = r.exception_info.get("exception_message")
            raise RuntimeError(f"expectation {r.expectation_config.type} could not run: {msg}")
        if r.success:
            continue
        positions = [int(i) for i in r.result.get("unexpected_index_list") or []]
        out.append(Failure(dict(r.expectation_config.meta or {}), r.expectation_config.type, positions))
    return out
