"""The one lazy-export idiom of the package faces (PEP 562): ``loaders``, ``expectations`` and the
workbench's (``workbench``, its stages and the sandbox). A face lists its public names and the module each
lives in, and a name's module is imported on first use, so ``import workbench`` (and ``workbench --help``)
does not load pandas, Great Expectations or lxml, and ``from loaders import read_availability`` loads the
availability reader, not the rooms and content readers beside it. A ``TYPE_CHECKING`` block beside the
table gives type checkers and editors the real names. It sits in the lowest package so that every face can
use it (the sandbox, which may not import ``loaders``, is let import this one module).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` from ``{name: "module"}`` or ``{name: "module:attribute"}``
    (the face's name differs from the module's). A name not listed is an ``AttributeError``, so
    ``from loaders import xlsx_xml`` still imports the submodule."""

    def __getattr__(name: str) -> Any:
        where = exports.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = where.partition(":")
        return getattr(import_module(module), attribute or name)

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__
