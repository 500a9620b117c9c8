"""Output paths checked before any work: never an input, the right kind of thing, somewhere writable.

Every command that writes (reports, dry-run folders, letters, the journal, a mapping, a filled copy)
names its inputs and its outputs to :func:`check_outputs` first thing, so
``workbench validate rates mine.xlsx --report mine.xlsx`` is refused in one line (exit 2) instead of
rewriting the analyst's workbook, and ``push rates r.xlsx --dry-run r.xlsx`` before minutes of checks.

An output clashes with an input when it is the same file (by another spelling, a symbolic or a hard
link: resolved paths, and :func:`os.path.samefile` when both exist), when an output folder holds an
input, or when an output lies inside an input folder where the next run would read it as data (a
hidden or ``_``-prefixed path inside it is not read, see :mod:`loaders.folders`). Text given as a URL
(``s3://...``) is not a local path and is not compared.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from workbench.cli.console import fail

PathsOf = Path | Iterable[Path] | None
#: ``s3://bucket/x`` (typer reads it as a path, which folds ``://`` to ``:/``): not a local path
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]+:/")


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when ``a`` and ``b`` name the same file or folder: the same path spelled differently, a
    link to it, or a hard link (both existing); paths that do not exist yet compare as resolved."""
    pa, pb = Path(a), Path(b)
    if pa.exists() and pb.exists():
        try:
            return os.path.samefile(pa, pb)
        except OSError:
            pass
    return _resolved(pa) == _resolved(pb)


def inputs_overlap(outputs: Iterable[str | Path], inputs: Iterable[str | Path]) -> list[tuple[Path, Path]]:
    """``(output, input)`` pairs where writing ``output`` would touch ``input``: the same file, an
    output folder holding the input, or an output inside an input folder where it would be read as data.
    Empty: every output is safe."""
    ins = [Path(i) for i in inputs]
    return [(out, given) for out in (Path(o) for o in outputs) for given in ins
            if same_file(out, given) or _inside(given, out) or _read_inside(out, given)]


def check_outputs(inputs: Mapping[str, PathsOf], files: Mapping[str, PathsOf] | None = None,
                  folders: Mapping[str, PathsOf] | None = None) -> None:
    """Refuse (one line, exit 2) any output of ``files`` (option -> file(s) written) or ``folders``
    (option -> folder(s) written) that is one of ``inputs`` (option or ``files`` -> path(s) read), that
    two options both name, that is a folder where a file is written (or a file where a folder is), or
    whose folder cannot be written."""
    given = [(name, p) for name, paths in inputs.items() for p in _paths(paths)]
    outs = [(name, p, False) for name, paths in (files or {}).items() for p in _paths(paths)]
    outs += [(name, p, True) for name, paths in (folders or {}).items() for p in _paths(paths)]
    for name, out, folder in outs:
        for source, path in given:
            if same_file(out, path):
                fail(f"{name} `{out}` is {_input(source, path)}: the workbench never writes over a file you "
                     f"gave it; give {name} another {'folder' if folder else 'file'}")
            if _inside(path, out):
                fail(f"{name} `{out}` holds {_input(source, path)}: give {name} a folder of its own")
            if _read_inside(out, path):
                fail(f"{name} `{out}` is inside the input folder `{path}` ({source}), where the next run would read "
                     f"it as data: write it elsewhere")
    for i, (name, out, _folder) in enumerate(outs):
        for other, path, _ in outs[i + 1:]:
            if same_file(out, path):
                fail(f"`{out}` is given to both {name} and {other}: give each its own path")
    for name, out, folder in outs:
        _check_writable(name, out, folder)


def _check_writable(name: str, out: Path, folder: bool) -> None:
    if folder and out.exists() and not out.is_dir():
        fail(f"{name} `{out}` is a file, not a folder: give a folder (it is made if it does not exist)")
    if not folder and out.is_dir():
        fail(f"{name} `{out}` is a folder: give a file name")
    parent = (out if folder else out.parent).absolute()
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        fail(f"{name} `{out}`: `{parent}` is a file, so nothing can be written under it")
    if not os.access(parent, os.W_OK | os.X_OK):
        fail(f"{name} `{out}`: the folder `{parent}` cannot be written (permissions); choose another place")


def _input(source: str, path: Path) -> str:
    return f"the input `{path}`" if source == "files" else f"the input `{path}` given with {source}"


def _paths(paths: PathsOf) -> list[Path]:
    if paths is None:
        return []
    found = [paths] if isinstance(paths, (str, Path)) else list(paths)
    return [Path(p) for p in found if p is not None and not _URL.match(str(p))]


def _resolved(p: Path) -> Path:
    return p.expanduser().resolve(strict=False)


def _inside(child: Path, folder: Path) -> bool:
    """``child`` lies inside ``folder`` (which need not exist yet)."""
    return _resolved(folder) in _resolved(child).parents


def _read_inside(out: Path, folder: Path) -> bool:
    """``out`` lies inside the existing input folder ``folder`` where a folder's reader would see it."""
    if not folder.is_dir() or not _inside(out, folder):
        return False
    rel = _resolved(out).relative_to(_resolved(folder))
    return not any(part.startswith((".", "_", "~$")) for part in rel.parts)
