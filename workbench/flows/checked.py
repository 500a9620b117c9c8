"""What every checked input offers people: its errors, warnings, a verdict and counts by rule, and a
short summary in Jupyter (the verdict, counts by rule, the first issues) instead of a frame dump."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

import pandas as pd

from loaders.errors import LoadError
from loaders.kinds import other_kind, wrong_kind_message
from workbench.display import MarkdownSummary, Summary, Table, facts_text
from workbench.errors import InputError
from workbench.wording import count, fact

#: Issues a summary lists (errors first); the rest are in ``.errors`` / ``.warnings`` / ``.issues``.
FIRST_ISSUES = 10


class WrongWorkbook(InputError, LoadError):
    """A workbook of another kind than the check reads (``kind``): an :class:`InputError` for Python
    callers, a ``LoadError`` (the input cannot be used: exit 2) for the commands."""

    def __init__(self, message: str, *, source: str = "", kind: str = "") -> None:
        LoadError.__init__(self, message, source=source)
        self.kind = kind


def refuse_other_kind(paths: Iterable[str | Path], wanted: str) -> None:
    """:class:`WrongWorkbook` naming the function to use when one of ``paths`` is certainly a workbook
    of another kind than ``wanted`` (``loaders.workbook_kind``): checked before anything is read."""
    for p in paths:
        found = other_kind(p, wanted)
        if found is not None:
            raise WrongWorkbook(wrong_kind_message(found, Path(p).name, python=True), source=Path(p).name,
                                kind=found)


class IssuesView(MarkdownSummary):
    """Mixin for results that carry an ``issues`` frame (rates, rooms, ...)."""

    issues: pd.DataFrame
    title: ClassVar[str] = "Check"

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

    def verdict(self) -> str:
        """One line: does anything block a push?"""
        n_err, n_warn = len(self.errors), len(self.warnings)
        if n_err:
            return (f"blocked: {count(n_err, 'error')} to fix (or skip)"
                    + (f", {count(n_warn, 'warning')}" if n_warn else ""))
        if n_warn:
            return f"nothing blocks a push; {count(n_warn, 'warning')}"
        return "nothing blocks a push; no issues"

    def facts(self) -> list[tuple[str, str]]:
        """(figure, label) pairs shown under the title: what was checked."""
        return []

    def first_issues(self, n: int = FIRST_ISSUES) -> pd.DataFrame:
        """The first ``n`` issues a person should read: errors first, then warnings."""
        errors = self.errors.head(n)
        return pd.concat([errors, self.warnings.head(n - len(errors))], ignore_index=True)

    def _repr_html_(self) -> str:
        n_err, n_warn = len(self.errors), len(self.warnings)
        tone = "error" if n_err else ("warning" if n_warn else "ok")
        facts = [*self.facts(), fact(n_err, "error", "errors"), fact(n_warn, "warning", "warnings")]
        tables = []
        if len(self.issues):
            tables.append(Table("By rule", self.summary(), tone_column="severity"))
            first = self.first_issues()
            shown = (f"{len(first)} of {len(self.issues):,} shown; all of them: `.errors`, `.warnings`, `.issues`"
                     if len(first) < len(self.issues) else "all of them: `.errors`, `.warnings`, `.issues`")
            tables.append(Table("First issues" if len(first) < len(self.issues) else "Issues", first, note=shown,
                                wide=("message",), tone_column="severity"))
        return Summary(self.title, self.verdict(), tone, facts, tables).html()

    def __repr__(self) -> str:
        figures = facts_text(self.facts())
        return f"<{type(self).__name__}: {figures + '; ' if figures else ''}{self.verdict()}>"
