"""The platform's availability rules, checked on a canonical availability frame; results as one issues frame.

As for rates (``expectations.rates``): row rules run as Great Expectations suites
(``expectations.availability_rules``) on the distinct combinations of the columns each rule reads,
screened first so a clean calendar never imports GX, and mapped back to every row; rules over
groups of rows (a minimum above its maximum on the same night, repeated cells, coverage, what
could not be checked) are vectorised pandas in ``expectations.availability_groups``. The night
window is the rates' own rule, on the same CET calendar and horizon. Every issue points at the
analyst's cell: a value's own cell, or the key cell a rule is about.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from expectations import availability_groups as ag
from expectations._keys import Coder
from expectations.engine import Kind, Rule, run_suite
from expectations.groups import annotate_room_rates, unknown_property
from expectations.rate_check import RateCheck
from expectations.rates import as_of_date, date_rules, to_rows
from expectations.reference import FxTable
from loaders import LoadError, Registry
from loaders.issues import combine, empty_issues
from loaders.schemas import AVAILABILITY_COLUMNS, RESTRICTION_HEADERS, STAY_RESTRICTIONS
from loaders.unread import unread_rows

__all__ = ["AvailabilityRules", "UNLIMITED", "for_rules", "quantities", "validate_availability"]

#: Rooms to sell the platform reads as "unlimited"; above it the platform cuts the value to 254.
UNLIMITED = 255
_NO_FX = FxTable({}, "", "not used by availability rules")
_RULES = "expectations.availability_rules"


def _no_quantities() -> pd.DataFrame:
    return pd.DataFrame({"hotel_code": pd.Series(dtype="Int64"), "inv_type_code": pd.Series(dtype="string"),
                         "quantity": pd.Series(dtype="Int64"), "quantity_from": pd.Series(dtype="string")})


@dataclass
class AvailabilityRules(RateCheck):
    """What every availability rule is handed: the frame (``value_column`` also as ``amount_column``,
    the cell each rule points at), the registry, the as-of day, keys, each room type's units, and the
    rates priced (for ``coverage``)."""

    quantities: pd.DataFrame = field(default_factory=_no_quantities)
    rates: pd.DataFrame | None = None


def validate_availability(frame: pd.DataFrame, *, registry: Registry | None = None,
                          as_of: dt.date | str | None = None, rooms: pd.DataFrame | None = None,
                          rates: pd.DataFrame | None = None, load_issues: pd.DataFrame | None = None) -> pd.DataFrame:
    """Check ``frame`` (what ``loaders.read_availability`` returns) against the platform's availability
    rules; return the issues frame.

    ``as_of`` is a date or ``YYYY-MM-DD`` text (default: today in CET); ``registry`` adds what is known
    about properties (pricing model), rooms (``Quantity``) and rate plans (active, child); ``rooms`` is a
    rooms frame (``read_rooms(...).rooms`` or ``fetch_rooms(...).rooms``) whose ``quantity`` is each room
    type's units; ``rates`` a canonical rates frame (``check_rates(...).frame``): its room-rates priced in
    the next 365 nights are looked for here (``coverage``). ``load_issues`` are merged into the result.
    The rules on one row also run on the rows the loader left out for an unreadable key cell.
    """
    _require_canonical(frame)
    day = as_of_date(as_of)
    reg = registry or Registry()
    units = quantities(reg, rooms)
    frame = frame.reset_index(drop=True)

    def check(f: pd.DataFrame) -> AvailabilityRules:
        g = for_rules(f, frame.attrs.get("headers", {}))
        return AvailabilityRules(g, reg, day, _NO_FX, Coder(g), units, rates)

    parts = [load_issues if load_issues is not None else empty_issues()]
    row_rules: tuple[tuple[Callable[[AvailabilityRules], list[pd.DataFrame]], list[str]], ...] = (
        (_value_rules, ["value"]), (date_rules, ["date"]), (_room_rate_rules, ["hotel_code", "inv_type_code"]),
        (_quantity_rules, ["hotel_code", "inv_type_code"]))
    unread = unread_rows(frame)
    c = check(frame)
    if unread is not None and len(unread):
        unread = unread.astype(AVAILABILITY_COLUMNS)
        for rules, known in row_rules:
            with_them = pd.concat([frame, unread.dropna(subset=known)], ignore_index=True)
            parts += rules(check(with_them))
    elif len(frame):
        for rules, _ in row_rules:
            parts += rules(c)
    if len(frame):
        parts += [ag.repeated_cells(c), ag.min_above_max(c), ag.coverage(c), unknown_property(c), ag.not_checked(c)]
    return combine(parts)


def for_rules(frame: pd.DataFrame, headers: dict | None = None) -> pd.DataFrame:
    """``frame`` as the shared rules read it: the value's cell also as ``amount_column`` (no copy)."""
    out = frame.assign(amount_column=frame["value_column"])
    out.attrs = {"headers": headers if headers is not None else frame.attrs.get("headers", {})}
    return out


def quantities(registry: Registry, rooms: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each room type's units (``hotel_code, inv_type_code, quantity, quantity_from``): a rooms frame's
    (``inv_code``, ``quantity``) over the registry's ``Quantity``."""
    parts = []
    reg = registry.rooms
    if "quantity" in reg:
        parts.append(pd.DataFrame({"hotel_code": reg["hotel_code"], "inv_type_code": reg["inv_type_code"],
                                   "quantity": reg["quantity"], "quantity_from": "the registry"}))
    if rooms is not None and len(rooms):
        code = rooms["inv_code"] if "inv_code" in rooms else rooms["inv_type_code"]
        parts.append(pd.DataFrame({"hotel_code": rooms["hotel_code"], "inv_type_code": code.astype("string"),
                                   "quantity": rooms["quantity"], "quantity_from": "the rooms"}))
    known = [p.dropna(subset=["hotel_code", "inv_type_code", "quantity"]) for p in parts]
    known = [p for p in known if len(p)]
    out = _no_quantities()
    if not known:
        return out
    both = pd.concat(known[::-1], ignore_index=True).drop_duplicates(["hotel_code", "inv_type_code"])
    return both.astype(out.dtypes.to_dict()).reset_index(drop=True)


def _require_canonical(frame: object) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"validate_availability checks a pandas DataFrame, not {type(frame).__name__}")
    missing = [c for c in AVAILABILITY_COLUMNS if c not in frame.columns]
    if missing:
        raise LoadError("validate_availability needs a canonical availability frame (what `read_availability` "
                        "returns); this frame has no " + ", ".join(f"`{c}`" for c in missing) + ". Give a frame "
                        "in the long layout of a sheet (`HotelCode`, `InvTypeCode`, `RatePlanCode`, `Date`, "
                        "`RoomsToSell`, …) to `check_availability` instead: it reads it like a sheet.",
                        source="<DataFrame>")


def _rule(name: str, kind: Kind, rule: str, module: str = _RULES, **kwargs: object) -> Rule:
    return Rule(module, name, kind, {**kwargs, "meta": {"rule": rule}})


def _label(restriction: object) -> str:
    return RESTRICTION_HEADERS.get(str(restriction), str(restriction))


# --- values: restriction x value ----------------------------------------------------------------------

def _value_rules(c: AvailabilityRules) -> list[pd.DataFrame]:
    keys = c.coder.keys("restriction", "value")
    p = c.frame.iloc[keys.first][["restriction", "value"]].reset_index(drop=True)
    value = p["value"].astype("float64")
    rooms = p["restriction"] == "rooms_to_sell"
    p["rooms"] = value.where(rooms)
    p["unlimited"] = value.where(rooms & (value == UNLIMITED))
    p["nights"] = value.where(p["restriction"].isin(list(STAY_RESTRICTIONS)))
    suite = [
        _rule("ExpectRoomsToSellWithinPlatformLimit", "between", "rooms_to_sell_range", column="rooms", min_value=0,
              max_value=UNLIMITED),
        _rule("ExpectRoomsToSellNotUnlimited", "null", "rooms_to_sell_unlimited", column="unlimited"),
        _rule("ExpectStayOfAtLeastOneNight", "between", "stay_nights", column="nights", min_value=1),
    ]
    text = p["value"].astype("string")
    msgs: dict[str, tuple[str, Callable[[pd.DataFrame], pd.Series]]] = {
        "rooms_to_sell_range": ("error", lambda q: q["value"].map(lambda v: (
            f"{v} rooms to sell is more than the platform takes: it cuts anything above {UNLIMITED} to 254 without "
            f"saying so; write at most 254 ({UNLIMITED} means unlimited)" if v > UNLIMITED else
            "rooms to sell cannot be negative: write 0 for none to sell (it re-opens when a booking is cancelled), "
            "or close the room type with `Closed` 1"))),
        "rooms_to_sell_unlimited": ("warning", lambda q: pd.Series(
            f"{UNLIMITED} rooms to sell means unlimited on the platform, not {UNLIMITED} rooms: write the room type's "
            "number of rooms if that is what you mean", index=q.index)),
        "stay_nights": ("error", lambda q: q.apply(lambda r: (
            f"{_label(r.restriction)} {r.value}: a stay is at least 1 night; leave the cell blank to keep what the "
            "platform has"), axis=1)),
    }
    out = []
    for failure in run_suite("availability_values", p, suite):
        rule = failure.meta["rule"]
        severity, message = msgs[rule]
        out.append(to_rows(c, keys, p, failure.positions, rule, severity, "amount", message, text))
    return out


# --- rooms and rate plans: hotel x room x rate x restriction x value -------------------------------------

def _room_rate_rules(c: AvailabilityRules) -> list[pd.DataFrame]:
    keys = c.coder.keys("hotel_code", "inv_type_code", "rate_plan_code", "restriction", "value")
    r = c.frame.iloc[keys.first][["hotel_code", "inv_type_code", "rate_plan_code", "restriction", "value"]]
    r = annotate_room_rates(c.registry, r.reset_index(drop=True).assign(
        number_of_guests=pd.Series(pd.NA, index=range(len(r)), dtype="Int64")))
    restriction = r["restriction"]
    is_rooms = (restriction == "rooms_to_sell").to_numpy(dtype=bool)
    has_rate = r["rate_plan_code"].notna().to_numpy(dtype=bool)
    child = (r["is_child_rate"].fillna(False) | r["parent_rate_plan_code"].notna()).to_numpy(dtype=bool)
    r["child_restriction"] = restriction.where(child & has_rate & ~is_rooms)
    r["los_restriction"] = restriction.where((r["pricing_model"] == "LOS").fillna(False).to_numpy(dtype=bool)
                                             & ~is_rooms)
    r["no_rate"] = restriction.where(~has_rate & ~restriction.isin(["rooms_to_sell", "closed"]).to_numpy(dtype=bool))
    r["rooms_with_rate"] = r["rate_plan_code"].where(is_rooms & has_rate)
    suite = [
        _rule("ExpectKnownRoom", "null", "unknown_room", "expectations.rate_rules", column="unknown_room"),
        _rule("ExpectRateActiveForRoom", "null", "rate_not_active_for_room", "expectations.rate_rules",
              column="inactive_rate"),
        _rule("ExpectRatePlanForRoomRateRestriction", "null", "rate_plan_required", column="no_rate"),
        _rule("ExpectRoomsToSellPerRoomType", "null", "rooms_to_sell_per_room_type", column="rooms_with_rate"),
        _rule("ExpectNoRestrictionsOnLosPricing", "null", "los_pricing_restriction", column="los_restriction"),
        _rule("ExpectNoRestrictionsOnChildRate", "null", "child_rate_restriction", column="child_restriction"),
    ]
    msgs: dict[str, tuple[str, str, pd.Series, Callable[[pd.Series], str]]] = {
        "unknown_room": ("error", "inv_type_code", r["inv_type_code"], lambda x: (
            f"room type {x.inv_type_code} is not a room of property {x.hotel_code}: check the InvTypeCode "
            "(or refresh the registry)")),
        "rate_not_active_for_room": ("error", "rate_plan_code", r["rate_plan_code"], lambda x: (
            f"RATE_NOT_ACTIVE_FOR_ROOM: rate plan {x.rate_plan_code} is not active for room {x.inv_type_code} of "
            f"property {x.hotel_code}: activate it for the room or remove these rows")),
        "rate_plan_required": ("error", "amount", r["value"], lambda x: (
            f"{_label(x.restriction)} is set per room-rate: give the RatePlanCode it is for (only RoomsToSell and "
            "Closed are set for a whole room type)")),
        "rooms_to_sell_per_room_type": ("error", "amount", r["value"], lambda x: (
            f"rooms to sell are set per room type and shared by all its rates (the platform cannot split them "
            f"between rate plans): put RoomsToSell on a row for room {x.inv_type_code} with a blank RatePlanCode, "
            f"not on rate {x.rate_plan_code}'s")),
        "los_pricing_restriction": ("error", "amount", r["value"], lambda x: (
            f"property {x.hotel_code} uses length-of-stay (LOS) pricing, which takes no restrictions: remove "
            f"{_label(x.restriction)} (rooms to sell are still accepted)")),
        "child_rate_restriction": ("warning", "rate_plan_code", r["rate_plan_code"], _child_message),
    }
    out = []
    for failure in run_suite("availability_room_rates", r, suite):
        rule = failure.meta["rule"]
        severity, column, value, message = msgs[rule]
        out.append(to_rows(c, keys, r, failure.positions, rule, severity, column,
                           lambda q, m=message: q.apply(m, axis=1), value.astype("string")))  # type: ignore[misc]
    return out


def _child_message(x: pd.Series) -> str:
    parent = None if pd.isna(x.parent_rate_plan_code) else str(x.parent_rate_plan_code)
    where = f"set them on rate plan {parent}" if parent else "set them on its parent rate"
    return (f"rate plan {x.rate_plan_code} is a child rate{' of ' + parent if parent else ''}: the platform applies "
            f"its parent's restrictions to it, not this {_label(x.restriction)}; {where}")


# --- rooms to sell against the room type's units --------------------------------------------------------

def _quantity_rules(c: AvailabilityRules) -> list[pd.DataFrame]:
    if c.quantities.empty or not (c.frame["restriction"] == "rooms_to_sell").any():
        return []
    keys = c.coder.keys("hotel_code", "inv_type_code", "restriction", "value")
    q = c.frame.iloc[keys.first][["hotel_code", "inv_type_code", "restriction", "value"]].reset_index(drop=True)
    q = q.merge(c.quantities, on=["hotel_code", "inv_type_code"], how="left")
    counted = ((q["restriction"] == "rooms_to_sell") & (q["value"] < UNLIMITED)).fillna(False).to_numpy(dtype=bool)
    q["headroom"] = (q["quantity"].astype("float64") - q["value"].astype("float64")).where(counted)
    suite = [_rule("ExpectRoomsToSellWithinQuantity", "between", "rooms_to_sell_above_quantity", column="headroom",
                   min_value=0)]
    out = []
    for failure in run_suite("availability_quantity", q, suite):
        out.append(to_rows(c, keys, q, failure.positions, "rooms_to_sell_above_quantity", "warning", "amount",
                           lambda f: f.apply(lambda x: (
                               f"{x.value} rooms to sell is more than the {x.quantity} units room type "
                               f"{x.inv_type_code} has (Quantity, from {x.quantity_from}): the platform would sell "
                               "rooms the property does not have; lower it, or raise the room type's Quantity "
                               "first"), axis=1), q["value"].astype("string")))
    return out
