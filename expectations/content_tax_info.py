"""Property tax information (spec E4 HDC/TPA_Extensions/PropertyTaxInfo, E5 ``/xml/citytaxcategory``).

When any of the three answers (registered in VCS, has VAT, declares revenue) is given, all three
are required; a city tax category is never sent when any answer is 1, and it must be one the
platform lists for the property's city.
"""

from __future__ import annotations

import unicodedata

import pandas as pd

from expectations.content_frames import Checker

ANSWERS = {"tax_registered_in_vcs": "PropertyRegisteredInVcs", "tax_has_vat": "PropertyHasVat",
           "tax_declares_revenue": "PropertyDeclaresRevenue"}


def fold(text: object) -> str:
    """City names compared without case or accents (`São Paulo` = `Sao Paulo`)."""
    if text is None or pd.isna(text):
        return ""
    plain = unicodedata.normalize("NFKD", str(text))
    return "".join(ch for ch in plain if not unicodedata.combining(ch)).casefold().strip()


def check(c: Checker) -> None:
    p = c.parts["Property"]
    given = p[list(ANSWERS)].notna()
    info = given.any(axis=1) | p["tax_category"].notna() | p["tax_nature_category"].notna()
    for col, what in ANSWERS.items():
        c.flag("Property", info & p[col].isna(), col, "tax_info_answers_required",
               f"PropertyTaxInfo needs all three answers (PropertyRegisteredInVcs, PropertyHasVat, "
               f"PropertyDeclaresRevenue); {what} is blank: fill in 1 or 0")
    any_yes = p[list(ANSWERS)].eq(1).fillna(False).any(axis=1)
    c.flag("Property", any_yes & p["tax_category"].notna(), "tax_category", "tax_category_not_allowed",
           "a city tax category must not be sent when any of PropertyRegisteredInVcs, PropertyHasVat or "
           "PropertyDeclaresRevenue is 1: clear PropertyTaxCategory")
    asked = p["tax_category"].notna() & ~any_yes
    if not asked.any():
        return
    table = c.lookups.city_tax_categories
    if table is None:
        c.not_checked("Property", "tax_category", asked, "the platform's city tax categories", "tax_category_unknown")
        return
    country = c.of_property("Property", "country")
    shown_city = c.of_property("Property", "city")
    city = shown_city.astype(object).map(fold)
    known = {(str(k).upper(), fold(t), int(i)) for k, t, i in
             zip(table["country"], table["city"], table["category_id"], strict=True) if not pd.isna(i)}
    names = {int(i): str(n) for i, n in zip(table["category_id"], table["name"], strict=True) if not pd.isna(i)}
    ok = pd.Series([(str(k), t, int(v)) in known if m else True
                    for k, t, v, m in zip(country.fillna(""), city, p["tax_category"].fillna(-1), asked, strict=True)],
                   index=p.index, dtype=bool)

    def message(sub: pd.DataFrame) -> list[str]:
        out = []
        for i in sub.index:
            choices = ", ".join(f"{v} ({names.get(v, '')})" for v in
                                sorted(v for k, t, v in known if k == country[i] and t == city[i]))
            out.append(f"city tax category {p['tax_category'][i]} is not one the platform lists for "
                       f"{shown_city[i]} ({country[i]})"
                       + (f"; it lists {choices}" if choices
                          else "; it lists none for that city (check the address's CityName)"))
        return out
    c.flag("Property", asked & ~ok, "tax_category", "tax_category_unknown", message)
