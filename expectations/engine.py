"""Running Great Expectations suites on in-memory frames, quietly and once per process.

GX is imported lazily (it takes seconds); the ephemeral context and its pandas data source
are created once and reused. Results come back as the failing row positions per expectation.

A suite may name its expectations (``Rule``: the class in a rules module, the built-in
expectation it refines, its arguments) instead of building them. Every rule is still checked:
a vectorised screen with the built-in's semantics (nulls are ignored, bounds are inclusive) proves
that no row fails, and only when it cannot - some row may fail, or the arguments are ones it does not
know - is GX imported and the whole suite run there, as before. So a clean calendar never pays for
importing GX, and the issues of a dirty one come from GX exactly as they did.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

import pandas as pd

Kind = Literal["between", "in_set", "pair_equal", "null", "unique"]
_BUILT_IN: dict[str, str] = {
    "between": "ExpectColumnValuesToBeBetween", "in_set": "ExpectColumnValuesToBeInSet",
    "pair_equal": "ExpectColumnPairValuesToBeEqual", "null": "ExpectColumnValuesToBeNull",
    "unique": "ExpectColumnValuesToBeUnique",
}


@dataclass(frozen=True)
class Rule:
    """An expectation named, not built: ``name`` in ``module`` (a rules module, which imports GX),
    refining the built-in expectation ``kind``, with ``kwargs`` (``meta`` included)."""

    module: str
    name: str
    kind: Kind
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    def build(self) -> Any:
        """The GX expectation (imports GX); refuses a class that does not refine ``kind``."""
        import great_expectations.expectations as gxe

        cls = getattr(importlib.import_module(self.module), self.name)
        if not issubclass(cls, getattr(gxe, _BUILT_IN[self.kind])):
            raise TypeError(f"{self.module}.{self.name} does not refine {_BUILT_IN[self.kind]}")
        return cls(**self.kwargs)


_SCREENED = {"between": {"column", "min_value", "max_value", "meta"}, "in_set": {"column", "value_set", "meta"},
             "pair_equal": {"column_A", "column_B", "ignore_row_if", "meta"}, "null": {"column", "meta"},
             "unique": {"column", "meta"}}


def passes(frame: pd.DataFrame, rule: Rule) -> bool:
    """True only when every row of ``frame`` certainly meets ``rule`` (the built-in's semantics);
    False when some row may not, or when the screen does not know the arguments (GX decides)."""
    k = rule.kwargs
    if not set(k) <= _SCREENED[rule.kind]:
        return False
    try:
        if rule.kind == "pair_equal":
            if k.get("ignore_row_if") != "either_value_is_missing":
                return False
            a, b = frame[k["column_A"]], frame[k["column_B"]]
            both = (a.notna() & b.notna()).to_numpy(dtype=bool)
            return bool((a[both].to_numpy(dtype=object) == b[both].to_numpy(dtype=object)).all())
        column = frame[k["column"]]
        if rule.kind == "null":
            return bool(column.isna().all())
        values = column.dropna()
        if rule.kind == "unique":
            return not bool(values.duplicated().any())
        if rule.kind == "in_set":
            return bool(values.isin(list(k["value_set"])).all())
        ok = pd.Series(True, index=values.index)
        if k.get("min_value") is not None:
            ok &= values >= k["min_value"]
        if k.get("max_value") is not None:
            ok &= values <= k["max_value"]
        return bool(ok.all())
    except (TypeError, ValueError, KeyError):
        return False


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


def run_suite(name: str, frame: pd.DataFrame, expectations: Sequence[Any]) -> list[Failure]:
    """Validate ``frame`` (default RangeIndex) against ``expectations`` (GX expectations or
    ``Rule``s); return the failures. When every one is a ``Rule`` that ``passes``, GX is not run."""
    if frame.empty or not expectations:
        return []
    if all(isinstance(e, Rule) and passes(frame, e) for e in expectations):
        return []
    import great_expectations as gx

    expectations = [e.build() if isinstance(e, Rule) else e for e in expectations]

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
