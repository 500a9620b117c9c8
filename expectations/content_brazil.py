"""Brazilian properties (spec E4 HotelInfo/TPA_Extensions/InvoiceDetails).

A property whose address is in Brazil needs its invoice details: ``CNPJ`` (a company, 14 digits)
or ``CPF`` (a person, 11 digits, with a birth date), each with its check digits (``validate-docbr``),
the city hall id (8 digits) and an invoice e-mail.
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd

from expectations.content_contacts import EMAIL
from expectations.content_frames import Checker, blank, each, not_in

TAX_NUMBER_DIGITS = {"CNPJ": 14, "CPF": 11}
CITY_HALL_DIGITS = 8


@lru_cache(maxsize=65536)
def check_digits_ok(kind: str, digits: str) -> bool:
    """Whether ``digits`` (a CNPJ or a CPF without punctuation) has the right check digits."""
    from validate_docbr import CNPJ, CPF

    doc = CNPJ() if kind == "CNPJ" else CPF()
    return bool(doc.validate(digits))


def check(c: Checker) -> None:
    inv = c.parts["Invoice"]
    prop = c.parts["Property"]
    brazil = c.of_property("Property", "country").eq("BR").fillna(False)
    c.flag("Property", brazil & ~prop["property"].isin(set(inv["property"].dropna())), "property",
           "invoice_details_required", "a property in Brazil needs its invoice details (InvoiceDetails): add a row "
                                       "on the Invoice sheet with the CNPJ or CPF", value=prop["property"])
    kind = inv["tax_type"]
    c.flag("Invoice", blank(inv["tax_type"]), "tax_type", "invoice_tax_type_required", "InvoiceTaxType is `CNPJ` or `CPF`")
    c.flag("Invoice", not_in(kind, TAX_NUMBER_DIGITS), "tax_type", "invoice_tax_type_value",
           "InvoiceTaxType is `CNPJ` (a company) or `CPF` (an individual)")
    number = inv["tax_number"]
    c.flag("Invoice", blank(number), "tax_number", "tax_number_required", "InvoiceTaxNumber is required")
    want = each(kind, TAX_NUMBER_DIGITS.get).astype("Int64")
    wrong_len = number.notna() & want.notna() & number.str.len().ne(want).fillna(False)
    c.flag("Invoice", wrong_len, "tax_number", "tax_number_length",
           lambda sub: [f"a {k} has {TAX_NUMBER_DIGITS[k]} digits; this one has {len(n)}"
                        + (" (leading zeros lost? format the cell as text)" if len(n) < TAX_NUMBER_DIGITS[k] else "")
                        for k, n in zip(kind[sub.index], sub["tax_number"], strict=True)])
    check = number.notna() & want.notna() & ~wrong_len
    ok = pd.Series([check_digits_ok(k, n) if m else True for k, n, m in zip(kind, number, check, strict=True)],
                   index=inv.index, dtype=bool)
    c.flag("Invoice", check & ~ok, "tax_number", "tax_number_check_digits",
           lambda sub: [f"the {k}'s check digits (the last two) do not match its other digits: the number is "
                        "mistyped; copy it again from the registration" for k in kind[sub.index]])
    hall = inv["city_hall_id"]
    c.flag("Invoice", hall.notna() & ~hall.str.fullmatch(rf"\d{{{CITY_HALL_DIGITS}}}").fillna(False),
           "city_hall_id", "city_hall_id_format", f"CityHallInfo@Id is {CITY_HALL_DIGITS} digits")
    c.flag("Invoice", kind.eq("CPF").fillna(False) & inv["birth_date"].isna(), "birth_date", "birth_date_required",
           "a CPF (an individual) needs the person's BirthDate (YYYY-MM-DD)")
    c.flag("Invoice", (inv["birth_date"] > c.today).fillna(False), "birth_date", "birth_date_value",
           "the birth date is in the future: check the year")
    email = inv["invoice_email"]
    c.flag("Invoice", email.notna() & ~email.str.fullmatch(EMAIL.pattern).fillna(False), "invoice_email",
           "email_format", "this is not an e-mail address (name@domain.tld): correct it")
    c.flag("Invoice", inv["property"].notna() & inv["property"].duplicated(keep="first"), "property",
           "invoice_duplicate", "a property has one InvoiceDetails: keep one row", value=inv["property"])
