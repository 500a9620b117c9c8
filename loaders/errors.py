"""Errors the loaders raise: only for a file that cannot be used at all.

A bad value in one cell is never raised: it becomes a row of the issues frame. ``LoadError``
means the input as a whole is unusable (unreadable file, missing sheet, missing required
columns); its message names the file, what is missing and what would be accepted.
"""

from __future__ import annotations


class LoadError(Exception):
    """The input cannot be used; ``str(error)`` is a message for the person who made the file."""

    def __init__(self, message: str, *, source: str = "", sheet: str = "") -> None:
        super().__init__(message)
        self.source = source
        self.sheet = sheet
