"""The state is for its owner only: folders 0700, files 0600, checked at every start.

``notify.db`` (and its ``-wal``/``-shm``) holds notification bodies - guest data - and the hashes
of client secrets; ``keys/`` the signing keys. A state folder or file that other local users can
read is made private with a line saying so; one that cannot be (another user owns it, a read-only
file system) is refused with a message naming it, rather than served.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from workbench.notify.errors import NotifyConfigError

SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def sqlite_files(path: Path) -> list[Path]:
    """A SQLite database file and the companions SQLite writes next to it."""
    return [path, *(path.with_name(path.name + suffix) for suffix in SQLITE_COMPANIONS)]


def create_private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if it does not exist (SQLite then keeps that mode for ``-wal``/``-shm``)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def make_private(state_dir: Path, files: Iterable[Path] = ()) -> list[str]:
    """Take group and other permissions away from ``state_dir``, everything in it, and ``files``.

    Returns one line per path changed (empty when all was private). Symbolic links are not followed.
    Raises :class:`NotifyConfigError` when a path cannot be made private.
    """
    fixed: list[str] = []
    paths: list[Path] = [state_dir] if state_dir.is_dir() else []
    for root, dirs, names in os.walk(state_dir):
        paths += [Path(root, name) for name in (*dirs, *names)]
    paths += [f for f in files if f not in paths]
    for path in paths:
        try:
            st = path.lstat()
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode) or not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
            continue
        mode = stat.S_IMODE(st.st_mode)
        if not mode & 0o077:
            continue
        private = (mode & 0o700) or (0o700 if stat.S_ISDIR(st.st_mode) else 0o600)
        try:
            os.chmod(path, private)
        except OSError as exc:
            raise NotifyConfigError(
                f"`{path}` can be read by other users (mode {mode:04o}) and cannot be made private "
                f"({exc.strerror}); run as its owner, or as the owner `chmod {private:04o} {path}`") from None
        fixed.append(f"fixed permissions: `{path}` was {mode:04o}, now {private:04o} (notification bodies and "
                     "secret hashes are for this user only)")
    return fixed
