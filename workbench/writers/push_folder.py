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
from workbench.transport import ConfigurationError
from workbench.writers.deltas import cell_keys, changed_mask
from workbench.writers.journal import DEFAULT_JOURNAL, Journal
from workbench.writers.push import PushResult, requests_frame, rows_frame, send_planned
from workbench.writers.request_folder import RequestFolder, read_folder
from workbench.writers.send_lock import send_lock


def send_folder(directory: str | Path | RequestFolder, settings: Settings, *, journal: str | Path = DEFAULT_JOURNAL,
                full: bool = False, progress: bool = True, command: str = "", client_options: dict | None = None,
                lock_wait: float = 0.0) -> PushResult:
    """Send the requests of a dry-run folder that carry a price the platform has not accepted yet
    (all of them with ``full``). The folder is read (and checked) before anything is sent; the
    journal's send lock is held while sending (waiting up to ``lock_wait`` seconds for another
    push, then :class:`~workbench.writers.send_lock.JournalBusy`)."""
    if not settings.base_url:
        raise ConfigurationError("no target: set WORKBENCH_BASE_URL (or give the sandbox's connection.env with "
                                 "--env-file)")
    folder = directory if isinstance(directory, RequestFolder) else read_folder(directory)
    target = settings.base_url.rstrip("/")
    cells = folder.cells
    with send_lock(journal, wait=lock_wait, command=command), Journal(journal) as j:
        run_id = j.start_run(target, command)
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
        ids = j.add_requests(run_id, target, requests, parts)
        send_planned(j, settings, target, requests, ids, progress, client_options or {})
        frame_req = requests_frame(j, run_id, requests)
        rows = rows_frame(j, run_id, folder.headers)
        failed = int((frame_req["outcome"] != "success").sum()) if len(frame_req) else 0
        sent_cells = int(sum(len(p) for p in parts))
        j.finish_run(run_id, "done" if failed == 0 else "done_with_failures", cells_total=len(cells),
                     cells_changed=sent_cells, requests=len(requests))
    return PushResult(run_id, target, Path(journal), frame_req, rows, len(cells), sent_cells)

