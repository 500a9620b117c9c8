"""The wrong workbook, recognised before it is read: ``workbench validate rates content.xlsx`` says
"`content.xlsx` is a content workbook: use `workbench validate content`" (exit 2) instead of a page of
issues. The reading is :mod:`loaders.kinds` (the flows refuse the same files in Python's words); here
only the command line's way of saying it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from workbench.cli.console import fail


def refuse_other_kind(paths: Iterable[Path], wanted: str, command: str) -> None:
    """One line, exit 2, when a file of ``paths`` is certainly a workbook of another kind than ``wanted``
    (its kind as :func:`loaders.kinds.workbook_kind` tells it)."""
    from loaders.kinds import other_kind, wrong_kind_message  # loaders on first use: `--help` stays light

    for path in paths:
        if (kind := other_kind(path, wanted)) is not None:
            fail(wrong_kind_message(kind, Path(path).name, command=command))
