"""The notification service's parts, wired once from a state directory and a configuration."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from workbench.notify.config import NotifyConfig
from workbench.notify.credentials import Credentials
from workbench.notify.db import Database
from workbench.notify.keys import KeyRing
from workbench.notify.monitor import Alert, AlertHook, Metrics, UnauthorizedAlarm
from workbench.notify.ratelimit import KeyedRateLimiter
from workbench.notify.rtb import RequestToBook
from workbench.notify.store import NotifyStore
from workbench.notify.tokens import TokenService

log = logging.getLogger("workbench.notify.alerts")


class NotifyService:
    """Keys, tokens, credentials, store, metrics, alerts and the request-to-book tracker.

    State lives in ``state_dir`` (keys, TLS files, ``notify.db``; kept as an absolute path, so a
    relative one means the working folder's); ``database_url`` moves the database to PostgreSQL (or
    another SQLite file). ``create=False`` refuses a state without a database (see
    :meth:`Database.open`) instead of starting an empty one. Close it when done.
    """

    def __init__(self, state_dir: str | Path, config: NotifyConfig | None = None,
                 database_url: str | None = None, alert_hooks: list[AlertHook] | None = None,
                 clock: Callable[[], float] = time.time, create: bool = True) -> None:
        self.state_dir = Path(state_dir).expanduser().absolute()  # notify.env and the database: absolute paths
        self.config = config or NotifyConfig.load(self.state_dir)
        self.clock = clock
        tc = self.config.tokens
        self.db = Database.open(self.state_dir, database_url, self.config.receiver.sqlite_synchronous, create=create)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.keyring = KeyRing(self.state_dir / "keys", key_size=tc.key_size, max_age_days=tc.key_max_age_days,
                               token_lifetime_seconds=tc.lifetime_seconds, clock_skew_seconds=tc.clock_skew_seconds,
                               clock=clock)
        self.tokens = TokenService(self.keyring, tc.issuer, tc.lifetime_seconds, tc.clock_skew_seconds, clock)
        self.credentials = Credentials(self.db, clock)
        self.store = NotifyStore(self.db, self.config.receiver.max_batch)
        self.metrics = Metrics()
        self.limiter = KeyedRateLimiter(tc.requests_per_minute, tc.burst)
        self.alarm = UnauthorizedAlarm(self.config.alerts.unauthorized_threshold,
                                       self.config.alerts.unauthorized_window_seconds, self.raise_alert, clock)
        self.requests = RequestToBook(self.store, self.config.request_to_book, clock)
        self.alert_hooks: list[AlertHook] = list(alert_hooks or [])

    def raise_alert(self, alert: Alert) -> None:
        """Store ``alert`` once (by key); when new, log it at ERROR and call the hooks."""
        future = self.store.execute(
            "INSERT INTO notify_alerts (alert_key, kind, created_at, message, details) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (alert_key) DO NOTHING", (alert.key, alert.kind, alert.created_at, alert.message,
                                                   alert.to_json()))

        def done(fut: object) -> None:
            try:
                new = future.result() == 1
            except Exception as exc:  # noqa: BLE001 - still tell someone
                log.error("ALERT %s (could not be stored: %s)", alert.message, exc)
                new = True
            else:
                if new:
                    log.error("ALERT %s", alert.message)
            if new:
                self.metrics.inc("notify_alerts_total", "kind", alert.kind)
                threading.Thread(target=self._call_hooks, args=(alert,), daemon=True,
                                 name="notify-alert-hooks").start()

        future.add_done_callback(done)

    def check_deadlines(self) -> list[Alert]:
        """Raise (once each) the alerts for request-to-book requests near their deadline."""
        alerts = self.requests.deadline_alerts()
        for alert in alerts:
            self.raise_alert(alert)
        return alerts

    def _call_hooks(self, alert: Alert) -> None:
        for hook in self.alert_hooks:
            try:
                hook(alert)
            except Exception:  # noqa: BLE001 - a broken hook must not break the service
                log.exception("alert hook %r failed", hook)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> NotifyService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
