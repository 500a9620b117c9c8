"""What a dry run wrote (:class:`DryRun`): the requests, their manifest, the rows left out. Its own module so a
dry run imports neither the rates' checks nor the push (the availability dry run subclasses it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from workbench.display import MarkdownSummary, Summary, Table
from workbench.wording import count, fact

if TYPE_CHECKING:
    from workbench.writers import RateRequest

DRY_RUN_ROWS = 10  # requests a dry run's summary lists


@dataclass(repr=False)
class DryRun(MarkdownSummary):
    """Requests written to ``directory``: one ``.xml`` per request and ``manifest.csv``."""

    directory: Path
    requests: list[RateRequest]
    manifest: pd.DataFrame
    skipped_rows: int
    repeated_rows: int = 0  # prices repeating an earlier row's cell: not written (the first is)

    def _repr_html_(self) -> str:
        facts = [fact(len(self.requests), "request", "requests"), fact(self.messages, "message", "messages"),
                 fact(self.cells, "price", "prices"), fact(self.skipped_rows, "price with errors left out", "prices with errors left out"),
                 (str(self.directory), "written to:")]
        shown = self.manifest.head(DRY_RUN_ROWS)
        note = (f"{len(shown):,} of {count(len(self.manifest), 'request')} shown; all of them: `.manifest`"
                if len(shown) < len(self.manifest) else "")
        tables = [Table("Requests (nothing was sent)", shown, note=note, wide=("source_rows",))] if len(shown) else []
        verdict = "written, nothing sent" if self.requests else "nothing to send"
        return Summary("Dry run", verdict, "info", facts, tables).html()

    def __repr__(self) -> str:
        return (f"<DryRun: {count(len(self.requests), 'request')}, {count(self.messages, 'message')}, "
                f"{count(self.cells, 'price')} written to {self.directory}; {count(self.skipped_rows, 'price')} with "
                "errors left out>")

    @property
    def cells(self) -> int:
        return int(self.manifest["cells"].sum()) if len(self.manifest) else 0

    @property
    def messages(self) -> int:
        return int(self.manifest["messages"].sum()) if len(self.manifest) else 0


__all__ = ["DRY_RUN_ROWS", "DryRun"]
