"""The one lazy-export idiom of the package faces (PEP 562).

A face lists its public names and where each lives; a name's module is imported on first use, so
``import workbench`` (and ``workbench --help``) does not load pandas, Great Expectations or lxml.
A ``TYPE_CHECKING`` block beside the table gives type checkers and editors the real names.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` from ``{name: "module"}`` or
    ``{name: "module:attribute"}`` (the face's name differs from the module's)."""

    def __getattr__(name: str) -> Any:
        where = exports.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = where.partition(":")
        # not kept on the face: each look-up reads the module's attribute as it is now (a test's monkeypatch of
        # the module, or a reload, is seen through the face too); once imported, a look-up is two dict reads
        return getattr(import_module(module), attribute or name)

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__
