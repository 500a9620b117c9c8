"""Counters for ``/metrics`` and ``/health``, and alerts (spec, Authentication §4: monitor 401s).

An alert is logged at ERROR, stored once (by its key) in the ``notify_alerts`` table, and handed
to a configurable hook - any callable taking an :class:`Alert`; the CLI's ``--alert-command``
runs a shell command with the alert as JSON on standard input.
"""

from __future__ import annotations

import json
import logging
import subprocess
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

log = logging.getLogger("workbench.notify.alerts")

AlertHook = Callable[["Alert"], None]


@dataclass(frozen=True)
class Alert:
    """Something a person should look at now."""

    key: str                 # stored once per key
    kind: str                # "unauthorized" or "request_to_book_deadline"
    message: str
    created_at: float
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self), default=str, sort_keys=True)


class Metrics:
    """Thread-safe counters, exported in the Prometheus text format."""

    HELP = {
        "notify_notifications_total": ("counter", "Notifications by outcome: accepted, duplicate, rejected "
                                                  "(401), dead_lettered, too_large, unsupported_media_type, store_error."),
        "notify_unauthorized_total": ("counter", "HTTP 401 answers by endpoint."),
        "notify_tokens_issued_total": ("counter", "Access tokens issued."),
        "notify_token_requests_refused_total": ("counter", "Token requests refused, by RFC 6749 error."),
        "notify_alerts_total": ("counter", "Alerts raised, by kind."),
        "notify_connections_closed_total": ("counter", "Connections closed or refused by the server's guard, by "
                                                       "reason: header_timeout, body_timeout, address_cap, total_cap."),
    }

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[tuple[str, str, str]] = Counter()
        self.started_at = time.time()
        self.open_connections = 0     # set by the connection guard of `notify serve`

    def series(self, name: str) -> dict[str, int]:
        """The values of counter ``name`` by label value (``{}`` when none was counted)."""
        with self._lock:
            return {value: n for (nm, _, value), n in self._counts.items() if nm == name}

    def inc(self, name: str, label: str = "", value: str = "", by: int = 1) -> None:
        with self._lock:
            self._counts[(name, label, value)] += by

    def get(self, name: str, label: str = "", value: str = "") -> int:
        with self._lock:
            return self._counts[(name, label, value)]

    def notifications(self) -> dict[str, int]:
        """Counts of notifications by outcome since start (accepted, duplicate, rejected, dead_lettered...)."""
        out = {k: 0 for k in ("accepted", "duplicate", "rejected", "dead_lettered")}
        with self._lock:
            for (name, _, value), n in self._counts.items():
                if name == "notify_notifications_total":
                    out[value] = n
        return out

    def prometheus(self, gauges: dict[str, tuple[str, float]] | None = None) -> str:
        with self._lock:
            counts = dict(self._counts)
        lines: list[str] = []
        defaults = {"notify_notifications_total": [("outcome", v) for v in
                                                   ("accepted", "duplicate", "rejected", "dead_lettered")]}
        for name, (kind, help_text) in self.HELP.items():
            lines += [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]
            series = {(label, value): n for (nm, label, value), n in counts.items() if nm == name}
            for label, value in defaults.get(name, []):
                series.setdefault((label, value), 0)
            if not series:
                series[("", "")] = 0
            for (label, value), n in sorted(series.items()):
                lines.append(f'{name}{{{label}="{_escape(value)}"}} {n}' if label else f"{name} {n}")
        for name, (help_text, gauge) in (gauges or {}).items():
            lines += [f"# HELP {name} {help_text}", f"# TYPE {name} gauge", f"{name} {gauge:g}"]
        return "\n".join(lines) + "\n"


class UnauthorizedAlarm:
    """Raises an alert when ``threshold`` 401s fall within ``window_seconds`` (once per window)."""

    def __init__(self, threshold: int, window_seconds: float, raise_alert: Callable[[Alert], None],
                 clock: Callable[[], float] = time.time) -> None:
        self.threshold = threshold
        self.window = window_seconds
        self.raise_alert = raise_alert
        self.clock = clock
        self._times: deque[float] = deque()
        self._quiet_until = 0.0
        self._lock = threading.Lock()

    def record(self, endpoint: str, reason: str) -> Alert | None:
        if self.threshold <= 0:
            return None
        now = self.clock()
        with self._lock:
            self._times.append(now)
            while self._times and self._times[0] < now - self.window:
                self._times.popleft()
            if len(self._times) < self.threshold or now < self._quiet_until:
                return None
            self._quiet_until = now + self.window
            count = len(self._times)
        alert = Alert(key=f"unauthorized:{int(now)}", kind="unauthorized", created_at=now,
                      message=f"{count} requests answered 401 in the last {self.window:g} s "
                              f"(threshold {self.threshold}); latest at {endpoint}: {reason}",
                      details={"count": count, "window_seconds": self.window, "endpoint": endpoint,
                               "reason": reason})
        self.raise_alert(alert)
        return alert


def command_hook(command: str, timeout: float = 10.0) -> AlertHook:
    """An alert hook that runs ``command`` (via the shell) with the alert JSON on stdin."""
    def hook(alert: Alert) -> None:
        def run() -> None:
            try:
                subprocess.run(command, shell=True, input=alert.to_json(), text=True, timeout=timeout,
                               check=False, capture_output=True)
            except (OSError, subprocess.SubprocessError) as exc:
                log.error("alert command `%s` failed: %s", command, exc)
        threading.Thread(target=run, name="notify-alert-hook", daemon=True).start()
    return hook


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
