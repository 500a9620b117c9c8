"""Policies, taxes, fees and priced services (spec E4 Policy, TaxPolicy, FeePolicy, Service).

A property has one Policy; its cancellation penalties and guarantee payments are one per row,
its pets and guest facts come from one row (a different value on a later row is an error).
"""

from __future__ import annotations

import pandas as pd

from expectations.content_frames import Checker, blank, listed, nonempty, not_in, outside
from loaders.content_schema import (
    CONDITIONS,
    FEE_TYPES,
    GUEST_TYPES,
    INCLUDED,
    INTERNET_COVERAGE,
    INTERNET_TYPES,
    NO_SHOW,
    PARKING_PROPERTIES,
    PARKING_RESERVATIONS,
    PARKING_TYPES,
    PETS,
    PETS_FEE,
    PREPAYMENT_FROM,
    TAX_TYPES,
)

VAT = 36
CLEANING_FEE = 5009
INTERNET_FEE = 5035
AGE_FEE_CODES = (37, 38, 44)
MAX_AGE = 255
PARKING = {"parking_type": PARKING_TYPES, "parking_reservation": PARKING_RESERVATIONS,
           "parking_property": PARKING_PROPERTIES}
PRICED_SERVICES = (173, 6000, 6001)
BREAKFAST = 173
SERVICE_EXISTS = (1, 2)


def check(c: Checker) -> None:
    _policies(c)
    for part in ("Taxes", "Fees"):
        _tax_like(c, part)
    _taxes(c)
    _fees(c)
    _services(c)


def _policies(c: Checker) -> None:
    p = c.parts["Policies"]
    flag = c.flag
    flag("Policies", not_in(p["no_show_penalty"], NO_SHOW), "no_show_penalty", "no_show_value",
         f"NoShowPolicy@Penalty is {listed(NO_SHOW)}")
    flag("Policies", p["cancel_policy_code"].notna() & blank(p["no_show_penalty"]), "no_show_penalty",
         "no_show_required", "a cancellation policy needs its no-show penalty (`total_price` or `default`)")
    flag("Policies", p["no_show_penalty"].notna() & p["cancel_policy_code"].isna(), "cancel_policy_code",
         "cancel_policy_required", "a no-show penalty belongs to a cancellation policy: give its PolicyCode")
    flag("Policies", not_in(p["prepayment_effective_from"], PREPAYMENT_FROM), "prepayment_effective_from",
         "prepayment_value", f"PrepaymentPolicy@EffectiveFrom is {listed(PREPAYMENT_FROM)}")
    flag("Policies", p["prepayment_effective_from"].notna() & p["guarantee_policy_code"].isna(),
         "guarantee_policy_code", "guarantee_policy_required",
         "a prepayment belongs to a guarantee payment: give its PolicyCode")
    flag("Policies", not_in(p["pets_allowed"], PETS), "pets_allowed", "pets_allowed_value",
         f"PetsAllowedCode is {listed(PETS)}")
    flag("Policies", not_in(p["pets_non_refundable_fee"], PETS_FEE), "pets_non_refundable_fee", "pets_fee_value",
         f"PetsPolicy@NonRefundableFee is {listed(PETS_FEE)}")
    allowed = p["pets_allowed"].isin(["Pets Allowed", "Pets By Arrangements"]).fillna(False)
    with_fee = set(p.loc[p["pets_non_refundable_fee"].notna(), "property"])
    flag("Policies", allowed & ~p["property"].isin(with_fee), "pets_non_refundable_fee", "pets_policy_required",
         "pets are allowed (or by arrangement): the PetsPolicy is required; give NonRefundableFee (`free` or "
         "`charges_may_apply`)")
    flag("Policies", not_in(p["accepted_guest_type"], GUEST_TYPES), "accepted_guest_type", "guest_type_value",
         f"AcceptedGuestType is {listed(GUEST_TYPES)}")
    for col in ("total_guest_count", "min_guest_age"):
        flag("Policies", p[col].notna() & (p[col] < 0), col, "policy_number_value", "this cannot be negative")
    flag("Policies", p["min_guest_age"].notna() & (p["min_guest_age"] > MAX_AGE), "min_guest_age",
         "age_max", f"ages are at most {MAX_AGE}")
    for col in ("pets_allowed", "pets_non_refundable_fee", "total_guest_count", "accepted_guest_type",
                "min_guest_age"):
        given = p[p[col].notna()]
        first = given.drop_duplicates("property").set_index("property")[col]
        other = p[col].notna() & (p[col].astype("string") != p["property"].map(first).astype("string")).fillna(False)

        def earlier(sub: pd.DataFrame, first: pd.Series = first) -> list[str]:  # built for the flagged rows only
            return ("an earlier row gives `" + sub["property"].map(first).astype("string") + "` for this property: "
                    "one value per property; keep one").tolist()
        flag("Policies", other, col, "policy_conflict", earlier)


def _tax_like(c: Checker, part: str) -> None:
    t = c.parts[part]
    what = "tax" if part == "Taxes" else "fee"
    c.flag(part, t["code"].isna(), "code", f"{what}_code_required", f"every {what} needs its Code (type code)")
    both = t["amount"].notna() & t["percent"].notna()
    c.flag(part, both, "percent", f"{what}_amount_or_percent",
           f"a {what} has an Amount or a Percent, not both (Percent only without Amount): clear one of them")
    c.flag(part, t["amount"].isna() & t["percent"].isna() & t["code"].notna(), "amount", f"{what}_amount_required",
           f"a {what} needs an Amount or a Percent")
    for col in ("amount", "percent", "decimal_places"):
        c.flag(part, t[col].notna() & (t[col] < 0), col, f"{what}_negative", "this cannot be negative")
    c.flag(part, t["percent"].notna() & (t["percent"] > 100), "percent", f"{what}_percent_max",
           "a percentage is at most 100")
    c.flag(part, t["charge_frequency"].notna() & (t["charge_frequency"] < 1), "charge_frequency",
           f"{what}_charge_frequency_value", "ChargeFrequency is a charge type code (21: per person per night)")


def _taxes(c: Checker) -> None:
    t = c.parts["Taxes"]
    c.flag("Taxes", t["code"].eq(VAT).fillna(False) & t["percent"].isna(), "percent", "tax_vat_percent",
           f"VAT (Code {VAT}) needs its Percent: give the rate as a percentage")
    c.flag("Taxes", not_in(t["type"], TAX_TYPES), "type", "tax_type_value", f"a tax Type is {listed(TAX_TYPES)}")


def _fees(c: Checker) -> None:
    f = c.parts["Fees"]
    flag = c.flag
    code = f["code"]
    flag("Fees", not_in(f["type"], FEE_TYPES), "type", "fee_type_value", f"a fee Type is {listed(FEE_TYPES)}")
    cleaning = code.eq(CLEANING_FEE).fillna(False)
    flag("Fees", f["type"].eq("Conditional").fillna(False) & ~cleaning, "type", "fee_conditional_cleaning_only",
         f"Type `Conditional` is only for the cleaning fee (Code {CLEANING_FEE}): use Inclusive or Exclusive")
    flag("Fees", cleaning & blank(f["conditions"]), "conditions", "fee_condition_required",
         f"a cleaning fee (Code {CLEANING_FEE}) needs its conditions: one or more of {listed(CONDITIONS)}, "
         "separated by `;`")
    bad_cond = outside(f["conditions"], CONDITIONS.__contains__)
    flag("Fees", nonempty(bad_cond), "conditions", "fee_condition_value",
         lambda sub: [f"{listed(bad_cond[i])} is not a condition; the conditions are {listed(CONDITIONS)}"
                      for i in sub.index])
    internet = f["internet_type"].notna() | f["internet_coverage"].notna()
    flag("Fees", internet & code.ne(INTERNET_FEE).fillna(True), "internet_type", "fee_internet_only_5035",
         f"InternetType and InternetCoverage are only for the internet fee (Code {INTERNET_FEE}): clear them")
    flag("Fees", not_in(f["internet_type"], INTERNET_TYPES), "internet_type", "internet_type_value",
         f"InternetType is {listed(INTERNET_TYPES)}")
    flag("Fees", not_in(f["internet_coverage"], INTERNET_COVERAGE), "internet_coverage", "internet_coverage_value",
         f"InternetCoverage is {listed(INTERNET_COVERAGE)}")
    for col, values in PARKING.items():
        flag("Fees", not_in(f[col], values), col, "parking_value", f"this is {listed(values)}")
    ages = f["min_age"].notna() | f["max_age"].notna()
    flag("Fees", ages & ~code.isin(AGE_FEE_CODES).fillna(False), "min_age", "fee_age_codes",
         f"MinAge and MaxAge are only for fee codes {', '.join(map(str, AGE_FEE_CODES))}: clear them")
    for col in ("min_age", "max_age"):
        flag("Fees", f[col].notna() & ~f[col].between(0, MAX_AGE).fillna(True), col, "age_max",
             f"ages are 0 to {MAX_AGE}")
    flag("Fees", (f["min_age"] > f["max_age"]).fillna(False), "min_age", "fee_age_order",
         "MinAge is above MaxAge: swap them")
    key = ["property", "code", "min_age", "max_age", "inv_code"]
    flag("Fees", ages & f.duplicated(key, keep="first"), "min_age", "fee_age_range_duplicate",
         "this fee is given twice for the same age range: one FeePolicy per age range; keep one row")


def _services(c: Checker) -> None:
    s = c.parts["Services"]
    flag = c.flag
    flag("Services", s["code"].isna(), "code", "service_code_required", "every service needs its Code")
    flag("Services", not_in(s["exists_code"], SERVICE_EXISTS), "exists_code", "service_exists_value",
         "a service's ExistsCode is 1 (present, default) or 2 (missing)")
    flag("Services", not_in(s["included"], INCLUDED), "included", "service_included_value",
         f"Included is {listed(INCLUDED)}")
    priced = s["code"].isin(PRICED_SERVICES).fillna(False)
    for col, what in (("price", "Price"), ("currency_code", "CurrencyCode")):
        flag("Services", priced & s[col].isna(), col, "service_price_required",
             "service " + s["code"].astype("string") + f" needs its {what} (required for codes 173, 6000 and 6001)")
    flag("Services", s["price"].notna() & (s["price"] < 0), "price", "service_price_value", "a price cannot be negative")
    own = c.of_property("Services", "currency_code")
    cur = s["currency_code"]
    flag("Services", cur.notna() & own.notna() & cur.ne(own).fillna(False), "currency_code", "service_currency",
         lambda sub: [f"a service is priced in the property's currency ({o}), not {k}: use {o}"
                      for o, k in zip(own[sub.index], cur[sub.index], strict=True)])
    flag("Services", nonempty(s["breakfast_items"]) & s["code"].ne(BREAKFAST).fillna(True), "breakfast_items",
         "breakfast_items_only_breakfast", f"Items (breakfast types) are only for the breakfast service (Code "
                                           f"{BREAKFAST}): clear them")
    bad_types = outside(s["types"], str.isdigit)
    flag("Services", nonempty(bad_types), "types", "service_type_code",
         lambda sub: [f"service Types are codes (whole numbers); {listed(bad_types[i])} is not" for i in sub.index])
