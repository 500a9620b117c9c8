"""Availability read back from the platform, and reconciled with what the journal says it accepted.

>>> from workbench import fetch_availability, reconcile_availability
>>> held = fetch_availability(settings, [1000001], start="2027-01-01", days=90)
>>> held.frame            # one row per room type (blank rate plan) and room-rate and night
>>> rec = reconcile_availability(settings, [1000001], journal=".workbench/journal.sqlite")
>>> rec.differences       # each difference, located: the night, what the platform holds, what was accepted
>>> rec = reconcile_availability(settings, [1000001], journal=..., fix=True)   # and send the accepted values again

``roomrateavailability`` returns rooms to sell, booked and cancelled rooms and the closed flags (of the room
type and of each room-rate), not the stay restrictions (docs/availability.md): so rooms to sell and ``Closed``
are reconciled; the other restrictions can only be trusted to the journal. Each difference is one of:

- ``changed on the platform``: the platform holds a value this journal never sent for that night (changed in
  the extranet, or by another connection);
- ``lost update``: the journal says the platform accepted a value, and the platform holds an older value this
  journal sent, or nothing (no rooms to sell, open): the update did not stick;
- ``never sent``: the platform holds rooms to sell or a close on a night this journal never sent that value for.

``fix=True`` sends the journal's accepted value of every ``changed on the platform`` and ``lost update``
night again through the one push path (the same journal; nothing else is sent); with ``fix_dry_run=DIR`` it
writes those requests as a dry-run folder instead (``push requests DIR`` sends it). ``never sent`` nights
have no accepted value to restore: the workbook decides them (push it).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from loaders.schemas import AVAILABILITY_COLUMNS, RESTRICTION_HEADERS
from workbench.config import Settings
from workbench.display import Summary, Table
from workbench.platform import PlatformAvailability, read_availability
from workbench.transport.operations import cet_today
from workbench.writers import DEFAULT_JOURNAL, read_accepted_availability, target_of

PathLike = str | Path
CHANGED, LOST, NEVER = "changed on the platform", "lost update", "never sent"
#: ``AvailabilityReconciliation.differences``: one located line per night that differs
DIFFERENCE_COLUMNS = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "restriction", "difference",
                      "platform", "accepted", "request", "ruid", "source", "sheet", "row", "column", "message"]
#: what the read can compare: rooms to sell (room type) and closed (room type and room-rate)
COMPARED = ("rooms_to_sell", "closed")
KEYS = ["hotel_code", "inv_type_code", "rate_plan_code", "restriction", "date"]
SHOWN = 10


def fetch_availability(settings: Settings, hotels: int | Any, *, start: dt.date | str | None = None, days: int = 365,
                       progress: bool = True, client_options: dict | None = None,
                       client: Any | None = None) -> PlatformAvailability:
    """Read what the platform holds for ``hotels`` (one HotelCode or several), ``days`` nights from ``start``
    (default: today in CET), 31 nights a call through the rate-limited client. ``.frame`` has one row per room
    type (blank rate plan) and room-rate and night; ``.table()`` the columns of ``fetch availability --out``;
    ``.problems`` the calls the platform refused or that failed."""
    ids = [int(hotels)] if isinstance(hotels, (int, np.integer, str)) else [int(h) for h in hotels]
    first = _day(start) if start is not None else cet_today()
    if days < 1:
        raise ValueError(f"read at least one night, not {days}")
    from workbench.display import progress_bar as tqdm  # a notebook keeps the finished bar as text

    own = None
    if client is None:
        from workbench.transport.sync import SyncPlatformClient

        own = client = SyncPlatformClient(settings, **(client_options or {}))
    calls = len(ids) * -(-days // 31)
    bar = tqdm(total=calls, unit="call", desc="Reading availability", disable=not progress, leave=True)
    try:
        return read_availability(client, ids, first, days, on_result=lambda _: bar.update(1))
    finally:
        bar.close()
        if own is not None:
            own.close()


def _day(value: dt.date | str) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


@dataclass(repr=False)
class AvailabilityReconciliation:
    """What the platform holds against what the journal says it accepted (see the module docstring)."""

    target: str
    journal: Path
    platform: PlatformAvailability
    differences: pd.DataFrame
    compared: int
    fix: Any = None          # the push (or dry run) that sent the accepted values again, with ``fix=True``

    @property
    def counts(self) -> dict[str, int]:
        return self.differences["difference"].value_counts().to_dict() if len(self.differences) else {}

    @property
    def ok(self) -> bool:
        """No difference and every read answered."""
        return self.differences.empty and self.platform.ok

    def fix_frame(self) -> pd.DataFrame:
        """The accepted values to send again (``changed on the platform`` and ``lost update``), as canonical
        availability rows traced to the cells they were first sent from."""
        d = self.differences[self.differences["difference"].isin([CHANGED, LOST])]
        restriction = d["restriction"].map({v: k for k, v in RESTRICTION_HEADERS.items()})
        frame = pd.DataFrame({
            "hotel_code": d["hotel_code"].to_numpy(), "inv_type_code": d["inv_type_code"].to_numpy(),
            "rate_plan_code": d["rate_plan_code"].replace("", pd.NA).to_numpy(), "date": d["date"].to_numpy(),
            "restriction": restriction.to_numpy(), "value": d["accepted"].to_numpy(),
            "source": d["source"].fillna("journal").to_numpy(), "sheet": d["sheet"].fillna("").to_numpy(),
            "row": d["row"].fillna(0).to_numpy(), "value_column": d["column"].fillna(d["restriction"]).to_numpy()})
        return frame.astype(AVAILABILITY_COLUMNS).reset_index(drop=True)

    def summary(self) -> str:
        parts = ", ".join(f"{n:,} {k}" for k, n in sorted(self.counts.items())) or "no difference"
        problems = f"; {len(self.platform.problems):,} read(s) refused or failed" if len(self.platform.problems) else ""
        return f"{self.compared:,} night value(s) compared with the journal: {parts}{problems}"

    def _repr_html_(self) -> str:
        facts = [(f"{n:,}", k) for k, n in sorted(self.counts.items())] + [
            (f"{self.compared:,}", "values compared"), (f"{len(self.platform.problems):,}", "reads refused or failed"),
            (self.target or "none", "target:")]
        tables = []
        if len(self.differences):
            tables.append(Table("Differences", self.differences.head(SHOWN), wide=("message",), note=(
                f"{SHOWN} of {len(self.differences):,} shown; all of them: `.differences`"
                if len(self.differences) > SHOWN else "")))
        if len(self.platform.problems):
            tables.append(Table("Reads refused or failed", self.platform.problems.head(SHOWN)))
        tone = "ok" if self.ok else "warning"
        verdict = "the platform holds what the journal accepted" if self.ok else \
            f"{len(self.differences):,} difference(s)"
        return Summary("Availability reconciliation", verdict, tone, facts, tables).html()

    def __repr__(self) -> str:
        return f"<AvailabilityReconciliation {self.target}: {self.summary()}>"


def reconcile_availability(settings: Settings, hotels: int | Any, *, journal: PathLike = DEFAULT_JOURNAL,
                           start: dt.date | str | None = None, days: int = 365, platform: PlatformAvailability | None = None,
                           fix: bool = False, fix_dry_run: PathLike | None = None, progress: bool = True,
                           client_options: dict | None = None, command: str = "") -> AvailabilityReconciliation:
    """Compare what the platform holds for ``hotels`` (read now, unless ``platform`` is given) with what the
    journal says it accepted, ``days`` nights from ``start`` (default today in CET); see the module docstring.
    ``fix``: send the accepted values of the nights that changed or were lost again (``fix_dry_run``: write
    them as a dry-run folder instead)."""
    target = target_of(settings)
    ids = [int(hotels)] if isinstance(hotels, (int, np.integer, str)) else [int(h) for h in hotels]
    held = platform if platform is not None else fetch_availability(
        settings, ids, start=start, days=days, progress=progress, client_options=client_options)
    first, last = held.start, held.start + dt.timedelta(days=held.days - 1)
    accepted = read_accepted_availability(journal, target, ids)
    accepted = accepted[accepted["restriction"].astype(str).isin(COMPARED).to_numpy()
                        & (accepted["date"] >= pd.Timestamp(first)).to_numpy()
                        & (accepted["date"] <= pd.Timestamp(last)).to_numpy()].reset_index(drop=True)
    on_platform = platform_values(held.frame)
    differences = compare(on_platform, accepted, _sent_before(journal, target, ids, first, last))
    differences = _located(differences, journal, target)
    rec = AvailabilityReconciliation(target, Path(journal), held, differences, len(accepted))
    if fix or fix_dry_run is not None:
        rec.fix = _fix(rec, settings, journal, fix_dry_run, progress, client_options, command)
    return rec


def platform_values(frame: pd.DataFrame) -> pd.DataFrame:
    """The fetch frame as values (``hotel_code, inv_type_code, rate_plan_code ('' for the room type),
    restriction, date, value``): rooms to sell of each room type, closed of each room type and room-rate."""
    f = frame.assign(rate_plan_code=frame["rate_plan_code"].astype("string").fillna(""))
    room = f[f["rate_plan_code"] == ""]
    parts = [room.assign(restriction="rooms_to_sell", value=room["rooms_to_sell"]),
             f.assign(restriction="closed", value=f["closed"])]
    out = pd.concat(parts, ignore_index=True)
    out = out[out["value"].notna()]
    return out[["hotel_code", "inv_type_code", "rate_plan_code", "restriction", "date", "value"]].astype(
        {"hotel_code": "int64", "value": "int64"}).reset_index(drop=True)


def _values(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame``'s values with their keys in one spelling (rate plan ``''`` for a room type, texts, nights)."""
    return pd.DataFrame({
        "hotel_code": frame["hotel_code"].to_numpy(np.int64), "inv_type_code": frame["inv_type_code"].astype(str).to_numpy(),
        "rate_plan_code": frame["rate_plan_code"].astype("string").fillna("").astype(str).to_numpy(),
        "restriction": frame["restriction"].astype(str).to_numpy(),
        "date": frame["date"].to_numpy("datetime64[D]").astype("datetime64[ns]"),
        "value": frame["value"].to_numpy(np.int64)})


def compare(platform: pd.DataFrame, accepted: pd.DataFrame, sent_before: pd.DataFrame) -> pd.DataFrame:
    """One line per night value where the platform and the journal differ (``difference``, ``platform``,
    ``accepted``); ``sent_before``: every value this journal sent and the platform accepted, in any run."""
    plat, acc = _values(platform), _values(accepted)
    m = acc.merge(plat.rename(columns={"value": "platform"}), on=KEYS, how="left")
    m = m[m["platform"].isna() | (m["platform"] != m["value"])]
    older = _values(sent_before).rename(columns={"value": "platform"}).drop_duplicates()
    older["sent"] = True
    m = m.merge(older, on=[*KEYS, "platform"], how="left")
    lost = m["platform"].isna() | (m["platform"] == 0) | m["sent"].eq(True)
    lines = m.assign(difference=np.where(lost, LOST, CHANGED), accepted=m["value"])
    # what the platform holds on nights this journal never sent that value for
    never = plat.merge(acc[KEYS], on=KEYS, how="left", indicator=True)
    never = never[(never["_merge"] == "left_only") & (never["value"] > 0)]
    never = never.assign(difference=NEVER, platform=never["value"], accepted=pd.NA)
    out = pd.concat([lines, never], ignore_index=True)[[*KEYS, "difference", "platform", "accepted"]]
    out = out.astype({"platform": "Int64", "accepted": "Int64"})
    return out.sort_values(KEYS, kind="stable").reset_index(drop=True)


def _sent_before(journal: PathLike, target: str, hotels: list[int], first: dt.date, last: dt.date) -> pd.DataFrame:
    """Every rooms-to-sell and closed value this journal sent to ``target`` that the platform accepted (any run)."""
    cols = ["hotel_code", "inv_type_code", "rate_plan_code", "restriction", "date", "value"]
    if not Path(journal).is_file() or not hotels:
        return pd.DataFrame(columns=cols)
    with closing(sqlite3.connect(f"file:{Path(journal).resolve()}?mode=ro", uri=True, timeout=30)) as db:
        if db.execute("SELECT 1 FROM sqlite_master WHERE name='avail_cells'").fetchone() is None:
            return pd.DataFrame(columns=cols)
        return pd.read_sql_query(
            "SELECT r.hotel_code, c.inv_type_code, c.rate_plan_code, c.restriction, c.date, c.value FROM avail_cells c "
            "JOIN requests r USING (request_id) WHERE r.target=? AND r.kind='availability' AND r.status IN "
            f"('success','partial') AND r.hotel_code IN ({','.join('?' * len(hotels))}) AND c.restriction IN "
            "('rooms_to_sell','closed') AND c.date BETWEEN ? AND ?", db,
            params=[target, *hotels, first.isoformat(), last.isoformat()]).assign(
            date=lambda f: pd.to_datetime(f["date"]))


def _located(differences: pd.DataFrame, journal: PathLike, target: str) -> pd.DataFrame:
    """Each difference with the request that set the accepted value (key, ruid) and the cell it came from."""
    d = differences
    if d.empty:
        return pd.DataFrame(columns=DIFFERENCE_COLUMNS)
    extra = _values(pd.DataFrame(columns=[*KEYS, "value"])).assign(request=None, ruid=None, source=None, sheet=None,
                                                                     row=None, column=None)
    if Path(journal).is_file():
        with closing(sqlite3.connect(f"file:{Path(journal).resolve()}?mode=ro", uri=True, timeout=30)) as db:
            extra = pd.read_sql_query(
                "SELECT a.hotel_code, a.inv_type_code, a.rate_plan_code, a.restriction, a.date, r.key AS request, "
                "a.ruid, c.source, c.sheet, c.row, c.col AS \"column\" FROM avail_accepted a JOIN requests r ON "
                "r.request_id = a.request_id LEFT JOIN avail_cells c ON c.request_id = a.request_id AND "
                "c.inv_type_code = a.inv_type_code AND c.rate_plan_code = a.rate_plan_code AND c.restriction = "
                "a.restriction AND c.date = a.date WHERE a.target=? AND a.restriction IN ('rooms_to_sell','closed') "
                f"AND a.hotel_code IN ({','.join('?' * d['hotel_code'].nunique())})", db,
                params=[target, *sorted({int(h) for h in d["hotel_code"]})])
            extra = _values(extra.assign(value=0)).drop(columns="value").join(
                extra[["request", "ruid", "source", "sheet", "row", "column"]])
    out = d.merge(extra.drop_duplicates(KEYS), on=KEYS, how="left")
    out["message"] = [_message(r) for r in out.itertuples(index=False)]
    out["restriction"] = out["restriction"].map(RESTRICTION_HEADERS)
    out = out.assign(row=out["row"].astype("Int64"))
    return out[DIFFERENCE_COLUMNS]


def _message(r: Any) -> str:
    what = RESTRICTION_HEADERS.get(str(r.restriction), str(r.restriction))
    room = f"room type {r.inv_type_code}" + (f", rate plan {r.rate_plan_code}" if r.rate_plan_code else "")
    where = f"property {r.hotel_code}, {room}, night {pd.Timestamp(r.date):%Y-%m-%d}"
    held = "nothing" if pd.isna(r.platform) else str(int(r.platform))
    if r.difference == NEVER:
        return (f"{where}: the platform holds {what} {held}, which this journal never sent for that night (set in the "
                "extranet or by another connection); put the value you want in the workbook and push it")
    sent = f"{what} {int(r.accepted)} was accepted" + (f" (request {r.request}, ruid {r.ruid})" if isinstance(
        r.request, str) else "")
    if r.difference == LOST:
        return (f"{where}: {sent}, but the platform holds {held}: the update did not stick; send it again "
                "(reconcile --fix)")
    return (f"{where}: {sent}, but the platform now holds {held} (changed in the extranet or by another "
            "connection); keep it, or send the accepted value again (reconcile --fix)")


def _fix(rec: AvailabilityReconciliation, settings: Settings, journal: PathLike, directory: PathLike | None,
         progress: bool, client_options: dict | None, command: str) -> Any:
    """Send (or write, with ``directory``) the accepted values of the nights that changed or were lost."""
    frame = rec.fix_frame()
    if directory is not None:
        from workbench.writers import AVAIL_KIND, availability_folder_plan, write_folder

        requests, cells = availability_folder_plan(frame, reading=settings.los_reading)
        return write_folder(directory, requests, cells, kind=AVAIL_KIND, operation="OTA_HotelAvailNotif")[1]
    from workbench.writers import send_availability

    return send_availability(frame, settings, journal=journal, full=True, progress=progress,
                             client_options=client_options, command=command or "reconcile availability --fix")


def with_availability_findings(findings: pd.DataFrame, availability: Any, settings: Settings | None, hotels: list[int],
                               as_of: dt.date, horizon: int, low: int, journal: PathLike | None, target: str | None,
                               names: pd.DataFrame, notes: list[str]) -> pd.DataFrame:
    """``findings`` (property health's) with what availability tells (:mod:`workbench.health.availability`):
    ``availability`` is ``True`` (read it from the platform for the horizon, whole calls of 31 nights), a
    :class:`PlatformAvailability` or its frame; the prices are the journal's accepted ones for ``target``."""
    from workbench.health.availability import availability_findings
    from workbench.health.findings import SEVERITIES

    if availability is True:
        if settings is None or not settings.base_url or not hotels:
            notes.append("availability was not read (no platform to read): low availability and nights nobody can "
                         "book were not looked for")
            return findings
        availability = fetch_availability(settings, hotels, start=as_of, days=-(-horizon // 31) * 31, progress=False)
    held = availability if isinstance(availability, PlatformAvailability) else None
    frame = held.frame if held is not None else availability
    if held is not None:
        for p in held.problems.itertuples(index=False):
            notes.append(f"property {p.hotel_code}: availability from {p.start} could not be read ({p.text}); its "
                         "availability findings are missing")
    prices = None
    if journal is not None and target and Path(journal).is_file() and len(frame):
        from workbench.writers import Journal

        with Journal(journal) as j:
            prices = j.accepted_nights(target, hotels, start=as_of, end=pd.Timestamp(frame["date"].max()).date())
    found = availability_findings(frame, prices, as_of=as_of, horizon=horizon, low=low, names=names)
    if found.empty:
        return findings
    out = pd.concat([findings, found], ignore_index=True) if len(findings) else found
    order = out["severity"].map({s: i for i, s in enumerate(SEVERITIES)})
    return out.assign(_s=order).sort_values(["_s", "hotel_code"], kind="stable").drop(columns="_s") \
        .reset_index(drop=True).astype(findings.dtypes.to_dict() if len(findings.columns) else found.dtypes.to_dict())


__all__ = ["CHANGED", "DIFFERENCE_COLUMNS", "LOST", "NEVER", "AvailabilityReconciliation", "compare",
           "fetch_availability", "platform_values", "reconcile_availability", "with_availability_findings"]
