"""GET /health tells the store's real state: when the store refuses notifications (here the server
process may not grow its files past 1 MB - RLIMIT_FSIZE - as on a full disk), /health answers 503 with
the reason, and 200 again once notifications are stored."""

from __future__ import annotations

import json
import resource
from collections.abc import Callable
from pathlib import Path

from workbench.notify import NotifyService

LIMIT = 1_000_000


def small_files() -> None:
    """In the server process before exec: files cannot grow past LIMIT bytes (writes then fail, EFBIG)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def test_health_is_503_while_the_store_refuses_notifications(serve_process: Callable, tmp_path: Path) -> None:
    state = tmp_path / "state"
    with NotifyService(state) as svc:
        creds = svc.credentials.create("cns-full")
    served = serve_process("[request_to_book]\ncheck_interval_seconds = 0\n", state=state, preexec_fn=small_files)
    with served.client() as http:
        assert http.get("/health").json()["accepting_notifications"] is True
        access = http.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": creds.client_id,
                                                 "client_secret": creds.secret}).json()["access_token"]
        headers = {"Authorization": f"Bearer {access}", "Content-Type": "application/json"}

        def send(i: int) -> int:
            body = {"metadata": {"uuid": f"big-{i}", "type": "X"}, "payload": {"filler": "x" * 30_000}}
            return http.post("/notifications", content=json.dumps(body), headers=headers).status_code

        codes = [send(i) for i in range(80)]
        assert 503 in codes, codes  # the store is full: refused, CNS will retry
        health = http.get("/health")
        body = health.json()
        assert health.status_code == 503, body
        assert body["status"] == "degraded" and body["accepting_notifications"] is False
        assert body["last_store_error"]["reason"] in body["database"]

        hard = resource.prlimit(served.proc.pid, resource.RLIMIT_FSIZE)[1]
        resource.prlimit(served.proc.pid, resource.RLIMIT_FSIZE, (hard, hard))
        assert send(1000) == 200  # room again: stored, and health says so
        health = http.get("/health")
        assert health.status_code == 200 and health.json()["accepting_notifications"] is True
