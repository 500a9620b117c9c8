"""Rules over groups of rows and the registry facts the row rules need (vectorised pandas)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from expectations._keys import Coder, Keys
from loaders import Registry
from loaders.issues import empty_issues, issues_where
from loaders.wording import agree

if TYPE_CHECKING:
    from expectations.rate_check import RateCheck

COVERAGE_DAYS = 365


def property_currency(c: RateCheck) -> pd.DataFrame:
    """Each hotel's currency: the registry's, else the currency most of its prices use."""
    f = c.frame
    keys = c.coder.keys("hotel_code", "currency_code")
    counts = np.bincount(keys.ids, minlength=keys.size)
    firsts = f.iloc[keys.first][["hotel_code", "currency_code"]].reset_index(drop=True)
    firsts["n"] = counts
    firsts = firsts.dropna(subset=["hotel_code", "currency_code"])
    majority = (firsts.sort_values("n", ascending=False, kind="stable")
                .drop_duplicates("hotel_code").set_index("hotel_code")["currency_code"])
    out = pd.DataFrame({"currency": majority.astype("string"), "source": "majority"})
    props = c.registry.properties.dropna(subset=["hotel_code", "currency_code"]).set_index("hotel_code")
    known = props["currency_code"].astype("string")
    out = out.reindex(out.index.union(known.index))
    out.loc[known.index, "currency"] = known
    out.loc[known.index, "source"] = "registry"
    return out


def fx_missing(c: RateCheck, p: pd.DataFrame, keys: Keys) -> pd.DataFrame:
    """A warning, once per hotel and currency, when the FX table cannot convert the price to euros."""
    from expectations.reference import currency_minor_units

    iso = set(currency_minor_units())
    missing = p["amount_eur"].isna() & p["currency_code"].isin(iso)
    if not missing.any():
        return empty_issues()
    firsts = p[missing].drop_duplicates(["hotel_code", "currency_code"])
    rows = c.frame.iloc[keys.first[firsts.index.to_numpy()]]
    mask = np.zeros(len(c.frame), dtype=bool)
    mask[rows.index.to_numpy()] = True
    return issues_where(c.frame, mask, column=c.header(rows, "currency_code", "CurrencyCode"),
                        value=rows["currency_code"], rule="price_cap_unchecked", severity="warning",
                        message=(f"the FX table ({c.fx.source}, {c.fx.as_of}) has no rate for "
                                 + rows["currency_code"].astype(str)
                                 + ": the 50,000 EUR cap was not checked for this currency; add it with --fx"))


def annotate_room_rates(registry: Registry, r: pd.DataFrame) -> pd.DataFrame:
    """Add to distinct (hotel, room, rate, guests) rows what the registry says about them."""
    props = registry.properties[["hotel_code", "pricing_model"]].drop_duplicates("hotel_code")
    rooms = registry.rooms[["hotel_code", "inv_type_code", "max_adult_occupancy"]].drop_duplicates(
        ["hotel_code", "inv_type_code"])
    mapping = registry.room_rates[["hotel_code", "inv_type_code", "rate_plan_code", "active", "is_child_rate",
                                   "parent_rate_plan_code", "follows_price", "read_only"]].drop_duplicates(
        ["hotel_code", "inv_type_code", "rate_plan_code"])
    out = r.merge(props, on="hotel_code", how="left")
    out = out.merge(rooms, on=["hotel_code", "inv_type_code"], how="left")
    out = out.merge(mapping, on=["hotel_code", "inv_type_code", "rate_plan_code"], how="left", indicator="_mapped")
    hotels_with_rooms = set(registry.rooms["hotel_code"].dropna())
    hotels_with_rates = set(registry.room_rates["hotel_code"].dropna())
    rooms_known = out["hotel_code"].isin(hotels_with_rooms) | out["hotel_code"].isin(hotels_with_rates)
    room_exists = out["max_adult_occupancy"].notna() | out["inv_type_code"].isin(
        registry.room_rates.loc[registry.room_rates["hotel_code"].isin(out["hotel_code"]), "inv_type_code"])
    room_pairs = set(zip(registry.rooms["hotel_code"], registry.rooms["inv_type_code"], strict=True)) | set(
        zip(registry.room_rates["hotel_code"], registry.room_rates["inv_type_code"], strict=True))
    room_exists = pd.Series([(h, i) in room_pairs for h, i in zip(out["hotel_code"], out["inv_type_code"],
                                                                  strict=True)], index=out.index)
    unknown_room = rooms_known & ~room_exists
    out["unknown_room"] = out["inv_type_code"].where(unknown_room)
    mapped = out["_mapped"] == "both"
    inactive = out["hotel_code"].isin(hotels_with_rates) & room_exists & (~mapped | ~out["active"].fillna(True))
    out["inactive_rate"] = out["rate_plan_code"].where(inactive)
    live = mapped & out["active"].fillna(True)
    # a child rate inherits its price unless the registry says FollowsPrice = 0 (the platform never says)
    child = out["is_child_rate"].fillna(False) | out["parent_rate_plan_code"].notna()
    out["following_child_rate"] = out["rate_plan_code"].where(live & child & out["follows_price"].fillna(True))
    out["read_only_rate"] = out["rate_plan_code"].where(live & out["read_only"].fillna(False))
    out["guests_headroom"] = (out["max_adult_occupancy"].astype("Float64")
                              - out["number_of_guests"].astype("Float64")).astype("float64")
    out["guests_on_standard"] = out["number_of_guests"].where(out["pricing_model"] == "Standard").astype("float64")
    return out.drop(columns="_mapped")


def first_occurrence(frame: pd.DataFrame, ids: np.ndarray) -> np.ndarray:
    """For each row of ``frame``, the position of the first row in file order (files and sheets in
    the order read, then Excel row) that has the same ``ids`` value."""
    n = len(frame)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    sheet_rank = pd.factorize(pd.MultiIndex.from_arrays([frame["source"], frame["sheet"]]))[0]
    row = frame["row"].astype("Int64").fillna(0).to_numpy(dtype=np.int64)
    in_order = bool(np.all(np.diff(sheet_rank) >= 0) and np.all((np.diff(sheet_rank) > 0) | (np.diff(row) >= 0)))
    order = np.arange(n) if in_order else np.lexsort((np.arange(n), row, sheet_rank))
    uniq, first_idx = np.unique(ids[order], return_index=True)
    first_of_id = np.empty(int(uniq.max()) + 1, dtype=np.int64)
    first_of_id[uniq] = order[first_idx]
    return first_of_id[ids]


def group_rules(c: RateCheck, errored: np.ndarray | None = None) -> list[pd.DataFrame]:
    """The rules over groups of rows; ``errored`` marks the rows with an error (no price of theirs
    counts towards coverage, and a rate plan only on such rows gets no coverage warning)."""
    return [_guests_all_or_none(c), _occupancy_pricing_without_guests(c), unknown_property(c),
            _coverage(c, errored), _not_checked(c)]


#: Where each missing fact comes from in a registry file (named in the ``not_checked`` message).
REGISTRY_HINT = ("give them with `--registry FILE` (a workbook or CSVs: Properties `HotelCode`, `CurrencyCode`, "
                 "`PricingModel`; Rooms `HotelCode`, `InvTypeCode`, `MaxAdultOccupancy`; RoomRates `HotelCode`, "
                 "`InvTypeCode`, `RatePlanCode`, `Active`, `ParentRatePlanCode`, `FollowsPrice`, `ReadOnly`)")


def missing_facts(frame: pd.DataFrame, registry: Registry, coder: Coder | None = None) -> pd.DataFrame:
    """Per property of ``frame``: the rules that could not run (or ran on a guess) for lack of a fact
    the platform does not send and no registry gave. Columns ``hotel_code``, ``rules`` (rule ids),
    ``why`` (for people). Properties with every fact known are left out."""
    coder = coder or Coder(frame)
    columns = ["hotel_code", "rules", "why"]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    hotels = frame["hotel_code"].to_numpy()[coder.keys("hotel_code").first]
    props = registry.properties.drop_duplicates("hotel_code").set_index("hotel_code")
    currency = set(props.index[props["currency_code"].notna()])
    pricing = set(props.index[props["pricing_model"].notna()])
    rr, rooms = registry.room_rates, registry.rooms
    with_rates, with_rooms = set(rr["hotel_code"].dropna()), set(rooms["hotel_code"].dropna())
    pairs = frame.iloc[coder.keys("hotel_code", "inv_type_code", "number_of_guests").first]
    pairs = pairs.loc[pairs["number_of_guests"].notna(), ["hotel_code", "inv_type_code"]].drop_duplicates()
    max_known = set(zip(*[rooms.loc[rooms["max_adult_occupancy"].notna(), c] for c in ("hotel_code", "inv_type_code")],
                        strict=True))
    no_max: dict[object, list[str]] = {}
    for h, room in pairs.itertuples(index=False):
        if (h, room) not in max_known:
            no_max.setdefault(h, []).append(str(room))
    unsure = rr[(rr["is_child_rate"].fillna(False) | rr["parent_rate_plan_code"].notna()) & rr["follows_price"].isna()]
    unsure_keys = set(zip(unsure["hotel_code"], unsure["inv_type_code"], unsure["rate_plan_code"], strict=True))
    unsure_codes: dict[object, set[str]] = {}
    if unsure_keys:
        priced = frame.iloc[coder.keys("hotel_code", "inv_type_code", "rate_plan_code").first]
        for h, room, rate in priced[["hotel_code", "inv_type_code", "rate_plan_code"]].itertuples(index=False):
            if (h, room, rate) in unsure_keys:
                unsure_codes.setdefault(h, set()).add(str(rate))
    out: list[dict] = []
    for hotel in sorted(hotels):
        rules: list[str] = []
        why: list[str] = []
        if hotel not in currency:
            rules.append("property_currency")
            why.append("`property_currency` checked only against the currency most of its prices use (its "
                       "currency is not known)")
        if hotel not in pricing:
            rules += ["guests_pricing_model", "guests_for_occupancy_pricing"]
            why.append("`guests_pricing_model` and `guests_for_occupancy_pricing` did not run (its pricing model "
                       "is not known)")
        unknown_rates = room_rate_facts(hotel, with_rates, with_rooms,
                                        ["rate_not_active_for_room", "child_rate_follows_price", "read_only_rate"])
        if unknown_rates is not None:
            rules += unknown_rates[0]
            why.append(unknown_rates[1])
        if hotel in no_max:
            rooms_ = sorted(no_max[hotel])
            rules.append("guests_max")
            why.append(f"`guests_max` did not run for {agree(len(rooms_), 'room')} {', '.join(rooms_)} "
                       "(MaxAdultOccupancy is not known)")
        if hotel in unsure_codes:
            codes = sorted(unsure_codes[hotel])
            rules.append("child_rate_follows_price")
            why.append(f"child {agree(len(codes), 'rate')} {', '.join(codes)} taken to follow the "
                       "parent's price (`FollowsPrice` is not known)")
        if rules:
            out.append({"hotel_code": hotel, "rules": list(dict.fromkeys(rules)), "why": "; ".join(why)})
    return pd.DataFrame(out, columns=columns)


def room_rate_facts(hotel: object, with_rates: set, with_rooms: set,
                    needing_rates: list[str]) -> tuple[list[str], str] | None:
    """For a property whose rate plans (and maybe rooms) no registry gave: the rules that did not run
    (``unknown_room`` too when its rooms are not known either, then ``needing_rates``) and why; None
    when its rate plans are known."""
    if hotel in with_rates:
        return None
    named = ([] if hotel in with_rooms else ["unknown_room"]) + needing_rates
    what = "rate plans are" if hotel in with_rooms else "rooms and rate plans are"
    return named, ", ".join(f"`{r}`" for r in named) + f" did not run (its {what} not known)"


def _not_checked(c: RateCheck) -> pd.DataFrame:
    return not_checked_issues(c, missing_facts(c.frame, c.registry, c.coder),
                              "no registry gave (the platform's roomrates sends rooms and rate plans, never a currency, "
                              "a pricing model or FollowsPrice)", REGISTRY_HINT)


def not_checked_issues(c: RateCheck, missing: pd.DataFrame, lacking: str, hint: str) -> pd.DataFrame:
    """A ``not_checked`` warning on the first row of each property of ``missing`` (``hotel_code, why``):
    "not fully checked for lack of facts ``lacking``: ``why``; ``hint``"."""
    if missing.empty:
        return empty_issues()
    f = c.frame
    keys = c.coder.keys("hotel_code")
    hotels = pd.Series(f["hotel_code"].to_numpy()[keys.first])
    groups = np.flatnonzero(hotels.isin(missing["hotel_code"]).to_numpy())
    mask = _first_rows_mask(c, keys, groups)
    rows = f.loc[mask]
    why = rows["hotel_code"].map(missing.set_index("hotel_code")["why"])
    return issues_where(f, mask, column=c.header(rows, "hotel_code", "HotelCode"), value=rows["hotel_code"],
                        rule="not_checked", severity="warning",
                        message=("property " + rows["hotel_code"].astype(str) + f" is not fully checked for lack "
                                 f"of facts {lacking}: " + why.astype(str) + "; " + hint))


def _first_rows_mask(c: RateCheck, keys: Keys, groups: np.ndarray) -> np.ndarray:
    mask = np.zeros(len(c.frame), dtype=bool)
    mask[keys.first[groups]] = True
    return mask


def _guests_all_or_none(c: RateCheck) -> pd.DataFrame:
    f = c.frame
    hotel_codes, n_hotels = c.coder.codes("hotel_code")
    has = f["number_of_guests"].notna().to_numpy()
    with_g = np.bincount(hotel_codes, weights=has, minlength=n_hotels)
    total = np.bincount(hotel_codes, minlength=n_hotels)
    without = total - with_g
    mixed = (with_g > 0) & (without > 0)
    if not mixed.any():
        return empty_issues()
    minority_has = with_g < without  # flag the smaller group; on a tie, the rows without guests
    flag = mixed[hotel_codes] & (has == minority_has[hotel_codes])
    rows = f.loc[flag]
    msg = np.where(rows["number_of_guests"].notna().to_numpy(),
                   "this property's other prices have no NumberOfGuests: within one property every row "
                   "has NumberOfGuests or none does; clear it here or fill it everywhere",
                   "this property's other prices have NumberOfGuests: within one property every row has "
                   "NumberOfGuests or none does; fill it in (1 = single occupancy)")
    return issues_where(f, flag, column=c.header(rows, "number_of_guests", "NumberOfGuests"),
                        value=rows["number_of_guests"], rule="guests_all_or_none", severity="error",
                        message=pd.Series(msg, index=rows.index))


def _occupancy_pricing_without_guests(c: RateCheck) -> pd.DataFrame:
    f = c.frame
    models = c.registry.properties.set_index("hotel_code")["pricing_model"].dropna()
    occ = models[models.isin(["OBP", "LOS"])]
    if occ.empty:
        return empty_issues()
    keys = c.coder.keys("hotel_code")
    hotels = f["hotel_code"].to_numpy()[keys.first]
    has = np.bincount(keys.ids, weights=f["number_of_guests"].notna().to_numpy(), minlength=keys.size)
    groups = np.flatnonzero(pd.Series(hotels).isin(occ.index).to_numpy() & (has == 0))
    if not len(groups):
        return empty_issues()
    mask = _first_rows_mask(c, keys, groups)
    rows = f.loc[mask]
    model = rows["hotel_code"].map(occ)
    return issues_where(f, mask, column=c.header(rows, "number_of_guests", "NumberOfGuests"),
                        value="", rule="guests_for_occupancy_pricing", severity="warning",
                        message=("property " + rows["hotel_code"].astype(str) + " uses " + model.astype(str)
                                 + " pricing but no price has NumberOfGuests: each price will be read as the "
                                   "price for the room's full occupancy; add NumberOfGuests for each occupancy")
                        )


def unknown_property(c: RateCheck) -> pd.DataFrame:
    if c.registry.properties.empty:
        return empty_issues()
    f = c.frame
    keys = c.coder.keys("hotel_code")
    hotels = pd.Series(f["hotel_code"].to_numpy()[keys.first])
    groups = np.flatnonzero(~hotels.isin(c.registry.properties["hotel_code"]).to_numpy())
    if not len(groups):
        return empty_issues()
    mask = _first_rows_mask(c, keys, groups)
    rows = f.loc[mask]
    return issues_where(f, mask, column=c.header(rows, "hotel_code", "HotelCode"),
                        value=rows["hotel_code"], rule="unknown_property", severity="warning",
                        message="property " + rows["hotel_code"].astype(str) + " is not in the registry: its "
                                "currency, pricing model, rooms and rate plans were not checked")


def _coverage(c: RateCheck, errored: np.ndarray | None = None) -> pd.DataFrame:
    f = c.frame
    start = pd.Timestamp(c.as_of)
    end = start + pd.Timedelta(days=COVERAGE_DAYS)
    keys = c.coder.keys("hotel_code", "inv_type_code", "rate_plan_code")
    fine = np.ones(len(f), dtype=bool) if errored is None else ~np.asarray(errored, dtype=bool)
    in_window = ((f["date"] >= start) & (f["date"] < end)).to_numpy() & fine
    day = ((f["date"] - start).dt.days.to_numpy())
    pair = keys.ids.astype(np.int64) * (COVERAGE_DAYS + 1) + np.where(in_window, day, COVERAGE_DAYS)
    uniq = pd.unique(pair[in_window])
    nights = np.bincount(uniq // (COVERAGE_DAYS + 1), minlength=keys.size)
    # a rate plan that exists only on rows with errors is not one to warn about
    plans = c.coder.keys("hotel_code", "rate_plan_code")
    plan_fine = np.bincount(plans.ids[fine], minlength=plans.size) > 0
    on_fine_plan = np.zeros(keys.size, dtype=bool)
    on_fine_plan[keys.ids] = plan_fine[plans.ids]
    groups = np.flatnonzero((nights < COVERAGE_DAYS) & on_fine_plan)
    if not len(groups):
        return empty_issues()
    mask = _first_rows_mask(c, keys, groups)
    rows = f.loc[mask]
    n = pd.Series(nights[keys.ids[mask]], index=rows.index)
    # on the room-rate's RatePlanCode cell (its first row): the value is that cell's, the count in the message
    column = c.header(rows, "rate_plan_code", "RatePlanCode")
    value = rows["rate_plan_code"]
    message = (n.astype(str) + f" of the next {COVERAGE_DAYS} nights (from {c.as_of:%Y-%m-%d}) have a price for room "
               + rows["inv_type_code"].astype(str) + ", rate " + rows["rate_plan_code"].astype(str)
               + ": the platform recommends loading at least 12 months ahead")
    return issues_where(f, mask, column=column, value=value, rule="coverage", severity="warning", message=message)


def as_date(value: dt.date | str | None) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(value)
