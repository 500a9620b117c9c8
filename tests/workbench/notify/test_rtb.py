"""Request to book: the spec's state machine, decisions with timestamps, configurable shapes."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.notify import (
    InvalidTransition,
    LateDecision,
    NotifyConfig,
    NotifyService,
    RequestToBookConfig,
)
from workbench.notify.rtb import (
    AWAITING_DECISION,
    AWAITING_GUEST,
    BOOKED,
    CANCELLED,
    DECLINED,
    EXPIRED,
    INELIGIBLE,
    OPEN_STATES,
    STATES,
    Decision,
    RtbEvent,
    derive_state,
    event_from_body,
)
from workbench.notify.store import Notification

H = 3600.0
T0 = datetime(2026, 6, 1, 10, 0, tzinfo=UTC).timestamp()
CFG = RequestToBookConfig()


def request(at: float = T0, days_ahead: int = 10, rid: str = "R1") -> RtbEvent:
    checkin = datetime.fromtimestamp(at, UTC).date() + timedelta(days=days_ahead)
    return RtbEvent("request", rid, at, "u-" + rid, "42", checkin, checkin + timedelta(days=2))


SCENARIOS = [
    # (name, events, decision, now offset, expected state, expected deadline offset or None)
    ("fresh request awaits the partner", [request()], None, 1 * H, AWAITING_DECISION, 24 * H),
    ("no decision in 24 h expires", [request()], None, 24 * H + 1, EXPIRED, None),
    ("accepted in time awaits the guest", [request()], Decision("R1", "accept", T0 + 5 * H), 6 * H, AWAITING_GUEST,
     29 * H),
    ("guest silent 24 h after acceptance expires", [request()], Decision("R1", "accept", T0 + 5 * H), 29 * H + 1,
     EXPIRED, None),
    ("declined in time", [request()], Decision("R1", "decline", T0 + 23 * H), 30 * H, DECLINED, None),
    ("a decision after the window is ignored", [request()], Decision("R1", "accept", T0 + 25 * H), 26 * H, EXPIRED,
     None),
    ("guest completes: booked", [request(), RtbEvent("booked", "R1", T0 + 8 * H)], Decision("R1", "accept", T0 + H),
     9 * H, BOOKED, None),
    ("stay in 2 days is not eligible", [request(days_ahead=2)], None, H, INELIGIBLE, None),
    ("stay in exactly 3 days is eligible", [request(days_ahead=3)], None, H, AWAITING_DECISION, 24 * H),
    ("platform expiry", [request(), RtbEvent("expired", "R1", T0 + 2 * H)], None, 3 * H, EXPIRED, None),
    ("guest cancelled", [request(), RtbEvent("cancelled", "R1", T0 + 2 * H)], None, 3 * H, CANCELLED, None),
    ("booking notice without the request", [RtbEvent("booked", "R1", T0)], None, H, BOOKED, None),
]


@pytest.mark.parametrize(("name", "events", "decision", "now", "state", "deadline"), SCENARIOS,
                         ids=[s[0] for s in SCENARIOS])
def test_state_machine(name: str, events: list[RtbEvent], decision: Decision | None, now: float, state: str,
                       deadline: float | None) -> None:
    result = derive_state(events, decision, T0 + now, CFG)
    assert result.state == state
    assert result.deadline == (None if deadline is None else T0 + deadline)


@settings(max_examples=200, deadline=None)
@given(days_ahead=st.integers(-5, 30), decision=st.sampled_from([None, "accept", "decline"]),
       decided_after=st.floats(0, 48 * H), now_after=st.floats(0, 100 * H),
       extra=st.sets(st.sampled_from(["booked", "expired", "cancelled"])))
def test_state_machine_properties(days_ahead: int, decision: str | None, decided_after: float, now_after: float,
                                  extra: set[str]) -> None:
    events = [request(days_ahead=days_ahead), *(RtbEvent(k, "R1", T0 + H) for k in extra)]
    dec = Decision("R1", decision, T0 + decided_after) if decision else None
    s = derive_state(events, dec, T0 + now_after, CFG)
    assert s.state in STATES
    if s.state in OPEN_STATES:  # an open request always has a future deadline within 48 h of the request
        assert s.deadline is not None and T0 + now_after <= s.deadline <= T0 + 48 * H
    else:
        assert s.deadline is None
    if days_ahead < 3:
        assert s.state == INELIGIBLE
    if s.state == AWAITING_GUEST or s.state == DECLINED:  # only a timely decision moves a request on
        assert dec is not None and dec.decided_at <= T0 + 24 * H


def post_request(service: NotifyService, rid: str, requested_at: datetime, days_ahead: int = 10,
                 type_: str = "REQUEST_TO_BOOK", payload: dict | None = None) -> None:
    checkin = (requested_at + timedelta(days=days_ahead)).date()
    body = {"metadata": {"uuid": f"n-{rid}-{type_}", "type": type_, "payloadVersion": "1.0"},
            "payload": payload if payload is not None else {
                "request_id": rid, "hotel_id": 42, "checkin": checkin.isoformat(),
                "checkout": (checkin + timedelta(days=2)).isoformat(), "requested_at": requested_at.isoformat()}}
    service.store.save(Notification(body["metadata"]["uuid"], type_, "1.0", requested_at.timestamp(), "cns",
                                    json.dumps(body))).result(10)


def test_decisions_are_recorded_and_late_ones_refused(service: NotifyService) -> None:
    now = datetime.now(UTC)
    post_request(service, "R-acc", now - timedelta(hours=2))
    post_request(service, "R-dec", now - timedelta(hours=3))
    post_request(service, "R-late", now - timedelta(hours=25))
    tracker = service.requests
    state = tracker.decide("R-acc", "accept", note="ok")
    assert state.state == AWAITING_GUEST and abs(state.decided_at - now.timestamp()) < 60
    assert tracker.decide("R-dec", "decline").state == DECLINED
    with pytest.raises(LateDecision, match="decision window ended"):
        tracker.decide("R-late", "accept")
    with pytest.raises(InvalidTransition, match="already accepted"):
        tracker.decide("R-acc", "decline")
    with pytest.raises(InvalidTransition, match="no request-to-book request"):
        tracker.decide("R-none", "accept")
    with pytest.raises(InvalidTransition, match="accept` or `decline"):
        tracker.decide("R-acc", "maybe")
    frame = tracker.frame()
    assert list(frame.columns[:3]) == ["request_id", "hotel_id", "state"]
    assert list(frame["request_id"][:1]) == ["R-acc"]  # the open one first
    by_id = frame.set_index("request_id")
    assert by_id.loc["R-late", "state"] == EXPIRED and "no partner decision" in by_id.loc["R-late", "note"]
    assert by_id.loc["R-acc", "time_left"] > timedelta(hours=23)
    assert str(by_id.loc["R-acc", "deadline"].tz) == "UTC"
    assert list(tracker.frame(open_only=True)["request_id"]) == ["R-acc"]


def test_ineligible_request_cannot_be_decided(service: NotifyService) -> None:
    post_request(service, "R-soon", datetime.now(UTC), days_ahead=1)
    with pytest.raises(InvalidTransition, match="ineligible"):
        service.requests.decide("R-soon", "accept")


def test_requests_near_their_deadline_raise_alerts_once(service: NotifyService) -> None:
    now = datetime.now(UTC)
    post_request(service, "R-near", now - timedelta(hours=22))
    post_request(service, "R-far", now - timedelta(hours=1))
    seen = []
    service.alert_hooks.append(seen.append)
    alerts = service.check_deadlines()
    assert [a.details["request_id"] for a in alerts] == ["R-near"]
    assert "awaits partner decision" in alerts[0].message
    service.check_deadlines()  # again: stored once by key
    service.store.execute("SELECT 1").result(10)
    rows = service.store.alert_rows()
    assert [r[1] for r in rows] == ["rtb:R-near:awaiting_partner_decision"]
    deadline = __import__("time").monotonic() + 5
    while not seen and __import__("time").monotonic() < deadline:
        __import__("time").sleep(0.02)
    assert [a.key for a in seen] == ["rtb:R-near:awaiting_partner_decision"]
    frame = service.requests.frame()
    assert list(frame.loc[frame["near_deadline"], "request_id"]) == ["R-near"]


CUSTOM = NotifyConfig(request_to_book=RequestToBookConfig(
    request_types=("RTB_NEW",), booked_types=("RTB_DONE",), request_id_field="booking.id",
    hotel_id_field="property.id", checkin_field="stay.from", checkout_field="stay.to",
    requested_at_field="created", check_interval_seconds=0))


def test_types_and_field_paths_are_configurable(tmp_path, database_url: str | None) -> None:  # noqa: ANN001
    with NotifyService(tmp_path / "custom", CUSTOM, database_url=database_url) as service:
        _check_custom(service)


def _check_custom(service: NotifyService) -> None:
    now = datetime.now(UTC)
    checkin = (now + timedelta(days=8)).date().isoformat()
    post_request(service, "C1", now, type_="RTB_NEW", payload={
        "booking": {"id": "C1"}, "property": {"id": 7}, "stay": {"from": checkin, "to": checkin},
        "created": now.isoformat()})
    post_request(service, "C1", now, type_="REQUEST_TO_BOOK")  # the default type is not configured here
    frame = service.requests.frame()
    assert frame[["request_id", "hotel_id", "state"]].values.tolist() == [["C1", "7", AWAITING_DECISION]]
    assert frame["checkin"][0] == date.fromisoformat(checkin)
    post_request(service, "C1", now, type_="RTB_DONE", payload={"booking": {"id": "C1"}})
    assert service.requests.frame()["state"].tolist() == [BOOKED]


def test_missing_fields_are_noted_not_fatal() -> None:
    ev = event_from_body("request", "uuid-1", T0, json.dumps({"payload": {"hotel_id": 1}}), CFG)
    assert ev.request_id == "uuid-1" and ev.checkin is None and ev.at == T0
    assert "no `request_id`" in ev.note and "no usable `checkin`" in ev.note
    odd = event_from_body("request", "uuid-2", T0, json.dumps({"payload": [1, 2]}), CFG)
    assert "payload is not an object" in odd.note
    assert derive_state([ev], None, T0 + H, CFG).state == AWAITING_DECISION
