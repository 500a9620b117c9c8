"""Content amounts written with their currency (``30 EUR``, ``€ 30``): the mark is checked, never dropped.

The request sends a fee's, a tax's or a route's price as a bare number, in the property's currency
(a route's price in its own ``PriceCurrencyCode`` when given). So a mark (read by
``loaders.money``, as the rates loader reads it) must name that currency; otherwise the cell is an
``amount_currency`` error naming both currencies, and its value is left blank. A mark on a number
that is not money (a percentage, a distance, a coordinate) is ``not_a_number``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: (part, column) of the amounts, and the column of the row that gives their currency, if any
MONEY: dict[tuple[str, str], str | None] = {("Taxes", "amount"): None, ("Fees", "amount"): None,
                                            ("Transport", "price_amount"): "price_currency"}


def _issue(m: dict, rule: str, message: str) -> dict:
    return {"source": m["source"], "sheet": m["sheet"], "row": m["row"], "column": m["header"], "value": m["text"],
            "rule": rule, "severity": "error", "message": message}


def _said(codes: str) -> str:
    options = codes.split()
    return options[0] if len(options) == 1 else "one of " + ", ".join(options[:4]) + (" …" if len(options) > 4 else "")


def check_amount_marks(parts: dict[str, pd.DataFrame], marked: list[dict], records: list[dict]) -> None:
    """Issues for the ``marked`` cells (``part``, ``column``, ``at`` the row's position in the part's frame,
    ``text``, ``codes``, provenance) whose mark is not the currency the amount is sent in; their values are
    blanked in ``parts``."""
    if not marked:
        return
    prop = parts["Property"]
    own = dict(zip(prop["property"].tolist(), prop["currency_code"].tolist(), strict=True))
    blank: dict[tuple[str, str], list[int]] = {}
    for m in marked:
        part, column = m["part"], m["column"]
        frame = parts[part]
        if (part, column) not in MONEY:
            records.append(_issue(m, "not_a_number", f"`{m['text']}` carries a currency, and {m['header']} is a plain "
                                                     "number: remove the currency"))
            blank.setdefault((part, column), []).append(m["at"])
            continue
        row_currency = MONEY[(part, column)]
        given = frame[row_currency].iloc[m["at"]] if row_currency else None
        currency = given if isinstance(given, str) else own.get(frame["property"].iloc[m["at"]])
        currency = currency if isinstance(currency, str) else None
        if currency is not None and currency in m["codes"].split():
            continue
        said = _said(m["codes"])
        if currency is None:
            message = (f"`{m['text']}` is written in {said}, but the property's currency is not given (CurrencyCode on "
                       "the Property sheet): the amount is sent as a number in the property's currency, so write it "
                       "without the currency, or give CurrencyCode")
        else:
            whose = "the row's currency (PriceCurrencyCode)" if isinstance(given, str) else \
                "the property's currency (CurrencyCode)"
            message = (f"`{m['text']}` is written in {said}, but {whose} is {currency}: give the amount in {currency}, "
                       "or correct the currency")
        records.append(_issue(m, "amount_currency", message))
        blank.setdefault((part, column), []).append(m["at"])
    for (part, column), at in blank.items():
        values = parts[part][column].to_numpy(copy=True)
        values[np.asarray(at)] = np.nan
        parts[part][column] = pd.Series(values, index=parts[part].index, dtype="float64")


__all__ = ["MONEY", "check_amount_marks"]
