"""What a health check read, and so what it may claim.

A finding rests on sources: that prices ran out, have gaps or never reached the platform rests on
the push journal (the prices the platform accepted); a room-rate the platform does not have rests
on the platform or a registry. When a source was not read, the findings resting on it are not
findings: they are left out and one line of the report says what could not be checked. The
letters name only the sources read, and the night the check was made for.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd

#: findings that only the prices the platform accepted (the push journal) can show
JOURNAL_FINDINGS = frozenset({"not_priced", "not_sent", "ended", "ending_soon", "gap", "short_of_year", "closed"})
NOT_CHECKED_WITHOUT_JOURNAL = ("not checked: whether prices reached the platform, how far ahead they run, gaps and "
                               "closed nights (only the push journal knows which prices the platform accepted)")


@dataclass(frozen=True)
class HealthSources:
    """Which sources a health check read: the platform itself (``platform``: its address is never
    shown), a registry standing in for it, the push journal, sheets not pushed yet."""

    platform: bool = False
    registry: bool = False
    journal: bool = False
    sheets: bool = False

    def phrases(self) -> list[str]:
        """Each source read, in words a property understands (no file names, no addresses)."""
        out = []
        if self.platform:
            out.append("the rooms and rates active on the platform")
        elif self.registry:
            out.append("our record of your rooms and rates")
        if self.journal:
            out.append("the prices the platform has accepted from us")
        if self.sheets:
            out.append("the prices we have ready to send")
        return out

    def checked_text(self, as_of: dt.date) -> str:
        """``We checked … as of 1 December 2026.`` naming only what was read."""
        from workbench.health.letters import human_date

        read = self.phrases()
        if not read:
            return f"We could not check anything as of {human_date(as_of)}: none of our sources could be read."
        listed = read[0] if len(read) == 1 else ", ".join(read[:-1]) + " and " + read[-1]
        return f"We checked {listed}, as of {human_date(as_of)}."


def keep_supported(findings: pd.DataFrame, sources: HealthSources) -> tuple[pd.DataFrame, list[str]]:
    """``findings`` without those resting on a source not read, and the lines saying what was not checked."""
    if sources.journal:
        return findings, []
    dropped = findings["finding"].isin(JOURNAL_FINDINGS)
    return findings[~dropped].reset_index(drop=True), [NOT_CHECKED_WITHOUT_JOURNAL]
