"""What availability tells about a property's health: rooms running out, priced nights nobody can book, and
room-rates that stop being bookable because availability ends before the prices do.

Pure: the platform's availability (the fetch frame of ``roomrateavailability``, one row per room type and
room-rate and night) and, optionally, the accepted prices per room-rate and night in; findings out, in the
columns of :data:`workbench.health.findings.FINDING_COLUMNS` (one finding per room type or room-rate, its
first and last night and how many nights):

- ``low_availability`` (room type): nights within the horizon with rooms left to sell (rooms to sell minus
  booked) at or below the threshold but above 0, and open;
- ``not_bookable`` (room-rate): nights within the horizon priced above 0 but closed (the room type or the
  room-rate) or with no room left to sell, before the room-rate's last sellable night;
- ``availability_ends`` (room-rate): the room-rate is priced beyond its last sellable night (the last night
  it is open with a room left), so it is bookable only until then; reported when that night falls before the
  end of the nights read (else the read, not the availability, ended).

Severity as for the other findings: ``now`` when today's night is hit, ``soon`` within the horizon,
``advice`` beyond it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import pandas as pd

from workbench.health.coverage import empty
from workbench.health.findings import DEFAULT_HORIZON, FINDING_COLUMNS, SEVERITIES
from workbench.wording import count

AVAILABILITY_FINDINGS = {
    "low_availability": "few rooms left to sell (rooms to sell minus booked at or below the threshold) within the "
                        "horizon",
    "not_bookable": "nights priced, but closed or with no room left to sell (guests cannot book them)",
    "availability_ends": "priced beyond the last night with a room to sell: bookable only until then",
}
DEFAULT_LOW = 1  # rooms left at or below which a night counts as low
PRICE_COLUMNS = {"hotel_code": "int64", "inv_type_code": "string", "rate_plan_code": "string",
                 "date": "datetime64[s]", "price": "float64"}


def availability_findings(availability: pd.DataFrame, prices: pd.DataFrame | None = None, *, as_of: dt.date,
                          horizon: int = DEFAULT_HORIZON, low: int = DEFAULT_LOW,
                          names: pd.DataFrame | None = None) -> pd.DataFrame:
    """The findings of ``availability`` (the fetch frame) and ``prices`` (``hotel_code, inv_type_code,
    rate_plan_code, date, price``: the accepted price per room-rate and night; without them the room-rates
    read are taken as priced on every night read). ``names``: ``hotel_code, hotel_name`` (optional)."""
    if horizon < 1:
        raise ValueError(f"the horizon must be at least 1 night, not {horizon}")
    if availability.empty:
        return empty(FINDING_COLUMNS)
    a = pd.Timestamp(as_of)
    last_in = a + pd.Timedelta(days=horizon - 1)
    f = availability.assign(rate_plan_code=availability["rate_plan_code"].astype("string"),
                            date=pd.to_datetime(availability["date"]).astype("datetime64[s]"))
    f = f[f["date"] >= a]
    room = f[f["rate_plan_code"].isna()].set_index(["hotel_code", "inv_type_code", "date"])
    left = (room["rooms_to_sell"].astype("Int64").fillna(0) - room["booked"].astype("Int64").fillna(0)).astype("int64")
    room_closed = room["closed"].astype("Int64").fillna(0).astype(bool)
    read_end = f["date"].max()
    rows: list[dict] = []
    # rooms running out: per room type, open nights within the horizon with 0 < left <= low
    thin = (left > 0) & (left <= low) & ~room_closed & (left.index.get_level_values("date") <= last_in)
    for (hotel, inv), nights in _groups(left[thin]):
        days = nights.index.get_level_values("date")
        rows.append(_row(hotel, inv, pd.NA, "low_availability", _severity(days.min(), a, last_in), days,
                         f"{count(len(days), 'night')} within {horizon} with {int(nights.min())} to "
                         f"{count(int(nights.max()), 'room')} left to sell (at most {low}), first {_day(days.min())}",
                         "raise rooms to sell for these nights if there are rooms (`workbench push availability`), "
                         "or expect them to sell out"))
    rates = f[f["rate_plan_code"].notna()]
    if rates.empty:
        return _frame(rows, names)
    key = pd.MultiIndex.from_frame(rates[["hotel_code", "inv_type_code", "date"]])
    sellable = pd.Series((left.reindex(key).fillna(0).to_numpy() > 0) & ~room_closed.reindex(key).fillna(False)
                         .to_numpy(dtype=bool) & ~rates["closed"].astype("Int64").fillna(0).astype(bool).to_numpy(),
                         index=rates.index)
    priced = _priced(rates, prices)
    for (hotel, inv, rate), g in rates.assign(sellable=sellable, priced=priced).groupby(
            ["hotel_code", "inv_type_code", "rate_plan_code"], sort=True):
        g = g.sort_values("date")
        can = g.loc[g["sellable"], "date"]
        until = can.max() if len(can) else a - pd.Timedelta(days=1)
        paid = g[g["priced"]]
        stuck = paid[~paid["sellable"] & (paid["date"] <= until) & (paid["date"] <= last_in)]
        if len(stuck):
            days = pd.DatetimeIndex(stuck["date"])
            rows.append(_row(hotel, inv, rate, "not_bookable", _severity(days.min(), a, last_in), days,
                             f"{count(len(days), 'night')} priced but closed or with no room left to sell, first "
                             f"{_day(days.min())}", "open these nights and give them rooms to sell (`workbench push "
                             "availability`), or price them 0 if they are meant to be closed"))
        after = paid[paid["date"] > until]
        if len(after) and until < read_end:
            days = pd.DatetimeIndex(after["date"])
            rows.append(_row(hotel, inv, rate, "availability_ends", _severity(until + pd.Timedelta(days=1), a, last_in),
                             days, (f"bookable until {_day(until)}: " if until >= a else "not bookable from today: ")
                             + f"priced up to {_day(days.max())}, but no room to sell (or closed) from "
                             f"{_day(until + pd.Timedelta(days=1))}",
                             f"set rooms to sell from {_day(until + pd.Timedelta(days=1))} on, as far as the prices "
                             "go (`workbench push availability`)"))
    return _frame(rows, names)


def _groups(series: pd.Series) -> list[tuple[tuple[int, str], pd.Series]]:
    if series.empty:
        return []
    return list(series.groupby(level=["hotel_code", "inv_type_code"], sort=True))


def _priced(rates: pd.DataFrame, prices: pd.DataFrame | None) -> np.ndarray:
    """Per room-rate night read: is it priced above 0 (every night when no prices are given)."""
    if prices is None:
        return np.ones(len(rates), dtype=bool)
    p = prices.astype(PRICE_COLUMNS)
    index = pd.MultiIndex.from_frame(p[["hotel_code", "inv_type_code", "rate_plan_code", "date"]])
    found = pd.Series(p["price"].to_numpy(), index=index)
    found = found[~found.index.duplicated()]
    key = pd.MultiIndex.from_arrays([rates["hotel_code"].astype("int64"), rates["inv_type_code"].astype("string"),
                                     rates["rate_plan_code"].astype("string"), rates["date"]])
    return (found.reindex(key).fillna(0).to_numpy() > 0)


def _severity(first: pd.Timestamp, as_of: pd.Timestamp, last_in: pd.Timestamp) -> str:
    return "now" if first <= as_of else "soon" if first <= last_in else "advice"


def _day(ts: object) -> str:
    return pd.Timestamp(ts).strftime("%Y-%m-%d")


def _row(hotel: Any, inv: object, rate: object, finding: str, severity: str, days: pd.DatetimeIndex, message: str,
         fix: str) -> dict:
    return {"hotel_code": int(hotel), "hotel_name": pd.NA, "inv_type_code": str(inv), "room_name": pd.NA,
            "rate_plan_code": rate, "rate_name": pd.NA, "finding": finding, "severity": severity,
            "from_date": days.min(), "to_date": days.max(), "nights": len(days), "message": message, "fix": fix}


def _frame(rows: list[dict], names: pd.DataFrame | None) -> pd.DataFrame:
    if not rows:
        return empty(FINDING_COLUMNS)
    out = pd.DataFrame(rows, columns=list(FINDING_COLUMNS))
    if names is not None and len(names):
        by = names.drop_duplicates("hotel_code").set_index("hotel_code")["hotel_name"]
        out["hotel_name"] = out["hotel_code"].map(by)
    out = out.astype(FINDING_COLUMNS)
    order = out["severity"].map({s: i for i, s in enumerate(SEVERITIES)})
    return out.iloc[np.lexsort((out["inv_type_code"].fillna("").to_numpy(), out["hotel_code"].to_numpy(),
                                order.to_numpy()))].reset_index(drop=True)


__all__ = ["AVAILABILITY_FINDINGS", "DEFAULT_LOW", "availability_findings"]
