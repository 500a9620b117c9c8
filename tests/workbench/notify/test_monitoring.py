"""GET /metrics and /health, and the 401 alert (log at ERROR, stored once, hook called)."""

from __future__ import annotations

import logging
import sys
import threading
import time

import httpx
import pytest

from workbench.notify import AlertConfig, NotifyConfig, NotifyService, RequestToBookConfig, command_hook
from workbench.notify.monitor import Alert, Metrics, UnauthorizedAlarm


@pytest.fixture
def config() -> NotifyConfig:
    return NotifyConfig(alerts=AlertConfig(unauthorized_threshold=5, unauthorized_window_seconds=60),
                        request_to_book=RequestToBookConfig(check_interval_seconds=0))


def test_metrics_and_health_count_every_outcome(http: httpx.Client, token: str) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    http.post("/notifications", json={"metadata": {"uuid": "m1", "type": "A"}, "payload": {}}, headers=auth)
    http.post("/notifications", json={"metadata": {"uuid": "m1", "type": "A"}, "payload": {}}, headers=auth)
    http.post("/notifications", json={"metadata": {}}, headers=auth)
    http.post("/notifications", json={"metadata": {"uuid": "m2"}}, headers={"Authorization": "Bearer bad"})
    text = http.get("/metrics").text
    for line in ['notify_notifications_total{outcome="accepted"} 1', 'notify_notifications_total{outcome="duplicate"} 1',
                 'notify_notifications_total{outcome="dead_lettered"} 1',
                 'notify_notifications_total{outcome="rejected"} 1',
                 'notify_unauthorized_total{endpoint="notifications"} 1', "notify_tokens_issued_total 1",
                 "notify_stored_notifications 1", "# TYPE notify_notifications_total counter"]:
        assert line in text.splitlines(), line
    health = http.get("/health").json()
    assert health["status"] == "ok" and health["stored_notifications"] == 1
    assert health["counts"] == {"accepted": 1, "duplicate": 1, "rejected": 1, "dead_lettered": 1}
    assert health["unauthorized"] == {"token": 0, "notifications": 1}
    assert health["signing_key"]
    jwks = http.get("/.well-known/jwks.json").json()
    assert jwks["keys"][0]["kid"] == health["signing_key"] and "d" not in jwks["keys"][0]


def test_burst_of_401s_raises_one_alert(http: httpx.Client, service: NotifyService,
                                        caplog: pytest.LogCaptureFixture) -> None:
    got: list[Alert] = []
    arrived = threading.Event()
    service.alert_hooks.append(lambda a: (got.append(a), arrived.set()))
    with caplog.at_level(logging.ERROR, logger="workbench.notify.alerts"):
        for _ in range(4):
            http.post("/notifications", json={}, headers={"Authorization": "Bearer forged"})
        assert not arrived.wait(0.3)
        for _ in range(6):
            http.post("/notifications", json={}, headers={"Authorization": "Bearer forged"})
        assert arrived.wait(5)
    time.sleep(0.2)
    assert len(got) == 1 and got[0].kind == "unauthorized" and got[0].details["count"] == 5
    assert any("ALERT" in r.message and "401" in r.message for r in caplog.records)
    rows = service.store.alert_rows()
    assert len(rows) == 1 and rows[0][2] == "unauthorized"
    assert 'notify_alerts_total{kind="unauthorized"} 1' in http.get("/metrics").text


def test_alarm_window_slides() -> None:
    now = [0.0]
    raised: list[Alert] = []
    alarm = UnauthorizedAlarm(3, 10.0, raised.append, clock=lambda: now[0])
    for t in (0, 5, 11, 12):  # never 3 inside 10 s until t=12 (5, 11, 12)
        now[0] = t
        alarm.record("/x", "bad")
    assert len(raised) == 1
    now[0] = 13
    alarm.record("/x", "bad")
    assert len(raised) == 1  # quiet for one window after an alert
    assert UnauthorizedAlarm(0, 10, raised.append).record("/x", "bad") is None  # 0 turns it off


def test_command_hook_gets_the_alert_as_json(tmp_path) -> None:  # noqa: ANN001
    out = tmp_path / "alert.json"
    hook = command_hook(f'{sys.executable} -c "import sys; open(r\'{out}\', \'w\').write(sys.stdin.read())"')
    hook(Alert("k", "unauthorized", "too many 401s", 1.0, {"count": 3}))
    deadline = time.monotonic() + 10
    while not (out.exists() and out.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert '"kind": "unauthorized"' in out.read_text() and '"count": 3' in out.read_text()


def test_prometheus_labels_are_escaped() -> None:
    m = Metrics()
    m.inc("notify_alerts_total", "kind", 'we"ird\n')
    assert 'notify_alerts_total{kind="we\\"ird\\n"} 1' in m.prometheus()
