"""The Property sheet (spec E4 HDC, HotelInfo, TPA_Extensions, States, Limits): the minimum to
create, codes and enumerations, times, the limits on floors, grace periods, long stays, guest
information, stars, the booking model and pricing type.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pandas as pd

from expectations.content_frames import Checker, blank, each, listed, nonempty, not_in, outside
from loaders.content_schema import BOOKING_MODELS, NOTIF_TYPES, PARTS, PRICING_TYPES, TARGETS

GRACE_HOURS = (0, 1, 4, 24)
GRACE_WEEKS = (0, 4, 8, 12)
LONG_STAYS = (45, 60, 75, 90)
MAX_FLOORS = 200
AGE_RANGE = (18, 99)
HOTEL_CLASS = 20  # OTA PCT 20: Hotel (stars only for this property class)
FULLY_FLEXIBLE_POLICY = 152
_HHMM = r"(?:[01]\d|2[0-3]):[0-5]\d"
TIME_RE = re.compile(rf"{_HHMM}(?:-{_HHMM})?")
CLOCK_RE = re.compile(_HHMM)


@lru_cache(maxsize=1)
def _currencies() -> frozenset[str]:
    import pycountry

    return frozenset(c.alpha_3 for c in pycountry.currencies)


@lru_cache(maxsize=4096)
def language_ok(code: str) -> bool:
    """``en``, ``pt-BR``, ``zh-Hant``: an ISO 639-1 language, maybe with a region or script."""
    import pycountry

    head, _, rest = code.partition("-")
    if pycountry.languages.get(alpha_2=head.lower()) is None:
        return False
    return not rest or bool(re.fullmatch(r"[A-Za-z]{2}|[A-Za-z]{4}|\d{3}", rest))


def check(c: Checker) -> None:
    p = c.parts["Property"]
    new = c.of_property("Property", "is_new").astype(bool)
    flag = c.flag
    flag("Property", p["property"].notna() & p["property"].duplicated(keep="first"), "property",
         "duplicate_property", "the property is on the Property sheet more than once: keep one row per property",
         value=p["property"])
    notif = p["notif_type"]
    flag("Property", not_in(notif, NOTIF_TYPES), "notif_type", "notif_type_value",
         f"HotelDescriptiveContentNotifType is {listed(NOTIF_TYPES)} (blank: New without a HotelCode, Overlay with one)")
    flag("Property", notif.eq("Overlay").fillna(False) & p["hotel_code"].isna(), "notif_type",
         "overlay_needs_hotel_code", "an Overlay updates an existing property: give its HotelCode (or use New to "
                                     "create it)")
    flag("Property", notif.eq("New").fillna(False) & p["hotel_code"].notna(), "notif_type",
         "new_with_hotel_code", "New creates a property, and this row has a HotelCode (an existing property): use "
                                "Overlay to update it, or clear HotelCode and give your ID", severity="warning")
    flag("Property", blank(p["target"]), "target", "target_required", "Target is required: `Test` or `Production`")
    flag("Property", not_in(p["target"], TARGETS), "target", "target_value", "Target is `Test` or `Production`")
    flag("Property", blank(p["language_code"]), "language_code", "language_code_required",
         "LanguageCode (the language for extranet content and communication) is required, e.g. `en`")
    for part, col in (("Property", "language_code"), ("Languages", "language_code"), ("Attractions", "language_code"),
                      ("Contacts", "address_language"), ("Contacts", "name_language")):
        code = c.parts[part][col]
        flag(part, each(code, lambda v: not language_ok(v)).eq(True), col,
             "language_code_value", "this is not a language code: use an ISO 639-1 code such as `en`, `pt` or "
                                    "`pt-BR`")
    _currency(c, p)
    for col, what in (("legal_entity_id", "its legal entity id (LegalEntityID, CompanyName@Code)"),
                      ("check_in_time", "CheckInTime"), ("check_out_time", "CheckOutTime"),
                      ("sellable_units", "the number of sellable units (GuestRoomInfo@Quantity)"),
                      ("property_class_code", "its property class code (HotelCategory@Code)")):
        flag("Property", new & blank(p[col]), col, "create_minimum", f"a new property needs {what}: fill it in")
    flag("Property", ~new & p["legal_entity_id"].notna(), "legal_entity_id", "legal_entity_only_new",
         "the legal entity id is taken only when a property is created: it is ignored on an existing property; "
         "remove it", severity="warning")
    flag("Property", p["sellable_units"].notna() & (p["sellable_units"] < 1), "sellable_units", "sellable_units_value",
         "the number of sellable units is at least 1")
    flag("Property", not_in(p["exists_code"], (0, 1)), "exists_code", "exists_code_value",
         "HotelCategory@ExistsCode is 1 (default) or 0")
    _languages(c, new)
    languages = c.parts["Languages"]
    flag("Languages", languages["property"].notna() & blank(languages["language_code"]), "language_code",
         "language_code_required", "a Languages row needs its LanguageCode (it would be sent as an empty Language): "
                                   "fill it in, e.g. `en`, or delete the row")
    for col in ("check_in_time", "check_out_time"):
        t = p[col]
        flag("Property", t.notna() & ~t.str.fullmatch(TIME_RE.pattern).fillna(False), col, "time_format",
             "a check-in/out time is `HH:MM` or `HH:MM-HH:MM` (24-hour clock; `00:00-00:00` is 24 hours), e.g. "
             "`14:00` or `14:00-22:00`")
    _limits(c, p)
    _booking(c, p, new)
    _empty_parts(c, p)
    has_policy = set(c.parts["Policies"]["property"].dropna())
    stated_empty = pd.Series(["policies" in {v.casefold() for v in xs} for xs in p["empty_parts"].tolist()],
                             index=p.index, dtype=bool)
    flag("Property", new & ~p["property"].isin(has_policy) & ~stated_empty, "property", "policy_152_applied",
         f"no policy is given for this new property: the platform applies the fully flexible policy "
         f"(PolicyCode={FULLY_FLEXIBLE_POLICY}); add a Policies row to choose another", severity="warning",
         value=p["property"])
    _no_cancel_policy(c)


def _no_cancel_policy(c: Checker) -> None:
    """A new property whose Policies rows give no cancellation policy gets the fully flexible one (spec E4 l.162;
    code 152): said once, on its first Policies row."""
    pol = c.parts["Policies"]
    new = c.of_property("Policies", "is_new").fillna(False).astype(bool)
    with_cancel = set(pol.loc[pol["cancel_policy_code"].notna(), "property"].dropna())
    first = pol["property"].notna() & ~pol["property"].duplicated(keep="first")
    c.flag("Policies", new & first & ~pol["property"].isin(with_cancel), "cancel_policy_code", "policy_152_applied",
           "no row of this new property gives a cancellation policy (CancelPolicyCode): the platform applies the "
           f"fully flexible policy (PolicyCode={FULLY_FLEXIBLE_POLICY}); give one on a Policies row to choose "
           "another", severity="warning")


def _currency(c: Checker, p: pd.DataFrame) -> None:
    cur = p["currency_code"]
    bad = cur.notna() & ~cur.isin(_currencies())
    c.flag("Property", bad, "currency_code", "currency_code_value",
           "CurrencyCode is an ISO 4217 code such as `EUR` or `BRL`")
    if c.lookups.currencies is None:
        c.not_checked("Property", "currency_code", cur.notna() & ~bad, "the list of currencies the platform knows",
                      "currency_not_listed")
    else:
        c.flag("Property", cur.notna() & ~bad & ~cur.isin(c.lookups.currencies), "currency_code",
               "currency_not_listed", "the platform does not list this currency (`/xml/currencies`): check it")


def _languages(c: Checker, new: pd.Series) -> None:
    p = c.parts["Property"]
    listed_ = set(c.parts["Languages"].loc[c.parts["Languages"]["language_code"].notna(), "property"])
    c.flag("Property", new & ~p["property"].isin(listed_), "property", "language_required",
           "a new property needs at least one language (HotelInfo/Languages): add a row on the Languages sheet",
           value=p["property"])


def _limits(c: Checker, p: pd.DataFrame) -> None:
    flag = c.flag
    floors = p["total_floors"]
    flag("Property", floors.notna() & ~floors.between(0, MAX_FLOORS).fillna(True), "total_floors", "floors_max",
         f"TotalNumberOfFloors is 0 to {MAX_FLOORS} (underground floors excluded)")
    flag("Property", not_in(p["grace_hours"], GRACE_HOURS), "grace_hours", "grace_hours_value",
         f"CancellationGracePeriod@HoursAfterBooking is one of {', '.join(map(str, GRACE_HOURS))}")
    flag("Property", not_in(p["grace_weeks"], GRACE_WEEKS), "grace_weeks", "grace_weeks_value",
         f"CancellationGracePeriod@WeeksBeforeCheckIn is one of {', '.join(map(str, GRACE_WEEKS))}")
    flag("Property", not_in(p["max_length_of_stay"], LONG_STAYS), "max_length_of_stay", "long_stay_value",
         f"MaxLengthOfStay is one of {', '.join(map(str, LONG_STAYS))} (default 90)")
    lo, hi = AGE_RANGE
    for col in ("age_restriction_min", "age_restriction_max"):
        flag("Property", p[col].notna() & ~p[col].between(lo, hi).fillna(True), col, "age_restriction_range",
             f"age restrictions are {lo} to {hi}")
    flag("Property", (p["age_restriction_min"] > p["age_restriction_max"]).fillna(False), "age_restriction_min",
         "age_restriction_order", "AgeRestrictionMin is above AgeRestrictionMax: swap them")
    off = p["has_age_restriction"].ne(1).fillna(True)
    flag("Property", off & (p["age_restriction_min"].notna() | p["age_restriction_max"].notna()),
         "has_age_restriction", "age_restriction_ignored",
         "age limits are given but HasAgeRestriction is not 1, so they have no effect: set HasAgeRestriction 1",
         severity="warning")
    for col in ("curfew_start", "curfew_end"):
        t = p[col]
        flag("Property", t.notna() & ~t.str.fullmatch(CLOCK_RE.pattern).fillna(False), col, "curfew_time_format",
             "curfew times are `HH:MM` (24-hour clock)")
    on = p["has_curfew"].eq(1).fillna(False)
    flag("Property", on & (p["curfew_start"].isna() | p["curfew_end"].isna()), "has_curfew", "curfew_times_required",
         "HasCurfew is 1: give CurfewStart and CurfewEnd (`HH:MM`)")
    flag("Property", ~on & (p["curfew_start"].notna() | p["curfew_end"].notna()), "has_curfew", "curfew_ignored",
         "curfew times are given but HasCurfew is not 1, so they have no effect: set HasCurfew 1", severity="warning")
    stars = p["star_rating"]
    flag("Property", stars.notna() & ~stars.between(0, 5).fillna(True), "star_rating", "star_rating_range",
         "the star rating is 0 to 5")
    # a class not given (an Overlay keeping the platform's) is not judged; a new property must give it
    flag("Property", stars.notna() & p["property_class_code"].ne(HOTEL_CLASS).fillna(False), "star_rating",
         "stars_only_hotels", f"stars are only for the hotel property class (HotelCategory {HOTEL_CLASS}): clear "
                              "the star rating, or correct the property class")


def _booking(c: Checker, p: pd.DataFrame, new: pd.Series) -> None:
    model = p["booking_model"]
    c.flag("Property", not_in(model, BOOKING_MODELS), "booking_model", "booking_model_value",
           "BookingModel is `IB` (instant booking, default) or `RTB` (request to book)")
    rtb = model.eq("RTB").fillna(False)
    c.flag("Property", rtb & ~new, "booking_model", "rtb_new_only",
           "request to book (RTB) can be enabled only for new properties: remove it, or leave the booking model "
           "as it is")
    if not c.rtb_enabled:
        c.flag("Property", rtb & new, "booking_model", "rtb_not_enabled",
               "request to book (RTB) through content needs the provider setting `content_api_rtb_enabled`, which "
               "is off: ask the platform to enable it (then check with `--rtb-enabled`), or use IB")
    pricing = p["pricing_type"]
    c.flag("Property", not_in(pricing, PRICING_TYPES), "pricing_type", "pricing_type_value",
           f"PricingType is {listed(PRICING_TYPES)}")
    c.flag("Property", pricing.isin(["OBP", "LOS"]).fillna(False), "pricing_type",
           "pricing_type_certification", "OBP and LOS pricing need certification by the platform: make sure this "
                                         "provider is certified for it, or the property's prices will be refused",
           severity="warning")
    flag_ = p["overwrite_future_fees"]
    c.flag("Property", not_in(flag_, (0, 1)), "overwrite_future_fees", "overwrite_future_fees_value",
           "OverwriteFutureFees is 1 (default) or 0")


def _empty_parts(c: Checker, p: pd.DataFrame) -> None:
    names = {x.casefold(): x for x in PARTS if x != "Property"}
    bad = outside(p["empty_parts"], lambda x: x.casefold() in names)
    c.flag("Property", nonempty(bad), "empty_parts", "empty_parts_value",
           lambda sub: [f"{listed(bad[i])} is not a part that can be stated empty; the parts are "
                        f"{listed(names.values())}" for i in sub.index])
    if not nonempty(p["empty_parts"]).any():
        return
    folded = p["empty_parts"].map(lambda xs: {x.casefold() for x in xs})
    for part_key, part in names.items():
        has_rows = set(c.parts[part]["property"].dropna())
        said = folded.map(lambda xs, k=part_key: k in xs).astype(bool)
        c.flag("Property", said & p["property"].isin(has_rows), "empty_parts", "empty_part_has_rows",
               f"`{part}` is stated empty for this property, but the {part} sheet has rows for it: remove one or "
               "the other")
