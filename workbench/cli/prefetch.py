"""Import heavy modules in a background thread while the command reads its input.

Great Expectations takes seconds to import on every run; the rates commands need it only for the
checks, after the files are read. Reading (fastexcel, pyarrow) spends most of its time outside
the interpreter, so the import overlaps it. The modules both threads need (pandas, numpy,
pyarrow, ``loaders``) are imported first, in the calling thread, so the two threads never wait
on each other's half-imported modules.

A failed import is not hidden: the command's own ``import`` of the module raises it again.
"""

from __future__ import annotations

import importlib
import threading


def import_in_background(*modules: str) -> threading.Thread:
    """Start importing ``modules`` (in order) in a daemon thread; ``join()`` it before use, or just
    import them (the import waits for the thread's)."""
    import loaders  # noqa: F401 - pandas, numpy and pyarrow, in this thread first

    def run() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - the command's own import reports it
                return

    thread = threading.Thread(target=run, name="prefetch", daemon=True)
    thread.start()
    return thread
