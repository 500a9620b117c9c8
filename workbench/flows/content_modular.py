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
from pathlib import Path
from typing import Any

import pandas as pd

from expectations import validate_content_modular
from loaders.issues import combine, issues_from_records
from workbench.config import Settings
from workbench.errors import BlockedByErrors
from workbench.flows.content import ContentCheck, check_content
from workbench.flows.modular_plan import RoundPlan, plan_round, with_ids, with_rows
from workbench.flows.modular_results import (
    CREATED_COLUMNS,
    REQUEST_COLUMNS,
    ModularPushResult,
    held_frame,
    identity,
    modular_result,
)
from workbench.modular.content import build_modular_content
from workbench.modular.meta import ModularMeta
from workbench.platform import CURRENT, DEFAULT_CACHE, LookupCache, Reads, fetch_modular_meta, read_properties
from workbench.transport.operations import cet_today
from workbench.writers import (
    CREATE,
    DEFAULT_JOURNAL,
    KIND,
    MODULAR,
    OWN_COLUMNS,
    Folder,
    Journal,
    ModularContentKind,
    Planned,
    planned_modular,
    send,
    target_of,
    write_requests,
)
from workbench.writers import (
    modular_folder_planned as folder_planned,
)

PathLike = str | Path
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
    "address_hotel_name_required": "the address's name is the Property sheet's HotelName (property_name; Property "
                                   "API), a translation's its own",
    "address_language_required": "the address is in English unless a translation says its language (Property API)",
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
    target = target_of(settings)
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
        sent = [send(kind, with_rows(first.send), settings, **common)] if first.send else []
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
            sent.append(send(kind, with_rows(second.send), settings, **common))
    finally:
        if own:
            sync.close()
    result = modular_result(check.files, sent, [*first.held, *second.held, *unread], [*first.unchanged, *second.unchanged],
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
    return build_modular_content(with_ids(check.parts, ids), meta, today=day, replace=replace).requests


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
    frame = pd.DataFrame([{**identity(p), "outcome": "written" if directory is not False else "planned", "http_status": pd.NA, "codes": "", "texts": "",
                           "ruid": "", "attempts": 0, "error": "", "source_rows": p.extra.get("source_rows", ""),
                           "note": ""} for p in plan.send], columns=REQUEST_COLUMNS[1:])
    frame.insert(0, "request_id", range(1, len(frame) + 1))
    held = held_frame(plan.held)
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


def send_modular_folder(folder: Folder, settings: Settings, journal: PathLike | Journal = DEFAULT_JOURNAL, *,
                        client: Any | None = None, command: str = "", progress: bool = False,
                        lock_wait: float = 0.0) -> ModularPushResult:
    """Send a dry-run folder of this kind (``push requests DIR``): the creates first, then every other request
    with the id each new property got filled into its path; what the journal accepted is not sent again."""
    path = journal.path if isinstance(journal, Journal) else Path(journal)
    target = target_of(settings)
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
        sent.append(send(kind, first, settings, **common))
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
        sent.append(send(kind, go, settings, **common))
    return modular_result([folder.directory], sent, held, same, issues_from_records([]), target)


__all__ = ["CREATED_COLUMNS", "OTA_ONLY_RULES", "ModularPushResult", "RoundPlan", "check_content_modular", "known_ids",
           "modular_default", "plan_content_modular", "plan_round", "push_content_modular", "send_modular_folder",
           "share_created", "write_modular_dry_run"]
