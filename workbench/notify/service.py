"""The notification service's parts, wired once from a state directory and a configuration."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from workbench.notify.config import NotifyConfig
from workbench.notify.credentials import Credentials
from workbench.notify.db import SQLITE_FILE, Database, sqlite_url
from workbench.notify.errors import InvalidToken
from workbench.notify.keys import KeyRing
from workbench.notify.monitor import Alert, AlertHook, Metrics, UnauthorizedAlarm
from workbench.notify.permissions import make_private, sqlite_files
from workbench.notify.ratelimit import KeyedRateLimiter
from workbench.notify.rtb import RequestToBook
from workbench.notify.store import NotifyStore
from workbench.notify.tokens import IssuedToken, TokenService

log = logging.getLogger("workbench.notify.alerts")


class NotifyService:
    """Keys, tokens, credentials, store, metrics, alerts and the request-to-book tracker.

    State lives in ``state_dir`` (keys, TLS files, ``notify.db``; kept as an absolute path, so a
    relative one means the working folder's); ``database_url`` moves the database to PostgreSQL (or
    another SQLite file). ``create=False`` refuses a state without a database (see
    :meth:`Database.open`) instead of starting an empty one. Close it when done.

    The state is made private at start (folders 0700, files 0600; ``permission_fixes`` lists what
    was changed); :class:`NotifyConfigError` when it cannot be.
    """

    def __init__(self, state_dir: str | Path, config: NotifyConfig | None = None,
                 database_url: str | None = None, alert_hooks: list[AlertHook] | None = None,
                 clock: Callable[[], float] = time.time, create: bool = True) -> None:
        self.state_dir = Path(state_dir).expanduser().absolute()  # notify.env and the database: absolute paths
        self.config = config or NotifyConfig.load(self.state_dir)
        self.clock = clock
        tc = self.config.tokens
        url = database_url or sqlite_url(self.state_dir / SQLITE_FILE)
        db_path = Database(url).path
        self.permission_fixes = make_private(self.state_dir, sqlite_files(db_path) if db_path else [])
        self.db = Database.open(self.state_dir, database_url, self.config.receiver.sqlite_synchronous, create=create)
        self.state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
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

    def issue_token(self, client_id: str, secret_id: str) -> IssuedToken:
        """A token for a client that authenticated with ``secret_id``, recorded so it can be revoked."""
        issued = self.tokens.issue(client_id)
        self.credentials.record_token(issued.claims, secret_id)
        return issued

    def authorize(self, token: str) -> dict[str, Any]:
        """The claims of a bearer token the receiver accepts: valid (see :meth:`TokenService.verify`),
        minted here, with a client secret that is still live. :class:`InvalidToken` otherwise."""
        claims = self.tokens.verify(token)
        self.check_token_live(claims)
        return claims

    def check_token_live(self, claims: dict[str, Any]) -> None:
        """:class:`InvalidToken` unless the verified token's secret is live (a database read)."""
        if not self.credentials.token_is_live(claims):
            raise InvalidToken("token revoked: its client secret was retired or revoked (or it was not minted here)")

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
