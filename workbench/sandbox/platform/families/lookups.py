"""The lookups family: ``/xml/currencies`` and ``/xml/countries``, code lists from CLDR (via babel),
answered whatever the request says."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from babel import Locale
from babel.numbers import get_currency_name, get_currency_precision, list_currencies
from lxml import etree

from workbench.sandbox.platform.calls import Call, Family, Handler, PlatformState, Reply
from workbench.sandbox.platform.endpoints import bxml
from workbench.sandbox.platform.protocol import bxml_body


@lru_cache(maxsize=1)
def currencies() -> bytes:
    root = etree.Element("currencies")
    for code in sorted(list_currencies()):
        if len(code) == 3 and code.isalpha():
            etree.SubElement(root, "currency", code=code, name=get_currency_name(code, locale="en"),
                             decimal_places=str(get_currency_precision(code)))
    return etree.tostring(root, encoding="utf-8")


@lru_cache(maxsize=1)
def countries() -> bytes:
    root = etree.Element("countries")
    for code, name in sorted(Locale("en").territories.items()):
        if len(code) == 2 and code.isalpha() and code not in ("ZZ", "XA", "XB", "EU", "EZ", "UN", "QO"):
            etree.SubElement(root, "country", code=code, name=name)
    return etree.tostring(root, encoding="utf-8")


def _static(render: Callable[[], bytes]) -> Handler:
    async def handler(sb: PlatformState, call: Call) -> Reply:
        return Reply(200, bxml_body(etree.fromstring(render()), call.ruid), "success")
    return handler


CURRENCIES = bxml("currencies", "currencies")
COUNTRIES = bxml("countries", "countries")
FAMILY = Family("lookups", (CURRENCIES, COUNTRIES),
                {CURRENCIES.name: _static(currencies), COUNTRIES.name: _static(countries)})
