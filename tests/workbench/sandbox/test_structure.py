"""The sandbox's shape: no import circle anywhere in it (imports inside functions and for type
checkers included, which lint-imports' contracts do not see), and every operation family module
is served by the app."""

from __future__ import annotations

import importlib
import pkgutil

import grimp

from workbench.sandbox.platform import families
from workbench.sandbox.platform.families import FAMILIES


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (or a module importing itself): Tarjan."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(group) > 1 or v in edges[v]:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_circles_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_in_the_sandbox():
    graph = grimp.build_graph("workbench", exclude_type_checking_imports=False, cache_dir=None)
    modules = {m for m in graph.modules if m == "workbench.sandbox" or m.startswith("workbench.sandbox.")}
    edges = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    assert circles(edges) == []


def test_every_family_module_is_served():
    modules = [importlib.import_module(f"{families.__name__}.{m.name}") for m in pkgutil.iter_modules(families.__path__)]
    assert len(modules) == len(FAMILIES) and all(any(m.FAMILY is f for f in FAMILIES) for m in modules)
    assert len({f.name for f in FAMILIES}) == len(FAMILIES)
