"""What every checked input offers people: its errors, warnings, a verdict and counts by rule."""

from __future__ import annotations

import pandas as pd


class IssuesView:
    """Mixin for results that carry an ``issues`` frame (rates, rooms, ...)."""

    issues: pd.DataFrame

    @property
    def errors(self) -> pd.DataFrame:
        return self.issues[self.issues["severity"] == "error"]

    @property
    def warnings(self) -> pd.DataFrame:
        return self.issues[self.issues["severity"] == "warning"]

    @property
    def ok(self) -> bool:
        """True when nothing blocks a push (warnings never do)."""
        return self.errors.empty

    def summary(self) -> pd.DataFrame:
        """Issue counts by severity and rule."""
        if self.issues.empty:
            return pd.DataFrame(columns=["severity", "rule", "issues"])
        return (self.issues.groupby(["severity", "rule"]).size().rename("issues").reset_index()
                .sort_values(["severity", "issues"], ascending=[True, False]).reset_index(drop=True))
