"""The result of a health check: the findings frame, the room-rates behind it, and what was read."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pandas as pd

from workbench.health.coverage import KEY, night_ranges
from workbench.health.findings import BLOCKING, FINDING_COLUMNS, SEVERITIES
from workbench.health.sources import HealthSources

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NightsReader = Callable[[Iterable[int]], pd.DataFrame]


@dataclass
class PropertyHealth:
    """``findings`` (the frame: one row per finding, most urgent first, with a one-line ``fix``),
    ``room_rates`` (every room-rate seen, its role and how far it is priced), ``as_of`` and
    ``horizon``; ``notes`` say what could not be read (and so was not checked)."""

    findings: pd.DataFrame
    room_rates: pd.DataFrame
    as_of: dt.date
    horizon: int
    hotels: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: per-night accepted prices of some properties (for the timelines); None: not available
    accepted_nights: NightsReader | None = field(default=None, repr=False)
    #: per-night prices in the sheets not yet pushed
    sheet_nights: pd.DataFrame | None = field(default=None, repr=False)
    #: what was read (the letters name these sources and claim nothing else)
    sources: HealthSources = field(default_factory=lambda: HealthSources(journal=True))

    @property
    def blocking(self) -> pd.DataFrame:
        """The findings that stop bookings within the horizon (severity ``now`` or ``soon``)."""
        return self.findings[self.findings["severity"].isin(BLOCKING)]

    @property
    def ok(self) -> bool:
        """True when nothing blocks bookings within the horizon (advice never does)."""
        return self.blocking.empty

    @property
    def exit_code(self) -> int:
        """0 when nothing blocks bookings within the horizon, 1 otherwise (for schedulers)."""
        return 0 if self.ok else 1

    def summary(self) -> pd.DataFrame:
        """Findings counted by severity and kind (and how many properties have them)."""
        f = self.findings
        if f.empty:
            return pd.DataFrame(columns=["severity", "finding", "findings", "properties"])
        out = f.groupby(["severity", "finding"], sort=False).agg(findings=("hotel_code", "size"),
                                                                properties=("hotel_code", "nunique")).reset_index()
        out["_s"] = out["severity"].map({s: i for i, s in enumerate(SEVERITIES)})
        return out.sort_values(["_s", "findings"], ascending=[True, False]).drop(columns="_s").reset_index(drop=True)

    def properties(self) -> pd.DataFrame:
        """One row per property: its name, room-rates, findings by severity and the worst one."""
        rr = self.room_rates
        base = pd.DataFrame({"hotel_code": pd.Series(sorted(set(self.hotels) | set(rr["hotel_code"])),
                                                     dtype="int64")})
        names = rr.dropna(subset=["hotel_name"]).drop_duplicates("hotel_code").set_index("hotel_code")["hotel_name"]
        base["hotel_name"] = base["hotel_code"].map(names).astype("string")
        base["room_rates"] = base["hotel_code"].map(rr.groupby("hotel_code").size()).fillna(0).astype("int64")
        counts = self.findings.groupby(["hotel_code", "severity"]).size().unstack(fill_value=0)
        for s in SEVERITIES:
            base[s] = base["hotel_code"].map(counts[s] if s in counts else pd.Series(dtype="int64")).fillna(0) \
                .astype("int64")
        base["worst"] = pd.Series(pd.NA, index=base.index, dtype="string")
        for s in reversed(SEVERITIES):
            base.loc[base[s] > 0, "worst"] = s
        return base

    def findings_of(self, hotel: int) -> pd.DataFrame:
        return self.findings[self.findings["hotel_code"] == int(hotel)]

    def plot(self, hotel: int) -> Figure:
        """The timeline of one property: each room-rate a row, its bookable ranges, gaps and closed nights,
        the as-of night and the horizon (a matplotlib figure; the HTML report embeds the same)."""
        from workbench.health.timeline import plot_timeline

        rows = self.room_rates[self.room_rates["hotel_code"] == int(hotel)]
        names = rows["hotel_name"].dropna()
        title = f"{names.iloc[0] if len(names) else 'Property'} ({int(hotel)})"
        return plot_timeline(self.timeline([hotel]), rows, as_of=self.as_of, horizon=self.horizon, title=title)

    def timeline(self, hotels: Iterable[int]) -> pd.DataFrame:
        """Priced, closed and gap ranges of the accepted prices of ``hotels`` (``coverage.RANGE_COLUMNS``)
        and, as ``kind`` = ``sheet``, the ranges priced in sheets not yet pushed."""
        hs = [int(h) for h in hotels]
        parts = []
        if self.accepted_nights is not None:
            parts.append(night_ranges(self.accepted_nights(hs), self.as_of))
        if self.sheet_nights is not None and len(self.sheet_nights):
            s = night_ranges(self.sheet_nights[self.sheet_nights["hotel_code"].isin(hs)])
            parts.append(s[s["kind"] == "priced"].assign(kind="sheet"))
        if not parts:
            return pd.DataFrame(columns=[*KEY, "kind", "start", "end", "nights"])
        return pd.concat(parts, ignore_index=True)


__all__ = ["FINDING_COLUMNS", "PropertyHealth"]
