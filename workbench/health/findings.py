"""What will stop guests booking, per property and room-rate: the findings frame.

Pure: the platform's view (:class:`PlatformView`), the accepted coverage (``coverage`` module) and
optionally prices still in sheets in; one frame of findings out (``FINDING_COLUMNS``), each with a
severity and a one-line fix. The rules and their words are in docs/health.md.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from workbench.health.coverage import CLOSED_WINDOW, COVERAGE_COLUMNS, KEY, empty
from workbench.wording import count

#: most urgent first: ``now`` blocks bookings today, ``soon`` from a night within the horizon,
#: ``advice`` is worth doing but blocks nothing within the horizon
SEVERITIES = ("now", "soon", "advice")
BLOCKING = frozenset({"now", "soon"})
DEFAULT_HORIZON = 60
YEAR = 365
FINDING_COLUMNS = {"hotel_code": "int64", "hotel_name": "string", "inv_type_code": "string", "room_name": "string",
                   "rate_plan_code": "string", "rate_name": "string", "finding": "string", "severity": "string",
                   "from_date": "datetime64[s]", "to_date": "datetime64[s]", "nights": "Int64", "message": "string",
                   "fix": "string"}
#: the findings, with what each means (the letters and the report explain them with these words)
FINDINGS = {
    "not_priced": "active on the platform, but never priced (no accepted price, none in the sheets)",
    "not_sent": "priced in the sheets, but no price was ever accepted by the platform",
    "unknown_to_platform": "priced, but the platform has no such active room-rate (unmapped)",
    "ended": "no bookable night from the as-of date on",
    "ending_soon": "the last bookable night falls within the horizon",
    "gap": "unpriced nights before the last bookable night",
    "short_of_year": "fewer than 365 nights priced ahead",
    "closed": f"nights priced 0 (not bookable) in the next {CLOSED_WINDOW} nights",
    "child_rate_priced": "prices for a child rate, which takes its price from its parent rate",
    "read_only_rate_priced": "prices for a read-only rate, which the partner cannot price",
    "no_kitchen": "an apartment-type room type without a kitchen or kitchenette, which cannot be booked",
    "inactive_room_priced": "prices for a room type that is not active on the platform",
}
PLATFORM_RATE_COLUMNS = {"hotel_code": "int64", "inv_type_code": "string", "rate_plan_code": "string",
                         "rate_name": "string", "active": "boolean", "is_child": "boolean", "read_only": "boolean",
                         "follows_price": "boolean"}


@dataclass
class PlatformView:
    """What the platform has, as far as it is known.

    ``room_rates`` (``PLATFORM_RATE_COLUMNS``; ``active`` False = known but inactive), ``rooms``
    (hotel_code, inv_type_code, room_name) and ``properties`` (hotel_code, hotel_name) for the
    properties in ``hotels`` (those whose room-rates were read, or are in a registry). ``room_types``
    (hotel_code, inv_code, room_type, room_name) and ``amenities`` (hotel_code, inv_code,
    amenity_code) are the active room types read from OTA_HotelDescriptiveInfo for the properties
    in ``room_types_read``.
    """

    room_rates: pd.DataFrame = field(default_factory=lambda: empty(PLATFORM_RATE_COLUMNS))
    rooms: pd.DataFrame = field(default_factory=lambda: empty(
        {"hotel_code": "int64", "inv_type_code": "string", "room_name": "string"}))
    properties: pd.DataFrame = field(default_factory=lambda: empty({"hotel_code": "int64", "hotel_name": "string"}))
    hotels: frozenset[int] = frozenset()
    room_types: pd.DataFrame | None = None
    amenities: pd.DataFrame | None = None
    room_types_read: frozenset[int] = frozenset()


def _day(ts: object) -> str:
    return pd.Timestamp(ts).strftime("%Y-%m-%d")


def room_rate_status(view: PlatformView, coverage: pd.DataFrame, as_of: dt.date,
                     pending: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per room-rate known anywhere (platform, accepted prices, sheets) with its flags and
    coverage: the table behind the findings and the report."""
    rates = view.room_rates.astype(PLATFORM_RATE_COLUMNS)
    cov = coverage.astype(COVERAGE_COLUMNS)
    pend = (pending if pending is not None else empty(COVERAGE_COLUMNS)).astype(COVERAGE_COLUMNS)
    keys = pd.concat([rates[KEY], cov[KEY], pend[KEY]], ignore_index=True).drop_duplicates(ignore_index=True)
    rr = keys.merge(rates, on=KEY, how="left").merge(cov, on=KEY, how="left")
    p = pend[[*KEY, "first_night", "bookable_until", "nights_ahead"]].rename(columns={
        "first_night": "sheet_from", "bookable_until": "sheet_until", "nights_ahead": "sheet_nights_ahead"})
    rr = rr.merge(p, on=KEY, how="left")
    rr["accepted"] = rr["first_night"].notna()
    rr["in_sheets"] = rr["sheet_from"].notna()
    for c in ("nights_ahead", "gap_nights", "closed_nights", "sheet_nights_ahead"):
        rr[c] = rr[c].fillna(0).astype("int64")
    rr["platform_known"] = rr["hotel_code"].isin(view.hotels)
    rr["on_platform"] = rr["active"].fillna(False).astype(bool)
    known_rooms = pd.MultiIndex.from_frame(view.rooms[["hotel_code", "inv_type_code"]].astype(
        {"hotel_code": "int64", "inv_type_code": "string"}))
    rr["room_known"] = pd.MultiIndex.from_frame(rr[["hotel_code", "inv_type_code"]]).isin(known_rooms) | \
        rr["on_platform"]
    child = rr["is_child"].fillna(False).astype(bool)
    read_only = rr["read_only"].fillna(False).astype(bool)
    own_price = rr["follows_price"].eq(False).fillna(False).astype(bool)  # registry: the child has its own prices
    rr["role"] = np.select([read_only, child & ~own_price, child], ["read_only", "child", "child_own_prices"],
                           "standard")
    rr["priced_ahead"] = (rr["nights_ahead"] > 0) | (rr["sheet_nights_ahead"] > 0)
    names = view.properties.drop_duplicates("hotel_code").set_index("hotel_code")["hotel_name"]
    rr["hotel_name"] = rr["hotel_code"].map(names).astype("string")
    rooms = view.rooms.drop_duplicates(["hotel_code", "inv_type_code"]).set_index(["hotel_code", "inv_type_code"])
    rr["room_name"] = pd.Series(rooms["room_name"].reindex(pd.MultiIndex.from_frame(
        rr[["hotel_code", "inv_type_code"]])).to_numpy(), index=rr.index, dtype="string")
    inactive = _inactive_rooms(view)
    rr["room_inactive"] = pd.MultiIndex.from_frame(rr[["hotel_code", "inv_type_code"]]).isin(inactive)
    rr["as_of"] = pd.Timestamp(as_of)
    return rr.sort_values(KEY, kind="stable").reset_index(drop=True)


def _inactive_rooms(view: PlatformView) -> pd.MultiIndex:
    """Rooms the platform lists (roomrates) whose type is not among the active ones DescriptiveInfo read."""
    if view.room_types is None or not view.room_types_read:
        return pd.MultiIndex.from_tuples([], names=["hotel_code", "inv_type_code"])
    active = set(zip(view.room_types["hotel_code"].astype("int64"), view.room_types["inv_code"].astype(str),
                     strict=True))
    listed = view.rooms[view.rooms["hotel_code"].isin(view.room_types_read)]
    pairs = [(int(h), str(r)) for h, r in zip(listed["hotel_code"], listed["inv_type_code"], strict=True)
             if (int(h), str(r)) not in active]
    return pd.MultiIndex.from_tuples(pairs, names=["hotel_code", "inv_type_code"])


def find_problems(view: PlatformView, coverage: pd.DataFrame, *, as_of: dt.date, horizon: int = DEFAULT_HORIZON,
                  pending: pd.DataFrame | None = None, gaps: pd.DataFrame | None = None,
                  status: pd.DataFrame | None = None) -> pd.DataFrame:
    """The findings frame (``FINDING_COLUMNS``), most urgent first.

    ``coverage``: the accepted prices' figures per room-rate; ``pending``: the same figures of
    prices in sheets not yet pushed; ``gaps``: the gap ranges (``coverage.gap_ranges``) of the
    room-rates with gaps, for their dates (without it a gap finding spans its first to last
    unpriced night as the coverage says).
    """
    if horizon < 1:
        raise ValueError(f"the horizon must be at least 1 night, not {horizon}")
    rr = status if status is not None else room_rate_status(view, coverage, as_of, pending)
    a = pd.Timestamp(as_of)
    horizon_last = a + pd.Timedelta(days=horizon - 1)
    year_last = a + pd.Timedelta(days=YEAR - 1)
    rows: list[dict] = []

    def add(r: object, finding: str, severity: str, message: str, fix: str, start: object = None,
            end: object = None, nights: int | None = None, rate: bool = True) -> None:
        rows.append({"hotel_code": r.hotel_code, "hotel_name": r.hotel_name, "inv_type_code": r.inv_type_code,  # type: ignore[attr-defined]
                     "room_name": r.room_name, "rate_plan_code": r.rate_plan_code if rate else pd.NA,  # type: ignore[attr-defined]
                     "rate_name": r.rate_name if rate else pd.NA, "finding": finding, "severity": severity,  # type: ignore[attr-defined]
                     "from_date": start, "to_date": end, "nights": nights, "message": message, "fix": fix})

    gap_of = {}
    if gaps is not None and len(gaps):
        for k, g in gaps.groupby(KEY, sort=False):
            gap_of[k] = list(zip(g["start"], g["end"], g["nights"], strict=True))
    live = rr[~rr["room_inactive"]]
    for r in live.itertuples(index=False):
        # without the platform's view of a property, what was priced is taken to be what it has
        on_platform = r.on_platform if r.platform_known else (r.accepted or r.in_sheets)
        if not on_platform:
            if r.platform_known and r.priced_ahead:
                what = (f"room type `{r.inv_type_code}` is not on the platform" if not r.room_known else
                        f"rate plan `{r.rate_plan_code}` is not active for room type `{r.inv_type_code}`")
                where = "accepted earlier" if r.nights_ahead else "in the sheets"
                start = _first_ahead(r, a)
                add(r, "unknown_to_platform", "now", f"priced ({where}) from {_day(start)}, but {what}",
                    "map the room and rate in the channel manager to the platform's codes, or ask the property "
                    "to activate this rate for this room", start)
            continue
        if r.role == "read_only":
            if r.priced_ahead:
                add(r, "read_only_rate_priced", "advice", "prices are sent for a read-only rate; the platform "
                    "prices it itself and refuses them", "stop sending prices for this rate", _first_ahead(r, a))
            continue
        if r.role == "child":
            if r.priced_ahead:
                add(r, "child_rate_priced", "advice", "prices are sent for a child rate, which takes its price "
                    "from its parent rate; a rate that follows its parent's price refuses them",
                    "price the parent rate instead, or ask the property to unlink the child rate's price",
                    _first_ahead(r, a))
            continue
        if not r.accepted:
            if r.in_sheets:
                add(r, "not_sent", "now", f"priced in the sheets from {_day(r.sheet_from)} to {_day(r.sheet_until)} "
                    "but never accepted by the platform: guests cannot book it", "push the sheets (`workbench push "
                    "rates`) and check the push report", a)
            else:
                add(r, "not_priced", "now", "active on the platform but never priced: guests cannot book it",
                    "map this room-rate in the channel manager and load at least a year of prices, or ask the "
                    "property to deactivate it", a)
            continue
        bu = r.bookable_until
        sheet_note = (f"; the sheets carry prices until {_day(r.sheet_until)}: push them"
                      if pd.notna(r.sheet_until) and (pd.isna(bu) or r.sheet_until > bu) else "")
        if pd.isna(bu) or bu < a:
            since = a if pd.isna(bu) else bu + pd.Timedelta(days=1)
            said = "every accepted price is 0" if pd.isna(bu) else f"the last bookable night was {_day(bu)}"
            add(r, "ended", "now", f"not bookable from {_day(a)} on: {said}",
                f"load prices from {_day(a)} to at least {_day(year_last)}" + sheet_note, since)
            continue
        if bu <= horizon_last:
            add(r, "ending_soon", "soon", f"no longer bookable after {_day(bu)}",
                f"load prices after {_day(bu)} to at least {_day(year_last)}" + sheet_note,
                bu + pd.Timedelta(days=1))
        elif r.nights_ahead < YEAR:
            add(r, "short_of_year", "advice", f"{r.nights_ahead} nights priced from {_day(a)} on, fewer than a "
                f"year ({YEAR}); bookable until {_day(bu)}", f"load prices to at least {_day(year_last)}" + sheet_note,
                bu + pd.Timedelta(days=1), nights=int(r.nights_ahead))
        if r.gap_nights > 0:
            ranges = gap_of.get((r.hotel_code, r.inv_type_code, r.rate_plan_code)) or [(pd.NaT, pd.NaT, r.gap_nights)]
            for start, end, nights in ranges:  # one finding per run of unpriced nights
                severity = "now" if pd.isna(start) or start <= a else ("soon" if start <= horizon_last else "advice")
                when = _range(start, end) if pd.notna(start) else "dates not read"
                add(r, "gap", severity, f"{count(nights, 'unpriced night')} before the last bookable night "
                    f"({_day(bu)}): {when}", "load prices for these nights (or price them 0 if the room-rate is "
                    "closed then)", start, end, nights=int(nights))
        if r.closed_nights > 0:
            share = r.closed_nights / CLOSED_WINDOW
            severity = "now" if share >= 1 else ("soon" if share >= 0.5 else "advice")
            add(r, "closed", severity, f"{r.closed_nights} of the next {CLOSED_WINDOW} nights ({share:.0%}) are "
                "priced 0, so guests cannot book them", "check with the property that these nights are meant to "
                "be closed; otherwise load prices above 0", a, a + pd.Timedelta(days=CLOSED_WINDOW - 1),
                nights=int(r.closed_nights))
    _room_findings(rr, view, add)
    return _frame(rows)


def _first_ahead(r: object, a: pd.Timestamp) -> pd.Timestamp:
    first = [d for d in (r.first_night, r.sheet_from) if pd.notna(d)]  # type: ignore[attr-defined]
    return max(a, min(first)) if first else a


def _range(start: object, end: object) -> str:
    return _day(start) if pd.Timestamp(start) == pd.Timestamp(end) else f"{_day(start)} to {_day(end)}"


def _room_findings(rr: pd.DataFrame, view: PlatformView, add) -> None:
    """Room types that cannot be booked: inactive but priced, apartment types without a kitchen."""
    inactive = rr[rr["room_inactive"] & rr["priced_ahead"]].drop_duplicates(["hotel_code", "inv_type_code"])
    for r in inactive.itertuples(index=False):
        add(r, "inactive_room_priced", "now", f"room type `{r.inv_type_code}` is priced ahead but not active on "
            "the platform: guests cannot book it", "ask the property to reactivate the room type, or stop sending "
            "its prices", rate=False)
    if view.room_types is None or view.amenities is None or view.room_types.empty:
        return
    # the rooms rules, defined once; imported here because `expectations` loads Great Expectations (seconds)
    from expectations.rooms import KITCHEN_CODES, KITCHEN_REQUIRED, room_type_name

    types = view.room_types[view.room_types["hotel_code"].isin(view.room_types_read)].copy()
    types["type_name"] = types["room_type"].map(room_type_name)
    am = view.amenities
    kitchens = set(zip(am.loc[am["amenity_code"].isin(KITCHEN_CODES), "hotel_code"].astype("int64"),
                       am.loc[am["amenity_code"].isin(KITCHEN_CODES), "inv_code"].astype(str), strict=True))
    names = view.properties.drop_duplicates("hotel_code").set_index("hotel_code")["hotel_name"]
    for t in types.itertuples(index=False):
        if t.type_name in KITCHEN_REQUIRED and (int(t.hotel_code), str(t.inv_code)) not in kitchens:
            row = pd.Series({"hotel_code": int(t.hotel_code), "hotel_name": names.get(int(t.hotel_code), pd.NA),
                             "inv_type_code": str(t.inv_code), "room_name": t.room_name, "rate_plan_code": pd.NA,
                             "rate_name": pd.NA})
            add(_Row(row), "no_kitchen", "now", f"room type `{t.inv_code}` is an {t.type_name} without a kitchen "
                "or kitchenette: the platform does not let guests book it", "add a kitchen (amenity 59) or a "
                "kitchenette (amenity 61) to the room type (`workbench push rooms`)", rate=False)


class _Row:
    def __init__(self, row: pd.Series) -> None:
        self.__dict__.update(row.to_dict())


def _frame(rows: list[dict]) -> pd.DataFrame:
    if not rows:
        return empty(FINDING_COLUMNS)
    out = pd.DataFrame(rows, columns=list(FINDING_COLUMNS))
    for c in ("from_date", "to_date"):
        out[c] = pd.to_datetime(out[c])
    out = out.astype(FINDING_COLUMNS)
    out["_s"] = out["severity"].map({s: i for i, s in enumerate(SEVERITIES)})
    out["_f"] = out["finding"].map({f: i for i, f in enumerate(FINDINGS)})
    return (out.sort_values(["_s", "hotel_code", "inv_type_code", "rate_plan_code", "_f"], kind="stable",
                            na_position="first")
            .drop(columns=["_s", "_f"]).reset_index(drop=True))
