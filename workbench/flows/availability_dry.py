"""The availability dry run: the requests a push would send, written to a folder, nothing sent (``push availability
--dry-run DIR``). Its own module so a dry run imports none of the push (journal, lock, transport, plan).

>>> from workbench import check_availability, dry_run
>>> dry_run(check_availability("availability.xlsx", registry="registry.xlsx"), "out/availability")
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.config import Settings
from workbench.display import Summary, Table
from workbench.errors import BlockedByErrors
from workbench.flows.dry_runs import DRY_RUN_ROWS, DryRun
from workbench.wording import agree, count, fact
from workbench.writers import AVAIL_KIND, availability_folder_plan, write_folder
from workbench.writers import AVAILABILITY_OPERATION as OPERATION

if TYPE_CHECKING:
    from workbench.flows.availability import AvailabilityCheck

PathLike = str | Path


@dataclass(repr=False)
class AvailabilityDryRun(DryRun):
    """Availability requests written to ``directory``: one ``.xml`` per hotel and month, ``manifest.csv``
    (kind ``availability``) and ``cells.parquet`` (every value, its cell and ``LocatorID``)."""

    def _repr_html_(self) -> str:
        facts = [fact(len(self.requests), "request", "requests"), fact(self.messages, "message", "messages"),
                 fact(self.cells, "value", "values"), fact(self.skipped_rows, "value with errors left out", "values with errors left out"),
                 (str(self.directory), "written to:")]
        shown = self.manifest.head(DRY_RUN_ROWS)
        note = (f"{len(shown):,} of {count(len(self.manifest), 'request')} shown; all of them: `.manifest`"
                if len(shown) < len(self.manifest) else "")
        tables = [Table("Requests (nothing was sent)", shown, note=note, wide=("source_rows",))] if len(shown) else []
        return Summary("Availability dry run", "written, nothing sent" if self.requests else "nothing to send", "info",
                       facts, tables).html()

    def __repr__(self) -> str:
        return (f"<AvailabilityDryRun: {count(len(self.requests), 'request')}, {count(self.messages, 'message')}, "
                f"{count(self.cells, 'value')} written to {self.directory}; {count(self.skipped_rows, 'value')} with "
                "errors left out>")


def blocked_text(check: AvailabilityCheck, skip_invalid: bool) -> str:
    """Why a push would stop before sending ('' when nothing stops it)."""
    return "" if check.ok or skip_invalid else (
        f"{count(len(check.errors), 'error')} {agree(len(check.errors), 'blocks', 'block')} the push; fix them, or "
        "send only the values without errors with "
        "--skip-invalid")


def blocked(check: AvailabilityCheck, skip_invalid: bool) -> None:
    """Raise :class:`~workbench.errors.BlockedByErrors` when errors stop the push (see :func:`blocked_text`)."""
    text = blocked_text(check, skip_invalid)
    if text:
        raise BlockedByErrors(text)


def dry_run(check: AvailabilityCheck, directory: PathLike, skip_invalid: bool = False,
            reading: str | None = None) -> AvailabilityDryRun:
    """Write the requests a push would send (every value, not a delta): ``<hotel>-<YYYY-MM>.xml`` each, plus
    ``manifest.csv`` and ``cells.parquet`` (``push requests DIR`` sends them). ``reading``: what
    SetMinLOS/SetMaxLOS mean (``WORKBENCH_LOS_READING``; default: the settings')."""
    blocked(check, skip_invalid)
    valid = check.valid_frame()
    requests, cells = availability_folder_plan(valid, reading=reading or Settings().los_reading)
    written, manifest = write_folder(directory, requests, cells, kind=AVAIL_KIND, operation=OPERATION)
    return AvailabilityDryRun(Path(directory), written, manifest, int(check.invalid_mask().sum()),
                              int((check.repeat_mask() & ~check.invalid_mask()).sum()))


__all__ = ["AvailabilityDryRun", "blocked", "blocked_text", "dry_run"]
