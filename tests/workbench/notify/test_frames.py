"""Frames for analysts: flattened metadata, raw payload kept, filters, exports."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pandas as pd
import pytest

from workbench.notify import (
    NotifyService,
    expand_payload,
    notifications_frame,
    parse_since,
    read_notifications,
)
from workbench.notify.store import Notification


def add(service: NotifyService, uuid: str, type_: str, at: float, metadata: dict | None = None,
        payload: object = None) -> None:
    body = json.dumps({"metadata": {"uuid": uuid, "type": type_, "payloadVersion": "1.0", **(metadata or {})},
                       "payload": payload if payload is not None else {"amount": "1.00", "nested": {"a": 1}}})
    service.store.save(Notification(uuid, type_, "1.0", at, "cns", body)).result(10)


def test_notifications_frame(service: NotifyService) -> None:
    add(service, "a", "PAYOUT_UPDATE", 1_700_000_000.0, {"traceId": "t-1", "tags": ["x"]})
    add(service, "b", "NEW_UNKNOWN_TYPE", 1_700_000_100.0, payload=[1, 2])
    frame = notifications_frame(service.store)
    assert list(frame.columns) == ["seq", "uuid", "type", "payload_version", "received_at", "client_id", "payload",
                                   "body", "metadata_traceId", "metadata_tags"]
    assert frame["uuid"].tolist() == ["a", "b"]
    assert str(frame["received_at"].dtype) == "datetime64[ns, UTC]" or str(frame["received_at"].dt.tz) == "UTC"
    assert frame["metadata_tags"][0] == '["x"]' and pd.isna(frame["metadata_traceId"][1])
    assert json.loads(frame["payload"][0]) == {"amount": "1.00", "nested": {"a": 1}}
    assert frame["payload"][1] == "[1, 2]"
    wide = expand_payload(frame)
    assert wide["payload.nested.a"][0] == 1 and wide["payload.amount"][0] == "1.00"


def test_empty_frame_has_the_columns(service: NotifyService) -> None:
    frame = notifications_frame(service.store)
    assert frame.empty and "received_at" in frame.columns


def test_read_notifications_filters(service: NotifyService) -> None:
    add(service, "old", "A", 1_700_000_000.0)
    add(service, "new", "B", datetime.now(UTC).timestamp())
    url = None if service.db.dialect == "sqlite" else service.db.url
    assert read_notifications(service.state_dir, url, since="1d")["uuid"].tolist() == ["new"]
    assert read_notifications(service.state_dir, url, types=["A"])["uuid"].tolist() == ["old"]
    assert read_notifications(service.state_dir, url, since="2023-11-15")["uuid"].tolist() == ["new"]


NOW = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "expected"), [
    ("30m", datetime(2026, 1, 10, 11, 30, tzinfo=UTC)), ("2h", datetime(2026, 1, 10, 10, tzinfo=UTC)),
    ("7d", datetime(2026, 1, 3, 12, tzinfo=UTC)), ("1w", datetime(2026, 1, 3, 12, tzinfo=UTC)),
    ("2026-01-01", datetime(2026, 1, 1, tzinfo=UTC)),
    ("2026-01-01T08:00+01:00", datetime(2026, 1, 1, 7, tzinfo=UTC)),
])
def test_parse_since(text: str, expected: datetime) -> None:
    assert parse_since(text, NOW) == expected.timestamp()


@pytest.mark.parametrize("text", ["yesterday", "2h ago", "", "31/12/2025"])
def test_parse_since_refuses_with_an_example(text: str) -> None:
    with pytest.raises(ValueError, match="e.g. `2h`"):
        parse_since(text, NOW)
