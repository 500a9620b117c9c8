"""Room types (E1, ``OTA_HotelInvNotif``) as a kind of the one send driver: one request per room type.

What the journal keeps of a room type is each part a request carried (``<hotel>/<InvCode>/<part>``:
its content as sent, read from the request itself), so a part the platform's read cannot show (the
Room attributes, sub-rooms and their beds) is compared with what was last accepted and not sent
again when unchanged (:func:`drop_accepted_parts`). A ``New`` is a create: its reference is the
property and the sheet's RoomID (or name); the InvCode it got comes from the answer's
``InventoryCrossRef``, and an answer that leaves it unclear is settled by reading the property back
(the reader is handed in by the flow: writers do not read the platform).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from workbench.ota import (
    AMENITIES_FACT,
    NEW,
    OCCUPANCY_PART,
    QUANTITIES_PART,
    ROOM_PART,
    SUBROOMS_FACT,
    PlatformRooms,
    parse_cross_refs,
    sent_parts,
)
from workbench.transport.result import Result
from workbench.writers.folder import Folder
from workbench.writers.kind import Answer, Kind, Resolution
from workbench.writers.outcome import KindInfo
from workbench.writers.overlay import PlannedRequest
from workbench.writers.planned import Planned
from workbench.writers.room_sent import AcceptedRoomRequest

OPERATION = "OTA_HotelInvNotif"
ROOMS = KindInfo("rooms", "Rooms push",
                 request_keys=("hotel_code", "notif_type", "inv_code", "room_id", "room_name", "parts"),
                 row_keys=("hotel_code", "inv_code", "room_name"),
                 labels={"hotel_code": "Property", "notif_type": "Type", "inv_code": "InvCode", "room_id": "RoomID",
                         "room_name": "Room type", "parts": "Parts"},
                 noun="request", plural="requests", group_by=("hotel_code", "inv_code"))
RESULT_COLUMNS = ["hotel_code", "notif_type", "inv_code", "room_id", "room_name", "parts", "outcome", "message", "ruid"]
#: the facts of the platform's read each part of a message holds (a part any of whose facts the read
#: does not carry is compared with the journal instead)
PART_FACTS = {"room": ROOM_PART, "name": ("room_name",), "occupancy": OCCUPANCY_PART,
              "child_payable": ("max_child_payable_occupancy",), "quantities": QUANTITIES_PART,
              "amenities": (AMENITIES_FACT,), "subrooms": (SUBROOMS_FACT,)}
Reader = Callable[[Any, int], PlatformRooms]


def room_ref(hotel: int, room_id: str | None, room_name: str | None) -> str:
    """The reference of a room type to create: the property and the sheet's RoomID (else its name)."""
    return f"{hotel}/{room_id}" if room_id else f"{hotel}/name:{(room_name or '').casefold().strip()}"


def part_items(body: bytes, made: str | None = None) -> list[tuple[str, str]]:
    """``<hotel>/<InvCode>/<part> -> content`` of every part ``body`` carries (``made``: the InvCode a New got)."""
    out = []
    for p in sent_parts(body):
        inv = p.inv_code or made
        if inv:
            out.append((f"{p.hotel_code}/{inv}/{p.part}", p.text))
    return out


def planned_rooms(requests: Iterable[PlannedRequest], rows: Mapping[tuple[int, str], pd.DataFrame] | None = None
                  ) -> list[Planned]:
    """Room-type requests as the driver takes them (``rows``: the spreadsheet rows of each room type, by
    (hotel, InvCode or reference); default: the Rooms row of each)."""
    out = []
    for r in requests:
        body = r.body
        ref = room_ref(r.hotel_code, r.room_id, r.room_name) if r.notif_type == NEW else None
        where = (rows or {}).get((r.hotel_code, str(r.inv_code or ref)))
        if where is None:
            where = pd.DataFrame([{"source": s, "sheet": h, "row": n} for s, h, n in r.rows],
                                 columns=["source", "sheet", "row"])
        room = r.inv_code or f"new {r.room_id or r.room_name or ''}".strip()
        out.append(Planned("rooms", OPERATION, ref or f"{r.hotel_code}/{r.inv_code}", body, str(r.hotel_code),
                           f"{r.notif_type} {room}", hotel_code=r.hotel_code, messages=1, items=len(r.parts.split(", ")),
                           state=part_items(body), rows=where.assign(column="", locator=None, item=None),
                           creates=ref, idempotent=r.notif_type != NEW, source=r,
                           extra={"hotel_code": r.hotel_code, "notif_type": r.notif_type, "inv_code": r.inv_code,
                                  "room_id": r.room_id, "room_name": r.room_name, "parts": r.parts}))
    return out


def accepted_rooms(requests: Iterable[tuple[int, str, str | None, bytes]]) -> list[AcceptedRoomRequest]:
    """The room-type requests the journal says the platform accepted (``Journal.accepted_requests``), each
    with its room type's InvCode (for a New, the one its answer gave)."""
    out = []
    for hotel, key, made, body in requests:
        inv = made or key.split("/", 1)[-1]  # an Overlay's key is <hotel>/<InvCode>; a New's, its reference
        if made or sent_parts(body)[0].notif_type != NEW:
            out.append(AcceptedRoomRequest(hotel, inv, body))
    return out


@dataclass(frozen=True)
class RoomRequest:
    """A room-type request read back from a dry-run folder: what the kind needs to know of it."""

    hotel_code: int
    notif_type: str
    inv_code: str | None
    room_id: str | None
    room_name: str | None
    parts: str
    body: bytes


def folder_planned(folder: Folder) -> list[Planned]:
    """The requests of a rooms dry-run folder, as the driver takes them (their state read from the bodies)."""
    out = []
    for row, body in zip(folder.manifest.to_dict("records"), folder.bodies, strict=True):
        text = {k: (str(v).strip() if v is not None and str(v).strip() not in ("", "nan") else None)
                for k, v in row.items()}
        hotel = int(float(text["hotel_code"] or 0))
        req = RoomRequest(hotel, str(text["notif_type"]), text.get("inv_code"), text.get("room_id"),
                          text.get("room_name"), text.get("parts") or "", body)
        out.append(Planned("rooms", OPERATION, str(text["key"]), body, str(hotel), str(text["what"]),
                           hotel_code=hotel, items=int(float(text.get("items") or 0)), state=part_items(body),
                           creates=text.get("creates"), idempotent=req.notif_type != NEW, source=req,
                           extra={"hotel_code": hotel, "notif_type": req.notif_type, "inv_code": req.inv_code,
                                  "room_id": req.room_id, "room_name": req.room_name, "parts": req.parts,
                                  "source_rows": text.get("source_rows") or ""}))
    return out


def unchanged(planned: Sequence[Planned], accepted: Mapping[str, str]) -> tuple[list[Planned], list[Planned]]:
    """``planned`` split into what to send and what the platform already has whole (every part a request
    carries is the journal's last accepted content of that part)."""
    send: list[Planned] = []
    same: list[Planned] = []
    for p in planned:
        whole = bool(p.state) and not p.creates and all(accepted.get(k) == v for k, v in p.state)
        (same if whole else send).append(p)
    return send, same


class RoomsKind(Kind):
    """Room types in the send driver: the InvCode a New got, read back when its answer is unclear."""

    info = ROOMS

    def __init__(self, read: Reader | None = None, seen: set[tuple[int, str]] | None = None) -> None:
        self.read = read
        self.seen = seen  # the room types there before this push (None: read them before settling a create)

    def answer(self, planned: Planned, result: Result, sends: int, ruids: Sequence[str]) -> Answer:
        req = planned.source
        if req.notif_type != NEW:
            return super().answer(planned, result, sends, ruids)
        if result.ok:
            refs = parse_cross_refs(result.body)
            if refs:
                if self.seen is not None:  # a New of this push is not taken for another one read back later
                    self.seen.add((req.hotel_code, refs[0].response_inv_code))
                return Answer("success", made=refs[0].response_inv_code)
            return Answer("success", unclear=True, note="no InventoryCrossRef in the answer")
        answer = super().answer(planned, result, sends, ruids)
        if result.outcome.value == "failed" and not result.fatal:
            answer.unclear = True
        return answer

    def accept(self, planned: Planned, result: Result, answer: Answer) -> list[tuple[str, str]] | None:
        return part_items(planned.body, answer.made)

    def resolve(self, client: Any, planned: Planned, *, sent_now: bool = False) -> Resolution:
        """The InvCode of the room type a New created, found among the room types that were not there
        before this push (``sent_now``; for a New of an earlier run, among all): by RoomID when the read
        carries RoomIDs, else by name (the platform's read has no RoomID)."""
        if self.read is None:
            return Resolution()
        req = planned.source
        try:
            state = self.read(client, req.hotel_code)
        except Exception:  # noqa: BLE001 - a read that fails settles nothing: the create stays unclear
            return Resolution()
        seen = (self.seen or set()) if sent_now else set()
        here = state.rooms[[(req.hotel_code, str(i)) not in seen for i in state.rooms["inv_code"]]]
        if req.room_id is not None and here["room_id"].notna().any():
            hit = here[here["room_id"].astype("string") == str(req.room_id)]
        elif req.room_name is not None:
            hit = here[here["room_name"].astype("string").str.casefold().str.strip()
                       == req.room_name.casefold().strip()]
        else:
            return Resolution()
        if len(hit) == 1:
            return Resolution(str(hit["inv_code"].iloc[0]), True)
        return Resolution(None, len(hit) == 0, "the property was read back and the room type is not there, so it was "
                                               "not created; push again to create it" if len(hit) == 0 else "")

    def unclear_text(self, planned: Planned, ruid: str | None) -> str:
        req = planned.source
        return (f"unclear: an earlier New of room type `{req.room_name or req.room_id}` (property {req.hotel_code}) "
                f"got no clear answer{f' (ruid {ruid})' if ruid else ''} and the property's read cannot tell whether "
                "it was made; it is not created again. Check the property's room types and put the InvCode on the row")


__all__ = ["OPERATION", "RESULT_COLUMNS", "ROOMS", "RoomRequest", "RoomsKind",
           "folder_planned", "part_items", "planned_rooms", "room_ref", "unchanged"]
