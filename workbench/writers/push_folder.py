"""Send a folder of requests built elsewhere (``push rates --dry-run DIR``, or one per partition on a
cluster) from one place: through the rate-limited client, with the journal, under the journal's
send lock - exactly as ``push rates`` sends what it builds.

Resume and deltas work as for ``push rates``: a request whose every price the journal says the
platform already accepted (for this target) is not sent again, so a killed run started again sends
only what is left; ``full`` sends every request. The requests are sent as written: a request with
one changed price is sent whole.

    from workbench.writers.push_folder import send_folder
    result = send_folder("out/requests", Settings.from_file("sandbox/connection.env"))
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from workbench.config import Settings
from workbench.writers import driver
from workbench.writers.deltas import cell_keys, changed_mask
from workbench.writers.journal import DEFAULT_JOURNAL, Journal
from workbench.writers.planned import Planned
from workbench.writers.push import PushResult, RatesKind, planned_rates, rates_result
from workbench.writers.request_folder import RequestFolder, read_folder


def send_folder(directory: str | Path | RequestFolder, settings: Settings, *, journal: str | Path = DEFAULT_JOURNAL,
                full: bool = False, progress: bool = True, command: str = "", client_options: dict | None = None,
                lock_wait: float = 0.0) -> PushResult:
    """Send the requests of a dry-run folder that carry a price the platform has not accepted yet
    (all of them with ``full``). The folder is read (and checked) before anything is sent; the
    journal's send lock is held while sending (waiting up to ``lock_wait`` seconds for another
    push, then :class:`~workbench.writers.send_lock.JournalBusy`)."""
    driver.target_of(settings)
    folder = directory if isinstance(directory, RequestFolder) else read_folder(directory)
    cells = folder.cells
    counts = {"cells_total": len(cells), "cells_changed": 0}

    def prepare(j: Journal) -> list[Planned]:
        target = driver.target_of(settings)
        changed = np.ones(len(cells), dtype=bool) if full or cells.empty else changed_mask(cells, j, target)
        wanted = set(cells.loc[changed, "file"].astype(str))
        requests, parts = [], []
        if wanted:
            keys = cell_keys(cells)
            keys["month"] = cells["month"].to_numpy()
            keys["locator"] = cells["locator"].to_numpy()
            for file, request in zip(folder.manifest["file"], folder.requests, strict=True):
                if str(file) in wanted:
                    a, b = folder.spans[str(file)]
                    requests.append(request)
                    parts.append(keys.iloc[a:b])
        counts["cells_changed"] = int(sum(len(p) for p in parts))
        return planned_rates(requests, parts)

    def result(sent: driver.Sent) -> PushResult:
        return rates_result(sent, valid_total=len(cells), changed=counts["cells_changed"], headers=folder.headers)

    with driver.result_when_stopped(result):
        sent = driver.send(RatesKind(), prepare, settings, journal=journal, command=command, progress=progress,
                           client_options=client_options, lock_wait=lock_wait, counts=counts)
    return result(sent)
