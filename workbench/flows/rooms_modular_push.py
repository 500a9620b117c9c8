"""``push rooms --api modular``: the plan sent on the one push path, and what came of it.

The first run sends the units to create (one bulk request per property and hundred units) and the parts of the
units that change; the second, the room facilities and bathrooms of the units the first created, merged with
their read. Before planning, the bulk creations of earlier runs whose answer was lost are settled by reading the
units back (``settle_unclear``). The result is one :class:`ModularRoomsPushResult` (the outcome model of every
push): a row per request, a line per spreadsheet row, the RoomID -> unit id mapping, and each error the platform
gave on the analyst's cell (``platform_issues``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from loaders.issues import combine, issues_from_records
from workbench.config import Settings, journal_path
from workbench.display import Summary, Table
from workbench.errors import BlockedByErrors
from workbench.flows.room_files import MAPPING_COLUMNS, PathLike, keep_mapping
from workbench.flows.rooms import RoomsCheck
from workbench.flows.rooms_modular import (
    FOUND,
    ModularRoomsPlan,
    Settled,
    blocked,
    named_units,
    parts_to_read,
    phase_frames,
    plan_from_read,
    plan_rooms_modular,
    settle_unclear,
)
from workbench.modular.cells import issues_from_envelope
from workbench.modular.endpoints import OPERATIONS
from workbench.platform import DEFAULT_META_CACHE, fetch_units, open_client, read_meta, read_units_of
from workbench.wording import agree, count, fact
from workbench.writers import (
    BULK,
    NOT_SENT,
    OUTCOME_COLUMNS,
    UNITS,
    Folder,
    Held,
    KindInfo,
    PushOutcome,
    Sent,
    UnitsKind,
    bulk_units,
    made_units,
    notice_message,
    planned_units,
    requests_frame,
    result_when_stopped,
    send,
    target_of,
    units_folder_planned,
)

__all__ = ["BETA_NOTE", "ModularRoomsPushResult", "push_rooms_modular", "push_units_folder"]

BETA_NOTE = "the Rooms API is in beta (developers.booking.com, Rooms API overview)"
SHOWN = 10


@dataclass(repr=False)
class ModularRoomsPushResult(PushOutcome):
    """A push through the Rooms and Facilities APIs: ``table`` (one row per request sent or held back),
    ``lines`` (one per spreadsheet row), ``mapping`` (RoomID -> unit id of the units created or mapped),
    ``platform_issues`` (each error the platform gave, on the analyst's cell), the ``plan`` it followed."""

    plan: ModularRoomsPlan | None  # None: a dry-run folder sent as written (``push requests DIR``)
    table: pd.DataFrame
    mapping: pd.DataFrame
    lines: pd.DataFrame
    platform_issues: pd.DataFrame
    files: list[Path] = field(default_factory=list)
    target: str = ""
    run_ids: list[int] = field(default_factory=list)
    notice: str | None = BETA_NOTE
    kind: ClassVar[KindInfo] = UNITS

    @property
    def requests(self) -> pd.DataFrame:
        text = ["codes", "error", "source_rows"]  # text columns (all-missing ones come back from reindex as float)
        return self.table.reindex(columns=UNITS.request_columns).astype({c: object for c in text}).fillna(
            {c: "" for c in text})

    @property
    def rows(self) -> pd.DataFrame:
        return self.lines

    def summary(self) -> str:
        how = self.mapping["how"] if len(self.mapping) else pd.Series(dtype=str)
        found = int((how == FOUND).sum())
        made = int(how.isin(["created", "confirmed by reading back", "created earlier (journal)"]).sum())
        return f"{super().summary()}; {count(made, 'unit')} created" + (
            f"; {found} found created by an earlier push whose answer was lost (not created again)" if found else "")

    def headline(self) -> str:
        return f"{self.summary()} (Rooms and Facilities APIs)"

    def facts(self) -> list[tuple[str, str]]:
        planned = [fact(len(self.plan.changes), "change planned", "changes planned")] if self.plan is not None else []
        return [*planned, fact(len(self.mapping), "room type mapped", "room types mapped")]

    def summary_columns(self) -> list[str]:
        return ["hotel_code", "part", "unit_id", "room_ids", "outcome", "said", "ruid"]

    def notes(self) -> list[str]:
        return [n for n in (self.notice,) if n]

    def _repr_html_(self) -> str:
        """In Jupyter: the outcome summary, then the room types mapped (RoomID -> unit id)."""
        shown = self.mapping.head(SHOWN)
        more = "all of them: `.mapping`" if len(self.mapping) > SHOWN else ""
        tables = [Table("Room types mapped (RoomID -> unit id)", shown, note=more)] if len(shown) else []
        return super()._repr_html_() + (Summary("", "", "info", [], tables).html() if tables else "")

    def __repr__(self) -> str:
        return f"<ModularRoomsPushResult: {self.summary()}>"


def push_rooms_modular(check: RoomsCheck, settings: Settings, *, mapping: PathLike | None = None,
                       workbook_copy: PathLike | None = None, client: Any | None = None,
                       journal: PathLike | None = None, command: str = "", progress: bool = False,
                       lock_wait: float = 0.0, meta_cache: PathLike | None = DEFAULT_META_CACHE
                       ) -> ModularRoomsPushResult:
    """Create the units of the rows without InvCode and bring the others to what the workbook says (see the
    module). ``mapping``: the RoomID -> InvCode file (read, then updated); ``workbook_copy``: a copy of the workbook
    with the new unit ids as InvCodes; ``journal``: default ``WORKBENCH_JOURNAL`` or ``.workbench/journal.sqlite``;
    ``meta_cache``: where the meta answers are kept a day."""
    if not check.ok:
        raise BlockedByErrors(f"{count(len(check.errors), 'error')} in the workbook "
                              f"{agree(len(check.errors), 'blocks', 'block')} the push: fix them first "
                              "(`workbench validate rooms`)", check.errors)
    target = target_of(settings)
    path = journal_path(journal)
    c, own = open_client(settings, client)
    sents: list[Sent] = []
    plan: ModularRoomsPlan | None = None
    settled = Settled([], [])

    def result_of(done: list[Sent]) -> ModularRoomsPushResult:
        assert plan is not None
        table, made = sent_table(done)
        found = pd.DataFrame(settled.found, columns=MAPPING_COLUMNS)
        mapped = plan.mapped[~plan.mapped["inv_code"].isin(found["inv_code"])]
        return ModularRoomsPushResult(plan, table, pd.concat([found, mapped, pd.DataFrame(made, columns=MAPPING_COLUMNS)],
                                                             ignore_index=True),
                                      request_lines(done, table), platform_issues(done), list(check.files), target,
                                      [s.run_id for s in done])

    try:
        meta = read_meta(c, target, cache=meta_cache)
        kind = UnitsKind(read=read_units_of, known=named_units(check, mapping, path, target))
        settled = settle_unclear(path, target, kind, c) if path.is_file() else Settled([], [])
        plan = plan_rooms_modular(check, settings, client=c, mapping=mapping, journal=path, meta=meta,
                                  unclear=settled.unclear)
        if not plan.ok:
            raise blocked(plan)
        kind.known, kind.seen = plan.known, plan.read.units()
        options: dict[str, Any] = {"journal": path, "client": c, "command": command, "progress": progress,
                                   "lock_wait": lock_wait}
        with result_when_stopped(lambda stopped: result_of([*sents, stopped])):
            sents.append(send(kind, plan.planned, settings, **options))
        created = created_units(sents[0])
        rooms, subrooms, amenities = phase_frames(plan, created)
        parts = parts_to_read(rooms, subrooms, amenities)
        if parts:
            read = fetch_units(settings, sorted({h for h, _ in parts}), client=c, parts=parts, meta=meta)
            follow = plan_from_read(rooms, subrooms, amenities, read, check_issues=check.issues)
            requests = [r for r in follow.requests if r.operation != BULK]
            if requests and follow.ok:
                kind.known |= {(h, u) for h, u in read.units()}
                with result_when_stopped(lambda stopped: result_of([*sents, stopped])):
                    sents.append(send(kind, planned_units(requests), settings, **options))
    finally:
        if own:
            c.close()
    result = result_of(sents)
    keep_mapping(check, result.mapping, mapping, workbook_copy)
    return result


def push_units_folder(folder: Folder, settings: Settings, *, journal: PathLike | None = None, full: bool = False,
                      client: Any | None = None, command: str = "", progress: bool = False,
                      lock_wait: float = 0.0) -> ModularRoomsPushResult:
    """Send a ``push rooms --api modular --dry-run`` folder (``push requests DIR``) through the journal: its bulk
    creations as written, each never sent twice (settled by reading the property's units back when an answer was
    lost). Its updates are not sent: each replaces a whole part built from what the platform held when the folder
    was written, so sent later it could undo a change made since (in the extranet, or by another push); they are
    listed as not sent, with the way to send them (push the workbook: it reads the units first). The units a folder
    creates get the parts the bulk creation does not carry (facilities, bathrooms) from the next
    ``push rooms --api modular``. ``full`` changes nothing here (a creation is never repeated)."""
    target = target_of(settings)
    path = journal_path(journal)
    planned = units_folder_planned(folder.manifest, folder.bodies)
    creations = [p for p in planned if p.operation == BULK]
    updates = [Held(p, NOT_SENT, f"not sent: this update was built from what the platform held when `{folder.directory}` "
                    "was written, and sent now it could undo a change made since; push the workbook instead "
                    "(`workbench push rooms FILE --api modular`), which reads the units first")
               for p in planned if p.operation != BULK]
    c, own = open_client(settings, client)
    try:
        kind = UnitsKind(read=read_units_of, known=set())
        with result_when_stopped(lambda stopped: _folder_result([stopped], folder, target, updates)):
            sent = send(kind, creations, settings, journal=path, client=c, command=command, progress=progress,
                        lock_wait=lock_wait)
    finally:
        if own:
            c.close()
    return _folder_result([sent], folder, target, updates)


def _folder_result(sents: list[Sent], folder: Folder, target: str, updates: list[Held]) -> ModularRoomsPushResult:
    sents[-1].held.extend(h for h in updates if h not in sents[-1].held)
    table, made = sent_table(sents)
    return ModularRoomsPushResult(None, table, pd.DataFrame(made, columns=MAPPING_COLUMNS),
                                  request_lines(sents, table), platform_issues(sents), [folder.directory], target,
                                  [s.run_id for s in sents])


def created_units(sent: Sent) -> dict[tuple[int, str], str]:
    """``(hotel, correlation_id) -> unit id`` of the units a run created (or found created earlier)."""
    out: dict[tuple[int, str], str] = {}
    frame = sent.frame.set_index("request_id") if len(sent.frame) else None
    pairs = [(p, frame.loc[rid, "made"] if frame is not None and frame.loc[rid, "status"] == "success" else None)
             for rid, p in sent.planned.items()] + [(h.planned, h.made) for h in sent.held]
    for p, made in pairs:
        if p.operation == BULK and isinstance(made, str):
            out |= {(int(p.hotel_code or 0), corr): unit for corr, unit in made_units(made).items()}
    return out


def _message(r: Mapping[str, Any]) -> str:
    notices = "; ".join(notice_message(n) for n in [*r["errors"], *r["warnings"]])
    return next((m for m in (r["note"], notices, r["error"]) if isinstance(m, str) and m), "")


def sent_table(sents: list[Sent]) -> tuple[pd.DataFrame, list[dict]]:
    """One row per request of the runs (sent or held back) and the room types they created (mapping rows)."""
    rows, made = [], []
    for sent in sents:
        frame = requests_frame(sent).set_index("request_id")
        for rid, p in sent.planned.items():
            r = frame.loc[rid]
            rows.append({**p.extra, "request_id": rid, "outcome": r["outcome"], "http_status": r["http_status"],
                         "codes": r["codes"], "texts": _message(r), "ruid": r["ruid"], "attempts": r["attempts"],
                         "error": r["error"] or "", "source_rows": r["source_rows"] or "", "made": r["made"]})
        for h in sent.held:
            rows.append({**h.planned.extra, "request_id": None, "outcome": h.outcome, "http_status": None,
                         "codes": "", "texts": h.message, "ruid": None, "attempts": 0, "error": "",
                         "source_rows": h.planned.source_rows(), "made": h.made})
        for p, m, how in [(p, frame.loc[rid, "made"], "created") for rid, p in sent.planned.items()
                          if frame.loc[rid, "outcome"] == "success"] + \
                         [(h.planned, h.made, "created earlier (journal)") for h in sent.held]:
            if p.operation != BULK or not isinstance(m, str):
                continue
            names = {str(u.get("correlation_id")): u.get("partner_reference_name") for u in bulk_units(p.body)}
            for corr, unit in made_units(m).items():
                by_row = corr.startswith("row-")
                made.append({"hotel_code": p.hotel_code, "room_id": None if by_row else corr,
                             "room_name": names.get(corr), "inv_code": unit, "how": how, "ruid": None})
    columns = ["request_id", *UNITS.request_keys, *OUTCOME_COLUMNS, "texts", "made"]
    table = pd.DataFrame(rows, columns=list(dict.fromkeys(columns)))
    return table.astype({"http_status": "Int64", "attempts": "Int64"}), made


def request_lines(sents: list[Sent], table: pd.DataFrame) -> pd.DataFrame:
    """One line per spreadsheet row each request carried, with its request's outcome."""
    by_id = table.dropna(subset=["request_id"]).set_index("request_id")
    lines = []
    for sent in sents:
        for rid, p in sent.planned.items():
            if p.rows is None or rid not in by_id.index:
                continue
            res = by_id.loc[rid]
            ok = res["outcome"] == "success"
            for src, sheet, row, column in p.rows[["source", "sheet", "row", "column"]].itertuples(index=False):
                lines.append({"source": src, "sheet": sheet, "row": row, "column": column, "request_id": rid,
                              "hotel_code": p.hotel_code, "inv_code": p.extra.get("unit_id") or None,
                              "room_name": None, "outcome": res["outcome"], "severity": "ok" if ok else "error",
                              "codes": res["codes"], "message": "" if ok else res["texts"], "ruid": res["ruid"]})
    return pd.DataFrame(lines, columns=UNITS.row_columns)


def platform_issues(sents: list[Sent]) -> pd.DataFrame:
    """Each error and warning the platform answered, on the cell it concerns (the request's cell map)."""
    records: list[dict] = []
    for sent in sents:
        for rid, result in sent.results.items():
            envelope = getattr(result, "envelope", None)
            p = sent.planned.get(rid)
            if envelope is None or p is None or p.source is None:
                continue
            records += issues_from_envelope(envelope, p.source.cells, OPERATIONS[p.operation].api)
    return combine([issues_from_records(records)])
