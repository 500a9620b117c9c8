"""Where reports go: written whole or not at all, and never over an input.

Every report writer writes through :func:`whole_file`: the bytes go to a temporary name beside the
target, which is renamed over it only once complete, so a Ctrl-C or a crash leaves either the old
file or the new one, never half of one. :func:`inputs_overlap` tells a command, before any work,
which output paths are also inputs (the same file by another path, a link, or inside an input
folder), so it can refuse them.
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path


@contextlib.contextmanager
def whole_file(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` (same suffix, so writers pick the same format) to write;
    renamed to ``path`` when the block ends normally, removed when it raises (Ctrl-C included)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=f".part{target.suffix}", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        tmp.chmod(_default_mode())  # as a file written directly would be (mkstemp makes it private)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _default_mode() -> int:
    """0o666 less the process's umask as it is now: from ``/proc/self/status`` where Linux gives it (reading
    it there changes nothing); elsewhere by setting it and back, once (not thread-safe, so not repeated)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return _umask_once()


@functools.cache
def _umask_once() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_text_whole(path: str | Path, text: str) -> Path:
    """``text`` (UTF-8) written whole to ``path``."""
    with whole_file(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when ``a`` and ``b`` name the same file or folder: the same path spelled differently, a
    link to it, or a hard link (both existing); paths that do not exist yet compare as resolved."""
    pa, pb = Path(a), Path(b)
    if pa.exists() and pb.exists():
        try:
            return os.path.samefile(pa, pb)
        except OSError:
            pass
    return resolved(pa) == resolved(pb)


def inputs_overlap(outputs: Iterable[str | Path], inputs: Iterable[str | Path]) -> list[tuple[Path, Path]]:
    """``(output, input)`` pairs where writing ``output`` would touch ``input``: the same file, an
    output folder holding the input, or an output inside an input folder where it would be read as data
    (a hidden, ``_``- or ``~$``-prefixed path inside it is not read, see :mod:`loaders.folders`).
    Empty: every output is safe."""
    ins = [Path(i) for i in inputs]
    return [(out, given) for out in (Path(o) for o in outputs) for given in ins
            if same_file(out, given) or inside(given, out) or read_inside(out, given)]


def resolved(p: Path) -> Path:
    return p.expanduser().resolve(strict=False)


def inside(child: Path, folder: Path) -> bool:
    """``child`` lies inside ``folder`` (which need not exist yet)."""
    return resolved(folder) in resolved(child).parents


def read_inside(out: Path, folder: Path) -> bool:
    """``out`` lies inside the existing input folder ``folder`` where a folder's reader would see it."""
    if not folder.is_dir() or not inside(out, folder):
        return False
    rel = resolved(out).relative_to(resolved(folder))
    return not any(part.startswith((".", "_", "~$")) for part in rel.parts)
