"""Property health end to end: read what the platform has active, what it accepted (the push
journal) and what the sheets still hold; find what will stop guests booking.

>>> from workbench import property_health
>>> health = property_health(settings, journal=".workbench/journal.sqlite", as_of="2026-12-01")
>>> health.findings            # the frame: one finding per row, most urgent first, with a fix
>>> health.exit_code           # 0: nothing blocks bookings within the horizon

The analysis is pure (``workbench.health``); this module only gathers its inputs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from loaders import Registry, read_rates, read_registry
from workbench.config import Settings
from workbench.errors import PlatformReadError, SettingsError
from workbench.health import (
    DEFAULT_HORIZON,
    PlatformView,
    PropertyHealth,
    coverage_from_summary,
    coverage_of_nights,
    find_problems,
    room_rate_status,
)
from workbench.health.coverage import COVERAGE_COLUMNS, KEY, cet_today, empty, gap_ranges
from workbench.health.findings import PLATFORM_RATE_COLUMNS
from workbench.health.sources import HealthSources, keep_supported
from workbench.writers import DEFAULT_JOURNAL, Journal

PathLike = str | Path
#: accepted nights shown before the as-of night on a timeline
TIMELINE_PAST_DAYS = 30


def property_health(settings: Settings | None = None, *, hotels: Iterable[int] | None = None,
                    as_of: dt.date | str | None = None, horizon: int = DEFAULT_HORIZON,
                    registry: Registry | PathLike | Iterable[PathLike] | None = None,
                    journal: PathLike | None = DEFAULT_JOURNAL, rates: PathLike | Iterable[PathLike] | None = None,
                    target: str | None = None, room_types: bool = True, availability: Any = None,
                    low_availability: int = 1) -> PropertyHealth:
    """Check every property in ``hotels`` (default: every property in the registry, the journal and
    the sheets) as of ``as_of`` (default: today in CET).

    ``settings``: the platform to read (roomrates for the active room-rates; with ``room_types``,
    OTA_HotelDescriptiveInfo for the room types); without a ``base_url`` the ``registry`` stands in
    for the platform. ``journal``: the push journal whose accepted prices for ``target`` (default:
    the settings' ``base_url``, or the journal's only target) say what is bookable. ``rates``:
    spreadsheets not pushed yet. ``availability``: also what availability tells (rooms running out, priced
    nights nobody can book, availability ending before the prices: :mod:`workbench.health.availability`):
    ``True`` reads it from the platform for the horizon, or give ``fetch_availability(...)`` (or its
    ``.frame``); ``low_availability``: rooms left at or below which a night counts as low.
    """
    day = dt.date.fromisoformat(as_of) if isinstance(as_of, str) else (as_of or cet_today())
    if horizon < 1:
        raise ValueError(f"the horizon must be at least 1 night, not {horizon}")
    reg = _registry(registry)
    notes: list[str] = []
    j = Journal(journal) if journal is not None and Path(journal).is_file() else None
    try:
        tgt = _target(j, settings, target)
        sheet_nights = _sheet_nights(rates)
        wanted = _hotels(hotels, reg, j, tgt, sheet_nights)
        view = _platform_view(settings, wanted, reg, room_types, notes)
        coverage = empty(COVERAGE_COLUMNS)
        gaps = None
        if j is not None and tgt is not None and wanted:
            coverage = coverage_from_summary(j.accepted_summary(tgt, day, hotels=wanted), day)
            # the dates of the gaps: only the room-rates with some, only up to their last bookable night
            with_gaps = coverage.loc[coverage["gap_nights"] > 0, [*KEY, "bookable_until"]].rename(
                columns={"bookable_until": "end"}).assign(start=pd.Timestamp(day))
            if len(with_gaps):
                gaps = gap_ranges(j.accepted_dates(tgt, with_gaps).assign(price=1.0), day)
    finally:
        if j is not None:
            j.close()
    pending = coverage_of_nights(sheet_nights, day) if len(sheet_nights) else None
    status = room_rate_status(view, coverage, day, pending)
    status = status[status["hotel_code"].isin(wanted)].reset_index(drop=True)
    findings = find_problems(view, coverage, as_of=day, horizon=horizon, pending=pending, gaps=gaps, status=status)
    sources = HealthSources(platform=settings is not None and bool(settings.base_url) and bool(wanted),
                            registry=not reg.is_empty(), journal=j is not None,
                            sheets=len(sheet_nights) > 0)
    findings, not_checked = keep_supported(findings, sources)
    if j is None and journal is not None:
        not_checked = [f"no push journal at `{journal}`; " + n for n in not_checked]
    notes += not_checked
    if availability is not None and availability is not False:
        from workbench.flows.availability_read import with_availability_findings

        findings = with_availability_findings(findings, availability, settings, wanted, day, horizon,
                                              low_availability, journal, tgt, view.properties, notes)
    reader = None
    if journal is not None and tgt is not None and Path(journal).is_file():
        path, t = Path(journal), tgt

        def reader(hs: Iterable[int]) -> pd.DataFrame:
            with Journal(path) as jj:
                return jj.accepted_nights(t, hs, start=day - dt.timedelta(days=TIMELINE_PAST_DAYS))
    return PropertyHealth(findings, status, day, horizon, wanted, notes, reader, sheet_nights, sources)


def _registry(registry: Registry | PathLike | Iterable[PathLike] | None) -> Registry:
    if registry is None:
        return Registry()
    if isinstance(registry, Registry):
        return registry
    return read_registry(registry)


def _target(j: Journal | None, settings: Settings | None, target: str | None) -> str | None:
    if target:
        return target.rstrip("/")
    if settings is not None and settings.base_url:
        return settings.base_url.rstrip("/")
    if j is None:
        return None
    targets = j.targets()
    if len(targets) > 1:
        raise SettingsError(f"the journal `{j.path}` holds accepted prices of {len(targets)} platforms "
                            f"({', '.join(targets)}): say which one with the settings of that platform")
    return targets[0] if targets else None


def _sheet_nights(rates: PathLike | Iterable[PathLike] | None) -> pd.DataFrame:
    cols = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "price"]
    if rates is None:
        return pd.DataFrame(columns=cols)
    paths = [Path(rates)] if isinstance(rates, (str, Path)) else [Path(p) for p in rates]
    if not paths:
        return pd.DataFrame(columns=cols)
    frame, _issues = read_rates(paths)  # rows the loader could not read are left out (see `validate rates`)
    frame = frame.dropna(subset=["hotel_code", "inv_type_code", "rate_plan_code", "date", "amount"])
    return pd.DataFrame({"hotel_code": frame["hotel_code"].astype("int64"),
                         "inv_type_code": frame["inv_type_code"].astype("string"),
                         "rate_plan_code": frame["rate_plan_code"].astype("string"),
                         "date": pd.to_datetime(frame["date"]).astype("datetime64[s]"),
                         "price": frame["amount"].astype("float64")})


def _hotels(hotels: Iterable[int] | None, reg: Registry, j: Journal | None, target: str | None,
            sheet_nights: pd.DataFrame) -> list[int]:
    if hotels is not None:
        return sorted({int(h) for h in hotels})
    found: set[int] = set()
    for frame in (reg.properties, reg.rooms, reg.room_rates):
        found |= {int(h) for h in frame["hotel_code"].dropna()}
    if j is not None and target is not None:
        found |= set(j.accepted_hotels(target))
    found |= {int(h) for h in sheet_nights["hotel_code"].unique()}
    return sorted(found)


def _platform_view(settings: Settings | None, hotels: list[int], reg: Registry, room_types: bool,
                   notes: list[str]) -> PlatformView:
    """The platform's room-rates (roomrates), or the registry's when the platform is not read."""
    names = reg.properties[["hotel_code", "hotel_name"]].dropna(subset=["hotel_code"]).astype(
        {"hotel_code": "int64", "hotel_name": "string"})
    reg_rooms = reg.rooms[["hotel_code", "inv_type_code", "room_name"]].dropna(subset=["hotel_code"]).astype(
        {"hotel_code": "int64", "inv_type_code": "string", "room_name": "string"})
    reg_rates = reg.room_rates.dropna(subset=["hotel_code"])
    reg_frame = pd.DataFrame({
        "hotel_code": reg_rates["hotel_code"].astype("int64"), "inv_type_code": reg_rates["inv_type_code"],
        "rate_plan_code": reg_rates["rate_plan_code"], "rate_name": reg_rates["rate_name"],
        "active": reg_rates["active"].fillna(True), "is_child": _child_flag(reg_rates),
        "read_only": reg_rates["read_only"].fillna(False), "follows_price": reg_rates["follows_price"]},
        columns=list(PLATFORM_RATE_COLUMNS)).astype(PLATFORM_RATE_COLUMNS)
    if settings is None or not settings.base_url or not hotels:
        if reg.is_empty():
            notes.append("neither the platform nor a registry was read: room-rates active but never priced, and "
                         "prices for room-rates the platform does not have, were not looked for")
            return PlatformView(properties=names, rooms=reg_rooms)
        notes.append("the platform was not read: the registry stands in for what it has active")
        known = frozenset(int(h) for h in reg_frame["hotel_code"].unique())
        return PlatformView(reg_frame, reg_rooms, names, known)
    from workbench.platform import fetch_roomrates, read_rooms_of
    from workbench.transport import SyncPlatformClient

    with SyncPlatformClient(settings) as client:
        rr = fetch_roomrates(client, hotels)
        read = frozenset(int(r.context) for r in rr.results if r.ok)
        for r in rr.failed:
            notes.append(f"property {r.context}: its rooms and rate plans could not be read ({r.summary()}); "
                         "its unmapped room-rates were not looked for")
        types, amenities, types_read = [], [], set()
        if room_types:
            for h in sorted(read):
                try:
                    pr = read_rooms_of(client, h)
                except PlatformReadError as exc:
                    notes.append(f"property {h}: its room types could not be read ({exc}); they were not checked")
                    continue
                types.append(pr.rooms[["hotel_code", "inv_code", "room_type", "room_name"]])
                amenities.append(pr.amenities[["hotel_code", "inv_code", "amenity_code"]])
                types_read.add(h)
    links = rr.room_rates
    child = _child_flag(links)
    if "follows_price" in links:
        child |= links["follows_price"].astype("Int64").eq(1).fillna(False).astype(bool)
    plat = pd.DataFrame({
        "hotel_code": links["hotel_code"].astype("int64"), "inv_type_code": links["inv_type_code"],
        "rate_plan_code": links["rate_plan_code"], "rate_name": links["rate_name"], "active": True,
        "is_child": child, "read_only": links["read_only"].astype("Int64").eq(1).fillna(False),
        "follows_price": pd.NA}, columns=list(PLATFORM_RATE_COLUMNS)).astype(PLATFORM_RATE_COLUMNS)
    # the registry knows what roomrates does not say: names, and whether a child rate follows its parent's price
    extra = reg_frame.set_index(["hotel_code", "inv_type_code", "rate_plan_code"])
    idx = pd.MultiIndex.from_frame(plat[["hotel_code", "inv_type_code", "rate_plan_code"]])
    plat["follows_price"] = pd.array(extra["follows_price"].reindex(idx).to_numpy(), dtype="boolean")
    plat["rate_name"] = plat["rate_name"].fillna(pd.Series(extra["rate_name"].reindex(idx).to_numpy(),
                                                           index=plat.index, dtype="string"))
    rooms = pd.concat([rr.rooms[["hotel_code", "inv_type_code", "room_name"]].astype(reg_rooms.dtypes.to_dict()),
                       reg_rooms], ignore_index=True).drop_duplicates(["hotel_code", "inv_type_code"])
    props = pd.concat([names, rr.properties[["hotel_code", "hotel_name"]].dropna(subset=["hotel_code"]).astype(
        names.dtypes.to_dict())], ignore_index=True).dropna(subset=["hotel_name"]).drop_duplicates("hotel_code")
    return PlatformView(plat, rooms, props, read,
                        pd.concat(types, ignore_index=True) if types else None,
                        pd.concat(amenities, ignore_index=True) if amenities else None, frozenset(types_read))


def _child_flag(rates: pd.DataFrame) -> pd.Series:
    """Child rates: flagged by the platform (roomrates ``is_child_rate``) or the registry (``IsChildRate``),
    or named with a parent rate plan."""
    child = pd.Series(False, index=rates.index)
    if "is_child_rate" in rates:
        child |= rates["is_child_rate"].astype("Int64").eq(1).fillna(False).astype(bool)
    if "parent_rate_plan_code" in rates:
        child |= rates["parent_rate_plan_code"].notna()
    return child
