"""How values read for people, in every report and CLI line: a missing value is blank (never
``nan``, ``None``, ``NaT`` or ``<NA>``), whole numbers have no ``.0``, and prices are money with
their currency's decimals (``139.00, 169.00 EUR``)."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

#: minor-unit digits that differ from 2 (ISO 4217); the workbench's samples use EUR, PLN, JPY, CHF
_DECIMALS = {"JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "VND": 0, "HUF": 2, "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3,
             "TND": 3}
#: what missing values print as where a blank would be ambiguous (a sentence, not a cell)
DASH = "—"


def is_missing(value: object) -> bool:
    """None, NaN, NaT, ``pd.NA`` (anything pandas calls missing), or an empty string."""
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip() == ""
    if isinstance(value, float):
        return math.isnan(value)
    try:
        import pandas as pd

        result = pd.isna(value)
    except (TypeError, ValueError):
        return False
    return bool(result) if isinstance(result, bool) or getattr(result, "shape", None) == () else False


def text(value: object, blank: str = "") -> str:
    """``value`` as people read it; ``blank`` when it is missing."""
    if is_missing(value):
        return blank
    if type(value).__module__ == "numpy" and hasattr(value, "item"):  # numpy scalars read as Python's
        value = value.item()
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ", timespec="seconds") if value.time() != dt.time(0) else value.date().isoformat()
    if hasattr(value, "to_pydatetime"):  # pandas Timestamp
        return text(value.to_pydatetime(), blank)
    return str(value)


def decimals(currency: str | None) -> int:
    return _DECIMALS.get((currency or "").upper(), 2)


def amount(value: object, currency: str | None = None) -> str:
    """One amount with its currency's decimals (``1,520.40``); ``—`` when missing."""
    return money(value, currency).removesuffix(f" {currency}") if currency else money(value)


def money(amounts: object | Iterable[object], currency: str | None = None) -> str:
    """``139.00, 169.00 EUR``: each amount with the currency's decimals (more when it has more: a
    wrong fraction stays visible), then the currency once."""
    values = [amounts] if isinstance(amounts, (str, int, float, Decimal)) or not isinstance(amounts, Iterable) \
        else list(amounts)
    places = decimals(currency)
    shown = []
    for v in values:
        if is_missing(v):
            shown.append(DASH)
            continue
        try:
            number = Decimal(str(v))
        except InvalidOperation:
            shown.append(str(v))
            continue
        exponent = number.normalize().as_tuple().exponent
        digits = max(places, -exponent if isinstance(exponent, int) else 0)  # never hide a real fraction
        shown.append(f"{number:,.{digits}f}")
    return ", ".join(shown) + (f" {currency}" if currency and shown else "")
