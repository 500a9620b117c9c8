"""The demo used by `workbench demo`: a few notifications end to end, twice in one workdir."""

from __future__ import annotations

import pandas as pd

from workbench.cli.notify_demo import run_notification_demo


def test_demo_delivers_and_reports(tmp_path) -> None:  # noqa: ANN001
    first = run_notification_demo(tmp_path)
    assert (first.sent, first.accepted, first.duplicates, first.rejected) == (5, 4, 1, 1)
    assert first.stored == 4 and first.open_requests == 1
    inbox = pd.read_csv(first.inbox_path, encoding="utf-8-sig")
    assert "REQUEST_TO_BOOK" in set(inbox["type"]) and "body" not in inbox.columns
    assert "request to book RTB-" in first.summary and "awaiting_partner_decision" in first.summary
    second = run_notification_demo(tmp_path)  # state kept: the secret is rotated, not re-created
    assert second.stored == 8 and second.open_requests == 2
