"""Room types through the Rooms and Facilities APIs (issue 25): the same rooms workbook, checked, planned against
what the platform holds, pushed on the one push path, and read back.

>>> from workbench import check_rooms_modular, fetch_rooms_modular, plan_rooms_modular, push_rooms_modular
>>> check = check_rooms_modular("rooms.xlsx")                    # load + the rules that hold for units
>>> current = fetch_rooms_modular(settings, [1000001])           # GET units, room facilities, bathrooms
>>> plan = plan_rooms_modular(check, settings)                   # the read merged with the edits: plan.changes
>>> result = push_rooms_modular(check, settings, mapping="out/room_mapping.csv")

Every update is built from the read merged with the analyst's edits (``workbench.modular.rooms_merge``): a cell
equal to the read sends nothing. Room types without InvCode are created in bulk, the units of one property a
request with a ``correlation_id`` each (the RoomID, else ``row-N``); each unit id is mapped to its RoomID in the
mapping file and the journal, and a creation whose answer was lost is found by reading the units back, never made
twice. A unit created by the push gets its room facilities and bathrooms in a second run, built from its read.
InvCodes and unit ids are one id space: an InvCode of the InvNotif path is the unit id, and the RoomID -> InvCode
mapping file carries over as it is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from expectations import validate_rooms_modular
from loaders import read_rooms
from loaders.issues import combine
from loaders.rooms import room_keys
from workbench.config import Settings
from workbench.display import Summary, Table
from workbench.errors import BlockedByErrors
from workbench.flows.room_files import MAPPING_COLUMNS, PathLike, read_mapping
from workbench.flows.rooms import RoomsCheck
from workbench.modular.building import Request
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms import build_modular_rooms
from workbench.modular.rooms_merge import CHANGE_COLUMNS, update_units
from workbench.platform import (
    BATHROOMS,
    DEFAULT_META_CACHE,
    FACILITIES,
    ModularRoomsRead,
    fetch_units,
    open_client,
    read_meta,
)
from workbench.transport.operations import cet_today
from workbench.wording import agree, count, fact
from workbench.writers import (
    BULK,
    Journal,
    Planned,
    UnitsKind,
    bulk_units,
    journal_units,
    made_units,
    planned_units,
    target_of,
    unsettled_bulks,
)

__all__ = ["API_CHOICES", "FOUND", "HOME_SUNSET", "Settled", "ModularRoomsPlan", "apply_mapping", "check_rooms_modular", "default_api",
           "fetch_rooms_modular", "named_units", "plan_from_read", "plan_rooms_modular", "settle_unclear"]

API_CHOICES = ("ota", "modular")
#: how a unit an earlier push created, its answer lost, was found: by reading the units back
FOUND = "created by an earlier push (its answer was lost): found by reading the units back"
#: the day OTA_HotelInvNotif and OTA_HotelDescriptiveInfo end for the Home provider type (CET)
HOME_SUNSET = dt.date(2026, 12, 31)


def default_api(settings: Settings, today: dt.date | None = None, *, now: dt.datetime | None = None) -> str:
    """``modular`` for a Home provider (``WORKBENCH_PROVIDER_TYPE``) from 2026-12-31 in CET, ``ota`` otherwise. The
    day is ``today``, else the CET day of ``now`` (default: this moment), never the machine's local date."""
    day = today if today is not None else cet_today(now)
    home = (settings.provider_type or "").strip().casefold() == "home"
    return "modular" if home and day >= HOME_SUNSET else "ota"


def check_rooms_modular(files: PathLike | Iterable[PathLike], *, sheet: str | Sequence[str] | None = None,
                        encoding: str | None = None, header_row: int | None = None) -> RoomsCheck:
    """Load Rooms / SubRooms / Amenities sheets and check them for the Rooms and Facilities APIs."""
    paths = [Path(files)] if isinstance(files, (str, Path)) else [Path(p) for p in files]
    loaded = read_rooms(paths, sheet=sheet, encoding=encoding, header_row=header_row)
    issues = validate_rooms_modular(loaded.rooms, loaded.subrooms, loaded.amenities, load_issues=loaded.issues)
    return RoomsCheck(loaded.rooms, loaded.subrooms, loaded.amenities, issues, paths)


def fetch_rooms_modular(settings: Settings, hotels: Iterable[int], *, client: Any | None = None,
                        meta: ModularMeta | None = None, meta_cache: PathLike | None = DEFAULT_META_CACHE
                        ) -> ModularRoomsRead:
    """Each property's units, with their room facilities and bathrooms, and the meta (``meta_cache``: where the
    meta answers are kept a day; ``workbench.flows.rooms_modular_files.modular_rooms_frames`` turns the read into
    the three sheets)."""
    return fetch_units(settings, hotels, client=client, meta=meta, meta_cache=meta_cache)


# --- the RoomID -> InvCode mapping ---------------------------------------------------------------------------

def apply_mapping(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame,
                  mapping: pd.DataFrame | None) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The frames with the InvCode of every room type the mapping knows filled in (by RoomID, else by name for a
    Rooms row without RoomID), and the mapping rows used."""
    if mapping is None or mapping.empty:
        return rooms, subrooms, amenities, pd.DataFrame(columns=MAPPING_COLUMNS)
    by_id = {(str(h), str(r)): str(i) for h, r, i in zip(mapping["hotel_code"], mapping["room_id"],
                                                          mapping["inv_code"], strict=True) if isinstance(r, str) and r}
    by_name = {(str(h), str(n).casefold().strip()): str(i) for h, n, i in zip(
        mapping["hotel_code"], mapping["room_name"], mapping["inv_code"], strict=True) if isinstance(n, str) and n}
    used: list[dict] = []

    def fill(frame: pd.DataFrame, names: bool) -> pd.DataFrame:
        if frame.empty:
            return frame
        out = frame.copy()
        inv = out["inv_code"].astype("object")
        for i, (h, inv_code, rid) in enumerate(zip(out["hotel_code"], out["inv_code"], out["room_id"], strict=True)):
            if not pd.isna(inv_code) or pd.isna(h):
                continue
            hit = by_id.get((str(h), str(rid))) if not pd.isna(rid) else None
            name = out["room_name"].iloc[i] if names else None
            if hit is None and names and pd.isna(rid) and isinstance(name, str):
                hit = by_name.get((str(h), name.casefold().strip()))
            if hit is not None:
                inv.iloc[i] = hit
                if names:
                    used.append({"hotel_code": h, "room_id": None if pd.isna(rid) else rid,
                                 "room_name": None if pd.isna(name) else name, "inv_code": hit,
                                 "how": "mapping", "ruid": None})
        out["inv_code"] = inv.astype("string")
        return out

    return fill(rooms, True), fill(subrooms, False), fill(amenities, False), pd.DataFrame(used, columns=MAPPING_COLUMNS)


def _mapping(given: pd.DataFrame | None, journal: PathLike | None, target: str | None) -> pd.DataFrame | None:
    """The mapping file's rows, then what the journal says was created on ``target`` (a later row wins)."""
    rows = [] if given is None else given.to_dict("records")
    if journal is not None and target and Path(journal).is_file():
        with Journal(journal) as j:
            rows += journal_units(j, target)
    if not rows:
        return None
    frame = pd.DataFrame(rows, columns=MAPPING_COLUMNS).astype(object)
    return frame.where(frame.notna(), None)


def named_units(check: RoomsCheck, mapping: PathLike | pd.DataFrame | None, journal: PathLike | None,
                target: str) -> set[tuple[int, str]]:
    """``(hotel, unit id)`` of the units the workbook names (its InvCodes), its mapping file and the journal's
    creations: never taken for a unit an earlier creation made when reading back."""
    given = mapping if isinstance(mapping, pd.DataFrame) else read_mapping(mapping)
    known = _mapping(given, journal, target)
    out = {(int(h), str(i)) for f in (check.rooms, check.subrooms, check.amenities)
           for h, i in zip(f["hotel_code"], f["inv_code"], strict=True) if not pd.isna(h) and not pd.isna(i)}
    if known is not None:
        out |= {(int(h), str(i)) for h, i in zip(known["hotel_code"], known["inv_code"], strict=True)
                if h is not None and str(h).isdigit() and i is not None}
    return out


@dataclass(frozen=True)
class Settled:
    """What reading the units back said of earlier creations whose answer was lost: the units found (mapping rows)
    and the creations it could not settle (their room types are not created again)."""

    found: list[dict]
    unclear: list[Planned]


def settle_unclear(journal: PathLike, target: str, kind: UnitsKind, client: Any) -> Settled:
    """Settle the bulk creations of earlier runs whose answer was lost, by reading the units back: found, they are
    created (the journal maps their unit ids); found not made, they may be created again; the rest stay unclear."""
    found: list[dict] = []
    left = []
    with Journal(journal) as j:
        for p in unsettled_bulks(j, target):
            settled = kind.resolve(client, p)
            if settled.made is not None:
                j.record_created(target, p.kind, str(p.creates), settled.made, None)
                names = {str(u.get("correlation_id")): u.get("partner_reference_name") for u in bulk_units(p.body)}
                found += [{"hotel_code": p.hotel_code, "room_id": None if corr.startswith("row-") else corr,
                           "room_name": names.get(corr), "inv_code": unit, "how": FOUND, "ruid": None}
                          for corr, unit in made_units(settled.made).items()]
            elif settled.known:
                j.forget_created(target, p.kind, str(p.creates))
            else:
                left.append(p)
    return Settled(found, left)


# --- planning ------------------------------------------------------------------------------------------------

@dataclass(repr=False)
class ModularRoomsPlan:
    """What a push would send: ``requests`` (``workbench.modular`` requests: units to create in bulk, then the
    parts of units that change), ``changes`` (:data:`~workbench.modular.rooms_merge.CHANGE_COLUMNS`: each item that
    changes, before and after), ``issues`` (what keeps something from being sent), the frames with the mapping
    applied, the ``mapped`` rows and the platform ``read`` it was merged with."""

    requests: list[Request]
    changes: pd.DataFrame
    issues: pd.DataFrame
    rooms: pd.DataFrame
    subrooms: pd.DataFrame
    amenities: pd.DataFrame
    mapped: pd.DataFrame
    read: ModularRoomsRead
    title: ClassVar[str] = "Rooms push plan (Rooms and Facilities APIs)"

    @property
    def ok(self) -> bool:
        return not bool((self.issues["severity"] == "error").any())

    @property
    def planned(self) -> list[Planned]:
        return planned_units(self.requests)

    @property
    def known(self) -> set[tuple[int, str]]:
        """``(hotel, unit id)`` of every unit the workbook names (its InvCodes, mapped ones included)."""
        return {(int(h), str(i)) for f in (self.rooms, self.subrooms, self.amenities)
                for h, i in zip(f["hotel_code"], f["inv_code"], strict=True) if not pd.isna(h) and not pd.isna(i)}

    def summary(self) -> str:
        creates = sum(len(r.payload["units"]) for r in self.requests if r.operation == BULK)
        updates = sum(1 for r in self.requests if r.operation != BULK)
        errors = int((self.issues["severity"] == "error").sum())
        return (f"{count(len(self.requests), 'request')}: {count(creates, 'unit')} to create, "
                f"{count(updates, 'part')} of units to change ({count(len(self.changes), 'change')})"
                + (f"; {count(errors, 'error')} {agree(errors, 'blocks', 'block')} the push" if errors else ""))

    def _repr_html_(self) -> str:
        tables = [Table("Changes (before -> after)", self.changes.head(20)[
            ["hotel_code", "inv_code", "room_name", "part", "item", "before", "after"]])] if len(self.changes) else []
        if len(self.issues):
            tables.append(Table("Issues", self.issues.head(20)[["sheet", "row", "column", "rule", "message"]],
                                wide=("message",), tone_column="severity"))
        return Summary(self.title, self.summary(), "ok" if self.ok else "error",
                       [fact(len(self.requests), "request", "requests")], tables).html()

    def __repr__(self) -> str:
        return f"<ModularRoomsPlan: {self.summary()}>"


def parts_to_read(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame
                  ) -> dict[tuple[int, str], set[str]]:
    """``(hotel, unit id) -> parts`` of the units the workbook names whose room facilities (a non-bed amenity of
    the room) or bathrooms (a Bathroom sub-room) it states: what the merge needs read."""
    from expectations.rooms import bed_types

    out: dict[tuple[int, str], set[str]] = {}
    beds = bed_types()
    for h, inv, sub, code in zip(amenities["hotel_code"], amenities["inv_code"], amenities["subroom"],
                                 amenities["amenity_code"], strict=True):
        if not pd.isna(h) and not pd.isna(inv) and pd.isna(sub) and not pd.isna(code) and int(code) not in beds:
            out.setdefault((int(h), str(inv)), set()).add(FACILITIES)
    for h, inv, kind in zip(subrooms["hotel_code"], subrooms["inv_code"], subrooms["subroom_type"], strict=True):
        if not pd.isna(h) and not pd.isna(inv) and kind == "Bathroom":
            out.setdefault((int(h), str(inv)), set()).add(BATHROOMS)
    return out


def plan_from_read(rooms: pd.DataFrame, subrooms: pd.DataFrame, amenities: pd.DataFrame, read: ModularRoomsRead, *,
                   check_issues: pd.DataFrame | None = None, mapped: pd.DataFrame | None = None,
                   unclear: Sequence[Planned] = ()) -> ModularRoomsPlan:
    """The plan of frames (the mapping applied) against a read (pure: nothing is read or sent)."""
    from workbench.flows.rooms_modular_files import held_issues, new_unit_issues, without_checked

    update = update_units(rooms, subrooms, amenities, read.answers, read.meta, categories=read.categories)
    held = held_issues(rooms, unclear)
    new = rooms[rooms["inv_code"].isna() & ~rooms.index.isin(held.index)]
    built = build_modular_rooms(new, subrooms, amenities, read.meta, categories=read.categories) if len(new) else None
    creates = [r for r in built.requests if r.operation == BULK] if built is not None else []
    parts = [update.issues, held.issues]
    if built is not None:
        parts += [built.issues, new_unit_issues(new, subrooms, amenities, read.meta)]
    issues = without_checked(combine(parts), check_issues)
    changes = pd.concat([_created_changes(creates), update.changes], ignore_index=True) if creates else update.changes
    return ModularRoomsPlan([*creates, *update.requests], changes.reindex(columns=CHANGE_COLUMNS), issues, rooms,
                            subrooms, amenities, mapped if mapped is not None else pd.DataFrame(columns=MAPPING_COLUMNS),
                            read)


def _created_changes(creates: list[Request]) -> pd.DataFrame:
    rows = []
    for r in creates:
        for i, unit in enumerate(r.payload["units"]):
            at = r.cells.cells.get(f"units[{i}]") or r.cells.root
            rows.append({"hotel_code": r.hotel_code, "inv_code": None, "room_name": unit.get("partner_reference_name"),
                         "part": "new unit", "item": f"correlation_id {unit.get('correlation_id')}", "before": None,
                         "after": "created", "source": at.source if at else "", "sheet": at.sheet if at else "",
                         "row": at.row if at else None, "column": at.column if at else ""})
    return pd.DataFrame(rows, columns=CHANGE_COLUMNS)


def plan_rooms_modular(check: RoomsCheck, settings: Settings, *, client: Any | None = None,
                       mapping: PathLike | pd.DataFrame | None = None, journal: PathLike | None = None,
                       meta: ModularMeta | None = None, read: ModularRoomsRead | None = None,
                       unclear: Sequence[Planned] = (), meta_cache: PathLike | None = DEFAULT_META_CACHE
                       ) -> ModularRoomsPlan:
    """What a push would send: the mapping file (and, with ``journal``, what it says was created) applied, the
    units and the parts the workbook states read, merged with the workbook. Nothing is sent."""
    given = mapping if isinstance(mapping, pd.DataFrame) else read_mapping(mapping)
    target = settings.base_url.rstrip("/") if settings.base_url else None
    known = _mapping(given, journal, target)
    rooms, subrooms, amenities, mapped = apply_mapping(check.rooms, check.subrooms, check.amenities, known)
    if read is None:
        read = fetch_units(settings, check.hotels, client=client, parts=parts_to_read(rooms, subrooms, amenities),
                           meta=meta if meta is not None else _meta(settings, client, meta_cache))
    return plan_from_read(rooms, subrooms, amenities, read, check_issues=check.issues, mapped=mapped,
                          unclear=unclear)


def _meta(settings: Settings, client: Any | None, cache: PathLike | None) -> ModularMeta:
    c, own = open_client(settings, client)
    try:
        return read_meta(c, target_of(settings), cache=cache)
    finally:
        if own:
            c.close()


def blocked(plan: ModularRoomsPlan) -> BlockedByErrors:
    """The error a push raises when the plan's issues block it."""
    errors = plan.issues[plan.issues["severity"] == "error"]
    return BlockedByErrors("the workbook does not fit what the platform holds: " + "; ".join(errors["message"].head(3)),
                           plan.issues)


def phase_frames(plan: ModularRoomsPlan, created: Mapping[tuple[int, str], str]
                 ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The plan's frames with the unit ids just created filled in (by RoomID, else by ``row-N``), only the rows of
    those units kept: what the second run merges with their read."""
    rooms = plan.rooms.copy()
    inv = rooms["inv_code"].astype("object")
    for i, (h, rid, row, code) in enumerate(zip(rooms["hotel_code"], rooms["room_id"], rooms["row"],
                                                rooms["inv_code"], strict=True)):
        if pd.isna(code) and not pd.isna(h):
            ref = str(rid) if not pd.isna(rid) else f"row-{row}"
            inv.iloc[i] = created.get((int(h), ref))
    rooms["inv_code"] = inv.astype("string")
    keep_keys = set(room_keys(rooms)[rooms["inv_code"].notna() & plan.rooms["inv_code"].isna()])
    kept_rooms = rooms[room_keys(rooms).isin(keep_keys)]

    def rows_of(frame: pd.DataFrame) -> pd.DataFrame:
        if frame.empty:
            return frame
        keys = room_keys(rooms, frame)
        out = frame[keys.isin(keep_keys)].copy()
        by_key = dict(zip(room_keys(rooms), rooms["inv_code"], strict=True))
        out["inv_code"] = pd.array([by_key.get(k) for k in keys[keys.isin(keep_keys)]], dtype="string")
        return out

    return kept_rooms, rows_of(plan.subrooms), rows_of(plan.amenities)

