"""The platform's rate rules, checked on a canonical rates frame; results as one issues frame.

Row-wise rules run as Great Expectations suites (``expectations.rate_rules``) on the distinct
combinations of the columns each rule reads (prices, nights, room-rates), so the cost follows
the distinct values, and the verdicts are mapped back to every row. A suite runs in GX only when
a vectorised screen cannot prove every row passes (``expectations.engine.Rule``): clean calendars
never import GX. The duplicate-key rule runs
on every row. Rules over groups of rows (one currency per hotel, guests in all rows or none,
12 months of coverage) are vectorised pandas in ``expectations.groups``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import numpy as np
import pandas as pd

from expectations import groups
from expectations._keys import Coder, Keys
from expectations.engine import Kind, Rule, run_suite
from expectations.rate_check import RateCheck
from expectations.reference import (
    PRICE_CAP_EUR,
    FxTable,
    cet_today,
    currency_minor_units,
    date_window,
    read_fx_table,
)
from loaders import LoadError, Registry
from loaders.issues import combine, empty_issues, issues_where
from loaders.normalize import decimal_text
from loaders.schemas import RATES_COLUMNS
from loaders.unread import unread_rows


def validate_rates(frame: pd.DataFrame, *, registry: Registry | None = None,
                   as_of: dt.date | str | None = None, fx: FxTable | None = None,
                   load_issues: pd.DataFrame | None = None) -> pd.DataFrame:
    """Check ``frame`` (a canonical rates frame) against the platform's rate rules; return the issues frame.

    ``as_of`` is a date or ``YYYY-MM-DD`` text (a datetime counts as its date) and defaults to today
    in CET; ``registry`` adds what is known about properties, rooms and rate plans; ``load_issues``
    (from the loader) are merged into the result. Works with ``frame.pipe(validate_rates, as_of=...)``.
    The rules on one row also run on the rows the loader left out for an unreadable cell
    (``loaders.unread``), so every problem of a row is reported; rules over groups of rows read only
    the frame.
    """
    _require_canonical(frame)
    as_of = as_of_date(as_of)
    frame = frame.reset_index(drop=True)
    registry, fx = registry or Registry(), fx or read_fx_table()
    check = RateCheck(frame, registry, as_of, fx, Coder(frame))
    parts = [load_issues if load_issues is not None else empty_issues()]
    unread = unread_rows(frame)
    if unread is not None and len(unread):
        unread = unread.astype(frame.dtypes.to_dict())
        for rules, known in ((_price_rules, ["amount_minor"]), (date_rules, ["date"]),
                             (_room_rate_rules, ["hotel_code", "inv_type_code", "rate_plan_code"])):
            with_them = pd.concat([frame, unread.dropna(subset=known)], ignore_index=True)
            with_them.attrs = {"headers": frame.attrs.get("headers", {})}
            parts += rules(RateCheck(with_them, registry, as_of, fx, Coder(with_them)))
    elif len(frame):
        parts += _price_rules(check) + date_rules(check) + _room_rate_rules(check)
    if len(frame):
        parts += _duplicate_rules(check) + groups.group_rules(check)
    return combine(parts)


def as_of_date(value: dt.date | str | None) -> dt.date:
    """The as-of date from a date, a datetime (its date), ``YYYY-MM-DD`` text or None (today in CET)."""
    if value is None:
        return cet_today()
    if isinstance(value, np.datetime64):
        value = pd.Timestamp(value)
    if isinstance(value, dt.datetime):  # pandas Timestamps too
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"as_of `{value}` is not a date: write it as YYYY-MM-DD, e.g. 2026-12-01") from None
    raise TypeError(f"as_of must be a date or YYYY-MM-DD text, not {type(value).__name__}")


def _require_canonical(frame: object) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"validate_rates checks a pandas DataFrame, not {type(frame).__name__}")
    missing = [c for c in RATES_COLUMNS if c not in frame.columns]
    if missing:
        raise LoadError(
            "validate_rates needs a canonical rates frame (what `read_rates` returns); this frame has no "
            + ", ".join(f"`{c}`" for c in missing) + ". Give a frame in the long layout of a sheet "
            "(`HotelCode`, `InvTypeCode`, `RatePlanCode`, `Date`, `AmountAfterTax`, `CurrencyCode`) to "
            "`check_rates` instead: it reads it like a sheet, then runs these rules.",
            source="<DataFrame>")


# --- prices: hotel x currency x exact amount ---------------------------------------------------------

def _price_rules(c: RateCheck) -> list[pd.DataFrame]:
    f = c.frame
    keys = c.coder.keys("hotel_code", "currency_code", "amount_minor", "amount_scale")
    p = f.iloc[keys.first][["hotel_code", "currency_code", "amount", "amount_minor", "amount_scale"]]
    p = p.reset_index(drop=True)
    minor_units = currency_minor_units()
    p["amount_eur"] = c.fx.to_eur(p["currency_code"], p["amount"])
    p["excess_decimals"] = p["amount_scale"].astype("float64") - p["currency_code"].map(minor_units).astype("float64")
    pc = groups.property_currency(c).reindex(p["hotel_code"])
    iso = p["currency_code"].isin(list(minor_units)).to_numpy()
    p["property_currency"] = pd.Series(pc["currency"].to_numpy(), dtype="string").where(iso)  # one issue per cell
    p["currency_source"] = pc["source"].to_numpy()
    cap = PRICE_CAP_EUR
    suite = [
        _rule("ExpectPriceNotNegative", "between", column="amount", min_value=0, meta={"rule": "price_negative"}),
        _rule("ExpectPriceWithinPlatformCap", "between", column="amount_eur", max_value=cap, meta={"rule": "price_cap"}),
        _rule("ExpectIsoCurrency", "in_set", column="currency_code", value_set=sorted(minor_units), meta={"rule": "currency_code"}),
        _rule("ExpectPropertyCurrency", "pair_equal", column_A="currency_code", column_B="property_currency",
                                  ignore_row_if="either_value_is_missing", meta={"rule": "property_currency"}),
        _rule("ExpectCurrencyMinorUnits", "between", column="excess_decimals", max_value=0, meta={"rule": "currency_decimals"}),
    ]
    text = pd.Series([decimal_text(m, s) for m, s in zip(p["amount_minor"], p["amount_scale"], strict=True)],
                     index=p.index)
    msgs: dict[str, tuple[str, str, Callable[[pd.DataFrame], pd.Series], pd.Series]] = {
        "price_negative": ("error", "amount", lambda q: pd.Series(
            "a price cannot be negative: use 0 to make the room not bookable that night", index=q.index), text),
        "price_cap": ("error", "amount", lambda q: q.apply(lambda r: (
            f"{text[r.name]} {r.currency_code} is above the platform's cap of {cap:,} EUR a night"
            + ("" if r.currency_code == "EUR" else f" (about {r.amount_eur:,.0f} EUR at the FX table of {c.fx.as_of})")
            + ": check for an extra digit"), axis=1), text),
        "currency_code": ("error", "currency_code", lambda q: q["currency_code"].map(
            lambda v: f"`{v}` is not an ISO 4217 currency code in use: use the property's currency, such as EUR"),
            p["currency_code"]),
        "property_currency": ("error", "currency_code", lambda q: q.apply(lambda r: (
            (f"the property's currency is {r.property_currency} (registry), not {r.currency_code}"
             if r.currency_source == "registry" else
             f"property {r.hotel_code} has prices in {r.property_currency} and in {r.currency_code}; a property "
             f"has one currency, and most of its prices are in {r.property_currency}")
            + f": the platform rejects prices in another currency; convert the price and write "
              f"{r.property_currency}"), axis=1),
            p["currency_code"]),
        "currency_decimals": ("warning", "amount", lambda q: q.apply(lambda r: (
            f"{r.currency_code} uses {int(minor_units.get(r.currency_code, 0))} decimals but {text[r.name]} has "
            f"{int(r.amount_scale)}: round the price"), axis=1), text),
    }
    out = []
    for failure in run_suite("rates_prices", p, suite):
        rule = failure.meta["rule"]
        severity, column, message, value = msgs[rule]
        out.append(to_rows(c, keys, p, failure.positions, rule, severity, column, message, value))
    out.append(groups.fx_missing(c, p, keys))
    return out


def to_rows(c: RateCheck, keys: Keys, projection: pd.DataFrame, positions: list[int], rule: str, severity: str,
             column: str, message: Callable[[pd.DataFrame], pd.Series], value: pd.Series) -> pd.DataFrame:
    """Issues for every row whose group (a row of ``projection``) failed."""
    if not positions:
        return empty_issues()
    failed = projection.iloc[positions]
    msg_by_group = pd.Series(np.asarray(message(failed), dtype=object), index=positions)
    val_by_group = value.iloc[positions]
    mask = keys.rows_of(positions)
    rows = c.frame.loc[mask]
    gid = keys.ids[mask]
    if column == "amount":
        col = rows["amount_column"]
    else:
        col = c.header(rows, column, _OTA[column])
    return issues_where(c.frame, mask, column=col,
                        value=pd.Series(val_by_group.reindex(gid).to_numpy(), index=rows.index),
                        rule=rule, severity=severity,
                        message=pd.Series(msg_by_group.reindex(gid).to_numpy(), index=rows.index)
                        )


def _rule(name: str, kind: Kind, **kwargs: object) -> Rule:
    """``name`` of ``expectations.rate_rules``, built (and GX imported) only if a row may fail it."""
    return Rule("expectations.rate_rules", name, kind, kwargs)


_OTA = {"hotel_code": "HotelCode", "inv_type_code": "InvTypeCode", "rate_plan_code": "RatePlanCode",
        "date": "Date", "number_of_guests": "NumberOfGuests", "currency_code": "CurrencyCode"}


# --- nights -------------------------------------------------------------------------------------------

def date_rules(c: RateCheck) -> list[pd.DataFrame]:
    keys = c.coder.keys("date")
    d = c.frame.iloc[keys.first][["date"]].reset_index(drop=True)
    first, last = date_window(c.as_of)
    suite = [_rule("ExpectStayDateWithinPlatformWindow", "between", column="date", min_value=pd.Timestamp(first),
                                                   max_value=pd.Timestamp(last), meta={"rule": "date_window"})]
    failures = run_suite("rates_dates", d, suite)
    if not failures:
        return []
    positions = failures[0].positions
    mask = keys.rows_of(positions)
    rows = c.frame.loc[mask]
    early = rows["date"] < pd.Timestamp(first)
    layout = c.layout(rows)
    column = c.header(rows, "date", "Date")
    column = column.where(layout != "wide", rows["amount_column"])
    start_col, end_col = c.header(rows, "start", "Start"), c.header(rows, "end", "End")
    column = column.where(layout != "range", start_col.where(early, end_col))
    date_text = rows["date"].dt.strftime("%Y-%m-%d")
    message = np.where(
        early,
        date_text + f" is before {first:%Y-%m-%d}, the earliest night the platform accepts "
                    f"(1 day before {c.as_of:%Y-%m-%d} in CET): remove it or move it forward",
        date_text + f" is after {last:%Y-%m-%d}, the last night the platform accepts (5 years ahead): "
                    "remove it or check the year")
    return [issues_where(c.frame, mask, column=column, value=date_text,
                         rule="date_window", severity="error",
                         message=pd.Series(message, index=rows.index))]


# --- rooms and rate plans: hotel x room x rate x guests -------------------------------------------------

def _room_rate_rules(c: RateCheck) -> list[pd.DataFrame]:
    keys = c.coder.keys("hotel_code", "inv_type_code", "rate_plan_code", "number_of_guests")
    r = c.frame.iloc[keys.first][["hotel_code", "inv_type_code", "rate_plan_code", "number_of_guests"]]
    r = r.reset_index(drop=True)
    r = groups.annotate_room_rates(c.registry, r)
    suite = [
        _rule("ExpectGuestsAtLeastOne", "between", column="number_of_guests", min_value=1, meta={"rule": "guests_min"}),
        _rule("ExpectGuestsWithinMaxAdultOccupancy", "between", column="guests_headroom", min_value=0, meta={"rule": "guests_max"}),
        _rule("ExpectGuestsOnlyForOccupancyPricing", "null", column="guests_on_standard", meta={"rule": "guests_pricing_model"}),
        _rule("ExpectKnownRoom", "null", column="unknown_room", meta={"rule": "unknown_room"}),
        _rule("ExpectRateActiveForRoom", "null", column="inactive_rate", meta={"rule": "rate_not_active_for_room"}),
        _rule("ExpectNoPriceOnFollowingChildRate", "null", column="following_child_rate", meta={"rule": "child_rate_follows_price"}),
        _rule("ExpectWritableRate", "null", column="read_only_rate", meta={"rule": "read_only_rate"}),
    ]
    guests = r["number_of_guests"].astype("string")
    msgs = {
        "guests_min": ("number_of_guests", guests, lambda q: pd.Series(
            "NumberOfGuests must be at least 1 (1 means single occupancy); leave it blank for Standard pricing",
            index=q.index)),
        "guests_max": ("number_of_guests", guests, lambda q: q.apply(lambda x: (
            f"{x.number_of_guests} guests is more than room {x.inv_type_code}'s MaxAdultOccupancy of "
            f"{x.max_adult_occupancy}: lower NumberOfGuests or raise the room's occupancy first"), axis=1)),
        "guests_pricing_model": ("number_of_guests", guests, lambda q: q.apply(lambda x: (
            f"property {x.hotel_code} uses Standard pricing: NumberOfGuests is only for occupancy-based (OBP) or "
            "length-of-stay (LOS) pricing; clear the column"), axis=1)),
        "unknown_room": ("inv_type_code", r["inv_type_code"], lambda q: q.apply(lambda x: (
            f"room type {x.inv_type_code} is not a room of property {x.hotel_code}: check the InvTypeCode "
            "(or refresh the registry)"), axis=1)),
        "rate_not_active_for_room": ("rate_plan_code", r["rate_plan_code"], lambda q: q.apply(lambda x: (
            f"RATE_NOT_ACTIVE_FOR_ROOM: rate plan {x.rate_plan_code} is not active for room {x.inv_type_code} "
            f"of property {x.hotel_code}: activate it for the room or remove these prices"), axis=1)),
        "child_rate_follows_price": ("rate_plan_code", r["rate_plan_code"], lambda q: q.apply(_child_rate_message,
                                                                                             axis=1)),
        "read_only_rate": ("rate_plan_code", r["rate_plan_code"], lambda q: q.apply(lambda x: (
            f"rate plan {x.rate_plan_code} is read-only for room {x.inv_type_code} (the platform flags it "
            "`readonly`): its prices cannot be pushed; remove these rows"), axis=1)),
    }
    out = []
    for failure in run_suite("rates_room_rates", r, suite):
        rule = failure.meta["rule"]
        column, value, message = msgs[rule]
        out.append(to_rows(c, keys, r, failure.positions, rule, "error", column, message, value))
    return out


def _child_rate_message(x: pd.Series) -> str:
    parent = None if pd.isna(x.parent_rate_plan_code) else str(x.parent_rate_plan_code)
    who = (f"rate plan {x.rate_plan_code} is a child rate of {parent}" if parent else
           f"rate plan {x.rate_plan_code} is a child rate (the platform flags it `is_child_rate` without naming "
           "its parent; the registry's `ParentRatePlanCode` would)")
    target = f"price rate plan {parent} instead" if parent else "price its parent rate instead"
    if pd.isna(x.follows_price):
        return (f"{who} and takes its price from its parent unless the registry says `FollowsPrice` = 0 (the "
                f"platform does not say): the platform answers an error to a price set on it; {target}, or, if "
                f"it has its own price, give `FollowsPrice` = 0 for it with `--registry FILE`")
    return f"{who} and follows its price: the platform answers an error to a price set on it; {target}"


# --- every row: one price per cell ----------------------------------------------------------------------

CELL_KEY = ("hotel_code", "inv_type_code", "rate_plan_code", "date", "number_of_guests")


def repeats(frame: pd.DataFrame, key: tuple[str, ...] = CELL_KEY) -> np.ndarray:
    """True for the rows that price a cell (hotel, room, rate plan, night, guests; or the columns of
    ``key``) an earlier row already sets, in file order: what is not sent (the platform would apply
    only the first)."""
    frame = frame.reset_index(drop=True)
    if frame.empty:
        return np.zeros(0, dtype=bool)
    ids = Coder(frame).keys(*key).ids
    return groups.first_occurrence(frame, ids) != np.arange(len(frame))


def _duplicate_rules(c: RateCheck) -> list[pd.DataFrame]:
    keys = c.coder.keys(*CELL_KEY)
    cells = pd.DataFrame({"cell": keys.ids})
    suite = [_rule("ExpectUniqueRateCell", "unique", column="cell", meta={"rule": "duplicate_key"})]
    failures = run_suite("rates_cells", cells, suite)
    if not failures:
        return []
    positions = np.sort(np.asarray(failures[0].positions, dtype=np.int64))
    involved = c.frame.iloc[positions]
    first = positions[groups.first_occurrence(involved.reset_index(drop=True), keys.ids[positions])]
    later = first != positions
    rows, firsts = c.frame.iloc[positions[later]], c.frame.iloc[first[later]]
    same_sheet = ((rows["source"].to_numpy() == firsts["source"].to_numpy())
                  & (rows["sheet"].to_numpy() == firsts["sheet"].to_numpy()))
    elsewhere = ("`" + firsts["source"].astype(str) + "`"
                 + np.where(firsts["sheet"] != "", " sheet `" + firsts["sheet"].astype(str) + "`", "") + " ")
    repeated = np.where(same_sheet, "", elsewhere.to_numpy()) + "row " + firsts["row"].astype(str).to_numpy()
    price = pd.Series([decimal_text(m, s) for m, s in zip(rows["amount_minor"], rows["amount_scale"], strict=True)],
                      index=rows.index)
    first_price = [decimal_text(m, s) for m, s in zip(firsts["amount_minor"], firsts["amount_scale"], strict=True)]
    guests = rows["number_of_guests"].astype("string").fillna("")
    what = ("room " + rows["inv_type_code"].astype(str) + ", rate " + rows["rate_plan_code"].astype(str) + ", night "
            + rows["date"].dt.strftime("%Y-%m-%d") + np.where(guests != "", ", " + guests + " guests", ""))
    message = ("not sent: repeats " + pd.Series(repeated, index=rows.index) + " (" + what + "; "
               + pd.Series(first_price, index=rows.index) + " there, " + price + " here): the platform applies "
               "only the first price of a night (WARN_DUPLICATE_DATES), so the first in file order is sent; delete "
               "one of the two")
    mask = np.zeros(len(c.frame), dtype=bool)
    mask[positions[later]] = True
    return [issues_where(c.frame, mask, column=rows["amount_column"], value=price, rule="duplicate_key",
                         severity="warning", message=message)]
