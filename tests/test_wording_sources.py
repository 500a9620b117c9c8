"""No count shown to people is worded by hand: a scan of the packages' string literals for
``error(s)``, ``{len(x)} errors`` (``1 errors``) and ``error{'s' if n != 1 else ''}``, which
``loaders.wording.count`` / ``agree`` word instead. Docstrings are left alone (they are for
engineers); code in the allow-list is explained entry by entry."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("loaders", "expectations", "workbench")

#: path prefix -> why it may word a count by hand
ALLOWED = {
    # the stand-ins speak for the platform (its words, not the workbench's) and the import contract
    # forbids them `loaders`, where the helper lives
    "workbench/sandbox/": "the platform stand-in's own messages; may not import loaders",
    # imported by the stand-ins too (the operation catalogue), so it may not reach `loaders` either;
    # its one hand-made plural (`1 day left` / `30 days left`) agrees and is pinned by its tests
    "workbench/transport/operations.py": "imported by the sandbox, which may not import loaders",
}
MAYBE = re.compile(r"[A-Za-z]\(s\)(?=[\s\"'.,:;)!?]|$)")
PLURAL_AFTER_COUNT = re.compile(r"^ [a-z-]+s\b")


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _is_len(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"


def _hand_plural(node: ast.expr) -> bool:
    """``{'s' if n != 1 else ''}``, ``{'y' if n == 1 else 'ies'}``."""
    return isinstance(node, ast.IfExp) and any(
        isinstance(b, ast.Constant) and b.value in ("s", "ies") for b in (node.body, node.orelse))


def problems_in(source: str, name: str) -> list[str]:
    """The hand-worded counts of one module's source, as ``name:line: text``."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if MAYBE.search(node.value):
                found.append(f"{name}:{node.lineno}: `(s)` in {node.value!r}")
        elif isinstance(node, ast.JoinedStr):
            for part, after in zip(node.values, [*node.values[1:], None], strict=True):
                if isinstance(part, ast.FormattedValue) and _hand_plural(part.value):
                    found.append(f"{name}:{node.lineno}: a plural made by hand: {ast.unparse(part.value)}")
                if (isinstance(part, ast.FormattedValue) and _is_len(part.value) and isinstance(after, ast.Constant)
                        and PLURAL_AFTER_COUNT.match(str(after.value))):
                    found.append(f"{name}:{node.lineno}: `{{len(...)}}{after.value.split()[0]}` reads `1 "
                                 f"{after.value.split()[0]}` for one")
    return found


def _sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")
                  if not any(p.relative_to(ROOT).as_posix().startswith(a) for a in ALLOWED))


def test_no_count_is_worded_by_hand() -> None:
    found = [f for p in _sources() for f in problems_in(p.read_text(encoding="utf-8"), p.relative_to(ROOT).as_posix())]
    assert not found, "word these with workbench.wording.count / agree:\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    'x = f"{n} error(s) found"',
    'x = "request(s)"',
    'x = f"{len(rows)} errors"',
    'x = f"{len(rows):,} properties read"',
    "x = f\"error{'s' if n != 1 else ''}\"",
    "x = f\"propert{'y' if n == 1 else 'ies'}\"",
])
def test_the_scan_finds_a_hand_worded_count(source: str) -> None:
    assert problems_in(source, "m.py")


@pytest.mark.parametrize("source", [
    '"""Reads the sheet(s) of a workbook."""',
    'def f():\n    """The file(s) read."""',
    'x = f"{count(len(rows), \'error\')} found"',
    'x = f"{len(shown):,} of {count(n, \'row\')}"',
])
def test_the_scan_leaves_docstrings_and_helped_counts_alone(source: str) -> None:
    assert not problems_in(source, "m.py")


def test_the_allow_list_names_files_that_exist() -> None:
    assert all((ROOT / a).exists() for a in ALLOWED)
