"""Read operations: ``/hotels/xml/roomrates`` (rooms and their rate plans), ``/xml/currencies``
and ``/xml/countries`` (code lists from CLDR via babel)."""

from __future__ import annotations

from functools import lru_cache

from babel import Locale
from babel.numbers import get_currency_name, get_currency_precision, list_currencies
from lxml import etree

from workbench.ota.ns import localname
from workbench.sandbox.seed import Registry

#: Shown on every rate (the fully flexible policy the spec applies when none is given).
DEFAULT_POLICY = ("General", "152")


class LookupError_(ValueError):
    """A read request the sandbox cannot answer (``code`` is the B.XML fault code)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code, self.text = code, text


def requested_hotel(root: etree._Element | None) -> int:
    """``<request><hotel_id>N</hotel_id></request>`` (also ``hotel_id="N"`` on the root)."""
    if root is None or localname(root) != "request":
        raise LookupError_("400", "send <request><hotel_id>...</hotel_id></request>")
    raw = root.get("hotel_id")
    for child in root:
        if isinstance(child.tag, str) and localname(child) == "hotel_id":
            raw = (child.text or "").strip()
    if not raw or not raw.isdigit():
        raise LookupError_("400", "the request needs a numeric hotel_id")
    return int(raw)


def roomrates(registry: Registry, hotel_id: int) -> etree._Element:
    """Rooms of one property with their active rate plans (child and read-only ones marked).

    Beyond the real platform's attributes the sandbox adds ``max_adults``, ``max_occupancy``,
    ``parent_rate_id`` and ``follows_price``, and the property's ``currency_code`` and
    ``pricing_model`` on ``<rooms>``; clients must tolerate extra attributes anyway.
    """
    prop = next((p for p in registry.properties if p.hotel_code == hotel_id), None)
    if prop is None:
        raise LookupError_("404", f"hotel_id {hotel_id} does not exist or is not connected to this account")
    root = etree.Element("rooms", hotel_id=str(hotel_id), currency_code=prop.currency,
                         pricing_model=prop.pricing_model)
    for room in (r for r in registry.rooms if r.hotel_code == hotel_id):
        el = etree.SubElement(root, "room", id=room.inv_type_code, hotel_id=str(hotel_id), hotel_name=prop.name,
                              max_children=str(room.max_children), room_name=room.name,
                              max_adults=str(room.max_adults), max_occupancy=str(room.max_occupancy))
        rates = etree.SubElement(el, "rates")
        for link in registry.room_rates:
            if link.hotel_code != hotel_id or link.inv_type_code != room.inv_type_code or not link.active:
                continue
            r = etree.SubElement(rates, "rate", id=link.rate_plan_code, rate_name=link.rate_name,
                                 max_persons=str(room.max_occupancy), policy=DEFAULT_POLICY[0],
                                 policy_id=DEFAULT_POLICY[1])
            if link.parent_rate_plan_code:
                r.set("is_child_rate", "1")
                r.set("parent_rate_id", link.parent_rate_plan_code)
                r.set("follows_price", "1" if link.follows_price else "0")
            if link.read_only:
                r.set("readonly", "1")
    return root


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
