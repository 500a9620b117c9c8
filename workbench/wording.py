"""How a count reads for people (``1 error``, ``1,183 requests``): the one helper of every console
line, summary, Jupyter display, page and message is ``loaders.wording`` (the bottom layer, so that
``expectations`` words its messages the same way); these are its names for the workbench.

``loaders`` is loaded on the first call, not on import: importing the ``loaders`` package reads in
pandas, and ``import workbench`` and ``workbench --help`` stay light (``tests/test_public_api.py``)."""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import SupportsIndex

__all__ = ["agree", "count", "fact", "platform_text"]


@functools.cache
def _wording() -> ModuleType:
    return importlib.import_module("loaders.wording")


def count(n: SupportsIndex, noun: str, plural: str | None = None) -> str:
    """``1 error``, ``2 errors``, ``1,183 requests``: see ``loaders.wording.count``."""
    return str(_wording().count(n, noun, plural))


def agree(n: SupportsIndex, singular: str, plural: str | None = None) -> str:
    """The word agreeing with ``n`` (``was`` / ``were``): see ``loaders.wording.agree``."""
    return str(_wording().agree(n, singular, plural))


def platform_text(target: str | None) -> str:
    """The platform a result compares with, or ``no platform set``: see ``loaders.wording.platform_text``."""
    return str(_wording().platform_text(target))


def fact(n: SupportsIndex, singular: str, plural: str) -> tuple[str, str]:
    """A result's figure and its label agreeing with it (``("1", "property")``, ``("1,183", "requests")``),
    as the summaries show their facts."""
    return f"{int(n):,}", agree(n, singular, plural)
