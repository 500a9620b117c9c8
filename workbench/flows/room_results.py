"""What a room-type push reports, from the driver's run: one row per room type (``results``), the
room types created (RoomID -> InvCode), one line per spreadsheet row; and the rows each room type
carries, and the RoomIDs a killed push created that its mapping file could not record."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from loaders.rooms import room_keys
from workbench.writers import ROOMS, Sent, notice_message, requests_frame, room_ref
from workbench.writers import ROOMS_RESULT_COLUMNS as RESULT_COLUMNS

if TYPE_CHECKING:
    from workbench.flows.rooms import RoomsCheck

EXTRA_COLUMNS = ["http_status", "attempts", "codes", "error", "source_rows"]


def with_journal_mapping(mapping: pd.DataFrame | None, unfinished: pd.DataFrame) -> pd.DataFrame | None:
    """``mapping`` (RoomID -> InvCode of earlier pushes) with the room types a push that did not finish
    created (``Journal.created_unfinished``: its mapping file was never written)."""
    rows = []
    for ref, inv in zip(unfinished["ref"], unfinished["created_id"], strict=True):
        hotel, _, room = str(ref).partition("/")
        if room and not room.startswith("name:"):
            rows.append({"hotel_code": hotel, "room_id": room, "room_name": None, "inv_code": str(inv),
                         "how": "created by a push that did not finish (journal)", "ruid": None})
    if not rows:
        return mapping
    extra = pd.DataFrame(rows)
    return extra if mapping is None else pd.concat([mapping, extra], ignore_index=True)


def room_rows(check: RoomsCheck) -> dict[tuple[int, str], pd.DataFrame]:
    """The spreadsheet rows (Rooms, SubRooms, Amenities) of each room type, by (property, InvCode), or by
    (property, reference) for a room type to create."""
    rooms = check.rooms.assign(room_key=room_keys(check.rooms))
    frames = [rooms]
    for f in (check.subrooms, check.amenities):
        if len(f):
            frames.append(f.assign(room_key=room_keys(check.rooms, f)))
    names = dict(zip(rooms["room_key"], rooms["room_name"], strict=True))
    out: dict[tuple[int, str], list[pd.DataFrame]] = {}
    for frame in frames:
        for (key, hotel, inv), rows in frame.groupby(["room_key", "hotel_code", "inv_code"], dropna=False, sort=False):
            if pd.isna(hotel):
                continue
            rid = rows["room_id"].dropna()
            label = str(inv) if not pd.isna(inv) else room_ref(int(hotel), str(rid.iloc[0]) if len(rid) else None,
                                                               names.get(key))
            out.setdefault((int(hotel), label), []).append(rows[["source", "sheet", "row"]])
    return {k: pd.concat(v, ignore_index=True) for k, v in out.items()}


def sent_results(sent: Sent) -> tuple[pd.DataFrame, list[dict]]:
    """``results`` (one row per room type the run sent or held back) and the room types it created."""
    frame = requests_frame(sent).set_index("request_id")
    rows, created = [], []
    fatal = next((r.error or r.summary() for r in sent.results.values() if r.fatal), None)
    for rid, p in sent.planned.items():
        r, req = frame.loc[rid], p.source
        made = r["made"] if isinstance(r["made"], str) else None
        notices = "; ".join(notice_message(n) for n in [*r["errors"], *r["warnings"]])
        message = next((m for m in (r["note"], notices, r["error"]) if isinstance(m, str) and m), "")
        outcome = str(r["outcome"])
        if outcome == "not sent" and fatal:
            outcome, message = "failed", f"not sent: an earlier request failed in a way every request would ({fatal})"
        rows.append({"hotel_code": req.hotel_code, "notif_type": req.notif_type, "inv_code": made or req.inv_code,
                     "room_id": req.room_id, "room_name": req.room_name, "parts": req.parts, "outcome": outcome,
                     "message": message, "ruid": r["ruid"], "http_status": r["http_status"],
                     "attempts": r["attempts"], "codes": r["codes"], "error": r["error"] or "",
                     "source_rows": r["source_rows"] or ""})
        if made and outcome == "success":
            how = "confirmed by reading back" if "reading the property back" in message else "created"
            created.append({"hotel_code": req.hotel_code, "room_id": req.room_id, "room_name": req.room_name,
                            "inv_code": made, "how": how, "ruid": r["ruid"]})
    for h in sent.held:
        req = h.planned.source
        rows.append({"hotel_code": req.hotel_code, "notif_type": req.notif_type, "inv_code": h.made or req.inv_code,
                     "room_id": req.room_id, "room_name": req.room_name, "parts": req.parts, "outcome": h.outcome,
                     "message": h.message, "ruid": None, "http_status": None, "attempts": 0, "codes": "",
                     "error": "", "source_rows": ""})
        if h.made:
            created.append({"hotel_code": req.hotel_code, "room_id": req.room_id, "room_name": req.room_name,
                            "inv_code": h.made, "how": "created earlier (journal)", "ruid": None})
    results = pd.DataFrame(rows, columns=[*RESULT_COLUMNS, *EXTRA_COLUMNS])
    return results.astype({"http_status": "Int64", "attempts": "Int64"}), created


def request_lines(sent: Sent, results: pd.DataFrame) -> pd.DataFrame:
    """One line per spreadsheet row of each room type sent: its room type's outcome (an error when not
    applied, a warning when applied with warnings)."""
    lines = []
    for n, (rid, p) in enumerate(sent.planned.items()):
        if p.rows is None or n >= len(results):
            continue
        res = results.iloc[n]
        ok = res["outcome"] == "success"
        warned = ok and bool(res["message"]) and "created" not in str(res["message"])
        for src, sheet, row in p.rows[["source", "sheet", "row"]].itertuples(index=False, name=None):
            lines.append({"source": src, "sheet": sheet, "row": row, "column": "", "request_id": rid,
                          "hotel_code": res["hotel_code"], "inv_code": res["inv_code"], "room_name": res["room_name"],
                          "outcome": res["outcome"], "severity": "ok" if ok and not warned else
                          "warning" if ok else "error", "codes": res["codes"],
                          "message": "" if ok and not warned else res["message"], "ruid": res["ruid"]})
    return pd.DataFrame(lines, columns=ROOMS.row_columns)
