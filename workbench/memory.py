"""Memory settings for processes that read a million rows in one go (``validate rates``,
``push rates``, the Dask engine's workers): freed memory is kept for the next array instead of
being handed back to the system and faulted in again, page by page.

Reading, checking and writing 1,000,000 prices allocates and frees arrays of a few MB hundreds of
times. By default glibc gives every block above 128 KiB its own ``mmap`` and returns it on free,
and Arrow's allocator (mimalloc) returns its pages too, so each new array is faulted in again: about
290,000 page faults, 1.1-1.5 s of kernel time on a 6 s command. With blocks up to 32 MiB kept in
the heap, freed memory kept until 1 GiB of it is free, and Arrow using the same allocator, the same
command takes ~255,000 faults and 0.7-0.8 s of kernel time (measured on the 1M-row XLSX of
``benchmarks/bench_end_to_end.py``, output on tmpfs: 6.1 s -> 5.4 s wall, peak RSS 761 -> 741 MB).
Blocks past 32 MiB (glibc's largest threshold: the reader's cell buffers, a whole sheet's columns) come
from the heap as well (no ``mmap`` at all), so they too are reused once freed: ``push availability
--dry-run`` of a million values 168,000 -> 135,000 faults (0.8 -> 0.45 s kernel time on a busy machine),
the 1M-row ``push rates --dry-run`` 1.18 M -> 0.70 M faults (3.4 -> 1.9 s), peak RSS 1.80 -> 1.89 GB.

:func:`fewer_collections` lets Python's cyclic garbage collector run less often while millions of
objects are made (the loaders and the request builder make no cycles worth collecting early):
~0.1-0.15 s of the same command.

Only in the command's own process and in the Dask workers of its run (Dask starts them with
``MALLOC_TRIM_THRESHOLD_=65536``, the opposite: each partition of 330,000 prices cost 1.2 s of CPU
there against 0.75 s with these settings), only where the C library is glibc;
``WORKBENCH_MALLOC_TUNING=0`` leaves everything as it is. Long-running commands (the sandbox, the
notification server) do not call this: they would keep memory they no longer need.
"""

from __future__ import annotations

import ctypes
import gc
import platform

from workbench.config import Memory, section_from_env

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_MMAP_MAX = -1, -3, -4  # mallopt parameters (malloc.h)
MMAP_THRESHOLD = 32 * 2**20  # glibc's largest: blocks up to this size come from the heap
TRIM_THRESHOLD = 2**30       # free memory kept at the top of the heap before it is returned
FEWER_COLLECTIONS = (50_000, 20, 20)  # the collector's thresholds in batch processes (Python's: 700, 10, 10)


def wanted(settings: Memory | None = None) -> bool:
    """False when ``settings`` (default: ``WORKBENCH_MALLOC_TUNING`` of the environment) switch them off."""
    return (settings or section_from_env(Memory)).malloc_tuning


def keep_freed_memory(settings: Memory | None = None) -> bool:
    """Apply the settings (once is enough); False where they do not apply or are switched off."""
    if not wanted(settings):
        return False
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        ok = bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(libc.mallopt(M_TRIM_THRESHOLD,
                                                                                         TRIM_THRESHOLD))
        ok = ok and bool(libc.mallopt(M_MMAP_MAX, 0))  # blocks past 32 MiB from the heap too: kept when freed
    except (OSError, AttributeError):
        return False
    if ok:
        import pyarrow as pa

        pa.set_memory_pool(pa.system_memory_pool())
    return ok


def fewer_collections(settings: Memory | None = None) -> None:
    """Objects alive now (the imported modules) are left out of later collections, and the youngest
    generation is collected every 50,000 allocations instead of every 700."""
    if not wanted(settings):
        return
    gc.freeze()
    gc.set_threshold(*FEWER_COLLECTIONS)


#: the collector's thresholds as Python set them, before :func:`collect_less_while_starting`
_PYTHON_THRESHOLDS: tuple[int, ...] | None = None


def collect_less_while_starting(settings: Memory | None = None) -> None:
    """The youngest generation collected every 50,000 allocations while a command starts: importing typer,
    pydantic, pandas and pyarrow makes hundreds of thousands of objects and no garbage, and Python's 700 ran
    the collector ~210 times (gen 2 once) for nothing: 0.047 s CPU of ``push availability --dry-run``. Batch
    commands keep it (:func:`batch_process`); servers go back to Python's thresholds (:func:`serving`)."""
    global _PYTHON_THRESHOLDS
    if not wanted(settings):
        return
    if _PYTHON_THRESHOLDS is None:
        _PYTHON_THRESHOLDS = gc.get_threshold()
    gc.set_threshold(*FEWER_COLLECTIONS)


def serving() -> None:
    """Python's own collector thresholds again, for a process that keeps running (a server): what
    :func:`collect_less_while_starting` changed is undone (a batch process's settings are left alone)."""
    if _PYTHON_THRESHOLDS is not None:
        gc.set_threshold(*_PYTHON_THRESHOLDS)


def batch_process(settings: Memory | None = None) -> None:
    """Both settings, for a process about to read, check and write a million rows."""
    settings = settings or section_from_env(Memory)
    keep_freed_memory(settings)
    fewer_collections(settings)
