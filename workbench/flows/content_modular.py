"""Property content through the modular JSON APIs, end to end: check -> plan -> send -> results.

>>> from workbench import check_content_modular, push_content_modular
>>> check = check_content_modular("content.xlsx", settings=settings)      # E4 rules + the rules new with the APIs
>>> result = push_content_modular(check, settings, fill=True)             # create, then each API's delta

The same workbook as the content operation's; each part goes to its API (``workbench.modular``): details and
settings (Property API), contacts (``PUT`` replaces all: read first), facilities (``PUT`` replaces the instances
of each facility it names: read first, the instance ids sent back), charges (read first: the charges the
workbook does not name are sent back, the stricter reading of what the platform does with them). Two rounds:

1. properties without a HotelCode are created (``POST /properties``), each once per custom ID (the journal);
2. what each property has is read (contacts, facilities, charges), every body built with the property's id
   and sent unless the journal says the platform accepted the same state last time (``full``: send anyway).

A request is held back when an error lands on a row it carries (an error no request carries holds the whole
property): e.g. a contact type the property has and the sheet leaves out (``contacts_drop_type``) unless
``replace``. Each error the platform answers lands on the analyst's cell through its JSON path.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from expectations import validate_content_modular
from loaders.issues import combine, issues_from_records
from workbench.config import Settings
from workbench.errors import BlockedByErrors
from workbench.flows.content import ContentCheck, check_content
from workbench.modular.cells import issues_from_envelope
from workbench.modular.content import build_modular_content
from workbench.modular.meta import ModularMeta
from workbench.platform.lookups import DEFAULT_CACHE, LookupCache
from workbench.platform.modular import CURRENT, Reads, fetch_modular_meta, read_properties
from workbench.transport.operations import cet_today
from workbench.writers import driver
from workbench.writers.folder import Folder, write_requests
from workbench.writers.journal import DEFAULT_JOURNAL, Journal
from workbench.writers.modular_content import (
    CREATE,
    KIND,
    MODULAR,
    OWN_COLUMNS,
    ModularContentKind,
    cell_rows,
    folder_planned,
    planned_modular,
)
from workbench.writers.outcome import NOT_SENT_ERRORS, PushOutcome, notice_message
from workbench.writers.planned import Planned

PathLike = str | Path
CREATED_COLUMNS = ["custom_id", "hotel_code", "ruid"]
REQUEST_COLUMNS = [*MODULAR.request_columns, "hotel_code", "custom_id", "method", "path", "note"]
HELD = "not sent"


#: E4 rules about the content operation's message that the modular APIs do not have (the value has no field there,
#: or the API takes it differently): not applied to a push through the modular APIs
OTA_ONLY_RULES: dict[str, str] = {
    "fee_condition_required": "a charge has no conditions (Charges API)",
    "birth_date_required": "brazil_tax_details has no birth date (Property settings)",
    "target_required": "Target is sent only to create a property (Property API; `modular_target_required`)",
    "rtb_new_only": "the booking model is a settings group, set on any property (Property settings)",
    "rtb_not_enabled": "`content_api_rtb_enabled` is the content operation's setting; the Property settings take "
                       "request to book by country",
    "service_price_required": "a meal's price is in the property's currency, without a CurrencyCode (Facilities API)",
}


def check_content_modular(files: PathLike | Iterable[PathLike], *, settings: Settings | None = None,
                          today: dt.date | None = None, **options: Any) -> ContentCheck:
    """:func:`workbench.flows.content.check_content` plus the rules new with the modular APIs
    (``expectations.validate_content_modular``) in the same issues frame, without the E4 rules that concern only
    the content operation's message (:data:`OTA_ONLY_RULES`)."""
    check = check_content(files, settings=settings, today=today, **options)
    modular = validate_content_modular(check.parts, today=today)
    issues = combine([check.issues[~check.issues["rule"].isin(list(OTA_ONLY_RULES))], modular])
    return ContentCheck(check.parts, issues, check.files, check.lookups, check.notes)


def modular_default(today: dt.date | None = None, *, now: dt.datetime | None = None) -> bool:
    """Whether ``push content`` goes through the modular APIs by default: from the content operation's sunset
    (2026-12-31, the platform's CET day)."""
    from workbench.transport import operations

    day = today if today is not None else operations.cet_today(now)
    return day >= operations.DEPRECATIONS["OTA_HotelDescriptiveContentNotif"].sunset


@dataclass(repr=False)
class ModularPushResult(PushOutcome):
    """A push through the modular APIs: ``requests`` (one per property and API), ``rows`` (each cell sent, with
    its request's outcome; the cells the platform's errors name are errors), ``issues`` (the mapping's and the
    platform's, on their cells), ``created`` (custom ID -> property id), ``unchanged`` (requests not sent: the
    platform accepted the same last time)."""

    requests: pd.DataFrame
    rows: pd.DataFrame
    issues: pd.DataFrame
    created: pd.DataFrame
    unchanged: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    target: str = ""
    dry_run: Path | None = None
    filled: list[Path] = field(default_factory=list)
    run_ids: list[int] = field(default_factory=list)
    kind: ClassVar = MODULAR

    @property
    def not_sent(self) -> pd.DataFrame:
        errors = self.issues[self.issues["severity"] == "error"] if len(self.issues) else self.issues
        if errors.empty:
            return pd.DataFrame(columns=MODULAR.row_columns)
        return pd.DataFrame({"source": errors["source"], "sheet": errors["sheet"], "row": errors["row"],
                             "column": errors["column"], "request_id": pd.NA, "property": "", "api": "",
                             "outcome": NOT_SENT_ERRORS, "severity": "error", "codes": errors["rule"],
                             "message": errors["message"], "ruid": ""}, columns=MODULAR.row_columns)

    @property
    def ok(self) -> bool:
        errors = bool(len(self.issues)) and bool((self.issues["severity"] == "error").any())
        fine = self.requests["outcome"].isin(["success", "written", "planned"]) if len(self.requests) else []
        return bool(all(fine)) and not errors

    def summary(self) -> str:
        if self.dry_run is not None:
            return f"dry run: {len(self.requests)} request(s) written to {self.dry_run}"
        text = ", ".join(f"{n} {k}" for k, n in sorted(self.counts.items())) or "nothing to send"
        return (f"{len(self.requests)} request(s) through the modular APIs: {text}; {len(self.created)} created; "
                f"{len(self.unchanged)} unchanged (not sent)")

    def headline(self) -> str:
        return self.summary()

    def verdict(self) -> str:
        return self.summary()

    def facts(self) -> list[tuple[str, str]]:
        return [(f"{len(self.created):,}", "created"), (f"{len(self.unchanged):,}", "unchanged, not sent")]

    def __repr__(self) -> str:
        return f"<ModularPushResult: {self.summary()}>"


@dataclass
class RoundPlan:
    """One round's requests: to send, held back (and why), unchanged, and the issues behind them."""

    send: list[Planned]
    held: list[tuple[Planned, str]]
    unchanged: list[Planned]
    issues: pd.DataFrame


def _row_property(parts: Mapping[str, pd.DataFrame]) -> dict[tuple[str, str, int], str]:
    out: dict[tuple[str, str, int], str] = {}
    for frame in parts.values():
        if len(frame):
            for src, sheet, row, prop in zip(frame["source"], frame["sheet"], frame["row"], frame["property"],
                                             strict=True):
                if not pd.isna(row) and not pd.isna(prop):
                    out[(str(src), str(sheet), int(row))] = str(prop)
    return out


#: rules that refuse a value on its cell without holding the property's requests back (what has no home any more)
CELL_ONLY_RULES = frozenset({"modular_sunset", "contact_type_refused"})


def _blocked(planned: Sequence[Planned], issues: pd.DataFrame, parts: Mapping[str, pd.DataFrame]
             ) -> dict[int, str]:
    """``index -> why`` of the requests an error holds back: an error on a row the request carries; an error on a
    row no request carries holds every request of its property (unless it refuses only its cell:
    :data:`CELL_ONLY_RULES`)."""
    errors = issues[issues["severity"] == "error"] if len(issues) else issues
    if errors.empty:
        return {}
    carried: dict[tuple[str, str, int], list[int]] = {}
    for i, p in enumerate(planned):
        cells = p.source.cells
        for c in ([cells.root] if cells.root is not None else []) + list(cells.cells.values()):
            carried.setdefault((c.source, c.sheet, int(c.row)), []).append(i)
    owner = _row_property(parts)
    out: dict[int, str] = {}
    for e in errors.itertuples(index=False):
        if pd.isna(e.row):
            continue
        where = (str(e.source), str(e.sheet), int(e.row))
        why = f"held back: {e.sheet} row {int(e.row)} {e.column}: {e.message}"
        hit = carried.get(where)
        if hit is None and e.rule not in CELL_ONLY_RULES:
            hit = [i for i, p in enumerate(planned) if p.property == owner.get(where)]
        for i in dict.fromkeys(hit or []):
            out.setdefault(i, why)
    return out


def plan_round(parts: Mapping[str, pd.DataFrame], meta: ModularMeta, reads: Reads, ids: Mapping[str, int], *,
          journal: Journal | None, target: str, replace: bool, full: bool, today: dt.date,
          only: Callable[[Planned], bool]) -> RoundPlan:
    """One round's plan (pure but for the journal's accepted state): the bodies of every property with the ids known
    (``ids``) and what each has (``reads``), the requests ``only`` keeps, each sent, held back (an error on a row it
    carries) or unchanged (the journal accepted the same state)."""
    with_ids = _with_ids(parts, ids)
    built = build_modular_content(with_ids, meta, today=today, replace=replace,
                                  current={p: reads.current(p) for p in {k for k, _ in reads.data}})
    planned = [p for p in planned_modular(built.requests, ids, rows=False) if only(p)]
    issues = built.issues
    blocked = _blocked(planned, issues, parts)
    accepted = journal.accepted_items(target, KIND) if journal is not None and not full else {}
    send, held, unchanged = [], [], []
    for i, p in enumerate(planned):
        if i in blocked:
            held.append((p, blocked[i]))
        elif p.state and all(accepted.get(k) == v for k, v in p.state):
            unchanged.append(p)
        else:
            send.append(p)
    return RoundPlan(send, held, unchanged, issues)


def with_rows(planned: Sequence[Planned]) -> list[Planned]:
    """The requests with the cells they carry as rows (what the journal keeps of each): given only to what is
    sent, after planning."""
    for p in planned:
        if p.rows is None:
            p.rows = cell_rows(p.source)
    return list(planned)


def _with_ids(parts: Mapping[str, pd.DataFrame], ids: Mapping[str, int]) -> dict[str, pd.DataFrame]:
    """The parts with the HotelCode of each property the journal knows by its custom ID filled in."""
    if not ids:
        return dict(parts)
    out = {}
    for name, frame in parts.items():
        if len(frame) and "custom_id" in frame:
            f = frame.copy()
            fill = f["hotel_code"].isna() & f["custom_id"].isin(list(ids))
            f.loc[fill, "hotel_code"] = f.loc[fill, "custom_id"].map(ids).astype("Int64")
            f.attrs = frame.attrs
            out[name] = f
        else:
            out[name] = frame
    return out


def known_ids(journal: Journal, target: str, keys: Iterable[str]) -> dict[str, int]:
    """Custom ID -> property id of the properties a push created (this kind, or the content operation's New)."""
    out = {}
    for key in keys:
        for kind in (KIND, "content"):
            found = journal.created_of(target, kind, key)
            if found is not None and found[0] == "created" and found[1]:
                out[key] = int(found[1])
                break
    return out


def share_created(journal: Journal, target: str, ids: Mapping[str, int]) -> None:
    """Record the properties made through the Property API for the content operation's kind too, so its push
    (before the sunset) never sends a ``New`` for them: it sends an Overlay, which is then refused unless
    ``--replace`` (``refuse_mixed``)."""
    for key, pid in ids.items():
        if journal.created_of(target, "content", key) is None:
            journal.record_created(target, "content", key, str(pid), None)


def _open(settings: Settings, client: Any | None) -> tuple[Any, bool]:
    if client is not None:
        return client, False
    from workbench.transport import SyncPlatformClient

    return SyncPlatformClient(settings), True


def push_content_modular(check: ContentCheck, settings: Settings, *, replace: bool = False, fill: bool = False,
                         journal: PathLike | Journal = DEFAULT_JOURNAL, dry_run: PathLike | bool | None = None,
                         today: dt.date | None = None, client: Any | None = None, full: bool = False,
                         meta: ModularMeta | None = None, cache: PathLike | LookupCache | None = None,
                         command: str = "", progress: bool = False, lock_wait: float = 0.0,
                         sleep: Callable[[float], object] = time.sleep) -> ModularPushResult:
    """Send the workbook's content through the modular APIs (see the module docstring); with ``dry_run`` write
    the requests into that folder instead (a property still to create keeps ``{property_id}`` in its paths).
    ``fill`` writes the new properties' ids into the workbook(s). Raises :class:`BlockedByErrors` when the check
    found errors."""
    errors = check.issues[check.issues["severity"] == "error"]
    if len(errors):
        raise BlockedByErrors(f"{len(errors)} error(s) in the workbook block the push: fix them first "
                              "(`workbench validate content`)", errors)
    day = today or cet_today()
    target = driver.target_of(settings)
    path = journal.path if isinstance(journal, Journal) else Path(journal)
    keys = sorted({str(k) for f in check.parts.values() if len(f) and "custom_id" in f for k in f["custom_id"].dropna()})
    sync, own = _open(settings, client)
    try:
        if meta is None:
            store = cache if isinstance(cache, LookupCache) else LookupCache(Path(cache) if cache else DEFAULT_CACHE)
            meta = fetch_modular_meta(sync, store, target)
        with Journal(path) as j:
            ids = known_ids(j, target, keys)
        if dry_run is not None:
            return _planned(check, meta, ids, settings, sync, path, dry_run, day, replace, full)
        kind = ModularContentKind()
        common: dict[str, Any] = dict(journal=path, command=command, progress=progress, client=sync, sleep=sleep,
                                      lock_wait=lock_wait)
        with Journal(path) as j:  # round 1: the creates
            first = plan_round(check.parts, meta, Reads(), ids, journal=j, target=target, replace=replace, full=full,
                          today=day, only=lambda p: p.operation == CREATE)
        sent = [driver.send(kind, with_rows(first.send), settings, **common)] if first.send else []
        with Journal(path) as j:
            ids = known_ids(j, target, keys)
            share_created(j, target, ids)
        reads = read_properties(sync, sorted(set(ids.values()) | _codes(check)), CURRENT)
        failed = {p for p, _ in reads.failed}
        with Journal(path) as j:  # round 2: every API of the properties with an id
            second = plan_round(check.parts, meta, reads, ids, journal=j, target=target, replace=replace, full=full,
                           today=day, only=lambda p: p.operation != CREATE and p.hotel_code is not None
                           and p.hotel_code not in failed)
        unread = [(p, f"held back: reading what property {p.hotel_code} has failed ({_why(reads, p)})")
                  for p in planned_modular(_built_requests(check, meta, reads, ids, day, replace), ids)
                  if p.hotel_code in failed and p.operation != CREATE]
        if second.send:
            sent.append(driver.send(kind, with_rows(second.send), settings, **common))
    finally:
        if own:
            sync.close()
    result = _result(check.files, sent, [*first.held, *second.held, *unread], [*first.unchanged, *second.unchanged],
                     combine([first.issues, second.issues]), target)
    if fill and len(result.created):
        from workbench.flows.content_push import fill_hotel_codes

        result.filled = fill_hotel_codes(check, result.created)
    return result


def _codes(check: ContentCheck) -> set[int]:
    """The HotelCodes the workbook names, on any sheet."""
    return {int(h) for f in check.parts.values() if len(f) and "hotel_code" in f for h in f["hotel_code"].dropna()}


def _why(reads: Reads, p: Planned) -> str:
    return next((why for (pid, _), why in reads.failed.items() if pid == p.hotel_code), "")


def _built_requests(check: ContentCheck, meta: ModularMeta, reads: Reads, ids: Mapping[str, int], day: dt.date,
                    replace: bool) -> Sequence[Any]:
    failed = {p for p, _ in reads.failed}
    if not failed:
        return ()
    return build_modular_content(_with_ids(check.parts, ids), meta, today=day, replace=replace).requests


def plan_content_modular(check: ContentCheck, settings: Settings, *, replace: bool = False,
                         journal: PathLike | Journal = DEFAULT_JOURNAL, today: dt.date | None = None,
                         client: Any | None = None, full: bool = False, meta: ModularMeta | None = None,
                         cache: PathLike | LookupCache | None = None) -> ModularPushResult:
    """What a push would send (``requests`` with outcome ``planned``, the ones held back and why, ``unchanged``),
    after reading the meta and what each property has; nothing is written or sent."""
    return push_content_modular(check, settings, replace=replace, journal=journal, today=today, client=client,
                                full=full, meta=meta, cache=cache, dry_run=False)


def _planned(check: ContentCheck, meta: ModularMeta, ids: Mapping[str, int], settings: Settings, sync: Any,
             journal: Path, directory: PathLike | bool, day: dt.date, replace: bool, full: bool) -> ModularPushResult:
    codes = sorted(set(ids.values()) | _codes(check))
    reads = read_properties(sync, codes, CURRENT) if codes else Reads()
    target = (settings.base_url or "").rstrip("/")
    with Journal(journal) as j:
        plan = plan_round(check.parts, meta, reads, ids, journal=j, target=target, replace=replace, full=full, today=day,
                     only=lambda p: True)
    if directory is not False:
        write_modular_dry_run(plan.send, Path(str(directory)))
    frame = pd.DataFrame([{**_identity(p), "outcome": "written" if directory is not False else "planned", "http_status": pd.NA, "codes": "", "texts": "",
                           "ruid": "", "attempts": 0, "error": "", "source_rows": p.extra.get("source_rows", ""),
                           "note": ""} for p in plan.send], columns=REQUEST_COLUMNS[1:])
    frame.insert(0, "request_id", range(1, len(frame) + 1))
    held = _held_frame(plan.held)
    return ModularPushResult(pd.concat([frame, held], ignore_index=True) if len(held) else frame,
                             pd.DataFrame(columns=MODULAR.row_columns), plan.issues,
                             pd.DataFrame(columns=CREATED_COLUMNS), [p.key for p in plan.unchanged],
                             list(check.files), target,
                             dry_run=Path(str(directory)) if directory is not False else None)


def write_modular_dry_run(planned: Sequence[Planned], directory: PathLike) -> pd.DataFrame:
    """Each request (``NNN-<property>-<api>.json``) and ``manifest.csv`` (with the method and the path, the path
    of a property still to create keeping ``{property_id}``) into ``directory``; returns the manifest."""
    names = []
    for n, p in enumerate(planned, start=1):
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in p.property)
        names.append(f"{n:03d}-{safe}-{p.extra['api']}{'-create' if p.operation == CREATE else ''}.json")
    own = pd.DataFrame([{c: p.extra.get(c) for c in OWN_COLUMNS} for p in planned], columns=OWN_COLUMNS)
    return write_requests(directory, planned, names, own)


def _identity(p: Planned) -> dict[str, Any]:
    return {"property": p.property, "api": p.extra.get("api"), "operation": p.operation, "hotel_code": p.hotel_code,
            "custom_id": p.extra.get("custom_id"), "method": p.method, "path": p.path}


def _held_frame(held: Sequence[tuple[Planned, str]]) -> pd.DataFrame:
    rows = [{**_identity(p), "outcome": HELD, "http_status": pd.NA, "codes": "", "texts": why, "ruid": "",
             "attempts": 0, "error": "", "source_rows": p.extra.get("source_rows", ""), "note": why}
            for p, why in held]
    frame = pd.DataFrame(rows, columns=REQUEST_COLUMNS[1:])
    frame.insert(0, "request_id", pd.array([pd.NA] * len(frame), dtype="Int64"))
    return frame


def _result(files: Sequence[Path], sent: Sequence[driver.Sent], held: Sequence[tuple[Planned, str]],
            unchanged: Sequence[Planned], issues: pd.DataFrame, target: str) -> ModularPushResult:
    frames, rows, answered, created = [], [], [], []
    for s in sent:
        f = driver.requests_frame(s).set_index("request_id")
        for rid, p in s.planned.items():
            r = f.loc[rid]
            result = s.results.get(rid)
            req = p.source
            if result is not None and result.envelope is not None:
                answered += issues_from_envelope(result.envelope, req.cells, str(p.extra.get("api")) + " API")
            made = r["made"] if isinstance(r["made"], str) else None
            if p.operation == CREATE and made and r["outcome"] == "success":
                created.append({"custom_id": p.creates, "hotel_code": int(made), "ruid": r["ruid"]})
            frames.append({"request_id": rid, **_identity(p), "hotel_code": int(made) if made else p.hotel_code,
                           "outcome": r["outcome"], "http_status": r["http_status"], "codes": r["codes"],
                           "texts": r["texts"], "ruid": r["ruid"], "attempts": r["attempts"],
                           "error": r["error"] if isinstance(r["error"], str) else "",
                           "source_rows": p.extra.get("source_rows") or r["source_rows"],
                           "note": r["note"] if isinstance(r["note"], str) else ""})
            rows.append(_cells(p, rid, str(r["outcome"]), r))
        for h in s.held:  # a create made already (found in the journal, or settled by sending it again): done
            done = h.planned.operation == CREATE and h.made is not None
            frames.append({"request_id": pd.NA, **_identity(h.planned), "hotel_code": int(h.made) if done and h.made else
                           h.planned.hotel_code, "outcome": "success" if done else h.outcome, "http_status": pd.NA,
                           "codes": "", "texts": h.message, "ruid": "", "attempts": 0, "error": "",
                           "source_rows": h.planned.extra.get("source_rows", ""), "note": h.message})
            if h.planned.operation == CREATE and h.made:
                created.append({"custom_id": h.planned.creates, "hotel_code": int(h.made), "ruid": ""})
    requests = pd.DataFrame(frames, columns=REQUEST_COLUMNS)
    held_frame = _held_frame(held)
    if len(held_frame):
        requests = pd.concat([requests, held_frame], ignore_index=True)
    all_issues = combine([issues, issues_from_records(answered)])
    row_frame = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=MODULAR.row_columns)
    row_frame = _mark(row_frame, all_issues)
    return ModularPushResult(requests, row_frame, all_issues, pd.DataFrame(created, columns=CREATED_COLUMNS),
                             [p.key for p in unchanged], list(files), target, run_ids=[s.run_id for s in sent])


def _cells(p: Planned, rid: int, outcome: str, r: Any) -> pd.DataFrame:
    rows = p.rows if p.rows is not None else pd.DataFrame(columns=["source", "sheet", "row", "column"])
    said = "; ".join(notice_message(n) for n in r["errors"]) if outcome != "success" else ""
    return pd.DataFrame({"source": rows["source"], "sheet": rows["sheet"], "row": rows["row"],
                         "column": rows["column"], "request_id": rid, "property": p.property,
                         "api": p.extra.get("api"), "outcome": outcome,
                         "severity": "ok" if outcome == "success" else "error", "codes": r["codes"] or "",
                         "message": said or (r["error"] if isinstance(r["error"], str) else ""),
                         "ruid": r["ruid"]}, columns=MODULAR.row_columns)


def _mark(rows: pd.DataFrame, issues: pd.DataFrame) -> pd.DataFrame:
    """The cells the platform's answers name carry their issue (message and rule) and severity."""
    if rows.empty or issues.empty:
        return rows
    platform = issues[issues["rule"].astype(str).str.startswith("platform_")]
    for i in platform.itertuples(index=False):
        hit = (rows["sheet"] == i.sheet) & (rows["row"] == i.row) & (rows["column"] == i.column)
        rows.loc[hit, ["severity", "codes", "message"]] = [i.severity, i.rule, i.message]
    return rows


def send_modular_folder(folder: Folder, settings: Settings, journal: PathLike | Journal = DEFAULT_JOURNAL, *,
                        client: Any | None = None, command: str = "", progress: bool = False,
                        lock_wait: float = 0.0) -> ModularPushResult:
    """Send a dry-run folder of this kind (``push requests DIR``): the creates first, then every other request
    with the id each new property got filled into its path; what the journal accepted is not sent again."""
    path = journal.path if isinstance(journal, Journal) else Path(journal)
    target = driver.target_of(settings)
    kind = ModularContentKind()
    creates = folder.manifest["operation"] == CREATE
    common: dict[str, Any] = dict(journal=path, command=command, progress=progress, client=client,
                                  lock_wait=lock_wait)
    sent = []
    with Journal(path) as j:
        keys = [str(k) for k in folder.manifest["custom_id"].fillna("") if str(k)]
        ids = known_ids(j, target, keys)
    planned_creates = folder_planned(folder.manifest[creates], [b for b, c in zip(folder.bodies, creates, strict=True)
                                                                if c], ids)
    first = [p for p in planned_creates if p.creates not in ids]  # a property made already is not made again
    if first:
        sent.append(driver.send(kind, first, settings, **common))
    with Journal(path) as j:
        ids = known_ids(j, target, keys)
        share_created(j, target, ids)
        accepted = j.accepted_items(target, KIND)
    rest = folder_planned(folder.manifest[~creates], [b for b, c in zip(folder.bodies, creates, strict=True)
                                                      if not c], ids)
    go = [p for p in rest if p.hotel_code is not None and not all(accepted.get(k) == v for k, v in p.state)]
    held = [(p, f"held back: property `{p.property}` has no id yet (its create was not made)") for p in rest
            if p.hotel_code is None]
    same = [p for p in planned_creates if p.creates in ids] + [p for p in rest if p.hotel_code is not None
                                                               and p not in go]
    if go:
        sent.append(driver.send(kind, go, settings, **common))
    return _result([folder.directory], sent, held, same, issues_from_records([]), target)


__all__ = ["CREATED_COLUMNS", "OTA_ONLY_RULES", "ModularPushResult", "RoundPlan", "check_content_modular", "known_ids",
           "modular_default", "plan_content_modular", "plan_round", "push_content_modular", "send_modular_folder",
           "share_created", "write_modular_dry_run"]
