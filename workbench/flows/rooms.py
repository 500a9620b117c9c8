"""Room types from workbooks to the platform and back: check, fetch, plan, push.

>>> from workbench import check_rooms, fetch_rooms, preview_rooms, push_rooms
>>> check = check_rooms("data/samples/rooms.xlsx")            # load + the spec's E1 rules
>>> current = fetch_rooms(settings, [1000001])                # OTA_HotelDescriptiveInfo -> frames
>>> plan = preview_rooms(check, settings)                     # merged with the platform: plan.diff
>>> result = push_rooms(check, settings, mapping="out/room_mapping.csv", workbook_copy="out/rooms.xlsx")

A room type to create is never sent twice blindly: before creating, the property is read and a
room type already there is taken as created (its RoomID in the mapping of earlier pushes; the
same RoomID when the read carries RoomIDs; else, as the platform's read has no RoomID, the same
name); after an ambiguous failure (timeout, dropped connection, 5xx) the property is read back and
a room type that was not there before is matched the same way.
OTA_HotelInvNotif is deprecated for the Home provider type: a warning until 2026-12-31, refused
from that day on (``Settings.provider_type``).
"""

from __future__ import annotations

import datetime as dt
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import pandas as pd

from expectations import validate_rooms
from loaders import read_rooms
from workbench.config import Settings
from workbench.display import OUTCOME_TONES, Summary, Table
from workbench.errors import BlockedByErrors, OperationSunset, PlatformReadError
from workbench.flows.checked import IssuesView
from workbench.flows.room_files import (
    MAPPING_COLUMNS,
    PathLike,
    all_issues,
    dry_run,
    fill_inv_codes,
    read_mapping,
    rooms_workbook_frames,
    write_mapping,
    write_rooms_workbook,
)
from workbench.ota.descriptive_info import PlatformRooms
from workbench.ota.inv_notif import NEW, parse_cross_refs
from workbench.platform.rooms import fetch_rooms, open_client, read_rooms_of
from workbench.transport.operations import deprecation_notice
from workbench.writers.overlay import PlannedRequest, RoomsPlan, plan_rooms

PUSH_ROWS = 10  # requests a push's summary lists
RESULT_COLUMNS = ["hotel_code", "notif_type", "inv_code", "room_id", "room_name", "parts", "outcome", "message", "ruid"]


class DeprecatedOperationWarning(UserWarning):
    """OTA_HotelInvNotif is deprecated for the Home provider type (sunset 2026-12-31)."""


def deprecation(settings: Settings, today: dt.date | None = None, *, now: dt.datetime | None = None) -> str | None:
    """The deprecation notice for this provider type, or None; raises :class:`OperationSunset` from the
    sunset on. The day is ``today``, else today in CET (:func:`workbench.transport.operations.cet_today`)."""
    return deprecation_notice("OTA_HotelInvNotif", settings.provider_type, today, now=now)


# --- checking a workbook ------------------------------------------------------------------------------

@dataclass(repr=False)
class RoomsCheck(IssuesView):
    """A loaded and validated room-type workbook."""

    rooms: pd.DataFrame
    subrooms: pd.DataFrame
    amenities: pd.DataFrame
    issues: pd.DataFrame
    files: list[Path] = field(default_factory=list)
    title: ClassVar[str] = "Rooms check"

    def facts(self) -> list[tuple[str, str]]:
        return [(f"{len(self.rooms):,}", "room types"), (f"{len(self.subrooms):,}", "sub-rooms"),
                (f"{len(self.amenities):,}", "amenities"),
                (", ".join(p.name for p in self.files) or "nothing", "read:")]

    @property
    def hotels(self) -> list[int]:
        codes = pd.concat([f["hotel_code"] for f in (self.rooms, self.subrooms, self.amenities)]).dropna()
        return sorted({int(h) for h in codes})



def check_rooms(files: PathLike | Iterable[PathLike], *, sheet: str | Sequence[str] | None = None,
                encoding: str | None = None, header_row: int | None = None) -> RoomsCheck:
    """Load Rooms / SubRooms / Amenities sheets and check them against the spec's E1 rules (``encoding``
    and ``header_row``: see :func:`loaders.read_rooms`)."""
    paths = [Path(files)] if isinstance(files, (str, Path)) else [Path(p) for p in files]
    loaded = read_rooms(paths, sheet=sheet, encoding=encoding, header_row=header_row)
    issues = validate_rooms(loaded.rooms, loaded.subrooms, loaded.amenities, load_issues=loaded.issues)
    return RoomsCheck(loaded.rooms, loaded.subrooms, loaded.amenities, issues, paths)


def preview_rooms(check: RoomsCheck, settings: Settings | None = None, *, platform: PlatformRooms | None = None,
                  client: object | None = None, mapping: PathLike | None = None) -> RoomsPlan:
    """What a push would send: the platform's state (read now, unless given) merged with the sheet.
    ``plan.diff`` shows each fact that changes, ``plan.parts`` each part replaced (before -> after),
    ``plan.issues`` what keeps a room from being sent."""
    if platform is None and settings is not None:
        platform = fetch_rooms(settings, check.hotels, client=client)
    return plan_rooms(check.rooms, check.subrooms, check.amenities, platform, mapping=read_mapping(mapping))


# --- pushing ------------------------------------------------------------------------------------------

@dataclass(repr=False)
class RoomsPushResult:
    plan: RoomsPlan
    results: pd.DataFrame   # one row per request: outcome, InvCode, message, ruid
    mapping: pd.DataFrame   # RoomID -> InvCode of the room types created (or found created)
    notice: str | None = None

    def _repr_html_(self) -> str:
        counts = self.results["outcome"].value_counts().to_dict()
        bad = len(self.results) - counts.get("success", 0)
        facts = [(f"{n:,}", str(k)) for k, n in counts.items()] + [(f"{len(self.mapping):,}", "room types mapped")]
        # what went wrong first: a summary lists the requests that need attention before the rest
        order = (self.results["outcome"] == "success").to_numpy().argsort(kind="stable")
        shown = self.results.iloc[order].head(PUSH_ROWS)
        cols = ["hotel_code", "notif_type", "inv_code", "room_id", "room_name", "outcome", "message", "ruid"]
        note = (f"{len(shown)} of {len(self.results):,} requests shown; all of them: `.results`"
                if len(shown) < len(self.results) else "")
        tables = [Table("Requests", shown[cols], note=note, wide=("message",), tone_column="outcome",
                        tones=OUTCOME_TONES)] if len(shown) else []
        if len(self.mapping):
            tables.append(Table("Room types created (RoomID -> InvCode)", self.mapping.head(PUSH_ROWS),
                                note="all of them: `.mapping`" if len(self.mapping) > PUSH_ROWS else ""))
        if self.notice:
            tables.insert(0, Table(self.notice, pd.DataFrame()))
        verdict = ("nothing to send" if self.results.empty else
                   "every request applied" if bad == 0 else f"{bad:,} request{'s' if bad != 1 else ''} not applied")
        tone = "ok" if bad == 0 else "error"
        return Summary("Rooms push", verdict, tone, facts, tables).html()

    def __repr__(self) -> str:
        return f"<RoomsPushResult: {self.summary()}>"

    @property
    def ok(self) -> bool:
        return bool((self.results["outcome"] == "success").all())

    def summary(self) -> str:
        counts = self.results["outcome"].value_counts().to_dict()
        text = ", ".join(f"{n} {k}" for k, n in counts.items()) or "nothing to send"
        return f"{len(self.results)} request(s): {text}; {len(self.mapping)} room type(s) mapped"


def push_rooms(check: RoomsCheck, settings: Settings, *, mapping: PathLike | None = None,
               workbook_copy: PathLike | None = None, today: dt.date | None = None,
               client: object | None = None) -> RoomsPushResult:
    """Create and overlay the room types of ``check`` (see the module docstring)."""
    notice = deprecation(settings, today)
    if notice:
        warnings.warn(notice, DeprecatedOperationWarning, stacklevel=2)
    if not check.ok:
        raise BlockedByErrors(f"{len(check.errors)} error(s) in the workbook block the push: fix them first "
                              "(`workbench validate rooms`)", check.errors)
    c, own = open_client(settings, client)
    try:
        platform = fetch_rooms(settings, check.hotels, client=c)
        plan = plan_rooms(check.rooms, check.subrooms, check.amenities, platform, mapping=read_mapping(mapping))
        if not plan.ok:
            errors = plan.issues[plan.issues["severity"] == "error"]
            raise BlockedByErrors("the workbook does not fit the platform's current state: "
                                  + "; ".join(errors["message"].head(3)), plan.issues)
        rows, created = [], [_mapped(m, m["how"], None) for m in plan.matched.to_dict("records")]
        seen = {(int(h), str(i)) for h, i in zip(platform.rooms["hotel_code"], platform.rooms["inv_code"],
                                                 strict=True)}
        for req in plan.requests:
            row, made = _send(c, req, seen)
            rows.append(row)
            if made:
                created.append(made)
                seen.add((req.hotel_code, str(made["inv_code"])))
    finally:
        if own:
            c.close()
    result = RoomsPushResult(plan, pd.DataFrame(rows, columns=RESULT_COLUMNS),
                             pd.DataFrame(created, columns=MAPPING_COLUMNS), notice)
    if mapping is not None:
        write_mapping(result.mapping, mapping)
    if workbook_copy is not None:
        fill_inv_codes(check, result.mapping, workbook_copy)
    return result


def _mapped(m: dict, how: str, ruid: str | None) -> dict:
    return {"hotel_code": m["hotel_code"], "room_id": m.get("room_id"), "room_name": m.get("room_name"),
            "inv_code": m["inv_code"], "how": how, "ruid": ruid}


def _send(client, req: PlannedRequest, seen: set[tuple[int, str]]) -> tuple[dict, dict | None]:
    """Send one request; a New after an ambiguous failure is checked by reading the property back
    (``seen``: the room types there before, which the read-back does not count)."""
    result = client.send("OTA_HotelInvNotif", req.body, context=req.room_id or req.inv_code,
                         idempotent=req.notif_type != NEW)  # an Overlay sent twice has the same effect
    row = {"hotel_code": req.hotel_code, "notif_type": req.notif_type, "inv_code": req.inv_code,
           "room_id": req.room_id, "room_name": req.room_name, "parts": req.parts, "outcome": result.outcome.value,
           "message": "; ".join(n.message for n in (*result.errors, *result.warnings)) or (result.error or ""),
           "ruid": result.ruid}
    if req.notif_type != NEW:
        return row, None
    if result.ok:
        refs = parse_cross_refs(result.body)
        if refs:
            row["inv_code"] = refs[0].response_inv_code
            return row, _mapped({"hotel_code": req.hotel_code, "room_id": req.room_id, "room_name": req.room_name,
                                 "inv_code": refs[0].response_inv_code}, "created", result.ruid)
        row["message"] = (row["message"] + "; " if row["message"] else "") + "no InventoryCrossRef in the answer"
    if result.ok or result.maybe_applied or (result.outcome.value == "failed" and not result.fatal):
        found = _read_back(client, req, seen)
        if found is not None:
            row.update(outcome="success", inv_code=found,
                       message=f"created (confirmed by reading the property back after: {result.error or 'no id'})")
            return row, _mapped({"hotel_code": req.hotel_code, "room_id": req.room_id, "room_name": req.room_name,
                                 "inv_code": found}, "confirmed by reading back", result.ruid)
        if not result.ok:
            row["message"] = (f"{result.error}: the property was read back and the room type is not there, so it "
                              "was not created; push again to create it")
    return row, None


def _read_back(client, req: PlannedRequest, seen: set[tuple[int, str]]) -> str | None:
    """The InvCode of the room type a New created, found among the room types that were not there
    before: by RoomID when the read carries RoomIDs, else by name (the platform's read has no RoomID)."""
    try:
        state = read_rooms_of(client, req.hotel_code)
    except PlatformReadError:
        return None
    here = state.rooms[[(req.hotel_code, str(i)) not in seen for i in state.rooms["inv_code"]]]
    if req.room_id is not None and here["room_id"].notna().any():
        hit = here[here["room_id"].astype("string") == str(req.room_id)]
    elif req.room_name is not None:
        hit = here[here["room_name"].astype("string").str.casefold().str.strip() == req.room_name.casefold().strip()]
    else:
        return None
    return str(hit["inv_code"].iloc[0]) if len(hit) == 1 else None


__all__ = ["BlockedByErrors", "DeprecatedOperationWarning", "MAPPING_COLUMNS", "OperationSunset", "PlatformReadError",
           "RESULT_COLUMNS", "RoomsCheck", "RoomsPushResult", "all_issues", "check_rooms", "deprecation", "dry_run",
           "fetch_rooms", "fill_inv_codes", "preview_rooms", "push_rooms", "read_mapping", "rooms_workbook_frames",
           "write_mapping", "write_rooms_workbook"]
