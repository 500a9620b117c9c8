"""What the modular APIs do not take: refused (sunset), not yet sendable (Policies), or not sent (no field).

- Attractions and Transport (HDCN ``AreaInfo/Attractions``, ``HotelInfo/RelativePositions``): sunset on
  2023-06-30 with no successor (deprecation page; platform-now.md C3): an error on each row.
- Cancellation and guarantee policies (Policies rows with CancelPolicyCode, NoShowPenalty,
  GuaranteePolicyCode or EffectiveFrom): the Policies API is the home, but its request serialisation is
  NOT SHOWN (policies_api), so a warning on each row, naming the source page.
- Cells no modular API has a field for (a warning each): ExistsCode, PreventLikelyToBeCancelledBookings and
  OverwriteFutureFees (Property), StateCode and the English AddressHotelName (Contacts), TotalGuestCount
  (Policies), BirthDate (Invoice), awards other than the star rating.
"""

from __future__ import annotations

from workbench.modular import policies_api
from workbench.modular.cells import issue
from workbench.modular.map_details import ENGLISH, PHYSICAL
from workbench.modular.rules import NOT_YET_SENDABLE, not_sent, sunset
from workbench.modular.workbook import PropertyRows, blank, text

__all__ = ["POLICY_COLUMNS", "refusals"]

POLICY_COLUMNS = ("cancel_policy_code", "no_show_penalty", "guarantee_policy_code", "prepayment_effective_from")
_NO_FIELD = {
    "Property": (("exists_code", "HotelCategory@ExistsCode has no field in the Property API"),
                 ("prevent_likely_cancelled", "PreventLikelyToBeCancelledBookings has no published successor"),
                 ("overwrite_future_fees", "the Charges API dates each charge instead (charge periods)")),
    "Policies": (("total_guest_count", "TotalGuestCount has no field in the settings or the Policies API"),),
    "Invoice": (("birth_date", "brazil_tax_details has no birth date"),),
}


def refusals(p: PropertyRows) -> list[dict]:
    """The issues of one property's cells that no modular body carries."""
    out: list[dict] = []
    for row in p.part("Attractions"):
        out.append(sunset(p.cell(row, "attraction_name"), "an attraction (AreaInfo/Attractions)", "2023-06-30"))
    for row in p.part("Transport"):
        out.append(sunset(p.cell(row, "transport_type_code"), "a relative position (HotelInfo/RelativePositions)",
                          "2023-06-30"))
    for row in p.part("Policies"):
        given = [c for c in POLICY_COLUMNS if not blank(row.get(c))]
        if given:
            out.append(issue(p.cell(row, given[0]), NOT_YET_SENDABLE,
                             "cancellation and guarantee policies go to the Policies API (beta), whose request body "
                             f"is not published in full ({policies_api.SOURCE}): not sent yet; set them in the "
                             "extranet meanwhile", severity="warning"))
    for part, cells in _NO_FIELD.items():
        for row in p.part(part):
            for column, why in cells:
                if not blank(row.get(column)):
                    out.append(not_sent(p.cell(row, column), why))
    props = p.part("Property")
    name = (text(props[0].get("hotel_name")) or "") if props else ""
    for row in p.part("Contacts"):
        if not blank(row.get("state_code")):
            out.append(not_sent(p.cell(row, "state_code"), "the Property and Contacts APIs' addresses have no state"))
        english = (text(row.get("address_language")) or "en").casefold() in ENGLISH
        if english and (text(row.get("profile_type")) or "").casefold() == PHYSICAL and not blank(
                row.get("address_hotel_name")) and (text(row.get("address_hotel_name")) or "") != name:
            # the same name as the Property sheet's is sent as property_name; another one has no home
            out.append(not_sent(p.cell(row, "address_hotel_name"), "the English name is the Property sheet's HotelName"))
    for row in p.part("Awards"):
        if (text(row.get("provider")) or "").casefold() != "star rating":
            out.append(not_sent(p.cell(row, "provider"), "the Property API keeps the star rating only"))
    return out
