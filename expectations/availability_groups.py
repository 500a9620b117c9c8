"""Availability rules over groups of rows (vectorised pandas): repeated cells, a minimum stay above the
maximum of the same night, room-rates priced on nights given no rooms to sell, and what could not be
checked for lack of facts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from expectations._keys import Coder
from expectations.groups import first_occurrence, not_checked_issues, room_rate_facts
from expectations.rates import repeats
from loaders import Registry
from loaders.issues import empty_issues, issues_where
from loaders.schemas import RESTRICTION_HEADERS
from loaders.wording import agree

if TYPE_CHECKING:
    from expectations.availability import AvailabilityRules

#: One value per cell: a property, room type, rate plan (blank: the room type), night and restriction.
CELL_KEY = ("hotel_code", "inv_type_code", "rate_plan_code", "date", "restriction")
#: (minimum, maximum) restrictions compared night by night.
STAY_PAIRS = (("min_stay_arrival", "max_stay_arrival"), ("min_stay_through", "max_stay_through"))
COVERAGE_DAYS = 365
#: Where each missing fact comes from (named in the ``not_checked`` message).
FACTS_HINT = ("give them with `--registry FILE` (Properties `PricingModel`; Rooms `Quantity`; RoomRates "
              "`HotelCode`, `InvTypeCode`, `RatePlanCode`, `Active`, `ParentRatePlanCode`) or the units with "
              "`--rooms FILE`")


def availability_repeats(frame: pd.DataFrame) -> np.ndarray:
    """True for the rows setting a cell an earlier row (file order) already sets: never sent."""
    return repeats(frame, CELL_KEY)


def _where(rows: pd.DataFrame, of: pd.DataFrame) -> np.ndarray:
    """``row N`` for each of ``of``'s rows, with its file and sheet when not those of ``rows``."""
    same = ((rows["source"].to_numpy() == of["source"].to_numpy())
            & (rows["sheet"].to_numpy() == of["sheet"].to_numpy()))
    named = ("`" + of["source"].astype(str) + "`" + np.where(of["sheet"] != "", " sheet `" + of["sheet"].astype(str)
                                                              + "`", "") + " ")
    return np.where(same, "", named.to_numpy()) + "row " + of["row"].astype(str).to_numpy()


def _what(rows: pd.DataFrame) -> pd.Series:
    """``room 101, rate 5001, night 2027-01-02`` (no rate for a room type's row)."""
    rate = rows["rate_plan_code"].astype("string")
    return ("room " + rows["inv_type_code"].astype(str) + pd.Series(np.where(rate.notna(), ", rate " + rate.fillna(""),
                                                                             ""), index=rows.index)
            + ", night " + rows["date"].dt.strftime("%Y-%m-%d"))


def repeated_cells(c: AvailabilityRules) -> pd.DataFrame:
    """A ``duplicate_key`` warning on each row that sets a value an earlier row already sets."""
    keys = c.coder.keys(*CELL_KEY)
    counts = np.bincount(keys.ids, minlength=keys.size)
    if counts.max(initial=0) <= 1:
        return empty_issues()
    positions = np.flatnonzero(counts[keys.ids] > 1)
    involved = c.frame.iloc[positions].reset_index(drop=True)
    first = positions[first_occurrence(involved, keys.ids[positions])]
    later = first != positions
    rows, firsts = c.frame.iloc[positions[later]], c.frame.iloc[first[later]]
    label = rows["restriction"].map(RESTRICTION_HEADERS).astype(str)
    value = rows["value"].astype(str)
    message = ("not sent: repeats " + pd.Series(_where(rows, firsts), index=rows.index) + " (" + label + " of "
               + _what(rows) + "; " + firsts["value"].astype(str).to_numpy() + " there, " + value + " here): the "
               "first in file order is sent and this one is not; delete one of the two")
    mask = np.zeros(len(c.frame), dtype=bool)
    mask[positions[later]] = True
    return issues_where(c.frame, mask, column=rows["amount_column"], value=value, rule="duplicate_key",
                        severity="warning", message=message)


def restriction_codes(c: AvailabilityRules) -> tuple[np.ndarray, dict[str, int]]:
    """Each row's restriction as a code, and the code of each restriction present (no 1M strings compared)."""
    codes, _ = c.coder.codes("restriction")
    first = c.coder.keys("restriction").first
    names = c.frame["restriction"].array.take(first)  # the few first rows' names, not a million texts made
    return codes, {str(name): int(codes[i]) for name, i in zip(names, first, strict=True)}


def min_above_max(c: AvailabilityRules) -> pd.DataFrame:
    """A ``min_above_max`` error on each maximum stay below the minimum of the same room-rate and night
    (rows sent only: a repeat is compared with nothing)."""
    f = c.frame
    restriction, code = restriction_codes(c)
    if not any(hi in code for _, hi in STAY_PAIRS):
        return empty_issues()
    night = c.coder.keys("hotel_code", "inv_type_code", "rate_plan_code", "date").ids
    sent = ~availability_repeats(f) if (c.coder.keys(*CELL_KEY).size < len(f)) else np.ones(len(f), dtype=bool)
    value = f["value"].to_numpy(dtype=np.int64, na_value=0)
    found = []
    for lo, hi in STAY_PAIRS:
        at_lo = np.flatnonzero((restriction == code.get(lo, -1)) & sent)
        at_hi = np.flatnonzero((restriction == code.get(hi, -1)) & sent)
        if not len(at_lo) or not len(at_hi):
            continue
        pairs = pd.DataFrame({"night": night[at_hi], "hi": at_hi}).merge(
            pd.DataFrame({"night": night[at_lo], "lo": at_lo}), on="night")
        bad = pairs[value[pairs["hi"].to_numpy()] < value[pairs["lo"].to_numpy()]]
        found.append(bad[["hi", "lo"]])
    bad = pd.concat(found, ignore_index=True) if found else pd.DataFrame(columns=["hi", "lo"])
    if bad.empty:
        return empty_issues()
    bad = bad.drop_duplicates("hi")
    rows, mins = f.iloc[bad["hi"].to_numpy()], f.iloc[bad["lo"].to_numpy()]
    lo_label = mins["restriction"].map(RESTRICTION_HEADERS).astype(str).to_numpy()
    message = (rows["restriction"].map(RESTRICTION_HEADERS).astype(str) + " " + rows["value"].astype(str)
               + " is below " + lo_label + " " + mins["value"].astype(str).to_numpy() + " ("
               + np.where(_where(rows, mins) == "row " + rows["row"].astype(str).to_numpy(), "same row",
                          _where(rows, mins)) + ") for " + _what(rows)
               + ": no stay could be booked; raise the maximum or lower the minimum")
    mask = np.zeros(len(f), dtype=bool)
    mask[bad["hi"].to_numpy()] = True
    return issues_where(f, mask, column=rows["amount_column"], value=rows["value"].astype(str), rule="min_above_max",
                        severity="error", message=message)


def coverage(c: AvailabilityRules) -> pd.DataFrame:
    """A ``coverage`` warning per room-rate priced (``c.rates``) on nights of the next 365 that this input
    gives no rooms to sell (blank or 0) for its room type, on the room type's first row here."""
    if c.rates is None or c.rates.empty:
        return empty_issues()
    start = pd.Timestamp(c.as_of)
    end = start + pd.Timedelta(days=COVERAGE_DAYS)
    f = c.frame
    cols = ["hotel_code", "inv_type_code", "rate_plan_code", "date"]
    r = c.rates
    priced = r.loc[((r["date"] >= start) & (r["date"] < end) & r["hotel_code"].isin(f["hotel_code"])).to_numpy(
        dtype=bool), cols].drop_duplicates()
    if priced.empty:
        return empty_issues()
    sells = f.loc[((f["restriction"] == "rooms_to_sell") & (f["value"] > 0)).fillna(False).to_numpy(dtype=bool),
                  cols[:2] + ["date"]].drop_duplicates().assign(_sells=True)
    nights = priced.merge(sells, on=["hotel_code", "inv_type_code", "date"], how="left")
    counts = nights.assign(_none=nights["_sells"].isna()).groupby(cols[:3], dropna=False, sort=True).agg(
        priced=("date", "size"), unsold=("_none", "sum")).reset_index()
    counts = counts[counts["unsold"] > 0]
    if counts.empty:
        return empty_issues()
    first_of_room = f.reset_index(drop=True).reset_index().drop_duplicates(["hotel_code", "inv_type_code"])
    first_of_hotel = f.reset_index(drop=True).reset_index().drop_duplicates(["hotel_code"])
    at = counts.merge(first_of_room[["hotel_code", "inv_type_code", "index"]], on=["hotel_code", "inv_type_code"],
                      how="left")
    at["index"] = at["index"].fillna(at[["hotel_code"]].merge(first_of_hotel[["hotel_code", "index"]],
                                                              on="hotel_code", how="left")["index"])
    at = at.drop_duplicates("index")  # one warning per row: the room type's first room-rate missing nights
    rows = f.iloc[at["index"].astype("int64").to_numpy()]
    headers = c.frame.attrs.get("headers", {})
    column = pd.Series([headers.get((s, h), {}).get("rooms_to_sell", v) for s, h, v in
                        zip(rows["source"], rows["sheet"], rows["amount_column"], strict=True)], index=rows.index)
    unsold, total = at["unsold"].astype(int).to_numpy(), at["priced"].astype(int).to_numpy()
    value = pd.Series([f"{u} of {t} priced nights without rooms to sell" for u, t in zip(unsold, total, strict=True)],
                      index=rows.index)
    message = pd.Series([
        f"{u} of the {t} nights room {room}, rate {rate} is priced for in the next {COVERAGE_DAYS} (from "
        f"{c.as_of:%Y-%m-%d}) get no rooms to sell here (RoomsToSell blank or 0): they cannot be booked unless the "
        "platform already has rooms to sell for them; the platform recommends loading 12 months ahead"
        for u, t, room, rate in zip(unsold, total, at["inv_type_code"], at["rate_plan_code"], strict=True)],
        index=rows.index)
    mask = np.zeros(len(f), dtype=bool)
    mask[at["index"].astype("int64").to_numpy()] = True
    return issues_where(f, mask, column=column, value=value, rule="coverage", severity="warning", message=message)


def missing_facts(frame: pd.DataFrame, registry: Registry, quantities: pd.DataFrame,
                  coder: Coder | None = None) -> pd.DataFrame:
    """Per property of ``frame``: the availability rules that could not run for lack of a fact the
    platform does not send and nothing given says (``hotel_code, rules, why``); properties with every
    fact known are left out."""
    columns = ["hotel_code", "rules", "why"]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    frame = frame.iloc[(coder or Coder(frame)).keys("hotel_code", "inv_type_code", "restriction").first]
    props = registry.properties.drop_duplicates("hotel_code").set_index("hotel_code")
    pricing = set(props.index[props["pricing_model"].notna()])
    with_rates = set(registry.room_rates["hotel_code"].dropna())
    with_rooms = set(registry.rooms["hotel_code"].dropna())
    units = set(zip(quantities["hotel_code"], quantities["inv_type_code"], strict=True))
    restricted = set(frame.loc[(frame["restriction"] != "rooms_to_sell").to_numpy(dtype=bool), "hotel_code"])
    sold = frame.loc[(frame["restriction"] == "rooms_to_sell").to_numpy(dtype=bool), ["hotel_code", "inv_type_code"]]
    no_units: dict[object, list[str]] = {}
    for h, room in sold.drop_duplicates().itertuples(index=False):
        if (h, room) not in units:
            no_units.setdefault(h, []).append(str(room))
    out = []
    for hotel in sorted(frame["hotel_code"].dropna().unique()):
        rooms = sorted(no_units.get(hotel, []))
        found = [f for f in (
            (["los_pricing_restriction"], "`los_pricing_restriction` did not run (its pricing model is not known)")
            if hotel in restricted and hotel not in pricing else None,
            room_rate_facts(hotel, with_rates, with_rooms, ["rate_not_active_for_room", "child_rate_restriction"]),
            (["rooms_to_sell_above_quantity"], f"`rooms_to_sell_above_quantity` did not run for "
             f"{agree(len(rooms), 'room')} {', '.join(rooms)} (Quantity is not known)") if rooms else None,
        ) if f is not None]
        if found:
            out.append({"hotel_code": hotel, "rules": [r for f in found for r in f[0]],
                        "why": "; ".join(f[1] for f in found)})
    return pd.DataFrame(out, columns=columns)


def not_checked(c: AvailabilityRules) -> pd.DataFrame:
    """A ``not_checked`` warning on each property's first row naming the rules that did not run."""
    return not_checked_issues(c, missing_facts(c.frame, c.registry, c.quantities, c.coder),
                              "nothing given says (the platform's roomrates sends rooms and rate plans, never a "
                              "pricing model or a room type's units)", FACTS_HINT)
