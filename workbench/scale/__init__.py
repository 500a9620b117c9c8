"""The Dask engine: rates checked and built by partitions of hotels on ``dask.distributed``
(see docs/scale.md). ``workbench validate rates --engine dask`` and ``push rates --dry-run DIR
--engine dask`` run it; notebooks can too:

>>> from workbench.scale import cluster, dry_run_on
>>> with cluster(workers=2) as client:
...     run = dry_run_on(client, ["rates/"], "out/", as_of="2026-12-01", skip_invalid=True)
"""

from workbench.scale.engine import ClusterRun, cluster, dry_run_on, validate_on

__all__ = ["ClusterRun", "cluster", "dry_run_on", "validate_on"]
