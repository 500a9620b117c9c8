"""What earlier pushes sent and the platform accepted, as the room facts the platform's read lacks.

The published ``OTA_HotelDescriptiveInfo`` carries no RoomID, size, number of units nor sub-rooms
(``PlatformRooms.unknown``), so a part holding them cannot be compared with the read: pushing a new
apartment's workbook a second time would either re-send its sub-rooms or refuse them. What this
workbench sent for the room type, once the platform accepted it, is the best knowledge of those
facts: :func:`sent_rooms` turns the accepted requests (the journal keeps them) into a
:class:`PlatformRooms` of those facts only, and :func:`with_sent` fills a read's unknown facts from
it (a fact the read carries always wins), so ``plan_rooms(..., sent=...)`` sends a part only when
it changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from loaders.schemas import AMENITIES_COLUMNS, ROOMS_COLUMNS, SUBROOMS_COLUMNS
from workbench.ota import (
    FACTS,
    NEW,
    ROOM_PART,
    SUBROOMS_FACT,
    UNKNOWN_COLUMNS,
    PlatformRooms,
    SubRoom,
    int_or_none,
    parse_inv_notif_request,
)

#: the Room part's attributes the read lacks, as ``rooms`` columns (RoomType is in the read)
_ROOM_ATTRS = {"RoomID": "room_id", "SizeMeasurement": "size_measurement",
               "SizeMeasurementUnit": "size_measurement_unit", "NonSmoking": "non_smoking", "Quantity": "quantity"}
_INTEGERS = {"size_measurement", "non_smoking", "quantity"}


@dataclass(frozen=True)
class AcceptedRoomRequest:
    """One ``OTA_HotelInvNotifRQ`` the platform accepted, and the room type it was for (for a ``New``, the
    InvCode the answer gave)."""

    hotel_code: int
    inv_code: str
    body: bytes


@dataclass
class _Room:
    room: dict[str, object] | None = None          # the Room part last sent (None: never sent)
    subrooms: tuple[SubRoom, ...] | None = None    # the SubRooms part last sent (None: never sent)


def sent_rooms(accepted: Iterable[AcceptedRoomRequest]) -> PlatformRooms:
    """The Room part and the sub-rooms (with their beds) last sent for each room type, oldest request first;
    every other fact is unknown. A part replaces the one sent before it (spec E1 rule 1); an Overlay's Room
    without RoomType keeps the type."""
    state: dict[tuple[int, str], _Room] = {}
    for req in accepted:
        _, messages = parse_inv_notif_request(req.body)
        for msg in messages:
            if msg.notif_type != NEW and msg.inv_code is not None and str(msg.inv_code) != str(req.inv_code):
                continue
            room = state.setdefault((int(req.hotel_code), str(req.inv_code)), _Room())
            if msg.room is not None:
                room.room = {c: _value(c, msg.room.get(a)) for a, c in _ROOM_ATTRS.items()}
            if msg.subrooms is not None:
                room.subrooms = msg.subrooms
    rooms, subrooms, beds, unknown = [], [], [], []
    for (hotel, inv), r in state.items():
        rooms.append({"hotel_code": hotel, "inv_code": inv, **(r.room or {})})
        known = set(_ROOM_ATTRS.values()) if r.room is not None else set()
        if r.subrooms is not None:
            known.add(SUBROOMS_FACT)
            counts: dict[str, int] = {}
            for s in r.subrooms:
                counts[s.room_type] = counts.get(s.room_type, 0) + 1
                key = f"{s.room_type} {counts[s.room_type]}"  # as the read names them
                subrooms.append({"hotel_code": hotel, "inv_code": inv, "subroom": key, "subroom_type": s.room_type,
                                 "max_guests": s.max_guests, "number": s.number,
                                 "private_bathroom": s.private_bathroom})
                beds += [{"hotel_code": hotel, "inv_code": inv, "subroom": key, "amenity_code": a.code,
                          "value": a.value, "configuration": a.configuration} for a in s.amenities if a.value != 0]
        unknown += [{"hotel_code": hotel, "inv_code": inv, "fact": f} for f in FACTS if f not in known]
    return PlatformRooms(_frame(rooms, ROOMS_COLUMNS), _frame(subrooms, SUBROOMS_COLUMNS),
                         _frame(beds, AMENITIES_COLUMNS), _frame(unknown, UNKNOWN_COLUMNS))


def _value(column: str, text: str | None) -> object:
    return int_or_none(text) if column in _INTEGERS else text


def _frame(rows: list[dict], columns: dict[str, str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(columns)).astype(columns)


def with_sent(read: PlatformRooms, sent: PlatformRooms) -> PlatformRooms:
    """The read, its unknown facts filled from ``sent`` where ``sent`` knows them (for room types the read
    lists; a fact the read carries is kept)."""
    if read.unknown.empty or sent.rooms.empty:
        return read
    rooms, subrooms, amenities = read.rooms.copy(), read.subrooms, read.amenities
    keep = pd.Series(True, index=read.unknown.index)
    sent_unknown = set(zip(sent.unknown["hotel_code"].astype(int), sent.unknown["inv_code"].astype(str),
                           sent.unknown["fact"].astype(str), strict=True))
    sent_keys = set(zip(sent.rooms["hotel_code"].astype(int), sent.rooms["inv_code"].astype(str), strict=True))
    added_subs, added_beds = [subrooms], [amenities]
    for i, (hotel, inv, fact) in enumerate(zip(read.unknown["hotel_code"].astype(int),
                                               read.unknown["inv_code"].astype(str),
                                               read.unknown["fact"].astype(str), strict=True)):
        if (hotel, inv) not in sent_keys or (hotel, inv, fact) in sent_unknown:
            continue
        at = (rooms["hotel_code"] == hotel) & (rooms["inv_code"].astype("string") == inv)
        if fact == SUBROOMS_FACT:
            mine_s = (sent.subrooms["hotel_code"] == hotel) & (sent.subrooms["inv_code"].astype("string") == inv)
            mine_b = (sent.amenities["hotel_code"] == hotel) & (sent.amenities["inv_code"].astype("string") == inv)
            added_subs.append(sent.subrooms[mine_s])
            added_beds.append(sent.amenities[mine_b])
        elif fact in ROOM_PART:
            value = sent.rooms.loc[(sent.rooms["hotel_code"] == hotel)
                                   & (sent.rooms["inv_code"].astype("string") == inv), fact].iloc[0]
            rooms.loc[at, fact] = value
        else:
            continue
        keep.iloc[i] = False
    return PlatformRooms(rooms.astype(ROOMS_COLUMNS), pd.concat(added_subs, ignore_index=True).astype(SUBROOMS_COLUMNS),
                         pd.concat(added_beds, ignore_index=True).astype(AMENITIES_COLUMNS),
                         read.unknown[keep.to_numpy()].reset_index(drop=True))


__all__ = ["AcceptedRoomRequest", "sent_rooms", "with_sent"]
