"""A few notifications end to end, for ``workbench demo``: a token, deliveries, a repeat, a
request to book, a forged token refused - over HTTPS on loopback, in a few seconds."""

from __future__ import annotations

import secrets
import ssl
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import httpx

from workbench.config import Secret
from workbench.notify.app import create_app
from workbench.notify.errors import CredentialError, NotifyError
from workbench.notify.frames import notifications_frame
from workbench.notify.service import NotifyService
from workbench.reports import write_table
from workbench.sandbox.cns import CnsClient, CnsConfig, notification
from workbench.serving import ensure_test_ca, serve_in_thread
from workbench.wording import count

DEMO_CLIENT = "cns-demo"


class NotificationDemoError(NotifyError, RuntimeError):
    """Something the demo expected did not happen; the message says what."""


@dataclass(frozen=True)
class NotificationDemoResult:
    sent: int                 # deliveries attempted by the CNS stand-in (including the repeat)
    accepted: int             # stored as new
    duplicates: int           # acknowledged, stored once
    rejected: int             # refused with 401 (the forged token)
    stored: int               # notifications in the inbox now (all runs)
    open_requests: int        # request-to-book requests awaiting a decision or the guest
    inbox_path: Path
    summary: str


def run_notification_demo(workdir: Path) -> NotificationDemoResult:
    """Serve the endpoints in a thread (state in ``workdir/notify``), deliver, and report."""
    state_dir = Path(workdir) / "notify"
    service = NotifyService(state_dir)
    try:
        try:
            issued = service.credentials.create(DEMO_CLIENT, note="workbench demo")
        except CredentialError:  # a previous demo made it: rotate, then retire the old secret
            issued = service.credentials.rotate(DEMO_CLIENT)
            service.credentials.retire(DEMO_CLIENT)
        tls = ensure_test_ca(state_dir)
        with serve_in_thread(create_app(service), tls) as server:
            config = CnsConfig(f"{server.url}/oauth/token", f"{server.url}/notifications", issued.client_id,
                               Secret(issued.secret), str(tls.ca_bundle))
            envelopes = _envelopes()
            results = CnsClient.deliver_all(config, envelopes, concurrency=1)  # in order: the repeat comes last
            forged = _forged_delivery(server.url, str(tls.ca_bundle))
        failed = [r for r in results if not r.delivered]
        if failed:
            raise NotificationDemoError(f"{count(len(failed), 'notification')} not delivered: {failed[0].error}")
        statuses = [(r.response or {}).get("status") for r in results]
        accepted, duplicates = statuses.count("accepted"), statuses.count("duplicate")
        if (accepted, duplicates) != (len(envelopes) - 1, 1):
            raise NotificationDemoError(f"expected {len(envelopes) - 1} accepted and 1 duplicate, got {statuses}")
        if forged != 401:
            raise NotificationDemoError(f"a forged token was answered {forged}, not 401")
        rtb_id = envelopes[3]["payload"]["request_id"]
        requests = service.requests.frame(open_only=True)
        if rtb_id not in set(requests["request_id"]):
            raise NotificationDemoError(f"request to book `{rtb_id}` is not among the open requests")
        inbox = notifications_frame(service.store)
        inbox_path = write_table(inbox.drop(columns=["body"]), Path(workdir) / "notifications-inbox.csv")
        row = requests[requests["request_id"] == rtb_id].iloc[0]
        summary = (f"notifications: {len(results)} delivered over HTTPS with an RS256 token "
                   f"({accepted} new, {duplicates} repeat acknowledged and stored once), 1 forged token refused "
                   f"(401); the inbox holds {len(inbox)}\n"
                   f"request to book {rtb_id}: {row['state']}, decide by {row['deadline']:%Y-%m-%d %H:%M} UTC "
                   f"({_hours(row['time_left'])} left)")
        return NotificationDemoResult(len(results), accepted, duplicates, 1, len(inbox), len(requests),
                                      inbox_path, summary)
    finally:
        service.close()


def _envelopes() -> list[dict]:
    run = secrets.token_hex(3)
    payout = notification("PAYOUT_UPDATE", {"hotel_id": 1234567, "amount": "1520.40", "currency": "EUR"})
    checkin = date.today() + timedelta(days=10)
    return [
        payout,
        notification("VCC_BALANCE", {"reservation_id": "4000123456", "balance": "310.00", "currency": "EUR"}),
        notification("MESSAGING_API_NEW_MESSAGE", {"conversation_id": f"conv-{run}", "hotel_id": 1234567}),
        notification("REQUEST_TO_BOOK", {"request_id": f"RTB-{run}", "hotel_id": 1234567,
                                         "checkin": checkin.isoformat(),
                                         "checkout": (checkin + timedelta(days=3)).isoformat(),
                                         "requested_at": datetime.now(UTC).isoformat(timespec="seconds")}),
        payout,  # the platform delivers at least once: a repeat
    ]


def _forged_delivery(base_url: str, ca_bundle: str) -> int:
    forged = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJtYWxsb3J5In0."  # alg=none
    with httpx.Client(verify=ssl.create_default_context(cafile=ca_bundle), timeout=10) as client:
        r = client.post(f"{base_url}/notifications", json=notification("PAYOUT_UPDATE", {}),
                        headers={"Authorization": f"Bearer {forged}"})
    return r.status_code


def _hours(left: object) -> str:
    minutes = int(getattr(left, "total_seconds", lambda: 0)() // 60)
    return f"{minutes // 60} h {minutes % 60:02d} min"
