"""Request-to-book tracking (spec, States and transitions; Events §2; Limits).

    guest request (stay >= 3 days ahead) -> awaiting_partner_decision (24 h)
        partner accepts in time  -> awaiting_guest_confirmation (24 h) -> booked | expired
        partner declines in time -> declined
        no decision in 24 h      -> expired

Requests come from stored notifications whose types and payload fields are configured
(:class:`RequestToBookConfig`); the partner's decisions are recorded here with a timestamp.
:func:`derive_state` is pure: state follows from the events, the decision and the clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import pandas as pd

from workbench.notify.config import RequestToBookConfig
from workbench.notify.envelope import UnreadableBody, stored_document
from workbench.notify.errors import InvalidTransition, LateDecision
from workbench.notify.frames import Unreadable, UnreadableNotification, warn_unreadable
from workbench.notify.monitor import Alert
from workbench.notify.store import NotifyStore
from workbench.wording import count

AWAITING_DECISION = "awaiting_partner_decision"
AWAITING_GUEST = "awaiting_guest_confirmation"
BOOKED, DECLINED, EXPIRED, CANCELLED, INELIGIBLE = "booked", "declined", "expired", "cancelled", "ineligible"
OPEN_STATES = frozenset({AWAITING_DECISION, AWAITING_GUEST})
STATES = (AWAITING_DECISION, AWAITING_GUEST, BOOKED, DECLINED, EXPIRED, CANCELLED, INELIGIBLE)
DECISIONS = ("accept", "decline")
COLUMNS = ["request_id", "hotel_id", "state", "checkin", "checkout", "requested_at", "deadline", "time_left",
           "near_deadline", "decision", "decided_at", "notification_uuid", "note"]


@dataclass(frozen=True)
class RtbEvent:
    """One request-to-book notification: ``kind`` is request, booked, expired or cancelled."""

    kind: str
    request_id: str
    at: float                      # when it happened (payload time, else arrival)
    uuid: str = ""
    hotel_id: str | None = None
    checkin: date | None = None
    checkout: date | None = None
    note: str = ""
    unreadable: str = ""           # why the stored body could not be read ("" when it could)


@dataclass(frozen=True)
class Decision:
    request_id: str
    decision: str                  # "accept" or "decline"
    decided_at: float
    note: str = ""


@dataclass(frozen=True)
class RequestState:
    request_id: str
    state: str
    requested_at: float | None
    deadline: float | None          # the end of the current window (open states)
    hotel_id: str | None = None
    checkin: date | None = None
    checkout: date | None = None
    decision: str | None = None
    decided_at: float | None = None
    notification_uuid: str = ""
    note: str = ""


def derive_state(events: Iterable[RtbEvent], decision: Decision | None, now: float,
                 config: RequestToBookConfig) -> RequestState:
    """The state of one request given its notifications, the partner's decision and the time."""
    evs = sorted(events, key=lambda e: e.at)
    if not evs:
        raise ValueError("a request needs at least one event")
    rid = evs[0].request_id
    request = next((e for e in evs if e.kind == "request"), None)
    base = request or evs[0]
    notes = [e.note for e in evs if e.note]
    if request is None:
        notes.append("no request notification received")
    kinds = {e.kind for e in evs}
    decision_window = config.decision_hours * 3600.0
    guest_window = config.confirmation_hours * 3600.0
    requested_at = request.at if request else None

    def result(state: str, deadline: float | None = None, extra: str = "") -> RequestState:
        return RequestState(rid, state, requested_at, deadline, base.hotel_id, base.checkin, base.checkout,
                            decision.decision if decision else None, decision.decided_at if decision else None,
                            base.uuid, "; ".join([*notes, extra] if extra else notes))

    if request is not None and request.checkin is not None:
        ahead = (request.checkin - _utc_date(request.at)).days
        if ahead < config.min_days_ahead:
            return result(INELIGIBLE, extra=f"stay starts {count(ahead, 'day')} after the request; request to book "
                                            f"needs at least {config.min_days_ahead}")
    if "booked" in kinds:
        return result(BOOKED)
    if "cancelled" in kinds:
        return result(CANCELLED)
    if "expired" in kinds:
        return result(EXPIRED, extra="expired by the platform")
    assert request is not None  # without one, a booked/cancelled/expired event decided above
    decision_deadline = request.at + decision_window
    if decision is not None and decision.decided_at <= decision_deadline:
        if decision.decision == "decline":
            return result(DECLINED)
        guest_deadline = decision.decided_at + guest_window
        if now > guest_deadline:
            return result(EXPIRED, extra=f"guest did not confirm within {config.confirmation_hours:g} h")
        return result(AWAITING_GUEST, guest_deadline)
    if now > decision_deadline:
        return result(EXPIRED, extra=f"no partner decision within {config.decision_hours:g} h")
    return result(AWAITING_DECISION, decision_deadline)


class RequestToBook:
    """Request-to-book requests read from a store, with the partner's decisions."""

    def __init__(self, store: NotifyStore, config: RequestToBookConfig | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.config = config or RequestToBookConfig()
        self.clock = clock

    def events(self, on_unreadable: Unreadable = warn_unreadable) -> list[RtbEvent]:
        """The request-to-book notifications; an unreadable body still gives its event (id: the uuid)."""
        cfg = self.config
        kinds = {**{t: "request" for t in cfg.request_types}, **{t: "booked" for t in cfg.booked_types},
                 **{t: "expired" for t in cfg.expired_types}, **{t: "cancelled" for t in cfg.cancelled_types}}
        out = []
        for seq, uuid, type_, _pv, received_at, _client, body in self.store.notification_rows(types=sorted(kinds)):
            event = event_from_body(kinds[type_], uuid, float(received_at), body, cfg)
            if event.unreadable:
                on_unreadable(UnreadableNotification(int(seq), uuid, type_, float(received_at), event.unreadable))
            out.append(event)
        return out

    def decisions(self) -> dict[str, Decision]:
        rows = self.store.db.query("SELECT request_id, decision, decided_at, note FROM notify_rtb_decisions")
        return {r[0]: Decision(r[0], r[1], float(r[2]), r[3] or "") for r in rows}

    def states(self, now: float | None = None, on_unreadable: Unreadable = warn_unreadable) -> list[RequestState]:
        now = self.clock() if now is None else now
        grouped: dict[str, list[RtbEvent]] = {}
        for e in self.events(on_unreadable):
            grouped.setdefault(e.request_id, []).append(e)
        decisions = self.decisions()
        return [derive_state(evs, decisions.get(rid), now, self.config) for rid, evs in grouped.items()]

    def frame(self, now: float | None = None, open_only: bool = False,
              on_unreadable: Unreadable = warn_unreadable) -> pd.DataFrame:
        """One row per request: state, deadline and time left (open requests first, by deadline)."""
        now = self.clock() if now is None else now
        warn = self.config.warn_before_hours * 3600.0
        rows = []
        for s in self.states(now, on_unreadable):
            if open_only and s.state not in OPEN_STATES:
                continue
            left = s.deadline - now if s.deadline is not None else None
            rows.append({"request_id": s.request_id, "hotel_id": s.hotel_id, "state": s.state,
                         "checkin": s.checkin, "checkout": s.checkout, "requested_at": s.requested_at,
                         "deadline": s.deadline, "time_left": None if left is None else round(left),
                         "near_deadline": left is not None and left <= warn, "decision": s.decision,
                         "decided_at": s.decided_at, "notification_uuid": s.notification_uuid, "note": s.note})
        frame = pd.DataFrame(rows, columns=COLUMNS)
        for col in ("requested_at", "deadline", "decided_at"):
            frame[col] = pd.to_datetime(frame[col].astype("float64"), unit="s", utc=True)
        frame["time_left"] = pd.to_timedelta(frame["time_left"].astype("float64"), unit="s")
        frame["near_deadline"] = frame["near_deadline"].astype(bool)
        frame["_closed"] = ~frame["state"].isin(OPEN_STATES)
        frame = frame.sort_values(["_closed", "deadline", "request_id"], na_position="last", kind="stable")
        return frame.drop(columns="_closed").reset_index(drop=True)

    def decide(self, request_id: str, decision: str, note: str = "", now: float | None = None) -> RequestState:
        """Record the partner's accept/decline; refused when late or not awaiting a decision."""
        if decision not in DECISIONS:
            raise InvalidTransition(f"decision must be `accept` or `decline`, not `{decision}`")
        now = self.clock() if now is None else now
        state = next((s for s in self.states(now, _quiet) if s.request_id == request_id), None)
        if state is None:
            raise InvalidTransition(f"no request-to-book request `{request_id}` has been received")
        if state.decision is not None:
            raise InvalidTransition(f"request `{request_id}` was already {state.decision}ed at "
                                    f"{_iso(state.decided_at)}")
        if state.state == EXPIRED and state.requested_at is not None and \
                now > state.requested_at + self.config.decision_hours * 3600.0:
            raise LateDecision(f"request `{request_id}`: the {self.config.decision_hours:g} h decision window "
                               f"ended at {_iso(state.requested_at + self.config.decision_hours * 3600.0)}; "
                               f"it is now {_iso(now)}")
        if state.state != AWAITING_DECISION:
            raise InvalidTransition(f"request `{request_id}` is {state.state}, not awaiting a decision")
        counts = self.store.db.write([("INSERT INTO notify_rtb_decisions (request_id, decision, decided_at, note) "
                                       "VALUES (?, ?, ?, ?) ON CONFLICT (request_id) DO NOTHING",
                                       (request_id, decision, now, note))])
        if counts[0] != 1:
            raise InvalidTransition(f"request `{request_id}` was decided by someone else meanwhile")
        return next(s for s in self.states(now, _quiet) if s.request_id == request_id)

    def deadline_alerts(self, now: float | None = None) -> list[Alert]:
        """An alert for each open request whose window ends within ``warn_before_hours``."""
        now = self.clock() if now is None else now
        warn = self.config.warn_before_hours * 3600.0
        alerts = []
        for s in self.states(now, _quiet):  # checked every minute: `requests` and `list` name unreadable bodies
            if s.state in OPEN_STATES and s.deadline is not None and s.deadline - now <= warn:
                who = "partner decision" if s.state == AWAITING_DECISION else "guest confirmation"
                minutes = max(0, int((s.deadline - now) // 60))
                alerts.append(Alert(key=f"rtb:{s.request_id}:{s.state}", kind="request_to_book_deadline",
                                    created_at=now,
                                    message=f"request to book `{s.request_id}` (hotel {s.hotel_id}) awaits "
                                            f"{who}: {minutes // 60} h {minutes % 60:02d} min left, "
                                            f"deadline {_iso(s.deadline)}",
                                    details={"request_id": s.request_id, "state": s.state,
                                             "deadline": _iso(s.deadline), "hotel_id": s.hotel_id}))
        return alerts


def event_from_body(kind: str, uuid: str, received_at: float, body: str, config: RequestToBookConfig) -> RtbEvent:
    """An :class:`RtbEvent` from a stored body, noting any configured field that is missing.

    A body that cannot be read still gives an event (id: the notification uuid, time: its arrival),
    so the request and its 24-hour window stay visible.
    """
    unreadable = ""
    try:
        payload = stored_document(body).get("payload")
    except (UnreadableBody, RecursionError) as exc:
        payload, unreadable = None, str(exc) if isinstance(exc, UnreadableBody) else "not readable (too deep)"
    notes = []
    if unreadable:
        payload = {}
        notes.append(f"stored body could not be read ({unreadable}); its raw text is in `workbench notify list "
                     "--out FILE.csv`")
    elif not isinstance(payload, dict):
        payload = {}
        notes.append("payload is not an object")

    def field_value(path: str) -> Any:
        value: Any = payload
        for part in path.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return value

    rid = field_value(config.request_id_field)
    if rid is None or rid == "":
        notes.append(f"payload has no `{config.request_id_field}`; using the notification uuid")
        rid = uuid
    at = _parse_time(field_value(config.requested_at_field)) or received_at
    checkin = _parse_date(field_value(config.checkin_field))
    if kind == "request" and checkin is None:
        notes.append(f"payload has no usable `{config.checkin_field}`")
    hotel = field_value(config.hotel_id_field)
    return RtbEvent(kind, str(rid), at, uuid, None if hotel is None else str(hotel), checkin,
                    _parse_date(field_value(config.checkout_field)), "; ".join(notes), unreadable)


def _quiet(item: UnreadableNotification) -> None:
    """Unreadable bodies are reported by the listings, not again by every decision or deadline check."""


def _parse_date(value: Any) -> date | None:
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        return None


def _parse_time(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str):
        return None
    try:
        dt = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return (dt if dt.tzinfo else dt.replace(tzinfo=UTC)).timestamp()


def _utc_date(ts: float) -> date:
    return datetime.fromtimestamp(ts, UTC).date()


def _iso(value: float | None) -> str:
    return "?" if value is None else datetime.fromtimestamp(value, UTC).isoformat(timespec="minutes")
