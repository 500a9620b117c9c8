"""Notifications, dead letters and alerts as pandas frames, for analysts and exports."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.notify.db import Database
from workbench.notify.envelope import UnreadableBody, stored_document
from workbench.notify.store import NotifyStore

log = logging.getLogger(__name__)

NOTIFICATION_COLUMNS = ["seq", "uuid", "type", "payload_version", "received_at", "client_id", "payload", "body"]
_RELATIVE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(m|min|h|d|w)\s*$", re.IGNORECASE)


def parse_since(text: str, now: datetime | None = None) -> float:
    """``--since`` as a Unix time: ``30m``, ``2h``, ``7d``, ``1w`` ago, or an ISO date/time (UTC if naive)."""
    now = now or datetime.now(UTC)
    m = _RELATIVE.match(text)
    if m:
        unit = {"m": "minutes", "min": "minutes", "h": "hours", "d": "days", "w": "weeks"}[m.group(2).lower()]
        return (now - timedelta(**{unit: float(m.group(1))})).timestamp()
    try:
        dt = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"`--since {text}` is not a time: use e.g. `2h`, `7d` or `2025-06-01T08:00`") from None
    return (dt if dt.tzinfo else dt.replace(tzinfo=UTC)).timestamp()


@dataclass(frozen=True)
class UnreadableNotification:
    """A stored notification whose body cannot be read as JSON; its row is kept, without payload."""

    seq: int
    uuid: str
    type: str | None
    received_at: float
    reason: str

    def message(self) -> str:
        """One line: which message, why, and what to do."""
        when = datetime.fromtimestamp(self.received_at, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        return (f"notification `{self.uuid}` (type {self.type or '?'}, received {when}, seq {self.seq}) could not "
                f"be read: its stored body is {self.reason}. Its row is kept without payload; read the raw text in "
                "the `body` column (`--out FILE.csv`) and ask the platform to resend it by this uuid")


Unreadable = Callable[[UnreadableNotification], None]


def warn_unreadable(item: UnreadableNotification) -> None:
    """The default handling of an unreadable body: a warning in the log (the frame keeps the row)."""
    log.warning("%s", item.message())


def notifications_frame(store: NotifyStore, since: float | None = None, types: Sequence[str] | None = None,
                        on_unreadable: Unreadable = warn_unreadable) -> pd.DataFrame:
    """One row per stored notification, in arrival order.

    Columns: ``seq``, ``uuid``, ``type``, ``payload_version``, ``received_at`` (UTC), ``client_id``,
    ``payload`` (JSON text), ``body`` (the whole body as received), then one ``metadata_<key>``
    column per extra metadata field seen (kept, never rejected). A body that cannot be read as JSON
    keeps its row (``payload`` empty) and is handed to ``on_unreadable``: one bad message never
    hides the others.
    """
    rows = store.notification_rows(since=since, types=types)
    records: list[dict[str, Any]] = []
    extras: list[str] = []
    for seq, uuid, type_, version, received_at, client_id, body in rows:
        record = {"seq": int(seq), "uuid": uuid, "type": type_, "payload_version": version,
                  "received_at": float(received_at), "client_id": client_id, "payload": None, "body": body}
        records.append(record)
        try:
            record.update(_read_body(body, extras))
        except (UnreadableBody, RecursionError, ValueError) as exc:
            reason = str(exc) if isinstance(exc, UnreadableBody) else f"not readable ({type(exc).__name__})"
            on_unreadable(UnreadableNotification(int(seq), uuid, type_, float(received_at), reason))
    frame = pd.DataFrame(records, columns=NOTIFICATION_COLUMNS + extras)
    frame["seq"] = frame["seq"].astype("int64")
    frame["received_at"] = pd.to_datetime(frame["received_at"].astype("float64"), unit="s", utc=True)
    return frame


def _read_body(body: str, extras: list[str]) -> dict[str, Any]:
    """``payload`` (JSON text) and the ``metadata_<key>`` cells of one stored body; new keys join ``extras``."""
    doc = stored_document(body)
    cells: dict[str, Any] = {"payload": json.dumps(doc.get("payload"), ensure_ascii=False)}
    metadata = doc.get("metadata")
    for key, value in (metadata if isinstance(metadata, dict) else {}).items():
        if key in ("uuid", "type", "payloadVersion"):
            continue
        cells[f"metadata_{key}"] = value if value is None or isinstance(value, (str, int, float, bool)) \
            else json.dumps(value)
    extras.extend(col for col in cells if col != "payload" and col not in extras)
    return cells


def expand_payload(frame: pd.DataFrame, prefix: str = "payload.") -> pd.DataFrame:
    """``frame`` with its ``payload`` JSON flattened into ``payload.<field>`` columns."""
    parsed = [json.loads(p) if isinstance(p, str) else None for p in frame["payload"]]
    flat = pd.json_normalize([p if isinstance(p, dict) else {} for p in parsed]).add_prefix(prefix)
    flat.index = frame.index
    return pd.concat([frame, flat], axis=1)


def dead_letters_frame(store: NotifyStore) -> pd.DataFrame:
    frame = pd.DataFrame(store.dead_letter_rows(),
                         columns=["seq", "received_at", "client_id", "reason", "content_type", "body"])
    frame["received_at"] = pd.to_datetime(frame["received_at"].astype("float64"), unit="s", utc=True)
    return frame


def alerts_frame(store: NotifyStore) -> pd.DataFrame:
    frame = pd.DataFrame(store.alert_rows(), columns=["seq", "alert_key", "kind", "created_at", "message", "details"])
    frame["created_at"] = pd.to_datetime(frame["created_at"].astype("float64"), unit="s", utc=True)
    return frame


def read_notifications(state_dir: str | Path, database_url: str | None = None, since: str | float | None = None,
                       types: Sequence[str] | None = None, on_unreadable: Unreadable = warn_unreadable) -> pd.DataFrame:
    """The notifications of a service's state directory (or database) as a frame.

    ``since`` is a Unix time or text such as ``"2h"``, ``"7d"`` or ``"2025-06-01"``.
    """
    store = NotifyStore(Database.open(state_dir, database_url))
    try:
        return notifications_frame(store, since=parse_since(since) if isinstance(since, str) else since,
                                   types=types, on_unreadable=on_unreadable)
    finally:
        store.close()
