"""What is stored can be read back: a body sent with a UTF-8 byte order mark is stored without it (its
request to book keeps its id, hotel and check-in), and readers survive any stored body - an unreadable
one keeps its row and is reported, it never hides the others."""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.notify import NotifyService, notifications_frame
from workbench.notify.frames import UnreadableNotification
from workbench.notify.rtb import STATES
from workbench.notify.store import Notification
from workbench.reports import write_table

BOM = "\ufeff".encode()


def rtb_body(uuid: str, request_id: str, hotel: int) -> bytes:
    checkin = (datetime.now(UTC) + timedelta(days=10)).date().isoformat()
    return json.dumps({"metadata": {"uuid": uuid, "type": "REQUEST_TO_BOOK", "payloadVersion": "1.0"},
                       "payload": {"request_id": request_id, "hotel_id": hotel, "checkin": checkin}}).encode()


def test_a_body_with_a_byte_order_mark_is_stored_readable(service: NotifyService, http: httpx.Client,
                                                          token: str) -> None:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    body = rtb_body("bom-1", "R-BOM", 77)
    first = http.post("/notifications", content=BOM + body, headers=headers)
    again = http.post("/notifications", content=body, headers=headers)  # the same notification without the mark
    assert (first.status_code, first.json()["status"]) == (200, "accepted")
    assert (again.status_code, again.json()["status"]) == (200, "duplicate")
    stored = service.store.notification_rows()[0][-1]
    assert stored == body.decode() and json.loads(stored)["payload"]["request_id"] == "R-BOM"
    found: list[UnreadableNotification] = []
    frame = notifications_frame(service.store, on_unreadable=found.append)
    assert found == [] and json.loads(frame["payload"][0])["hotel_id"] == 77
    request = service.requests.frame().iloc[0]
    assert (request["request_id"], request["hotel_id"], request["state"]) == ("R-BOM", "77", "awaiting_partner_decision")
    assert request["checkin"] is not None and request["note"] == ""


UNREADABLE = [
    ("not JSON", "{oops"),
    ("a JSON array", "[1, 2]"),
    ("JSON null", "null"),
    ("empty", ""),
    ("nested 5,000 deep", "[" * 5000 + "]" * 5000),
]


def test_unreadable_bodies_keep_their_rows_and_are_reported(service: NotifyService) -> None:
    now = datetime.now(UTC).timestamp()
    service.store.save(Notification("legacy-bom", "REQUEST_TO_BOOK", "1.0", now, "cns",
                                    "\ufeff" + rtb_body("legacy-bom", "R-OLD", 5).decode())).result(10)
    for i, (_name, body) in enumerate(UNREADABLE):
        service.store.save(Notification(f"bad-{i}", "REQUEST_TO_BOOK", "1.0", now + i, "cns", body)).result(10)
    found: list[UnreadableNotification] = []
    frame = notifications_frame(service.store, on_unreadable=found.append)
    assert frame["uuid"].tolist() == ["legacy-bom", *(f"bad-{i}" for i in range(len(UNREADABLE)))]
    assert [f.uuid for f in found] == [f"bad-{i}" for i in range(len(UNREADABLE))]  # a mark alone is read
    assert frame["payload"].isna().tolist() == [False, *[True] * len(UNREADABLE)]
    assert "bad-1" in found[1].message() and "JSON document that is an array" in found[1].message()
    lost: list[UnreadableNotification] = []
    requests = service.requests.frame(on_unreadable=lost.append).set_index("request_id")
    assert requests.loc["R-OLD", "hotel_id"] == "5" and requests.loc["R-OLD", "note"] == ""
    # an unreadable request is still listed, under its uuid, with its 24-hour window from its arrival
    assert requests.loc["bad-0", "state"] == "awaiting_partner_decision"
    assert "stored body could not be read" in requests.loc["bad-0", "note"]
    assert len(lost) == len(UNREADABLE)


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(), kids, max_size=4),
                           max_leaves=20)
STORABLE_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
BODIES = st.one_of(
    STORABLE_TEXT,
    JSON_VALUES.map(json.dumps),
    st.tuples(st.sampled_from(["", "\ufeff", "\ufeff\ufeff", " "]), JSON_VALUES.map(lambda v: json.dumps(
        {"metadata": {"uuid": "x", "note": v}, "payload": v})), STORABLE_TEXT).map("".join),
)
_SEQ = itertools.count()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bodies=st.lists(BODIES, min_size=1, max_size=4))
def test_readers_survive_any_stored_body(service: NotifyService, tmp_path: Path, bodies: list[str]) -> None:
    """Whatever text the store holds, the inbox, its export and the request tracker read every row."""
    uuids = [f"any-{next(_SEQ)}" for _ in bodies]
    for uuid, body in zip(uuids, bodies, strict=True):
        service.store.save(Notification(uuid, "REQUEST_TO_BOOK", None, 1.7e9, "cns", body)).result(10)
    reported: list[UnreadableNotification] = []
    frame = notifications_frame(service.store, on_unreadable=reported.append).set_index("uuid")
    assert frame.index.is_unique and set(uuids) <= set(frame.index)
    mine = frame.loc[uuids]  # each row has its payload, or is reported as unreadable: never both, never neither
    assert set(mine.index[mine["payload"].isna()]) == {r.uuid for r in reported} & set(uuids)
    write_table(frame.reset_index(), tmp_path / "inbox.csv")
    requests = service.requests.frame(open_only=False, on_unreadable=lambda item: None)
    assert requests["state"].isin(STATES).all() and len(requests) >= 1
