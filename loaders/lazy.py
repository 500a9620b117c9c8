"""The lazy-export idiom (PEP 562) of the ``loaders`` and ``expectations`` faces: a face lists its
public names and the module each lives in, and a name's module is imported on first use, so
``from loaders import read_availability`` loads the availability reader, not the rooms and content
readers beside it. (The workbench's faces use :mod:`workbench.lazy`: the sandbox, which may not import
``loaders``, is one of them.)
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
