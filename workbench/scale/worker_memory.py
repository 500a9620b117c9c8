"""The Dask worker plugin that gives the workers the memory settings of a batch command."""

from __future__ import annotations

from distributed import WorkerPlugin


class BatchMemory(WorkerPlugin):
    """Workers keep freed memory for the next partition and collect garbage less often
    (:mod:`workbench.memory`), those there when it is registered and those that join later.

    Dask starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536`` (memory handed back at once, so
    its memory monitor sees the truth); a partition of 330,000 prices then costs 1.2 s of CPU, 0.75 s
    with these settings (measured on ``benchmarks/bench_scale.py``'s data, 10M prices). A worker
    holds one partition at a time, so what it keeps is reused by the next one."""

    name = "workbench-batch-memory"

    def setup(self, worker: object) -> None:
        from workbench.memory import batch_process

        batch_process()
