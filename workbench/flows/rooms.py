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
from loaders import ISSUE_COLUMNS, read_rooms
from workbench.config import Settings, journal_path
from workbench.display import Summary, Table
from workbench.errors import BlockedByErrors, OperationSunset, PlatformReadError
from workbench.flows.checked import IssuesView, refuse_other_kind
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
from workbench.flows.room_results import request_lines, room_rows, sent_results, with_journal_mapping
from workbench.ota import PlatformRooms
from workbench.platform import fetch_rooms, open_client, read_rooms_of
from workbench.reports.about import describe, row_map
from workbench.transport.operations import deprecation_notice
from workbench.wording import agree, count, fact
from workbench.writers import (
    ROOMS,
    Folder,
    Journal,
    KindInfo,
    PushOutcome,
    RoomsKind,
    RoomsPlan,
    Sent,
    accepted_rooms,
    plan_rooms,
    planned_rooms,
    result_when_stopped,
    send,
    sent_rooms,
    target_of,
    unchanged,
)
from workbench.writers import (
    ROOMS_RESULT_COLUMNS as RESULT_COLUMNS,
)
from workbench.writers import (
    rooms_folder_planned as folder_planned,
)

PUSH_ROWS = 10  # room types a summary lists


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
        return [fact(len(self.rooms), "room type", "room types"), fact(len(self.subrooms), "sub-room", "sub-rooms"),
                fact(len(self.amenities), "amenity", "amenities"),
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
    refuse_other_kind(paths, "rooms")
    loaded = read_rooms(paths, sheet=sheet, encoding=encoding, header_row=header_row)
    issues = validate_rooms(loaded.rooms, loaded.subrooms, loaded.amenities, load_issues=loaded.issues)
    # the report groups by property and room type (the row's InvCode, else its RoomID)
    describe(issues, kind="rooms", rows=row_map(
        (f, f["hotel_code"], f["inv_code"].astype("string").fillna(f["room_id"].astype("string")))
        for f in (loaded.rooms, loaded.subrooms, loaded.amenities)))
    return RoomsCheck(loaded.rooms, loaded.subrooms, loaded.amenities, issues, paths)


def preview_rooms(check: RoomsCheck, settings: Settings | None = None, *, platform: PlatformRooms | None = None,
                  client: object | None = None, mapping: PathLike | None = None,
                  journal: PathLike | None = None) -> RoomsPlan:
    """What a push would send: the platform's state (read now, unless given) merged with the sheet, and what
    the journal says earlier pushes sent for the facts the read lacks. ``plan.diff`` shows each fact that
    changes, ``plan.parts`` each part replaced (before -> after), ``plan.issues`` what keeps a room from
    being sent."""
    if platform is None and settings is not None and settings.base_url:
        platform = fetch_rooms(settings, check.hotels, client=client)
    target = (settings.base_url if settings is not None else "").rstrip("/")
    sent, unfinished = _journalled(journal_path(journal), target)
    return plan_rooms(check.rooms, check.subrooms, check.amenities, platform,
                      mapping=with_journal_mapping(read_mapping(mapping), unfinished), sent=sent)


def _journalled(path: Path, target: str) -> tuple[PlatformRooms | None, pd.DataFrame]:
    """What the journal (read only, if there is one) knows of ``target``'s room types: the facts earlier pushes
    sent that the platform's read lacks, and the room types pushes that did not finish created."""
    none = pd.DataFrame(columns=["ref", "created_id", "ruid"])
    if not target or not path.is_file():
        return None, none
    with Journal(path) as j:
        accepted = accepted_rooms(j.accepted_requests(target, "rooms"))
        unfinished = j.created_unfinished(target, "rooms")
    return (sent_rooms(accepted) if accepted else None), unfinished


# --- pushing ------------------------------------------------------------------------------------------

@dataclass(repr=False)
class RoomsPushResult(PushOutcome):
    """A room-type push: one row per room type in ``results`` (outcome, InvCode, message, ruid), the
    RoomID -> InvCode ``mapping`` of room types created (or found created), the ``plan`` it followed."""

    plan: RoomsPlan
    results: pd.DataFrame   # one row per request: outcome, InvCode, message, ruid
    mapping: pd.DataFrame   # RoomID -> InvCode of the room types created (or found created)
    notice: str | None = None
    lines: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=ROOMS.row_columns))
    files: list[Path] = field(default_factory=list)
    target: str = ""
    unchanged: int = 0      # room types whose every part the platform already has (not sent)
    run_id: int | None = None
    kind: ClassVar[KindInfo] = ROOMS

    @property
    def requests(self) -> pd.DataFrame:
        """One row per room type: its own columns, then the outcome columns of every push."""
        r = self.results.reset_index(drop=True)
        out = r.reindex(columns=[*ROOMS.request_keys, "outcome", "http_status", "codes", "texts", "ruid", "attempts",
                                 "error", "source_rows"])
        out.insert(0, "request_id", range(1, len(r) + 1))
        out["texts"] = r["message"].fillna("") if "message" in r else ""
        text = ["codes", "error", "source_rows"]  # text columns (all-missing ones come back from reindex as float)
        return out.astype({c: object for c in text}).fillna({c: "" for c in text})

    @property
    def rows(self) -> pd.DataFrame:
        return self.lines

    @property
    def ok(self) -> bool:
        return bool((self.results["outcome"] == "success").all())

    def summary(self) -> str:
        counts = self.results["outcome"].value_counts().to_dict()
        text = ", ".join(f"{n:,} {k}" for k, n in counts.items()) or "nothing to send"
        same = f"; {self.unchanged:,} unchanged (not sent)" if self.unchanged else ""
        return f"{count(len(self.results), 'request')}: {text}; {count(len(self.mapping), 'room type')} mapped{same}"

    def headline(self) -> str:
        return f"{self.summary()} (OTA_HotelInvNotif, one request per room type)"

    def facts(self) -> list[tuple[str, str]]:
        return [(f"{len(self.mapping):,}", "room types mapped")]

    def summary_columns(self) -> list[str]:
        return ["hotel_code", "notif_type", "inv_code", "room_id", "room_name", "outcome", "said", "ruid"]

    def notes(self) -> list[str]:
        return [self.notice] if self.notice else []

    def _repr_html_(self) -> str:
        html = super()._repr_html_()
        if not len(self.mapping):
            return html
        table = Table("Room types created (RoomID -> InvCode)", self.mapping.head(PUSH_ROWS),
                      note="all of them: `.mapping`" if len(self.mapping) > PUSH_ROWS else "")
        return html + Summary("", "", "info", [], [table]).html()

    def __repr__(self) -> str:
        return f"<RoomsPushResult: {self.summary()}>"


def push_rooms(check: RoomsCheck, settings: Settings, *, mapping: PathLike | None = None,
               workbook_copy: PathLike | None = None, today: dt.date | None = None,
               client: object | None = None, journal: PathLike | None = None, full: bool = False,
               command: str = "", progress: bool = False, lock_wait: float = 0.0) -> RoomsPushResult:
    """Create and overlay the room types of ``check`` (see the module docstring). Every request goes
    through the journal (``journal``; default ``WORKBENCH_JOURNAL`` or ``.workbench/journal.sqlite``): a
    push killed half way and started again sends only what the platform has not accepted; ``full``
    sends the parts the journal says were accepted unchanged too."""
    notice = deprecation(settings, today)
    if notice:
        warnings.warn(notice, DeprecatedOperationWarning, stacklevel=2)
    if not check.ok:
        raise BlockedByErrors(f"{count(len(check.errors), 'error')} in the workbook "
                              f"{agree(len(check.errors), 'blocks', 'block')} the push: fix them first "
                              "(`workbench validate rooms`)", check.errors)
    target = target_of(settings)
    path = journal_path(journal)
    c, own = open_client(settings, client)
    try:
        platform = fetch_rooms(settings, check.hotels, client=c)
        sent, unfinished = _journalled(path, target)
        plan = plan_rooms(check.rooms, check.subrooms, check.amenities, platform,
                          mapping=with_journal_mapping(read_mapping(mapping), unfinished), sent=None if full else sent)
        if not plan.ok:
            errors = plan.issues[plan.issues["severity"] == "error"]
            raise BlockedByErrors("the workbook does not fit the platform's current state: "
                                  + "; ".join(errors["message"].head(3)), plan.issues)
        requests = plan.requests
        seen = {(int(h), str(i)) for h, i in zip(platform.rooms["hotel_code"], platform.rooms["inv_code"],
                                                 strict=True)}
        kind = RoomsKind(read=read_rooms_of, seen=seen)

        def result_of(done: Sent) -> RoomsPushResult:
            results, created = sent_results(done)
            matched = [_mapped(m, m["how"], None) for m in plan.matched.to_dict("records")]
            return RoomsPushResult(plan, results, pd.DataFrame(matched + created, columns=MAPPING_COLUMNS), notice,
                                   request_lines(done, results), list(check.files), target, 0, done.run_id)

        with result_when_stopped(result_of):
            done = send(kind, planned_rooms(requests, room_rows(check)), settings, journal=path, client=c,
                               command=command, progress=progress, lock_wait=lock_wait)
    finally:
        if own:
            c.close()
    result = result_of(done)
    if mapping is not None:
        write_mapping(result.mapping, mapping)
    if workbook_copy is not None:
        fill_inv_codes(check, result.mapping, workbook_copy)
    return result


def push_rooms_folder(folder: Folder, settings: Settings, *, journal: PathLike | None = None, full: bool = False,
                      mapping: PathLike | None = None, client: object | None = None, command: str = "",
                      progress: bool = False, lock_wait: float = 0.0) -> RoomsPushResult:
    """Send a rooms dry-run folder (``push requests DIR``) through the journal: a room type whose every part
    the platform accepted as the request says is not sent again (unless ``full``); a New already made is
    never sent again; the room types created go into ``mapping`` when given."""
    notice = deprecation(settings)
    target = target_of(settings)
    path = journal_path(journal)
    planned = folder_planned(folder)
    with Journal(path) as j:
        accepted = j.accepted_items(target, "rooms")
    planned, same = (planned, []) if full else unchanged(planned, accepted)
    c, own = open_client(settings, client)
    try:
        hotels = sorted({p.hotel_code for p in planned if p.creates and p.hotel_code})
        before = fetch_rooms(settings, hotels, client=c) if hotels else PlatformRooms.empty()
        seen = {(int(h), str(i)) for h, i in zip(before.rooms["hotel_code"], before.rooms["inv_code"], strict=True)}
        with result_when_stopped(lambda s: _folder_result(s, notice, target, len(same))):
            sent = send(RoomsKind(read=read_rooms_of, seen=seen), planned, settings, journal=path, client=c,
                               command=command, progress=progress, lock_wait=lock_wait)
    finally:
        if own:
            c.close()
    result = _folder_result(sent, notice, target, len(same))
    if mapping is not None and len(result.mapping):
        write_mapping(result.mapping, mapping)
    return result


def _folder_result(sent: Sent, notice: str | None, target: str, unchanged: int) -> RoomsPushResult:
    results, created = sent_results(sent)
    plan = RoomsPlan([], pd.DataFrame(), pd.DataFrame(columns=ISSUE_COLUMNS))
    return RoomsPushResult(plan, results, pd.DataFrame(created, columns=MAPPING_COLUMNS), notice,
                           request_lines(sent, results), [], target, unchanged, sent.run_id)


def _mapped(m: dict, how: str, ruid: str | None) -> dict:
    return {"hotel_code": m["hotel_code"], "room_id": m.get("room_id"), "room_name": m.get("room_name"),
            "inv_code": m["inv_code"], "how": how, "ruid": ruid}


__all__ = ["BlockedByErrors", "DeprecatedOperationWarning", "MAPPING_COLUMNS", "OperationSunset", "PlatformReadError",
           "RESULT_COLUMNS", "RoomsCheck", "RoomsPushResult", "all_issues", "check_rooms", "deprecation", "dry_run",
           "push_rooms_folder",
           "fetch_rooms", "fill_inv_codes", "preview_rooms", "push_rooms", "read_mapping", "rooms_workbook_frames",
           "write_mapping", "write_rooms_workbook"]
