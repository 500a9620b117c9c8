"""What every rate rule is handed besides the frame: the registry, the as-of day, FX, and keys."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd

from expectations._keys import Coder
from expectations.reference import FxTable
from loaders import Registry


@dataclass
class RateCheck:
    """Everything a rule needs besides the frame."""

    frame: pd.DataFrame
    registry: Registry
    as_of: dt.date
    fx: FxTable
    coder: Coder

    def header(self, rows: pd.DataFrame, field: str, fallback: str) -> pd.Series:
        """The header each row's sheet used for ``field`` (the OTA name when unknown)."""
        headers = self.frame.attrs.get("headers", {})
        keys = list(zip(rows["source"], rows["sheet"], strict=True))
        return pd.Series([headers.get(k, {}).get(field, fallback) for k in keys], index=rows.index, dtype="string")

    def layout(self, rows: pd.DataFrame) -> pd.Series:
        headers = self.frame.attrs.get("headers", {})
        return pd.Series([headers.get((s, h), {}).get("layout", "long") for s, h in
                          zip(rows["source"], rows["sheet"], strict=True)], index=rows.index)
