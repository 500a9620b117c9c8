"""Property content from a checked workbook to the platform: dry run, push, HotelCodes filled back.

>>> from workbench import check_content, preview_content, push_content
>>> check = check_content("content.xlsx")                     # load + the spec's E4 rules
>>> plan = preview_content(check, settings)                   # per property: parts before -> after
>>> result = push_content(check, settings, fill=True)         # New / Overlay, BuildHotel resent

One request per property (``workbench.writers.content_plan``): an Overlay that would drop a part the
platform accepted before is refused unless the part is stated empty (``EmptyParts``) or
``replace=True``; a ``New`` is never sent twice for one custom ID (the journal keeps custom ID ->
HotelCode). ``BuildHotel`` answers are resent up to ``Settings.build_hotel_attempts`` times, then
reported with every ruid (``workbench.writers.content_push``). The operation is deprecated: every push
warns until 2026-12-31 and is refused from that day (CET; spec, Versioning 6).
"""

from __future__ import annotations

import datetime as dt
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol

import pandas as pd

from loaders import ISSUE_COLUMNS
from workbench.config import Settings
from workbench.display import Summary, Table
from workbench.errors import BlockedByErrors
from workbench.flows.rooms import DeprecatedOperationWarning
from workbench.ota import PARTS, canonical_rows
from workbench.transport.operations import deprecation_notice
from workbench.writers import (
    CONTENT,
    DEFAULT_JOURNAL,
    NOT_SENT_ERRORS,
    PARTS_COLUMNS,
    BuildHotelResend,
    ContentKind,
    ContentPlan,
    ContentRequest,
    Folder,
    Journal,
    KindInfo,
    PushOutcome,
    Sent,
    comparable,
    modular_touched,
    notice_message,
    plan_content,
    planned_content,
    refuse_mixed,
    requests_frame,
    result_when_stopped,
    results_frame,
    send,
    target_of,
    write_requests,
)
from workbench.writers import (
    CONTENT_OPERATION as OPERATION,
)
from workbench.writers import (
    CONTENT_RESULT_COLUMNS as RESULT_COLUMNS,
)

PathLike = str | Path
SHOWN = 10  # properties a summary lists
NOT_SENT = "not sent"
CREATED_COLUMNS = ["custom_id", "hotel_code", "ruid"]


class ContentCheckLike(Protocol):
    """What a push needs of ``workbench.flows.content.ContentCheck``."""

    parts: dict[str, pd.DataFrame]
    issues: pd.DataFrame
    files: list[Path]


def _errors(check: ContentCheckLike) -> pd.DataFrame:
    return check.issues[check.issues["severity"] == "error"]


def _journal(path: PathLike | Journal | None, *, create: bool) -> tuple[Journal | None, bool]:
    if path is None or isinstance(path, Journal):
        return path, False
    if not create and not Path(path).is_file():
        return None, False
    return Journal(path), True


def preview_content(check: ContentCheckLike, settings: Settings | None = None, *,
                    journal: PathLike | Journal | None = DEFAULT_JOURNAL, replace: bool = False,
                    timestamp: dt.datetime | None = None, full: bool = False) -> ContentPlan:
    """The dry run: the request of each property, and per property which parts change (``plan.parts``:
    before -> after, against the content the journal says the platform (``settings.base_url``) accepted)."""
    j, own = _journal(journal, create=False)
    try:
        target = (settings.base_url if settings else "").rstrip("/")
        plan = plan_content(check.parts, journal=j, target=target, replace=replace, timestamp=timestamp, full=full)
        return refuse_mixed(plan, modular_touched(j, target) if j is not None else set(), replace)
    finally:
        if own and j is not None:
            j.close()


def write_content_dry_run(plan: ContentPlan, directory: PathLike, part_rows: pd.DataFrame | None = None
                          ) -> pd.DataFrame:
    """Each request (``NNN-<property>-<new|overlay>.xml``), ``manifest.csv``, ``parts.csv`` (before -> after)
    and ``issues.csv`` (what holds a property back) into ``directory`` (the folder every kind writes:
    :mod:`workbench.writers.folder`); returns the manifest."""
    names = []
    for n, req in enumerate(plan.requests, start=1):
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in req.key)
        names.append(f"{n:03d}-{safe}-{req.notif_type.lower()}.xml")
    return write_requests(directory, planned_content(plan.requests, part_rows), names, plan.manifest(),
                          {"parts.csv": plan.parts, "issues.csv": plan.issues})


def folder_requests(folder: Folder) -> list[ContentRequest]:
    """The requests of a content dry-run folder, their content read back from the requests themselves."""
    out = []
    for row, body in zip(folder.manifest.to_dict("records"), folder.bodies, strict=True):
        hotel = str(row.get("hotel_code") or "").strip()
        out.append(ContentRequest(str(row["property"]), int(float(hotel)) if hotel else None,
                                  str(row.get("custom_id") or "") or None, str(row["notif_type"]), body,
                                  canonical_rows(body), str(row.get("source") or "") or None,
                                  str(row.get("sheet") or "") or None,
                                  int(float(row["row"])) if str(row.get("row") or "").strip() else None,
                                  str(row.get("note") or "")))
    return out


@dataclass(repr=False)
class ContentPushResult(PushOutcome):
    """A content push: one row per property in ``results`` (outcome, HotelCode, message, ruids, the Property
    row it came from), ``created`` (custom ID -> HotelCode), and the ``plan`` it followed."""

    plan: ContentPlan
    results: pd.DataFrame
    created: pd.DataFrame
    files: list[Path] = field(default_factory=list)
    target: str = ""
    notice: str | None = None
    filled: list[Path] = field(default_factory=list)
    dry_run: Path | None = None
    part_rows: pd.DataFrame = field(default_factory=pd.DataFrame)  # source, sheet, row, property of every row
    run_id: int | None = None
    title: ClassVar[str] = "Content push"
    kind: ClassVar[KindInfo] = CONTENT

    @property
    def ok(self) -> bool:
        """Every property applied (for a dry run: none held back)."""
        return self.plan.ok and bool((self.results["outcome"] == "success").all())

    def summary(self) -> str:
        if self.dry_run is not None:
            return (f"dry run: {len(self.plan.requests)} request(s) written to {self.dry_run}, "
                    f"{len(self.plan.held)} propert{'y' if len(self.plan.held) == 1 else 'ies'} held back")
        counts = self.results["outcome"].value_counts().to_dict()
        text = ", ".join(f"{n} {k}" for k, n in counts.items()) or "nothing to send"
        same = f"; {len(self.plan.unchanged)} unchanged (not sent)" if self.plan.unchanged else ""
        return f"{len(self.results)} propert{'y' if len(self.results) == 1 else 'ies'}: {text}; " \
               f"{len(self.created)} created{same}"

    def __repr__(self) -> str:
        return f"<ContentPushResult: {self.summary()}>"

    def headline(self) -> str:
        return f"{self.summary()} (OTA_HotelDescriptiveContentNotif, one request per property)"

    def verdict(self) -> str:
        return self.summary() if self.dry_run is not None else super().verdict()

    def facts(self) -> list[tuple[str, str]]:
        return [(f"{len(self.created):,}", "created"), (f"{len(self.plan.unchanged):,}", "unchanged, not sent")]

    def notes(self) -> list[str]:
        return [self.notice] if self.notice else []

    def _repr_html_(self) -> str:
        html = super()._repr_html_()
        changed = self.plan.parts[self.plan.parts["change"] != "unchanged"]
        if changed.empty:
            return html
        table = Table("Parts that change (before -> after)", changed.head(SHOWN)[
            ["property", "part", "change", "before", "after"]], wide=("before", "after"),
            note="all of them: `.plan.parts`" if len(changed) > SHOWN else "")
        return html + Summary("", "", "info", [], [table]).html()

    # --- the one outcome model (workbench.writers.outcome) ---------------------------------------------

    @property
    def requests(self) -> pd.DataFrame:
        """One row per property: its own columns, then the outcome columns of every push."""
        r = self.results
        counts = self.part_rows.groupby("property").size() if len(self.part_rows) else pd.Series(dtype="int64")
        return pd.DataFrame({
            "request_id": range(1, len(r) + 1), "property": r["property"], "hotel_code": r["hotel_code"],
            "custom_id": r["custom_id"], "notif_type": r["notif_type"], "parts": r["parts"],
            "rows": r["property"].map(lambda p: int(counts.get(p, 0))), "outcome": r["outcome"],
            "http_status": r["http_status"], "codes": "", "texts": r["message"].fillna("") + r["warnings"].map(
                lambda w: f" (warnings: {w})" if isinstance(w, str) and w else ""),
            "ruid": r["ruids"], "attempts": r["attempts"], "error": "",
            "source_rows": [f"{s} {sh} row {rw}" if isinstance(sh, str) else "" for s, sh, rw in
                            zip(r["source"], r["sheet"], r["row"], strict=True)]},
            columns=[*CONTENT.request_columns, "hotel_code", "custom_id"])

    @property
    def rows(self) -> pd.DataFrame:
        """Every spreadsheet row of each property with its property's outcome: the ones of a property
        not applied are errors, the Property row of one applied with warnings a warning."""
        if self.results.empty or self.part_rows.empty:
            return pd.DataFrame(columns=CONTENT.row_columns)
        by = self.results.assign(request_id=range(1, len(self.results) + 1)).set_index("property")
        rows = self.part_rows[self.part_rows["property"].isin(by.index)]
        res = by.loc[rows["property"]].reset_index()
        ok = (res["outcome"] == "success").to_numpy()
        warned = ok & res["warnings"].fillna("").astype(bool).to_numpy() & (rows["sheet"] == "Property").to_numpy()
        return pd.DataFrame({
            "source": rows["source"].to_numpy(), "sheet": rows["sheet"].to_numpy(), "row": rows["row"].to_numpy(),
            "column": "", "request_id": res["request_id"].to_numpy(), "property": res["property"].to_numpy(),
            "hotel_code": res["hotel_code"].to_numpy(), "notif_type": res["notif_type"].to_numpy(),
            "outcome": res["outcome"].to_numpy(),
            "severity": ["ok" if o and not w else "warning" if o else "error" for o, w in zip(ok, warned, strict=True)],
            "codes": "", "message": [m if not o or w else "" for m, o, w in zip(
                res["message"].fillna("") + res["warnings"].fillna("").map(lambda w: f" {w}" if w else ""), ok, warned,
                strict=True)],
            "ruid": res["ruids"].to_numpy()}, columns=CONTENT.row_columns)

    @property
    def not_sent(self) -> pd.DataFrame:
        """The rows of the properties held back (their Property row carries why)."""
        issues = self.plan.issues
        if issues.empty:
            return pd.DataFrame(columns=CONTENT.row_columns)
        return pd.DataFrame({"source": issues["source"], "sheet": issues["sheet"], "row": issues["row"],
                             "column": issues["column"], "request_id": pd.NA, "property": "", "hotel_code": pd.NA,
                             "notif_type": "", "outcome": NOT_SENT_ERRORS, "severity": "error",
                             "codes": issues["rule"], "message": issues["message"], "ruid": ""},
                            columns=CONTENT.row_columns)


def _part_rows(check: ContentCheckLike) -> pd.DataFrame:
    frames = [check.parts[p][["property", "source", "sheet", "row"]] for p in PARTS
              if p in check.parts and len(check.parts[p])]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["property", "source", "sheet",
                                                                                     "row"])


def push_content(check: ContentCheckLike, settings: Settings, *, replace: bool = False, fill: bool = False,
                 journal: PathLike | Journal = DEFAULT_JOURNAL, dry_run: PathLike | None = None,
                 today: dt.date | None = None, now: dt.datetime | None = None, client: object | None = None,
                 sleep: Callable[[float], object] = time.sleep, full: bool = False, command: str = "",
                 progress: bool = False, lock_wait: float = 0.0) -> ContentPushResult:
    """Send each property's content (see the module docstring); with ``dry_run`` write the requests into
    that folder instead. ``fill`` writes the HotelCodes of new properties into the workbook(s); ``full``
    sends the properties whose content the platform already accepted as it is too.
    Raises :class:`BlockedByErrors` when the check found errors, :class:`OperationSunset` from 2026-12-31 (CET)."""
    notice = deprecation_notice(OPERATION, settings.provider_type, today, now=now) if dry_run is None else None
    if notice:
        warnings.warn(notice, DeprecatedOperationWarning, stacklevel=2)
    errors = _errors(check)
    if len(errors):
        raise BlockedByErrors(f"{len(errors)} error(s) in the workbook block the push: fix them first "
                              "(`workbench validate content`)", errors)
    part_rows = _part_rows(check)
    target = (settings.base_url or "").rstrip("/")
    if dry_run is not None:
        plan = preview_content(check, settings, journal=journal, replace=replace, full=full)
        write_content_dry_run(plan, dry_run, part_rows)
        return ContentPushResult(plan, results_frame([]), pd.DataFrame(columns=CREATED_COLUMNS),
                                 list(check.files), target, None, dry_run=Path(dry_run), part_rows=part_rows)
    target = target_of(settings)
    path = journal.path if isinstance(journal, Journal) else Path(journal)
    with Journal(path) as j:
        plan = plan_content(check.parts, journal=j, target=target, replace=replace, full=full)
        plan = refuse_mixed(plan, modular_touched(j, target), replace)  # the Overlay erases what modular APIs set
    planned = planned_content(plan.requests, part_rows)
    kind = ContentKind(BuildHotelResend(settings.build_hotel_attempts, settings.build_hotel_backoff_seconds))

    def result_of(sent: Sent) -> ContentPushResult:
        results = results_frame(_sent_rows(sent) + _held_rows(plan))
        created = _created(results)
        created = pd.concat([created, _redirected(plan)], ignore_index=True) if len(_redirected(plan)) else created
        return ContentPushResult(plan, results, created.reset_index(drop=True), list(check.files), target, notice,
                                 part_rows=part_rows, run_id=sent.run_id)

    with result_when_stopped(result_of):
        sent = send(kind, planned, settings, journal=path, command=command, progress=progress,
                           client=client, sleep=sleep, lock_wait=lock_wait)
    result = result_of(sent)
    if fill and len(result.created):
        result.filled = fill_hotel_codes(check, result.created)
    return result


def push_content_folder(folder: Folder, settings: Settings, *, journal: PathLike | Journal = DEFAULT_JOURNAL,
                        full: bool = False, client: object | None = None, sleep: Callable[[float], object] = time.sleep,
                        command: str = "", progress: bool = False, lock_wait: float = 0.0,
                        today: dt.date | None = None) -> ContentPushResult:
    """Send a content dry-run folder (``push requests DIR``) through the journal: a property whose content
    the platform accepted as the request says is not sent again (unless ``full``); a New already made is
    never sent again (it is held, with the HotelCode the journal knows)."""
    notice = deprecation_notice(OPERATION, settings.provider_type, today)
    target = target_of(settings)
    path = journal.path if isinstance(journal, Journal) else Path(journal)
    requests = folder_requests(folder)
    same: list[str] = []
    if not full:
        with Journal(path) as j:
            keep = []
            for r in requests:
                before = j.accepted_content(target, r.hotel_code) if r.hotel_code is not None else {}
                if before and all(comparable(before.get(p)) == comparable(r.content.get(p)) or (
                        not before.get(p) and not r.content.get(p)) for p in PARTS):
                    same.append(r.key)
                else:
                    keep.append(r)
            requests = keep
    kind = ContentKind(BuildHotelResend(settings.build_hotel_attempts, settings.build_hotel_backoff_seconds))
    plan = ContentPlan(requests, pd.DataFrame(columns=PARTS_COLUMNS), pd.DataFrame(columns=ISSUE_COLUMNS),
                       unchanged=same)

    def result_of(sent: Sent) -> ContentPushResult:
        results = results_frame(_sent_rows(sent))
        return ContentPushResult(plan, results, _created(results).reset_index(drop=True), [], target, notice,
                                 run_id=sent.run_id)

    with result_when_stopped(result_of):
        sent = send(kind, planned_content(requests), settings, journal=path, command=command,
                           progress=progress, client=client, sleep=sleep, lock_wait=lock_wait)
    return result_of(sent)


def _created(results: pd.DataFrame) -> pd.DataFrame:
    """The properties a New made, with the HotelCode the platform gave and the ruid of its answer."""
    made = results[(results["notif_type"] == "New") & (results["outcome"] == "success") & results["custom_id"].notna()]
    return pd.DataFrame({"custom_id": made["custom_id"], "hotel_code": made["hotel_code"],
                         "ruid": made["ruids"].str.split("; ").str[-1]}, columns=CREATED_COLUMNS)


def _sent_rows(sent: Sent) -> list[dict[str, object]]:
    """A results row per property the driver sent (or held back), in the order planned."""
    frame = requests_frame(sent).set_index("request_id")
    fatal = next((r.error or r.summary() for r in sent.results.values() if r.fatal), None)
    out: list[dict[str, object]] = []
    for rid, p in sent.planned.items():
        r, req = frame.loc[rid], p.source
        outcome = str(r["outcome"])
        made = r["made"] if isinstance(r["made"], str) else None
        errors = "; ".join(notice_message(n) for n in r["errors"] if n)
        message = next((m for m in (r["note"], errors, r["error"]) if isinstance(m, str) and m), "")
        if outcome == "not sent" and fatal:
            outcome, message = "failed", f"not sent: an earlier request failed in a way every request would ({fatal})"
        out.append({"property": req.key, "hotel_code": int(made) if made else req.hotel_code,
                    "custom_id": req.custom_id, "notif_type": req.notif_type, "parts": "; ".join(req.parts),
                    "outcome": outcome, "attempts": r["attempts"], "message": message,
                    "warnings": "; ".join(notice_message(n) for n in r["warnings"]), "ruid": r["ruid"],
                    "ruids": "; ".join(r["ruids"]) or (r["ruid"] if isinstance(r["ruid"], str) else ""),
                    "http_status": r["http_status"], "source": req.source, "sheet": req.sheet, "row": req.row})
    for h in sent.held:
        req = h.planned.source
        out.append({"property": req.key, "hotel_code": int(h.made) if h.made else req.hotel_code,
                    "custom_id": req.custom_id, "notif_type": req.notif_type, "parts": "; ".join(req.parts),
                    "outcome": NOT_SENT, "attempts": 0, "message": h.message, "warnings": "", "ruid": None,
                    "ruids": "", "http_status": None, "source": req.source, "sheet": req.sheet, "row": req.row})
    return out


def _held_rows(plan: ContentPlan) -> list[dict[str, object]]:
    """A row per property held back by the plan (refused Overlay, unclear New, ...), its message traced to the row."""
    out = []
    for r, key in zip(plan.issues.itertuples(index=False), plan.held, strict=True):
        out.append({"property": key, "hotel_code": int(key) if key.isdigit() else None, "custom_id": None,
                    "notif_type": "", "parts": "", "outcome": NOT_SENT, "attempts": 0, "warnings": "", "ruid": None,
                    "ruids": "", "http_status": None, "source": r.source, "sheet": r.sheet, "row": r.row,
                    "message": r.message})
    return out


def _redirected(plan: ContentPlan) -> pd.DataFrame:
    """Properties created by an earlier push whose sheet still has only their custom ID (to fill in too)."""
    rows = [{"custom_id": c, "hotel_code": h, "ruid": None} for c, h in plan.known.items()]
    return pd.DataFrame(rows, columns=CREATED_COLUMNS)


def fill_hotel_codes(check: ContentCheckLike, created: pd.DataFrame,
                     files: Sequence[PathLike] | None = None) -> list[Path]:
    """Write each new property's HotelCode into the rows that name it by its custom ID only, on every part
    sheet of the analyst's .xlsx workbook(s), in place (as RoomID -> InvCode for room types); a sheet
    without a HotelCode column gets one. Returns the workbooks written."""
    from openpyxl import load_workbook

    codes = {str(c): int(h) for c, h in zip(created["custom_id"], created["hotel_code"], strict=True)
             if pd.notna(c) and pd.notna(h)}
    paths = [Path(f) for f in (files if files is not None else check.files) if Path(f).suffix.lower() in (".xlsx",
                                                                                                           ".xlsm")]
    written = []
    for path in paths:
        wb = load_workbook(path)
        changed = False
        for part in PARTS:
            frame = check.parts.get(part)
            if frame is None or frame.empty:
                continue
            headers = frame.attrs.get("headers", {})
            todo = frame[frame["hotel_code"].isna() & frame["custom_id"].isin(list(codes))
                         & frame["source"].isin([path.name, str(path)])]
            for r in todo.itertuples(index=False):
                if r.sheet not in wb.sheetnames:
                    continue
                ws = wb[r.sheet]
                header = headers.get((r.source, r.sheet), {}).get("hotel_code")
                ws.cell(row=int(r.row), column=_hotel_code_column(ws, header, int(r.row)),
                        value=codes[str(r.custom_id)])
                changed = True
        if changed:
            wb.save(path)
            written.append(path)
    return written


def _hotel_code_column(ws, header: str | None, data_row: int) -> int:  # noqa: ANN001 - an openpyxl sheet
    """The column of ``header`` (or ``HotelCode``) above ``data_row``; a new ``HotelCode`` column if none."""
    rows = list(ws.iter_rows(min_row=1, max_row=max(1, data_row - 1)))
    for name in (header, "HotelCode"):
        for row in rows:
            for cell in row:
                if name is not None and cell.value is not None and str(cell.value).strip() == name:
                    return int(cell.column)
    first = next(r for r in ws.iter_rows(min_row=1, max_row=data_row) if any(c.value is not None for c in r))
    col = int(ws.max_column) + 1
    ws.cell(row=first[0].row, column=col, value="HotelCode")
    return col


__all__ = ["CREATED_COLUMNS", "ContentCheckLike", "ContentPushResult", "RESULT_COLUMNS", "fill_hotel_codes",
           "folder_requests", "preview_content", "push_content", "push_content_folder", "write_content_dry_run"]
